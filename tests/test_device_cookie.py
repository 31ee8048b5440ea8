"""Device cookies and logins under a flood: a browser that logged in as a name before is
let through the server-wide login budget and the lockout of its address for that name
(and only for that name, only with a cookie signed by this server and not expired); a
name without an account is refused without argon2, after the same limits and about the
same time as a wrong password."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from types import SimpleNamespace
from typing import Any, Literal, cast

import httpx
import pytest
from argon2 import PasswordHasher

from server.api import auth
from server.api.app import create_app
from server.api.devices import DEVICE_COOKIE, MAX_ENTRIES, DeviceCookies
from server.api.errors import ApiError
from server.api.throttle import AuthLimits, LoginThrottle, Rate
from server.settings import Settings, SettingsError
from server.store.passwords import PasswordPool
from tests.support import api_error as error
from tests.support import uvicorn_thread

SECRET = "s" * 40
PASSWORD = "geheim123"


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# --------------------------------------------------------------------------- the cookie


def test_an_entry_counts_for_its_own_name_only() -> None:
    devices = DeviceCookies(SECRET)
    cookie = devices.renewed(None, "hans")
    device = devices.trusted(cookie, "HANS")
    assert device is not None and device.login == "hans"
    assert devices.trusted(cookie, "anna") is None  # another user's cookie is no pass
    assert devices.trusted(None, "hans") is None
    assert devices.trusted("", "hans") is None


def test_forged_and_foreign_entries_are_ignored() -> None:
    devices = DeviceCookies(SECRET)
    cookie = devices.renewed(None, "hans")
    login, issued, nonce, mac = cookie.split(":")
    flipped = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    assert devices.trusted(f"{login}:{issued}:{nonce}:{flipped}", "hans") is None
    # the MAC of another name, of another time, of another nonce does not carry over
    assert devices.trusted(f"anna:{issued}:{nonce}:{mac}", "anna") is None
    assert devices.trusted(f"{login}:{int(issued) - 1}:{nonce}:{mac}", "hans") is None
    assert devices.trusted(f"{login}:{issued}:{'x' * 22}:{mac}", "hans") is None
    # signed with another secret (another server, or a random key before a restart)
    assert DeviceCookies("t" * 40).trusted(cookie, "hans") is None
    assert DeviceCookies().trusted(cookie, "hans") is None
    for garbage in ("hans", "::::", "~~~", "hans:1:2:3", cookie + "x", "x" * 5000):
        assert devices.trusted(garbage, "hans") is None


def test_entries_expire_and_are_not_issued_for_the_future() -> None:
    clock = Clock()
    devices = DeviceCookies(SECRET, lifetime=1000, clock=clock)
    cookie = devices.renewed(None, "hans")
    clock.now += 999
    assert devices.trusted(cookie, "hans") is not None
    clock.now += 1
    assert devices.trusted(cookie, "hans") is None  # expired
    renewed = devices.renewed(cookie, "hans")  # a login renews it (with a new nonce then)
    assert devices.trusted(renewed, "hans") is not None
    clock.now -= 3600  # an entry "issued" an hour ahead of the server's clock
    assert devices.trusted(renewed, "hans") is None


def test_a_browser_keeps_entries_for_a_few_names() -> None:
    devices = DeviceCookies(SECRET)
    cookie = devices.renewed(None, "hans")
    nonce = devices.entries(cookie)[0].nonce
    for name in ("anna", "bernd", "catrin", "dora"):
        cookie = devices.renewed(cookie, name)
    assert [d.login for d in devices.entries(cookie)] == ["dora", "catrin", "bernd", "anna"]
    assert len(devices.entries(cookie)) == MAX_ENTRIES  # hans, the oldest, dropped out
    cookie = devices.renewed(cookie, "Anna")
    assert [d.login for d in devices.entries(cookie)] == ["anna", "dora", "catrin", "bernd"]
    again = devices.renewed(devices.renewed(None, "hans"), "hans")
    assert devices.entries(again)[0].nonce != nonce  # a new browser, a new device
    kept = devices.renewed(cookie, "anna")
    assert devices.entries(kept)[0].nonce == devices.entries(cookie)[0].nonce


def test_the_secret_setting() -> None:
    assert Settings.from_env({}).secret_key == ""
    key = secrets.token_urlsafe(32)
    settings = Settings.from_env({"STAMMTISCH_SECRET_KEY": f" {key} "})
    assert settings.secret_key == key
    assert key not in repr(settings)
    with pytest.raises(SettingsError, match="at least 32"):
        Settings.from_env({"STAMMTISCH_SECRET_KEY": "kurz"})


# --------------------------------------------------------------------------- the limits


def trusted_limits(clock: Clock, **kwargs: Any) -> AuthLimits:
    options: dict[str, Any] = {
        "global_": {"login": Rate(burst=2, per_minute=1)},
        "lockout": LoginThrottle(limit=3, window=60, clock=clock),
        "devices": DeviceCookies(SECRET),
        **kwargs,
    }
    return AuthLimits(clock=clock, **options)


def refusal(call: Any) -> tuple[int, str]:
    with pytest.raises(ApiError) as caught:
        call()
    return caught.value.status, caught.value.code


def test_a_known_device_skips_the_global_budget() -> None:
    clock = Clock()
    limits = trusted_limits(clock)
    device = limits.devices.trusted(limits.devices.renewed(None, "hans"), "hans")
    assert device is not None
    for i in range(2):  # the flood drains the server-wide budget
        assert limits.admit_login(f"spray{i}", f"10.0.0.{i}", None) is None
    assert refusal(lambda: limits.admit_login("hans", "10.0.1.1", None)) == (503, "busy")
    assert limits.admit_login("hans", "10.0.1.1", device) is device
    # its own bucket is small, per name
    limits = trusted_limits(clock, trusted=Rate(burst=2, per_minute=1))
    assert limits.admit_login("hans", "a", device) is device
    assert limits.admit_login("HANS", "b", device) is device
    assert refusal(lambda: limits.admit_login("hans", "c", device)) == (429, "too_many_requests")


def test_a_known_device_is_not_locked_out_by_failures_from_its_address() -> None:
    clock = Clock()
    limits = trusted_limits(clock, global_={})
    device = limits.devices.trusted(limits.devices.renewed(None, "hans"), "hans")
    here = "192.0.2.7"  # one address: the owner's household, and someone guessing there
    for _ in range(3):
        assert limits.admit_login("hans", here, None) is None
        limits.login_failed("hans", here, None)
    assert refusal(lambda: limits.admit_login("hans", here, None)) == (429, "too_many_attempts")
    assert limits.admit_login("hans", here, device) is device
    # the device's own failures lock the device, which then counts as unknown again
    for _ in range(3):
        limits.login_failed("hans", here, device)
    assert refusal(lambda: limits.admit_login("hans", here, device)) == (429, "too_many_attempts")
    assert limits.admit_login("hans", "192.0.2.8", device) is None  # elsewhere: all limits
    clock.now += 61
    assert limits.admit_login("hans", here, device) is device


def test_switched_off_limits_pass_everyone() -> None:
    limits = AuthLimits(enabled=False, devices=DeviceCookies(SECRET))
    assert limits.admit_login("hans", "c", None) is None


# --------------------------------------------------------------------------- unknown names


def test_an_unknown_name_waits_as_long_as_a_hash_would(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    pool = cast(PasswordPool, SimpleNamespace(workers=2, seconds_per_job=0.2))
    for ahead in (1, 2, 3, 6):
        asyncio.run(auth._as_long_as_a_hash(pool, ahead))
    expected = [0.2, 0.2, 0.4, 0.6]  # one job, or the jobs each thread has before it
    assert all(e * 0.95 <= s <= e * 1.05 for s, e in zip(slept, expected, strict=True)), slept


class CountingHasher(PasswordHasher):
    """Cheap argon2 that counts its verifications."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified += 1
        return super().verify(hash, password)


@contextmanager
def server_with(database_url: str, limits: AuthLimits) -> Iterator[str]:
    app = create_app(Settings(database_url=database_url), check_database_on_startup=False)
    app.state.auth_limits = limits
    with uvicorn_thread(app) as base_url:
        yield base_url


def browser(base_url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, timeout=30, headers={"X-Forwarded-For": address})


def login(c: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return c.post("/api/login", json={"login": name, "password": password})


def device_cookie(response: httpx.Response) -> SimpleCookie:
    headers = response.headers.get_list("set-cookie")
    found = [h for h in headers if h.startswith(f"{DEVICE_COOKIE}=")]
    assert len(found) == 1, headers
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(found[0])
    return cookie


@pytest.mark.live_server
def test_unknown_names_are_not_hashed_and_fail_alike(migrated_db_url: str) -> None:
    hasher = CountingHasher()
    pool = PasswordPool(workers=1, hasher=hasher)
    limits = AuthLimits(passwords=pool, lockout=LoginThrottle(limit=3, window=300))
    with server_with(migrated_db_url, limits) as base_url, browser(base_url, "10.1.0.1") as c:
        name = f"hans_{secrets.token_hex(3)}"
        registered = c.post("/api/register", json={"login": name, "password": PASSWORD,
                                                   "display_name": "Hans"})  # fmt: skip
        assert registered.status_code == 201
        c.cookies.clear()
        wrong = error(login(c, name, "falsch-123"), 401, "bad_credentials")
        assert hasher.verified == 1
        unknown = f"niemand_{secrets.token_hex(3)}"
        assert error(login(c, unknown), 401, "bad_credentials") == wrong
        assert error(login(c, "x"), 401, "bad_credentials") == wrong  # not even a name
        assert hasher.verified == 1  # no argon2 for a name without an account
        assert pool.in_flight == 0  # and its place in the pool is given back
        # the lockout counts an unknown name's failures as a known one's
        for _ in range(2):
            error(login(c, unknown), 401, "bad_credentials")
            error(login(c, name, "falsch-123"), 401, "bad_credentials")
        error(login(c, unknown), 429, "too_many_attempts")
        error(login(c, name), 429, "too_many_attempts")


@pytest.mark.live_server
def test_a_known_browser_logs_in_through_a_flood(migrated_db_url: str) -> None:
    clock = Clock()
    devices = DeviceCookies(SECRET, lifetime=3600, clock=clock)
    limits = AuthLimits(
        global_={"login": Rate(burst=3, per_minute=1)},
        lockout=LoginThrottle(limit=3, window=300),
        devices=devices,
    )
    with server_with(migrated_db_url, limits) as base_url:
        owner, other = (f"{who}_{secrets.token_hex(3)}" for who in ("hans", "anna"))
        with browser(base_url, "10.2.0.1") as home, browser(base_url, "10.2.0.2") as anna:
            for c, name in ((home, owner), (anna, other)):
                response = c.post("/api/register", json={"login": name, "password": PASSWORD,
                                                         "display_name": "Hans"})  # fmt: skip
                assert response.status_code == 201
                morsel = device_cookie(response)[DEVICE_COOKIE]
                assert morsel["httponly"] is True
                assert morsel["samesite"].lower() == "strict"
                assert morsel["path"] == "/api"
                assert morsel["max-age"] == "3600"
                c.post("/api/logout")
            home_cookie = home.cookies.get(DEVICE_COOKIE, path="/api")
            anna_cookie = anna.cookies.get(DEVICE_COOKIE, path="/api")
            assert home_cookie and anna_cookie
            # a flood of unknown names from many addresses drains the server's budget
            with browser(base_url, "10.9.0.1") as flood:
                for i in range(3):
                    flood.headers["X-Forwarded-For"] = f"10.9.0.{i}"
                    error(login(flood, f"spray{i}", "x"), 401, "bad_credentials")
                flood.headers["X-Forwarded-For"] = "10.9.1.1"
                error(login(flood, "spray9", "x"), 503, "busy")
            # the owner's browser gets in, and its device cookie is renewed
            ok = login(home, owner)
            assert ok.status_code == 200, ok.text
            assert home.get("/api/me").json()["login"] == owner
            assert devices.trusted(device_cookie(ok)[DEVICE_COOKIE].value, owner) is not None
            # a new browser, a forged cookie or another user's cookie does not
            with browser(base_url, "10.2.0.3") as stranger:
                error(login(stranger, owner), 503, "busy")
                login_, issued, nonce, _mac = home_cookie.split(":")
                forged = f"{login_}:{issued}:{nonce}:{'A' * 43}"
                stranger.cookies.set(DEVICE_COOKIE, forged, path="/api")
                error(login(stranger, owner), 503, "busy")
                stranger.cookies.set(DEVICE_COOKIE, anna_cookie, path="/api")
                error(login(stranger, owner), 503, "busy")
                assert login(stranger, other).status_code == 200  # Anna's, for Anna
            # an expired cookie counts no more
            home.post("/api/logout")
            clock.now += 3600
            error(login(home, owner), 503, "busy")


@pytest.mark.live_server
def test_a_known_browser_is_not_locked_out_from_its_own_address(migrated_db_url: str) -> None:
    limits = AuthLimits(lockout=LoginThrottle(limit=3, window=300), devices=DeviceCookies())
    with server_with(migrated_db_url, limits) as base_url, browser(base_url, "10.3.0.1") as home:
        owner = f"hans_{secrets.token_hex(3)}"
        response = home.post("/api/register", json={"login": owner, "password": PASSWORD,
                                                    "display_name": "Hans"})  # fmt: skip
        assert response.status_code == 201
        home.post("/api/logout")
        # someone behind the same address guesses the owner's password
        with browser(base_url, "10.3.0.1") as guesser:
            for _ in range(3):
                error(login(guesser, owner, "falsch-123"), 401, "bad_credentials")
            error(login(guesser, owner), 429, "too_many_attempts")
        assert login(home, owner).status_code == 200
        # the owner's own typing errors count against the device, not the address
        home.post("/api/logout")
        error(login(home, owner, "falsch-123"), 401, "bad_credentials")
        assert login(home, owner).status_code == 200
