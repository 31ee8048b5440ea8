"""Cross-origin protection and the security headers of every response.

:class:`SecurityMiddleware` (pure ASGI, outside the routes) does three things:

* **Origin check.** The WebSocket handshake and every request with a method that may
  change something (POST, PUT, PATCH, DELETE) are refused with 403 ``bad_origin`` when the
  browser says they come from elsewhere: an ``Origin`` header that is not one of
  ``Settings.public_origins`` (``Origin: null`` included), or, without ``Origin``, a
  ``Sec-Fetch-Site`` of ``cross-site`` or ``same-site``. SameSite=Lax cookies alone do not
  stop a page on another port of the same host, which is the same *site*. Requests with
  neither header come from no browser page (scripts, curl, the tests) and pass: they
  cannot carry a victim's cookie.
* **JSON only.** A request to ``/api/`` that carries a body must declare it as JSON
  (``application/json`` or ``application/*+json``), else 415 ``unsupported_media_type``:
  a ``text/plain`` body is what an HTML form of another page can send.
* **Headers.** Every HTTP response gets a Content-Security-Policy that allows scripts,
  styles, images, fonts and connections from this server only (no inline script or
  style; the pages embed their data as ``<script type="application/json">``, which is no
  script), may not be framed, and also ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``, ``X-Frame-Options: DENY``,
  ``Cross-Origin-Opener-Policy: same-origin``, ``Cross-Origin-Resource-Policy:
  same-origin`` and a ``Permissions-Policy`` that switches off what the game never uses.

:func:`resolve_next` resolves the ``?next=`` target of the login to a path on this
server (``web/static/js/forms.js`` applies the same rules in the browser).
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.api.errors import error_body, error_response
from server.settings import Settings

logger = logging.getLogger(__name__)

ORIGINS_SETTING = "STAMMTISCH_PUBLIC_ORIGINS"
#: Methods that never change anything here; every other one is checked.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
#: Where the generated API documentation lives when ``Settings.api_docs`` is on.
DOCS_URL, REDOC_URL, OPENAPI_URL = "/docs", "/redoc", "/openapi.json"


# --------------------------------------------------------------------------- headers


def content_security_policy(origins: Iterable[str]) -> str:
    """The policy of every page: everything from this server only, nothing inline.

    ``connect-src`` names the WebSocket addresses of ``origins`` besides ``'self'``: older
    browsers (Safari before 15.4) do not count ``ws:``/``wss:`` as ``'self'``.
    """
    sockets = [o.replace("http", "ws", 1) for o in origins]
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            " ".join(["connect-src 'self'", *sockets]),
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


#: The policy of FastAPI's documentation pages (only served with ``Settings.api_docs``):
#: they load Swagger UI and ReDoc from a CDN and start them with inline code.
DOCS_CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "font-src 'self' https://fonts.gstatic.com",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)

#: The headers every response gets besides the Content-Security-Policy.
COMMON_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
)


def _raw_headers(policy: str) -> list[tuple[bytes, bytes]]:
    pairs = [("Content-Security-Policy", policy), *COMMON_HEADERS]
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in pairs]


# --------------------------------------------------------------------------- refusals


def _shown(origin: str) -> str:
    return origin if len(origin) <= 100 else origin[:100] + "…"


def origin_refusal(headers: Headers, allowed: frozenset[str]) -> tuple[str, str] | None:
    """Why a request with ``headers`` does not come from one of the ``allowed`` origins,
    in English and German (both name the setting), or None when it may pass."""
    origin = headers.get("origin")
    if origin is not None:
        if origin.strip().lower() in allowed:
            return None
        shown = _shown(origin)
        return (
            f"This request comes from {shown}, not from this server's address. If the "
            f"server is reached at that address, add it to {ORIGINS_SETTING}.",
            f"Diese Anfrage kommt von {shown}, nicht von der Adresse dieses Servers. Wird "
            f"der Server unter dieser Adresse erreicht, gehört sie in {ORIGINS_SETTING}.",
        )
    if headers.get("sec-fetch-site", "").strip().lower() in {"cross-site", "same-site"}:
        return (
            "This request comes from another site. If the server is reached at another "
            f"address, add it to {ORIGINS_SETTING}.",
            "Diese Anfrage kommt von einer anderen Website. Wird der Server unter einer "
            f"anderen Adresse erreicht, gehört sie in {ORIGINS_SETTING}.",
        )
    return None


def has_body(headers: Headers) -> bool:
    """Whether a request with ``headers`` carries a body."""
    if "transfer-encoding" in headers:
        return True
    return headers.get("content-length", "").strip() not in ("", "0")


def is_json(content_type: str | None) -> bool:
    """Whether ``content_type`` declares JSON (``application/json``, ``application/*+json``)."""
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


BAD_ORIGIN = "bad_origin"
UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"


class SecurityMiddleware:
    """Refuse cross-origin writes and WebSocket handshakes; add the security headers."""

    def __init__(self, app: ASGIApp, *, public_origins: Sequence[str], api_docs: bool) -> None:
        self.app = app
        self.allowed = frozenset(o.lower() for o in public_origins)
        self.page_headers = _raw_headers(content_security_policy(public_origins))
        self.docs_headers = _raw_headers(DOCS_CONTENT_SECURITY_POLICY)
        docs = {DOCS_URL, DOCS_URL + "/oauth2-redirect", REDOC_URL}
        self.docs_paths = frozenset(docs if api_docs else ())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with the headers added to the answer."""
        if scope["type"] == "websocket":
            refusal = origin_refusal(Headers(scope=scope), self.allowed)
            if refusal is None:
                await self.app(scope, receive, send)
            else:
                self._log(scope, Headers(scope=scope))
                await self._deny_websocket(scope, receive, send, refusal)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        path: str = scope["path"]
        extra = self.docs_headers if path in self.docs_paths else self.page_headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(name).lower() for name, _ in headers}
                headers += [pair for pair in extra if pair[0] not in present]
                message = {**message, "headers": headers}
            await send(message)

        if scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            refusal = origin_refusal(headers, self.allowed)
            if refusal is not None:
                self._log(scope, headers)
                response = error_response(403, BAD_ORIGIN, *refusal)
                await response(scope, receive, send_with_headers)
                return
            if (
                path.startswith("/api/")
                and has_body(headers)
                and not is_json(headers.get("content-type"))
            ):
                response = error_response(
                    415,
                    UNSUPPORTED_MEDIA_TYPE,
                    "Send the request body as JSON (Content-Type: application/json).",
                    "Der Inhalt der Anfrage muss JSON sein (Content-Type: application/json).",
                )
                await response(scope, receive, send_with_headers)
                return
        await self.app(scope, receive, send_with_headers)

    @staticmethod
    def _log(scope: Scope, headers: Headers) -> None:
        logger.warning(
            "Refused %s %s from origin %r (Sec-Fetch-Site %r): not one of %s",
            scope.get("method", "WebSocket"),
            scope.get("path", ""),
            _shown(headers.get("origin", "")),
            headers.get("sec-fetch-site", ""),
            ORIGINS_SETTING,
        )

    @staticmethod
    async def _deny_websocket(
        scope: Scope, receive: Receive, send: Send, refusal: tuple[str, str]
    ) -> None:
        """Answer the handshake with 403 (the API's error shape where the server can send
        a body) instead of accepting it."""
        await receive()  # websocket.connect
        HANDSHAKE_REFUSED.set(True)  # logged already, as one warning line
        if "websocket.http.response" not in (scope.get("extensions") or {}):
            await send({"type": "websocket.close", "code": 1008})  # the server answers 403
            return
        body = json.dumps(error_body(BAD_ORIGIN, *refusal), ensure_ascii=False).encode()
        await send(
            {
                "type": "websocket.http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})


#: Set in the task of a WebSocket handshake this module refused (and logged).
HANDSHAKE_REFUSED: ContextVar[bool] = ContextVar("handshake_refused", default=False)


class QuietRefusedHandshakes(logging.Filter):
    """Drop uvicorn's "ASGI callable returned without completing handshake." ERROR for a
    handshake refused here: the 403 was sent on purpose and logged as one warning line
    (uvicorn counts only an accepted or closed handshake as complete). For any other
    handshake the error stays: an app that returns without answering is a bug."""

    MESSAGE = "ASGI callable returned without completing handshake."

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but that one, in the task of a refused handshake."""
        return not (record.msg == self.MESSAGE and HANDSHAKE_REFUSED.get())


def quiet_refused_handshakes() -> None:
    """Install :class:`QuietRefusedHandshakes` on uvicorn's error log (once)."""
    log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietRefusedHandshakes) for f in log.filters):
        log.addFilter(QuietRefusedHandshakes())


# --------------------------------------------------------------------------- wiring


def docs_urls(settings: Settings) -> dict[str, Any]:
    """FastAPI's arguments for the documentation routes: served only with
    ``Settings.api_docs`` (``STAMMTISCH_API_DOCS=true``)."""
    if settings.api_docs:
        return {"docs_url": DOCS_URL, "redoc_url": REDOC_URL, "openapi_url": OPENAPI_URL}
    return {"docs_url": None, "redoc_url": None, "openapi_url": None}


def install_security(app: FastAPI, settings: Settings) -> None:
    """Put :class:`SecurityMiddleware` in front of ``app`` (outside every other
    middleware added before it); warn when the server listens on every address, whose
    other names the default origins cannot know."""
    app.add_middleware(
        SecurityMiddleware, public_origins=settings.public_origins, api_docs=settings.api_docs
    )
    if settings.host.strip("[]") in {"0.0.0.0", "::"} and settings.public_origins == (
        Settings(host=settings.host, port=settings.port).public_origins
    ):
        logger.warning(
            "Listening on %s, but browsers are only accepted from %s; set %s to the "
            "address people use (e.g. http://192.168.1.20:%d).",
            settings.host,
            ", ".join(settings.public_origins),
            ORIGINS_SETTING,
            settings.port,
        )


# --------------------------------------------------------------------------- ?next=

#: A ``%`` that does not start an escape (``decodeURIComponent`` refuses these).
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
MAX_NEXT_LENGTH = 2048


def _unsafe(text: str) -> bool:
    """Whether ``text`` has a backslash, white space or an invisible/control character:
    browsers drop tabs and newlines from URLs and read ``\\`` as ``/``."""
    return any(
        ch == "\\" or ch.isspace() or unicodedata.category(ch) in _UNSAFE_CATEGORIES for ch in text
    )


def resolve_next(raw: str | None, origin: str) -> str | None:
    """The path (with query and fragment) on ``origin`` that ``raw`` (a ``?next=`` value)
    names, or None when it is not plainly a path on this server.

    ``raw`` and each of its percent-decoded forms must start with ``/``, have no empty
    path segment (``//``: not at the start, and not after a dot segment, as ``/.//evil``
    resolves to ``//evil``) and hold no white space, control character or backslash
    (``/\\evil``); joined to ``origin`` it must stay there, and the path it resolves to
    must not start with ``//`` either.
    """
    if not raw or len(raw) > MAX_NEXT_LENGTH:
        return None
    forms = [raw]
    text = raw
    for _round in range(4):
        if _BAD_ESCAPE.search(text):
            return None
        try:
            decoded = unquote(text, errors="strict")
        except UnicodeDecodeError:
            return None
        if decoded == text:
            break
        forms.append(decoded)
        text = decoded
    else:
        return None  # still encoded after four rounds: nobody links like that
    for form in forms:
        path = re.split(r"[?#]", form, maxsplit=1)[0]
        if not form.startswith("/") or "//" in path or _unsafe(form):
            return None
    base = urlsplit(origin.rstrip("/") + "/")
    joined = urlsplit(urljoin(base.geturl(), raw))
    if (joined.scheme, joined.netloc) != (base.scheme, base.netloc):
        return None
    path = joined.path or "/"
    if path.startswith(("//", "/\\")):
        return None
    return urlunsplit(("", "", path, joined.query, joined.fragment))
