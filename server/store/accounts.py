"""Accounts: registered users, guests, passwords (argon2id) and login sessions.

Every function takes an :class:`AsyncSession` and leaves the transaction to the caller:
changes are flushed, never committed. Refusals raise a :class:`StoreError` subclass with
a stable code:

=================== =============================================================
``bad_login``       login name not 3–40 of ``a-z A-Z 0-9 . _ -``
``bad_name``        display name empty, longer than 40 or not printable
``weak_password``   password shorter than 8 characters
``password_too_long`` password longer than 1024 characters
``login_taken``     the login name is in use (case does not matter)
``bad_credentials`` unknown login or wrong password (one error for both)
``not_a_guest``     only a guest account can be claimed
=================== =============================================================

Login names are stored lower-cased, so the unique constraint of ``users.login`` makes
them unique regardless of case. The session cookie carries a random token; the
database keeps only its SHA-256 (``sessions.token_hash``).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.errors import (
    ConflictError,
    CredentialsError,
    ForbiddenError,
    InvalidError,
    clean_name,
)
from server.store.models import User, UserSession

#: How long a login session lasts (also the cookie's Max-Age).
SESSION_LIFETIME = timedelta(days=30)
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
MAX_NAME = 40

_LOGIN = re.compile(r"[A-Za-z0-9._-]{3,40}")
_hasher = PasswordHasher()  # argon2id with the library's recommended parameters
# Verified against when the login is unknown, so that both failures cost the same time.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


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
    """Return ``name`` stripped (NFC); raise ``bad_name`` unless 1–40 printable characters."""
    return clean_name(
        name,
        MAX_NAME,
        "bad_name",
        f"A display name has 1 to {MAX_NAME} printable characters.",
        f"Ein Anzeigename hat 1 bis {MAX_NAME} druckbare Zeichen.",
    )


def check_password(password: str) -> None:
    """Raise ``weak_password`` (too short) or ``password_too_long``; else return."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise InvalidError(
            "weak_password",
            f"A password needs at least {MIN_PASSWORD} characters.",
            f"Ein Passwort braucht mindestens {MIN_PASSWORD} Zeichen.",
        )
    if len(password) > MAX_PASSWORD:
        raise InvalidError(
            "password_too_long",
            f"A password has at most {MAX_PASSWORD} characters.",
            f"Ein Passwort hat höchstens {MAX_PASSWORD} Zeichen.",
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


async def _hash(password: str) -> str:
    # argon2 is deliberately slow; keep the event loop free while it works.
    return await asyncio.to_thread(_hasher.hash, password)


async def _verify(password_hash: str, password: str) -> bool:
    def verify() -> bool:
        try:
            return _hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)


async def _login_in_use(session: AsyncSession, login: str) -> bool:
    found = await session.scalar(select(User.id).where(User.login == login))
    return found is not None


async def _flush_or_taken(session: AsyncSession) -> None:
    try:
        await session.flush()
    except IntegrityError:  # a concurrent registration took the name first
        raise _login_taken() from None


# --------------------------------------------------------------------------- users


async def register(session: AsyncSession, login: str, password: str, display_name: str) -> User:
    """Create a registered user; raise bad_login, bad_name, weak_password or login_taken."""
    stored_login = normalize_login(login)
    name = clean_display_name(display_name)
    check_password(password)
    if await _login_in_use(session, stored_login):
        raise _login_taken()
    user = User(
        login=stored_login,
        display_name=name,
        password_hash=await _hash(password),
        is_guest=False,
    )
    session.add(user)
    await _flush_or_taken(session)
    await session.refresh(user)
    return user


async def create_guest(session: AsyncSession, display_name: str) -> User:
    """Create a guest (display name only, no login, no password); raise bad_name."""
    user = User(login=None, display_name=clean_display_name(display_name), is_guest=True)
    session.add(user)
    await session.flush()
    await session.refresh(user)
    return user


async def verify_login(session: AsyncSession, login: str, password: str) -> User:
    """Return the user whose login and password match; else raise ``bad_credentials``.

    An unknown login costs the same argon2 verification as a wrong password, and both
    give the same error. A hash made with older parameters is replaced (flushed).
    """
    try:
        stored_login = normalize_login(login)
    except InvalidError:
        stored_login = None
    user = None
    if stored_login is not None:
        user = await session.scalar(select(User).where(User.login == stored_login))
    if user is None or user.password_hash is None:
        await _verify(_DUMMY_HASH, password if isinstance(password, str) else "")
        raise _bad_credentials()
    if not await _verify(user.password_hash, password):
        raise _bad_credentials()
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = await _hash(password)
        await session.flush()
    return user


async def claim_guest(session: AsyncSession, user: User, login: str, password: str) -> User:
    """Turn the guest ``user`` into a registered account (same id, so history stays).

    Raises not_a_guest, bad_login, weak_password or login_taken.
    """
    if not user.is_guest:
        raise ForbiddenError(
            "not_a_guest",
            "Only a guest account can be claimed.",
            "Nur ein Gastkonto kann übernommen werden.",
        )
    stored_login = normalize_login(login)
    check_password(password)
    if await _login_in_use(session, stored_login):
        raise _login_taken()
    user.login = stored_login
    user.password_hash = await _hash(password)
    user.is_guest = False
    await _flush_or_taken(session)
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
