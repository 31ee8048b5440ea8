"""Sending one Web Push message (RFC 8030/8291/8292) with pywebpush.

pywebpush is synchronous (``requests``), so :func:`send` runs it in a thread and waits at
most :data:`TIMEOUT` seconds. The payload is encrypted for the subscription (aes128gcm)
and the request signed with the server's VAPID key; the push service sees the endpoint,
the VAPID claim (the audience, an expiry, the contact ``Settings.push_subject``), the
TTL and the size of the encrypted payload, never its text.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
from typing import Any

from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from server.notify.subscriptions import Subscription

logger = logging.getLogger(__name__)

#: Seconds a push service may take to answer.
TIMEOUT = 10.0
#: The longest a push service keeps an undelivered message (four weeks).
MAX_TTL = 28 * 24 * 3600


class Outcome(enum.Enum):
    """What became of one message."""

    SENT = "sent"
    #: the push service says the subscription is no more (404/410): forget it
    GONE = "gone"
    FAILED = "failed"


def vapid_signer(private_pem: str) -> Vapid02:
    """The VAPID signer of the server's key."""
    return Vapid02.from_pem(private_pem.encode("ascii"))


def _send_now(
    subscription: Subscription, payload: bytes, signer: Vapid02, subject: str, ttl: int
) -> Outcome:
    try:
        webpush(
            subscription_info=subscription.info(),
            data=payload,
            vapid_private_key=signer,
            vapid_claims={"sub": subject},  # a new dict: pywebpush adds aud and exp to it
            timeout=TIMEOUT,
            ttl=ttl,
            headers={"Urgency": "normal"},
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            return Outcome.GONE
        logger.warning("Web Push to %s refused: %s", _where(subscription), status or exc)
        return Outcome.FAILED
    except Exception as exc:  # network trouble, a broken key: logged, never raised
        logger.warning("Web Push to %s failed: %r", _where(subscription), exc)
        return Outcome.FAILED
    return Outcome.SENT


def _where(subscription: Subscription) -> str:
    # the endpoint's host only: its path identifies the device
    return subscription.endpoint.split("/", 3)[2] if "//" in subscription.endpoint else "?"


async def send(
    subscription: Subscription,
    message: dict[str, Any],
    signer: Vapid02,
    subject: str,
    ttl: int = 24 * 3600,
) -> Outcome:
    """Send ``message`` (JSON) to ``subscription``; the outcome, never an exception."""
    payload = json.dumps(message, ensure_ascii=False).encode("utf-8")
    ttl = max(60, min(MAX_TTL, ttl))
    try:
        return await asyncio.wait_for(
            asyncio.to_thread(_send_now, subscription, payload, signer, subject, ttl),
            TIMEOUT + 5,
        )
    except TimeoutError:
        logger.warning("Web Push to %s timed out", _where(subscription))
        return Outcome.FAILED
