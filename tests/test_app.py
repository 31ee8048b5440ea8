"""The FastAPI app against real databases and a real uvicorn server (no mocks)."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from server import __version__
from server.api.app import create_app, make_templates
from server.engine.registry import list_games
from server.settings import Settings
from server.store.db import DatabaseNotReadyError, head_revision
from tests.support import REPO_ROOT, closed_port, sqlite_url, uvicorn_thread


def start_and_stop(settings: Settings) -> None:
    """Run the app's lifespan (start-up, then shutdown) as uvicorn would."""
    app = create_app(settings)

    async def lifespan() -> None:
        async with app.router.lifespan_context(app):
            pass

    asyncio.run(lifespan())


# --------------------------------------------------------------------------- start-up


def test_app_refuses_to_start_on_unmigrated_database(sqlite_db_url: str) -> None:
    with pytest.raises(DatabaseNotReadyError) as raised:
        start_and_stop(Settings(database_url=sqlite_db_url))
    message = str(raised.value)
    assert "make migrate" in message
    assert "alembic upgrade head" in message
    assert raised.value.status.reachable
    assert raised.value.status.revision is None
    # It must not have created any table behind Alembic's back.
    path = sqlite_db_url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall() == []


def test_app_refuses_to_start_when_database_unreachable() -> None:
    url = f"postgresql+asyncpg://stammtisch@127.0.0.1:{closed_port()}/nothing"
    with pytest.raises(DatabaseNotReadyError) as raised:
        start_and_stop(Settings(database_url=url, db_check_timeout=5))
    assert not raised.value.status.reachable
    assert "not reachable" in str(raised.value)
    assert "make migrate" in str(raised.value)


def test_app_starts_on_migrated_database(migrated_db_url: str) -> None:
    start_and_stop(Settings(database_url=migrated_db_url))


@pytest.mark.live_server
def test_uvicorn_exits_with_the_fix_on_unmigrated_database(sqlite_db_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": sqlite_db_url}
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
    assert "make migrate" in result.stderr
    assert "alembic upgrade head" in result.stderr


# --------------------------------------------------------------------------- live server


@pytest.mark.live_server
def test_healthz_on_live_server(live_server: str) -> None:
    response = httpx.get(f"{live_server}/healthz", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["status"] == "ok"
    assert body["version"] == __version__
    database = body["database"]
    assert database["ok"] is True
    assert database["reachable"] is True
    assert database["revision"] == database["head"] == head_revision()
    assert database["url_scheme"] == "sqlite"
    assert database["error"] is None


@pytest.mark.live_server
def test_start_page_on_live_server(live_server: str) -> None:
    response = httpx.get(f"{live_server}/", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert '<html lang="de">' in html
    assert 'name="viewport"' in html
    assert "Dreierles" in html
    assert "Doppelkopf" in html
    for game in list_games():
        assert game.title in html
        assert game.summary_de in html
        item = re.search(rf'<li class="game (\w+)" id="spiel-{re.escape(game.name)}">', html)
        assert item is not None, game.name
        assert item.group(1) == ("ready" if game.implemented else "coming"), game.name
    if any(not game.implemented for game in list_games()):
        assert "in Arbeit" in html
    else:  # no section for games in the works when there are none
        assert 'aria-labelledby="coming"' not in html and '<h2 id="coming">' not in html
    # One language a page: no English summaries under the German ones, and the other way.
    for game in list_games():
        if game.summary_en != game.summary_de:
            assert game.summary_en not in html, game.name
    intro = re.search(r'<section class="intro">(.*?)</section>', html, re.S)
    assert intro is not None
    for game in list_games():  # the intro names the games one can play, and only those
        assert (game.title in intro.group(1)) == game.implemented, game.name
    english = httpx.get(f"{live_server}/?lang=en", timeout=10).text
    for game in list_games():
        assert game.summary_en in english
        if game.summary_en != game.summary_de:
            assert game.summary_de not in english, game.name

    css = httpx.get(f"{live_server}/static/stammtisch.css", timeout=10)
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")


# --------------------------------------------------------------------------- degraded


@pytest.mark.live_server
def test_healthz_is_503_when_database_unreachable() -> None:
    url = f"postgresql+asyncpg://stammtisch@127.0.0.1:{closed_port()}/nothing"
    app = create_app(Settings(database_url=url), check_database_on_startup=False)
    with uvicorn_thread(app) as base_url:
        response = httpx.get(f"{base_url}/healthz", timeout=15)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["version"] == __version__
    assert body["database"]["ok"] is False
    assert body["database"]["reachable"] is False
    assert body["database"]["url_scheme"] == "postgresql"
    assert body["database"]["error"]


@pytest.mark.live_server
def test_healthz_is_503_when_sqlite_file_cannot_be_opened(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "missing-directory" / "db.sqlite3")
    app = create_app(Settings(database_url=url), check_database_on_startup=False)
    with uvicorn_thread(app) as base_url:
        response = httpx.get(f"{base_url}/healthz", timeout=15)
    assert response.status_code == 503
    assert response.json()["database"]["reachable"] is False


@pytest.mark.live_server
def test_healthz_is_503_when_database_not_migrated(sqlite_db_url: str) -> None:
    app = create_app(Settings(database_url=sqlite_db_url), check_database_on_startup=False)
    with uvicorn_thread(app) as base_url:
        response = httpx.get(f"{base_url}/healthz", timeout=15)
    assert response.status_code == 503
    database = response.json()["database"]
    assert database["reachable"] is True
    assert database["revision"] is None
    assert database["head"] == head_revision()


# --------------------------------------------------------------------------- templates


def test_templates_autoescape() -> None:
    templates = make_templates(REPO_ROOT / "web")
    rendered = templates.env.from_string("<p>{{ name }}</p>").render(name="<script>x</script>")
    assert rendered == "<p>&lt;script&gt;x&lt;/script&gt;</p>"


def test_the_garbage_collector_is_settled_once_the_server_is_up() -> None:
    import gc

    from server.api.app import GC_YOUNG_THRESHOLD, settle_garbage_collector

    before = gc.get_threshold()
    try:
        settle_garbage_collector()
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, before[1], before[2])
        assert gc.get_freeze_count() > 1000  # the frameworks' objects are out of sight
        cycle: list[object] = []
        cycle.append(cycle)  # a cycle made later is still collected
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
