"""Limits that hold across several server processes, kept in Redis.

With ``STAMMTISCH_REDIS_URL`` unset there is one process and none of this runs: the
login throttle (:mod:`server.api.throttle`) and the per-user socket count
(:class:`server.tables.manager.TableManager`) keep their state in the process's memory,
exactly as they always did. With it set, each process keeps that in-memory state too, and
in addition asks Redis, through the two classes here:

* :class:`SharedWindows`: moving windows ("at most ``amount`` hits in any ``seconds``"),
  kept by the `limits <https://limits.readthedocs.io>`_ library's Redis storage (one list
  of time stamps per key, trimmed and checked atomically by a Lua script). The throttle
  turns each of its token buckets into the moving window with the same burst and the same
  long-run rate (:func:`server.api.throttle.window_of`), and its lockout (10 failed logins
  in 5 minutes) is a moving window already.
* :class:`SharedSockets`: the table sockets of one user on all processes, a sorted set per
  user of socket ids scored by the time at which each stops counting. A process renews
  the scores of its own sockets every :data:`HEARTBEAT_SECONDS`; the sockets of a process
  that was killed stop counting :data:`SOCKET_TTL_SECONDS` after its last renewal.

**When Redis does not answer** (down, unreachable, not within :data:`REDIS_TIMEOUT`, tried
twice), no
request fails because of it: each limit falls back to the process's own in-memory count,
with today's numbers, so a cluster of N processes admits at most N times a limit while
Redis is away (every limit still holds per process). The first failure is logged as a
warning naming the fallback, and the recovery once (:class:`Outage`). A socket admitted
while Redis was away is added to the shared count by the next heartbeat that reaches it, and
so is a socket of a process that could not renew its sockets for a while (stalled, cut
off) and whose sockets therefore stopped counting meanwhile.

Time stamps are the processes' wall clocks (``time.time()``, as the library does), so the
machines of a cluster keep their clocks in step (NTP); a clock that is off by a second
moves a window's edge by a second, no more.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import redis.asyncio as aioredis
from limits import RateLimitItemPerSecond
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from server.background import stop_task

logger = logging.getLogger(__name__)

Clock = Callable[[], float]

#: Seconds a Redis command may take (to connect, or to answer) before the limit falls
#: back to this process's own count; a login never waits longer than that for Redis.
REDIS_TIMEOUT = 1.0
#: Seconds after a failure in which Redis is not asked (the fallback counts at once).
OUTAGE_PAUSE = 5.0
#: Every Redis key of the limits starts with this, unless it has a database's name
#: (:func:`limits_prefix`; a test uses a prefix of its own).
DEFAULT_PREFIX = "stammtisch:limits"
#: Seconds between the renewals of a process's own sockets in the shared count.
HEARTBEAT_SECONDS = 5.0
#: Seconds after its last renewal at which a socket stops counting (its process died).
SOCKET_TTL_SECONDS = 15.0

#: What a Redis server that is away raises (through the library, or directly).
REDIS_FAILURES: tuple[type[BaseException], ...] = (
    RedisError,
    StorageError,
    OSError,
    asyncio.TimeoutError,
)


def limits_prefix(database: str | None) -> str:
    """The prefix of the limits' keys for the processes of ``database`` (its name, as
    the cluster's keys have it: ``stammtisch:<database>:``), so that two deployments on
    one Redis server do not count each other's logins.

    >>> limits_prefix("stammtisch"), limits_prefix(None)
    ('stammtisch:stammtisch:limits', 'stammtisch:limits')
    """
    return f"stammtisch:{database}:limits" if database else DEFAULT_PREFIX


def redis_client(url: str) -> aioredis.Redis:
    """A client of the Redis server at ``url`` that gives up after :data:`REDIS_TIMEOUT`
    (one retry at once, for a connection the server closed meanwhile)."""
    client: aioredis.Redis = aioredis.Redis.from_url(
        url,
        socket_timeout=REDIS_TIMEOUT,
        socket_connect_timeout=REDIS_TIMEOUT,
        retry=Retry(NoBackoff(), 1),
    )
    return client


class RedisAway(ConnectionError):
    """Redis failed a moment ago: not asked again until :data:`OUTAGE_PAUSE` has passed."""


class Outage:
    """Logs the change between "Redis answers" and "Redis is away" once each way, and
    spares the requests during an outage the wait for a Redis that does not answer."""

    def __init__(self, what: str, clock: Clock = time.monotonic) -> None:
        self.what = what
        self.down = False
        self._clock = clock
        self._retry_at = 0.0

    def guard(self) -> None:
        """Raise :class:`RedisAway` within :data:`OUTAGE_PAUSE` of the last failure."""
        if self.down and self._clock() < self._retry_at:
            raise RedisAway("Redis failed a moment ago")

    def failed(self, exc: BaseException) -> None:
        """A Redis command failed: warn (once per outage) that the fallback is in use.
        (:class:`RedisAway`, which asked nothing, does not put off the next try.)"""
        if isinstance(exc, RedisAway):
            return
        self._retry_at = self._clock() + OUTAGE_PAUSE
        if not self.down:
            self.down = True
            logger.warning(
                "Redis does not answer (%s: %s): %s fall back to this process's own "
                "count until it does",
                type(exc).__name__,
                exc,
                self.what,
            )

    def answered(self) -> None:
        """A Redis command succeeded: say so once after an outage."""
        if self.down:
            self.down = False
            logger.warning("Redis answers again: %s are shared by every process", self.what)


def _digest(*identifiers: str) -> str:
    """One short key part for ``identifiers`` (login names and addresses are not kept in
    Redis as they are, and no identifier can run into the next one)."""
    joined = "\x00".join(identifiers).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(joined, digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class Window:
    """A moving window: at most ``amount`` hits in any ``seconds`` (whole seconds)."""

    amount: int
    seconds: int

    def item(self) -> RateLimitItemPerSecond:
        """The library's form of this window."""
        return RateLimitItemPerSecond(self.amount, self.seconds)


class SharedWindows:
    """Moving windows in Redis, shared by every process that uses the same prefix.

    Every method raises one of :data:`REDIS_FAILURES` when Redis does not answer; the
    caller falls back to its own count (:mod:`server.api.throttle`)."""

    def __init__(self, client: aioredis.Redis, url: str, prefix: str = DEFAULT_PREFIX) -> None:
        self.client = client
        self.prefix = prefix
        self.outage = Outage("the login and registration limits")
        storage = RedisStorage(
            _storage_uri(url),
            wrap_exceptions=True,
            implementation="redispy",
            key_prefix=prefix,
            connection_pool=cast(Any, client.connection_pool),  # typed as an option value
        )
        self._limiter = MovingWindowRateLimiter(storage)

    async def take(self, name: str, window: Window, *identifiers: str) -> float | None:
        """Count one hit of ``name`` for ``identifiers``: None when the window had room,
        else the seconds until it will have (nothing is counted then)."""
        self.outage.guard()
        item, key = window.item(), _digest(name, *identifiers)
        if await self._limiter.hit(item, key):
            return None
        return await self._wait(item, key)

    async def wait(self, name: str, window: Window, *identifiers: str) -> float | None:
        """None when one more hit would fit, else the seconds until it would (counts
        nothing)."""
        self.outage.guard()
        item, key = window.item(), _digest(name, *identifiers)
        if await self._limiter.test(item, key):
            return None
        return await self._wait(item, key)

    async def hit(self, name: str, window: Window, *identifiers: str) -> None:
        """Count one hit (none when the window is full already)."""
        self.outage.guard()
        await self._limiter.hit(window.item(), _digest(name, *identifiers))

    async def clear(self, name: str, window: Window, *identifiers: str) -> None:
        """Forget every hit of ``name`` for ``identifiers``."""
        self.outage.guard()
        await self._limiter.clear(window.item(), _digest(name, *identifiers))

    async def _wait(self, item: RateLimitItemPerSecond, key: str) -> float:
        stats = await self._limiter.get_window_stats(item, key)
        return max(0.0, stats.reset_time - time.time())


def _storage_uri(url: str) -> str:
    """The library's name for the Redis URL ``url`` (its client is ours, through the
    connection pool: only the scheme matters)."""
    scheme, rest = url.split("://", 1)
    return {"redis": "async+redis", "rediss": "async+rediss", "unix": "async+redis+unix"}[
        scheme
    ] + f"://{rest}"


#: Count the socket in when its user has fewer than ARGV[4] counting ones; 1 if counted.
_OPEN = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class SharedSockets:
    """The open table sockets of every user on every process, at most ``limit`` each.

    A process admits a socket with :meth:`open` (after its own in-memory count did), and
    counts it out with :meth:`close` or :meth:`close_soon`; :meth:`run` renews its own
    sockets until it is cancelled. Each socket is a member of its user's sorted set, scored
    by the time at which it stops counting (renewal + :data:`SOCKET_TTL_SECONDS`)."""

    def __init__(
        self,
        client: aioredis.Redis,
        limit: int,
        prefix: str = DEFAULT_PREFIX,
        *,
        ttl: float = SOCKET_TTL_SECONDS,
        heartbeat: float = HEARTBEAT_SECONDS,
        clock: Clock = time.time,
        node: str = "",
    ) -> None:
        self.client = client
        self.limit = limit
        self.prefix = prefix
        self.ttl = ttl
        self.heartbeat = heartbeat
        self.clock = clock
        self.outage = Outage("the per-user socket limits")
        self._node = node or secrets.token_hex(6)
        self._open = client.register_script(_OPEN)
        #: This process's sockets: socket -> (user id, member).
        self._mine: dict[object, tuple[int, str]] = {}
        #: The tasks of :meth:`close_soon` still on their way.
        self._closing: set[asyncio.Task[None]] = set()

    def key(self, user_id: int) -> str:
        """The sorted set of ``user_id``'s sockets."""
        return f"{self.prefix}:sockets:{user_id}"

    async def open(self, socket: object, user_id: int) -> bool:
        """Count ``socket`` of ``user_id`` in; False (not counted) when the user has
        :attr:`limit` sockets counting on all processes together. When Redis does not
        answer, the socket is admitted (the process's own limit has been checked) and
        counted in by the next renewal that reaches Redis."""
        member = f"{self._node}:{secrets.token_hex(8)}"
        now = self.clock()
        try:
            self.outage.guard()
            counted = await self._open(
                keys=[self.key(user_id)],
                args=[now, now + self.ttl, member, self.limit, math.ceil(self.ttl)],
            )
        except REDIS_FAILURES as exc:
            self.outage.failed(exc)
            self._mine[socket] = (user_id, member)  # counted in by the next renewal
            return True
        self.outage.answered()
        if not counted:
            return False
        self._mine[socket] = (user_id, member)
        return True

    async def close(self, socket: object) -> None:
        """Count ``socket`` out (again, or a socket never counted: nothing happens)."""
        found = self._mine.pop(socket, None)
        if found is not None:
            await self._remove(*found)

    def close_soon(self, socket: object) -> None:
        """:meth:`close` for a caller that cannot wait: ``socket`` no longer counts for
        this process at once, and is taken out of Redis by a task of its own."""
        found = self._mine.pop(socket, None)
        if found is not None:
            task = asyncio.get_running_loop().create_task(self._remove(*found))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _remove(self, user_id: int, member: str) -> None:
        try:
            self.outage.guard()
            await self.client.zrem(self.key(user_id), member)
        except REDIS_FAILURES as exc:  # it stops counting once its renewals stop
            self.outage.failed(exc)

    async def closed(self) -> None:
        """Wait until the sockets closed with :meth:`close_soon` are out of Redis."""
        while self._closing:
            await asyncio.gather(*self._closing)

    async def count(self, user_id: int) -> int:
        """How many sockets of ``user_id`` count now, on all processes."""
        return int(await self.client.zcount(self.key(user_id), f"({self.clock()}", "+inf"))

    async def renew(self) -> None:
        """Renew this process's sockets (and count in again those admitted while Redis was
        away, or dropped while this process could not renew them); raises one of
        :data:`REDIS_FAILURES` when Redis does not answer."""
        if not self._mine:
            return
        until = self.clock() + self.ttl
        renewed = list(self._mine.items())
        pipe = self.client.pipeline(transaction=False)
        for _socket, (user_id, member) in renewed:
            pipe.zadd(self.key(user_id), {member: until})
            pipe.expire(self.key(user_id), math.ceil(self.ttl))
        await pipe.execute()
        # a socket closed while the renewal was on its way may have been added back
        for socket, (user_id, member) in renewed:
            if socket not in self._mine:
                await self.client.zrem(self.key(user_id), member)

    async def run(self) -> None:
        """Renew this process's sockets every :attr:`heartbeat` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await self.renew()
            except REDIS_FAILURES as exc:
                self.outage.failed(exc)
            except Exception:  # a bug: logged, and the renewals go on
                logger.exception("renewing the shared socket count failed")
            else:
                self.outage.answered()

    async def forget_all(self) -> None:
        """Count every socket of this process out (an orderly shutdown), in one round
        trip; raises one of :data:`REDIS_FAILURES` when Redis does not answer."""
        mine, self._mine = list(self._mine.values()), {}
        if mine:
            pipe = self.client.pipeline(transaction=False)
            for user_id, member in mine:
                pipe.zrem(self.key(user_id), member)
            await pipe.execute()


class SharedLimits:
    """What one process shares with the others through one Redis server: the moving
    windows of the throttle and the socket count, with the heartbeat task."""

    def __init__(self, url: str, prefix: str = DEFAULT_PREFIX, *, socket_limit: int) -> None:
        self.url = url
        self.client = redis_client(url)
        self.windows = SharedWindows(self.client, url, prefix)
        self.sockets = SharedSockets(self.client, socket_limit, prefix)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start renewing this process's sockets (on the running event loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self.sockets.run(), name="shared-sockets")

    async def stop(self) -> None:
        """Stop the renewals, count this process's sockets out and close the client."""
        task, self._task = self._task, None
        await stop_task(task)
        await self.sockets.closed()
        with contextlib.suppress(*REDIS_FAILURES):
            await self.sockets.forget_all()
        await self.client.aclose()
