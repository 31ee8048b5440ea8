"""Limits before work: what the server takes at most, refused before it is read.

* WebSocket messages: the WebSocket layer itself refuses a message over
  :data:`~server.tables.protocol.MAX_FRAME_BYTES` and closes the connection (1009) before
  buffering it. uvicorn takes the limit as ``--ws-max-size``; :data:`UVICORN_OPTIONS` is
  the one list of the flags every launcher passes (``python -m server``, which ``make run``
  and the Docker image use, and the tests' server processes).
* HTTP request heads and slow requests: the request line and headers may have at most
  16 KiB (431, closed), and a request must arrive whole within 20 s (408, closed): uvicorn
  runs :class:`~server.api.http_protocol.BoundedHttpToolsProtocol`, passed as ``--http``
  in :data:`UVICORN_OPTIONS`.
* HTTP request bodies: :class:`BodyLimit`, a plain ASGI middleware, gives every route at
  most :data:`DEFAULT_BODY_BYTES` (a route may have its own :class:`Limit`, as the record
  upload has). A declared ``Content-Length`` over the limit is refused before a byte of the
  body is read; a body without one (chunked) is read up to the limit and refused as soon as
  it goes beyond. Either way the answer is 413 in the API's error shape and the connection
  is closed; the route never runs.

A client's broken frame is the client's mistake, not the server's: uvicorn logs a text
frame that is not UTF-8 (refused, the connection closed with 1007) with the traceback of
the decoding error; :class:`OneLineForBadFrames` makes that one warning line, so that a
traceback in the log always means a bug.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.api.errors import error_response
from server.tables.protocol import MAX_FRAME_BYTES

#: Seconds between the WebSocket layer's pings to every socket, and how long it waits for
#: the pong before it closes the socket: a phone that lost its network is offline for the
#: others at its table within :data:`WS_PING_SECONDS` × 2 (the browser's page notices on
#: its own sooner, by its own heartbeat).
WS_PING_SECONDS = 5

#: The uvicorn flags the server is always run with: the WebSocket message limit, no
#: per-message compression (table events are small and many), pings that find dead
#: sockets, and the HTTP protocol with a bounded request head and a deadline per request
#: (:mod:`server.api.http_protocol`).
UVICORN_OPTIONS = (
    "--ws-max-size", str(MAX_FRAME_BYTES),
    "--ws-per-message-deflate", "false",
    "--ws-ping-interval", str(WS_PING_SECONDS),
    "--ws-ping-timeout", str(WS_PING_SECONDS),
    "--http", "server.api.http_protocol:BoundedHttpToolsProtocol",
)  # fmt: skip

#: The largest request body of a route without a limit of its own (the JSON bodies of the
#: API are far smaller: a password has at most 1024 characters).
DEFAULT_BODY_BYTES = 16 * 1024


@dataclass(frozen=True)
class Limit:
    """The largest body a route takes, and the refusal (413) of a larger one."""

    max_bytes: int
    code: str = "body_too_large"
    message: str = ""
    message_de: str = ""

    def texts(self) -> tuple[str, str]:
        """The English and the German message of the refusal."""
        kib = self.max_bytes // 1024
        return (
            self.message or f"A request body may have at most {kib} KiB.",
            self.message_de or f"Der Inhalt einer Anfrage darf höchstens {kib} KiB groß sein.",
        )


class BodyLimit:
    """ASGI middleware: refuse request bodies over the route's :class:`Limit` (413).

    ``routes`` maps exact paths to their own limits; every other path has ``default``
    bytes. The body is read here, at most up to the limit, and handed to the app in one
    piece.
    """

    def __init__(
        self,
        app: ASGIApp,
        routes: Mapping[str, Limit] | None = None,
        default: int = DEFAULT_BODY_BYTES,
    ) -> None:
        self.app = app
        self.routes = dict(routes or {})
        self.default = Limit(default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body up to the limit, then run the app (or refuse)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.routes.get(scope["path"], self.default)
        if _declared_length(scope) > limit.max_bytes:
            await _refuse(limit, scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before its request was complete: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit.max_bytes:
                await _refuse(limit, scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        first: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        pending: list[Message] = [first]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)


def _declared_length(scope: Scope) -> int:
    """The request's ``Content-Length`` (0 without one; the HTTP layer refuses bad ones)."""
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit():
            return int(value) if len(value) <= 18 else 10**18  # no 4,000-digit numbers
    return 0


async def _refuse(limit: Limit, scope: Scope, receive: Receive, send: Send) -> None:
    message, message_de = limit.texts()
    response = error_response(413, limit.code, message, message_de, {"Connection": "close"})
    await response(scope, receive, send)


class OneLineForBadFrames(logging.Filter):
    """Log uvicorn's "Invalid UTF-8 sequence received from client." as a warning, without
    the traceback of the decoding error (the connection is closed with 1007 all the same)."""

    MESSAGE = "Invalid UTF-8 sequence received from client."

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record; drop its traceback if it is the invalid UTF-8 frame."""
        if record.exc_info and record.msg == self.MESSAGE:
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_bad_frames() -> None:
    """Install :class:`OneLineForBadFrames` on uvicorn's error log (once)."""
    log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OneLineForBadFrames) for f in log.filters):
        log.addFilter(OneLineForBadFrames())
