"""Refusals of the store: a stable ``code`` plus an English and a German message.

The subclass says what kind of refusal it is, so that the HTTP layer can pick a status
without knowing every code (``server/api/errors.py`` maps them):

* :class:`InvalidError`: the input breaks a rule (a too short password, a bad option);
* :class:`CredentialsError`: login name and password do not match;
* :class:`ForbiddenError`: the caller may not do this (only the host may …);
* :class:`NotFoundError`: there is no such thing (or the caller may not know of it);
* :class:`ConflictError`: the current state forbids it (login taken, room full);
* :class:`FencedError`: another server process has taken the table over (its ownership
  epoch moved on), so this one may not write for it any more.
"""

from __future__ import annotations

import unicodedata


class StoreError(Exception):
    """Base class: a refusal with a stable machine-readable code and two messages."""

    def __init__(self, code: str, message: str, message_de: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_de = message_de

    def to_json(self) -> dict[str, str]:
        """Return the error as a JSON-ready mapping (code, English and German message)."""
        return {"code": self.code, "message": self.message, "message_de": self.message_de}


class InvalidError(StoreError):
    """The input breaks a rule (name, password, option, stake …)."""


class CredentialsError(StoreError):
    """Login name and password do not match (the same error for an unknown login)."""


class ForbiddenError(StoreError):
    """The caller is known but may not do this."""


class NotFoundError(StoreError):
    """The thing does not exist, or the caller may not learn that it exists."""


class ConflictError(StoreError):
    """The current state forbids the change (a taken login, a full room)."""


class FencedError(StoreError):
    """A write for a table whose ownership moved to another process (the match's epoch is
    no longer the writer's): refused inside the write's own transaction."""

    def __init__(self) -> None:
        super().__init__(
            "table_moved",
            "this table is now served by another server process; reconnect",
            "dieser Tisch läuft jetzt auf einem anderen Serverprozess; bitte neu verbinden",
        )


def clean_name(value: object, limit: int, code: str, message: str, message_de: str) -> str:
    """``value`` normalised (NFC) and stripped; :class:`InvalidError` ``code`` unless it is a
    string of 1 to ``limit`` printable characters (display names, room names)."""
    cleaned = unicodedata.normalize("NFC", value).strip() if isinstance(value, str) else ""
    if not 1 <= len(cleaned) <= limit or not cleaned.isprintable():
        raise InvalidError(code, message, message_de)
    return cleaned
