"""Helpers for the server-level tests: migrations, free ports and live uvicorn servers.

Reusable from any test module (``from tests.support import ...``); the fixtures in
``tests/conftest.py`` are thin wrappers around these.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.pool import NullPool

from server.__main__ import APP
from server.api.limits import UVICORN_OPTIONS
from server.settings import DEFAULT_PUSH_HOSTS
from server.store.db import (
    DatabaseStatus,
    alembic_config,
    check_database,
    head_revision,
    make_engine,
    make_session_factory,
)
from server.store.errors import StoreError

REPO_ROOT = Path(__file__).resolve().parents[1]

#: The PostgreSQL used by the tests marked ``postgres`` (skipped when unreachable).
POSTGRES_URL = os.environ.get(
    "STAMMTISCH_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
#: The test Redis (several processes): ``STAMMTISCH_TEST_REDIS_URL``, default the machine's.
REDIS_URL = os.environ.get("STAMMTISCH_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


#: The push services test servers send to (STAMMTISCH_PUSH_HOSTS): the browsers' and the
#: tests' own on this machine.
TEST_PUSH_HOSTS = ",".join((*DEFAULT_PUSH_HOSTS, "127.0.0.1", "localhost", "::1"))

#: Makes logged-in guest clients by name (the ``guest`` fixture of tests/conftest.py).
Guest = Callable[[str], httpx.Client]


def sqlite_url(path: Path) -> str:
    """Return the async SQLAlchemy URL of the SQLite file at ``path``."""
    return f"sqlite+aiosqlite:///{path}"


def quiet_alembic_config(database_url: str) -> Config:
    """Alembic config for ``database_url`` that leaves pytest's logging alone."""
    config = alembic_config(database_url)
    config.attributes["configure_logger"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Run ``alembic upgrade`` on ``database_url`` (call from sync code only)."""
    command.upgrade(quiet_alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    """Run ``alembic downgrade`` on ``database_url`` (call from sync code only)."""
    command.downgrade(quiet_alembic_config(database_url), revision)


def database_status(database_url: str, timeout: float = 5.0) -> DatabaseStatus:
    """Run :func:`check_database` on a throw-away engine for ``database_url``."""

    async def check() -> DatabaseStatus:
        engine = make_engine(database_url)
        try:
            return await check_database(engine, head=head_revision(), timeout=timeout)
        finally:
            await engine.dispose()

    return asyncio.run(check())


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def closed_port() -> int:
    """Return a port on 127.0.0.1 on which nothing listens (connections are refused)."""
    return free_port()


def wait_until_up(base_url: str, process: subprocess.Popen[bytes] | None, timeout: float) -> None:
    """Poll ``base_url``/healthz until it answers at all; fail if ``process`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with code {process.returncode} before answering")
        try:
            httpx.get(f"{base_url}/healthz", timeout=1.0)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise TimeoutError(f"{base_url} did not answer within {timeout} s")


def launcher_args(app: str, cwd: Path = REPO_ROOT) -> list[str]:
    """``python -m`` arguments that serve ``app`` from ``cwd``: the server as ``make run``
    starts it (``python -m server``, in a checkout that has it), any other app with
    ``uvicorn`` and the same flags (an older checkout without ``python -m server`` gets
    the flags that name nothing of this checkout: no HTTP protocol of ours)."""
    if app == APP and (cwd / "server" / "__main__.py").exists():
        return ["server"]
    options = list(UVICORN_OPTIONS)
    if cwd != REPO_ROOT and "--http" in options:
        at = options.index("--http")
        del options[at : at + 2]
    return ["uvicorn", app, *options]


@contextmanager
def server_process(
    database_url: str | None,
    log_path: Path,
    *extra_args: str,
    timeout: float = 30.0,
    port: int | None = None,
    app: str = APP,
    cwd: Path = REPO_ROOT,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Serve ``app`` on a free port (or ``port``, to restart a server where its clients
    expect it): the server as ``make run`` starts it (``python -m server``, uvicorn with
    :data:`~server.api.limits.UVICORN_OPTIONS`), any other app (the load benchmark also
    serves its baseline and older checkouts, from ``cwd``) with ``python -m uvicorn`` and
    the same options; ``extra_args`` are uvicorn's and come last (a later flag wins). Yield
    its URL and the process (which the caller may kill, as in a crash). ``env``: more
    environment variables for the server.

    Its output goes to ``log_path`` (appended), which the error messages point at.
    """
    port = port or free_port()
    env = {**os.environ, **(env or {})}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    # The server accepts browsers (Origin) from its own address only.
    env["STAMMTISCH_PUBLIC_ORIGINS"] = f"http://127.0.0.1:{port},http://localhost:{port}"
    # the tests' push services listen on this machine (tests/support.local_push_service)
    env.setdefault("STAMMTISCH_PUSH_HOSTS", TEST_PUSH_HOSTS)
    launcher = launcher_args(app, cwd)
    command_line = [
        sys.executable, "-m", *launcher,
        "--host", "127.0.0.1", "--port", str(port), *extra_args,
    ]  # fmt: skip
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            command_line, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            try:
                wait_until_up(f"http://127.0.0.1:{port}", process, timeout)
            except (RuntimeError, TimeoutError) as exc:
                raise RuntimeError(f"{exc}; log:\n{log_path.read_text()}") from exc
            yield f"http://127.0.0.1:{port}", process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
            process.wait()


@contextmanager
def uvicorn_subprocess(database_url: str, log_path: Path, timeout: float = 30.0) -> Iterator[str]:
    """Serve the app on ``database_url`` in a subprocess (see :func:`server_process`); yield
    its URL."""
    with server_process(database_url, log_path, timeout=timeout) as (url, _process):
        yield url


@contextmanager
def uvicorn_thread(app: FastAPI, timeout: float = 30.0) -> Iterator[str]:
    """Serve ``app`` (an app object, e.g. from ``create_app``) in a thread; yield its URL.

    Binds port 0, so there is no race for the port.
    """
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-test", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + timeout
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn stopped before it started (see the log above)")
            if time.monotonic() > deadline:
                raise TimeoutError("uvicorn did not start in time")
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


# --------------------------------------------------------------------------- store tests

T = TypeVar("T")


@dataclass(frozen=True)
class TestDatabase:
    """A migrated database for store tests: its URL and the engine arguments it needs."""

    __test__ = False  # not a test class, despite the name

    url: str
    engine_kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.url.split("+", 1)[0].split(":", 1)[0]

    def make_engine(self) -> AsyncEngine:
        """A new engine on this database (dispose it when done)."""
        return make_engine(self.url, **self.engine_kwargs)


def run_with_sessions(
    database: TestDatabase, scenario: Callable[[async_sessionmaker[AsyncSession]], Awaitable[T]]
) -> T:
    """Run ``scenario(sessions)`` on a fresh engine for ``database`` (from sync code)."""

    async def main() -> T:
        engine = database.make_engine()
        try:
            return await scenario(make_session_factory(engine))
        finally:
            await engine.dispose()

    return asyncio.run(main())


def schema_engine_kwargs(schema: str) -> dict[str, Any]:
    """asyncpg connect arguments that put every connection into ``schema``."""
    return {"connect_args": {"server_settings": {"search_path": schema}}}


@contextmanager
def postgres_schema(postgres_url: str, *, migrate: bool = True) -> Iterator[TestDatabase]:
    """A throw-away schema in the test PostgreSQL (migrated to head); dropped afterwards.

    Every connection of the yielded database uses the schema as its ``search_path``, so
    tests never touch ``public`` nor each other's schemas.
    """
    schema = f"stammtisch_test_{secrets.token_hex(6)}"
    database = TestDatabase(postgres_url, schema_engine_kwargs(schema))

    async def admin(statement: str) -> None:
        engine = make_engine(postgres_url, poolclass=NullPool)
        try:
            async with engine.begin() as connection:
                await connection.execute(text(statement))
        finally:
            await engine.dispose()

    async def upgrade_schema() -> None:
        config = quiet_alembic_config(postgres_url)

        def run(connection: Connection) -> None:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

        engine = make_engine(postgres_url, poolclass=NullPool, **database.engine_kwargs)
        try:
            async with engine.connect() as connection:
                await connection.run_sync(run)
                await connection.commit()
        finally:
            await engine.dispose()

    asyncio.run(admin(f'CREATE SCHEMA "{schema}"'))
    try:
        if migrate:
            asyncio.run(upgrade_schema())
        yield database
    finally:
        asyncio.run(admin(f'DROP SCHEMA "{schema}" CASCADE'))


@dataclass(frozen=True)
class LiveServer:
    """A running uvicorn subprocess: its base URL and the SQLite file it serves from."""

    base_url: str
    database_path: Path


@contextmanager
def postgres_database(postgres_url: str) -> Iterator[str]:
    """A throw-away database on the test PostgreSQL server (for a live server, which takes
    only a URL); dropped afterwards, even if connections are left."""
    name = f"stammtisch_test_{secrets.token_hex(6)}"

    async def admin(statement: str) -> None:
        engine = make_engine(postgres_url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as connection:
                await connection.execute(text(statement))
        finally:
            await engine.dispose()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def api_error(response: httpx.Response, status: int, code: str) -> dict[str, str]:
    """Assert that ``response`` is the API's error shape with ``status`` and ``code``."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "message_de"}
    assert body["error"]["code"] == code, body
    detail: dict[str, str] = body["error"]
    return detail


@contextmanager
def store_refused(kind: type[StoreError], code: str) -> Iterator[None]:
    """Assert that the block raises the store refusal ``kind`` with ``code`` and both texts."""
    with pytest.raises(kind) as raised:
        yield
    assert raised.value.code == code
    assert raised.value.message and raised.value.message_de
    assert raised.value.message != raised.value.message_de  # really translated


def run_bench(command: list[str], timeout: float) -> dict[str, Any]:
    """Run a benchmark script (``bench/…`` with ``--json``) from the repository's root and
    return its JSON report (its last line of output); fail with its error output when it
    fails. It runs in a session of its own: if it hangs past ``timeout`` seconds, its
    servers and client processes are killed with it."""
    bench = subprocess.Popen(
        command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        stdout, stderr = bench.communicate(timeout=timeout)
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.communicate()
    assert bench.returncode == 0, stderr[-4000:]
    report: dict[str, Any] = json.loads(stdout.splitlines()[-1])
    return report


# --------------------------------------------------------------------------- Web Push


@dataclass
class PushRequest:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1: records every request; ``/gone/…`` answers 410."""

    server: ThreadingHTTPServer
    requests: list[PushRequest] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def to(self, path: str) -> list[PushRequest]:
        return [r for r in list(self.requests) if r.path == path]


@contextmanager
def local_push_service() -> Iterator[PushService]:
    """A push service on 127.0.0.1 (a thread) for the tests' Web Push: records every request
    it is sent; ``/gone/…`` answers 410, everything else 201."""
    received: list[PushRequest] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            received.append(PushRequest(self.path, headers, body))
            self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield PushService(server, received)
    finally:
        server.shutdown()
        server.server_close()
