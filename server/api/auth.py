"""Accounts over HTTP: register, log in, play as a guest, claim a guest account, log out,
change the display name and language.

Every route answers with the user (``UserOut``) and, where a session starts, sets the
session cookie. Refusals use the error shape of :mod:`server.api.errors`. Logging in and
creating accounts are limited per client and globally (:mod:`server.api.throttle`);
passwords are hashed in the app's bounded pool (:mod:`server.store.passwords`), never
while the request holds a database connection. A successful login, registration or claim
also renews the browser's device cookie (:mod:`server.api.devices`), with which its later
logins for that name pass a flood of others.

A login for a name that has no account costs no argon2: after the same limits, the same
place in the hashing pool (a full pool answers 503 ``busy`` whatever the name) and the
same lookup as any login, it gives its place back and waits about as long as a hash
would take now (:func:`_as_long_as_a_hash`), then fails with the same ``bad_credentials``
and counts as a failure for the lockout like a wrong password. So neither the answer,
nor its time, nor the lockout tells whether the name exists (docs/security.md).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import contextmanager
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
from server.api.devices import DEVICE_COOKIE, set_device_cookie
from server.api.errors import ApiError
from server.api.i18n import LANGUAGES
from server.api.runtime import get_runtime
from server.api.throttle import AuthLimits, busy, client_key, get_auth_limits
from server.store import accounts, rooms
from server.store.errors import CredentialsError
from server.store.models import User
from server.store.passwords import PasswordPool, PasswordsBusy, Reservation
from server.tables.manager import TableManager

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


Limits = Annotated[AuthLimits, Depends(get_auth_limits)]


@contextmanager
def _place(limits: AuthLimits, known: bool = False) -> Iterator[Reservation]:
    """A place in the app's password pool for this request, taken before the database is
    touched; a full pool answers 503 ``busy`` at once (``known``: a login from a browser
    that logged in as the name before, which has places of its own)."""
    try:
        place = limits.passwords.reserve(known)
    except PasswordsBusy as exc:
        raise busy(exc.retry_after) from None
    with place:
        yield place


async def _as_long_as_a_hash(pool: PasswordPool, ahead: int) -> None:
    """Wait about as long as a verification in ``pool`` would take now, with ``ahead``
    places taken (this request's included), without any work: the pool's running mean
    of a job, times the jobs each thread has before it, with a little jitter as argon2
    has."""
    rounds = max(1, -(-ahead // pool.workers))
    await asyncio.sleep(pool.seconds_per_job * rounds * random.uniform(0.95, 1.05))


async def _start_session(
    request: Request, response: Response, db: Db, user: User, limits: AuthLimits
) -> None:
    """Replace any current session by a new one for ``user``, set the cookie and renew
    the browser's device cookie for the user's login name."""
    old = session_token(request)
    await accounts.delete_session(db, old)
    token = await accounts.create_session(db, user.id)
    await db.commit()
    await _close_sockets(request, old)
    settings = get_runtime(request).settings
    set_session_cookie(response, token, settings)
    if user.login is not None:
        device = limits.devices.renewed(request.cookies.get(DEVICE_COOKIE), user.login)
        set_device_cookie(response, device, settings, limits.devices.lifetime)


async def _close_sockets(request: Request, token: str | None) -> None:
    """Close the table sockets of the ended session ``token``: they may not play or chat
    in its name any more."""
    tables: TableManager | None = getattr(request.app.state, "tables", None)
    if token and tables is not None:
        await tables.end_session(accounts.token_hash(token))


# Every route below that hashes ends its read transaction (``db.commit()``) before it
# awaits argon2: an AsyncSession keeps its connection until the transaction ends, and a
# connection held for a quarter of a second per login is what starved everyone else.


@router.post("/register", response_model=UserOut, status_code=201)
async def register(
    body: RegisterRequest, request: Request, response: Response, db: Db, limits: Limits
) -> UserOut:
    """Create an account and log in (sets the session cookie)."""
    account = accounts.check_registration(body.login, body.password, body.display_name)
    await limits.acheck("register", client_key(request))
    with _place(limits) as place:
        await accounts.check_login_free(db, account.login)
        await db.commit()  # no connection is held while argon2 works
        password_hash = await place.hash(body.password)
    user = await accounts.create_user(db, account, password_hash)
    await _start_session(request, response, db, user, limits)
    return UserOut.of(user)


@router.post("/login", response_model=UserOut)
async def login(
    body: LoginRequest, request: Request, response: Response, db: Db, limits: Limits
) -> UserOut:
    """Log in with login name and password; too many failures for a name from this client
    give 429 ``too_many_attempts``, too many attempts from it 429 ``too_many_requests``,
    too many logins on the whole server 503 ``busy`` — except for a browser whose device
    cookie says it logged in as this name before (:mod:`server.api.throttle`)."""
    client = client_key(request)
    known = limits.devices.trusted(request.cookies.get(DEVICE_COOKIE), body.login)
    device = await limits.aadmit_login(body.login, client, known)
    with _place(limits, known=device is not None) as place:
        ahead = limits.passwords.in_flight
        found = await accounts.find_credentials(db, body.login)
        await db.commit()  # no connection is held while argon2 works
        try:
            if found is None or found.password_hash is None:
                place.release()  # nothing to hash: the place is free for others
                await _as_long_as_a_hash(limits.passwords, ahead)
                raise accounts.bad_credentials()
            verified = await accounts.check_credentials(found, body.password, place)
        except CredentialsError:
            await limits.alogin_failed(body.login, client, device)
            raise
    await limits.alogin_succeeded(body.login, client, device)
    user = await accounts.finish_login(db, verified)
    await _start_session(request, response, db, user, limits)
    return UserOut.of(user)


@router.post("/guest", response_model=UserOut, status_code=201)
async def guest(
    body: GuestRequest, request: Request, response: Response, db: Db, limits: Limits
) -> UserOut:
    """Play as a guest: only a display name; sets the session cookie."""
    name = accounts.clean_display_name(body.display_name)
    await limits.acheck("guest", client_key(request))
    user = await accounts.create_guest(db, name)
    await _start_session(request, response, db, user, limits)
    return UserOut.of(user)


@router.post("/logout", status_code=204)
async def logout(request: Request, db: Db) -> Response:
    """End the session (if any), close its table sockets and clear the cookie."""
    token = session_token(request)
    await accounts.delete_session(db, token)
    await db.commit()
    await _close_sockets(request, token)
    response = Response(status_code=204)
    clear_session_cookie(response, get_runtime(request).settings)
    return response


@router.get("/me", response_model=UserOut)
async def me(user: CurrentUser) -> UserOut:
    """The logged-in user (401 ``login_required`` otherwise)."""
    return UserOut.of(user)


@router.post("/claim", response_model=UserOut)
async def claim(
    body: ClaimRequest,
    request: Request,
    response: Response,
    db: Db,
    user: CurrentUser,
    limits: Limits,
) -> UserOut:
    """Give the logged-in guest a login and password; the user id (and history) stays."""
    stored_login = accounts.check_claim(user, body.login, body.password)
    await limits.acheck("claim", client_key(request))
    with _place(limits) as place:
        await accounts.check_login_free(db, stored_login)
        await db.commit()  # ends the read (also the session lookup): no connection meanwhile
        password_hash = await place.hash(body.password)
    claimed = await accounts.claim_guest(db, user, stored_login, password_hash)
    await _start_session(request, response, db, claimed, limits)
    return UserOut.of(claimed)


@router.patch("/me", response_model=UserOut)
async def update_me(body: ProfileRequest, db: Db, user: CurrentUser) -> UserOut:
    """Change the display name and/or the language (``de`` or ``en``) of the logged-in user.

    Refuses ``bad_name`` (as at registration), ``name_taken`` (someone in one of the
    user's open or running rooms has a name alike) and ``bad_language``; nothing changes
    unless every given field is valid.
    """
    name = None if body.display_name is None else accounts.clean_display_name(body.display_name)
    if body.language is not None and body.language not in LANGUAGES:
        raise ApiError(
            422,
            "bad_language",
            f"The language is one of: {', '.join(LANGUAGES)}.",
            f"Die Sprache ist eine von: {', '.join(LANGUAGES)}.",
        )
    if name is not None and name != user.display_name:
        await rooms.check_name_free_in_rooms(db, user.id, name)
    if name is not None:
        user.display_name = name
    if body.language is not None:
        user.language = body.language
    await db.commit()
    return UserOut.of(user)
