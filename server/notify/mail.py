"""E-mail: a person's address and its verification, and sending mails over SMTP.

An address is kept unverified until the person opens the link of the verification mail
(a random token; ``email_tokens`` keeps its SHA-256, valid :data:`TOKEN_LIFETIME`). Mails
go out through the configured SMTP server (``STAMMTISCH_SMTP_*``) with the standard
library's smtplib, in a thread, at most :data:`SMTP_TIMEOUT` seconds per mail.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import smtplib
import ssl
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from server.settings import Settings
from server.store.errors import InvalidError, NotFoundError
from server.store.models import EmailToken, User

TOKEN_LIFETIME = timedelta(hours=24)
SMTP_TIMEOUT = 20.0
MAX_EMAIL = 254
#: local part @ domain with at least one dot; no spaces, quotes or angle brackets
EMAIL_PATTERN = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")


def check_email(value: object) -> str:
    """``value`` as an e-mail address (stripped; the domain in lower case), else
    ``bad_email``.

    >>> check_email(" Anna@Example.ORG ")
    'Anna@example.org'
    >>> check_email("anna@localhost")
    Traceback (most recent call last):
    ...
    server.store.errors.InvalidError: email: not a valid e-mail address.
    """
    text = value.strip() if isinstance(value, str) else ""
    if len(text) > MAX_EMAIL or not EMAIL_PATTERN.fullmatch(text):
        raise InvalidError(
            "bad_email",
            "email: not a valid e-mail address.",
            "email: keine gültige E-Mail-Adresse.",
        )
    local, domain = text.rsplit("@", 1)
    return f"{local}@{domain.lower()}"


def token_hash(token: str) -> str:
    """The SHA-256 (hex) under which a verification token is kept."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def start_verification(
    session: AsyncSession, user: User, email: str, token: str, now: datetime
) -> None:
    """Keep ``email`` as ``user``'s unverified address, with ``token`` (sent to it) as the
    one open verification; earlier tokens of the person are void. Not committed."""
    await session.execute(delete(EmailToken).where(EmailToken.user_id == user.id))
    user.email = email
    user.email_verified_at = None
    session.add(
        EmailToken(
            token_hash=token_hash(token),
            user_id=user.id,
            email=email,
            expires_at=now + TOKEN_LIFETIME,
        )
    )
    await session.flush()


def new_token() -> str:
    """A new verification token (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


async def verify(session: AsyncSession, token: str, now: datetime) -> User:
    """Mark the address of ``token`` as verified; ``email_token_invalid`` for an unknown,
    used or expired token, or one for an address the person no longer has. Not committed."""
    row = await session.get(EmailToken, token_hash(token)) if len(token) <= 100 else None
    user = await session.get(User, row.user_id) if row is not None else None
    if row is None or user is None or _aware(row.expires_at) < now or user.email != row.email:
        raise NotFoundError(
            "email_token_invalid",
            "This confirmation link is invalid or has expired; ask for a new one on the "
            "account page.",
            "Dieser Bestätigungslink ist ungültig oder abgelaufen; fordere auf der "
            "Kontoseite einen neuen an.",
        )
    user.email_verified_at = now
    await session.execute(delete(EmailToken).where(EmailToken.user_id == user.id))
    return user


def _aware(moment: datetime) -> datetime:
    # SQLite gives back naive datetimes (stored as UTC)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Mail:
    """One mail: recipient, subject, plain text and an HTML alternative."""

    to: str
    subject: str
    text: str
    html: str


def build(mail: Mail, settings: Settings) -> EmailMessage:
    """The message of ``mail`` from ``Settings.mail_from``."""
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=settings.mail_from.rsplit("@", 1)[-1] or None)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(mail.text)
    message.add_alternative(mail.html, subtype="html")
    return message


def _send_now(message: EmailMessage, settings: Settings) -> None:
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT) as smtp:
        if settings.smtp_starttls:
            smtp.starttls(context=ssl.create_default_context())
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password)
        smtp.send_message(message)


async def send(mail: Mail, settings: Settings) -> None:
    """Send ``mail`` through the configured SMTP server (in a thread); raises
    :class:`OSError` or :class:`smtplib.SMTPException` when it could not be handed over."""
    if not settings.smtp_host:
        raise smtplib.SMTPException("no SMTP server is configured")
    message = build(mail, settings)
    await asyncio.wait_for(asyncio.to_thread(_send_now, message, settings), SMTP_TIMEOUT + 5)
