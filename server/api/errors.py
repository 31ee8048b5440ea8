"""The one JSON error shape of the HTTP API, and the handlers that produce it.

Every refusal reads ``{"error": {"code": ..., "message": ..., "message_de": ...}}`` with
a fitting status. :func:`install_error_handlers` registers handlers for

* :class:`ApiError` (raised by routes and dependencies, carries its own status),
* the store's refusals (:class:`server.store.errors.StoreError`; status by kind),
* the engine's :class:`MalformedError` (422) and :class:`IllegalActionError` (409),
* pydantic request validation (422 ``invalid_request``, the message names the field),
* a forwarded call to the process that owns a table: no answer in time (503
  ``table_unavailable``, ``Retry-After``), or the owner's own refusal (its code, 409; an
  uncoded failure there: 502 ``table_failed``),
* Starlette's HTTP errors (404 for unknown paths, 405 …) and unexpected exceptions (500).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from server.engine.errors import EngineError, IllegalActionError, MalformedError
from server.store.errors import (
    ConflictError,
    CredentialsError,
    ForbiddenError,
    InvalidError,
    NotFoundError,
    StoreError,
)
from server.tables.cluster import OwnerUnavailable, RemoteError

#: The HTTP status of each kind of store refusal.
STORE_STATUS: Mapping[type[StoreError], int] = {
    InvalidError: 422,
    CredentialsError: 401,
    ForbiddenError: 403,
    NotFoundError: 404,
    ConflictError: 409,
}


class ApiError(Exception):
    """A refusal raised by the HTTP layer itself, with its status (and optional headers)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        message_de: str,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.message_de = message_de
        self.headers = dict(headers or {})


def error_body(code: str, message: str, message_de: str) -> dict[str, dict[str, str]]:
    """Return the JSON body of an error."""
    return {"error": {"code": code, "message": message, "message_de": message_de}}


def error_response(
    status: int,
    code: str,
    message: str,
    message_de: str,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """Return a JSON response in the API's error shape."""
    return JSONResponse(
        error_body(code, message, message_de), status_code=status, headers=dict(headers or {})
    )


def store_status(exc: StoreError) -> int:
    """Return the HTTP status for a store refusal (by its class; 400 if unknown)."""
    for kind in type(exc).__mro__:
        if kind in STORE_STATUS:
            return STORE_STATUS[kind]
    return 400


def login_required() -> ApiError:
    """The 401 for a route that needs a logged-in user."""
    return ApiError(401, "login_required", "Please log in first.", "Bitte zuerst anmelden.")


def _field(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc]
    if len(parts) > 1 and parts[0] in {"body", "query", "path", "header", "cookie"}:
        parts = parts[1:]
    return ".".join(parts) or "request"


def validation_message(errors: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """Return an English and a German message naming the first invalid field."""
    if not errors:
        return "The request is invalid.", "Die Anfrage ist ungültig."
    first = errors[0]
    field = _field(first.get("loc", ()))
    kind = first.get("type", "")
    if kind == "missing":
        return f"{field}: field required", f"{field}: Feld fehlt"
    if kind == "extra_forbidden":
        return f"{field}: unknown field", f"{field}: unbekanntes Feld"
    if kind == "json_invalid":
        return (
            "The request body is not valid JSON.",
            "Der Inhalt der Anfrage ist kein gültiges JSON.",
        )
    return f"{field}: {first.get('msg', 'invalid value')}", f"{field}: ungültiger Wert"


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, exc.message_de, exc.headers)


async def _store_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StoreError)
    return error_response(store_status(exc), exc.code, exc.message, exc.message_de)


async def _engine_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EngineError)
    status = 409 if isinstance(exc, IllegalActionError) else 422
    return error_response(status, exc.code, exc.message, exc.message_de)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    message, message_de = validation_message(list(exc.errors()))
    return error_response(422, "invalid_request", message, message_de)


_HTTP_CODES = {
    400: ("bad_request", "Bad request.", "Ungültige Anfrage."),
    401: ("unauthorized", "Not authenticated.", "Nicht angemeldet."),
    403: ("forbidden", "Not allowed.", "Nicht erlaubt."),
    404: ("not_found", "Not found.", "Nicht gefunden."),
    405: ("method_not_allowed", "Method not allowed.", "Methode nicht erlaubt."),
}


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code, message, message_de = _HTTP_CODES.get(
        exc.status_code, ("http_error", str(exc.detail), str(exc.detail))
    )
    return error_response(exc.status_code, code, message, message_de, exc.headers)


async def _owner_unavailable(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, OwnerUnavailable)
    return error_response(
        503,
        "table_unavailable",
        "The server that runs this table did not answer in time; try again in a moment.",
        "Der Server dieses Tisches hat nicht rechtzeitig geantwortet; bitte gleich noch "
        "einmal versuchen.",
        {"Retry-After": "3"},
    )


async def _remote_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RemoteError)
    coded = exc.error.get("json")
    if isinstance(coded, dict) and {"code", "message", "message_de"} <= coded.keys():
        return error_response(
            409, str(coded["code"]), str(coded["message"]), str(coded["message_de"])
        )
    return error_response(
        502,
        "table_failed",
        "The server that runs this table could not do this.",
        "Der Server dieses Tisches konnte das nicht ausführen.",
    )


async def _unexpected(_request: Request, _exc: Exception) -> JSONResponse:
    # Starlette re-raises the exception after this response, so the server logs it.
    return error_response(
        500,
        "internal_error",
        "Something went wrong on the server.",
        "Auf dem Server ging etwas schief.",
    )


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every refusal into the API's error shape."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(StoreError, _store_error)
    app.add_exception_handler(MalformedError, _engine_error)
    app.add_exception_handler(IllegalActionError, _engine_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(OwnerUnavailable, _owner_unavailable)
    app.add_exception_handler(RemoteError, _remote_error)
    app.add_exception_handler(Exception, _unexpected)
