"""``GET /healthz``: is this process ready, i.e. does it reach what it needs?

It reports the database (reachable and migrated) and, when several processes share the
work (``STAMMTISCH_REDIS_URL`` set), the Redis server; each dependency by name with its
state. HTTP 200 when all are usable, else 503, so that a load balancer or the compose
health check takes the process out of service until it reaches them again. Without Redis
configured the report is what it always was: the database only.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from server import __version__
from server.api.runtime import Runtime, get_runtime
from server.store.db import check_database

logger = logging.getLogger(__name__)

router = APIRouter(tags=["health"])

#: Seconds the Redis check may take at most (a Redis server answers a PING in well under
#: a millisecond; one that takes longer is as good as down for forwarding table commands).
REDIS_CHECK_TIMEOUT = 2.0


class DatabaseHealth(BaseModel):
    """The database part of the health report."""

    ok: bool
    reachable: bool
    revision: str | None
    head: str
    url_scheme: str
    error: str | None = None


class RedisHealth(BaseModel):
    """The Redis part of the health report (only when Redis is configured)."""

    ok: bool
    error: str | None = None


class Health(BaseModel):
    """The health report; HTTP 200 when ``status`` is ``ok``, else 503.

    ``redis`` and ``node`` appear only when Redis is configured (several processes).
    """

    status: Literal["ok", "degraded"]
    version: str
    database: DatabaseHealth
    redis: RedisHealth | None = None
    node: str | None = None


@dataclass(frozen=True, slots=True)
class RedisStatus:
    """The outcome of :func:`check_redis`."""

    ok: bool
    #: The exception's class when it failed (never its message: it may name hosts).
    error: str | None = None


async def check_redis(url: str, timeout: float = REDIS_CHECK_TIMEOUT) -> RedisStatus:
    """Connect to the Redis server at ``url`` and PING it, once, within ``timeout`` seconds.

    Never raises for Redis trouble: refused, unknown host, wrong password or too slow
    gives ``ok=False`` with the exception's class name.
    """
    client = Redis.from_url(
        url,
        socket_connect_timeout=timeout,
        socket_timeout=timeout,
        retry=Retry(NoBackoff(), 0),  # one try: the next check comes soon enough
    )
    try:
        async with asyncio.timeout(timeout):
            await client.ping()
    except Exception as exc:  # any network or protocol failure means "not reachable"
        return RedisStatus(False, type(exc).__name__)
    finally:
        try:
            await client.aclose()
        except Exception:  # nothing to close on a connection that never was
            logger.debug("closing the Redis health-check client failed", exc_info=True)
    return RedisStatus(True)


@router.get(
    "/healthz",
    response_model=Health,
    response_model_exclude_unset=True,
    responses={
        503: {"model": Health, "description": "database (or Redis) unreachable or not migrated"}
    },
)
async def healthz(response: Response, runtime: Annotated[Runtime, Depends(get_runtime)]) -> Health:
    """Report the version and the state of each dependency (503 when one is not usable)."""
    settings = runtime.settings
    database = check_database(
        runtime.engine,
        head=runtime.head_revision,
        known=runtime.known_revisions,
        timeout=settings.db_check_timeout,
    )
    if settings.clustered:  # both at once: the answer takes the longer of the two
        timeout = min(REDIS_CHECK_TIMEOUT, settings.db_check_timeout)
        status, redis = await asyncio.gather(database, check_redis(settings.redis_url, timeout))
    else:
        status, redis = await database, None
    if not status.ok:
        logger.warning("healthz: %s", status.problem())
    if redis is not None and not redis.ok:
        logger.warning("healthz: Redis is not reachable (%s)", redis.error)
    ok = status.ok and (redis is None or redis.ok)
    if not ok:
        response.status_code = 503
    report = Health(
        status="ok" if ok else "degraded",
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
    if redis is not None:  # set only here, so that a report without Redis stays as it was
        report.redis = RedisHealth(ok=redis.ok, error=redis.error)
        report.node = settings.node
    return report
