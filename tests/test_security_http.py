"""Cross-origin protection and security headers against a real uvicorn server.

A page on another port of the same host is the same *site* as the server, so the session
cookie (SameSite=Lax) goes along with its requests: the server itself must refuse a
WebSocket handshake or a write that a browser says comes from another origin. Requests
without ``Origin`` and ``Sec-Fetch-Site`` come from no browser page and pass.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server.api.app import create_app
from server.api.security import DOCS_CONTENT_SECURITY_POLICY, resolve_next
from server.settings import Settings
from tests.conftest import Person
from tests.support import REPO_ROOT, LiveServer, uvicorn_thread
from tests.support import api_error as error
from tests.table_client import COOKIE

pytestmark = pytest.mark.live_server


STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


def port_of(base_url: str) -> int:
    port = urlsplit(base_url).port
    assert port is not None
    return port


def ours(base_url: str) -> list[str]:
    """The origins the test server accepts (tests/support.py sets them)."""
    return [base_url, f"http://localhost:{port_of(base_url)}"]


def foreign(base_url: str) -> list[str]:
    """Origins that are not the server's: another port of the same host (same site),
    another scheme, another host, no port, and the opaque ``null`` of sandboxed pages."""
    port = port_of(base_url)
    return [
        f"http://127.0.0.1:{port + 1}",
        f"https://127.0.0.1:{port}",
        f"http://localhost:{port + 1}",
        "http://127.0.0.1",
        "http://evil.example",
        "https://evil.example",
        "null",
    ]


def open_room(host: httpx.Client, guests: list[httpx.Client]) -> dict[str, Any]:
    """A Dreierles room of ``host`` that ``guests`` have joined (not started)."""
    response = host.post("/api/rooms", json={"name": "Nord", "game": "dreierles"})
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    token = room["invite_url"].removeprefix("/r/")
    for guest in guests:
        joined = guest.post(f"/api/invite/{token}/join", json={"role": "player"})
        assert joined.status_code == 200, joined.text
    return room


def room_status(client: httpx.Client, room_id: int) -> str:
    status: str = client.get(f"/api/rooms/{room_id}").json()["status"]
    return status


# --------------------------------------------------------------------------- writes


def test_foreign_origin_writes_are_refused_in_every_encoding(
    module_server: LiveServer, person: Person
) -> None:
    """The reproduced attack: a page elsewhere starts the logged-in host's match with a
    form POST (text/plain or form-encoded, which need no CORS preflight) or with JSON."""
    base = module_server.base_url
    host = person("Wirtin")
    room = open_room(host, [person("Bernd"), person("Cilli")])
    start = f"/api/rooms/{room['id']}/start"
    bodies: list[dict[str, Any]] = [
        {"content": b'{"x": 1}', "headers": {"content-type": "text/plain"}},
        {"content": b"x=1", "headers": {"content-type": "application/x-www-form-urlencoded"}},
        {"content": b"--b--\r\n", "headers": {"content-type": "multipart/form-data; boundary=b"}},
        {"json": {}},
        {},
    ]
    for origin in foreign(base):
        for body in bodies:
            headers = {**body.get("headers", {}), "origin": origin}
            response = host.post(start, **{**body, "headers": headers})
            detail = error(response, 403, "bad_origin")
            assert "STAMMTISCH_PUBLIC_ORIGINS" in detail["message"]
            assert "STAMMTISCH_PUBLIC_ORIGINS" in detail["message_de"]
            assert origin in detail["message"]
    assert room_status(host, room["id"]) == "open"

    # From the server's own page the same request works.
    response = host.post(start, headers={"origin": base})
    assert response.status_code == 200, response.text
    assert room_status(host, room["id"]) == "playing"


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_every_writing_method_is_checked(
    module_server: LiveServer, person: Person, method: str
) -> None:
    client = person()
    for origin in foreign(module_server.base_url):
        response = client.request(method, "/api/me", json={}, headers={"origin": origin})
        error(response, 403, "bad_origin")


def test_our_origins_may_write(module_server: LiveServer, person: Person) -> None:
    for origin in ours(module_server.base_url):
        visitor = person(None)
        response = visitor.post(
            "/api/guest", json={"display_name": "Dora"}, headers={"origin": origin}
        )
        assert response.status_code == 201, response.text
        assert visitor.cookies.get(COOKIE)
        response = visitor.patch("/api/me", json={"language": "en"}, headers={"origin": origin})
        assert response.status_code == 200, response.text


def test_a_refused_login_sets_no_cookie(module_server: LiveServer, person: Person) -> None:
    visitor = person(None)
    response = visitor.post(
        "/api/guest", json={"display_name": "Eve"}, headers={"origin": "http://evil.example"}
    )
    error(response, 403, "bad_origin")
    assert "set-cookie" not in response.headers
    assert visitor.get("/api/me").status_code == 401


@pytest.mark.parametrize(
    ("fetch_site", "allowed"),
    [("cross-site", False), ("same-site", False), ("CROSS-SITE", False), ("same-origin", True),
     ("none", True)],
)  # fmt: skip
def test_sec_fetch_site_without_origin(
    module_server: LiveServer, person: Person, fetch_site: str, allowed: bool
) -> None:
    """Without ``Origin`` (a browser that leaves it out), ``Sec-Fetch-Site`` decides."""
    visitor = person(None)
    response = visitor.post(
        "/api/guest", json={"display_name": "Fritz"}, headers={"sec-fetch-site": fetch_site}
    )
    if allowed:
        assert response.status_code == 201, response.text
    else:
        error(response, 403, "bad_origin")


def test_origin_decides_over_sec_fetch_site(module_server: LiveServer, person: Person) -> None:
    base = module_server.base_url
    visitor = person(None)
    response = visitor.post(
        "/api/guest",
        json={"display_name": "Gerd"},
        headers={"origin": "http://evil.example", "sec-fetch-site": "same-origin"},
    )
    error(response, 403, "bad_origin")
    response = visitor.post(
        "/api/guest",
        json={"display_name": "Gerd"},
        headers={"origin": base, "sec-fetch-site": "same-origin"},
    )
    assert response.status_code == 201, response.text


def test_reads_from_elsewhere_are_answered(module_server: LiveServer, person: Person) -> None:
    """Reading needs no origin check (the browser keeps the answer from a foreign page)."""
    client = person()
    for path in ("/api/me", "/api/games", "/", "/healthz"):
        response = client.get(
            path, headers={"origin": "http://evil.example", "sec-fetch-site": "cross-site"}
        )
        assert response.status_code == 200, path


# --------------------------------------------------------------------------- JSON only


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
     "multipart/form-data; boundary=b", "application/jsonp", None],
)  # fmt: skip
def test_api_bodies_must_be_json(person: Person, content_type: str | None) -> None:
    """A body that is not declared JSON is refused (415) before a route reads it, even
    from no browser at all: the upload route reads its body raw."""
    client = person()
    body = json.dumps({"display_name": "Hans"}).encode()
    headers = {} if content_type is None else {"content-type": content_type}
    for path, method in (("/api/me", "PATCH"), ("/api/records/replay", "POST"),
                         ("/api/rooms", "POST"), ("/api/logout", "POST")):  # fmt: skip
        response = client.request(method, path, content=body, headers=headers)
        error(response, 415, "unsupported_media_type")
    assert client.get("/api/me").json()["display_name"] == "Gast"


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "Application/JSON",
     "application/merge-patch+json"],
)  # fmt: skip
def test_json_bodies_are_accepted(person: Person, content_type: str) -> None:
    client = person()
    response = client.patch(
        "/api/me", content=b'{"display_name": "Ida"}', headers={"content-type": content_type}
    )
    assert response.status_code == 200, response.text
    assert response.json()["display_name"] == "Ida"


def test_writes_without_a_body_need_no_content_type(person: Person) -> None:
    client = person()
    response = client.post("/api/logout", headers={"content-type": "text/plain"})
    assert response.status_code == 204


# --------------------------------------------------------------------------- WebSocket


def socket_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + "/ws"


async def handshake(base_url: str, cookie: str | None, **headers: str) -> int:
    """Open the WebSocket with ``headers``: 101 (then it answers a ping) or the refusal's
    status (with the API's error shape in the body)."""
    extra = {**headers, **({"Cookie": f"{COOKIE}={cookie}"} if cookie else {})}
    origin = extra.pop("origin", None)
    try:
        async with connect(
            socket_url(base_url),
            origin=origin,  # type: ignore[arg-type]
            additional_headers=extra,
        ) as socket:
            await socket.send(json.dumps({"type": "ping", "id": "p1"}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
            assert answer == {"type": "pong", "id": "p1"}
            return 101
    except InvalidStatus as refused:
        body = json.loads(refused.response.body or b"{}")
        assert body["error"]["code"] == "bad_origin", body
        assert "STAMMTISCH_PUBLIC_ORIGINS" in body["error"]["message"]
        return refused.response.status_code


def test_foreign_origin_websocket_handshakes_are_refused(
    module_server: LiveServer, person: Person
) -> None:
    """The reproduced attack: ``new WebSocket()`` on another port of the same host got
    the victim's cookie, hand and chat."""
    base = module_server.base_url
    victim = person("Opfer")
    cookie = victim.cookies.get(COOKIE)

    async def scenario() -> None:
        for origin in foreign(base):
            assert await handshake(base, cookie, origin=origin) == 403, origin
        for fetch_site in ("cross-site", "same-site"):
            assert await handshake(base, cookie, **{"Sec-Fetch-Site": fetch_site}) == 403
        for origin in ours(base):
            assert await handshake(base, cookie, origin=origin) == 101, origin
        assert await handshake(base, cookie, **{"Sec-Fetch-Site": "same-origin"}) == 101
        assert await handshake(base, cookie) == 101  # no browser: scripts, the load test

    asyncio.run(scenario())
    # each refusal is one warning line; uvicorn's error for a handshake answered with 403
    # (it counts only an accepted or closed one as complete) is not logged
    log = (module_server.database_path.parent / "uvicorn.log").read_text()
    assert "without completing handshake" not in log and "ERROR" not in log
    assert log.count("WARNING:     server.api.security: Refused WebSocket /ws") >= 9


# --------------------------------------------------------------------------- headers


def csp_of(base_url: str) -> str:
    sockets = " ".join(o.replace("http://", "ws://") for o in ours(base_url))
    return STRICT_CSP.format(sockets=sockets)


def assert_security_headers(response: httpx.Response, csp: str) -> None:
    assert response.headers["content-security-policy"] == csp, response.request.url
    for name, value in HEADERS.items():
        assert response.headers[name] == value, (response.request.url, name)
    assert "camera=()" in response.headers["permissions-policy"]
    assert len(response.headers.get_list("content-security-policy")) == 1


def test_security_headers_on_pages_api_and_static_files(
    module_server: LiveServer, person: Person
) -> None:
    base = module_server.base_url
    client = person()
    visitor = person(None)
    room = open_room(client, [])
    responses = [
        visitor.get("/"),
        client.get("/"),
        client.get("/rooms/new"),
        client.get(f"/rooms/{room['id']}"),
        client.get(f"/rooms/{room['id']}/table"),
        client.get(room["invite_url"]),
        client.get("/account"),
        client.get("/archive"),
        client.get("/archive/replay"),
        client.get("/archive/stats"),
        visitor.get("/account"),  # the redirect to log in
        client.get("/rooms/999999"),  # the 404 page
        client.get("/api/games"),
        client.get("/api/me"),
        visitor.get("/api/me"),  # 401
        client.get("/api/nothing"),  # 404
        client.post("/api/guest", json={"display_name": "X"}, headers={"origin": "null"}),
        client.post("/api/logout", content=b"x", headers={"content-type": "text/plain"}),
        client.get("/healthz"),
        client.get("/static/stammtisch.css"),
        client.get("/static/js/forms.js"),
        client.get("/static/cards-gallery.html"),
        client.get("/static/missing.js"),
    ]
    for response in responses:
        assert_security_headers(response, csp_of(base))


def test_api_docs_are_off_by_default(person: Person) -> None:
    client = person(None)
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        assert client.get(path).status_code == 404, path


def test_api_docs_with_the_setting(migrated_db_url: str) -> None:
    settings = Settings(database_url=migrated_db_url, api_docs=True)
    with uvicorn_thread(create_app(settings)) as base_url:
        schema = httpx.get(f"{base_url}/openapi.json", timeout=10)
        assert schema.status_code == 200
        assert "/api/rooms" in schema.json()["paths"]
        for path in ("/docs", "/redoc"):
            page = httpx.get(f"{base_url}{path}", timeout=10)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            assert page.headers["content-security-policy"] == DOCS_CONTENT_SECURITY_POLICY
            assert page.headers["x-frame-options"] == "DENY"
        # Everything else keeps the strict policy.
        sockets = "ws://127.0.0.1:8000 ws://localhost:8000"  # the settings' default origins
        assert httpx.get(f"{base_url}/", timeout=10).headers[
            "content-security-policy"
        ] == STRICT_CSP.format(sockets=sockets)


def test_a_bad_origin_setting_stops_the_server_with_its_name(sqlite_db_url: str) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": sqlite_db_url,
        "STAMMTISCH_PUBLIC_ORIGINS": "https://karten.example.org/spiel",
    }
    result = subprocess.run(
        [sys.executable, "-m", "uvicorn", "server.api.app:app", "--port", "0"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    assert "SettingsError" in result.stderr
    assert "STAMMTISCH_PUBLIC_ORIGINS" in result.stderr
    assert "'https://karten.example.org/spiel' is not an origin" in result.stderr


# --------------------------------------------------------------------------- ?next=

ORIGIN = "http://127.0.0.1:8000"

#: ``?next=`` values that must not lead anywhere: other hosts in every spelling browsers
#: accept, and anything unclear.
BAD_NEXT = [
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/ /evil.example",
    "/%09/evil.example",
    "/%09/evil-host/",
    "/%0a/evil.example",
    "/%0d%0a/evil.example",
    "/%20/evil.example",
    "/%5Cevil.example",
    "/%5c%5cevil.example",
    "/%2F/evil.example",
    "/%2f%2fevil.example",
    "%2F%2Fevil.example",
    "%2f%2fevil.example",
    "/%252F%252Fevil.example",
    "/%25252509/evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/rooms/..//evil.example",
    "/%2e//evil.example",
    "https://evil.example",
    "http://127.0.0.1:8001/",
    "http://127.0.0.1:8000/rooms",  # our own, but written absolute: not a plain path
    "https:evil.example",
    "http:/evil.example",
    "//127.0.0.1:8000/",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "/javascript:alert(1)%0a//",
    "data:text/html,<script>alert(1)</script>",
    "/\u0000/evil.example",
    "/\u00a0/evil.example",
    "/\u200b/evil.example",
    "/\u2028/evil.example",
    "/\u3000/evil.example",
    "/\ufeff/evil.example",
    "/%E2%80%8B/evil.example",
    "/%",
    "/%zz",
    "/%C3",
    " /rooms",
    "rooms/1",
    "",
    "/" + "a" * 3000,
]
GOOD_NEXT = [
    ("/", "/"),
    ("/rooms/5", "/rooms/5"),
    ("/rooms/5/table", "/rooms/5/table"),
    ("/r/abc-DEF_123", "/r/abc-DEF_123"),
    ("/archive/deals/7#step=12", "/archive/deals/7#step=12"),
    ("/archive?game=dreierles&with=3", "/archive?game=dreierles&with=3"),
    ("/rooms/../account", "/account"),
    ("/@evil.example", "/@evil.example"),
    ("/r/%C3%A4", "/r/%C3%A4"),
]


@pytest.mark.parametrize("raw", BAD_NEXT)
def test_next_refuses_anything_but_a_plain_local_path(raw: str) -> None:
    assert resolve_next(raw, ORIGIN) is None


@pytest.mark.parametrize(("raw", "expected"), GOOD_NEXT)
def test_next_keeps_local_paths(raw: str, expected: str) -> None:
    assert resolve_next(raw, ORIGIN) == expected


def test_next_redirects_a_logged_in_visitor_only_to_local_paths(person: Person) -> None:
    client = person()
    for raw in BAD_NEXT[:-1]:
        response = client.get("/", params={"next": raw}, follow_redirects=False)
        assert response.status_code == 200, raw
        assert "Meine Räume" in response.text
    response = client.get("/", params={"next": "/rooms/new"}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/rooms/new"
    response = client.get("/", params={"next": "/?next=/"}, follow_redirects=False)
    assert response.status_code == 200  # the start page itself: no loop
    # Logged out, the start page shows the ways in (start.js follows next after login).
    response = person(None).get("/", params={"next": "/rooms/new"}, follow_redirects=False)
    assert response.status_code == 200 and 'id="guest-form"' in response.text
