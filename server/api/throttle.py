"""In-memory throttling of failed logins, per login name.

After ``limit`` failures for one login name within ``window`` seconds, further attempts
for that name are refused until the oldest failure leaves the window. A successful
login clears the name's record. The state lives in the process (one per app); with
several server processes each counts on its own, which still bounds guessing.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from starlette.requests import HTTPConnection

DEFAULT_LIMIT = 10
DEFAULT_WINDOW = 300.0
#: Above this many tracked names, stale entries are swept out.
_SWEEP_AT = 10_000


class LoginThrottle:
    """Counts failed logins per (case-insensitive) login name in a sliding window."""

    def __init__(
        self,
        limit: int = DEFAULT_LIMIT,
        window: float = DEFAULT_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}

    @staticmethod
    def _key(login: str) -> str:
        return login.strip().lower()

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def retry_after(self, login: str) -> float | None:
        """Seconds until ``login`` may try again, or None when it may try now."""
        now = self._clock()
        failures = self._recent(self._key(login), now)
        if len(failures) < self.limit:
            return None
        return max(0.0, failures[-self.limit] + self.window - now)

    def failed(self, login: str) -> None:
        """Record a failed login for ``login``."""
        now = self._clock()
        if len(self._failures) >= _SWEEP_AT:
            for key in list(self._failures):
                self._recent(key, now)
        self._failures.setdefault(self._key(login), deque()).append(now)

    def succeeded(self, login: str) -> None:
        """Forget the failures of ``login`` after a successful login."""
        self._failures.pop(self._key(login), None)


def get_login_throttle(connection: HTTPConnection) -> LoginThrottle:
    """FastAPI dependency: the app's login throttle (created on first use)."""
    state = connection.app.state
    throttle: LoginThrottle | None = getattr(state, "login_throttle", None)
    if throttle is None:
        throttle = LoginThrottle()
        state.login_throttle = throttle
    return throttle
