"""The commit batcher: every table's writes go through one task that commits them in batches.

A table hands over a unit of work (a coroutine function taking a session) and waits until
it is committed; only then does it tell anybody about the action. While one commit is in
flight the next units queue up and are committed together, so with many busy tables the
database sees few, larger transactions instead of one per action — the cheap way to keep
"durable before published" at thousands of actions per second, on SQLite as on PostgreSQL.

If a batch fails, its units are retried one by one, so that one bad unit fails alone.

On a SQLite file the action-log rows of a batch go through :class:`SqliteActionLog` (one
INSERT and one COMMIT in one hand-over to its thread) and the other units, rare, through a
session as before, each part in its own transaction; a caller is told only once its own
part is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store.errors import StoreError
from server.store.log import ActionEntry, SqliteActionLog
from server.store.models import ActionRow

logger = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[AsyncSession], Awaitable[Any]]
Unit = Work | ActionEntry  # a unit of work, or one action-log row to insert
Item = tuple[Unit, asyncio.Future[Any]]
COLUMNS = ("deal_id", "seq", "seat", "text")


class Writer:
    """One task that commits queued units of work, many per transaction."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        max_batch: int = 500,
        action_log: SqliteActionLog | None = None,
    ) -> None:
        self._sessions = sessions
        self._max_batch = max_batch
        self._action_log = action_log
        self._queue: asyncio.Queue[Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.units = 0

    def start(self) -> None:
        """Start the writer task (inside the running event loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="stammtisch-writer")

    async def stop(self) -> None:
        """Finish what is queued, then stop."""
        if self._task is None:
            return
        await self._queue.join()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        if self._action_log is not None:
            await self._action_log.close()

    async def run(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Queue ``work`` and wait until it is committed; return its result."""
        if self._task is None:
            raise RuntimeError("the writer is not running")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((work, future))
        return await future

    async def append_action(self, deal_id: int, seq: int, seat: int, text: str) -> None:
        """Append one entry to the action log and wait until it is committed.

        The rows of one batch go in with a single INSERT, the bulk of the writes at play.
        """
        if self._task is None:
            raise RuntimeError("the writer is not running")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(((deal_id, seq, seat, text), future))
        await future

    async def _loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self._max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                if self._action_log is None:
                    await self._commit(batch)
                else:
                    rows = [item for item in batch if isinstance(item[0], tuple)]
                    if rows:
                        await self._commit(rows, self._append_rows)
                    if len(rows) < len(batch):
                        await self._commit([i for i in batch if not isinstance(i[0], tuple)])
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _in_session(self, batch: list[Item]) -> list[Any]:
        """Commit ``batch`` in one session: the rows in one INSERT, then the other units."""
        async with self._sessions() as session:
            rows = [dict(zip(COLUMNS, unit, strict=True)) for unit, _ in batch
                    if isinstance(unit, tuple)]  # fmt: skip
            if rows:
                await session.execute(insert(ActionRow), rows)
            results = [
                None if isinstance(unit, tuple) else await unit(session) for unit, _ in batch
            ]
            await session.commit()
        return results

    async def _append_rows(self, batch: list[Item]) -> list[Any]:
        """Commit a batch of action-log rows only, through the SQLite action log."""
        assert self._action_log is not None
        await self._action_log.append([unit for unit, _ in batch if isinstance(unit, tuple)])
        return [None] * len(batch)

    async def _commit(
        self, batch: list[Item], how: Callable[[list[Item]], Awaitable[list[Any]]] | None = None
    ) -> None:
        how = how or self._in_session
        try:
            results = await how(batch)
        except Exception as exc:
            if len(batch) == 1:
                future = batch[0][1]
                if isinstance(exc, StoreError):  # a refusal the caller expects to handle
                    refusal: Exception = exc
                else:
                    logger.exception("a write failed")
                    refusal = StorageError("the database refused the write")
                if not future.done():
                    future.set_exception(refusal)
                return
            for unit in batch:  # find the bad unit: one transaction each
                await self._commit([unit], how)
            return
        self.batches += 1
        self.units += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)


class StorageError(RuntimeError):
    """A write could not be committed; nothing of it was stored."""
