"""The effective correspondence deadline (server/store/turns.py): the time per move stands
still during the person's holidays; the edges exactly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from server.store.holidays import days_in_year, midnight
from server.store.turns import effective_deadline

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
