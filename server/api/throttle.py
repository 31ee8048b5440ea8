"""Limits on the routes that log in or create accounts, kept in memory per process.

* **Per client** (:class:`AuthLimits`): a token bucket per client address for each of
  login, register, guest and claim (:data:`PER_CLIENT`). Spraying many names from one
  address soon gets 429 ``too_many_requests`` with ``Retry-After``.
* **Global**: one bucket per kind for all clients together (:data:`GLOBAL`); when it is
  empty the server answers 503 ``busy`` with ``Retry-After`` (as when the password
  hashing pool is full, :mod:`server.store.passwords`).
* **Lockout** (:class:`LoginThrottle`): after ``limit`` failed logins for one login name
  *from one client* within ``window`` seconds, that client's further attempts for the
  name get 429 ``too_many_attempts`` until the oldest failure leaves the window. The key
  is (name, client), so that an attacker elsewhere cannot lock the owner out; guessing
  from many addresses is bounded by the per-client and the global limits.
* **Known devices** (:mod:`server.api.devices`): a login for the name of a valid entry of
  the browser's device cookie (it logged in as that name before) skips all three: it
  takes a token from a small bucket per name (:data:`TRUSTED`) instead, and its failures
  are counted per (name, device), with the same lockout. A flood from many addresses
  that empties the global bucket, or failures for the name from the owner's own address,
  do not stop the owner's browser; a device locked out by its failures counts as unknown
  again (all limits apply) until they leave the window.

The client is ``scope["client"]``: the peer's address, or, when uvicorn runs with proxy
headers (its default) and the peer is one of ``--forwarded-allow-ips`` /
``FORWARDED_ALLOW_IPS`` (default 127.0.0.1 and ::1), the address the proxy put into
``X-Forwarded-For``. Behind a proxy that uvicorn does not trust, every client shares the
proxy's address, and the per-client limits act as one shared limit; trusting every peer
(``*``) on a port the internet reaches lets a client choose its address and evade them
(the global limits still hold). IPv6 clients are counted per /64 network, which one
household or host usually gets.

Everything here is bounded in memory: past :data:`MAX_KEYS` tracked clients or names,
the state that no longer matters is swept out, and if that is not enough the longest
untouched entries go. ``Settings.auth_limits`` off (``STAMMTISCH_AUTH_LIMITS=off``)
switches the limits off, for load tests.

**Several processes** (``STAMMTISCH_REDIS_URL`` set): the routes call the ``a…`` methods
of :class:`AuthLimits` (:meth:`AuthLimits.acheck`, :meth:`AuthLimits.aadmit_login`, …),
which count in Redis (:class:`server.shared_limits.SharedWindows`), so that the limits
hold for the whole cluster with the same numbers. Each token bucket becomes the moving
window with the same burst and long-run rate (:func:`window_of`): never more requests
than the bucket lets through, but after a spent burst the room comes back all at once,
one window after the burst, instead of a token at a time (docs/security.md, "Limits
across processes"). When Redis does not answer, these methods use this process's own
buckets, with the same numbers, as if there were one process. Without Redis they *are*
the synchronous methods. The bound on waiting password hashes stays per process: it
guards this process's CPU.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from starlette.requests import HTTPConnection

from server.api.devices import Device, DeviceCookies
from server.api.errors import ApiError
from server.api.runtime import get_runtime
from server.shared_limits import REDIS_FAILURES, SharedWindows, Window
from server.store.passwords import PasswordPool

Kind = Literal["login", "register", "guest", "claim"]
Clock = Callable[[], float]

#: Failed logins per (name, client) within the window before that client is locked out.
DEFAULT_LIMIT = 10
DEFAULT_WINDOW = 300.0
#: Above this many tracked keys (clients, names), stale entries are swept out.
MAX_KEYS = 50_000


@dataclass(frozen=True, slots=True)
class Rate:
    """A token bucket: ``burst`` requests at once, then ``per_minute`` on average."""

    burst: int
    per_minute: float


#: Per client address. A burst leaves room for a whole Stammtisch behind one router (and
#: for a module of tests against one server); after it, a steady trickle.
PER_CLIENT: dict[Kind, Rate] = {
    "login": Rate(burst=30, per_minute=10),
    "register": Rate(burst=30, per_minute=3),
    "guest": Rate(burst=60, per_minute=10),
    "claim": Rate(burst=10, per_minute=2),
}
#: For all clients together: about what the hashing pool can do, with room for a rush.
GLOBAL: dict[Kind, Rate] = {
    "login": Rate(burst=120, per_minute=600),
    "register": Rate(burst=60, per_minute=60),
    "guest": Rate(burst=120, per_minute=300),
    "claim": Rate(burst=60, per_minute=60),
}

#: Per login name, for the logins from a browser that logged in as that name before: a
#: person's own devices, so little, but never touched by the flood of others.
TRUSTED = Rate(burst=10, per_minute=10)


def window_of(rate: Rate) -> Window:
    """The moving window that stands for the token bucket ``rate`` across processes: the
    same burst, refilled all at once after the time the bucket takes to refill from empty
    (whole seconds, rounded up): ``Rate(30, 10)`` is 30 in any 180 s. In no stretch of
    time does it let more through than the bucket; the long-run rate is the same.

    >>> window_of(Rate(burst=30, per_minute=10)), window_of(Rate(burst=120, per_minute=600))
    (Window(amount=30, seconds=180), Window(amount=120, seconds=12))
    """
    if rate.per_minute <= 0:
        return Window(rate.burst, 10**9)
    return Window(rate.burst, max(1, math.ceil(rate.burst * 60 / rate.per_minute)))


class Buckets:
    """Token buckets of one :class:`Rate`, one per key, bounded in number."""

    def __init__(self, rate: Rate, clock: Clock = time.monotonic, max_keys: int = MAX_KEYS):
        self.capacity = float(rate.burst)
        self.per_second = rate.per_minute / 60.0
        self.max_keys = max_keys
        self._clock = clock
        #: key -> (tokens, time of the last update); least recently touched first.
        self._state: dict[object, tuple[float, float]] = {}

    def __len__(self) -> int:
        return len(self._state)

    def _tokens(self, key: object, now: float) -> float:
        state = self._state.pop(key, None)  # re-inserted by the caller: most recent last
        if state is None:
            return self.capacity
        tokens, stamp = state
        return min(self.capacity, tokens + (now - stamp) * self.per_second)

    def take(self, key: object) -> float | None:
        """Take a token for ``key``: None when there was one, else the seconds until
        there will be one (nothing is taken then)."""
        now = self._clock()
        tokens = self._tokens(key, now)
        if tokens >= 1.0:
            if len(self._state) >= self.max_keys:
                self._sweep(now)
            self._state[key] = (tokens - 1.0, now)
            return None
        self._state[key] = (tokens, now)
        return (1.0 - tokens) / self.per_second if self.per_second > 0 else math.inf

    def _sweep(self, now: float) -> None:
        # A bucket that has filled up again is the same as no bucket.
        for key, (tokens, stamp) in list(self._state.items()):
            if tokens + (now - stamp) * self.per_second >= self.capacity:
                del self._state[key]
        excess = len(self._state) - self.max_keys * 9 // 10
        for key in list(self._state)[: max(0, excess)]:
            del self._state[key]


class LoginThrottle:
    """Counts failed logins per (case-insensitive login name, client) in a sliding window."""

    def __init__(
        self,
        limit: int = DEFAULT_LIMIT,
        window: float = DEFAULT_WINDOW,
        clock: Clock = time.monotonic,
        max_keys: int = MAX_KEYS,
    ) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._clock = clock
        self._failures: dict[tuple[str, str], deque[float]] = {}

    def __len__(self) -> int:
        return len(self._failures)

    @staticmethod
    def _key(login: str, client: str) -> tuple[str, str]:
        return login.strip().lower(), client

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def retry_after(self, login: str, client: str = "") -> float | None:
        """Seconds until ``client`` may try ``login`` again, or None when it may now."""
        now = self._clock()
        failures = self._recent(self._key(login, client), now)
        if len(failures) < self.limit:
            return None
        return max(0.0, failures[-self.limit] + self.window - now)

    def failed(self, login: str, client: str = "") -> None:
        """Record a failed login for ``login`` from ``client``."""
        now = self._clock()
        key = self._key(login, client)
        if key not in self._failures and len(self._failures) >= self.max_keys:
            for old in list(self._failures):
                self._recent(old, now)
            excess = len(self._failures) - self.max_keys * 9 // 10
            for old in list(self._failures)[: max(0, excess)]:
                del self._failures[old]
        failures = self._failures.setdefault(key, deque(maxlen=self.limit))
        failures.append(now)

    def succeeded(self, login: str, client: str = "") -> None:
        """Forget the failures of ``login`` from ``client`` after a successful login."""
        self._failures.pop(self._key(login, client), None)


def client_key(connection: HTTPConnection) -> str:
    """The client a request is counted for: its IPv4 address, or its IPv6 /64 network
    (see the module's docstring for proxies)."""
    host = connection.client.host if connection.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def too_many_requests(
    wait: float,
    what: str = "requests from your address",
    what_de: str = "Anfragen von deiner Adresse",
) -> ApiError:
    """429 ``too_many_requests`` with ``Retry-After`` (``wait`` seconds, rounded up);
    ``what`` names what came too often.

    >>> error = too_many_requests(2.1, "confirmation mails", "Bestätigungsmails")
    >>> error.status, error.headers, error.message_de
    (429, {'Retry-After': '3'}, 'Zu viele Bestätigungsmails; in 3 Sekunden wieder versuchen.')
    """
    seconds = _seconds(wait)
    return ApiError(
        429,
        "too_many_requests",
        f"Too many {what}; try again in {seconds} seconds.",
        f"Zu viele {what_de}; in {seconds} Sekunden wieder versuchen.",
        headers={"Retry-After": str(seconds)},
    )


def busy(wait: float) -> ApiError:
    """503 ``busy``: too many logins or registrations on the whole server just now."""
    seconds = _seconds(wait)
    return ApiError(
        503,
        "busy",
        f"The server is busy with logins just now; try again in {seconds} seconds.",
        f"Der Server ist gerade mit Anmeldungen ausgelastet; in {seconds} Sekunden wieder "
        "versuchen.",
        headers={"Retry-After": str(seconds)},
    )


class AuthLimits:
    """The per-client and global limits and the login lockout of one app."""

    def __init__(
        self,
        *,
        enabled: bool = True,
        per_client: dict[Kind, Rate] | None = None,
        global_: dict[Kind, Rate] | None = None,
        lockout: LoginThrottle | None = None,
        passwords: PasswordPool | None = None,
        devices: DeviceCookies | None = None,
        trusted: Rate = TRUSTED,
        clock: Clock = time.monotonic,
        max_keys: int = MAX_KEYS,
        shared: SharedWindows | None = None,
    ) -> None:
        self.enabled = enabled
        per_client = {**PER_CLIENT, **(per_client or {})}
        global_ = {**GLOBAL, **(global_ or {})}
        #: The windows in Redis that the ``a…`` methods count in (None: one process).
        self.shared = shared
        self.windows_per_client = {k: window_of(r) for k, r in per_client.items()}
        self.windows_global = {k: window_of(r) for k, r in global_.items()}
        self.window_trusted = window_of(trusted)
        self.per_client = {k: Buckets(r, clock, max_keys) for k, r in per_client.items()}
        self.global_ = {k: Buckets(r, clock, 1) for k, r in global_.items()}
        self.trusted = Buckets(trusted, clock, max_keys)
        # (an empty LoginThrottle is falsy: ``lockout or ...`` would replace it)
        self.lockout = LoginThrottle(clock=clock, max_keys=max_keys) if lockout is None else lockout
        #: Signs and checks the device cookies (a random key unless one is given).
        self.devices = DeviceCookies() if devices is None else devices
        #: The app's password hashing pool (bounded unless the limits are off).
        self.passwords = passwords or PasswordPool(bounded=enabled)
        self.window_lockout = Window(self.lockout.limit, math.ceil(self.lockout.window))

    def check(self, kind: Kind, client: str) -> None:
        """Count one request of ``kind`` from ``client``; raise 429 ``too_many_requests``
        (this client) or 503 ``busy`` (everyone) when a limit is reached."""
        if not self.enabled:
            return
        wait = self.per_client[kind].take(client)
        if wait is not None:
            raise too_many_requests(wait)
        wait = self.global_[kind].take(None)
        if wait is not None:
            raise busy(wait)

    def admit_login(self, login: str, client: str, device: Device | None) -> Device | None:
        """Count one login for ``login`` from ``client`` with the browser's valid device
        entry for that name (``device``, or None); raise 429 or 503 as the limits say.

        Returns the device when the login counts as coming from it (its own bucket and
        lockout; see the module's docstring), or None when it counts as coming from an
        unknown browser (no entry, or the entry is locked out by its own failures)."""
        if not self.enabled:
            return device
        if device is not None and self.lockout.retry_after(login, device.key) is None:
            wait = self.trusted.take(login.strip().lower())
            if wait is not None:
                raise too_many_requests(wait)
            return device
        self.check_lockout(login, client)
        self.check("login", client)
        return None

    def login_failed(self, login: str, client: str, device: Device | None) -> None:
        """Count a failed login (against the device it came from, else the client)."""
        self.lockout.failed(login, device.key if device is not None else client)

    def login_succeeded(self, login: str, client: str, device: Device | None) -> None:
        """Forget the failures of ``login`` from this device or client."""
        self.lockout.succeeded(login, device.key if device is not None else client)

    def check_lockout(self, login: str, client: str) -> None:
        """Raise 429 ``too_many_attempts`` while ``client`` is locked out of ``login``."""
        if not self.enabled:
            return
        wait = self.lockout.retry_after(login, client)
        if wait is not None:
            raise _locked_out(wait)

    # ---------------------------------------------------------- across processes
    # The same steps as the methods above, counted in Redis when the app has it (and in
    # this process's memory, by those methods, when it has not or Redis does not answer).

    async def acheck(self, kind: Kind, client: str) -> None:
        """:meth:`check`, for every process together."""
        shared = self.shared
        if not self.enabled or shared is None:
            return self.check(kind, client)
        try:
            wait = await shared.take(f"client:{kind}", self.windows_per_client[kind], client)
            if wait is not None:
                raise too_many_requests(wait)
            wait = await shared.take(f"global:{kind}", self.windows_global[kind])
            if wait is not None:
                raise busy(wait)
        except REDIS_FAILURES as exc:
            shared.outage.failed(exc)
            return self.check(kind, client)
        shared.outage.answered()

    async def aadmit_login(self, login: str, client: str, device: Device | None) -> Device | None:
        """:meth:`admit_login`, for every process together."""
        shared = self.shared
        if not self.enabled or shared is None:
            return self.admit_login(login, client, device)
        name = login.strip().lower()
        lockout = self.window_lockout
        try:
            if (
                device is not None
                and await shared.wait("lockout", lockout, name, device.key) is None
            ):
                wait = await shared.take("trusted", self.window_trusted, name)
                if wait is not None:
                    raise too_many_requests(wait)
                admitted = device
            else:
                wait = await shared.wait("lockout", lockout, name, client)
                if wait is not None:
                    raise _locked_out(wait)
                wait = await shared.take("client:login", self.windows_per_client["login"], client)
                if wait is not None:
                    raise too_many_requests(wait)
                wait = await shared.take("global:login", self.windows_global["login"])
                if wait is not None:
                    raise busy(wait)
                admitted = None
        except REDIS_FAILURES as exc:
            shared.outage.failed(exc)
            return self.admit_login(login, client, device)
        shared.outage.answered()
        return admitted

    async def alogin_failed(self, login: str, client: str, device: Device | None) -> None:
        """:meth:`login_failed`, for every process together (and in this process's
        memory too, which counts if Redis goes away)."""
        self.login_failed(login, client, device)
        await self._shared_lockout("hit", login, client, device)

    async def alogin_succeeded(self, login: str, client: str, device: Device | None) -> None:
        """:meth:`login_succeeded`, for every process together."""
        self.login_succeeded(login, client, device)
        await self._shared_lockout("clear", login, client, device)

    async def _shared_lockout(
        self, step: Literal["hit", "clear"], login: str, client: str, device: Device | None
    ) -> None:
        """Count a failure of ``login`` (``hit``) or forget its failures (``clear``) in
        the lockout window every process shares (nothing without Redis; a Redis outage is
        noted, this process's own count stands)."""
        shared = self.shared
        if shared is None:
            return
        key = device.key if device is not None else client
        act = shared.hit if step == "hit" else shared.clear
        try:
            await act("lockout", self.window_lockout, login.strip().lower(), key)
        except REDIS_FAILURES as exc:
            shared.outage.failed(exc)


def _locked_out(wait: float) -> ApiError:
    """429 ``too_many_attempts``: this client failed too often for this name."""
    seconds = _seconds(wait)
    return ApiError(
        429,
        "too_many_attempts",
        f"Too many failed logins for this name; try again in {seconds} seconds.",
        f"Zu viele Fehlversuche für diesen Namen; in {seconds} Sekunden wieder versuchen.",
        headers={"Retry-After": str(seconds)},
    )


def get_auth_limits(connection: HTTPConnection) -> AuthLimits:
    """FastAPI dependency: the app's limits (created on first use, switched on or off by
    ``Settings.auth_limits``; counted in Redis when the app shares limits with other
    processes, ``app.state.shared_limits``)."""
    state = connection.app.state
    limits: AuthLimits | None = getattr(state, "auth_limits", None)
    if limits is None:
        settings = get_runtime(connection).settings
        shared = getattr(state, "shared_limits", None)
        limits = AuthLimits(
            enabled=settings.auth_limits,
            devices=DeviceCookies(settings.secret_key),
            shared=None if shared is None else shared.windows,
        )
        state.auth_limits = limits
    return limits
