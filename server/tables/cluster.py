"""Several server processes share the tables: who owns a table, fencing, the broker.

With ``STAMMTISCH_REDIS_URL`` set (and PostgreSQL as the database), every process is a
*node* of one cluster (``docs/deploy.md``):

* **One writer per table.** A node owns a running match's table while it holds the
  PostgreSQL advisory lock ``(LOCK_SPACE, match id)`` on a connection it keeps for its
  locks, and it raised the match's ``owner_epoch`` by one when it took the lock. Every
  write of the owner checks that epoch in the write's own transaction (:func:`fence_for`,
  a shared row lock on the match), so a former owner — cut off, or frozen and woken up
  again — can never write once another node took over: its write is refused
  (:class:`~server.store.errors.FencedError`) and it drops the table.
* **Leases.** Each node keeps two keys in Redis alive (every :data:`BEAT_SECONDS`, for
  :data:`LEASE_MS`): ``alive:<node>`` and ``backend:<pid>`` (the database backend that
  holds its locks). A table is claimed on its first command by the node that receives
  it (:meth:`Cluster.claim`): when the lock is free (its owner died: the database closed
  its connection and freed the lock at once), or when the lock's holder is a backend whose
  node's lease ran out (a frozen node): that backend is terminated first, which frees all
  of its locks.
* **The broker.** Each node listens on its own channel; a command for a table owned
  elsewhere is forwarded there, and the owner sends each frame for such a connection
  back to the node that holds the socket (:mod:`server.tables.remote`). A broadcast
  channel carries what every node must hear (a new match in a room, a logout).

Keys and channels carry a prefix named after the database (``stammtisch:<db>:``), so the
nodes of one database find each other and those of another do not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.store.log import Fence

logger = logging.getLogger(__name__)

#: The first key of every advisory lock the nodes take (the second is the match id).
LOCK_SPACE = 21332
#: How long a node's lease lasts without being renewed (ms).
LEASE_MS = 3000
#: How often a node renews its lease and looks at the others (s).
BEAT_SECONDS = 0.5
#: How long a forwarded call waits for the owner's answer (s).
CALL_TIMEOUT = 5.0

Handler = Callable[[dict[str, Any]], Awaitable[Any]]

#: The backends that hold a match's advisory lock.
HOLDERS = text(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
    "AND classid = :space AND objid = :match AND objsubid = 2"
)
#: One more epoch for the match, taken over by ``node``.
RAISE_EPOCH = text(
    "UPDATE matches SET owner_epoch = owner_epoch + 1, owner_node = :node "
    "WHERE id = :match RETURNING owner_epoch"
)


def fence_for(match_id: int, epoch: int) -> Fence:
    """The ownership check of a table's writes (:class:`~server.store.log.Fence`): the
    match's ``owner_epoch`` must still be ``epoch``."""
    return Fence(match_id, epoch)


class Cluster:
    """This process as a node among several: its leases, locks and broker channels."""

    def __init__(self, redis_url: str, engine: AsyncEngine, node_name: str = "") -> None:
        base = node_name or f"{socket.gethostname()}-{os.getpid()}"
        #: This node's name (unique: a restarted process is a new node).
        self.node = f"{base}-{secrets.token_hex(3)}"
        self.engine = engine
        self.redis: Redis = Redis.from_url(redis_url)
        self.prefix = "stammtisch:"
        self._locks: AsyncConnection | None = None
        self._backend = 0
        self._handlers: dict[str, Handler] = {}
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._lock_guard = asyncio.Lock()
        self._held: set[int] = set()  # the matches whose lock this node holds
        self._answers: set[asyncio.Task[None]] = set()
        #: Called when this node lost its locks (its lock connection broke): it must drop
        #: every table it owns.
        self.on_locks_lost: Callable[[], Awaitable[None]] | None = None
        #: Called at every beat (after the lease was renewed), to look at the others.
        self.on_beat: Callable[[], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ start and stop

    async def start(self) -> None:
        """Reach Redis and the database, take the lease and listen (raises when either is
        out of reach: a node that cannot own anything must not start)."""
        await self.redis.ping()
        await self._connect_locks()
        assert self._locks is not None
        database = (await self._locks.execute(text("SELECT current_database()"))).scalar()
        self.prefix = f"stammtisch:{database}:"
        await self._renew()
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self._channel(self.node), self._channel("all"))
        self._tasks = [
            asyncio.create_task(self._listen(pubsub), name="cluster-listen"),
            asyncio.create_task(self._beat(), name="cluster-beat"),
        ]
        logger.info("node %s joined the cluster (%s)", self.node, self.prefix)

    async def stop(self) -> None:
        """Leave: stop listening, drop the lease, free every lock (closing their
        connection), close Redis."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        with contextlib.suppress(Exception):
            await self.redis.delete(self._key(f"alive:{self.node}"))
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
            self._locks = None
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def on(self, op: str, handler: Handler) -> None:
        """Handle the broker messages of kind ``op`` with ``handler``."""
        self._handlers[op] = handler

    # ------------------------------------------------------------------ leases

    def _key(self, name: str) -> str:
        return self.prefix + name

    def _channel(self, node: str) -> str:
        return self.prefix + "node:" + node

    async def _connect_locks(self) -> None:
        connection = await self.engine.connect()
        self._locks = await connection.execution_options(isolation_level="AUTOCOMMIT")
        self._backend = int((await self._locks.execute(text("SELECT pg_backend_pid()"))).scalar()
                            or 0)  # fmt: skip

    async def _renew(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key(f"alive:{self.node}"), "1", px=LEASE_MS)
            pipe.set(self._key(f"backend:{self._backend}"), self.node, px=LEASE_MS)
            await pipe.execute()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                if not await self._locks_alive():
                    await self._locks_lost()
                await self._renew()
                if self.on_beat is not None:
                    await self.on_beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("node %s: the beat failed", self.node)

    async def _locks_alive(self) -> bool:
        locks = self._locks
        if locks is None:
            return False
        try:
            async with asyncio.timeout(LEASE_MS / 2000):
                await locks.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    async def _locks_lost(self) -> None:
        """The lock connection broke (or was terminated while this node was frozen): every
        lock is gone; drop every table and take a new connection for later locks."""
        logger.warning("node %s lost its table locks; dropping its tables", self.node)
        old, self._locks = self._locks, None
        self._held.clear()
        if old is not None:
            with contextlib.suppress(Exception):
                await old.invalidate()
        if self.on_locks_lost is not None:
            await self.on_locks_lost()
        await self._connect_locks()

    async def alive(self, nodes: list[str]) -> set[str]:
        """Which of ``nodes`` hold their lease now and still listen (a killed process's
        connection to Redis is gone at once, long before its lease runs out)."""
        if not nodes:
            return set()
        found = await self.redis.mget([self._key(f"alive:{node}") for node in nodes])
        listening = dict(await self.redis.pubsub_numsub(*[self._channel(n) for n in nodes]))
        return {
            node
            for node, value in zip(nodes, found, strict=True)
            if value is not None and int(listening.get(self._channel(node).encode(), 0)) > 0
        }

    # ------------------------------------------------------------------ ownership

    async def owner(self, match_id: int) -> str | None:
        """The node that owns the match's table and holds its lease, else None."""
        raw = await self.redis.get(self._key(f"owner:{match_id}"))
        if raw is None:
            return None
        node = raw.decode() if isinstance(raw, bytes) else str(raw)
        return node if node == self.node or await self.alive([node]) else None

    async def claim(self, match_id: int) -> int | None:
        """Take the match's table: its advisory lock (terminating a holder whose node's
        lease ran out), then one more epoch; return the epoch (None: a live node holds
        it). The caller recovers the table from the log, fenced by that epoch."""
        async with self._lock_guard:
            locks = self._locks
            if locks is None:
                return None
            query = text("SELECT pg_try_advisory_lock(:space, :match)")
            args = {"space": LOCK_SPACE, "match": match_id}
            got = match_id in self._held  # a session's advisory locks stack: take it once
            if not got:
                got = bool((await locks.execute(query, args)).scalar())
            if not got and await self._free_from_a_dead_holder(match_id):
                got = bool((await locks.execute(query, args)).scalar())
            if not got:
                return None
            self._held.add(match_id)
            epoch = (
                await locks.execute(
                    RAISE_EPOCH,
                    {"node": self.node, "match": match_id},
                )
            ).scalar()
            if epoch is None:  # no such match
                await locks.execute(text("SELECT pg_advisory_unlock(:space, :match)"), args)
                self._held.discard(match_id)
                return None
            await self.redis.set(self._key(f"owner:{match_id}"), self.node)
            return int(epoch)

    async def _free_from_a_dead_holder(self, match_id: int) -> bool:
        """The lock is held: when its holder's node has no lease any more (frozen, or cut
        off from Redis), terminate that backend, which frees its locks; return whether
        one was terminated."""
        assert self._locks is not None
        holders = (
            (
                await self._locks.execute(
                    HOLDERS,
                    {"space": LOCK_SPACE, "match": match_id},
                )
            )
            .scalars()
            .all()
        )
        ended = False
        for pid in holders:
            if pid == self._backend:
                continue
            if await self.redis.get(self._key(f"backend:{pid}")) is not None:
                continue  # its node holds its lease: it owns the table
            logger.warning("node %s: ending backend %s, whose node's lease ran out",
                           self.node, pid)  # fmt: skip
            await self._locks.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            ended = True
        if ended:  # the lock is freed once the backend has gone
            await asyncio.sleep(0.05)
        return ended

    async def release(self, match_id: int) -> None:
        """Give the match's table up (its lock, and the owner key if it is still ours)."""
        async with self._lock_guard:
            if self._locks is not None and match_id in self._held:
                self._held.discard(match_id)
                with contextlib.suppress(Exception):
                    await self._locks.execute(
                        text("SELECT pg_advisory_unlock(:space, :match)"),
                        {"space": LOCK_SPACE, "match": match_id},
                    )
        key = self._key(f"owner:{match_id}")
        with contextlib.suppress(Exception):
            if await self.redis.get(key) == self.node.encode():
                await self.redis.delete(key)

    # ------------------------------------------------------------------ messages

    async def send(self, node: str, message: dict[str, Any]) -> None:
        """Send ``message`` (with its ``op``) to ``node`` ("all": to every node)."""
        await self.redis.publish(self._channel(node), orjson.dumps(message))

    async def call(self, node: str, op: str, **args: Any) -> Any:
        """Ask ``node`` to run ``op`` and wait for its answer (raises
        :class:`OwnerUnavailable` after :data:`CALL_TIMEOUT`, and the owner's refusal as a
        :class:`RemoteError`)."""
        ident = uuid.uuid4().hex
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[ident] = future
        try:
            await self.send(node, {"op": "call", "call": op, "id": ident, "from": self.node,
                                   "args": args})  # fmt: skip
            try:
                async with asyncio.timeout(CALL_TIMEOUT):
                    return await future
            except TimeoutError:
                raise OwnerUnavailable(node, op) from None
        finally:
            self._calls.pop(ident, None)

    async def _answer(self, message: dict[str, Any]) -> None:
        handler = self._handlers.get(f"call:{message['call']}")
        reply: dict[str, Any] = {"op": "reply", "id": message["id"]}
        try:
            if handler is None:
                raise RuntimeError(f"no call {message['call']!r} here")
            reply["result"] = await handler(message["args"])
        except Exception as exc:  # the caller gets it as its refusal
            reply["error"] = {"type": type(exc).__name__, "message": str(exc),
                              "json": getattr(exc, "to_json", lambda: None)()}  # fmt: skip
        await self.send(message["from"], reply)

    def _replied(self, message: dict[str, Any]) -> None:
        future = self._calls.get(message["id"])
        if future is None or future.done():
            return
        if "error" in message:
            future.set_exception(RemoteError(message["error"]))
        else:
            future.set_result(message.get("result"))

    async def _listen(self, pubsub: Any) -> None:
        async for raw in pubsub.listen():
            try:
                message = orjson.loads(raw["data"])
                op = message.get("op")
                if op == "reply":
                    self._replied(message)
                elif op == "call":  # answered on the side: it may wait for a table's lock
                    task = asyncio.create_task(self._answer(message))
                    self._answers.add(task)
                    task.add_done_callback(self._answers.discard)
                else:
                    handler = self._handlers.get(op)
                    if handler is not None:
                        await handler(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("node %s: a broker message failed", self.node)


class OwnerUnavailable(TimeoutError):
    """The process that owns a table did not answer a forwarded call in time (frozen, cut
    off or gone; another process takes the table over once its lease ran out)."""

    def __init__(self, node: str, op: str) -> None:
        super().__init__(f"node {node} did not answer {op!r} within {CALL_TIMEOUT} s")
        self.node = node
        self.op = op


class RemoteError(RuntimeError):
    """The owner refused a forwarded call: its error's type, message and JSON form."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(f"{error.get('type')}: {error.get('message')}")
        self.error = error
