"""The server's wall clock, for what is measured in hours and days.

Correspondence deadlines, reminders, holidays and the daily digest are wall-clock times
that are stored and outlive a restart, so they are read from :class:`Clock`, never from
the event loop's monotonic time (which the live turn timers keep using). In production
the clock is the machine's (:class:`SystemClock`). Tests that let days pass start the
server with ``STAMMTISCH_CLOCK_FILE``: a file holding the seconds the clock runs ahead of
the machine's (:class:`OffsetClock`), read again whenever it changed, so that a test moves
a running server's time (and a restarted one's) by writing a number.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Where the server reads the wall-clock time."""

    def now(self) -> datetime:
        """The current time (aware, UTC)."""
        ...


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        """The current time (aware, UTC)."""
        return datetime.now(UTC)


class OffsetClock:
    """The machine's clock plus the seconds written in a file (tests only).

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "clock"
    >>> clock = OffsetClock(str(path))
    >>> abs((clock.now() - SystemClock().now()).total_seconds()) < 5  # no file: no offset
    True
    >>> _ = path.write_text("86400")
    >>> round((clock.now() - SystemClock().now()).total_seconds() / 3600)
    24
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._offset = 0.0

    def offset(self) -> float:
        """The seconds the clock runs ahead (0 without the file or with a broken one)."""
        try:
            info = os.stat(self.path)
        except OSError:
            return 0.0
        stamp = (info.st_mtime_ns, info.st_size)
        if stamp != self._stamp:
            try:
                with open(self.path, encoding="ascii") as file:
                    self._offset = float(file.read().strip() or 0)
            except (OSError, ValueError):
                self._offset = 0.0
            self._stamp = stamp
        return self._offset

    def now(self) -> datetime:
        """The machine's time plus the offset (aware, UTC)."""
        return datetime.fromtimestamp(time.time() + self.offset(), UTC)


def make_clock(clock_file: str) -> Clock:
    """The clock the settings ask for: :class:`OffsetClock` with a file, else the system's."""
    return OffsetClock(clock_file) if clock_file else SystemClock()
