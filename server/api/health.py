"""``GET /healthz``: is the server up and its database reachable and migrated?"""

from __future__ import annotations

import logging
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel

from server import __version__
from server.api.runtime import Runtime, get_runtime
from server.store.db import check_database

logger = logging.getLogger(__name__)

router = APIRouter(tags=["health"])


class DatabaseHealth(BaseModel):
    """The database part of the health report."""

    ok: bool
    reachable: bool
    revision: str | None
    head: str
    url_scheme: str
    error: str | None = None


class Health(BaseModel):
    """The health report; HTTP 200 when ``status`` is ``ok``, else 503."""

    status: Literal["ok", "degraded"]
    version: str
    database: DatabaseHealth


@router.get(
    "/healthz",
    response_model=Health,
    responses={503: {"model": Health, "description": "database unreachable or not migrated"}},
)
async def healthz(response: Response, runtime: Annotated[Runtime, Depends(get_runtime)]) -> Health:
    """Report the version and the database status (503 when the database is not usable)."""
    status = await check_database(
        runtime.engine,
        head=runtime.head_revision,
        known=runtime.known_revisions,
        timeout=runtime.settings.db_check_timeout,
    )
    if not status.ok:
        logger.warning("healthz: %s", status.problem())
        response.status_code = 503
    return Health(
        status="ok" if status.ok else "degraded",
        version=__version__,
        database=DatabaseHealth(
            ok=status.ok,
            reachable=status.reachable,
            revision=status.revision,
            head=status.head,
            url_scheme=status.url_scheme,
            # Only the exception's class: its message may name hosts or users.
            error=status.error.partition(":")[0] if status.error else None,
        ),
    )
