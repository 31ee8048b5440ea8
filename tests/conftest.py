"""Fixtures for the server-level tests (database, migrations, live servers).

- ``sqlite_db_url``: URL of a fresh, empty (unmigrated) SQLite file in ``tmp_path``.
- ``migrated_db_url``: the same, upgraded to the head revision.
- ``live_server``: base URL of a real uvicorn subprocess serving ``server.api.app:app``
  against ``migrated_db_url``.
- ``module_server``: the same, shared by the tests of one module (a :class:`LiveServer`
  with the URL and the SQLite file); tests must not depend on each other's data.
- ``postgres_url``: ``STAMMTISCH_TEST_POSTGRES_URL`` when that server answers, else the
  test is skipped with the reason.
- ``person``: makes HTTP clients with cookies of their own, logged in as a guest or not.
- ``store_db``: a migrated database for store tests, once on SQLite and once on
  PostgreSQL (in a throw-away schema; skipped with the reason when unreachable).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import redis
from sqlalchemy import text
from sqlalchemy.engine import make_url

from server.store.db import make_engine
from tests.support import (
    POSTGRES_URL,
    REDIS_URL,
    Guest,
    LiveServer,
    PushService,
    TestDatabase,
    local_push_service,
    postgres_database,
    postgres_schema,
    sqlite_url,
    upgrade,
    uvicorn_subprocess,
)


@pytest.fixture
def sqlite_db_url(tmp_path: Path) -> str:
    """URL of a fresh SQLite database file (not yet migrated)."""
    return sqlite_url(tmp_path / "stammtisch.sqlite3")


@pytest.fixture
def migrated_db_url(sqlite_db_url: str) -> str:
    """URL of a fresh SQLite database migrated to the head revision."""
    upgrade(sqlite_db_url)
    return sqlite_db_url


@pytest.fixture
def live_server(migrated_db_url: str, tmp_path: Path) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``) of a real uvicorn server on a migrated database."""
    with uvicorn_subprocess(migrated_db_url, tmp_path / "uvicorn.log") as base_url:
        yield base_url


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real uvicorn server on its own migrated SQLite file, shared within a module."""
    directory = tmp_path_factory.mktemp("server")
    path = directory / "stammtisch.sqlite3"
    upgrade(sqlite_url(path))
    with uvicorn_subprocess(sqlite_url(path), directory / "uvicorn.log") as base_url:
        yield LiveServer(base_url, path)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test PostgreSQL URL; skips the test (with the reason) when it is unreachable."""

    async def probe() -> None:
        engine = make_engine(POSTGRES_URL)
        try:
            async with asyncio.timeout(5), engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        asyncio.run(probe())
    except Exception as exc:
        shown = make_url(POSTGRES_URL).render_as_string(hide_password=True)
        reason = f"PostgreSQL not reachable at {shown} ({type(exc).__name__}: {exc})"
        if os.environ.get("STAMMTISCH_REQUIRE_POSTGRES"):  # CI: both databases, always
            pytest.fail(reason)
        pytest.skip(reason)
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The test Redis URL (``STAMMTISCH_TEST_REDIS_URL``, default the machine's Redis);
    skips the test (with the reason) when it does not answer, and fails it under
    ``STAMMTISCH_REQUIRE_REDIS`` (as CI sets it)."""
    try:
        with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as exc:
        reason = f"Redis not reachable at {REDIS_URL} ({type(exc).__name__}: {exc})"
        if os.environ.get("STAMMTISCH_REQUIRE_REDIS"):
            pytest.fail(reason)
        pytest.skip(reason)
    return REDIS_URL


@pytest.fixture
def cluster_db(postgres_url: str) -> Iterator[str]:
    """A migrated throw-away PostgreSQL database (several processes need PostgreSQL)."""
    with postgres_database(postgres_url) as url:
        upgrade(url)
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def play_db_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A migrated database for a live server: an SQLite file, or a throw-away PostgreSQL
    database (created for the test and dropped afterwards)."""
    if request.param == "sqlite":
        yield request.getfixturevalue("migrated_db_url")
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        upgrade(url)
        yield url


@pytest.fixture
def play_server(play_db_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A real uvicorn server on ``play_db_url``: (base URL, database URL)."""
    with uvicorn_subprocess(play_db_url, tmp_path / "uvicorn.log") as base_url:
        yield base_url, play_db_url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_db(request: pytest.FixtureRequest) -> Iterator[TestDatabase]:
    """A migrated database: SQLite, or a throw-away schema of the test PostgreSQL."""
    if request.param == "sqlite":
        yield TestDatabase(request.getfixturevalue("migrated_db_url"))
        return
    with postgres_schema(request.getfixturevalue("postgres_url")) as database:
        yield database


Person = Callable[..., httpx.Client]


@pytest.fixture
def person(module_server: LiveServer) -> Iterator[Person]:
    """Make clients, each with its own cookies: logged in as a guest with ``name``, or
    logged out with ``name=None``."""
    clients: list[httpx.Client] = []

    def make(name: str | None = "Gast") -> httpx.Client:
        client = httpx.Client(base_url=module_server.base_url, timeout=15)
        clients.append(client)
        if name is not None:
            response = client.post("/api/guest", json={"display_name": name})
            assert response.status_code == 201, response.text
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def guest(person: Person) -> Guest:
    """Make logged-in guest clients by name (``person`` with a name), each with its own
    cookie jar."""
    return person


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """A local push service for Web Push tests (:func:`tests.support.local_push_service`)."""
    with local_push_service() as service:
        yield service
