"""Sockets held by one process for tables another process owns (several processes,
:mod:`server.tables.cluster`).

Two sides of the same connection:

* **Where the socket is** (the *origin*): the endpoint greets a :class:`RemoteTable`
  instead of a :class:`~server.tables.table.Table`; :meth:`Remote.attach` tells the
  owner, every later message of the socket is forwarded as it came (:meth:`Remote.forward`,
  after the endpoint's own rate limit and checks), and the frames the owner sends back
  are pushed to the socket in order. When the owner's lease runs out, or it says the
  table is gone, the socket is closed with 1012 ("service restart"): the client greets
  again with its last version, and whichever process receives that greeting serves it
  (taking the table over if nobody owns it any more).
* **Where the table is** (the *owner*): each such socket is a
  :class:`~server.tables.connection.Connection` like a local one, whose frames are
  published to the origin: the table sees every viewer, so presence, each seat's view
  and the events' versions are exactly those of one process. The commands of one socket
  are handled in the order they were sent (a queue per socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from server import metrics
from server.tables.cluster import Cluster
from server.tables.commands import answered
from server.tables.connection import Connection
from server.tables.protocol import ProtocolError, read_message
from server.tables.table import Table, error_json

logger = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class RemoteTable:
    """A table another process owns, as a socket here greets it."""

    node: str
    room_id: int
    match_id: int


@dataclass(eq=False, slots=True)
class _Held:
    """A socket here at a table owned elsewhere."""

    remote: RemoteTable
    conn: Connection  # pushes to the socket, in order
    close: Callable[[], Awaitable[None]]  # closes the socket with 1012


@dataclass(eq=False, slots=True)
class _Served:
    """A socket elsewhere at a table owned here."""

    origin: str
    table: Table
    conn: Connection
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    worker: asyncio.Task[None] | None = None


class Remote:
    """Both sides of the sockets whose socket and table live in different processes."""

    def __init__(self, cluster: Cluster, table_of: Callable[[int], Table | None]) -> None:
        self.cluster = cluster
        self._table_of = table_of
        self.held: dict[str, _Held] = {}
        self.served: dict[str, _Served] = {}
        #: Commands forwarded to other processes (for the metrics).
        self.forwarded = 0
        for op in ("attach", "msg", "detach"):
            cluster.on(op, self._command)
        cluster.on("frame", self._frame)
        cluster.on("close", self._closed)

    # ------------------------------------------------------------------ the socket's side

    async def attach(
        self,
        remote: RemoteTable,
        conn: Connection,
        close: Callable[[], Awaitable[None]],
        last_version: int | None,
    ) -> str:
        """Greet ``remote`` for the socket behind ``conn``; return the key of the socket
        there (for :meth:`forward` and :meth:`leave`)."""
        key = f"{self.cluster.node}/{uuid.uuid4().hex}"
        self.held[key] = _Held(remote, conn, close)
        await self.cluster.send(remote.node, {
            "op": "attach", "key": key, "origin": self.cluster.node, "room": remote.room_id,
            "match": remote.match_id, "user": conn.user_id, "name": conn.name,
            "session": conn.session, "last_version": last_version,
        })  # fmt: skip
        return key

    async def forward(self, key: str, text: str | None) -> None:
        """Send a message of the socket to the table's owner, as it came."""
        held = self.held.get(key)
        if held is None:
            return
        self.forwarded += 1
        metrics.forwarded()
        await self.cluster.send(held.remote.node, {"op": "msg", "key": key, "text": text})

    async def leave(self, key: str) -> None:
        """The socket left the table (closed, or greets another): the owner forgets it."""
        held = self.held.pop(key, None)
        if held is not None:
            with contextlib.suppress(Exception):
                await self.cluster.send(held.remote.node, {"op": "detach", "key": key})

    async def _frame(self, message: dict[str, Any]) -> None:
        held = self.held.get(message["key"])
        if held is not None:
            held.conn.push(message["text"])

    async def _closed(self, message: dict[str, Any]) -> None:
        held = self.held.pop(message["key"], None)
        if held is not None:
            await _quietly(held.close())

    async def check_owners(self) -> None:
        """Close the sockets whose table's owner lost its lease (they greet again)."""
        nodes = sorted({held.remote.node for held in self.held.values()})
        alive = await self.cluster.alive(nodes)
        for key, held in list(self.held.items()):
            if held.remote.node not in alive:
                self.held.pop(key, None)
                logger.info("node %s is gone: socket %s greets again", held.remote.node, key)
                await _quietly(held.close())

    # ------------------------------------------------------------------ the table's side

    async def _command(self, message: dict[str, Any]) -> None:
        key = message["key"]
        served = self.served.get(key)
        if message["op"] == "attach":
            await self._attach(message)
            return
        if served is None:
            if message["op"] == "msg":  # the table is gone from here: greet again
                await self.cluster.send(key.split("/", 1)[0], {"op": "close", "key": key})
            return
        served.queue.put_nowait(message)
        if served.worker is None:
            served.worker = asyncio.create_task(self._work(key, served))

    async def _attach(self, message: dict[str, Any]) -> None:
        key, origin = message["key"], message["origin"]
        table = self._table_of(message["room"])
        if table is None or table.live.match_id != message["match"] or table.lost:
            await self.cluster.send(origin, {"op": "close", "key": key})
            return
        conn = Connection(
            message["user"],
            message["name"],
            partial(self._send_frame, origin, key),
            partial(self._send_close, origin, key),
            session=message["session"],
        )
        served = _Served(origin, table, conn)
        self.served[key] = served
        served.queue.put_nowait(message)
        if served.worker is None:
            served.worker = asyncio.create_task(self._work(key, served))

    async def _work(self, key: str, served: _Served) -> None:
        """Handle one socket's commands in order, then stop until the next one."""
        try:
            while not served.queue.empty():
                message = served.queue.get_nowait()
                op = message["op"]
                if op == "attach":
                    await served.table.attach(served.conn, message.get("last_version"))
                elif op == "msg":
                    msg_id, parsed = read_message(message.get("text"))
                    if isinstance(parsed, ProtocolError):
                        served.conn.push(error_json(parsed, msg_id))
                    else:
                        await answered(served.table, served.conn, parsed, msg_id)
                elif op == "detach":
                    self.served.pop(key, None)
                    await served.table.detach(served.conn)
        except Exception:  # the socket greets again rather than waiting for nothing
            logger.exception("a forwarded command failed")
            self.served.pop(key, None)
            await _quietly(self.cluster.send(served.origin, {"op": "close", "key": key}))
        finally:
            served.worker = None
            if not served.queue.empty() and key in self.served:
                served.worker = asyncio.create_task(self._work(key, served))

    async def _send_frame(self, origin: str, key: str, text: str) -> None:
        await self.cluster.send(origin, {"op": "frame", "key": key, "text": text})

    async def _send_close(self, origin: str, key: str) -> None:
        self.served.pop(key, None)
        await self.cluster.send(origin, {"op": "close", "key": key})

    async def check_origins(self) -> None:
        """Forget the sockets of processes that lost their lease (nobody reads them)."""
        origins = sorted({served.origin for served in self.served.values()})
        alive = await self.cluster.alive(origins)
        for key, served in list(self.served.items()):
            if served.origin not in alive:
                self.served.pop(key, None)
                await _quietly(served.table.detach(served.conn))

    async def drop_table(self, table: Table) -> None:
        """``table`` is no longer served here: its sockets elsewhere greet again."""
        for key, served in list(self.served.items()):
            if served.table is table:
                self.served.pop(key, None)
                await _quietly(self.cluster.send(served.origin, {"op": "close", "key": key}))


async def _quietly(work: Awaitable[Any]) -> None:
    try:
        await work
    except Exception:
        logger.debug("closing a remote socket failed", exc_info=True)
