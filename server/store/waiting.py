"""Where a person is awaited ("Du bist dran"): the running matches whose deal waits for
his move, across all his rooms, read from the ``turns`` table that the match tables keep
(one row per running match that waits for a person, whichever process runs the table).

Read only; one query each. The order is the order of urgency: live tables first (their
``deadline`` is None: the others at the table are waiting right now), then the
correspondence matches by their deadline, soonest first; equal ones by the turn's
beginning, then by match id, so that the order is stable.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import Match, Room, Turn

#: The status of a match that is being played.
RUNNING = "running"


@dataclass(frozen=True, slots=True)
class Waiting:
    """One table that waits for the person: where, which seat, since and until when.

    ``deadline`` is None for a live table; ``tempo_seconds`` is the match's time per move
    (None: live), taken from the match's configuration where it fixed one at the start,
    else from the room."""

    room_id: int
    room_name: str
    game: str
    match_id: int
    seat: int
    since: datetime
    deadline: datetime | None
    tempo_seconds: int | None


def _aware(moment: datetime) -> datetime:
    """``moment`` with its time zone: SQLite hands back naive datetimes, stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _tempo(config: object, room_tempo: int | None) -> int | None:
    """The match's seconds per move: its configuration's ``tempo_seconds`` when it has
    that key (fixed at the start), else the room's."""
    if isinstance(config, dict) and "tempo_seconds" in config:
        value = config["tempo_seconds"]
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return room_tempo


async def waiting_for(session: AsyncSession, user_id: int) -> list[Waiting]:
    """Every running match whose turn waits for ``user_id``, most urgent first (live tables,
    then by deadline, soonest first); finished or ended matches never, even if a row of
    theirs was left behind."""
    rows = await session.execute(
        select(
            Turn.room_id,
            Room.name,
            Match.game,
            Turn.match_id,
            Turn.seat,
            Turn.since,
            Turn.deadline,
            Room.tempo_seconds,
            Match.config,
        )
        .join(Match, Match.id == Turn.match_id)
        .join(Room, Room.id == Turn.room_id)
        .where(Turn.user_id == user_id, Match.status == RUNNING)
        .order_by(Turn.deadline.is_(None).desc(), Turn.deadline, Turn.since, Turn.match_id)
    )
    return [
        Waiting(
            room_id=room_id,
            room_name=name,
            game=game,
            match_id=match_id,
            seat=seat,
            since=_aware(since),
            deadline=None if deadline is None else _aware(deadline),
            tempo_seconds=_tempo(config, room_tempo),
        )
        for room_id, name, game, match_id, seat, since, deadline, room_tempo, config in rows
    ]


async def rooms_waiting_for(
    session: AsyncSession, user_id: int, room_ids: Collection[int]
) -> set[int]:
    """Those of ``room_ids`` whose running match waits for ``user_id``'s move."""
    if not room_ids:
        return set()
    found = await session.scalars(
        select(Turn.room_id)
        .join(Match, Match.id == Turn.match_id)
        .where(
            Turn.user_id == user_id,
            Turn.room_id.in_(list(room_ids)),
            Match.status == RUNNING,
        )
    )
    return set(found)
