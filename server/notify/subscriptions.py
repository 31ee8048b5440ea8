"""The devices of a person that asked for Web Push: checking and keeping subscriptions.

A subscription is what the browser's ``PushSubscription.toJSON()`` gives:
``{"endpoint": URL, "keys": {"p256dh": …, "auth": …}}``, plus an optional ``label``.
:func:`check_subscription` refuses anything else with a coded error and changes nothing:

* ``bad_push_endpoint``: the endpoint must be an ``https`` URL of at most
  :data:`MAX_ENDPOINT` characters at one of the push services the server sends to
  (``Settings.push_hosts``: the browsers' own services by default), so that nobody can
  make the server send requests to an address of his choosing; plain ``http`` only to a
  loopback host listed there (a push service on the same machine: the tests run one);
* ``bad_push_key``: ``p256dh`` must be an uncompressed P-256 point (65 bytes, first byte
  4) and ``auth`` a 16-byte secret, both base64url;
* ``bad_push_label``: a label of at most :data:`MAX_LABEL` characters, no control
  characters.

A person keeps at most :data:`MAX_DEVICES` devices (``too_many_devices``). The endpoint
is unique: a browser that subscribes again, or for another account, takes its row over.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.settings import DEFAULT_PUSH_HOSTS
from server.store.errors import ConflictError, InvalidError, NotFoundError
from server.store.models import PushSubscription

MAX_ENDPOINT = 2048
MAX_LABEL = 120
MAX_DEVICES = 10
LOOPBACK_NAMES = frozenset({"localhost"})


@dataclass(frozen=True, slots=True)
class Subscription:
    """A checked subscription."""

    endpoint: str
    p256dh: str
    auth: str
    label: str | None = None

    def info(self) -> dict[str, Any]:
        """The ``subscription_info`` that pywebpush takes."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def _bad_endpoint(why: str, why_de: str) -> InvalidError:
    return InvalidError(
        "bad_push_endpoint",
        f"The push endpoint {why}.",
        f"Die Push-Adresse {why_de}.",
    )


def _is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_allowed(host: str, hosts: tuple[str, ...]) -> bool:
    """Whether ``host`` is one of ``hosts`` (``*.domain``: any host below the domain).

    >>> hosts = ("fcm.googleapis.com", "*.notify.windows.com")
    >>> [host_allowed(h, hosts) for h in ("FCM.googleapis.com", "wns2-db5p.notify.windows.com",
    ...                                   "notify.windows.com", "evil.example")]
    [True, True, False, False]
    """
    host = host.lower().rstrip(".")
    for allowed in hosts:
        if allowed.startswith("*."):
            if host.endswith(allowed[1:]) and len(host) > len(allowed) - 1:
                return True
        elif host == allowed.strip("[]"):
            return True
    return False


def check_endpoint(endpoint: object, hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS) -> str:
    """``endpoint`` if it is an acceptable push endpoint at one of ``hosts``, else
    ``bad_push_endpoint``.

    >>> check_endpoint("https://fcm.googleapis.com/fcm/send/abc")
    'https://fcm.googleapis.com/fcm/send/abc'
    >>> check_endpoint("http://127.0.0.1:8123/p", ("127.0.0.1",))
    'http://127.0.0.1:8123/p'
    >>> check_endpoint("http://127.0.0.1:8123/p")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    server.store.errors.InvalidError: The push endpoint is not at a push service this ...
    >>> check_endpoint("http://push.example/abc", ("push.example",))
    Traceback (most recent call last):
    ...
    server.store.errors.InvalidError: The push endpoint must be an https address.
    """
    if not isinstance(endpoint, str) or not endpoint:
        raise _bad_endpoint("is missing", "fehlt")
    if len(endpoint) > MAX_ENDPOINT:
        raise _bad_endpoint(
            f"may have at most {MAX_ENDPOINT} characters",
            f"darf höchstens {MAX_ENDPOINT} Zeichen haben",
        )
    if not endpoint.isascii() or any(c.isspace() or not c.isprintable() for c in endpoint):
        raise _bad_endpoint("contains characters a URL may not", "enthält unerlaubte Zeichen")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        _ = parts.port  # a port that is no number raises here
    except ValueError:
        raise _bad_endpoint("is no valid URL", "ist keine gültige URL") from None
    if not host or parts.username is not None or parts.password is not None:
        raise _bad_endpoint("is no valid URL", "ist keine gültige URL")
    if not (parts.scheme == "https" or (parts.scheme == "http" and _is_loopback(host))):
        raise _bad_endpoint("must be an https address", "muss eine https-Adresse sein")
    if not host_allowed(host, hosts):
        raise _bad_endpoint(
            "is not at a push service this server sends to",
            "gehört zu keinem Push-Dienst, an den dieser Server sendet",
        )
    return endpoint


def _key_bytes(value: object) -> bytes | None:
    if not isinstance(value, str) or not value or len(value) > 200 or not value.isascii():
        return None
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def _bad_key(name: str) -> InvalidError:
    return InvalidError(
        "bad_push_key",
        f"keys.{name}: not a valid key of a push subscription.",
        f"keys.{name}: kein gültiger Schlüssel eines Push-Abonnements.",
    )


def check_keys(keys: object) -> tuple[str, str]:
    """``(p256dh, auth)`` of a subscription's ``keys``, else ``bad_push_key``."""
    if not isinstance(keys, dict):
        raise _bad_key("p256dh")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    point = _key_bytes(p256dh)
    if point is None or len(point) != 65 or point[0] != 4:
        raise _bad_key("p256dh")
    secret = _key_bytes(auth)
    if secret is None or len(secret) != 16:
        raise _bad_key("auth")
    assert isinstance(p256dh, str) and isinstance(auth, str)
    return p256dh.rstrip("="), auth.rstrip("=")


def check_label(label: object) -> str | None:
    """The device's label (stripped; None when empty), else ``bad_push_label``."""
    if label is None:
        return None
    bad = not isinstance(label, str) or len(label) > MAX_LABEL
    if not bad:
        assert isinstance(label, str)
        bad = any(unicodedata.category(c).startswith("C") for c in label)
    if bad:
        raise InvalidError(
            "bad_push_label",
            f"label: at most {MAX_LABEL} characters, no control characters.",
            f"label: höchstens {MAX_LABEL} Zeichen, keine Steuerzeichen.",
        )
    assert isinstance(label, str)
    return label.strip() or None


def check_subscription(body: object, hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS) -> Subscription:
    """A browser's subscription JSON (plus ``label``) checked, its endpoint at one of
    ``hosts``; see the module's text."""
    if not isinstance(body, dict):
        raise _bad_endpoint("is missing", "fehlt")
    endpoint = check_endpoint(body.get("endpoint"), hosts)
    p256dh, auth = check_keys(body.get("keys"))
    return Subscription(endpoint, p256dh, auth, check_label(body.get("label")))


async def add(
    session: AsyncSession, user_id: int, subscription: Subscription, now: datetime
) -> PushSubscription:
    """Keep ``subscription`` for ``user_id`` (taking over a row with the same endpoint);
    ``too_many_devices`` when the person has :data:`MAX_DEVICES` others. Not committed."""
    row = await session.scalar(
        select(PushSubscription).where(PushSubscription.endpoint == subscription.endpoint)
    )
    if row is None or row.user_id != user_id:
        count = await session.scalar(
            select(func.count())
            .select_from(PushSubscription)
            .where(PushSubscription.user_id == user_id)
        )
        if (count or 0) >= MAX_DEVICES:
            raise ConflictError(
                "too_many_devices",
                f"At most {MAX_DEVICES} devices may receive notifications; switch one off first.",
                f"Höchstens {MAX_DEVICES} Geräte können Benachrichtigungen bekommen; "
                "schalte zuerst eines ab.",
            )
    if row is None:
        row = PushSubscription(endpoint=subscription.endpoint, created_at=now)
        session.add(row)
    row.user_id = user_id
    row.p256dh = subscription.p256dh
    row.auth = subscription.auth
    row.label = subscription.label
    await session.flush()
    return row


async def remove(session: AsyncSession, user_id: int, endpoint: str) -> None:
    """Forget ``user_id``'s device with ``endpoint``; ``push_subscription_unknown`` when he
    has none such. Not committed."""
    result = await session.execute(
        delete(PushSubscription).where(
            PushSubscription.user_id == user_id, PushSubscription.endpoint == endpoint
        )
    )
    if not getattr(result, "rowcount", 0):
        raise NotFoundError(
            "push_subscription_unknown",
            "This device does not receive notifications.",
            "Dieses Gerät bekommt keine Benachrichtigungen.",
        )


async def of_user(session: AsyncSession, user_id: int) -> list[PushSubscription]:
    """``user_id``'s devices, the oldest first."""
    rows = await session.scalars(
        select(PushSubscription)
        .where(PushSubscription.user_id == user_id)
        .order_by(PushSubscription.id)
    )
    return list(rows)
