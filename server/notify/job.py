"""The periodic job that sends the notifications of correspondence turns.

Every ``Settings.deadline_poll`` seconds each server process reads the ``turns`` rows
with a deadline (correspondence matches; whoever writes them) and the wall clock
(:mod:`server.clock`), and

* pushes "your move" once per turn: the process that flips ``notified`` from false to
  true for the turn's version (one ``UPDATE … WHERE``) sends, no other;
* pushes the reminders at 75 % and 90 % of the time per move
  (:mod:`server.notify.reminders`), once each, claimed the same way through ``reminded``;
  when both are due at once only the 90 % one goes out, and a reminder due together
  with "your move" replaces it (one message, not two);
* sends the daily e-mail digest to each person who wants it (verified address, digest
  on), at most once in 24 hours (``digest_sent_at``, claimed the same way) and only when
  at least one correspondence turn waits for the person.

A push goes only to a person with no open table page (no table socket on any process,
asked at the moment of sending) to every device of the person. A message skipped for an
open page is still marked as sent: the person sees the table, and a "your move" that
arrives hours later, after he left the page without moving, would be stale; the
reminders will tell him in time. A device the push service no longer knows (404/410) is
forgotten. A digest that could not be handed to the SMTP server is tried again at the next
poll. Errors are logged; the job never stops for them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.background import stop_task
from server.clock import Clock
from server.engine.registry import GAMES
from server.notify import mail, push, texts
from server.notify.reminders import due_reminder
from server.notify.subscriptions import Subscription
from server.notify.vapid import VapidKeys
from server.settings import Settings
from server.store.models import Match, PushSubscription, Room, Turn, User

logger = logging.getLogger(__name__)

#: The shortest time between two digests of one person.
DIGEST_INTERVAL = timedelta(hours=24)

OpenPage = Callable[[int], Awaitable[bool]]


def aware(moment: datetime) -> datetime:
    """``moment`` in UTC, aware (SQLite gives stored times back naive)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def game_title(game: str) -> str:
    """The game's name as players write it (``Tarock zu dritt``)."""
    return GAMES[game].title if game in GAMES else game


@dataclass(frozen=True, slots=True)
class DueTurn:
    """A correspondence turn as the job reads it."""

    table: texts.Waiting
    user_id: int
    version: int
    language: str
    tempo_seconds: int | None
    reminded: int
    notified: bool


class Notifier:
    """The job: :meth:`start` it with the app, :meth:`stop` it on shutdown;
    :meth:`run_once` is one poll (the tests call it, too)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        settings: Settings,
        clock: Clock,
        keys: VapidKeys,
        gettext: texts.Translate,
        open_page: OpenPage,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.clock = clock
        self.keys = keys
        self.signer = push.vapid_signer(keys.private_pem)
        self.gettext = gettext
        self.open_page = open_page
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Poll every ``Settings.deadline_poll`` seconds from now on."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="notifier")

    async def stop(self) -> None:
        """Stop polling (a send under way is abandoned)."""
        task, self._task = self._task, None
        await stop_task(task)

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                logger.exception("The notification job failed; trying again at the next poll")
            await asyncio.sleep(self.settings.deadline_poll)

    async def run_once(self) -> None:
        """One poll: the pushes due now, then the digests due now."""
        now = self.clock.now()
        for turn in await self.due_turns():
            await self._push_turn(turn, now)
        if self.settings.smtp_host:
            await self._digests(now)

    # ------------------------------------------------------------------ push

    async def due_turns(self, user_id: int | None = None) -> list[DueTurn]:
        """Every correspondence turn of a running match that is not paused (of ``user_id``
        only, if given)."""
        query = (
            select(Turn, Room.name, Room.tempo_seconds, Match.game, Match.config, User.language)
            .join(Room, Room.id == Turn.room_id)
            .join(Match, Match.id == Turn.match_id)
            .join(User, User.id == Turn.user_id)
            .where(
                Turn.deadline.is_not(None),
                Match.status == "running",
                Match.paused_at.is_(None),  # a paused table waits for nobody
            )
            .order_by(Turn.deadline, Turn.match_id)
        )
        if user_id is not None:
            query = query.where(Turn.user_id == user_id)
        async with self.sessions() as session:
            rows = (await session.execute(query)).all()
        found = []
        for turn, room, room_tempo, game, config, language in rows:
            assert turn.deadline is not None
            tempo = (config or {}).get("tempo_seconds", room_tempo)
            table = texts.Waiting(
                turn.match_id, turn.room_id, room, game_title(game), aware(turn.deadline)
            )
            found.append(
                DueTurn(
                    table=table,
                    user_id=turn.user_id,
                    version=turn.version,
                    language=language or "de",
                    tempo_seconds=tempo if isinstance(tempo, int) else None,
                    reminded=turn.reminded,
                    notified=turn.notified,
                )
            )
        return found

    async def _claim(self, turn: DueTurn, **change: Any) -> bool:
        """Write ``change`` to the turn if it is still the same turn and nobody made the
        change before (``notified`` false, ``reminded`` lower); whether this did it."""
        statement = update(Turn).where(
            Turn.match_id == turn.table.match_id, Turn.version == turn.version
        )
        if "notified" in change:
            statement = statement.where(Turn.notified.is_(False))
        if "reminded" in change:
            statement = statement.where(Turn.reminded < change["reminded"])
        async with self.sessions() as session:
            result = await session.execute(statement.values(**change))
            await session.commit()
        return bool(getattr(result, "rowcount", 0))

    async def _push_turn(self, turn: DueTurn, now: datetime) -> None:
        message_level: int | None = None
        if not turn.notified and await self._claim(turn, notified=True):
            message_level = 0
        level = due_reminder(now, turn.table.deadline, turn.tempo_seconds, turn.reminded)
        if level and await self._claim(turn, reminded=level):
            message_level = level
        if message_level is None:
            return
        if await self.open_page(turn.user_id):
            logger.info(
                "No push to user %s for match %s: a table page is open",
                turn.user_id,
                turn.table.match_id,
            )
            return
        message = texts.push_message(self.gettext, turn.language, turn.table, message_level, now)
        ttl = int((turn.table.deadline - now).total_seconds())
        await self.push_to_user(turn.user_id, message, ttl)

    async def push_to_user(self, user_id: int, message: dict[str, Any], ttl: int) -> int:
        """Send ``message`` to every device of ``user_id``; forget the devices the push
        service no longer knows. Returns how many devices took it."""
        async with self.sessions() as session:
            rows = list(
                await session.scalars(
                    select(PushSubscription).where(PushSubscription.user_id == user_id)
                )
            )
        subscriptions = [(row.id, Subscription(row.endpoint, row.p256dh, row.auth)) for row in rows]
        outcomes = await asyncio.gather(
            *(
                push.send(sub, message, self.signer, self.settings.push_subject, ttl)
                for _, sub in subscriptions
            )
        )
        pairs = list(zip((i for i, _ in subscriptions), outcomes, strict=True))
        gone = [i for i, outcome in pairs if outcome is push.Outcome.GONE]
        sent = [i for i, outcome in pairs if outcome is push.Outcome.SENT]
        if gone or sent:
            async with self.sessions() as session:
                if gone:
                    await session.execute(
                        delete(PushSubscription).where(PushSubscription.id.in_(gone))
                    )
                if sent:
                    await session.execute(
                        update(PushSubscription)
                        .where(PushSubscription.id.in_(sent))
                        .values(last_sent_at=self.clock.now())
                    )
                await session.commit()
        return len(sent)

    # ------------------------------------------------------------------ e-mail

    async def _digests(self, now: datetime) -> None:
        cutoff = now - DIGEST_INTERVAL
        waiting = select(Turn.user_id).where(Turn.deadline.is_not(None))
        query = select(User).where(
            User.email_digest.is_(True),
            User.email.is_not(None),
            User.email_verified_at.is_not(None),
            or_(User.digest_sent_at.is_(None), User.digest_sent_at <= cutoff),
            User.id.in_(waiting),
        )
        async with self.sessions() as session:
            users = list(await session.scalars(query))
        for user in users:
            tables = [t.table for t in await self.due_turns(user.id)]
            if not tables or user.email is None:
                continue
            if not await self._claim_digest(user.id, cutoff, now):
                continue  # another process sends it
            origin = self.settings.public_origins[0] if self.settings.public_origins else ""
            letter = texts.digest_mail(
                self.gettext, user.language, user.email, user.display_name, tables, origin
            )
            try:
                await mail.send(letter, self.settings)
            except Exception as exc:
                logger.warning("The digest for user %s was not sent (%r); next poll", user.id, exc)
                await self._release_digest(user.id, user.digest_sent_at, now)

    async def _claim_digest(self, user_id: int, cutoff: datetime, now: datetime) -> bool:
        async with self.sessions() as session:
            result = await session.execute(
                update(User)
                .where(
                    User.id == user_id,
                    or_(User.digest_sent_at.is_(None), User.digest_sent_at <= cutoff),
                )
                .values(digest_sent_at=now)
            )
            await session.commit()
        return bool(getattr(result, "rowcount", 0))

    async def _release_digest(self, user_id: int, before: datetime | None, now: datetime) -> None:
        async with self.sessions() as session:
            await session.execute(
                update(User)
                .where(User.id == user_id, User.digest_sent_at == now)
                .values(digest_sent_at=before)
            )
            await session.commit()
