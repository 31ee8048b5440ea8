"""What a running app holds on to (settings, database engine, migration head).

Routes reach it through the :func:`get_runtime` dependency instead of poking at
``app.state`` themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fastapi.templating import Jinja2Templates
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from server.api.i18n import Catalogs
from server.clock import Clock, SystemClock
from server.settings import Settings


@dataclass(frozen=True, slots=True)
class Runtime:
    """The per-app resources created by :func:`server.api.app.create_app`."""

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    head_revision: str
    known_revisions: frozenset[str]
    web_dir: Path
    templates: Jinja2Templates
    catalogs: Catalogs
    #: the wall clock of deadlines, reminders and digests (tests may run it ahead)
    clock: Clock = field(default_factory=SystemClock)


def get_runtime(request: HTTPConnection) -> Runtime:
    """FastAPI dependency: the :class:`Runtime` of the app serving ``request``.

    Works for HTTP requests and WebSocket connections alike.
    """
    runtime: Runtime = request.app.state.runtime
    return runtime
