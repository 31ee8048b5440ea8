"""Stored turns: whose move a running match waits for, since when and until when.

One row of ``turns`` per match whose deal waits for a person (the table writes it through
its writer, off the action's path, see :class:`server.tables.table.Table`). A live match's
row has no deadline; a correspondence match's ("Fernpartie") has the *effective* deadline:
the time per move from the turn's start, not running while the person is on holiday
(:func:`effective_deadline`) nor while the match is paused by agreement (the pause's
length is added when it goes on, :func:`resume_shift`).

The synchronous functions take a SQLAlchemy :class:`~sqlalchemy.Connection` (the writer's
units); the async ones an :class:`AsyncSession`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, bindparam, case, delete, false, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import Holiday, Match, Turn

#: A holiday as a span of time: (starts at, ends at), both aware UTC.
Span = tuple[datetime, datetime]


def aware(moment: datetime) -> datetime:
    """A stored time as an aware UTC one (SQLite gives them back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def effective_deadline(since: datetime, seconds: float, holidays: Iterable[Span]) -> datetime:
    """When a turn that began at ``since`` with ``seconds`` per move runs out, the clock
    standing still during the person's ``holidays``.

    A turn that begins during a holiday gets its whole time after the holiday's end; one
    that is running when a holiday begins gets the rest after it.

    >>> day = timedelta(days=1)
    >>> t0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
    >>> effective_deadline(t0, 86400, []) == t0 + day
    True
    >>> jan = (datetime(2026, 12, 2, tzinfo=UTC), datetime(2026, 12, 5, tzinfo=UTC))
    >>> effective_deadline(t0, 86400, [jan])  # 12 h before it, 12 h after it
    datetime.datetime(2026, 12, 5, 12, 0, tzinfo=datetime.timezone.utc)
    >>> effective_deadline(datetime(2026, 12, 3, tzinfo=UTC), 86400, [jan])  # begun during
    datetime.datetime(2026, 12, 6, 0, 0, tzinfo=datetime.timezone.utc)
    >>> effective_deadline(t0, 43200, [jan])  # runs out exactly when the holiday begins
    datetime.datetime(2026, 12, 2, 0, 0, tzinfo=datetime.timezone.utc)
    >>> effective_deadline(t0, 86400, [(t0 - 2 * day, t0)])  # over when the turn begins
    datetime.datetime(2026, 12, 2, 12, 0, tzinfo=datetime.timezone.utc)
    """
    moment = since
    left = timedelta(seconds=seconds)
    for start, end in sorted(holidays):
        if end <= moment:
            continue
        if start > moment:
            run = min(left, start - moment)
            moment += run
            left -= run
            if not left:
                return moment
        moment = max(moment, end)
    return moment + left


@dataclass
class TurnState:
    """A turn as the table keeps it: who, since when, at which version, until when."""

    user_id: int
    seat: int
    version: int
    since: datetime
    deadline: datetime | None = None

    def same_turn(self, other: TurnState | None) -> bool:
        """Whether ``other`` is this turn (the same version and seat)."""
        return other is not None and (other.version, other.seat) == (self.version, self.seat)


def _upsert(dialect: str) -> Any:
    """The one statement that stores a turn (see :func:`store_turn`), built once per
    database dialect with bound parameters."""
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(Turn).values(
        match_id=bindparam("match_id"), room_id=bindparam("room_id"),
        user_id=bindparam("user_id"), seat=bindparam("seat"), version=bindparam("version"),
        since=bindparam("since"), deadline=bindparam("deadline"), reminded=0, notified=False,
    )  # fmt: skip
    new = statement.excluded
    same = and_(Turn.version == new.version, Turn.seat == new.seat)
    return statement.on_conflict_do_update(
        index_elements=[Turn.match_id],
        set_={
            "user_id": new.user_id,
            "seat": new.seat,
            "version": new.version,
            "since": case((same, Turn.since), else_=new.since),
            "deadline": new.deadline,
            "reminded": case((same, Turn.reminded), else_=0),
            "notified": case((same, Turn.notified), else_=false()),
        },
    )


_UPSERTS: dict[str, Any] = {}


def store_turn(connection: Connection, match_id: int, room_id: int, turn: TurnState | None) -> None:
    """Make the match's stored turn ``turn`` (None: nobody is to move, no row), in one
    statement: the row of the same turn (version and seat) keeps its start and reminders
    and gets the deadline; another turn replaces it with a fresh row (not reminded, not
    notified)."""
    if turn is None:
        connection.execute(delete(Turn).where(Turn.match_id == match_id))
        return
    dialect = connection.dialect.name
    statement = _UPSERTS.get(dialect)
    if statement is None:
        statement = _UPSERTS[dialect] = _upsert(dialect)
    connection.execute(
        statement,
        {"match_id": match_id, "room_id": room_id, "user_id": turn.user_id, "seat": turn.seat,
         "version": turn.version, "since": turn.since, "deadline": turn.deadline},
    )  # fmt: skip


def resume_shift(connection: Connection, match_id: int, now: datetime) -> datetime | None:
    """The match goes on after a pause by agreement: its stored turn's deadline moves on
    by the pause's length and the pause is over (one transaction with the caller's other
    work); return when the pause began (None: it was not paused)."""
    paused_at = connection.execute(select(Match.paused_at).where(Match.id == match_id)).scalar()
    if paused_at is None:
        return None
    began = aware(paused_at)
    deadline = connection.execute(select(Turn.deadline).where(Turn.match_id == match_id)).scalar()
    if deadline is not None:
        moved = aware(deadline) + max(timedelta(0), now - began)
        connection.execute(update(Turn).where(Turn.match_id == match_id).values(deadline=moved))
    connection.execute(update(Match).where(Match.id == match_id).values(paused_at=None))
    return began


async def load_turn(session: AsyncSession, match_id: int) -> TurnState | None:
    """The stored turn of a match (None: no row)."""
    row = (await session.execute(select(Turn).where(Turn.match_id == match_id))).scalar()
    if row is None:
        return None
    return TurnState(row.user_id, row.seat, row.version, aware(row.since),
                     None if row.deadline is None else aware(row.deadline))  # fmt: skip


async def holidays_of(
    session: AsyncSession, room_id: int, user_ids: Sequence[int]
) -> dict[int, list[Span]]:
    """Each person's holidays in a room (user id -> spans, earliest first)."""
    rows = await session.execute(
        select(Holiday.user_id, Holiday.starts_at, Holiday.ends_at)
        .where(Holiday.room_id == room_id, Holiday.user_id.in_(list(user_ids)))
        .order_by(Holiday.starts_at)
    )
    found: dict[int, list[Span]] = {}
    for user, start, end in rows:
        found.setdefault(user, []).append((aware(start), aware(end)))
    return found


@dataclass(frozen=True)
class DueTurn:
    """A correspondence turn whose deadline has passed."""

    match_id: int
    room_id: int
    version: int
    seat: int


async def due_turns(session: AsyncSession, now: datetime) -> list[DueTurn]:
    """The turns whose deadline is at or before ``now``, of running matches that are not
    paused, earliest deadline first."""
    rows = await session.execute(
        select(Turn.match_id, Turn.room_id, Turn.version, Turn.seat)
        .join(Match, Match.id == Turn.match_id)
        .where(Turn.deadline.is_not(None), Turn.deadline <= now, Match.paused_at.is_(None),
               Match.status == "running")
        .order_by(Turn.deadline)
    )  # fmt: skip
    return [DueTurn(*row) for row in rows]
