"""The commit batcher: every table's writes go through one task that commits them in batches.

A table hands over a unit of work (an action-log row, a function of a synchronous
connection, or, rarely, a coroutine function taking an ORM session) and waits until it is
committed; only then does it tell anybody about the action. While one commit is in
flight the next units queue up and are committed together, so with many busy tables the
database sees few, larger transactions instead of one per action — the cheap way to keep
"durable before published" at thousands of actions per second, on SQLite as on PostgreSQL.

If a batch fails because of what is in it (a broken key, say), its units are retried one by
one, so that one bad unit fails alone. If it fails because the database could not be
reached or was locked, every unit of it fails at once with a *transient*
:class:`StorageError`, which the table retries with back-off: trying each unit on its own
against a locked database would hold every table up once per unit.

The writes of a running table (action rows, deals dealt and finished) are synchronous
SQLAlchemy Core work (:meth:`Writer.execute`): on a SQLite file they go through
:class:`SqliteWriter`, one INSERT for the rows and one COMMIT for the batch, inline on the
loop; elsewhere on the writer's own connection, held open between batches. Rare ORM work
(a match started) goes through a session of its own; a caller is told only once its own
part is committed. How long each committed batch took goes to the metrics
(``stammtisch_write_seconds``, :mod:`server.metrics`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, insert
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from server import metrics
from server.background import stop_task
from server.store.errors import FencedError, StoreError
from server.store.log import (
    ActionEntry,
    Fence,
    SqliteWriter,
    SyncWork,
    fenced_off,
    insert_action,
)
from server.store.models import ActionRow

logger = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[AsyncSession], Awaitable[Any]]


@dataclass(frozen=True)
class Sync:
    """A unit of synchronous work (a function of a connection), see :meth:`Writer.execute`."""

    work: SyncWork


@dataclass(frozen=True)
class FencedRow:
    """An action-log row stored only while its table is still this process's (several
    processes: :class:`~server.store.log.Fence`); the rows of a batch share one check per
    match and one INSERT."""

    row: ActionEntry
    fence: Fence


# async work, sync work, one action-log row to insert, or one behind its table's fence
Unit = Work | Sync | ActionEntry | FencedRow
Item = tuple[Unit, asyncio.Future[Any]]
COLUMNS = ("deal_id", "seq", "seat", "text", "client_id")
PG_INSERT = (
    f"INSERT INTO {ActionRow.__tablename__} ({', '.join(COLUMNS)}) VALUES ($1, $2, $3, $4, $5)"
)


class Writer:
    """One task that commits queued units of work, many per transaction."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        max_batch: int = 500,
        sqlite: SqliteWriter | None = None,
        stats: metrics.Metrics | None = None,
    ) -> None:
        self._sessions = sessions
        #: where the commit latency of each batch goes (default: this process's metrics)
        self._stats = stats or metrics.PROCESS
        self._max_batch = max_batch
        self._sqlite = sqlite
        bind = sessions.kw.get("bind")
        if not isinstance(bind, AsyncEngine):
            raise TypeError("the writer needs sessions bound to an async engine")
        self._engine = bind
        self._postgres = bind.dialect.name == "postgresql"
        # the writer's own connections (not on a SQLite file): for transactions, and (on
        # PostgreSQL) one in autocommit mode for batches of rows only
        self._held: AsyncConnection | None = None
        self._held_autocommit: AsyncConnection | None = None
        # action rows and sync units: through the SQLite writer, or the held connections
        self._fast = self._in_sqlite if sqlite is not None else self._in_connection
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
        task, self._task = self._task, None
        await stop_task(task)
        if self._sqlite is not None:
            await self._sqlite.close()
        for held in (self._held, self._held_autocommit):
            if held is not None:
                with contextlib.suppress(Exception):
                    await held.close()
        self._held = self._held_autocommit = None

    def _submit(self, unit: Unit) -> asyncio.Future[Any]:
        if self._task is None:
            raise RuntimeError("the writer is not running")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((unit, future))
        return future

    async def run(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Queue ``work`` (with an async session) and wait until it is committed; return
        its result. For the rare writes that need the ORM; see :meth:`execute`."""
        result: T = await self._submit(work)
        return result

    async def execute(self, work: Callable[[Connection], T]) -> T:
        """Queue ``work`` (with a synchronous connection) and wait until it is committed;
        return its result. The writes of a running table: on a SQLite file they share the
        batch's transaction with the action rows, inline on the loop."""
        result: T = await self._submit(Sync(work))
        return result

    async def append_action(
        self,
        deal_id: int,
        seq: int,
        seat: int,
        text: str,
        client_id: str | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Append one entry to the action log and wait until it is committed (``client_id``:
        the id of the client's message, as JSON text; ``fence``: only while the table is
        still this process's, else :class:`~server.store.errors.FencedError`).

        The rows of one batch go in with a single INSERT, the bulk of the writes at play.
        """
        row: ActionEntry = (deal_id, seq, seat, text, client_id)
        if fence is None:
            await self._submit(row)
        elif self._sqlite is not None:  # (several processes need PostgreSQL)

            def fenced(connection: Connection) -> None:
                fence(connection)
                insert_action(connection, row)

            await self.execute(fenced)
        else:
            await self._submit(FencedRow(row, fence))

    async def _loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self._max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:  # rows and sync units one way, async (ORM) work in a session
                fast = [item for item in batch if not callable(item[0])]
                if fast:
                    await self._commit(fast, self._fast)
                if len(fast) < len(batch):
                    await self._commit([i for i in batch if callable(i[0])], self._in_session)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _in_session(self, batch: list[Item]) -> list[Any]:
        """Commit a batch of async (ORM) work in one session."""
        async with self._sessions() as session:
            results = [await unit(session) for unit, _ in batch if callable(unit)]
            await session.commit()
        return results

    async def _in_connection(self, batch: list[Item]) -> list[Any]:
        """Commit a batch of action-log rows and sync units on the writer's own connections
        (PostgreSQL), held open: no session and no pool check-out per batch (each of which
        cost a round trip to the server).

        On PostgreSQL a batch of rows only, the usual one, is one INSERT for all rows on a
        connection in autocommit mode (asyncpg's ``executemany`` is atomic since 0.22: one
        implicit transaction, all or nothing), committed when it returns, in one round trip
        instead of three (BEGIN, INSERT, COMMIT). Any other batch is one transaction.
        """
        autocommit = self._postgres and all(isinstance(unit, tuple) for unit, _ in batch)
        connection = self._held_autocommit if autocommit else self._held
        if connection is None:
            connection = await self._engine.connect()
            if autocommit:
                connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
                self._held_autocommit = connection
            else:
                self._held = connection
        try:
            if autocommit:  # straight to asyncpg, as the SQLite writer goes to sqlite3
                raw = (await connection.get_raw_connection()).driver_connection
                assert raw is not None
                await raw.executemany(PG_INSERT, [unit for unit, _ in batch])
                return [None] * len(batch)
            rows = [dict(zip(COLUMNS, unit, strict=True)) for unit, _ in batch
                    if isinstance(unit, tuple)]  # fmt: skip
            async with connection.begin():
                fenced = [(unit, future) for unit, future in batch if isinstance(unit, FencedRow)]
                if fenced:  # one check per match for the batch; the rows of the others go in
                    off = await fenced_off(connection, [unit.fence for unit, _ in fenced])
                    for unit, future in fenced:
                        if unit.fence in off:
                            if not future.done():
                                future.set_exception(FencedError())
                        else:
                            rows.append(dict(zip(COLUMNS, unit.row, strict=True)))
                if rows:
                    await connection.execute(insert(ActionRow), rows)
                return [
                    await connection.run_sync(unit.work) if isinstance(unit, Sync) else None
                    for unit, _ in batch
                ]
        except BaseException:
            # it may be broken: the next batch connects afresh
            if autocommit:
                self._held_autocommit = None
            else:
                self._held = None
            with contextlib.suppress(Exception):
                await connection.invalidate()
            with contextlib.suppress(Exception):
                await connection.close()
            raise

    async def _in_sqlite(self, batch: list[Item]) -> list[Any]:
        """Commit a batch of action-log rows and sync units through the SQLite writer."""
        assert self._sqlite is not None
        rows = [unit for unit, _ in batch if isinstance(unit, tuple)]
        units = [unit.work for unit, _ in batch if isinstance(unit, Sync)]
        done = iter(await self._sqlite.commit(rows, units))
        return [next(done) if isinstance(unit, Sync) else None for unit, _ in batch]

    async def _commit(
        self,
        batch: list[Item],
        how: Callable[[list[Item]], Awaitable[list[Any]]],
        *,
        reconnected: bool = False,
    ) -> None:
        started = time.perf_counter()
        try:
            results = await how(batch)
        except Exception as exc:
            if connection_lost(exc) and not reconnected:  # once more, on a fresh connection
                logger.warning("the database connection was lost (%s); reconnecting", exc)
                await self._commit(batch, how, reconnected=True)
                return
            if is_transient(exc):  # the database, not the batch: all of it may be retried
                logger.warning("a batch of %d writes failed: %s", len(batch), exc)
                for _, future in batch:
                    if not future.done():
                        future.set_exception(StorageError("the database is not available",
                                                          transient=True))  # fmt: skip
                return
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
        self._stats.write_committed(time.perf_counter() - started)
        self.batches += 1
        self.units += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)


def connection_lost(exc: BaseException) -> bool:
    """Whether ``exc`` says the connection to the database was lost (a fresh connection may
    well work at once)."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, InterfaceError | DisconnectionError | ConnectionError):
        return True
    # asyncpg's own errors, when raised straight from its driver connection
    name = type(exc).__name__
    return type(exc).__module__.startswith("asyncpg") and (
        "Connection" in name or "Interface" in name
    )


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not take the write now (unreachable,
    connection lost, locked, timed out) rather than that the write itself is wrong."""
    return connection_lost(exc) or isinstance(
        exc, OperationalError | sqlite3.OperationalError | OSError | TimeoutError
    )


class StorageError(RuntimeError):
    """A write could not be committed; nothing of it was stored (as far as this process
    can tell: after a lost connection the commit may have happened, so retries must be
    idempotent). ``transient``: the database was unavailable, trying again may work."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient
