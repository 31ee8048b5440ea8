"""The correspondence deadlines: a task that moves for whoever let his time run out.

Every ``poll`` seconds (``STAMMTISCH_DEADLINE_POLL_SECONDS``) it reads the stored turns
whose deadline is at or before the server's wall clock (:mod:`server.clock`), of running
matches that are not paused, and lets each one's table move for the seat exactly as a
live turn timer running out would (:meth:`server.tables.table.Table.deadline_passed`: the
room's stand-in, marked, or the passive move, stored as ``auto``). The turn's version
guards it: a move that came meanwhile wins. With several processes each acts only for the
tables it serves or can take over (:meth:`server.tables.manager.TableManager.deadline_passed`).
"""

from __future__ import annotations

import asyncio
import logging

from server.background import stop_task
from server.clock import Clock
from server.store import turns
from server.tables.manager import TableManager

logger = logging.getLogger(__name__)


class Deadlines:
    """The task that looks for due deadlines and has them acted on."""

    def __init__(self, manager: TableManager, clock: Clock, poll: float) -> None:
        self.manager = manager
        self.clock = clock
        self.poll = max(0.05, poll)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start looking (inside the running event loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="stammtisch-deadlines")

    async def stop(self) -> None:
        """Stop looking."""
        task, self._task = self._task, None
        await stop_task(task)

    async def check(self) -> int:
        """Look once: act for every due turn; return for how many the tables acted."""
        async with self.manager.sessions() as session:
            due = await turns.due_turns(session, self.clock.now())
        acted = 0
        for turn in due:
            try:
                acted += await self.manager.deadline_passed(turn)
            except asyncio.CancelledError:
                raise
            except Exception:  # one table's trouble must not stop the others' deadlines
                logger.exception("the deadline of match %s could not be acted on", turn.match_id)
        return acted

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away for a moment: the next look tries again
                logger.exception("looking for due deadlines failed")
