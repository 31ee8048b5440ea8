"""A login flood against a real server must not stall everybody else (issue 11).

30 parallel logins with unknown names used to hold a database connection each while
argon2 ran, and a logged-in user's ``/api/me`` went from 4 ms to seconds: as long as the
flood itself. Asserted as a ratio within the same run, not against a clock (a busy machine
slows both alike): the user is answered over and over while the flood lasts, each answer
in a small part of the flood's time. The figures of the benchmark behind this test
(``bench/login_flood.py``) are in docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.login_flood import flood_round, set_up
from tests.support import server_process

pytestmark = pytest.mark.live_server


def test_me_stays_fast_during_a_login_flood(play_db_url: str, tmp_path: Path) -> None:
    """On SQLite and on PostgreSQL (whose pool of 15 connections the flood used to fill)."""
    with server_process(play_db_url, tmp_path / "uvicorn.log", "--no-access-log") as (
        base_url,
        _process,
    ):

        async def scenario() -> dict[str, object]:
            target = await set_up("server", base_url)
            return await flood_round(target, logins=30, variant="unknown")

        result = asyncio.run(scenario())
    statuses = result["statuses"]
    assert isinstance(statuses, dict)
    assert set(statuses) <= {401, 429, 503}, statuses  # refused, never failed
    assert sum(statuses.values()) == 30
    p50, flood_ms = result["me_p50_ms"], result["flood_s"]
    assert isinstance(p50, float) and isinstance(flood_ms, float)
    # stalled, the user's requests took as long as the flood (about one answer per flood)
    assert p50 * 10 < flood_ms * 1000, result
    me_requests = result["me_requests"]
    assert isinstance(me_requests, int) and me_requests >= 5, result
    assert result["owner_login"] == 200
