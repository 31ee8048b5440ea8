"""Fixtures for the browser tests: Playwright for Python driving Debian's chromium.

- ``browser``: one headless chromium per test module, started from ``CHROMIUM`` (default
  ``/usr/bin/chromium``; ``make test`` installs it with apt when it is missing). Where it is
  missing the tests are skipped with the reason, except under ``STAMMTISCH_REQUIRE_BROWSER``
  (CI), where they fail.
- ``new_person``: a function that opens a fresh browser context (its own cookies, like
  another phone) at phone size unless told otherwise; every page is closed afterwards.
- ``module_server``: tests/conftest.py's live server, with the migration run in a worker
  thread: the session-wide Playwright (set up first) keeps an event loop running in the
  main thread, where Alembic's ``asyncio.run`` would refuse to start.
- ``artifacts``: the folder for screenshots (``artifacts/browser/``, kept by CI runs and
  ignored by git).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from tests.support import REPO_ROOT, LiveServer, sqlite_url, upgrade, uvicorn_subprocess

T = TypeVar("T")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: Flags that keep chromium quiet on a machine without a display or outside network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 860}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless Debian chromium driven by Playwright, one per test module: Playwright's
    sync API keeps an event loop running in the main thread while it is open, which would
    break the ``asyncio.run`` of the non-browser tests that follow."""
    if not os.access(CHROMIUM, os.X_OK):
        reason = f"chromium not found at {CHROMIUM} (make test installs it with apt)"
        if os.environ.get("STAMMTISCH_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


def off_the_loop(function: Callable[..., T], *args: Any) -> T:
    """Call ``function(*args)`` in a worker thread and return its result: ``asyncio.run``
    (Alembic's migrations, scripted clients) refuses to start in the main thread while
    Playwright's event loop runs there."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real uvicorn server on its own migrated SQLite file, shared within a module."""
    directory = tmp_path_factory.mktemp("server")
    path = directory / "stammtisch.sqlite3"
    off_the_loop(upgrade, sqlite_url(path))
    with uvicorn_subprocess(sqlite_url(path), directory / "uvicorn.log") as base_url:
        yield LiveServer(base_url, path)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (``artifacts/browser/``)."""
    path = REPO_ROOT / "artifacts" / "browser"
    path.mkdir(parents=True, exist_ok=True)
    return path


NewPerson = Callable[..., Page]


@pytest.fixture
def new_person(browser: Browser) -> Iterator[NewPerson]:
    """Open a new person's browser (own context and cookies) on one page."""
    contexts: list[BrowserContext] = []

    def open_person(*, viewport: ViewportSize | None = None, lang: str = "de") -> Page:
        context = browser.new_context(
            viewport=viewport or PHONE, locale="de-DE" if lang == "de" else "en-GB"
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_person
    for context in contexts:
        context.close()
