"""``/healthz`` as the readiness of one of several processes: with ``STAMMTISCH_REDIS_URL``
set it names the database and Redis, each with its state, and answers 503 when either is
out of reach; without Redis its answer is what it always was.

Against the real servers: the test PostgreSQL (a throw-away database, migrated) and the
Redis server at ``STAMMTISCH_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``; the
tests are skipped with the reason when it does not answer, and fail under
``STAMMTISCH_REQUIRE_REDIS``, as CI sets it); "down" is a port nobody listens on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server import __version__
from server.api.app import create_app
from server.api.health import check_redis
from server.settings import Settings
from tests.support import closed_port, postgres_database, upgrade, uvicorn_thread

pytestmark = pytest.mark.live_server


@pytest.fixture(scope="module")
def migrated_postgres(postgres_url: str) -> Iterator[str]:
    """A throw-away PostgreSQL database at the head revision, for the module."""
    with postgres_database(postgres_url) as url:
        upgrade(url)
        yield url


def down_redis() -> str:
    return f"redis://127.0.0.1:{closed_port()}/0"


def down_postgres() -> str:
    return f"postgresql+asyncpg://postgres@127.0.0.1:{closed_port()}/test"


def healthz(settings: Settings) -> tuple[int, dict[str, Any]]:
    """The status and body of ``/healthz`` of an app with ``settings``, served for real."""
    app = create_app(settings, check_database_on_startup=False)
    with uvicorn_thread(app) as base_url:
        response = httpx.get(f"{base_url}/healthz", timeout=30)
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    return response.status_code, body


def test_check_redis_up_and_down(redis_url: str) -> None:
    up = asyncio.run(check_redis(redis_url))
    assert up.ok and up.error is None
    down = asyncio.run(check_redis(down_redis()))
    assert not down.ok
    assert down.error == "ConnectionError"


def test_ready_when_postgres_and_redis_answer(migrated_postgres: str, redis_url: str) -> None:
    settings = Settings(database_url=migrated_postgres, redis_url=redis_url, node_name="app-7")
    status, body = healthz(settings)
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["version"] == __version__
    assert body["node"] == "app-7"
    assert body["database"]["ok"] is True and body["database"]["url_scheme"] == "postgresql"
    assert body["redis"] == {"ok": True, "error": None}


def test_not_ready_when_redis_is_down(migrated_postgres: str) -> None:
    settings = Settings(database_url=migrated_postgres, redis_url=down_redis(), node_name="b")
    status, body = healthz(settings)
    assert status == 503, body
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True  # the database is fine: Redis is what is missing
    assert body["redis"] == {"ok": False, "error": "ConnectionError"}
    assert str(settings.redis_url) not in str(body)  # no address in the answer


def test_not_ready_when_postgres_is_down(redis_url: str) -> None:
    settings = Settings(database_url=down_postgres(), redis_url=redis_url, node_name="c")
    status, body = healthz(settings)
    assert status == 503, body
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is False and body["database"]["reachable"] is False
    assert body["redis"] == {"ok": True, "error": None}


def test_not_ready_when_both_are_down() -> None:
    settings = Settings(database_url=down_postgres(), redis_url=down_redis())
    status, body = healthz(settings)
    assert status == 503, body
    assert body["database"]["reachable"] is False
    assert body["redis"]["ok"] is False
    assert body["node"] == settings.node and body["node"]  # host name and process id


def test_without_redis_the_report_is_as_before(migrated_postgres: str) -> None:
    status, body = healthz(Settings(database_url=migrated_postgres))
    assert status == 200, body
    assert set(body) == {"status", "version", "database"}
    assert set(body["database"]) == {"ok", "reachable", "revision", "head", "url_scheme", "error"}
    status, body = healthz(Settings(database_url=down_postgres()))
    assert status == 503
    assert set(body) == {"status", "version", "database"}
