"""The one typed settings object, read from the environment.

Every knob the server has is a field here; nothing else reads ``os.environ``. The
defaults give a working single-machine set-up: SQLite under ``./var/`` and the web
server on http://127.0.0.1:8000.

Environment variables:

``DATABASE_URL``
    SQLAlchemy async URL. ``sqlite+aiosqlite:///./var/stammtisch.sqlite3`` (default) or
    ``postgresql+asyncpg://user:password@host:5432/dbname``.
``STAMMTISCH_HOST`` / ``STAMMTISCH_PORT``
    Where the server listens (default ``127.0.0.1`` and ``8000``).
``STAMMTISCH_DB_CHECK_TIMEOUT``
    Seconds the start-up and ``/healthz`` database check may take (default ``5``).
``STAMMTISCH_COOKIE_SECURE``
    ``true`` marks the session cookie ``Secure`` (sent over HTTPS only); set it whenever
    the server is reached through HTTPS. ``1/true/yes/on`` or ``0/false/no/off``
    (default ``false``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./var/stammtisch.sqlite3"


class SettingsError(ValueError):
    """An environment variable holds a value the server cannot use."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Server configuration; build it with :meth:`from_env` or directly in tests."""

    database_url: str = DEFAULT_DATABASE_URL
    host: str = "127.0.0.1"
    port: int = 8000
    db_check_timeout: float = 5.0
    cookie_secure: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``environ`` (default: the process environment)."""
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            host=env.get("STAMMTISCH_HOST", "").strip() or "127.0.0.1",
            port=_parse_number(env, "STAMMTISCH_PORT", int, 8000),
            db_check_timeout=_parse_number(env, "STAMMTISCH_DB_CHECK_TIMEOUT", float, 5.0),
            cookie_secure=_parse_bool(env, "STAMMTISCH_COOKIE_SECURE", False),
        )


_Number = TypeVar("_Number", int, float)


def _parse_number(
    env: Mapping[str, str], name: str, kind: type[_Number], default: _Number
) -> _Number:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not a valid {kind.__name__}") from None
    if value <= 0:
        raise SettingsError(f"{name}={raw!r} must be positive")
    return value


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _parse_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise SettingsError(f"{name}={raw!r} is not a boolean (use true or false)")


def get_settings() -> Settings:
    """Return the settings of this process, read from the environment."""
    return Settings.from_env()
