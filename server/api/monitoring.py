"""``GET /metrics`` (this process's metrics, Prometheus text format) and the count of
open WebSockets.

The metrics themselves are :mod:`server.metrics`. ``/metrics`` answers whoever reaches
the process: it tells how busy the process is (tables, sockets, actions, write times),
nothing about anybody's games or accounts. The reverse proxy in front answers it with 404
to the public (``deploy/Caddyfile``), so that only what reaches the processes directly
(Prometheus on the internal network) reads it; docs/deploy.md, "Metrics".
"""

from __future__ import annotations

from fastapi import APIRouter, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from server import metrics

router = APIRouter(tags=["health"])


@router.get("/metrics", include_in_schema=False)
async def metrics_text() -> Response:
    """This process's metrics in the Prometheus text format."""
    return Response(metrics.PROCESS.render(), media_type=metrics.CONTENT_TYPE)


class SocketCounter:
    """ASGI middleware that keeps ``stammtisch_sockets``: a WebSocket counts from its
    handshake until its endpoint returns (when the socket is closed).

    It wraps only the connection as a whole, not each message, so an open socket costs
    nothing per message. A handshake refused before it reaches the endpoint counts only for
    the moment it takes.
    """

    def __init__(self, app: ASGIApp, stats: metrics.Metrics | None = None) -> None:
        self.app = app
        self.stats = stats or metrics.PROCESS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the connection on; count it while it is open if it is a WebSocket."""
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        self.stats.socket_opened()
        try:
            await self.app(scope, receive, send)
        finally:
            self.stats.socket_closed()
