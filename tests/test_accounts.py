"""Accounts over HTTP against a real uvicorn server: register, login, guests, cookies, the
password and name rules, and the limits on logging in (per client, global, lockout per
name and client, a full hashing pool).

uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1 by default, so a test plays several
clients by sending that header (:func:`at`)."""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from http.cookies import SimpleCookie
from typing import Literal

import httpx
import pytest
from argon2 import PasswordHasher

from server.api.app import create_app
from server.api.deps import SESSION_COOKIE
from server.api.throttle import AuthLimits, LoginThrottle, Rate
from server.settings import Settings
from server.store.passwords import PasswordPool
from tests.support import LiveServer, uvicorn_thread
from tests.support import api_error as error

pytestmark = pytest.mark.live_server

PASSWORD = "geheim123"


def unique(prefix: str = "user") -> str:
    return f"{prefix}_{secrets.token_hex(4)}"


@pytest.fixture
def client(module_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=module_server.base_url, timeout=15) as c:
        yield c


def register(client: httpx.Client, login: str, password: str = PASSWORD) -> httpx.Response:
    return client.post(
        "/api/register", json={"login": login, "password": password, "display_name": "Hans"}
    )


def at(address: str) -> dict[str, str]:
    """Headers that make the request come from ``address`` (uvicorn trusts the local proxy)."""
    return {"X-Forwarded-For": address}


def session_cookie(response: httpx.Response) -> SimpleCookie:
    """The session cookie set by ``response`` (a login also renews the device cookie)."""
    headers = response.headers.get_list("set-cookie")
    sessions = [h for h in headers if h.startswith(f"{SESSION_COOKIE}=")]
    assert len(sessions) == 1, headers
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(sessions[0])
    assert SESSION_COOKIE in cookie
    return cookie


# --------------------------------------------------------------------------- flows


def test_register_me_logout(client: httpx.Client) -> None:
    login = unique("Hans")
    response = register(client, login)
    assert response.status_code == 201, response.text
    user = response.json()
    assert user["login"] == login.lower()
    assert user["display_name"] == "Hans"
    assert user["is_guest"] is False
    assert "password_hash" not in user

    me = client.get("/api/me")
    assert me.status_code == 200
    assert me.json() == user

    logout = client.post("/api/logout")
    assert logout.status_code == 204
    assert client.get("/api/me").status_code == 401
    error(client.get("/api/me"), 401, "login_required")


def test_session_cookie_attributes(client: httpx.Client) -> None:
    response = register(client, unique())
    raw = response.headers["set-cookie"]
    morsel = session_cookie(response)[SESSION_COOKIE]
    assert morsel["httponly"] is True
    assert morsel["samesite"].lower() == "lax"
    assert morsel["path"] == "/"
    assert morsel["max-age"] == str(30 * 24 * 3600)
    assert not morsel["secure"]  # STAMMTISCH_COOKIE_SECURE is off by default
    assert "httponly" in raw.lower() and "samesite=lax" in raw.lower()

    cleared = client.post("/api/logout")
    gone = session_cookie(cleared)[SESSION_COOKIE]
    assert gone.value == "" or gone["max-age"] == "0"


def test_cookie_secure_setting(migrated_db_url: str) -> None:
    app = create_app(Settings(database_url=migrated_db_url, cookie_secure=True))
    with uvicorn_thread(app) as base_url:
        response = httpx.post(f"{base_url}/api/guest", json={"display_name": "Gast"}, timeout=15)
    assert response.status_code == 201
    morsel = session_cookie(response)[SESSION_COOKIE]
    assert morsel["secure"] is True
    assert morsel["httponly"] is True


def test_database_holds_only_the_token_hash(
    client: httpx.Client, module_server: LiveServer
) -> None:
    response = register(client, unique())
    token = session_cookie(response)[SESSION_COOKIE].value
    digest = hashlib.sha256(token.encode()).hexdigest()
    with sqlite3.connect(module_server.database_path) as conn:
        hashes = {h for (h,) in conn.execute("SELECT token_hash FROM sessions")}
        dump = "\n".join(conn.iterdump())
    assert digest in hashes
    assert token not in dump


def test_logout_ends_the_session_on_the_server(client: httpx.Client) -> None:
    response = register(client, unique())
    token = session_cookie(response)[SESSION_COOKIE].value
    assert client.post("/api/logout").status_code == 204
    stale = httpx.get(f"{client.base_url}/api/me", cookies={SESSION_COOKIE: token}, timeout=15)
    error(stale, 401, "login_required")


def test_login(client: httpx.Client, module_server: LiveServer) -> None:
    login = unique("Resi")
    user = register(client, login).json()
    client.post("/api/logout")

    wrong = client.post("/api/login", json={"login": login, "password": "falsch123"})
    unknown = client.post("/api/login", json={"login": unique("niemand"), "password": PASSWORD})
    wrong_error = error(wrong, 401, "bad_credentials")
    assert error(unknown, 401, "bad_credentials") == wrong_error
    assert client.get("/api/me").status_code == 401

    ok = client.post("/api/login", json={"login": login.upper(), "password": PASSWORD})
    assert ok.status_code == 200
    assert ok.json()["id"] == user["id"]
    session_cookie(ok)
    assert client.get("/api/me").json()["id"] == user["id"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"login": "hans_kurz", "password": "1234567", "display_name": "Hans"}, 422,
         "weak_password"),
        ({"login": "hans_zahl", "password": "12345678", "display_name": "Hans"}, 422,
         "weak_password"),
        ({"login": "hans_pw", "password": "Passwort", "display_name": "Hans"}, 422,
         "weak_password"),
        ({"login": "hans_leer", "password": " " * 8, "display_name": "Hans"}, 422,
         "weak_password"),
        ({"login": "hans_gleich", "password": "hans_gleich", "display_name": "Hans"}, 422,
         "weak_password"),
        ({"login": "hans_name", "password": "Zwetschgendatschi", "display_name": "Zwetschge"},
         422, "weak_password"),
        ({"login": "hans_fueller", "password": PASSWORD, "display_name": "\u3164"}, 422,
         "bad_name"),
        ({"login": "hans_braille", "password": PASSWORD, "display_name": "\u2800\u2800"}, 422,
         "bad_name"),
        ({"login": "hans_kyr", "password": PASSWORD, "display_name": "\u0410\u043dna"}, 422,
         "bad_name"),
        ({"login": "hans_rtl", "password": PASSWORD, "display_name": "\u202eanna"}, 422,
         "bad_name"),
        ({"login": "hans_leer", "password": PASSWORD, "display_name": "   "}, 422, "bad_name"),
        ({"login": "h", "password": PASSWORD, "display_name": "Hans"}, 422, "bad_login"),
        ({"login": "hans wurst", "password": PASSWORD, "display_name": "Hans"}, 422,
         "bad_login"),
        ({"login": "hans", "password": PASSWORD}, 422, "invalid_request"),
        ({"login": "hans", "password": 12345678, "display_name": "Hans"}, 422,
         "invalid_request"),
    ],
)  # fmt: skip
def test_register_refusals(
    client: httpx.Client, body: dict[str, object], status: int, code: str
) -> None:
    error(client.post("/api/register", json=body), status, code)
    assert client.get("/api/me").status_code == 401


def test_validation_error_names_the_field(client: httpx.Client) -> None:
    missing = error(
        client.post("/api/register", json={"login": "hans", "password": PASSWORD}),
        422,
        "invalid_request",
    )
    assert "display_name" in missing["message"] and "display_name" in missing["message_de"]
    extra = error(
        client.post("/api/guest", json={"display_name": "Gast", "admin": True}),
        422,
        "invalid_request",
    )
    assert "admin" in extra["message"]
    broken = client.post(
        "/api/login", content=b"{not json", headers={"content-type": "application/json"}
    )
    error(broken, 422, "invalid_request")


def test_login_taken(client: httpx.Client) -> None:
    login = unique("Sepp")
    assert register(client, login).status_code == 201
    with httpx.Client(base_url=client.base_url, timeout=15) as other:
        error(register(other, login.upper()), 409, "login_taken")


def test_guest_claim_keeps_the_user(client: httpx.Client) -> None:
    guest = client.post("/api/guest", json={"display_name": "  Gast  "})
    assert guest.status_code == 201
    session_cookie(guest)
    user = guest.json()
    assert user["is_guest"] is True and user["login"] is None
    assert user["display_name"] == "Gast"
    assert client.get("/api/me").json() == user

    login = unique("Gast")
    error(client.post("/api/claim", json={"login": login, "password": "kurz"}), 422,
          "weak_password")  # fmt: skip
    claimed = client.post("/api/claim", json={"login": login, "password": PASSWORD})
    assert claimed.status_code == 200, claimed.text
    session_cookie(claimed)  # a new session after the change of rights
    assert claimed.json()["id"] == user["id"]
    assert claimed.json()["is_guest"] is False
    assert client.get("/api/me").json()["id"] == user["id"]

    error(client.post("/api/claim", json={"login": unique(), "password": PASSWORD}), 403,
          "not_a_guest")  # fmt: skip
    client.post("/api/logout")
    error(client.post("/api/claim", json={"login": unique(), "password": PASSWORD}), 401,
          "login_required")  # fmt: skip
    again = client.post("/api/login", json={"login": login, "password": PASSWORD})
    assert again.status_code == 200
    assert again.json()["id"] == user["id"]


def test_password_rules_say_why(client: httpx.Client) -> None:
    body = {"login": unique("regel"), "display_name": "Hans"}
    common = error(client.post("/api/register", json={**body, "password": "hallo123"}), 422,
                   "weak_password")  # fmt: skip
    assert "common" in common["message"] and "häufigsten" in common["message_de"]
    spaces = error(client.post("/api/register", json={**body, "password": "   abc12   "}), 422,
                   "weak_password")  # fmt: skip
    assert "8" in spaces["message"] and "Leerzeichen" in spaces["message_de"]
    ok = client.post("/api/register", json={**body, "password": " geheim-genug "})
    assert ok.status_code == 201, ok.text


def test_names_over_http(client: httpx.Client) -> None:
    guest = client.post("/api/guest", json={"display_name": "\uff28\uff41\uff4e\uff53  Wurst"})
    assert guest.status_code == 201, guest.text
    assert guest.json()["display_name"] == "Hans Wurst"
    for name in ("\u3164", "\u2800", "\u0410\u043dna", "An\u200bna", "\u202eanna", "A\x00",
                 "\u0301\u0301"):  # fmt: skip
        error(client.post("/api/guest", json={"display_name": name}), 422, "bad_name")
        error(client.patch("/api/me", json={"display_name": name}), 422, "bad_name")
    renamed = client.patch("/api/me", json={"display_name": "\u0410\u043d\u043d\u0430"})
    assert renamed.status_code == 200
    assert renamed.json()["display_name"] == "\u0410\u043d\u043d\u0430"


def test_failed_logins_are_throttled(client: httpx.Client) -> None:
    login = unique("Opfer")
    register(client, login)
    client.post("/api/logout")
    client.cookies.clear()  # the attacker's browser has not logged in as the owner
    attacker = at("198.51.100.66")
    for _ in range(10):
        error(client.post("/api/login", json={"login": login, "password": "falsch123"},
                          headers=attacker), 401, "bad_credentials")  # fmt: skip
    blocked = client.post("/api/login", json={"login": login.upper(), "password": PASSWORD},
                          headers=attacker)  # fmt: skip
    detail = error(blocked, 429, "too_many_attempts")
    assert detail["message_de"]
    assert 0 < int(blocked.headers["retry-after"]) <= 300
    assert client.get("/api/me").status_code == 401
    # the owner, from anywhere else, still logs in with the right password
    with httpx.Client(base_url=client.base_url, timeout=15) as owner:
        ok = owner.post("/api/login", json={"login": login, "password": PASSWORD},
                        headers=at("203.0.113.5"))  # fmt: skip
        assert ok.status_code == 200, ok.text
        assert owner.get("/api/me").json()["login"] == login.lower()
    # and the attacker's client stays locked out of that name
    error(client.post("/api/login", json={"login": login, "password": PASSWORD},
                      headers=attacker), 429, "too_many_attempts")  # fmt: skip
    # other names are not affected
    other = unique("Andere")
    register(client, other)
    client.post("/api/logout")
    assert client.post("/api/login", json={"login": other, "password": PASSWORD},
                       headers=attacker).status_code == 200  # fmt: skip


# --------------------------------------------------------------------------- limits


@contextmanager
def server_with(database_url: str, limits: AuthLimits) -> Iterator[httpx.Client]:
    """A real server (in a thread) with ``limits``; yields a client of it."""
    app = create_app(Settings(database_url=database_url), check_database_on_startup=False)
    app.state.auth_limits = limits
    with uvicorn_thread(app) as base_url, httpx.Client(base_url=base_url, timeout=30) as c:
        yield c


def test_spraying_names_from_one_client_is_limited(migrated_db_url: str) -> None:
    limits = AuthLimits(per_client={"login": Rate(burst=5, per_minute=1)})
    with server_with(migrated_db_url, limits) as c:
        for i in range(5):
            error(c.post("/api/login", json={"login": f"name{i}", "password": "x"},
                         headers=at("198.51.100.7")), 401, "bad_credentials")  # fmt: skip
        refused = c.post("/api/login", json={"login": "name5", "password": "x"},
                         headers=at("198.51.100.7"))  # fmt: skip
        detail = error(refused, 429, "too_many_requests")
        assert detail["message_de"] and detail["message_de"] != detail["message"]
        assert 50 <= int(refused.headers["retry-after"]) <= 60
        # another client is not affected
        error(c.post("/api/login", json={"login": "name5", "password": "x"},
                     headers=at("198.51.100.8")), 401, "bad_credentials")  # fmt: skip


def test_registration_guests_and_claims_are_limited_per_client(migrated_db_url: str) -> None:
    limits = AuthLimits(
        per_client={
            "register": Rate(burst=1, per_minute=1),
            "guest": Rate(burst=2, per_minute=1),
            "claim": Rate(burst=1, per_minute=1),
        }
    )
    with server_with(migrated_db_url, limits) as c:
        here = at("198.51.100.9")
        assert register_at(c, unique(), here).status_code == 201
        error(register_at(c, unique(), here), 429, "too_many_requests")
        assert register_at(c, unique(), at("198.51.100.10")).status_code == 201
        for _ in range(2):
            assert c.post("/api/guest", json={"display_name": "Gast"},
                          headers=here).status_code == 201  # fmt: skip
        error(c.post("/api/guest", json={"display_name": "Gast"}, headers=here), 429,
              "too_many_requests")  # fmt: skip
        body = {"login": unique(), "password": PASSWORD}
        assert c.post("/api/claim", json=body, headers=here).status_code == 200
        c.post("/api/guest", json={"display_name": "Gast"}, headers=at("198.51.100.11"))
        error(c.post("/api/claim", json={"login": unique(), "password": PASSWORD},
                     headers=here), 429, "too_many_requests")  # fmt: skip


def register_at(c: httpx.Client, login: str, headers: dict[str, str]) -> httpx.Response:
    return c.post("/api/register", headers=headers,
                  json={"login": login, "password": PASSWORD, "display_name": "Hans"})  # fmt: skip


def test_global_limit(migrated_db_url: str) -> None:
    limits = AuthLimits(global_={"login": Rate(burst=3, per_minute=1)})
    with server_with(migrated_db_url, limits) as c:
        for i in range(3):
            error(c.post("/api/login", json={"login": "wer", "password": "x"},
                         headers=at(f"198.51.100.{i}")), 401, "bad_credentials")  # fmt: skip
        refused = c.post("/api/login", json={"login": "wer", "password": "x"},
                         headers=at("198.51.100.99"))  # fmt: skip
        detail = error(refused, 503, "busy")
        assert detail["message_de"] != detail["message"]
        assert int(refused.headers["retry-after"]) >= 1


class GatedHasher(PasswordHasher):
    """Cheap argon2 whose verifications wait for the test to open the gate."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.gate = threading.Event()
        self.waiting = threading.Semaphore(0)

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.waiting.release()
        self.gate.wait(20)
        return super().verify(hash, password)


def test_a_full_hashing_pool_answers_busy_at_once(migrated_db_url: str) -> None:
    hasher = GatedHasher()
    limits = AuthLimits(passwords=PasswordPool(workers=1, waiting=1, hasher=hasher))
    with server_with(migrated_db_url, limits) as c, ThreadPoolExecutor(2) as pool:
        names = [unique("wer") for _ in range(2)]
        for name in names:
            assert register(c, name).status_code == 201
        c.cookies.clear()

        def attempt(i: int, name: str | None = None) -> httpx.Response:
            return c.post("/api/login", json={"login": name or names[i], "password": "x"},
                          headers=at(f"198.51.100.{i}"))  # fmt: skip

        held = [pool.submit(attempt, i) for i in range(2)]  # one running, one waiting
        assert hasher.waiting.acquire(timeout=10)  # the first is being verified
        deadline = time.monotonic() + 10
        while limits.passwords.in_flight < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        refused = attempt(3, names[0])
        detail = error(refused, 503, "busy")
        assert "busy" in detail["message"] and detail["message_de"]
        assert int(refused.headers["retry-after"]) >= 1
        # a name without an account is never hashed, but refused alike: no enumeration
        assert error(attempt(4, unique("niemand")), 503, "busy") == detail
        me = c.get("/api/me")  # the server itself answers meanwhile
        error(me, 401, "login_required")
        hasher.gate.set()
        for future in held:
            error(future.result(), 401, "bad_credentials")


def test_no_database_connection_is_held_while_hashing(migrated_db_url: str) -> None:
    app = create_app(Settings(database_url=migrated_db_url), check_database_on_startup=False)
    pool = app.state.runtime.engine.sync_engine.pool
    seen: list[int] = []

    class Watching(PasswordHasher):
        def __init__(self) -> None:
            super().__init__(time_cost=1, memory_cost=8, parallelism=1)

        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
            seen.append(pool.checkedout())
            return super().hash(password, salt=salt)

        def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
            seen.append(pool.checkedout())
            return super().verify(hash, password)

    app.state.auth_limits = AuthLimits(passwords=PasswordPool(workers=1, hasher=Watching()))
    with uvicorn_thread(app) as base_url, httpx.Client(base_url=base_url, timeout=15) as c:
        login = unique()
        assert register(c, login).status_code == 201
        c.post("/api/logout")
        ok = c.post("/api/login", json={"login": login, "password": PASSWORD})
        assert ok.status_code == 200
        error(c.post("/api/login", json={"login": login, "password": "falsch-123"}), 401,
              "bad_credentials")  # fmt: skip
        error(c.post("/api/login", json={"login": unique(), "password": PASSWORD}), 401,
              "bad_credentials")  # fmt: skip
        c.post("/api/logout")
        assert c.post("/api/guest", json={"display_name": "Gast"}).status_code == 201
        claimed = c.post("/api/claim", json={"login": unique(), "password": PASSWORD})
        assert claimed.status_code == 200, claimed.text
    assert len(seen) == 4  # register, two logins (the unknown name is not hashed), claim
    assert seen == [0] * 4, seen


def test_unknown_path_uses_the_error_shape(client: httpx.Client) -> None:
    error(client.get("/api/nothing-here"), 404, "not_found")
    error(client.delete("/api/me"), 405, "method_not_allowed")


# --------------------------------------------------------------------------- throttle


def test_throttle_window() -> None:
    now = [1000.0]
    throttle = LoginThrottle(limit=3, window=60, clock=lambda: now[0])
    for _ in range(3):
        assert throttle.retry_after("Hans", "c") is None
        throttle.failed("hans", "c")
        now[0] += 1
    wait = throttle.retry_after("HANS", "c")
    assert wait is not None and 57 <= wait <= 58
    assert throttle.retry_after("sepp", "c") is None
    assert throttle.retry_after("hans", "d") is None
    now[0] += 57  # 60 s after the first failure
    assert throttle.retry_after("hans", "c") is None  # the oldest failure left the window
    throttle.failed("hans", "c")
    assert throttle.retry_after("hans", "c") is not None
    throttle.succeeded("hans", "c")
    assert throttle.retry_after("hans", "c") is None
