"""Async engine and session set-up, and the check whether the database is migrated.

SQLite (``sqlite+aiosqlite://``) is the embedded default; PostgreSQL
(``postgresql+asyncpg://``) is the production database. On SQLite every connection
switches on WAL journaling and foreign keys.

The schema belongs to Alembic: :func:`check_database` compares the revision stamped
in the database with the head revision of ``migrations/`` and :func:`require_database_at_head`
refuses to go on when they differ. Nothing here creates tables.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

#: The commands that bring a database to the head revision, as named in error messages.
MIGRATE_HINT = "`make migrate` (or `alembic upgrade head`)"

_REPO_ROOT = Path(__file__).resolve().parents[2]


def url_scheme(url: str) -> str:
    """Return the database backend of ``url`` without credentials, e.g. ``"sqlite"``."""
    return make_url(url).get_backend_name()


def make_engine(url: str, **engine_kwargs: Any) -> AsyncEngine:
    """Create the async engine for ``url``; extra keyword arguments go to SQLAlchemy.

    On SQLite each new connection gets ``journal_mode=WAL`` (except in-memory databases),
    ``foreign_keys=ON`` and a busy timeout, so that readers never block the one writer.
    """
    engine_kwargs.setdefault("pool_pre_ping", True)
    engine = create_async_engine(url, **engine_kwargs)
    quiet_lost_connections(engine.sync_engine.pool)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
    return engine


class OneLineForLostConnections(logging.Filter):
    """The pool's ERROR with a traceback when it resets or closes a connection the
    database has already dropped ("Exception during reset or similar", "Exception
    closing connection …") becomes one WARNING line naming the error: the connection is
    replaced and the work retried (``server.tables.writer``), so nothing is wrong that an
    operator must act on, and nobody can fill the error log by cutting connections."""

    PREFIXES = ("Exception during reset", "Exception closing connection",
                "Exception terminating connection")  # fmt: skip

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record; make it one warning line if it is about a lost connection."""
        message = str(record.msg)
        if record.exc_info and message.startswith(self.PREFIXES):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}".strip()
            record.args = None
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_lost_connections(pool: Any) -> None:
    """Install :class:`OneLineForLostConnections` on ``pool``'s log (once)."""
    log = getattr(pool.logger, "logger", pool.logger)  # an echoing pool wraps its logger
    if not any(isinstance(f, OneLineForLostConnections) for f in log.filters):
        log.addFilter(OneLineForLostConnections())


def _sqlite_on_connect(dbapi_connection: Any, _connection_record: Any) -> None:
    configure_sqlite(dbapi_connection)


def configure_sqlite(dbapi_connection: Any) -> None:
    """Switch on foreign keys, a busy timeout, WAL and ``synchronous=NORMAL`` for one
    SQLite connection (every connection of the engine, and the action log's own one)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit is durable once written to the WAL (it survives a crash of
        # the server process); only an OS crash or power cut can lose the last commits.
        # FULL would fsync every commit, several times slower for the action log.
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def sqlite_file(url: str) -> str | None:
    """The file of a file-based SQLite URL (``None`` for other databases and in-memory
    SQLite, whose connections do not share one database)."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:") or parsed.query.get("mode") == "memory":
        return None
    return database


def make_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Return the session factory the rest of the server uses for units of work."""
    return async_sessionmaker(engine, expire_on_commit=False)


def ensure_sqlite_directory(url: str) -> None:
    """Create the parent directory of a file-based SQLite database, if it is missing."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return
    if database.startswith("file:"):
        return
    Path(database).parent.mkdir(parents=True, exist_ok=True)


# --------------------------------------------------------------------------- Alembic


def find_alembic_ini() -> Path:
    """Locate ``alembic.ini``: ``$ALEMBIC_CONFIG``, the source checkout, then the cwd."""
    candidates = []
    if os.environ.get("ALEMBIC_CONFIG"):
        candidates.append(Path(os.environ["ALEMBIC_CONFIG"]))
    candidates += [_REPO_ROOT / "alembic.ini", Path.cwd() / "alembic.ini"]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"alembic.ini not found (tried {tried}); set ALEMBIC_CONFIG")


def alembic_config(database_url: str | None = None) -> Config:
    """Return the Alembic configuration, optionally pointed at ``database_url``.

    Without ``database_url`` the migrations use ``DATABASE_URL`` from the settings,
    exactly as the ``alembic`` command line does.
    """
    config = Config(str(find_alembic_ini()))
    if database_url is not None:
        # ConfigParser interpolation: a literal '%' (e.g. in a password) must be doubled.
        config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def head_revision(config: Config | None = None) -> str:
    """Return the head revision of ``migrations/`` (there must be exactly one head)."""
    script = ScriptDirectory.from_config(config or alembic_config())
    head = script.get_current_head()
    if head is None:
        raise RuntimeError("migrations/ contains no revision")
    return head


def known_revisions(config: Config | None = None) -> frozenset[str]:
    """Return every revision id that ``migrations/`` knows."""
    script = ScriptDirectory.from_config(config or alembic_config())
    return frozenset(rev.revision for rev in script.walk_revisions())


def _read_revision(connection: Connection) -> str | None:
    heads = MigrationContext.configure(connection).get_current_heads()
    return ",".join(sorted(heads)) or None


# --------------------------------------------------------------------------- status


@dataclass(frozen=True, slots=True)
class DatabaseStatus:
    """What :func:`check_database` found out about the database."""

    reachable: bool
    revision: str | None
    head: str
    url_scheme: str
    error: str | None = None
    #: False when the stamped revision is unknown to this code (migrated by a newer release).
    revision_known: bool = True

    @property
    def ok(self) -> bool:
        """True when the database answers and its schema is at the head revision."""
        return self.reachable and self.revision == self.head

    def problem(self) -> str | None:
        """Describe what is wrong and how to fix it, or return None when all is well."""
        if not self.reachable:
            return (
                f"The {self.url_scheme} database is not reachable ({self.error}). "
                f"Check DATABASE_URL, then run {MIGRATE_HINT}."
            )
        if self.revision is None:
            return (
                f"The {self.url_scheme} database is not migrated (no schema revision; "
                f"this code needs {self.head}). Run {MIGRATE_HINT} first."
            )
        if not self.revision_known:
            return (
                f"The {self.url_scheme} database is at revision {self.revision}, which this "
                f"code does not know (it needs {self.head}); was it migrated by a newer "
                "release of Stammtisch?"
            )
        if self.revision != self.head:
            return (
                f"The {self.url_scheme} database is at revision {self.revision} but this "
                f"code needs {self.head}. Run {MIGRATE_HINT}."
            )
        return None


class DatabaseNotReadyError(RuntimeError):
    """The database is unreachable or not migrated to the head revision."""

    def __init__(self, status: DatabaseStatus) -> None:
        super().__init__(status.problem() or "database not ready")
        self.status = status


async def check_database(
    engine: AsyncEngine,
    *,
    head: str,
    known: frozenset[str] = frozenset(),
    timeout: float = 5.0,
) -> DatabaseStatus:
    """Connect to the database and compare its Alembic revision with ``head``.

    Never raises for database trouble: an unreachable database (refused, unknown host,
    wrong credentials, or slower than ``timeout`` seconds) gives ``reachable=False``.
    ``known`` is the set of revisions of this code; when given, a stamped revision
    outside it is reported as unknown.
    """
    scheme = engine.dialect.name
    try:
        async with asyncio.timeout(timeout), engine.connect() as connection:
            revision = await connection.run_sync(_read_revision)
    except Exception as exc:  # any driver or network failure means "not reachable"
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        error = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
        return DatabaseStatus(False, None, head, scheme, error=error)
    revision_known = revision is None or not known or revision in known
    return DatabaseStatus(True, revision, head, scheme, revision_known=revision_known)


async def require_database_at_head(
    engine: AsyncEngine, *, head: str, known: frozenset[str] = frozenset(), timeout: float = 5.0
) -> DatabaseStatus:
    """Return the status when the database is at ``head``, else raise DatabaseNotReadyError."""
    status = await check_database(engine, head=head, known=known, timeout=timeout)
    if not status.ok:
        raise DatabaseNotReadyError(status)
    return status
