"""Typed dependencies: a database session per request, the logged-in user, the cookie.

The session cookie ``stammtisch_session`` holds a random token (the database keeps only
its SHA-256, see :mod:`server.store.accounts`). It is HttpOnly, SameSite=Lax, Path=/,
lives 30 days, and is Secure when ``Settings.cookie_secure`` is on.

The dependencies take an :class:`HTTPConnection`, so they work for WebSocket endpoints
too (the browser sends the cookie with the handshake).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from server.api.errors import login_required
from server.api.runtime import get_runtime
from server.settings import Settings
from server.store.accounts import SESSION_LIFETIME, user_for_token
from server.store.models import User

#: The largest id a row can have (the tables' ids are 32-bit integers on PostgreSQL).
MAX_ID = 2**31 - 1

SESSION_COOKIE = "stammtisch_session"
SESSION_MAX_AGE = int(SESSION_LIFETIME.total_seconds())


async def db_session(connection: HTTPConnection) -> AsyncIterator[AsyncSession]:
    """One database session per request; routes commit explicitly when they change data."""
    async with get_runtime(connection).sessions() as session:
        yield session


Db = Annotated[AsyncSession, Depends(db_session)]


def session_token(connection: HTTPConnection) -> str | None:
    """The session token from the cookie, or None."""
    return connection.cookies.get(SESSION_COOKIE) or None


async def optional_user(connection: HTTPConnection, db: Db) -> User | None:
    """The logged-in user, or None (no cookie, unknown or expired session)."""
    return await user_for_token(db, session_token(connection))


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    """The logged-in user; 401 ``login_required`` without a valid session."""
    if user is None:
        raise login_required()
    return user


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]


def set_session_cookie(response: Response, token: str, settings: Settings) -> None:
    """Put the session ``token`` into the cookie (HttpOnly, SameSite=Lax, 30 days)."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_MAX_AGE,
        path="/",
        secure=settings.cookie_secure,
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(response: Response, settings: Settings) -> None:
    """Tell the browser to forget the session cookie."""
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        secure=settings.cookie_secure,
        httponly=True,
        samesite="lax",
    )


def parse_id(text: str) -> int | None:
    """``text`` (a path segment) as a row id, or None when no row can have it: pages and
    routes answer "not found" for such ids instead of asking the database."""
    if not (text.isascii() and text.isdecimal()) or len(text) > 10:
        return None
    number = int(text)
    return number if 0 < number <= MAX_ID else None
