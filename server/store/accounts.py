"""Accounts: registered users, guests, passwords (argon2id) and login sessions.

Every function takes an :class:`AsyncSession` and leaves the transaction to the caller:
changes are flushed, never committed. Refusals raise a :class:`StoreError` subclass with
a stable code:

=================== =============================================================
``bad_login``       login name not 3–40 of ``a-z A-Z 0-9 . _ -``
``bad_name``        display name breaks a rule of :mod:`server.store.names`
``weak_password``   a new password breaks the policy of :func:`check_password` (the
                    message says which rule)
``password_too_long`` password longer than 1024 characters
``login_taken``     the login name is in use (case does not matter)
``bad_credentials`` unknown login or wrong password (one error for both)
``not_a_guest``     only a guest account can be claimed
=================== =============================================================

Password work (argon2, a quarter of a second of CPU) never runs while this module holds a
database connection: logging in is :func:`find_credentials` (a short read), then
:func:`check_credentials` (argon2, no session), then :func:`finish_login`; registering
and claiming hash first (:func:`register`, :func:`claim_guest` take the hash). The caller
ends the read transaction before the argon2 step (``server/api/auth.py``).

Login names are stored lower-cased, so the unique constraint of ``users.login`` makes
them unique regardless of case. The session cookie carries a random token; the
database keeps only its SHA-256 (``sessions.token_hash``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import CursorResult, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.common_passwords import is_common_password
from server.store.errors import (
    ConflictError,
    CredentialsError,
    ForbiddenError,
    InvalidError,
)
from server.store.models import User, UserSession
from server.store.names import MAX_NAME, clean_person_name
from server.store.passwords import PasswordWork, default_pool

#: How long a login session lasts (also the cookie's Max-Age).
SESSION_LIFETIME = timedelta(days=30)
MIN_PASSWORD = 8
#: A new password has at least this many different characters (``aaaaaaaa``,
#: ``12121212`` do not count as passwords).
MIN_DISTINCT = 5
MAX_PASSWORD = 1024

_LOGIN = re.compile(r"[A-Za-z0-9._-]{3,40}")
_NOT_ALNUM = re.compile(r"[\W_]+")
#: Names shorter than this are only compared whole with a password, not looked for in it.
_MIN_NAME_IN_PASSWORD = 3


# --------------------------------------------------------------------------- checks


def normalize_login(login: str) -> str:
    """Return the stored form of ``login`` (lower-cased); raise ``bad_login`` if invalid."""
    if not isinstance(login, str) or not _LOGIN.fullmatch(login):
        raise InvalidError(
            "bad_login",
            "A login name has 3 to 40 characters: letters a–z, digits, '.', '_' or '-'.",
            "Ein Login-Name hat 3 bis 40 Zeichen: Buchstaben a–z, Ziffern, '.', '_' oder '-'.",
        )
    return login.lower()


def clean_display_name(name: str) -> str:
    """Return ``name`` as a new display name (NFKC, stripped, single spaces); raise
    ``bad_name`` naming the broken rule (:func:`server.store.names.clean_person_name`)."""
    return clean_person_name(name, MAX_NAME)


def _weak(message: str, message_de: str) -> InvalidError:
    return InvalidError("weak_password", message, message_de)


def _contains_name(password: str, name: str | None) -> bool:
    if not name:
        return False
    folded = name.strip().casefold()
    compact = _NOT_ALNUM.sub("", folded)
    password_compact = _NOT_ALNUM.sub("", password)
    for key, text in ((folded, password), (compact, password_compact)):
        if key and (text == key or (len(key) >= _MIN_NAME_IN_PASSWORD and key in text)):
            return True
    return False


def check_password(
    password: str, *, login: str | None = None, display_name: str | None = None
) -> None:
    """Check a new password; raise ``weak_password`` (the message names the rule) or
    ``password_too_long``.

    A new password has at least :data:`MIN_PASSWORD` characters not counting spaces at
    its start and end, at least :data:`MIN_DISTINCT` different ones, is not one of the
    most common passwords nor a word of the site or its games with a number around it
    (:mod:`server.store.common_passwords`) and neither is nor
    contains the login or the display name (case does not matter). Existing passwords
    are never checked again.
    """
    if not isinstance(password, str):
        raise _weak("A password is text.", "Ein Passwort ist ein Text.")
    if len(password) > MAX_PASSWORD:
        raise InvalidError(
            "password_too_long",
            f"A password has at most {MAX_PASSWORD} characters.",
            f"Ein Passwort hat höchstens {MAX_PASSWORD} Zeichen.",
        )
    core = password.strip()
    if len(core) < MIN_PASSWORD:
        raise _weak(
            f"A password needs at least {MIN_PASSWORD} characters, not counting spaces at "
            "its start and end.",
            f"Ein Passwort braucht mindestens {MIN_PASSWORD} Zeichen, Leerzeichen am Anfang "
            "und Ende nicht mitgezählt.",
        )
    if len(set(core)) < MIN_DISTINCT:
        raise _weak(
            f"A password needs at least {MIN_DISTINCT} different characters.",
            f"Ein Passwort braucht mindestens {MIN_DISTINCT} verschiedene Zeichen.",
        )
    folded = core.casefold()
    if is_common_password(folded):
        raise _weak(
            "This password is one of the most common ones; please choose another.",
            "Dieses Passwort gehört zu den häufigsten; bitte ein anderes wählen.",
        )
    if _contains_name(folded, login) or _contains_name(folded, display_name):
        raise _weak(
            "A password may not be or contain your login or display name.",
            "Ein Passwort darf nicht der Login- oder Anzeigename sein oder ihn enthalten.",
        )


def _login_taken() -> ConflictError:
    return ConflictError(
        "login_taken",
        "This login name is already taken.",
        "Dieser Login-Name ist schon vergeben.",
    )


def _bad_credentials() -> CredentialsError:
    return CredentialsError(
        "bad_credentials",
        "Login name or password is wrong.",
        "Login-Name oder Passwort ist falsch.",
    )


def bad_credentials() -> CredentialsError:
    """The one refusal for an unknown login name and a wrong password alike."""
    return _bad_credentials()


async def check_login_free(session: AsyncSession, login: str) -> None:
    """Raise ``login_taken`` when the (stored, lower-cased) ``login`` belongs to an account."""
    found = await session.scalar(select(User.id).where(User.login == login))
    if found is not None:
        raise _login_taken()


async def _flush_or_taken(session: AsyncSession) -> None:
    try:
        await session.flush()
    except IntegrityError:  # a concurrent registration took the name first
        raise _login_taken() from None


# --------------------------------------------------------------------------- users


@dataclass(frozen=True, slots=True)
class NewAccount:
    """A registration that passed the checks: the stored login and the display name."""

    login: str
    display_name: str


def check_registration(login: str, password: str, display_name: str) -> NewAccount:
    """Check a registration without touching the database; raise bad_login, bad_name,
    weak_password or password_too_long."""
    stored_login = normalize_login(login)
    name = clean_display_name(display_name)
    check_password(password, login=stored_login, display_name=name)
    return NewAccount(stored_login, name)


async def create_user(session: AsyncSession, account: NewAccount, password_hash: str) -> User:
    """Add the registered user ``account`` with ``password_hash``; raise login_taken."""
    user = User(
        login=account.login,
        display_name=account.display_name,
        password_hash=password_hash,
        is_guest=False,
    )
    session.add(user)
    await _flush_or_taken(session)
    await session.refresh(user)
    return user


async def register(
    session: AsyncSession,
    login: str,
    password: str,
    display_name: str,
    passwords: PasswordWork | None = None,
) -> User:
    """Create a registered user; raise bad_login, bad_name, weak_password or login_taken.

    The password is hashed before the session is used, so a caller without an open
    transaction holds no connection meanwhile.
    """
    account = check_registration(login, password, display_name)
    password_hash = await (passwords or default_pool()).hash(password)
    await check_login_free(session, account.login)
    return await create_user(session, account, password_hash)


async def create_guest(session: AsyncSession, display_name: str) -> User:
    """Create a guest (display name only, no login, no password); raise bad_name."""
    user = User(login=None, display_name=clean_display_name(display_name), is_guest=True)
    session.add(user)
    await session.flush()
    await session.refresh(user)
    return user


@dataclass(frozen=True, slots=True)
class Credentials:
    """What logging in needs of an account: its id and password hash."""

    user_id: int
    password_hash: str | None


@dataclass(frozen=True, slots=True)
class Verified:
    """A login whose password matched; ``new_hash`` replaces an outdated hash."""

    user_id: int
    old_hash: str
    new_hash: str | None


async def find_credentials(session: AsyncSession, login: str) -> Credentials | None:
    """The id and password hash of the account ``login`` (any case); None when there is
    no such account or the login is not even well-formed."""
    try:
        stored_login = normalize_login(login)
    except InvalidError:
        return None
    row = (
        await session.execute(select(User.id, User.password_hash).where(User.login == stored_login))
    ).first()
    return None if row is None else Credentials(row[0], row[1])


async def check_credentials(
    found: Credentials | None, password: str, passwords: PasswordWork | None = None
) -> Verified:
    """Verify ``password`` against ``found`` (argon2 in ``passwords``, a pool or a place
    in one; no session, so call it holding no database connection); raise
    ``bad_credentials``.

    An unknown login costs the same argon2 verification as a wrong password, and both
    give the same error. A hash made with older parameters gets a new one (``new_hash``).
    Raises :class:`server.store.passwords.PasswordsBusy` when a pool is full.
    """
    pool = passwords or default_pool()
    given = password if isinstance(password, str) else ""
    stored = None if found is None else found.password_hash
    if found is None or stored is None:
        await pool.verify(None, given)  # the same work as for a wrong password
        raise _bad_credentials()
    if not await pool.verify(stored, given):
        raise _bad_credentials()
    new_hash = await pool.hash(given) if pool.needs_rehash(stored) else None
    return Verified(found.user_id, stored, new_hash)


async def finish_login(session: AsyncSession, verified: Verified) -> User:
    """Load the user of a verified login and store a renewed hash (flushed); raise
    ``bad_credentials`` if the account went away meanwhile."""
    if verified.new_hash is not None:
        await session.execute(
            update(User)
            .where(User.id == verified.user_id, User.password_hash == verified.old_hash)
            .values(password_hash=verified.new_hash),
            execution_options={"synchronize_session": False},
        )
    user = await session.get(User, verified.user_id, populate_existing=True)
    if user is None:
        raise _bad_credentials()
    return user


def check_claim(user: User, login: str, password: str) -> str:
    """Check that the guest ``user`` may take ``login`` and ``password`` (no database);
    return the stored login. Raises not_a_guest, bad_login, weak_password."""
    if not user.is_guest:
        raise _not_a_guest()
    stored_login = normalize_login(login)
    check_password(password, login=stored_login, display_name=user.display_name)
    return stored_login


def _not_a_guest() -> ForbiddenError:
    return ForbiddenError(
        "not_a_guest",
        "Only a guest account can be claimed.",
        "Nur ein Gastkonto kann übernommen werden.",
    )


async def claim_guest(session: AsyncSession, user: User, login: str, password_hash: str) -> User:
    """Turn the guest ``user`` into a registered account with the stored ``login`` (from
    :func:`check_claim`) and ``password_hash`` (same id, so history stays).

    Raises not_a_guest (also when the account was claimed meanwhile) or login_taken.
    """
    await check_login_free(session, login)
    try:
        result = await session.execute(
            update(User)
            .where(User.id == user.id, User.is_guest.is_(True))
            .values(login=login, password_hash=password_hash, is_guest=False),
            execution_options={"synchronize_session": False},
        )
    except IntegrityError:  # a concurrent registration took the name first
        raise _login_taken() from None
    assert isinstance(result, CursorResult)
    if result.rowcount != 1:
        raise _not_a_guest()
    await session.refresh(user)
    return user


async def get_user(session: AsyncSession, user_id: int) -> User | None:
    """Return the user with ``user_id``, or None."""
    return await session.get(User, user_id)


# --------------------------------------------------------------------------- sessions


def token_hash(token: str) -> str:
    """Return the SHA-256 hex digest of a session token (what the database stores)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def create_session(session: AsyncSession, user_id: int) -> str:
    """Start a login session for ``user_id``; return the token for the cookie.

    Only the token's SHA-256 is stored; the session expires after :data:`SESSION_LIFETIME`.
    Expired sessions of the same user are removed on the way.
    """
    now = _utcnow()
    await session.execute(
        delete(UserSession).where(UserSession.user_id == user_id, UserSession.expires_at <= now)
    )
    token = secrets.token_urlsafe(32)
    session.add(
        UserSession(
            token_hash=token_hash(token),
            user_id=user_id,
            created_at=now,
            expires_at=now + SESSION_LIFETIME,
        )
    )
    await session.flush()
    return token


async def user_for_token(session: AsyncSession, token: str | None) -> User | None:
    """Return the user of the session ``token``; None when missing, unknown or expired.

    Read-only: it neither commits nor deletes anything.
    """
    if not token:
        return None
    row = await session.execute(
        select(User, UserSession.expires_at)
        .join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.token_hash == token_hash(token))
    )
    found = row.first()
    if found is None:
        return None
    user, expires_at = found
    if _aware(expires_at) <= _utcnow():
        return None
    return user


async def delete_session(session: AsyncSession, token: str | None) -> None:
    """End the session ``token`` (logout); unknown or missing tokens are ignored."""
    if token:
        await session.execute(
            delete(UserSession).where(UserSession.token_hash == token_hash(token))
        )
