"""uvicorn's httptools protocol with a bounded request head and a deadline per request.

uvicorn's httptools parser has no limit of its own on the request line and the headers:
httptools joins the pieces of a header value as they arrive, so ten clients sending one
32 MiB header each grew the server by 460 MB and stalled everybody else for seconds.
:class:`BoundedHttpToolsProtocol` (``python -m server`` passes it as ``--http``, see
:data:`server.api.limits.UVICORN_OPTIONS`) adds two limits:

* **The head** (request line and headers) may have at most :data:`MAX_HEAD_BYTES`. The
  complete pieces are counted as the parser reports them (``on_url``, ``on_header``);
  the bytes of a head that is still incomplete after a read are counted as they arrive,
  so a header that never ends is refused after the limit and one read (at most 256 KiB),
  before the parser buffers more. The answer is ``431 Request Header Fields Too Large``
  and the connection is closed.
* **The deadline**: a request must arrive whole, its head and its declared body, within
  ``STAMMTISCH_REQUEST_TIMEOUT`` seconds (default 20) of its first byte, or of the
  connection's start for the first request. A request that does not is answered
  ``408 Request Timeout`` (if nothing was answered yet) and its connection closed; the
  route, if it already waits for the body, sees the client leave. Between requests the
  keep-alive timeout (uvicorn's ``--timeout-keep-alive``, 5 s) applies as before, and a
  WebSocket, once upgraded, is no longer an HTTP request.

Both refusals are logged as one warning line with the client's address.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from server.settings import get_settings

#: The request line and all headers together (names, values, separators).
MAX_HEAD_BYTES = 16 * 1024


@functools.cache
def request_timeout() -> float:
    """Seconds a request may take to arrive (``STAMMTISCH_REQUEST_TIMEOUT``)."""
    return get_settings().request_timeout


class HeadTooLarge(Exception):
    """Raised from a parser callback: the head is over :data:`MAX_HEAD_BYTES`."""


def _plain_response(status: int, reason: str, text: str) -> bytes:
    body = text.encode("ascii")
    return (
        f"HTTP/1.1 {status} {reason}\r\n"
        "content-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    ).encode("ascii") + body


HEAD_TOO_LARGE = _plain_response(
    431,
    "Request Header Fields Too Large",
    f"The request line and headers may have at most {MAX_HEAD_BYTES // 1024} KiB.",
)
TIMED_OUT = _plain_response(408, "Request Timeout", "The request did not arrive in time.")


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a bounded head and a deadline per request."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_head_bytes = MAX_HEAD_BYTES
        self.request_timeout = request_timeout()
        self.in_head = False  # a request's head has begun and is not complete yet
        self.head_bytes = 0  # the current head's complete pieces, as the parser reports them
        self.head_received = 0  # bytes received while the current head is incomplete
        self.head_began = False  # a new head began during the current read
        self.deadline: asyncio.TimerHandle | None = None

    # -- the deadline

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the deadline of the first request."""
        super().connection_made(transport)
        self._arm_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        """Nothing to wait for any more."""
        self._cancel_deadline()
        super().connection_lost(exc)

    def _arm_deadline(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.request_timeout, self._timed_out)

    def _cancel_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _timed_out(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        self._warn("did not send its request within %g s", self.request_timeout)
        self._answer_and_close(TIMED_OUT)

    def _answer_and_close(self, response: bytes) -> None:
        """Send ``response`` unless an earlier request's answer is still under way (or
        this request's own has begun), then close the connection."""
        cycle = self.cycle
        if (
            cycle is None
            or cycle.response_complete
            or (not self.in_head and not cycle.response_started)
        ):
            self.transport.write(response)
        self.transport.close()

    def _warn(self, what: str, *args: object) -> None:
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        self.logger.warning("%s " + what, client, *args)

    # -- the head

    def data_received(self, data: bytes) -> None:
        """Parse ``data`` (as uvicorn does); refuse a head that grows over the limit."""
        if self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        self.head_began = False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserCallbackError as exc:
            if isinstance(exc.__context__, HeadTooLarge):
                self._refuse_head()
                return
            self._bad_request()
            return
        except httptools.HttpParserError:
            self._bad_request()
            return
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        if self.in_head and not self.transport.is_closing():
            # The head is still incomplete, so all of this read since it began is head (a
            # head that began within the read is counted with what came before it: an
            # upper bound, and only a pipelined request can have anything before it).
            if self.head_began:
                self.head_received = len(data)
            else:
                self.head_received += len(data)
            if self.head_received > self.max_head_bytes:
                self._refuse_head()

    def _bad_request(self) -> None:
        """uvicorn's answer to what the parser cannot parse (400, closed)."""
        message = "Invalid HTTP request received."
        self.logger.warning(message)
        self.send_400_response(message)

    def _refuse_head(self) -> None:
        self._cancel_deadline()
        self._warn("sent a request head over %d bytes", self.max_head_bytes)
        self._answer_and_close(HEAD_TOO_LARGE)

    def _count(self, size: int) -> None:
        """Count complete pieces of the head (and refuse from within the parser)."""
        self.head_bytes += size
        if self.head_bytes > self.max_head_bytes:
            raise HeadTooLarge

    def on_message_begin(self) -> None:
        """A new request: count its head from zero, start its deadline."""
        super().on_message_begin()
        self.in_head, self.head_began = True, True
        self.head_bytes = self.head_received = 0
        self._arm_deadline()

    def on_url(self, url: bytes) -> None:
        """Count (a piece of) the request target."""
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count a complete header."""
        self._count(len(name) + len(value) + 4)  # ": " and the line's end
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head is complete (a body may follow)."""
        self.in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request arrived whole: its deadline is met."""
        self._cancel_deadline()
        self.head_bytes = self.head_received = 0
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket is no HTTP request any more: no deadline."""
        self._cancel_deadline()
        super().handle_websocket_upgrade()
