"""The FastAPI application: :func:`create_app` and the module-level ``app`` for uvicorn.

``uvicorn server.api.app:app`` serves the app configured from the environment
(:class:`server.settings.Settings`). On start-up the app checks that the database is
reachable and migrated to the head revision and refuses to start otherwise: it never
creates tables itself (run ``make migrate`` or ``alembic upgrade head``).
"""

from __future__ import annotations

import gc
import logging
import mimetypes
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import jinja2
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.ext.asyncio import AsyncEngine

from server import __version__, metrics
from server.api import (
    archive_pages,
    auth,
    health,
    history,
    holidays,
    monitoring,
    notifications,
    pages,
    preferences,
    rooms,
    table_page,
    turns,
    ws,
)
from server.api.errors import install_error_handlers
from server.api.heap import HeapKeeper
from server.api.i18n import load_catalogs
from server.api.limits import BodyLimit, quiet_bad_frames
from server.api.monitoring import SocketCounter
from server.api.runtime import Runtime
from server.api.security import docs_urls, install_security, quiet_refused_handshakes
from server.clock import make_clock
from server.notify.job import Notifier
from server.settings import Settings, SettingsError, get_settings
from server.shared_limits import SharedLimits, limits_prefix
from server.store.db import (
    DatabaseNotReadyError,
    alembic_config,
    head_revision,
    known_revisions,
    make_engine,
    make_session_factory,
    require_database_at_head,
)
from server.tables.cluster import Cluster
from server.tables.computers import Thinker
from server.tables.deadlines import Deadlines
from server.tables.manager import SOCKETS_PER_USER, TableManager

logger = logging.getLogger(__name__)


def configure_logging() -> None:
    """Send the server's own log lines (recovery, refusals) to stderr beside uvicorn's."""
    root = logging.getLogger("server")
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)


_REPO_ROOT = Path(__file__).resolve().parents[2]

#: Allocations between two collections of the youngest generation (CPython's default: 700).
GC_YOUNG_THRESHOLD = 10_000


def settle_garbage_collector() -> None:
    """Once the server is up: move everything allocated so far (the frameworks, the
    recovered tables) out of the garbage collector's sight, and collect the young
    generation less often.

    The server allocates a few short-lived dicts and lists for every message; with
    CPython's defaults that meant a collection every few actions and, every so often, a
    full one walking the hundreds of thousands of objects of the imported frameworks. What
    is frozen is never freed (it lives as long as the process anyway); cycles created later
    are still collected. Measured under load: about 15 % less CPU per action
    (docs/benchmarks.md, "WebSocket load").
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


#: Media types of static files that the platform's ``mimetypes`` table may lack or spell
#: otherwise (it is read from /etc/mime.types where present): the icon and the web app
#: manifest that lets a phone put the table on its home screen.
STATIC_MEDIA_TYPES = {
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}


def register_media_types() -> None:
    """Make :class:`StaticFiles` send :data:`STATIC_MEDIA_TYPES` on every platform."""
    for suffix, media_type in STATIC_MEDIA_TYPES.items():
        mimetypes.add_type(media_type, suffix)


def find_web_dir() -> Path:
    """Locate ``web/`` (templates and static files): the source checkout, then the cwd."""
    for candidate in (_REPO_ROOT / "web", Path.cwd() / "web"):
        if (candidate / "templates").is_dir():
            return candidate
    raise FileNotFoundError(f"web/templates not found under {_REPO_ROOT} or {Path.cwd()}")


def make_templates(web_dir: Path) -> Jinja2Templates:
    """Return the Jinja2 templates of ``web_dir``, with autoescaping always on."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(web_dir / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return Jinja2Templates(env=env)


def make_cluster(settings: Settings, engine: AsyncEngine) -> Cluster | None:
    """This process as a node of several (``STAMMTISCH_REDIS_URL``), or None: one process.
    Several processes need PostgreSQL (they share its advisory locks)."""
    if not settings.clustered:
        return None
    if engine.dialect.name != "postgresql":
        raise SettingsError(
            "STAMMTISCH_REDIS_URL (several server processes) needs DATABASE_URL to name a "
            f"PostgreSQL database, not {engine.dialect.name}"
        )
    return Cluster(settings.redis_url, engine, settings.node_name)


def create_app(
    settings: Settings | None = None, *, check_database_on_startup: bool = True
) -> FastAPI:
    """Build the app for ``settings`` (default: from the environment).

    The database engine is created here (no connection yet) and disposed on shutdown.
    With ``check_database_on_startup`` (the default, and the only sane choice outside
    tests) the lifespan raises :class:`DatabaseNotReadyError` unless the database is at
    the head revision, so uvicorn exits with a message naming the fix.
    """
    configure_logging()
    settings = settings or get_settings()
    metrics.PROCESS.set_node(settings.node, __version__)
    config = alembic_config(settings.database_url)
    engine = make_engine(settings.database_url)
    web_dir = find_web_dir()
    runtime = Runtime(
        settings=settings,
        engine=engine,
        sessions=make_session_factory(engine),
        head_revision=head_revision(config),
        known_revisions=known_revisions(config),
        web_dir=web_dir,
        templates=make_templates(web_dir),
        catalogs=load_catalogs(web_dir / "locale"),
        clock=make_clock(settings.clock_file),
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        keeper: HeapKeeper | None = None
        notifier: Notifier | None = None
        # Several processes: the limits they share, in Redis (a test may put its own here).
        shared: SharedLimits | None = getattr(_app.state, "shared_limits", None)
        if shared is None and settings.clustered:
            prefix = limits_prefix(engine.url.database)  # beside the cluster's keys
            shared = SharedLimits(settings.redis_url, prefix, socket_limit=SOCKETS_PER_USER)
        try:
            if shared is not None:
                _app.state.shared_limits = shared
                shared.start()
            if check_database_on_startup:
                try:
                    status = await require_database_at_head(
                        engine,
                        head=runtime.head_revision,
                        known=runtime.known_revisions,
                        timeout=settings.db_check_timeout,
                    )
                except DatabaseNotReadyError as exc:
                    logger.error("Stammtisch refuses to start: %s", exc)
                    raise
                logger.info(
                    "Database (%s) is at revision %s; Stammtisch %s is ready.",
                    status.url_scheme,
                    status.revision,
                    __version__,
                )
                tables = TableManager(
                    runtime.sessions,
                    thinker=Thinker(settings.computer_processes or None),
                    cluster=make_cluster(settings, engine),
                    clock=runtime.clock,
                )
                tables.shared_sockets = None if shared is None else shared.sockets
                await tables.start()  # recovers every running match
                _app.state.tables = tables
                # correspondence deadlines that pass (server/tables/deadlines.py)
                deadlines = Deadlines(tables, runtime.clock, settings.deadline_poll)
                deadlines.start()
                _app.state.deadlines = deadlines
                # the tables it serves are the ones it owns (with several processes, the
                # others' are reached through them and are not in ``tables.tables``)
                metrics.PROCESS.follow_tables(lambda: len(tables.tables))
                # Web Push and the e-mail digest of correspondence turns (server/notify/)
                notifier = await notifications.start_notifier(_app, runtime, tables)
            if settings.gc_freeze:
                # All that is allocated so far (the frameworks, the recovered tables) is
                # long-lived: frozen now, and the heap again whenever it has grown
                # (server/api/heap.py says when, and why that freezes no garbage).
                settle_garbage_collector()
                keeper = HeapKeeper()
                keeper.start()
            yield
        finally:
            if keeper is not None:
                await keeper.stop()
            if hasattr(_app.state, "deadlines"):
                await _app.state.deadlines.stop()
                del _app.state.deadlines
            if notifier is not None:
                await notifier.stop()
            if hasattr(_app.state, "tables"):
                metrics.PROCESS.follow_tables(None)
                await _app.state.tables.stop()
                del _app.state.tables
            if shared is not None:
                await shared.stop()
            await engine.dispose()

    app = FastAPI(title="Stammtisch", version=__version__, lifespan=lifespan, **docs_urls(settings))
    app.state.runtime = runtime
    register_media_types()
    app.mount("/static", StaticFiles(directory=web_dir / "static"), name="static")
    app.include_router(pages.router)
    app.include_router(table_page.router)
    app.include_router(archive_pages.router)
    app.include_router(health.router)
    app.include_router(monitoring.router)
    app.include_router(auth.router)
    app.include_router(preferences.router)
    app.include_router(turns.router)
    app.include_router(rooms.router)
    app.include_router(holidays.router)
    app.include_router(history.router)
    app.include_router(notifications.router)
    install_error_handlers(app)
    app.include_router(ws.router)
    app.add_middleware(BodyLimit, routes={history.RECORD_UPLOAD: history.RECORD_LIMIT})
    app.add_middleware(SocketCounter)  # stammtisch_sockets (inside the origin check)
    quiet_bad_frames()  # a client's frame that is not UTF-8: one log line, no traceback
    quiet_refused_handshakes()  # a refused handshake: our warning line, not uvicorn's error
    install_security(app, settings)  # origin checks and security headers, outermost
    return app


app = create_app()
