"""Notifications over HTTP: Web Push devices, the e-mail address and the digest, the
service worker, and the job that sends (:mod:`server.notify`).

* ``GET /api/push/key``: the server's VAPID public key (the browser's
  ``applicationServerKey``, unpadded base64url).
* ``GET /api/push/subscriptions``: the caller's devices; ``POST`` keeps one (the
  browser's ``PushSubscription`` JSON plus an optional ``label``; 201), ``DELETE``
  forgets one by ``{"endpoint"}`` (204). Refusals: ``bad_push_endpoint``,
  ``bad_push_key``, ``bad_push_label`` (422), ``too_many_devices`` (409),
  ``push_subscription_unknown`` (404).
* ``GET /api/account/notifications``: the caller's e-mail state and whether mail is
  offered at all.
* ``PUT /api/account/email`` ``{"email"}``: keep the address unverified and send the
  verification mail (202); ``bad_email`` (422), ``email_unavailable`` (503: no SMTP server
  configured), ``email_failed`` (502: the SMTP server did not take the mail; nothing
  changed), ``too_many_requests`` (429: at most :data:`MAIL_RATE` mails per person).
* ``PUT /api/account/email-digest`` ``{"on"}``: the daily digest on or off;
  ``email_not_verified`` (409) to switch it on without a verified address.
* ``GET /account/email/verify?token=…``: the page the verification link opens.
* ``GET /sw.js``: the service worker, served from the root so that its scope is the site.

All ``/api`` routes need a logged-in user (401 ``login_required``); the origin check and
the JSON-only rule of :mod:`server.api.security` apply as everywhere.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr

from server.api.deps import CurrentUser, Db, OptionalUser
from server.api.errors import ApiError
from server.api.pages import render
from server.api.runtime import Runtime, get_runtime
from server.api.throttle import Buckets, Rate, too_many_requests
from server.notify import mail, subscriptions, texts
from server.notify.job import Notifier, OpenPage
from server.notify.vapid import VapidKeys, load_or_create
from server.store.errors import StoreError
from server.store.models import PushSubscription, User
from server.tables.manager import TableManager

logger = logging.getLogger(__name__)

router = APIRouter(tags=["notifications"])

#: Verification mails per person: five at once, then one every twelve minutes (per process).
MAIL_RATE = Rate(burst=5, per_minute=5 / 60)


class EmailBody(BaseModel):
    """``PUT /api/account/email``."""

    model_config = ConfigDict(extra="forbid")
    email: StrictStr


class DigestBody(BaseModel):
    """``PUT /api/account/email-digest``."""

    model_config = ConfigDict(extra="forbid")
    on: StrictBool


class EndpointBody(BaseModel):
    """``DELETE /api/push/subscriptions``."""

    model_config = ConfigDict(extra="forbid")
    endpoint: StrictStr


async def vapid_keys(request: Request) -> VapidKeys:
    """The VAPID keys (made on the first start; read once per process)."""
    keys: VapidKeys | None = getattr(request.app.state, "vapid_keys", None)
    if keys is None:
        keys = await load_or_create(get_runtime(request).sessions)
        request.app.state.vapid_keys = keys
    return keys


def _device(row: PushSubscription) -> dict[str, Any]:
    return {
        "endpoint": row.endpoint,
        "label": row.label,
        "created_at": row.created_at.isoformat() if row.created_at else None,
        "last_sent_at": row.last_sent_at.isoformat() if row.last_sent_at else None,
    }


def _mail_state(user: User, runtime: Runtime) -> dict[str, Any]:
    return {
        "email_available": bool(runtime.settings.smtp_host),
        "email": user.email,
        "email_verified": user.email_verified_at is not None,
        "email_digest": user.email_digest,
    }


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker (``web/static/sw.js``) with the whole site as its scope."""
    path = get_runtime(request).web_dir / "static" / "sw.js"
    return FileResponse(
        path,
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


@router.get("/api/push/key")
async def push_key(request: Request, _user: CurrentUser) -> dict[str, str]:
    """``{"key"}``: the VAPID public key for ``pushManager.subscribe``."""
    return {"key": (await vapid_keys(request)).public_key}


@router.get("/api/push/subscriptions")
async def list_devices(db: Db, user: CurrentUser) -> dict[str, list[dict[str, Any]]]:
    """``{"devices": [{"endpoint", "label", "created_at", "last_sent_at"}]}``."""
    return {"devices": [_device(row) for row in await subscriptions.of_user(db, user.id)]}


@router.post("/api/push/subscriptions", status_code=201)
async def add_device(
    body: dict[str, Any], request: Request, db: Db, user: CurrentUser
) -> dict[str, Any]:
    """Keep this browser's push subscription for the caller (see the module's text)."""
    runtime = get_runtime(request)
    checked = subscriptions.check_subscription(body, runtime.settings.push_hosts)
    row = await subscriptions.add(db, user.id, checked, runtime.clock.now())
    await db.commit()
    return _device(row)


@router.delete("/api/push/subscriptions", status_code=204)
async def remove_device(body: EndpointBody, db: Db, user: CurrentUser) -> Response:
    """Forget the caller's device with ``endpoint``."""
    await subscriptions.remove(db, user.id, body.endpoint)
    await db.commit()
    return Response(status_code=204)


@router.get("/api/account/notifications")
async def mail_state(request: Request, user: CurrentUser) -> dict[str, Any]:
    """``{"email_available", "email", "email_verified", "email_digest"}``."""
    return _mail_state(user, get_runtime(request))


def _mail_limits(request: Request) -> Buckets:
    buckets: Buckets | None = getattr(request.app.state, "mail_limits", None)
    if buckets is None:
        buckets = request.app.state.mail_limits = Buckets(MAIL_RATE)
    return buckets


def _require_mail(runtime: Runtime) -> None:
    if not runtime.settings.smtp_host:
        raise ApiError(
            503,
            "email_unavailable",
            "This server sends no e-mail.",
            "Dieser Server verschickt keine E-Mails.",
        )


def _origin(runtime: Runtime) -> str:
    origins = runtime.settings.public_origins
    return origins[0] if origins else ""


@router.put("/api/account/email", status_code=202)
async def set_email(body: EmailBody, request: Request, db: Db, user: CurrentUser) -> dict[str, Any]:
    """Keep ``email`` (unverified) and send it the verification link (see the module)."""
    runtime = get_runtime(request)
    _require_mail(runtime)
    email = mail.check_email(body.email)
    wait = _mail_limits(request).take(user.id)
    if wait is not None:
        raise too_many_requests(wait, "confirmation mails", "Bestätigungsmails")
    token = mail.new_token()
    lang = user.language or "de"
    link = f"{_origin(runtime)}/account/email/verify?token={token}"
    letter = texts.verification_mail(runtime.catalogs.gettext, lang, email, user.display_name, link)
    try:  # sent first: a mail that did not go out changes nothing
        await mail.send(letter, runtime.settings)
    except Exception as exc:
        logger.warning("Verification mail for user %s not sent: %r", user.id, exc)
        raise ApiError(
            502,
            "email_failed",
            "The mail could not be sent; try again later.",
            "Die Mail konnte nicht verschickt werden; versuche es später noch einmal.",
        ) from None
    await mail.start_verification(db, user, email, token, runtime.clock.now())
    await db.commit()
    return _mail_state(user, runtime)


@router.put("/api/account/email-digest")
async def set_digest(
    body: DigestBody, request: Request, db: Db, user: CurrentUser
) -> dict[str, Any]:
    """Switch the daily digest on or off (on: only with a verified address)."""
    runtime = get_runtime(request)
    _require_mail(runtime)
    if body.on and (user.email is None or user.email_verified_at is None):
        raise ApiError(
            409,
            "email_not_verified",
            "Confirm your e-mail address first.",
            "Bestätige zuerst deine E-Mail-Adresse.",
        )
    user.email_digest = body.on
    await db.commit()
    return _mail_state(user, runtime)


@router.get("/account/email/verify", response_class=HTMLResponse, include_in_schema=False)
async def verify_page(
    request: Request,
    db: Db,
    user: OptionalUser,
    token: Annotated[str, Query()] = "",
) -> HTMLResponse:
    """The page of the verification link: confirms the address (or says the link is
    invalid, 404)."""
    runtime = get_runtime(request)
    try:
        verified = await mail.verify(db, token, runtime.clock.now())
    except StoreError as exc:  # nothing was changed (the session is not committed)
        return render(
            request,
            "email_verified.html",
            {"ok": False, "message": exc.message_de, "message_en": exc.message, "email": ""},
            user=user,
            status_code=404,
        )
    email = verified.email or ""
    await db.commit()
    return render(
        request,
        "email_verified.html",
        {"ok": True, "message": "", "message_en": "", "email": email},
        user=user,
    )


# --------------------------------------------------------------------------- the job


def open_page_check(tables: TableManager) -> OpenPage:
    """Whether a user has a table page open: a table socket on this process, or on any
    (``shared_sockets``, when several processes run; Redis away: this process's only)."""

    async def open_page(user_id: int) -> bool:
        if tables.sockets_of(user_id):
            return True
        shared = tables.shared_sockets
        if shared is None:
            return False
        try:
            return await shared.count(user_id) > 0
        except Exception as exc:
            logger.warning("Open table pages not known (%r); this process's only", exc)
            return False

    return open_page


async def start_notifier(app: FastAPI, runtime: Runtime, tables: TableManager) -> Notifier:
    """Make the VAPID keys if needed and start the notification job."""
    keys = await load_or_create(runtime.sessions)
    app.state.vapid_keys = keys
    notifier = Notifier(
        runtime.sessions,
        runtime.settings,
        runtime.clock,
        keys,
        runtime.catalogs.gettext,
        open_page_check(tables),
    )
    notifier.start()
    return notifier
