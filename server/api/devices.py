"""Device cookies: a browser that has logged in to an account before is recognised at the
next login for that account, so that a flood from elsewhere neither locks it out nor
uses up its budget (OWASP's "device cookies" against lock-out and credential stuffing).

After every successful login, registration or claim the server sets the cookie
``stammtisch_device`` (HttpOnly, SameSite=Strict, ``Path=/api``, Secure like the
session cookie, :data:`DEVICE_LIFETIME`). It holds up to :data:`MAX_ENTRIES` entries,
newest first, one per login name that succeeded in this browser, each::

    login:issued:nonce:mac

``login`` is the stored (lower-case) login name, ``issued`` the Unix time it was issued
(renewed with every successful login), ``nonce`` random, and ``mac`` the HMAC-SHA256 of
the other three under the server's secret (``Settings.secret_key``,
``STAMMTISCH_SECRET_KEY``; without it a random key of this process, so that the cookies
of a restarted server count no more). Checking an entry costs one HMAC: no database, no
argon2. An entry that is forged, expired, issued in the future, or for another name than
the one logging in is ignored, as if there were no cookie.

What the entry buys is decided in :mod:`server.api.throttle` (``AuthLimits``): a login
for the entry's name skips the per-client and the global login buckets and the lockout of
its (name, client), and has a small bucket and a lockout of its own per device (nonce)
instead; a device whose entry was used for too many failed logins counts as unknown
again until the failures leave the window. The password is checked as always.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Response

from server.settings import Settings

DEVICE_COOKIE = "stammtisch_device"
#: The cookie goes to the API only (registering, claiming and logging in renew it).
DEVICE_PATH = "/api"
#: How long an entry counts after its last successful login.
DEVICE_LIFETIME = 180 * 24 * 3600
#: Names one browser keeps entries for (a family's tablet at the Stammtisch).
MAX_ENTRIES = 4
#: Clocks of several processes may differ a little.
_SKEW = 300
#: Longer cookies are not even parsed.
_MAX_COOKIE = 1024

_ENTRY = re.compile(r"([a-z0-9._-]{3,40}):([0-9]{1,12}):([A-Za-z0-9_-]{16,32}):([A-Za-z0-9_-]{43})")


@dataclass(frozen=True, slots=True)
class Device:
    """A valid entry of the device cookie: this browser logged in as ``login`` before."""

    login: str
    issued: int
    nonce: str
    text: str

    @property
    def key(self) -> str:
        """The key this device's attempts and failures are counted under."""
        return f"device:{self.nonce}"


def _login_key(login: str) -> str:
    return login.strip().lower()


class DeviceCookies:
    """Issues and checks device cookie entries under one secret (``secret``; a random one
    of this object when empty)."""

    def __init__(
        self,
        secret: str | bytes | None = None,
        *,
        lifetime: int = DEVICE_LIFETIME,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if isinstance(secret, str):
            secret = secret.encode("utf-8")
        # a key of its own, derived, in case the secret is ever used for something else
        material = secret or secrets.token_bytes(32)
        self._key = hmac.new(material, b"stammtisch device cookie", hashlib.sha256).digest()
        self.lifetime = lifetime
        self._clock = clock

    def _mac(self, login: str, issued: int, nonce: str) -> str:
        message = f"{login}:{issued}:{nonce}".encode("ascii")
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def entries(self, cookie: str | None) -> list[Device]:
        """The valid entries of ``cookie``, in its order (newest first)."""
        if not cookie or len(cookie) > _MAX_COOKIE:
            return []
        now = self._clock()
        found: list[Device] = []
        for part in cookie.split("~")[:MAX_ENTRIES]:
            match = _ENTRY.fullmatch(part)
            if match is None:
                continue
            login, issued_text, nonce, mac = match.groups()
            issued = int(issued_text)
            if not issued - _SKEW <= now < issued + self.lifetime:
                continue
            if hmac.compare_digest(mac, self._mac(login, issued, nonce)):
                found.append(Device(login, issued, nonce, part))
        return found

    def trusted(self, cookie: str | None, login: str) -> Device | None:
        """The valid entry of ``cookie`` for ``login`` (any case), or None."""
        wanted = _login_key(login)
        return next((d for d in self.entries(cookie) if d.login == wanted), None)

    def entry(self, login: str, nonce: str | None = None) -> str:
        """A new entry for ``login`` (a device's ``nonce`` kept, else a new one)."""
        login = _login_key(login)
        issued = int(self._clock())
        nonce = nonce or secrets.token_urlsafe(16)
        return f"{login}:{issued}:{nonce}:{self._mac(login, issued, nonce)}"

    def renewed(self, cookie: str | None, login: str) -> str:
        """The cookie after a successful login as ``login``: its entry first (issued now,
        the device's nonce kept), the browser's other valid entries after it, at most
        :data:`MAX_ENTRIES` in all."""
        wanted = _login_key(login)
        entries = self.entries(cookie)
        own = next((d for d in entries if d.login == wanted), None)
        others = [d.text for d in entries if d.login != wanted][: MAX_ENTRIES - 1]
        return "~".join([self.entry(wanted, own.nonce if own else None), *others])


def set_device_cookie(response: Response, value: str, settings: Settings, lifetime: int) -> None:
    """Put the device cookie ``value`` into ``response``."""
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=lifetime,
        path=DEVICE_PATH,
        secure=settings.cookie_secure,
        httponly=True,
        samesite="strict",
    )
