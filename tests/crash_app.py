"""The server with a crash point, for the kill tests (tests/test_crash.py): uvicorn serves
``tests.crash_app:app``, which kills its own process with SIGKILL at the write boundary
that ``STAMMTISCH_TEST_CRASH`` names:

``action:N``
    right after the N-th action that does not end a deal is committed, before anybody is
    told about it;
``deal_end:N:before``
    inside the transaction of the N-th deal's end, before its commit (so nothing of it is
    stored);
``deal_end:N:after``
    right after the N-th deal's end is committed, before anybody is told about it.

No shutdown runs and nothing is flushed: to the database this is a crash.
"""

from __future__ import annotations

import os
import signal
from typing import Any

from sqlalchemy import Connection

from server.api.app import create_app
from server.store import log
from server.tables.writer import Writer


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _install(spec: str) -> None:
    kind, number, *rest = spec.split(":")
    target = int(number)
    when = rest[0] if rest else "after"
    seen = 0
    if kind == "action":
        append = Writer.append_action

        async def append_action(self: Writer, *args: Any, **kwargs: Any) -> None:
            nonlocal seen
            await append(self, *args, **kwargs)
            seen += 1
            if seen == target:
                _die()

        Writer.append_action = append_action  # type: ignore[method-assign]
        return
    if kind != "deal_end" or when not in ("before", "after"):
        raise ValueError(f"unknown crash point {spec!r}")
    end_deal = log.end_deal
    committed = False

    def crashing_end_deal(connection: Connection, end: log.DealEnd) -> int | None:
        nonlocal seen, committed
        result = end_deal(connection, end)
        seen += 1
        if seen == target:
            if when == "before":
                _die()  # inside the transaction: nothing of it is committed
            committed = True  # die once the commit is through
        return result

    execute = Writer.execute

    async def execute_then_die(self: Writer, work: Any) -> Any:
        result = await execute(self, work)
        if committed:
            _die()
        return result

    log.end_deal = crashing_end_deal
    Writer.execute = execute_then_die  # type: ignore[method-assign]


_install(os.environ["STAMMTISCH_TEST_CRASH"])
app = create_app()
