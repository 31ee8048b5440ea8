"""Accounts over HTTP: register, log in, play as a guest, claim a guest account, log out,
change the display name and language.

Every route answers with the user (``UserOut``) and, where a session starts, sets the
session cookie. Refusals use the error shape of :mod:`server.api.errors`.
"""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from server.api.deps import (
    CurrentUser,
    Db,
    clear_session_cookie,
    session_token,
    set_session_cookie,
)
from server.api.errors import ApiError
from server.api.i18n import LANGUAGES
from server.api.runtime import get_runtime
from server.api.throttle import LoginThrottle, get_login_throttle
from server.store import accounts
from server.store.errors import CredentialsError
from server.store.models import User

router = APIRouter(prefix="/api", tags=["auth"])

# Generous caps at the edge only guard against huge payloads; the store checks the rules.
_TEXT = 200
_PASSWORD = 4096


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RegisterRequest(_Strict):
    """A new account: login name, password and the name others see."""

    login: str = Field(max_length=_TEXT)
    password: str = Field(max_length=_PASSWORD)
    display_name: str = Field(max_length=_TEXT)


class LoginRequest(_Strict):
    """Login name and password."""

    login: str = Field(max_length=_TEXT)
    password: str = Field(max_length=_PASSWORD)


class GuestRequest(_Strict):
    """A guest only gives the name others see."""

    display_name: str = Field(max_length=_TEXT)


class ClaimRequest(_Strict):
    """Login name and password that turn a guest into a registered account."""

    login: str = Field(max_length=_TEXT)
    password: str = Field(max_length=_PASSWORD)


class ProfileRequest(_Strict):
    """What a user may change about themselves; fields left out stay as they are."""

    display_name: StrictStr | None = Field(default=None, max_length=_TEXT)
    language: StrictStr | None = Field(default=None, max_length=_TEXT)


class UserOut(BaseModel):
    """A user as the API shows it (never the password hash)."""

    id: int
    login: str | None
    display_name: str
    is_guest: bool
    language: str

    @classmethod
    def of(cls, user: User) -> UserOut:
        """Build the API form of ``user``."""
        return cls(
            id=user.id,
            login=user.login,
            display_name=user.display_name,
            is_guest=user.is_guest,
            language=user.language,
        )


Throttle = Annotated[LoginThrottle, Depends(get_login_throttle)]


async def _start_session(request: Request, response: Response, db: Db, user: User) -> None:
    """Replace any current session by a new one for ``user`` and set the cookie."""
    await accounts.delete_session(db, session_token(request))
    token = await accounts.create_session(db, user.id)
    await db.commit()
    set_session_cookie(response, token, get_runtime(request).settings)


@router.post("/register", response_model=UserOut, status_code=201)
async def register(body: RegisterRequest, request: Request, response: Response, db: Db) -> UserOut:
    """Create an account and log in (sets the session cookie)."""
    user = await accounts.register(db, body.login, body.password, body.display_name)
    await _start_session(request, response, db, user)
    return UserOut.of(user)


@router.post("/login", response_model=UserOut)
async def login(
    body: LoginRequest, request: Request, response: Response, db: Db, throttle: Throttle
) -> UserOut:
    """Log in with login name and password; too many failures for a name give 429."""
    wait = throttle.retry_after(body.login)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            "too_many_attempts",
            f"Too many failed logins for this name; try again in {seconds} seconds.",
            f"Zu viele Fehlversuche für diesen Namen; in {seconds} Sekunden wieder versuchen.",
            headers={"Retry-After": str(seconds)},
        )
    try:
        user = await accounts.verify_login(db, body.login, body.password)
    except CredentialsError:
        throttle.failed(body.login)
        raise
    throttle.succeeded(body.login)
    await _start_session(request, response, db, user)
    return UserOut.of(user)


@router.post("/guest", response_model=UserOut, status_code=201)
async def guest(body: GuestRequest, request: Request, response: Response, db: Db) -> UserOut:
    """Play as a guest: only a display name; sets the session cookie."""
    user = await accounts.create_guest(db, body.display_name)
    await _start_session(request, response, db, user)
    return UserOut.of(user)


@router.post("/logout", status_code=204)
async def logout(request: Request, db: Db) -> Response:
    """End the session (if any) and clear the cookie."""
    await accounts.delete_session(db, session_token(request))
    await db.commit()
    response = Response(status_code=204)
    clear_session_cookie(response, get_runtime(request).settings)
    return response


@router.get("/me", response_model=UserOut)
async def me(user: CurrentUser) -> UserOut:
    """The logged-in user (401 ``login_required`` otherwise)."""
    return UserOut.of(user)


@router.post("/claim", response_model=UserOut)
async def claim(
    body: ClaimRequest, request: Request, response: Response, db: Db, user: CurrentUser
) -> UserOut:
    """Give the logged-in guest a login and password; the user id (and history) stays."""
    claimed = await accounts.claim_guest(db, user, body.login, body.password)
    await _start_session(request, response, db, claimed)
    return UserOut.of(claimed)


@router.patch("/me", response_model=UserOut)
async def update_me(body: ProfileRequest, db: Db, user: CurrentUser) -> UserOut:
    """Change the display name and/or the language (``de`` or ``en``) of the logged-in user.

    Refuses ``bad_name`` (as at registration) and ``bad_language``; nothing changes unless
    every given field is valid.
    """
    name = None if body.display_name is None else accounts.clean_display_name(body.display_name)
    if body.language is not None and body.language not in LANGUAGES:
        raise ApiError(
            422,
            "bad_language",
            f"The language is one of: {', '.join(LANGUAGES)}.",
            f"Die Sprache ist eine von: {', '.join(LANGUAGES)}.",
        )
    if name is not None:
        user.display_name = name
    if body.language is not None:
        user.language = body.language
    await db.commit()
    return UserOut.of(user)
