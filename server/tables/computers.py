"""Computer players' decisions, off the event loop: :class:`Thinker`.

The table asks ``await thinker.decide(info, level, seed)`` for a computer player's move
(:func:`server.bots.choose`, generic: the table knows no game). A level that searches
(``stark``, up to hundreds of milliseconds) thinks in a pool of worker processes, so that
no table of people ever waits for it: ``STAMMTISCH_COMPUTER_PROCESSES`` of them (default:
the machine's cores less one, at least one), started on the first such decision, at a
lower priority than the server (:data:`WORKER_NICE`): when the machine is busy, the event
loop that serves the tables of people comes first, and the searching players think a
little longer (measured in docs/benchmarks.md, "Computer tables"). The
rule-based levels (``einsteiger``, ``random``) decide in well under a millisecond
(``tests/test_computer_players.py`` measures it: below 5 ms) and run on the loop, where a
trip to another process would cost more than the decision itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import os
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from server.bots import choose
from server.bots.players import game_module_name

#: Levels that decide on the event loop (measured far below 5 ms a decision).
INLINE_LEVELS = frozenset({"random", "einsteiger"})
#: How much lower the pool's workers run than the server (added to its niceness).
WORKER_NICE = 10


def _lower_priority() -> None:
    """A worker's first step: run below the server (where the system lets it)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)


def default_processes() -> int:
    """The default size of the pool: the machine's cores less one, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    """Decides computer players' moves: inline for the quick levels, else in a process
    pool of ``processes`` workers (created when first needed)."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or default_processes()
        self._pool: ProcessPoolExecutor | None = None

    async def prepare(self, game: str) -> None:
        """Import ``game``'s rule-based player (in a thread), before a table of that game
        with computer players starts: its first decision then does not pay for the
        import on the loop (tens to hundreds of milliseconds)."""
        name = game_module_name(game)

        def load() -> None:
            # a game without a player: the player says so when it is asked to play
            with contextlib.suppress(ModuleNotFoundError):
                importlib.import_module(name)

        await asyncio.to_thread(load)

    async def decide(self, info: Mapping[str, Any], level: str, seed: int) -> str:
        """The action text the computer player of ``level`` makes in ``info`` (its
        information set, plain JSON) with ``seed``; the same three give the same action.
        Raises whatever the player raises (the table then plays a default move)."""
        if level in INLINE_LEVELS:
            return choose(info, level, seed)
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            return await loop.run_in_executor(pool, choose, dict(info), level, seed)
        except BrokenProcessPool:  # a worker died: the next decision gets a new pool
            if self._pool is pool:
                self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: a worker starts clean, without the server's threads,
            # sockets and database connections
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes, mp_context=context, initializer=_lower_priority
            )
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (server shutdown); what they think is dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
