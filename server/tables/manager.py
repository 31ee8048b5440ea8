"""All live tables of this server process: starting matches, recovery, lookup.

On start-up :meth:`TableManager.recover` rebuilds every running match by replaying its
stored deals through the engine (which re-checks every action), so players can reconnect
and continue exactly where they were. Later, several processes can share tables through
PostgreSQL and Redis; this class is the seam where table ownership would be decided.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store import log
from server.store.errors import NotFoundError
from server.store.rooms import get_room, players_in_order
from server.tables.matches import LiveMatch, build_engine_match, rebuild, unique_names
from server.tables.table import Table
from server.tables.writer import Writer

logger = logging.getLogger(__name__)


class TableManager:
    """Owns the writer and every live table of this process."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], rng: random.Random | None = None
    ) -> None:
        self.sessions = sessions
        self.writer = Writer(sessions, sqlite=log.sqlite_writer(sessions))
        self.rng = rng or random.SystemRandom()
        self.tables: dict[int, Table] = {}

    async def start(self) -> None:
        """Start the writer and recover the running matches."""
        self.writer.start()
        await self.recover()

    async def stop(self) -> None:
        """Close every connection and let the writer finish what is queued."""
        for table in self.tables.values():
            await table.close()
        await self.writer.stop()

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
            names = unique_names([user.display_name for user, _ in seated])
            user_ids = [user.id for user, _ in seated]
            config: dict[str, Any] = {
                "options": dict(room.options),
                "stake_cents": room.stake_cents,
                "rounds": room.rounds,
                "timer_seconds": room.timer_seconds,
                "first_dealer": self.rng.randrange(len(names)),
            }
            game = room.game
        live = LiveMatch(0, game, names, user_ids, config, build_engine_match(game, names, config))
        table = Table(room_id, live, self.writer, self.rng, dict(zip(user_ids, names, strict=True)))

        async def store(session: AsyncSession) -> int:
            return await log.create_match(session, room_id, game, names, user_ids, config)

        async with table.lock:
            live.match_id = await self.writer.run(store)
            await table.start_next_deal()
            table.arm_timer()
        self.tables[room_id] = table
        logger.info("room %s: match %s started (%s)", room_id, live.match_id, game)
        return live.match_id

    async def recover(self) -> None:
        """Rebuild every running match from its stored deals and actions."""
        async with self.sessions() as session:
            stored = await log.load_unfinished(session)
        for match in stored:
            live = rebuild(
                match.id,
                match.game,
                match.players,
                match.player_ids,
                match.config,
                [(d.id, d.number, d.record, d.actions) for d in match.deals],
            )
            table = Table(
                match.room_id,
                live,
                self.writer,
                self.rng,
                dict(zip(match.player_ids, match.players, strict=True)),
            )
            async with table.lock:
                if live.deal is None or (live.deal.finished and not live.engine.finished):
                    await table.start_next_deal()  # we stopped between two deals
                # as live: one version per action, one more when a deal is finished
                finished = sum(1 for d in match.deals if d.outcome is not None)
                table.version = sum(len(d.actions) for d in match.deals) + finished
                table.arm_timer()
            self.tables[match.room_id] = table
            logger.info("room %s: match %s recovered at deal %s, version %s", match.room_id,
                        match.id, live.deal_number, table.version)  # fmt: skip
