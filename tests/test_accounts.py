"""Accounts over HTTP against a real uvicorn server: register, login, guests, cookies."""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from collections.abc import Iterator
from http.cookies import SimpleCookie

import httpx
import pytest

from server.api.app import create_app
from server.api.deps import SESSION_COOKIE
from server.api.throttle import LoginThrottle
from server.settings import Settings
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


def session_cookie(response: httpx.Response) -> SimpleCookie:
    headers = response.headers.get_list("set-cookie")
    assert len(headers) == 1, headers
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(headers[0])
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


def test_failed_logins_are_throttled(client: httpx.Client) -> None:
    login = unique("Opfer")
    register(client, login)
    client.post("/api/logout")
    for _ in range(10):
        error(client.post("/api/login", json={"login": login, "password": "falsch123"}), 401,
              "bad_credentials")  # fmt: skip
    blocked = client.post("/api/login", json={"login": login.upper(), "password": PASSWORD})
    detail = error(blocked, 429, "too_many_attempts")
    assert detail["message_de"]
    assert 0 < int(blocked.headers["retry-after"]) <= 300
    assert client.get("/api/me").status_code == 401
    # other names are not affected
    other = unique("Andere")
    register(client, other)
    client.post("/api/logout")
    assert client.post("/api/login", json={"login": other, "password": PASSWORD}).status_code == 200


def test_unknown_path_uses_the_error_shape(client: httpx.Client) -> None:
    error(client.get("/api/nothing-here"), 404, "not_found")
    error(client.delete("/api/me"), 405, "method_not_allowed")


# --------------------------------------------------------------------------- throttle


def test_throttle_window() -> None:
    now = [1000.0]
    throttle = LoginThrottle(limit=3, window=60, clock=lambda: now[0])
    for _ in range(3):
        assert throttle.retry_after("Hans") is None
        throttle.failed("hans")
        now[0] += 1
    wait = throttle.retry_after("HANS")
    assert wait is not None and 57 <= wait <= 58
    assert throttle.retry_after("sepp") is None
    now[0] += 57  # 60 s after the first failure
    assert throttle.retry_after("hans") is None  # the oldest failure left the window
    throttle.failed("hans")
    assert throttle.retry_after("hans") is not None
    throttle.succeeded("hans")
    assert throttle.retry_after("hans") is None
