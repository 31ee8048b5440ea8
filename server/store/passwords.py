"""Password hashing (argon2id) in a small pool of its own, bounded.

argon2 is made to be slow (about a quarter of a second of CPU per hash with the library's
parameters). :class:`PasswordPool` runs it on a few dedicated threads (argon2 releases the
GIL, so the event loop keeps serving on another CPU) and lets only a bounded number of
requests wait for a thread: one more is refused at once with :class:`PasswordsBusy`,
which the HTTP layer turns into 503 ``busy`` with ``Retry-After``, instead of queueing
without end while every request waits. A request takes its place
(:meth:`PasswordPool.reserve`) before it touches the database, so a refusal costs nothing.

Callers must not hold a database connection while they await a hash (see
:mod:`server.api.auth`): the pool's wait would otherwise become the connection pool's.
"""

from __future__ import annotations

import asyncio
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

T = TypeVar("T")

#: argon2id with the library's recommended parameters.
HASHER = PasswordHasher()
# Verified against when a login is unknown, so that both failures cost the same time.
DUMMY_HASH = HASHER.hash(secrets.token_urlsafe(16))


def default_workers() -> int:
    """Hashing threads: half the CPUs this process may use (at least 1, at most 2), so
    that the event loop always keeps a CPU of its own."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus // 2))


#: Hashes that may wait for a thread, per thread, before new ones are refused.
WAITING_PER_WORKER = 8
#: Places per thread beyond those that only a login from a known browser may take (its
#: device cookie, :mod:`server.api.devices`): a flood that fills the pool with logins for
#: names without an account still leaves the owner's own browser a place.
KNOWN_PER_WORKER = 2


class PasswordWork(Protocol):
    """What password work needs: a :class:`PasswordPool` or one request's place in it."""

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password``."""
        ...

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash`` (False without a hash)."""
        ...

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether ``password_hash`` was made with other parameters than today's."""
        ...


class PasswordsBusy(Exception):
    """Too many hashes are waiting already; ``retry_after`` estimates when to try again."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"password hashing is busy; retry after {retry_after:.1f} s")
        self.retry_after = retry_after


class PasswordPool:
    """Hashes and verifies passwords on ``workers`` threads (default:
    :func:`default_workers`) with at most ``waiting`` more jobs queued (default:
    :data:`WAITING_PER_WORKER` per thread); ``bounded=False`` queues without limit (for
    servers whose limits are switched off).

    A request takes its place first (:meth:`reserve`), before it reads what it needs from
    the database, so that a full pool refuses it before it has cost anything."""

    def __init__(
        self,
        workers: int | None = None,
        waiting: int | None = None,
        *,
        bounded: bool = True,
        hasher: PasswordHasher = HASHER,
    ) -> None:
        self.workers = workers or default_workers()
        self.waiting = self.workers * WAITING_PER_WORKER if waiting is None else waiting
        self.bounded = bounded
        self.hasher = hasher
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2")
        self._lock = threading.Lock()
        self._in_flight = 0
        #: Running mean of a job's duration in seconds (for Retry-After).
        self.seconds_per_job = 0.3

    @property
    def in_flight(self) -> int:
        """Places taken now (jobs running or waiting, and requests about to submit one)."""
        return self._in_flight

    def retry_after(self) -> float:
        """Roughly when the jobs in flight now will be done, in seconds."""
        return max(1.0, math.ceil(self._in_flight / self.workers * self.seconds_per_job))

    def reserve(self, known: bool = False) -> Reservation:
        """Take a place for one request's password work (use it as a context manager);
        raise :class:`PasswordsBusy` when ``workers + waiting`` places are taken, or, for
        a login from a known browser (``known``), :data:`KNOWN_PER_WORKER` more per thread."""
        with self._lock:
            limit = self.workers + self.waiting
            if known:
                limit += self.workers * KNOWN_PER_WORKER
            if self.bounded and self._in_flight >= limit:
                raise PasswordsBusy(self.retry_after())
            self._in_flight += 1
        return Reservation(self)

    def _release(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _timed(self, work: Callable[[], T]) -> T:
        started = time.perf_counter()
        try:
            return work()
        finally:
            elapsed = time.perf_counter() - started
            self.seconds_per_job += (elapsed - self.seconds_per_job) * 0.2

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` (in a place of its own); raises
        :class:`PasswordsBusy`."""
        with self.reserve() as place:
            return await place.hash(password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """:meth:`Reservation.verify` in a place of its own; raises :class:`PasswordsBusy`."""
        with self.reserve() as place:
            return await place.verify(password_hash, password)

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether ``password_hash`` was made with other parameters than today's."""
        return self.hasher.check_needs_rehash(password_hash)

    def shutdown(self) -> None:
        """Stop the threads once the queued jobs are done."""
        self._executor.shutdown(wait=False, cancel_futures=True)


class Reservation:
    """A request's place in a :class:`PasswordPool`: its password work runs on the pool's
    threads, one job after the other. The place is given back when the request leaves the
    ``with`` block, or, if a job of it is still running then (the request went away), when
    that job is done."""

    def __init__(self, pool: PasswordPool) -> None:
        self.pool = pool
        self._running: Future[Any] | None = None
        self._released = False

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()

    def release(self) -> None:
        """Give the place back (once)."""
        if self._released:
            return
        self._released = True
        running = self._running
        if running is not None and not running.done():
            running.add_done_callback(lambda _future: self.pool._release())
        else:
            self.pool._release()

    async def _run(self, work: Callable[[], T]) -> T:
        if self._released:
            raise RuntimeError("this place in the password pool was given back")
        future = self.pool._executor.submit(self.pool._timed, work)
        self._running = future
        return await asyncio.wrap_future(future)

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password``."""
        hasher = self.pool.hasher
        return await self._run(lambda: hasher.hash(password))

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``; without a hash the same work is
        done against a dummy hash and the answer is False."""
        hasher = self.pool.hasher

        def verify() -> bool:
            try:
                matched = hasher.verify(password_hash or DUMMY_HASH, password)
            except (VerificationError, InvalidHashError):
                return False
            return matched and password_hash is not None

        return await self._run(verify)

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether ``password_hash`` was made with other parameters than today's."""
        return self.pool.needs_rehash(password_hash)


_default: PasswordPool | None = None


def default_pool() -> PasswordPool:
    """The process's pool (bounded), created on first use."""
    global _default
    if _default is None:
        _default = PasswordPool()
    return _default
