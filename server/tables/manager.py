"""All live tables of this server process: starting matches, recovery, lookup.

On start-up :meth:`TableManager.recover` rebuilds every running match by replaying its
stored deals through the engine (which re-checks every action), so players can reconnect
and continue exactly where they were. A deal whose actions are all stored but whose end is
not (an older version stored the two in separate transactions) is completed first, in one
transaction: outcome, scores, pots, and the next deal or the end of the match and room.
With several processes (:mod:`server.tables.cluster`) nothing is recovered at start-up: a
table is taken over by the process that receives its first command (:meth:`greet`), a
command for a table owned elsewhere goes to its owner (:mod:`server.tables.remote`), and
what the rooms API asks of a table (end it, show its requests) is asked of its owner.

It also keeps every open table socket indexed by user and by login session, and each
socket knows the table it is at, so that one user cannot hold more than
:data:`SOCKETS_PER_USER` of them and a logout closes that session's sockets at once, and
neither ever looks at anybody else's sockets: a reconnect storm of a thousand sockets
costs a thousand small steps, not a million.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import metrics
from server.clock import Clock, SystemClock
from server.engine.base import Deal
from server.engine.fair import SEED_BYTES, FairMatch
from server.engine.record import load_record
from server.engine.registry import new_match
from server.store import log, turns
from server.store.errors import NotFoundError
from server.store.models import DealRow, Match
from server.store.rooms import (
    end_early,
    get_room,
    match_config,
    member_key,
    member_name,
    players_in_order,
)
from server.tables.cluster import Cluster, OwnerUnavailable, fence_for
from server.tables.computers import Thinker
from server.tables.connection import Connection
from server.tables.matches import LiveMatch, rebuild, unique_names
from server.tables.protocol import ProtocolError
from server.tables.remote import Remote, RemoteTable
from server.tables.table import Table
from server.tables.writer import StorageError, Writer

if TYPE_CHECKING:
    from server.shared_limits import SharedSockets

logger = logging.getLogger(__name__)

#: Seconds a new match without a deal is left to the process that starts it (several
#: processes: no other takes it over meanwhile).
START_GRACE = 10.0

#: Table sockets one user may have open on this server at once (all tables, all devices).
SOCKETS_PER_USER = 16


@dataclass(eq=False, slots=True)
class Socket:
    """An open table socket: whose, under which login session, and how to close it."""

    user_id: int
    session: str  # the SHA-256 of the session token (as the database keeps it)
    close: Callable[[], Awaitable[None]]  # tells the client why, and closes the socket
    ended: bool = False  # its session ended: nothing it sends is handled any more
    table: Table | None = None  # the table it greeted last (None: none yet)


class TableManager:
    """Owns the writer and every live table of this process."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        rng: random.Random | None = None,
        thinker: Thinker | None = None,
        cluster: Cluster | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.sessions = sessions
        #: the wall clock of stored turns and correspondence deadlines
        self.clock: Clock = clock or SystemClock()
        #: decides the computer players' moves (a process pool for the searching level)
        self.thinker = thinker or Thinker()
        self.writer = Writer(sessions, sqlite=log.sqlite_writer(sessions))
        self.rng = rng or random.SystemRandom()
        self.tables: dict[int, Table] = {}
        #: Open table sockets by user and by login session, each list in opening order (a
        #: list: at most :data:`SOCKETS_PER_USER` long, and smaller than a set).
        self._by_user: dict[int, list[Socket]] = {}
        self._by_session: dict[str, list[Socket]] = {}
        #: This process among several (None: it serves every table alone).
        self.cluster = cluster
        self.remote = None if cluster is None else Remote(cluster, self.tables.get)
        #: Tables taken over from another process since the start.
        self.takeovers = 0
        self._background: set[asyncio.Task[Any]] = set()
        self._taking: dict[int, asyncio.Lock] = {}
        if cluster is not None:
            cluster.on("new_match", self._new_match_elsewhere)
            cluster.on("end_session", self._session_ended_elsewhere)
            cluster.on("call:end_match", lambda args: self.end_match(int(args["room"])))
            cluster.on("call:show_requests", self._show_requests_call)
            cluster.on("call:left_room", self._left_room_call)
            cluster.on("call:holidays_changed", self._holidays_changed_call)
            cluster.on_locks_lost = self._drop_all
            cluster.on_beat = self._beat
        #: Every process's sockets, when several share the work (server/shared_limits.py).
        self.shared_sockets: SharedSockets | None = None

    # ------------------------------------------------------------------ sockets

    def sockets_of(self, user_id: int) -> list[Socket]:
        """The open table sockets of ``user_id``, the oldest first."""
        return list(self._by_user.get(user_id, ()))

    def open_socket(self, socket: Socket) -> bool:
        """Count a new table socket in; ``False`` (not counted) when its user has
        :data:`SOCKETS_PER_USER` open already."""
        own = self._by_user.setdefault(socket.user_id, [])
        if len(own) >= SOCKETS_PER_USER:
            return False
        own.append(socket)
        self._by_session.setdefault(socket.session, []).append(socket)
        return True

    def close_socket(self, socket: Socket) -> None:
        """Count a closed socket out (once; again is harmless)."""
        _forget(self._by_user, socket.user_id, socket)
        _forget(self._by_session, socket.session, socket)
        if self.shared_sockets is not None:  # and out of Redis, in a task of its own
            self.shared_sockets.close_soon(socket)

    async def admit_socket(self, socket: Socket) -> bool:
        """:meth:`open_socket`, and on all processes together when they share the work."""
        if not self.open_socket(socket):
            return False
        shared = self.shared_sockets
        if shared is not None and not await shared.open(socket, socket.user_id):
            self.close_socket(socket)
            return False
        return True

    async def attach(
        self, socket: Socket, table: Table, conn: Connection, last_version: int | None
    ) -> None:
        """``socket`` greets ``table`` with the new connection ``conn`` (its snapshot is
        sent); the socket remembers the table, where a logout finds its connections."""
        socket.table = table
        await table.attach(conn, last_version)

    async def end_session(self, session: str) -> int:
        """A login session ended (logout): close all its sockets at once; from now on
        nothing they send is handled and nothing is sent to them. Return how many.

        Only the tables that the session's sockets greeted are looked at: a connection
        is only ever made for a socket, at the table the socket greets."""
        if self.cluster is not None:  # its sockets on the other processes too
            await self.cluster.send("all", {"op": "end_session", "session": session,
                                            "from": self.cluster.node})  # fmt: skip
        return await self._end_session_here(session)

    async def _session_ended_elsewhere(self, message: dict[str, Any]) -> None:
        assert self.cluster is not None
        if message.get("from") != self.cluster.node:
            await self._end_session_here(str(message["session"]))

    async def _end_session_here(self, session: str) -> int:
        if self.remote is not None:  # sockets elsewhere at the tables owned here
            for table in self.tables.values():
                table.drop_where(lambda conn: conn.session == session)
        doomed = self._by_session.pop(session, [])
        for table in {s.table for s in doomed if s.table is not None}:
            table.drop_where(lambda conn: conn.session == session)
        for socket in doomed:
            socket.ended = True
            _forget(self._by_user, socket.user_id, socket)
            try:
                await socket.close()
            except Exception:  # already gone
                logger.debug("closing a socket of an ended session failed", exc_info=True)
        return len(doomed)

    def left_room(self, room_id: int, user_id: int) -> int:
        """``user_id`` left the room: close his connections to its table (a spectator's;
        a player of a running match cannot leave). Return how many."""
        table = self.tables.get(room_id)
        if self.cluster is not None:  # his sockets at the table's owner, if elsewhere
            task = asyncio.create_task(self._ask_owner(room_id, "left_room", user=user_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return 0 if table is None else table.drop_where(lambda conn: conn.user_id == user_id)

    async def start(self) -> None:
        """Start the writer and recover the running matches (with several processes: join
        the cluster; each table is taken over on its first command)."""
        self.writer.start()
        if self.cluster is not None:
            await self.cluster.start()
            return
        await self.recover()

    async def stop(self) -> None:
        """Close every connection and let the writer finish what is queued (with several
        processes: then leave the cluster, which frees this process's tables)."""
        for table in self.tables.values():
            await table.close()
        self.thinker.close()
        await self.writer.stop()
        if self.cluster is not None:
            await self.cluster.stop()

    def table(self, room_id: int) -> Table | None:
        """The live table of a room, if a match is running or has just finished there."""
        return self.tables.get(room_id)

    async def start_match(self, room_id: int) -> int:
        """Start the match of a room whose seats are full; return the match id.

        The room's options, stake and rounds are fixed from now on; the first dealer is
        drawn at random (as the players would draw for it).
        """
        async with self.sessions() as session:
            room = await get_room(session, room_id)
            if room is None:
                raise NotFoundError("room_not_found", "no such room", "diesen Raum gibt es nicht")
            seated = await players_in_order(session, room_id)
            names = unique_names([member_name(user, member) for user, member in seated])
            user_ids = [member_key(user, member) for user, member in seated]
            # each player's computer level (None: a person), kept with the match
            levels = [None if user is not None else member.level for user, member in seated]
            config: dict[str, Any] = {
                "options": dict(room.options),
                "stake_cents": room.stake_cents,
                "rounds": room.rounds,
                "timer_seconds": room.timer_seconds,
                # the room's pause between deals (0: wait for everybody's "Weiter")
                "next_deal_pause_seconds": int(getattr(room, "next_deal_pause_seconds", 0) or 0),
                "first_dealer": self.rng.randrange(len(names)),
                **match_config(room),
            }
            if any(levels):
                config["computers"] = levels
            game = room.game
        if any(levels):
            await self.thinker.prepare(game)
        live = LiveMatch(0, game, names, user_ids, config, new_match(game, names, config))
        table = Table(room_id, live, self.writer, self.rng, dict(zip(user_ids, names, strict=True)),
                      self.thinker, self.clock)  # fmt: skip
        if table.tempo_seconds:
            async with self.sessions() as session:
                table.holidays = await turns.holidays_of(session, room_id, user_ids)
        table.on_everybody_gone = partial(self._everybody_gone, table)

        async def store(session: AsyncSession) -> tuple[int, FairMatch]:
            match_id = await log.create_match(session, room_id, game, names, user_ids, config)
            fair = await log.fix_fair(session, match_id, room_id, user_ids,
                                      secrets.token_bytes(SEED_BYTES),
                                      secrets.token_bytes(SEED_BYTES))  # fmt: skip
            return match_id, fair

        async with table.lock:
            live.match_id, live.fair = await self.writer.run(store)
            if self.cluster is not None:  # this process owns the new table
                epoch = await self._claim_new(live.match_id)
                table.fence = fence_for(live.match_id, epoch)
                table.on_lost = partial(self._lost, table)
            await table.start_next_deal()
            table.arm_timer()
        before = self.tables.get(room_id)
        self.tables[room_id] = table
        if before is not None:  # a Revanche: who still looks at the old table moves over
            async with before.lock:
                before.succeeded_by(live.match_id)
            if self.cluster is not None:
                await self.cluster.release(before.live.match_id)
        if self.cluster is not None:  # the old table may be served elsewhere
            await self.cluster.send("all", {"op": "new_match", "room": room_id,
                                            "match": live.match_id,
                                            "node": self.cluster.node})  # fmt: skip
        logger.info("room %s: match %s started (%s)", room_id, live.match_id, game)
        return live.match_id

    # ------------------------------------------------------------------ several processes

    async def _claim_new(self, match_id: int) -> int:
        """Take the lock of a match this process has just created (before its first deal
        nobody else takes it, see :meth:`_current_match`; a moment's wait for a greeting
        that got there first and lets go)."""
        assert self.cluster is not None
        for _ in range(20):
            epoch = await self.cluster.claim(match_id)
            if epoch is not None:
                return epoch
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the new match {match_id} is locked elsewhere")

    async def greet(self, room_id: int) -> Table | RemoteTable | None:
        """The table a socket greeting ``room_id`` talks to: this process's, or (several
        processes) that of the process owning the room's current match, or this
        process's after taking the match over when nobody owns it; None when the room has
        no table (no match yet, or a finished one nobody serves any more)."""
        table = self.tables.get(room_id)
        cluster = self.cluster
        if cluster is None:
            return table
        current = await self._current_match(room_id)
        if current is None:
            return None
        match_id, status = current
        for _ in range(30):  # a claim by another process may be under way
            table = self.tables.get(room_id)
            if table is not None and table.live.match_id == match_id and not table.lost:
                return table
            if status == "running":  # free when its owner died (or gave it up): take it
                taken = await self._take(room_id, match_id)
                if taken is not None:
                    return taken
            owner = await cluster.owner(match_id)
            if owner is not None and owner != cluster.node:
                return RemoteTable(owner, room_id, match_id)
            if status not in ("running", "starting"):
                return None
            await asyncio.sleep(0.1)
            if status == "starting":  # its starter deals soon, or gave up
                status = (await self._current_match(room_id) or (match_id, status))[1]
        raise ProtocolError(
            "table_busy",
            "the table is being taken over by another server process; try again",
            "der Tisch wird gerade von einem anderen Serverprozess übernommen; bitte gleich "
            "noch einmal",
        )

    async def _current_match(self, room_id: int) -> tuple[int, str] | None:
        """The room's latest match: its id and status (None: none yet). A running match
        without a deal that started less than :data:`START_GRACE` seconds ago counts as
        ``starting``: the process that starts it takes its lock and deals (nobody else
        may take it over meanwhile; after the grace, one whose starter died may be)."""
        async with self.sessions() as session:
            dealt = select(DealRow.id).where(DealRow.match_id == Match.id).exists()
            row = (
                await session.execute(
                    select(Match.id, Match.status, Match.started_at, dealt)
                    .where(Match.room_id == room_id)
                    .order_by(Match.id.desc())
                    .limit(1)
                )
            ).first()
        if row is None:
            return None
        match_id, status, started, has_deal = row
        if status == "running" and not has_deal:
            age = (datetime.now(UTC) - _aware(started)).total_seconds()
            if age < START_GRACE:
                return int(match_id), "starting"
        return int(match_id), str(status)

    async def _take(self, room_id: int, match_id: int) -> Table | None:
        """Take the running match's table over: its lock and a new epoch, then recover it
        from the log as after a restart (timers, computer players and stand-ins go on
        here); None when another process holds it."""
        cluster = self.cluster
        assert cluster is not None
        async with self._taking.setdefault(match_id, asyncio.Lock()):
            table = self.tables.get(room_id)
            if table is not None and table.live.match_id == match_id and not table.lost:
                return table
            epoch = await cluster.claim(match_id)
            if epoch is None:
                return None
            async with self.sessions() as session:
                stored = await log.load_unfinished(session, [match_id])
            if not stored:  # it ended meanwhile
                await cluster.release(match_id)
                return None
            if table is not None:  # an older match of the room, or a table we lost
                await self._drop(table, release=table.live.match_id != match_id)
            table = await self._recover_one(stored[0], fence_for(match_id, epoch))
            table.on_lost = partial(self._lost, table)
            if epoch > 1:  # it had an owner before
                self.takeovers += 1
                metrics.takeover()
            logger.info("room %s: match %s taken over by %s (epoch %s)", room_id, match_id,
                        cluster.node, epoch)  # fmt: skip
            return table

    def _lost(self, table: Table) -> None:
        """Another process took ``table`` over (a write was fenced off): drop it here."""
        task = asyncio.create_task(self._drop(table, release=False))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _drop(self, table: Table, *, release: bool = True) -> None:
        """Serve ``table`` no more: its sockets here and elsewhere greet again."""
        if self.tables.get(table.room_id) is table:
            del self.tables[table.room_id]
        table.lost = True
        table.finished = True
        if self.remote is not None:
            await self.remote.drop_table(table)
        await table.close()
        if release and self.cluster is not None:
            await self.cluster.release(table.live.match_id)

    async def _drop_all(self) -> None:
        """This process lost its locks: every table it served may be another's now."""
        for table in list(self.tables.values()):
            await self._drop(table, release=False)

    async def _beat(self) -> None:
        """Every second: close the sockets whose table's owner is gone, forget those of
        processes that are gone."""
        if self.remote is not None:
            await self.remote.check_owners()
            await self.remote.check_origins()

    async def _new_match_elsewhere(self, message: dict[str, Any]) -> None:
        """Another process started a new match in a room whose older table is served here:
        everybody at it moves over (as at a Revanche), and the old table goes."""
        assert self.cluster is not None
        if message.get("node") == self.cluster.node:
            return
        room_id, match_id = int(message["room"]), int(message["match"])
        before = self.tables.get(room_id)
        if before is None or before.live.match_id >= match_id:
            return
        async with before.lock:
            before.succeeded_by(match_id)
        del self.tables[room_id]
        await self.cluster.release(before.live.match_id)

    async def _ask_owner(self, room_id: int, op: str, **args: Any) -> tuple[bool, Any]:
        """Ask the process that owns the room's current match to run ``op``: whether it
        was asked (not when this process serves it, or nobody does) and its answer."""
        cluster = self.cluster
        assert cluster is not None
        current = await self._current_match(room_id)
        if current is None:
            return False, None
        table = self.tables.get(room_id)
        if table is not None and table.live.match_id == current[0] and not table.lost:
            return False, None
        owner = await cluster.owner(current[0])
        if owner is None or owner == cluster.node:
            return False, None
        return True, await cluster.call(owner, op, room=room_id, **args)

    async def _show_requests_call(self, args: dict[str, Any]) -> None:
        table = self.tables.get(int(args["room"]))
        if table is not None:
            await table.show_requests(args["rematch"], list(args["end_votes"]),
                                      args.get("declined_by"))  # fmt: skip

    async def _left_room_call(self, args: dict[str, Any]) -> int:
        table = self.tables.get(int(args["room"]))
        user = int(args["user"])
        return 0 if table is None else table.drop_where(lambda conn: conn.user_id == user)

    async def show_requests(
        self,
        room_id: int,
        rematch: dict[str, Any] | None,
        end_votes: list[int],
        declined_by: int | None = None,
    ) -> None:
        """The room's Revanche offer or agreements to end the match changed (stored
        already): its live table, if any, tells everybody at it at once (with several
        processes: the table's owner does)."""
        if self.cluster is not None:
            try:
                asked, _ = await self._ask_owner(
                    room_id, "show_requests", rematch=rematch, end_votes=end_votes,
                    declined_by=declined_by,
                )  # fmt: skip
            except OwnerUnavailable:  # stored: the next snapshot shows it
                logger.warning("room %s: the table's owner was not told of the requests",
                               room_id)  # fmt: skip
                return
            if asked:
                return
        table = self.tables.get(room_id)
        if table is not None:
            await table.show_requests(rematch, end_votes, declined_by)

    async def end_match(self, room_id: int) -> int | None:
        """End the room's running match early, by agreement of all its players: stored as
        ``ended`` (the room as finished) under the table's lock, so no action slips in
        between; then everybody at the table is told. Return the match id (None when no
        match was running)."""
        table = self.tables.get(room_id)
        if self.cluster is not None:  # the owner ends it, or this process after taking it
            current = await self._current_match(room_id)
            if current is not None and (table is None or table.live.match_id != current[0]
                                        or table.lost):  # fmt: skip
                found = await self.greet(room_id)
                if isinstance(found, RemoteTable):
                    ended: int | None = await self.cluster.call(found.node, "end_match",
                                                                room=room_id)  # fmt: skip
                    return ended
                table = found
        if table is None:
            return await self.writer.run(lambda session: end_early(session, room_id))
        async with table.lock:
            match_id = await self._end_table(table)
        logger.info("room %s: match %s ended by agreement", room_id, match_id)
        return match_id

    async def _end_table(self, table: Table) -> int | None:
        """Store the table's match as ended early and tell everybody (under its lock)."""
        engine = table.live.engine
        room_id = table.room_id

        fence = table.fence

        async def store(session: AsyncSession) -> int | None:
            if fence is not None:  # still ours (several processes)
                await session.run_sync(fence)
            if engine.finished:
                return await end_early(session, room_id)
            # the pots are closed now (shared out, the Depot paid) and the match settled
            settlement = engine.final_settlement(ended_early=True)
            return await end_early(session, room_id, settlement, engine.closing_now())

        match_id = await self.writer.run(store)
        table.end_early()
        return match_id

    async def holidays_changed(self, room_id: int, user_id: int) -> None:
        """``user_id``'s holidays in the room changed (stored already): its table works out
        his open turn's deadline again, stores it and tells everybody (a snapshot); with
        several processes the table's owner does."""
        if self.cluster is not None:
            try:
                asked, _ = await self._ask_owner(room_id, "holidays_changed", user=user_id)
            except OwnerUnavailable:  # stored: a process that takes the table over reads it
                logger.warning("room %s: the table's owner was not told of new holidays",
                               room_id)  # fmt: skip
                return
            if asked:
                return
        await self._holidays_changed_here(room_id, user_id)

    async def _holidays_changed_call(self, args: dict[str, Any]) -> None:
        await self._holidays_changed_here(int(args["room"]), int(args["user"]))

    async def _holidays_changed_here(self, room_id: int, user_id: int) -> None:
        table = self.tables.get(room_id)
        if table is None or table.lost or not table.tempo_seconds:
            return
        async with self.sessions() as session:
            found = await turns.holidays_of(session, room_id, [user_id])
        async with table.lock:
            if table.refresh_deadline(user_id, found.get(user_id, [])):
                table.broadcast_snapshots()

    async def deadline_passed(self, due: turns.DueTurn) -> bool:
        """A correspondence deadline passed (:mod:`server.tables.deadlines`): the table of
        its match moves for the seat, if this process serves it or can take it over (one
        owned by another process is that one's job). Return whether it acted."""
        table = self.tables.get(due.room_id)
        if table is None or table.live.match_id != due.match_id or table.lost:
            if self.cluster is None:
                return False
            table = await self._take(due.room_id, due.match_id)
            if table is None:
                return False
        return await table.deadline_passed(due.version, due.seat)

    async def _everybody_gone(self, table: Table) -> bool:
        """Every person of the table's match left for good (the stand-in played on for
        them all): the match ends as if they had agreed to end it, after the deal just
        finished (under the table's lock; :mod:`server.tables.standins`). Return whether
        it ended (a failed write: the table goes on and tries after the next deal)."""
        try:
            match_id = await self._end_table(table)
        except StorageError:
            logger.warning("room %s: the abandoned match could not be ended", table.room_id)
            return False
        logger.info("room %s: match %s ended: everybody left", table.room_id, match_id)
        return True

    async def recover(self) -> None:
        """Rebuild every running match from its stored deals and actions; complete a deal
        whose actions are all stored but whose end is not."""
        async with self.sessions() as session:
            stored = await log.load_unfinished(session)
        for match in stored:
            await self._recover_one(match)

    async def _recover_one(self, match: log.StoredMatch, fence: log.Fence | None = None) -> Table:
        """Rebuild one running match's table from its stored deals and actions (``fence``:
        the ownership check of its writes, several processes) and serve it here."""
        last = match.deals[-1] if match.deals else None
        live = rebuild(
            match.id,
            match.game,
            match.players,
            match.player_ids,
            match.config,
            [(d.id, d.number, d.record, d.actions) for d in match.deals],
            record_last=last is None or last.outcome is not None,
            fair=match.fair,
        )
        table = Table(
            match.room_id,
            live,
            self.writer,
            self.rng,
            dict(zip(match.player_ids, match.players, strict=True)),
            self.thinker,
            self.clock,
        )
        table.fence = fence
        table.on_everybody_gone = partial(self._everybody_gone, table)
        table.chat.extend(line.to_json() for line in match.chat)
        if table.levels:
            await self.thinker.prepare(match.game)
        async with self.sessions() as session:  # the open requests around the match
            room = await get_room(session, match.room_id)
            if room is not None:
                table.requests = {"rematch": room.rematch,
                                  "end_votes": sorted(room.end_votes or [])}  # fmt: skip
            stored_turn = await turns.load_turn(session, match.id)
            if table.tempo_seconds:
                table.holidays = await turns.holidays_of(session, match.room_id,
                                                         match.player_ids)  # fmt: skip
        table.paused = match.paused  # a pause agreed before the restart goes on
        # as live: one version per action, one more when a deal is finished
        version = 0
        user_of = dict(zip(match.players, match.player_ids, strict=True))
        for deal in match.deals:
            seats = deal.record["seats"]
            for (seat, _text), client_id in zip(deal.actions, deal.client_ids, strict=True):
                version += 1
                if client_id is not None and not log.is_table_action(client_id):
                    table.applied[(user_of[seats[seat]], client_id, version - 1)] = version
            version += deal.outcome is not None
        table.version = version
        table.adopt_turn(stored_turn)  # the turn begun before the restart keeps its deadline
        table.auto_actions = auto_actions(last)
        table.standin_actions = standin_actions(last)
        async with table.lock:
            # the finished deal shown in the pause before the current one, if any
            shown: tuple[Deal, int, list[int]] | None = None
            if len(match.deals) >= 2 and match.deals[-2].outcome is not None:
                before = match.deals[-2]
                shown = (replay_stored(before), before.number, auto_actions(before))
            if last is not None and last.outcome is None and live.deal is not None \
                    and live.deal.finished:  # fmt: skip
                shown = (live.deal, live.deal_number, auto_actions(last))
                table.auto_actions = []
                table.standin_actions = []
                await self._complete(table)
            if live.deal is None or (live.deal.finished and not live.engine.finished):
                await table.start_next_deal()  # we stopped between two deals
                shown = None
            table.finished = live.engine.finished
            if (shown is not None and not table.finished and live.deal is not None
                    and not live.deal.history):  # fmt: skip
                table.resume_between(*shown)  # the taps are not stored: ask again
            table.resume_asked(match.standin_asked)  # "Vertretung für 5 Minuten"
            table.arm_timer()
            await table.play_forced()  # stopped between an action and a forced move
        self.tables[match.room_id] = table
        logger.info("room %s: match %s recovered at deal %s, version %s", match.room_id,
                    match.id, live.deal_number, table.version)  # fmt: skip
        return table

    async def _complete(self, table: Table) -> None:
        """Store the end of the table's finished deal (outcome, scores, pots, the next deal
        or the end of the match), which an older version stored apart from its last
        action; in one transaction, as a deal's end is stored now."""
        closed, end = table.deal_end(None)
        next_id = await table._write(lambda connection: log.end_deal(connection, end))
        table.live.take(closed, next_id)
        table.version += 1
        logger.warning("room %s: completed deal %s, whose end had not been stored",
                       table.room_id, end.deal_id)  # fmt: skip


def _aware(moment: datetime) -> datetime:
    """A stored time as an aware one (SQLite gives them back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _forget(index: dict[Any, list[Socket]], key: Any, socket: Socket) -> None:
    """Take ``socket`` out of ``index[key]`` (if there), and the key with its last socket."""
    sockets = index.get(key)
    if sockets is not None and socket in sockets:
        sockets.remove(socket)
        if not sockets:
            del index[key]


def auto_actions(deal: log.StoredDeal | None) -> list[int]:
    """Indexes of the stored deal's actions that the turn timer played."""
    if deal is None:
        return []
    return [index for index, client_id in enumerate(deal.client_ids)
            if client_id == log.AUTO_ACTION]  # fmt: skip


def standin_actions(deal: log.StoredDeal | None) -> list[int]:
    """Indexes of the stored deal's actions that a stand-in played for a person."""
    if deal is None:
        return []
    return [index for index, client_id in enumerate(deal.client_ids)
            if log.is_standin_action(client_id)]  # fmt: skip


def replay_stored(deal: log.StoredDeal) -> Deal:
    """A stored deal replayed from its record and actions."""
    return load_record({**deal.record, "actions": [list(a) for a in deal.actions]})
