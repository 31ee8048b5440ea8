"""When a correspondence turn's reminders are due: the pure arithmetic.

A turn has a deadline and the match a time per move (``tempo_seconds``). The reminder
"75 %" is due once three quarters of the time per move are used, i.e. from
``deadline - 0.25 * tempo`` on, and "90 %" from ``deadline - 0.10 * tempo`` on. Counting
back from the deadline (not forward from the turn's start) keeps the reminders right when
holidays or a pause moved the deadline: they come that long before the time runs out.
"""

from __future__ import annotations

from datetime import datetime, timedelta

#: The reminders, as per cent of the time per move used, in the order they come.
LEVELS = (75, 90)


def reminder_time(deadline: datetime, tempo_seconds: int, level: int) -> datetime:
    """When the reminder ``level`` (75 or 90) of a turn with ``deadline`` is due.

    >>> from datetime import UTC
    >>> end = datetime(2026, 1, 2, tzinfo=UTC)
    >>> reminder_time(end, 86400, 75).isoformat(), reminder_time(end, 86400, 90).isoformat()
    ('2026-01-01T18:00:00+00:00', '2026-01-01T21:36:00+00:00')
    """
    if level not in LEVELS:
        raise ValueError(f"no reminder at {level} %")
    return deadline - timedelta(seconds=tempo_seconds * (100 - level) / 100)


def due_reminder(now: datetime, deadline: datetime, tempo_seconds: int | None, sent: int) -> int:
    """The reminder to send now: the highest level whose time has come and that is above
    ``sent`` (the last one sent, 0 for none), or 0 when none is due. A turn that reached
    90 % before its 75 % reminder went out (the server was down) gets the 90 % one only.
    Without a time per move (``None`` or not positive) no reminder is ever due.

    >>> from datetime import UTC
    >>> end = datetime(2026, 1, 2, tzinfo=UTC)
    >>> [due_reminder(end - timedelta(hours=h), end, 86400, 0) for h in (7, 6, 3, 2)]
    [0, 75, 75, 90]
    >>> due_reminder(end - timedelta(hours=1), end, 86400, 90)
    0
    """
    if not tempo_seconds or tempo_seconds <= 0:
        return 0
    due = 0
    for level in LEVELS:
        if level > sent and now >= reminder_time(deadline, tempo_seconds, level):
            due = level
    return due
