"""One live table: the single writer of a running match, and its connections.

Every command that changes the table runs under the table's lock, one at a time and in
arrival order (an asyncio lock is FIFO): the action is checked (seat, version, engine),
**stored and committed**, applied, and only then published. Each connection gets the event
the way its seat sees it: the action as that seat may see it, and that seat's view.
Spectators and a sitting-out dealer get the spectator view.

A message is written to each socket at once, on the table's own stack; only a socket that
cannot take more right now gets a bounded backlog of its own (``server/tables/connection.py``),
so a slow phone never holds up the others; a connection whose backlog overflows is closed
and resyncs with a snapshot when it comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection as SAConnection

from server.engine.base import JSON
from server.engine.errors import EngineError
from server.store import log
from server.tables.connection import Connection
from server.tables.matches import LiveMatch
from server.tables.protocol import (
    MsgId,
    ProtocolError,
    encode,
    encoded_object,
    event_prefix,
    event_text,
    join_objects,
    with_id,
)
from server.tables.writer import StorageError, Writer

logger = logging.getLogger(__name__)

CHAT_KEEP = 50
CHAT_MAX = 500


class Table:
    """A running match and everybody connected to it."""

    def __init__(
        self,
        room_id: int,
        live: LiveMatch,
        writer: Writer,
        rng: random.Random,
        names: dict[int, str],
    ) -> None:
        self.room_id = room_id
        self.live = live
        self.writer = writer
        self.rng = rng
        self.names = names  # user id -> display name of every member we know
        self.version = 0
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.chat: deque[JSON] = deque(maxlen=CHAT_KEEP)
        self._background: set[asyncio.Task[None]] = set()
        self.finished = live.engine.finished
        timer = live.config.get("timer_seconds")
        self.timer_seconds: float | None = float(timer) if timer else None
        self._timer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ who is who

    def role_of(self, user_id: int) -> str:
        """``player`` for a player of the match, else ``spectator``."""
        return "player" if user_id in self.live.player_ids else "spectator"

    def online(self) -> list[int]:
        """User ids with at least one open connection."""
        return sorted({c.user_id for c in self.connections})

    # ------------------------------------------------------------------ messages

    def snapshot(self, conn: Connection) -> str:
        """The full state for one connection (on hello, resync and a new deal)."""
        return self._snapshots()(conn)

    def _snapshots(self) -> Callable[[Connection], str]:
        """Snapshots of the table as it is now, for any number of connections: the match
        and its score sheet (which grows with every deal), who is online and the chat are
        encoded once, the view once per seat."""
        live = self.live
        deal = live.deal
        match = {
            "id": live.match_id,
            "game": live.game,
            "players": live.players,
            "player_ids": live.player_ids,
            "deal_number": live.deal_number,
            "sheet": live.engine.to_json(),
            "finished": live.engine.finished,
            "timer_seconds": self.timer_seconds,
        }
        shared = {
            "room": encode(self.room_id),
            "v": encode(self.version),
            "match": encode(match),
            "online": encode(self.online()),
            "chat": encode(list(self.chat)),
        }
        views: dict[int | None, str] = {}

        def make(conn: Connection) -> str:
            seat = live.seat_of(conn.user_id)
            view = views.get(seat)
            if view is None:
                view = views[seat] = encode(deal.view(seat) if deal is not None else None)
            you = {"user_id": conn.user_id, "role": conn.role, "seat": seat}
            return encoded_object(
                {"type": '"snapshot"', "room": shared["room"], "v": shared["v"],
                 "you": encode(you), "match": shared["match"], "view": view,
                 "online": shared["online"], "chat": shared["chat"]}
            )  # fmt: skip

        return make

    def _broadcast(self, make: Callable[[Connection], str]) -> None:
        for conn in list(self.connections):
            if not conn.push(make(conn)):
                logger.info("dropping a connection of user %s: too far behind", conn.user_id)
                self.connections.discard(conn)
                task = asyncio.create_task(self._drop(conn))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    @staticmethod
    async def _drop(conn: Connection) -> None:
        await conn.stop()
        with contextlib.suppress(Exception):
            await conn.close()

    def _publish_event(
        self, index: int, seat: int, auto: bool, origin: Connection | None, msg_id: MsgId
    ) -> None:
        """Send every connection the event of action ``index`` as its seat sees it.

        The message depends only on the viewer's seat, so it is rendered and encoded once
        per seat: spectators (and the sitting-out dealer) share one copy, as do several
        devices of one player; the part of the view that every seat sees alike is encoded
        once for all (``Deal.view_parts``). The connection the action came from
        (``origin``) gets its copy with the action message's ``id``: that is its
        acknowledgement, one frame instead of two.
        """
        deal = self.live.deal
        assert deal is not None
        seat_of = self.live.seat_of
        prefix = event_prefix(self.version, seat, auto)
        public: list[str] = []  # the shared part of the view, once encoded
        encoded: dict[int | None, str] = {}

        def make(conn: Connection) -> str:
            viewer = seat_of(conn.user_id)
            text = encoded.get(viewer)
            if text is None:
                shared, own = deal.view_parts(viewer)
                if not public:
                    public.append(encode(shared))
                view = join_objects(public[0], encode(own))
                text = encoded[viewer] = event_text(
                    prefix, deal.action_seen_by(index, viewer), view
                )
            return with_id(text, msg_id) if conn is origin else text

        self._broadcast(make)

    def _presence(self) -> None:
        message = encode({"type": "presence", "online": self.online()})
        self._broadcast(lambda _conn: message)

    # ------------------------------------------------------------------ commands

    async def attach(self, conn: Connection, last_version: int | None) -> None:
        """Add a connection; it gets a snapshot (a resync is always a fresh snapshot)."""
        async with self.lock:
            conn.role = self.role_of(conn.user_id)
            self.connections.add(conn)
            conn.push(self.snapshot(conn))
            self._presence()

    async def detach(self, conn: Connection) -> None:
        """Remove a connection (the player shows as offline once no device is left)."""
        async with self.lock:
            self.connections.discard(conn)
            self._presence()
        await conn.stop()

    async def act(
        self, conn: Connection, text: str, version: int | None, msg_id: MsgId = None
    ) -> int:
        """Check, store, apply and publish an action; return the version of its event.

        ``conn``'s copy of the event carries ``msg_id``, the id of the action message: its
        acknowledgement.

        Raises :class:`ProtocolError` or :class:`EngineError`; nothing changes then.
        """
        async with self.lock:
            live = self.live
            deal = live.deal
            if self.finished or deal is None:
                raise ProtocolError("match_finished", "the match is over", "die Partie ist aus")
            seat = live.seat_of(conn.user_id)
            if seat is None:
                raise ProtocolError(
                    "not_seated",
                    "you have no seat in this deal (spectator or sitting out)",
                    "du sitzt in diesem Spiel nicht mit (Zuschauer oder aussetzend)",
                )
            if version is not None and version != self.version:
                raise ProtocolError(
                    "stale_version",
                    f"the table is at version {self.version}, not {version}; "
                    "you were shown an older state",
                    f"der Tisch ist bei Version {self.version}, nicht {version}; "
                    "du hast einen älteren Stand gesehen",
                )
            move = deal.parse(text)  # _perform checks it before anything is stored
            return await self._perform(move, seat, auto=False, origin=conn, msg_id=msg_id)

    async def _perform(
        self,
        move: int,
        seat: int,
        *,
        auto: bool,
        origin: Connection | None = None,
        msg_id: MsgId = None,
    ) -> int:
        """Store, apply and publish a checked move (under the lock); return its version."""
        live = self.live
        deal = live.deal
        assert deal is not None
        actor = deal.check(move, seat)
        seq = len(deal.history)
        canonical = deal.move_text(move)
        await self.writer.append_action(live.deal_id, seq, actor, canonical)
        deal.apply(move, seat)
        self.version += 1
        acted = self.version
        self._publish_event(seq, actor, auto, origin, msg_id)
        if deal.finished:
            await self._deal_finished()
        self.arm_timer()
        return acted

    def arm_timer(self) -> None:
        """With a turn timer, play the first legal action of the seat to move when it lets
        the time run out ("gesund", "pass", the lowest card …)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.timer_seconds and not self.finished and self.live.deal is not None:
            self._timer = asyncio.create_task(self._expire(self.version))

    async def _expire(self, version: int) -> None:
        await asyncio.sleep(self.timer_seconds or 0)
        async with self.lock:
            deal = self.live.deal
            if version != self.version or self.finished or deal is None or deal.finished:
                return
            seat = deal.to_move
            assert seat is not None
            self._timer = None  # this task is the timer; do not cancel it from inside
            try:
                await self._perform(deal.legal_moves()[0], seat, auto=True)
            except StorageError:
                self.arm_timer()  # try again after another period

    async def _deal_finished(self) -> None:
        live = self.live
        deal = live.deal
        assert deal is not None
        outcome = deal.outcome()
        assert outcome is not None
        live.engine.record(deal)
        points = live.points_of(deal)
        match_id, deal_id, stake = live.match_id, live.deal_id, live.stake_cents
        finished = live.engine.finished

        pots = live.closing_pots() if finished else []
        following = None if finished else live.next_deal(self.rng)
        number = live.deal_number + 1

        def store(connection: SAConnection) -> int | None:
            """The outcome and scores, and the match's end or the next deal: one commit."""
            log.finish_deal(connection, match_id, deal_id, outcome, points, stake, pots)
            if following is None:
                log.finish_match(connection, match_id, self.room_id)
                return None
            return log.create_deal(connection, match_id, number, following[1])

        next_id = await self.writer.execute(store)
        if following is None:
            self.finished = True
        else:
            assert next_id is not None
            live.deal_id, live.deal, live.deal_number = next_id, following[0], number
        self.version += 1
        self._broadcast(self._snapshots())

    async def start_next_deal(self) -> None:
        """Deal the next deal of the match and store it (called under the lock)."""
        live = self.live
        deal, record = live.next_deal(self.rng)
        number = live.deal_number + 1
        match_id = live.match_id
        live.deal_id = await self.writer.execute(
            lambda connection: log.create_deal(connection, match_id, number, record)
        )
        live.deal, live.deal_number = deal, number

    async def say(self, conn: Connection, text: str) -> None:
        """Publish a chat message (plain text; the client shows it as text, never as HTML)."""
        text = text.strip()
        if not text or len(text) > CHAT_MAX:
            raise ProtocolError(
                "bad_chat",
                f"a chat message has 1 to {CHAT_MAX} characters",
                f"eine Chatnachricht hat 1 bis {CHAT_MAX} Zeichen",
            )
        message = {
            "type": "chat",
            "user_id": conn.user_id,
            "name": self.names.get(conn.user_id, conn.name),
            "text": text,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        async with self.lock:
            self.chat.append(message)
            encoded = encode(message)
            self._broadcast(lambda _conn: encoded)

    async def close(self) -> None:
        """Stop the timer and close every connection (server shutdown)."""
        if self._timer is not None:
            self._timer.cancel()
        for conn in list(self.connections):
            await conn.stop()
            await conn.close()
        self.connections.clear()


class RateLimit:
    """A token bucket per connection: ``rate`` messages per second, bursts up to ``burst``."""

    def __init__(self, rate: float = 50.0, burst: float = 100.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take a token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def error_json(exc: EngineError | ProtocolError | StorageError, msg_id: Any = None) -> str:
    """An error message for the client: stable code, English and German text."""
    if isinstance(exc, StorageError):
        body = {
            "code": "storage_failed",
            "message": "the action could not be stored; nothing changed, please try again",
            "message_de": "die Aktion konnte nicht gespeichert werden; nichts hat sich geändert",
        }
    else:
        body = exc.to_json()
    return encode({"type": "error", "id": msg_id, **body})
