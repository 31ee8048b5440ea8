"""Limits across processes (server/shared_limits.py): the login throttle and the per-user
socket limit hold for two apps that share a Redis server, with today's numbers; sockets
of a process that died stop counting; a Redis that does not answer leaves each process
its own limits; and without ``STAMMTISCH_REDIS_URL`` nothing of this runs.

These tests use the Redis server at ``STAMMTISCH_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/0``), each under a key prefix of its own that is deleted
afterwards; without one they are skipped (``STAMMTISCH_REQUIRE_REDIS`` makes that a
failure). The two-app tests run on a throw-away PostgreSQL database, as a cluster does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from pathlib import Path

import httpx
import pytest
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.api.app import create_app
from server.api.errors import ApiError
from server.api.throttle import DEFAULT_LIMIT, GLOBAL, PER_CLIENT, AuthLimits, window_of
from server.settings import Settings
from server.shared_limits import (
    OUTAGE_PAUSE,
    Outage,
    RedisAway,
    SharedLimits,
    SharedSockets,
    SharedWindows,
    Window,
    redis_client,
)
from server.store.db import make_engine, make_session_factory
from server.tables.manager import SOCKETS_PER_USER, Socket, TableManager
from tests.support import api_error as error
from tests.support import closed_port, server_process, uvicorn_thread
from tests.table_client import COOKIE

PASSWORD = "geheim123"
#: The server with its limits under a test's prefix, and quick socket renewals.
SHARED_APP = "tests.shared_app:app"


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    name = f"stammtisch-test:{secrets.token_hex(8)}"
    yield name
    with redis.Redis.from_url(redis_url) as client:
        keys = list(client.scan_iter(match=f"{name}:*"))
        if keys:
            client.delete(*keys)


def at(address: str) -> dict[str, str]:
    """Headers that make the request come from ``address`` (uvicorn trusts the local proxy)."""
    return {"X-Forwarded-For": address}


@contextmanager
def two_apps(database_url: str, redis_url: str, prefix: str) -> Iterator[tuple[str, str]]:
    """Two apps (each in its own thread, with its own event loop and Redis client) on one
    database and one Redis prefix, as two processes of a cluster: their URLs."""
    with (
        app_serving(database_url, redis_url, prefix) as a,
        app_serving(database_url, redis_url, prefix) as b,
    ):
        yield a, b


@contextmanager
def app_serving(database_url: str, redis_url: str, prefix: str) -> Iterator[str]:
    """One app of the cluster, with tables, limits shared under ``prefix``."""
    settings = Settings(database_url=database_url, redis_url=redis_url, gc_freeze=False)
    app = create_app(settings)
    app.state.shared_limits = SharedLimits(redis_url, prefix, socket_limit=SOCKETS_PER_USER)
    with uvicorn_thread(app) as url:
        yield url


# --------------------------------------------------------------------------- logins


def test_the_lockout_of_a_name_counts_the_failures_on_every_process(
    cluster_db: str, redis_url: str, prefix: str
) -> None:
    with (
        two_apps(cluster_db, redis_url, prefix) as (url_a, url_b),
        httpx.Client(base_url=url_a, timeout=30) as a,
        httpx.Client(base_url=url_b, timeout=30) as b,
    ):
        created = a.post("/api/register", json={"login": "hans", "password": PASSWORD,
                             "display_name": "Hans"}, headers=at("192.0.2.1"))  # fmt: skip
        assert created.status_code == 201, created.text
        a.cookies.clear()
        wrong = {"login": "hans", "password": "falsch123"}
        # today's number, DEFAULT_LIMIT (10), split over the two processes: each of
        # them alone has seen fewer failures than locks a client out
        for i in range(DEFAULT_LIMIT):
            client = a if i % 2 else b
            error(client.post("/api/login", json=wrong, headers=at("198.51.100.7")),
                      401, "bad_credentials")  # fmt: skip
        for client in (a, b):
            refused = client.post("/api/login", json=wrong, headers=at("198.51.100.7"))
            error(refused, 429, "too_many_attempts")
            assert 1 <= int(refused.headers["retry-after"]) <= 300
            # even the right password waits (it is not even checked)
            right = {"login": "hans", "password": PASSWORD}
            error(client.post("/api/login", json=right, headers=at("198.51.100.7")),
                      429, "too_many_attempts")  # fmt: skip
        # the lockout is of (name, client): the owner elsewhere logs in, on either
        ok = b.post("/api/login", json={"login": "hans", "password": PASSWORD},
                        headers=at("192.0.2.1"))  # fmt: skip
        assert ok.status_code == 200, ok.text


def test_the_per_client_limit_counts_the_requests_on_every_process(
    cluster_db: str, redis_url: str, prefix: str
) -> None:
    burst = PER_CLIENT["guest"].burst  # today's 60 guests at once from one address
    with (
        two_apps(cluster_db, redis_url, prefix) as (url_a, url_b),
        httpx.Client(base_url=url_a, timeout=30) as a,
        httpx.Client(base_url=url_b, timeout=30) as b,
    ):
        for i in range(burst):
            client = a if i % 2 else b
            made = client.post("/api/guest", json={"display_name": f"Gast {i}"},
                                   headers=at("203.0.113.5"))  # fmt: skip
            assert made.status_code == 201, made.text
            client.cookies.clear()
        window = window_of(PER_CLIENT["guest"])
        for client in (a, b):
            refused = client.post("/api/guest", json={"display_name": "Noch einer"},
                                      headers=at("203.0.113.5"))  # fmt: skip
            error(refused, 429, "too_many_requests")
            assert 1 <= int(refused.headers["retry-after"]) <= window.seconds
        other = a.post("/api/guest", json={"display_name": "Woanders"},
                           headers=at("203.0.113.6"))  # fmt: skip
        assert other.status_code == 201, other.text


def test_the_windows_have_todays_burst_and_never_let_more_through_than_the_buckets(
    redis_url: str, prefix: str
) -> None:
    for rates in (PER_CLIENT, GLOBAL):
        for rate in rates.values():
            window = window_of(rate)
            assert window.amount == rate.burst
            # in the time the bucket takes to refill, it lets 2 × burst through; the
            # window lets burst through in that time, and the same in the long run
            assert window.seconds * rate.per_minute / 60 >= rate.burst
            assert window.seconds * rate.per_minute / 60 < rate.burst + rate.per_minute / 60

    async def scenario() -> None:
        first, second = redis_client(redis_url), redis_client(redis_url)
        try:
            one = SharedWindows(first, redis_url, prefix)
            two = SharedWindows(second, redis_url, prefix)
            window = Window(3, 60)
            assert await one.take("login", window, "c") is None
            assert await two.take("login", window, "c") is None
            assert await one.wait("login", window, "c") is None  # waiting takes nothing
            assert await two.take("login", window, "c") is None
            wait = await one.take("login", window, "c")
            assert wait is not None and 0 < wait <= 60
            assert await two.take("login", window, "d") is None  # another key
            assert await one.wait("login", window, "c") is not None
            await two.clear("login", window, "c")
            assert await one.take("login", window, "c") is None
        finally:
            await first.aclose()
            await second.aclose()

    asyncio.run(scenario())


# --------------------------------------------------------------------------- sockets


async def open_socket(base_url: str, cookie: str) -> tuple[ClientConnection, dict[str, object]]:
    """Open a table socket; the server's first answer (a pong if it was admitted)."""
    url = base_url.replace("http://", "ws://") + "/ws"
    ws = await connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"})
    with contextlib.suppress(ConnectionClosed):  # refused and closed already: read why
        await ws.send(json.dumps({"type": "ping", "id": 1}))
    async with asyncio.timeout(20):
        answer: dict[str, object] = json.loads(await ws.recv())
    return ws, answer


def test_a_user_has_at_most_16_sockets_on_all_processes_together(
    cluster_db: str, redis_url: str, prefix: str
) -> None:
    async def scenario(url_a: str, url_b: str) -> None:
        async with httpx.AsyncClient(base_url=url_a, timeout=30) as http:
            made = await http.post("/api/guest", json={"display_name": "Vielfach"})
            assert made.status_code == 201, made.text
            cookie, user_id = made.cookies[COOKIE], made.json()["id"]
        async with AsyncExitStack() as stack:
            opened: list[ClientConnection] = []
            for i in range(SOCKETS_PER_USER):  # half on each process
                ws, answer = await open_socket(url_a if i % 2 else url_b, cookie)
                stack.push_async_callback(ws.close)
                assert answer["type"] == "pong", answer
                opened.append(ws)
            for url in (url_a, url_b):  # each process alone has only 8 of them
                ws, answer = await open_socket(url, cookie)
                stack.push_async_callback(ws.close)
                assert answer["code"] == "too_many_connections", answer
                async with asyncio.timeout(20):
                    await ws.wait_closed()
                assert ws.close_code == 1013
            # one closed on A frees a place for B
            count = SharedSockets(redis_client(redis_url), SOCKETS_PER_USER, prefix)
            try:
                await opened[1].close()
                async with asyncio.timeout(20):
                    while await count.count(user_id) != SOCKETS_PER_USER - 1:
                        await asyncio.sleep(0.02)
            finally:
                await count.client.aclose()
            ws, answer = await open_socket(url_b, cookie)
            stack.push_async_callback(ws.close)
            assert answer["type"] == "pong", answer

    with two_apps(cluster_db, redis_url, prefix) as (url_a, url_b):
        asyncio.run(scenario(url_a, url_b))


def test_the_sockets_of_a_process_that_died_stop_counting_and_a_live_ones_do_not(
    redis_url: str, prefix: str
) -> None:
    now = [1_000.0]

    async def scenario() -> None:
        first, second = redis_client(redis_url), redis_client(redis_url)
        try:
            doomed = SharedSockets(first, 2, prefix, ttl=15, clock=lambda: now[0])
            other = SharedSockets(second, 2, prefix, ttl=15, clock=lambda: now[0])
            mine = [object(), object()]
            assert [await doomed.open(s, 5) for s in mine] == [True, True]
            assert await other.open(object(), 5) is False
            now[0] += 10
            await doomed.renew()  # its heartbeat: counted until 1,025
            now[0] += 10
            assert await other.open(object(), 5) is False  # alive: still counted
            assert await other.count(5) == 2
            # the process is killed: no more renewals, nothing counted out
            now[0] += 5.5
            assert await other.count(5) == 0
            late = object()
            assert await other.open(late, 5) is True
            assert await other.count(5) == 1
            await other.close(late)
            await other.close(late)  # again: harmless
            assert await other.count(5) == 0
            # a process that was only stalled counts its sockets again when it renews
            # them, but not one it closed meanwhile
            await doomed.close(mine[0])
            await doomed.renew()
            assert await doomed.count(5) == 1  # mine[1]
            assert await other.open(object(), 5) is True
            assert await other.open(object(), 5) is False
        finally:
            await first.aclose()
            await second.aclose()

    asyncio.run(scenario())


def test_the_sockets_of_a_killed_server_process_stop_counting(
    cluster_db: str,
    redis_url: str,
    prefix: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("STAMMTISCH_REDIS_URL", redis_url)
    monkeypatch.setenv("STAMMTISCH_TEST_REDIS_PREFIX", prefix)

    async def scenario(url_a: str, doomed: subprocess.Popen[bytes], url_b: str) -> None:
        async with httpx.AsyncClient(base_url=url_b, timeout=30) as http:
            made = await http.post("/api/guest", json={"display_name": "Vielfach"})
            assert made.status_code == 201, made.text
            cookie, user_id = made.cookies[COOKIE], made.json()["id"]
        async with AsyncExitStack() as stack:
            for _ in range(SOCKETS_PER_USER):  # all on the process that will be killed
                ws, answer = await open_socket(url_a, cookie)
                stack.push_async_callback(ws.close)
                assert answer["type"] == "pong", answer
            ws, answer = await open_socket(url_b, cookie)
            stack.push_async_callback(ws.close)
            assert answer["code"] == "too_many_connections", answer
            doomed.kill()  # SIGKILL: nothing is counted out
            await asyncio.to_thread(doomed.wait)
            async with asyncio.timeout(60):  # 8 s after the last renewal, in the test app
                while True:
                    ws, answer = await open_socket(url_b, cookie)
                    stack.push_async_callback(ws.close)
                    if answer["type"] == "pong":
                        break
                    assert answer["code"] == "too_many_connections", answer
                    await asyncio.sleep(0.5)
            count = SharedSockets(redis_client(redis_url), SOCKETS_PER_USER, prefix)
            try:
                assert await count.count(user_id) == 1  # only the one on B
            finally:
                await count.client.aclose()

    with (
        server_process(cluster_db, tmp_path / "a.log", app=SHARED_APP) as (url_a, process_a),
        server_process(cluster_db, tmp_path / "b.log", app=SHARED_APP) as (url_b, _),
    ):
        asyncio.run(scenario(url_a, process_a, url_b))


# --------------------------------------------------------------------------- Redis away


def dead_redis_url() -> str:
    """The URL of a Redis server that is not there (a port nobody listens on)."""
    return f"redis://127.0.0.1:{closed_port()}/0"


def test_with_redis_away_each_process_keeps_its_own_limits_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = dead_redis_url()

    async def scenario() -> None:
        client = redis_client(url)
        try:
            limits = AuthLimits(shared=SharedWindows(client, url))
            for _ in range(PER_CLIENT["guest"].burst):
                await limits.acheck("guest", "198.51.100.9")
            with pytest.raises(ApiError) as refused:  # today's number, in this process
                await limits.acheck("guest", "198.51.100.9")
            assert (refused.value.status, refused.value.code) == (429, "too_many_requests")
            for _ in range(DEFAULT_LIMIT):
                assert await limits.aadmit_login("hans", "198.51.100.9", None) is None
                await limits.alogin_failed("hans", "198.51.100.9", None)
            with pytest.raises(ApiError) as locked:
                await limits.aadmit_login("hans", "198.51.100.9", None)
            assert locked.value.code == "too_many_attempts"
        finally:
            await client.aclose()

    with caplog.at_level(logging.WARNING, logger="server.shared_limits"):
        asyncio.run(scenario())
    warnings = [r for r in caplog.records if "Redis does not answer" in r.getMessage()]
    assert len(warnings) == 1  # once per outage, not once per request
    assert "fall back to this process's own count" in warnings[0].getMessage()


def test_after_a_failure_redis_is_left_alone_for_a_moment_and_its_return_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    outage = Outage("the limits", clock=lambda: now[0])
    outage.guard()  # nothing failed: ask Redis
    with caplog.at_level(logging.WARNING, logger="server.shared_limits"):
        outage.failed(ConnectionError("refused"))
        now[0] += OUTAGE_PAUSE / 2
        with pytest.raises(RedisAway) as away:
            outage.guard()
        outage.failed(away.value)  # as the callers do: it does not put the next try off
        now[0] += OUTAGE_PAUSE / 2
        outage.guard()  # time to ask again
        outage.failed(ConnectionError("refused"))  # still away: no second warning
        outage.answered()
        outage.answered()
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "Redis does not answer (ConnectionError",
        "Redis answers again",
    ]


def test_with_redis_away_sockets_are_admitted_up_to_the_process_limit() -> None:
    url = dead_redis_url()

    async def scenario() -> None:
        client = redis_client(url)
        try:
            # a manager on an in-memory database it never touches (only sockets count)
            tables = TableManager(make_session_factory(make_engine("sqlite+aiosqlite://")))
            shared = tables.shared_sockets = SharedSockets(client, SOCKETS_PER_USER)

            async def close() -> None:
                """Closes nothing."""

            mine = [Socket(3, "s", close) for _ in range(SOCKETS_PER_USER)]
            assert [await tables.admit_socket(s) for s in mine] == [True] * SOCKETS_PER_USER
            assert await tables.admit_socket(Socket(3, "s", close)) is False
            tables.close_socket(mine[0])
            await shared.closed()
            assert await tables.admit_socket(Socket(3, "s", close)) is True
        finally:
            await client.aclose()

    asyncio.run(scenario())


def test_with_redis_away_people_still_log_in(migrated_db_url: str) -> None:
    settings = Settings(database_url=migrated_db_url, redis_url=dead_redis_url())
    app = create_app(settings, check_database_on_startup=False)
    with uvicorn_thread(app) as url, httpx.Client(base_url=url, timeout=30) as c:
        made = c.post(
            "/api/register", json={"login": "sepp", "password": PASSWORD, "display_name": "Sepp"}
        )
        assert made.status_code == 201, made.text
        c.cookies.clear()
        assert c.post("/api/login", json={"login": "sepp", "password": PASSWORD}).status_code == 200
        assert c.post("/api/guest", json={"display_name": "Gast"}).status_code == 201


# --------------------------------------------------------------------------- one process


def test_without_redis_nothing_is_shared_and_the_limits_are_todays_buckets(
    migrated_db_url: str,
) -> None:
    app = create_app(Settings(database_url=migrated_db_url), check_database_on_startup=False)
    with uvicorn_thread(app) as url, httpx.Client(base_url=url, timeout=30) as c:
        assert c.post("/api/guest", json={"display_name": "Gast"}).status_code == 201
        assert not hasattr(app.state, "shared_limits")
        assert app.state.auth_limits.shared is None

    now = [0.0]
    limits = AuthLimits(clock=lambda: now[0])

    async def scenario() -> None:
        burst = PER_CLIENT["login"].burst
        for _ in range(burst):
            await limits.acheck("login", "c")
        with pytest.raises(ApiError) as refused:
            await limits.acheck("login", "c")
        assert refused.value.code == "too_many_requests"
        # a token bucket: one more after 60 / per_minute seconds (a window would wait
        # until the burst left it)
        now[0] += 60 / PER_CLIENT["login"].per_minute
        await limits.acheck("login", "c")
        with pytest.raises(ApiError):
            await limits.acheck("login", "c")

    asyncio.run(scenario())


@asynccontextmanager
async def lifespan_of(settings: Settings) -> AsyncIterator[object]:
    """Run the lifespan of an app for ``settings`` (no database check); yield its state."""
    app = create_app(settings, check_database_on_startup=False)
    async with app.router.lifespan_context(app):
        yield app.state


def test_a_redis_url_gives_the_app_shared_limits_under_its_databases_name(
    redis_url: str, cluster_db: str
) -> None:
    async def scenario() -> None:
        settings = Settings(database_url=cluster_db, redis_url=redis_url, gc_freeze=False)
        async with lifespan_of(settings) as state:
            shared = state.shared_limits  # type: ignore[attr-defined]
            assert isinstance(shared, SharedLimits)
            assert shared.url == redis_url
            assert shared.sockets.limit == SOCKETS_PER_USER
            database = cluster_db.rsplit("/", 1)[1]  # as the cluster's keys have it
            expected = f"stammtisch:{database}:limits"
            assert shared.windows.prefix == shared.sockets.prefix == expected

    asyncio.run(scenario())
