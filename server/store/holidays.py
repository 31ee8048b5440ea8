"""Holidays in correspondence rooms: whole days on which a person's deadlines stand still.

A holiday is a run of whole days, UTC midnight to midnight, that a member of a
correspondence room ("Fernpartie") takes in that room; the room allows each person
``holiday_days`` days per calendar year (a holiday over New Year counts in both years, each
day in its own). While it lasts, the time per move of that person's turns does not run
(:func:`server.store.turns.effective_deadline`). Every function takes an
:class:`AsyncSession` and leaves the transaction to the caller. Refusals:

=========================== ===================================================
``not_correspondence``      the room is a live one: there are no holidays
``bad_holiday``             days not 1–366
``holiday_in_past``         the holiday would start before today (UTC)
``holiday_too_far``         it would start more than :data:`MAX_AHEAD` days from today
``holiday_overlaps``        it overlaps another holiday of the same person here
``holiday_days_exceeded``   more days in a calendar year than the room allows
``holiday_not_found``       no such holiday of the caller in this room
``holiday_over``            the holiday is over already: nothing to take back
=========================== ===================================================
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.errors import ConflictError, InvalidError, NotFoundError
from server.store.models import Holiday, Room, Turn
from server.store.turns import Span, aware, effective_deadline

#: The longest holiday one may take at once, in days.
MAX_DAYS = 366
#: How far ahead a holiday may be taken (a year and a day: next summer's, planned now).
MAX_AHEAD = 366


def midnight(day: date) -> datetime:
    """The start of ``day`` (UTC)."""
    return datetime.combine(day, time(), UTC)


def days_in_year(start: datetime, end: datetime, year: int) -> int:
    """The whole days of the span ``start``–``end`` (midnights) that fall in ``year``.

    >>> days_in_year(midnight(date(2026, 12, 30)), midnight(date(2027, 1, 3)), 2026)
    2
    >>> days_in_year(midnight(date(2026, 12, 30)), midnight(date(2027, 1, 3)), 2027)
    2
    >>> days_in_year(midnight(date(2026, 3, 1)), midnight(date(2026, 3, 2)), 2025)
    0
    """
    first, last = midnight(date(year, 1, 1)), midnight(date(year + 1, 1, 1))
    overlap = min(end, last) - max(start, first)
    return max(0, overlap.days)


async def room_holidays(session: AsyncSession, room_id: int) -> list[Holiday]:
    """Every holiday taken in the room, the earliest first."""
    rows = await session.execute(
        select(Holiday).where(Holiday.room_id == room_id).order_by(Holiday.starts_at, Holiday.id)
    )
    return list(rows.scalars())


async def spans_of(session: AsyncSession, room_id: int, user_id: int) -> list[Span]:
    """One person's holidays in the room as spans of time."""
    return [
        (aware(h.starts_at), aware(h.ends_at))
        for h in await room_holidays(session, room_id)
        if h.user_id == user_id
    ]


def used_days(holidays: list[Holiday], user_id: int, year: int) -> int:
    """The days ``user_id`` took in ``year`` among ``holidays``."""
    return sum(
        days_in_year(aware(h.starts_at), aware(h.ends_at), year)
        for h in holidays
        if h.user_id == user_id
    )


def _check_correspondence(room: Room) -> None:
    if room.tempo_seconds is None:
        raise InvalidError(
            "not_correspondence",
            "Holidays are only for correspondence rooms.",
            "Urlaub gibt es nur in Räumen mit Fernpartie.",
        )


async def take_holiday(
    session: AsyncSession, room: Room, user_id: int, start: date, days: int, today: date
) -> Holiday:
    """``user_id`` (a member of ``room``, checked by the caller) takes ``days`` whole days
    from ``start`` (not before ``today``) off; the room's allowance per calendar year holds
    for each year the holiday touches. Return the stored holiday."""
    _check_correspondence(room)
    if type(days) is not int or not 1 <= days <= MAX_DAYS:
        raise InvalidError(
            "bad_holiday",
            f"A holiday is 1 to {MAX_DAYS} whole days.",
            f"Ein Urlaub dauert 1 bis {MAX_DAYS} ganze Tage.",
        )
    if start < today:
        raise InvalidError(
            "holiday_in_past",
            "A holiday starts today or later.",
            "Ein Urlaub beginnt heute oder später.",
        )
    if (start - today).days > MAX_AHEAD:
        raise InvalidError(
            "holiday_too_far",
            f"A holiday starts within {MAX_AHEAD} days from today.",
            f"Ein Urlaub beginnt spätestens in {MAX_AHEAD} Tagen.",
        )
    starts, ends = midnight(start), midnight(start + timedelta(days=days))
    taken = await room_holidays(session, room.id)
    own = [h for h in taken if h.user_id == user_id]
    if any(aware(h.starts_at) < ends and starts < aware(h.ends_at) for h in own):
        raise ConflictError(
            "holiday_overlaps",
            "This holiday overlaps one you have taken already.",
            "Dieser Urlaub überschneidet sich mit einem, den du schon genommen hast.",
        )
    for year in range(start.year, (ends - timedelta(days=1)).year + 1):
        used = used_days(own, user_id, year)
        if used + days_in_year(starts, ends, year) > room.holiday_days:
            raise InvalidError(
                "holiday_days_exceeded",
                f"This room allows {room.holiday_days} holiday days a year; you have taken "
                f"{used} in {year}.",
                f"Dieser Raum erlaubt {room.holiday_days} Urlaubstage im Jahr; du hast "
                f"{year} schon {used} genommen.",
            )
    holiday = Holiday(user_id=user_id, room_id=room.id, starts_at=starts, ends_at=ends)
    session.add(holiday)
    await session.flush()
    return holiday


async def take_back(
    session: AsyncSession, room: Room, user_id: int, holiday_id: int, now: datetime
) -> None:
    """``user_id`` takes his holiday back: one that has not begun is deleted, one under way
    ends at the end of today (UTC); one that is over cannot be."""
    holiday = await session.get(Holiday, holiday_id)
    if holiday is None or holiday.room_id != room.id or holiday.user_id != user_id:
        raise NotFoundError(
            "holiday_not_found",
            "You have no such holiday in this room.",
            "Diesen Urlaub hast du in diesem Raum nicht.",
        )
    starts, ends = aware(holiday.starts_at), aware(holiday.ends_at)
    if ends <= now:
        raise ConflictError(
            "holiday_over",
            "This holiday is over already.",
            "Dieser Urlaub ist schon vorbei.",
        )
    if starts > now:
        await session.delete(holiday)
    else:
        holiday.ends_at = midnight(now.date() + timedelta(days=1))
    await session.flush()


async def move_deadlines(
    session: AsyncSession, room: Room, user_id: int, before: list[Span], after: list[Span]
) -> None:
    """``user_id``'s holidays in the room changed from ``before`` to ``after``: the stored
    deadlines of his open turns there are worked out again (what a pause added stays)."""
    tempo = room.tempo_seconds
    if tempo is None:
        return
    rows = await session.execute(
        select(Turn.match_id, Turn.since, Turn.deadline).where(
            Turn.room_id == room.id, Turn.user_id == user_id, Turn.deadline.is_not(None)
        )
    )
    for match_id, began, deadline in rows.all():
        if deadline is None:
            continue
        since = aware(began)
        paused_for = aware(deadline) - effective_deadline(since, tempo, before)
        moved = effective_deadline(since, tempo, after) + paused_for
        await session.execute(update(Turn).where(Turn.match_id == match_id).values(deadline=moved))
