"""The effective correspondence deadline (server/store/turns.py): the time per move stands
still during the person's holidays; the edges exactly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store import accounts, log, rooms
from server.store.holidays import days_in_year, midnight
from server.store.models import Turn
from server.store.turns import TurnState, aware, effective_deadline, store_turn
from tests.support import TestDatabase, run_with_sessions

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
H = timedelta(hours=1)
DAY = timedelta(days=1)


@pytest.mark.parametrize(
    ("holidays", "expected"),
    [
        ([], T0 + DAY),
        # a holiday over before the turn begins, or ending exactly when it begins: nothing
        ([(T0 - 3 * DAY, T0 - DAY)], T0 + DAY),
        ([(T0 - DAY, T0)], T0 + DAY),
        # one beginning exactly at the deadline, or after it: nothing
        ([(T0 + DAY, T0 + 3 * DAY)], T0 + DAY),
        ([(T0 + 2 * DAY, T0 + 3 * DAY)], T0 + DAY),
        # one beginning exactly when the turn begins: the whole day after it
        ([(T0, T0 + 2 * DAY)], T0 + 3 * DAY),
        # the turn begins during one: the whole day after its end
        ([(T0 - H, T0 + 5 * H)], T0 + 5 * H + DAY),
        # one beginning while the turn runs: the rest after it (moved by its length)
        ([(T0 + 10 * H, T0 + 10 * H + 2 * DAY)], T0 + 3 * DAY),
        # two of them, given in any order, and one between them that the first covers
        ([(T0 + 20 * H, T0 + 22 * H), (T0 + 2 * H, T0 + 4 * H)], T0 + DAY + 4 * H),
        ([(T0 + 2 * H, T0 + 8 * H), (T0 + 3 * H, T0 + 5 * H)], T0 + DAY + 6 * H),
    ],
)
def test_the_deadline_stands_still_on_holiday(
    holidays: list[tuple[datetime, datetime]], expected: datetime
) -> None:
    assert effective_deadline(T0, DAY.total_seconds(), holidays) == expected


def test_a_holiday_over_new_year_counts_in_both_years() -> None:
    start, end = midnight(datetime(2026, 12, 29).date()), midnight(datetime(2027, 1, 4).date())
    assert (days_in_year(start, end, 2026), days_in_year(start, end, 2027)) == (3, 3)
    assert days_in_year(start, end, 2028) == 0


def test_the_stored_turn_is_replaced_or_kept(store_db: TestDatabase) -> None:
    """The same turn (version and seat) keeps its start and reminders and takes the new
    deadline; another turn starts afresh; none leaves no row. On SQLite and PostgreSQL."""

    async def scenario(sessions: async_sessionmaker[AsyncSession]) -> None:
        async with sessions() as db:
            (anna,) = [await accounts.create_guest(db, "Anna")]
            room = await rooms.create_room(db, anna, name="Fern", game="dreierles",
                                           tempo_seconds=86400)  # fmt: skip
            match_id = await log.create_match(db, room.id, "dreierles", ["Anna", "B", "C"],
                                              [anna.id, -1, -2], {})  # fmt: skip
            await db.commit()

        async def write(turn: TurnState | None) -> None:
            async with sessions() as db:
                await db.run_sync(lambda s: store_turn(s.connection(), match_id, room.id, turn))
                await db.commit()

        async def read() -> tuple[Any, ...] | None:
            async with sessions() as db:
                row = (await db.execute(select(Turn))).scalar()
                if row is None:
                    return None
                return (row.user_id, row.seat, row.version, aware(row.since),
                        aware(row.deadline) if row.deadline else None, row.reminded,
                        row.notified)  # fmt: skip

        await write(TurnState(anna.id, 0, 5, T0, T0 + DAY))
        assert await read() == (anna.id, 0, 5, T0, T0 + DAY, 0, False)
        async with sessions() as db:
            await db.execute(update(Turn).values(reminded=75, notified=True))
            await db.commit()
        # the same turn, its deadline moved (a holiday): start and reminders stay
        await write(TurnState(anna.id, 0, 5, T0 + H, T0 + 3 * DAY))
        assert await read() == (anna.id, 0, 5, T0, T0 + 3 * DAY, 75, True)
        # the next turn: a fresh row
        await write(TurnState(anna.id, 1, 6, T0 + 2 * H, None))
        assert await read() == (anna.id, 1, 6, T0 + 2 * H, None, 0, False)
        await write(None)
        assert await read() is None

    run_with_sessions(store_db, scenario)
