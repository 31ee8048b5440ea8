"""The login flood benchmark (``bench/login_flood.py``) in a short run, so that it keeps
working: the server as deployed (``python -m server``), 40 workers logging in with
unknown names from many addresses, a logged-in user and a known user's browser with its
device cookie (issue 26).

Nothing here is timed (the figures are in docs/benchmarks.md): the flood is refused,
never failed; the logged-in user is answered throughout; and the known user's browser logs
in every time, although the flood empties the server's login budget (a browser without
the device cookie may be refused then, and that is not asserted either way).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bench.login_flood import run_round, serve, set_up

pytestmark = pytest.mark.live_server


def test_a_known_browser_logs_in_during_a_flood(play_db_url: str, tmp_path: Path) -> None:
    """On SQLite and on PostgreSQL."""
    with serve(tmp_path, database_url=play_db_url) as base_url:

        async def scenario() -> list[dict[str, Any]]:
            target = await set_up("server", base_url)
            return await run_round(target, seconds=2.5, workers=40)

        baseline, flood = asyncio.run(scenario())
    assert baseline["phase"] == "baseline" and flood["phase"] == "flood"
    for row in (baseline, flood):
        assert row["me_requests"] >= 5, row  # /api/me answered 200 all along (else it raises)
        assert row["device_logins"] and set(row["device_logins"]) == {200}, row
        assert row["reconnects"] >= 1, row
    statuses = flood["flood"]["statuses"]
    assert set(statuses) <= {"401", "429", "503"}, statuses  # refused, never failed
    assert sum(statuses.values()) >= 40, statuses
