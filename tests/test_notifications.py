"""Notifications (Web Push and the e-mail digest) against real servers: a local push
endpoint that records what it gets (the payload decrypted with the subscription's key,
the VAPID signature checked with the server's public key), a real SMTP server
(aiosmtpd) on a free port, and the server's wall clock moved by the clock file.

The ``turns`` rows are written here directly (the tables write them in production): the
job reads them, whoever writes them.
"""

from __future__ import annotations

import asyncio
import base64
import doctest
import json
import os
import re
import secrets
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from types import ModuleType
from typing import Any

import http_ece  # type: ignore[import-untyped]
import httpx
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import delete, update

from server.api.app import create_app
from server.api.i18n import load_catalogs
from server.api.notifications import open_page_check
from server.notify import mail, reminders, subscriptions
from server.notify.job import Notifier, aware
from server.notify.reminders import due_reminder, reminder_time
from server.notify.subscriptions import MAX_DEVICES, check_subscription
from server.notify.texts import Waiting, push_message
from server.notify.vapid import VapidKeys, load_or_create
from server.settings import Settings
from server.store.db import make_engine, make_session_factory
from server.store.errors import InvalidError
from server.store.models import Match, Room, Turn, User
from tests.support import (
    REPO_ROOT,
    LiveServer,
    PushRequest,
    PushService,
    TestDatabase,
    api_error,
    closed_port,
    free_port,
    run_with_sessions,
    server_process,
    uvicorn_thread,
)
from tests.table_client import make_room, start

DAY = 86400
POLL = "0.2"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --------------------------------------------------------------------------- unit tests


def test_the_reminder_times() -> None:
    end = datetime(2026, 3, 10, 12, tzinfo=UTC)
    assert reminder_time(end, 3 * DAY, 75) == end - timedelta(hours=18)
    assert reminder_time(end, 3 * DAY, 90) == end - timedelta(hours=7, minutes=12)
    before_75 = end - timedelta(hours=18, seconds=1)
    assert due_reminder(before_75, end, 3 * DAY, 0) == 0
    assert due_reminder(end - timedelta(hours=18), end, 3 * DAY, 0) == 75
    assert due_reminder(end - timedelta(hours=18), end, 3 * DAY, 75) == 0
    assert due_reminder(end - timedelta(hours=7, minutes=12), end, 3 * DAY, 75) == 90
    # both due at once (the server was down): the 90 % one only
    assert due_reminder(end - timedelta(hours=1), end, 3 * DAY, 0) == 90
    assert due_reminder(end + timedelta(hours=1), end, 3 * DAY, 90) == 0
    # no time per move: never
    assert due_reminder(end, end, None, 0) == 0
    assert due_reminder(end, end, 0, 0) == 0
    with pytest.raises(ValueError):
        reminder_time(end, DAY, 50)


def browser_keys() -> tuple[ec.EllipticCurvePrivateKey, str, bytes, str]:
    """A browser's subscription keys: private key, p256dh, the auth secret and its text."""
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    auth = secrets.token_bytes(16)
    return key, b64url(point), auth, b64url(auth)


def subscription(endpoint: str, **extra: Any) -> dict[str, Any]:
    _, p256dh, _, auth = browser_keys()
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}, **extra}


def test_a_subscription_is_checked() -> None:
    good = subscription("https://fcm.googleapis.com/fcm/send/abc", expirationTime=None)
    checked = check_subscription({**good, "label": "  Handy  "})
    assert checked.endpoint == good["endpoint"] and checked.label == "Handy"
    local = ("127.0.0.1", "::1", "localhost")
    assert check_subscription(subscription("http://127.0.0.1:9/p"), local).endpoint.endswith("/p")
    assert check_subscription(subscription("http://[::1]:9/p"), local).endpoint.endswith("/p")
    assert check_subscription(subscription("http://localhost/p"), local).endpoint.endswith("/p")
    # only the browsers' push services by default: no request to an address of one's choice
    for endpoint in (
        "http://127.0.0.1:9/p",
        "https://127.0.0.1/p",
        "https://intranet.local/x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://notify.windows.com/x",
    ):
        with pytest.raises(InvalidError) as refused:
            check_subscription(subscription(endpoint))
        assert refused.value.code == "bad_push_endpoint", endpoint
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/x",
        "https://wns2-db5p.notify.windows.com/w/?token=x",
        "https://updates.push.services.mozilla.com/wpush/v2/x",
        "https://web.push.apple.com/QG9x",
    ):
        assert check_subscription(subscription(endpoint)).endpoint == endpoint
    padded = subscription("https://fcm.googleapis.com/fcm/send/x")
    padded["keys"]["auth"] += "=="
    assert check_subscription(padded).auth == padded["keys"]["auth"].rstrip("=")
    p256dh = good["keys"]["p256dh"]
    compressed = b64url(b"\x02" + unb64url(p256dh)[1:33])
    cases: list[tuple[Any, str]] = [
        ("not an object", "bad_push_endpoint"),
        ({**good, "endpoint": None}, "bad_push_endpoint"),
        ({**good, "endpoint": "http://push.example/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "http://10.0.0.1/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "ftp://push.example/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "https:///x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "https://u:p@push.example/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "https://push.example:99999/x"}, "bad_push_endpoint"),
        ({**good, "endpoint": "https://push.example/a b"}, "bad_push_endpoint"),
        ({**good, "endpoint": "https://push.example/" + "a" * 2048}, "bad_push_endpoint"),
        ({**good, "keys": None}, "bad_push_key"),
        ({**good, "keys": {"auth": good["keys"]["auth"]}}, "bad_push_key"),
        ({**good, "keys": {**good["keys"], "p256dh": compressed}}, "bad_push_key"),
        ({**good, "keys": {**good["keys"], "p256dh": "!!!"}}, "bad_push_key"),
        ({**good, "keys": {**good["keys"], "auth": b64url(b"x" * 15)}}, "bad_push_key"),
        ({**good, "keys": {**good["keys"], "auth": 5}}, "bad_push_key"),
        ({**good, "label": "x" * 121}, "bad_push_label"),
        ({**good, "label": "a\nb"}, "bad_push_label"),
        ({**good, "label": 7}, "bad_push_label"),
    ]
    for body, code in cases:
        with pytest.raises(InvalidError) as raised:
            check_subscription(body)
        assert raised.value.code == code, body
        assert raised.value.message != raised.value.message_de


def test_the_vapid_key_is_made_once(store_db: TestDatabase) -> None:
    """Processes starting at once (here: sessions at once) end up with the same key."""

    async def scenario(sessions: Any) -> tuple[list[VapidKeys], VapidKeys]:
        keys = await asyncio.gather(*(load_or_create(sessions) for _ in range(4)))
        return list(keys), await load_or_create(sessions)

    keys, again = run_with_sessions(store_db, scenario)
    assert len({k.private_pem for k in keys}) == 1 and again == keys[0]
    point = unb64url(again.public_key)
    assert len(point) == 65 and point[0] == 4
    public = again.private_key.public_key()
    assert (
        public.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        == point
    )


# --------------------------------------------------------------------------- local services


class MailBox:
    """aiosmtpd's handler: keeps every mail it is given."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.mails.append((list(envelope.rcpt_tos), message))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[int, MailBox]]:
    box = MailBox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, box
    finally:
        controller.stop()


@pytest.fixture
def clock_file(tmp_path: Path) -> Path:
    path = tmp_path / "clock"
    path.write_text("0")
    return path


def move_clock(path: Path, seconds: float) -> None:
    """Run the server's clock ``seconds`` ahead of the machine's."""
    path.write_text(str(seconds))
    stat = path.stat()  # a new mtime even within the same clock tick
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))


def server_now(path: Path) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=float(path.read_text()))


# --------------------------------------------------------------------------- the database


async def with_db(db_url: str, work: Callable[[Any], Any]) -> Any:
    engine = make_engine(db_url)
    try:
        async with make_session_factory(engine)() as session:
            result = await work(session)
            await session.commit()
            return result
    finally:
        await engine.dispose()


async def make_correspondence(db_url: str, match_id: int, tempo: int) -> None:
    async def work(session: Any) -> None:
        match = await session.get(Match, match_id)
        match.config = {**match.config, "tempo_seconds": tempo}
        await session.execute(
            update(Room).where(Room.id == match.room_id).values(tempo_seconds=tempo)
        )

    await with_db(db_url, work)


async def set_paused(db_url: str, match_id: int, paused: bool) -> None:
    moment = datetime.now(UTC) if paused else None
    await with_db(
        db_url,
        lambda session: session.execute(
            update(Match).where(Match.id == match_id).values(paused_at=moment)
        ),
    )


async def put_turn(
    db_url: str, match_id: int, room_id: int, user_id: int, version: int, deadline: datetime
) -> None:
    async def work(session: Any) -> None:
        await session.execute(delete(Turn).where(Turn.match_id == match_id))
        session.add(
            Turn(
                match_id=match_id,
                room_id=room_id,
                user_id=user_id,
                seat=0,
                version=version,
                since=deadline - timedelta(seconds=DAY),
                deadline=deadline,
                reminded=0,
                notified=False,
            )
        )

    await with_db(db_url, work)


async def read_turn(db_url: str, match_id: int) -> Turn:
    async def work(session: Any) -> Turn:
        turn = await session.get(Turn, match_id)
        assert isinstance(turn, Turn)
        return turn

    result: Turn = await with_db(db_url, work)
    return result


async def eventually(check: Callable[[], Any], timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if time.monotonic() > end:
            raise AssertionError("not within the time")
        await asyncio.sleep(0.05)


def decrypt(request: PushRequest, key: ec.EllipticCurvePrivateKey, auth: bytes) -> Any:
    assert request.headers["content-encoding"] == "aes128gcm"
    plain = http_ece.decrypt(request.body, private_key=key, auth_secret=auth, version="aes128gcm")
    return json.loads(plain)


def check_vapid(request: PushRequest, public_key: str, audience: str) -> None:
    """The request carries a VAPID JWT for ``audience`` that verifies with the key."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(item.split("=", 1) for item in params.split(","))
    assert parts["k"] == public_key
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    body = json.loads(unb64url(claims))
    assert body["aud"] == audience
    assert body["sub"] == "mailto:admin@localhost"
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    raw = unb64url(signature)
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    point.verify(der, f"{head}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))


# --------------------------------------------------------------------------- push, end to end


def test_web_push_your_move_and_the_reminders(
    play_db_url: str, tmp_path: Path, push_service: PushService, clock_file: Path
) -> None:
    env = {"STAMMTISCH_CLOCK_FILE": str(clock_file), "STAMMTISCH_DEADLINE_POLL_SECONDS": POLL}
    db_url = play_db_url
    with server_process(db_url, tmp_path / "server.log", env=env) as (base, _process):
        asyncio.run(push_scenario(base, db_url, push_service, clock_file))


async def push_scenario(base: str, db_url: str, service: PushService, clock: Path) -> None:
    clients, room, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Clara"])
    anna, bernd, _clara = clients
    match_id = await start(anna, room)
    await make_correspondence(db_url, match_id, DAY)

    key_answer = await bernd.http.get("/api/push/key")
    assert key_answer.status_code == 200
    public_key = key_answer.json()["key"]
    assert len(unb64url(public_key)) == 65 and unb64url(public_key)[0] == 4
    assert (await anna.http.get("/api/push/key")).json() == {"key": public_key}

    # Bernd: one device, and one the push service has forgotten
    b_key, b_p256dh, b_auth, b_auth_text = browser_keys()
    b_sub = {
        "endpoint": f"{service.origin}/push/bernd",
        "keys": {"p256dh": b_p256dh, "auth": b_auth_text},
    }
    added = await bernd.http.post("/api/push/subscriptions", json={**b_sub, "label": "Handy"})
    assert added.status_code == 201, added.text
    assert added.json()["endpoint"] == b_sub["endpoint"] and added.json()["label"] == "Handy"
    gone = subscription(f"{service.origin}/gone/bernd")
    assert (await bernd.http.post("/api/push/subscriptions", json=gone)).status_code == 201
    devices = (await bernd.http.get("/api/push/subscriptions")).json()["devices"]
    assert [d["endpoint"] for d in devices] == [b_sub["endpoint"], gone["endpoint"]]
    # Anna: a device, and the table page open
    a_sub = subscription(f"{service.origin}/push/anna")
    assert (await anna.http.post("/api/push/subscriptions", json=a_sub)).status_code == 201
    await anna.connect(room)

    # Anna's move: her page is open, so no push, but the turn counts as told
    await put_turn(db_url, match_id, room, anna.user_id, 1, server_now(clock) + timedelta(days=1))

    async def told() -> bool:
        return (await read_turn(db_url, match_id)).notified

    await eventually(told)
    await asyncio.sleep(1.0)  # five polls
    assert service.requests == []

    # Bernd's move (the table moved on) while the table is paused: nothing yet
    await set_paused(db_url, match_id, True)
    deadline = server_now(clock) + timedelta(days=1)
    await put_turn(db_url, match_id, room, bernd.user_id, 2, deadline)
    await asyncio.sleep(1.0)
    assert service.requests == [] and not (await read_turn(db_url, match_id)).notified
    # the table goes on: "Du bist dran" on his device
    await set_paused(db_url, match_id, False)
    await eventually(lambda: service.to("/push/bernd") and service.to("/gone/bernd"))
    first = service.to("/push/bernd")[0]
    check_vapid(first, public_key, service.origin)
    assert int(first.headers["ttl"]) > DAY - 120
    when = deadline.strftime("%Y-%m-%d %H:%M UTC")
    assert decrypt(first, b_key, b_auth) == {
        "title": "Du bist dran",
        "body": f"dreierles test (Dreierles): du hast Zeit bis {when}.",
        "url": f"/rooms/{room}/table",
        "tag": f"match-{match_id}",
    }
    turn = await read_turn(db_url, match_id)
    assert turn.notified and turn.reminded == 0

    async def devices_left() -> list[str]:
        answer = await bernd.http.get("/api/push/subscriptions")
        return [d["endpoint"] for d in answer.json()["devices"]]

    async def gone_forgotten() -> bool:
        return await devices_left() == [b_sub["endpoint"]]

    await eventually(gone_forgotten)
    device = (await bernd.http.get("/api/push/subscriptions")).json()["devices"][0]
    assert device["last_sent_at"] is not None

    # 74 % of the time used: nothing yet; 76 %: the first reminder, once
    move_clock(clock, 0.74 * DAY)
    await asyncio.sleep(1.0)
    assert len(service.to("/push/bernd")) == 1
    move_clock(clock, 0.76 * DAY)
    await eventually(lambda: len(service.to("/push/bernd")) == 2)
    reminder = decrypt(service.to("/push/bernd")[1], b_key, b_auth)
    assert reminder == {
        "title": "Erinnerung: du bist dran",
        "body": f"dreierles test (Dreierles): nur noch 5 Std., bis {when}.",
        "url": f"/rooms/{room}/table",
        "tag": f"match-{match_id}",
    }
    await asyncio.sleep(1.0)
    assert len(service.to("/push/bernd")) == 2
    assert (await read_turn(db_url, match_id)).reminded == 75

    # 91 %: the second reminder, once; in English, as Bernd now reads the site
    assert (await bernd.http.patch("/api/me", json={"language": "en"})).status_code == 200
    move_clock(clock, 0.91 * DAY)
    await eventually(lambda: len(service.to("/push/bernd")) == 3)
    last = decrypt(service.to("/push/bernd")[2], b_key, b_auth)
    assert last["title"] == "Reminder: your move"
    assert last["body"] == f"dreierles test (Dreierles): only 2 h left, until {when}."
    await asyncio.sleep(1.0)
    assert len(service.to("/push/bernd")) == 3
    assert (await read_turn(db_url, match_id)).reminded == 90
    # Anna's device never got anything; the gone device only the one try
    assert service.to("/push/anna") == [] and len(service.to("/gone/bernd")) == 1

    # forgetting a device
    removed = await bernd.http.request(
        "DELETE", "/api/push/subscriptions", json={"endpoint": b_sub["endpoint"]}
    )
    assert removed.status_code == 204
    again = await bernd.http.request(
        "DELETE", "/api/push/subscriptions", json={"endpoint": b_sub["endpoint"]}
    )
    api_error(again, 404, "push_subscription_unknown")
    for client in clients:
        await client.aclose()


# --------------------------------------------------------------------------- e-mail, end to end

LINK = re.compile(r"http://127\.0\.0\.1:\d+/account/email/verify\?token=[A-Za-z0-9_-]+")


def parts(message: EmailMessage) -> tuple[str, str]:
    """The plain text and the HTML alternative of a mail."""
    plain = message.get_body(("plain",))
    html = message.get_body(("html",))
    assert plain is not None and html is not None
    # the wire's line ends are CRLF
    return (
        str(plain.get_content()).replace("\r\n", "\n"),
        str(html.get_content()).replace("\r\n", "\n"),
    )


def test_email_verification_and_the_daily_digest(
    migrated_db_url: str,
    tmp_path: Path,
    smtp: tuple[int, MailBox],
    clock_file: Path,
) -> None:
    port, box = smtp
    env = {
        "STAMMTISCH_CLOCK_FILE": str(clock_file),
        "STAMMTISCH_DEADLINE_POLL_SECONDS": POLL,
        "STAMMTISCH_SMTP_HOST": "127.0.0.1",
        "STAMMTISCH_SMTP_PORT": str(port),
        "STAMMTISCH_MAIL_FROM": "stammtisch@example.org",
    }
    db_url = migrated_db_url
    with server_process(db_url, tmp_path / "server.log", env=env) as (base, _process):
        asyncio.run(mail_scenario(base, db_url, box, clock_file))


async def mail_scenario(base: str, db_url: str, box: MailBox, clock: Path) -> None:
    clients, room, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Clara"])
    anna, bernd, _clara = clients
    match_id = await start(anna, room)
    await make_correspondence(db_url, match_id, 2 * DAY)

    state = await bernd.http.get("/api/account/notifications")
    assert state.json() == {
        "email_available": True,
        "email": None,
        "email_verified": False,
        "email_digest": False,
    }
    api_error(
        await bernd.http.put("/api/account/email", json={"email": "bernd@"}), 422, "bad_email"
    )
    api_error(
        await bernd.http.put("/api/account/email-digest", json={"on": True}),
        409,
        "email_not_verified",
    )
    assert box.mails == []

    # the address, unverified, and the mail with the link
    answer = await bernd.http.put("/api/account/email", json={"email": "Bernd@Example.ORG"})
    assert answer.status_code == 202, answer.text
    assert answer.json() == {
        "email_available": True,
        "email": "Bernd@example.org",
        "email_verified": False,
        "email_digest": False,
    }
    assert len(box.mails) == 1
    recipients, message = box.mails[0]
    assert recipients == ["Bernd@example.org"]
    assert message["Subject"] == "Stammtisch: E-Mail-Adresse bestätigen"
    assert message["From"] == "stammtisch@example.org"
    plain, html = parts(message)
    assert plain.startswith("Hallo Bernd,\n\nbitte bestätige deine E-Mail-Adresse")
    links = LINK.findall(plain)
    assert len(links) == 1 and links[0].startswith(base)
    assert f'href="{links[0]}"' in html
    api_error(
        await bernd.http.put("/api/account/email-digest", json={"on": True}),
        409,
        "email_not_verified",
    )

    # a wrong token changes nothing; the link confirms, once
    wrong = await bernd.http.get("/account/email/verify", params={"token": "x" * 43})
    assert wrong.status_code == 404 and "Link ungültig" in wrong.text
    for params in ({}, {"token": "x" * 5000}):
        odd = await bernd.http.get("/account/email/verify", params=params)
        assert odd.status_code == 404 and "Link ungültig" in odd.text
    assert (await bernd.http.get("/api/account/notifications")).json()["email_verified"] is False
    page = await bernd.http.get(links[0])
    assert page.status_code == 200
    assert "Deine Adresse Bernd@example.org ist bestätigt." in page.text
    assert (await bernd.http.get(links[0])).status_code == 404
    on = await bernd.http.put("/api/account/email-digest", json={"on": True})
    assert on.status_code == 200 and on.json()["email_digest"] is True
    assert on.json()["email_verified"] is True

    # no table waits for Bernd: no digest
    await asyncio.sleep(1.0)
    assert len(box.mails) == 1

    # one waits: the digest, once
    deadline = server_now(clock) + timedelta(days=2)
    await put_turn(db_url, match_id, room, bernd.user_id, 1, deadline)
    await eventually(lambda: len(box.mails) == 2)
    recipients, digest = box.mails[1]
    assert recipients == ["Bernd@example.org"]
    assert digest["Subject"] == "Stammtisch: ein Tisch wartet auf dich"
    plain, html = parts(digest)
    when = deadline.strftime("%Y-%m-%d %H:%M UTC")
    table = f"{base}/rooms/{room}/table"
    assert plain == (
        "Hallo Bernd, an diesen Tischen bist du dran:\n\n"
        f"- dreierles test (Dreierles) – bis {when}\n  {table}\n\n"
        f"Höchstens eine solche Mail am Tag. Abbestellen auf der Kontoseite: {base}/account\n"
    )
    assert f'<li><a href="{table}">dreierles test (Dreierles) – bis {when}</a></li>' in html

    # 23 hours later: none; 24 hours later: the next one, in English now
    move_clock(clock, 23 * 3600)
    await asyncio.sleep(1.0)
    assert len(box.mails) == 2
    assert (await bernd.http.patch("/api/me", json={"language": "en"})).status_code == 200
    move_clock(clock, 24 * 3600 + 60)
    await eventually(lambda: len(box.mails) == 3)
    assert box.mails[2][1]["Subject"] == "Stammtisch: a table is waiting for you"
    await asyncio.sleep(1.0)
    assert len(box.mails) == 3

    # switched off: no more digests
    off = await bernd.http.put("/api/account/email-digest", json={"on": False})
    assert off.json()["email_digest"] is False
    move_clock(clock, 49 * 3600)
    await asyncio.sleep(1.0)
    assert len(box.mails) == 3
    for client in clients:
        await client.aclose()


# --------------------------------------------------------------------------- refusals


def test_the_routes_refuse_bad_input(module_server: LiveServer) -> None:
    with httpx.Client(base_url=module_server.base_url, timeout=30) as http:
        for method, path in (
            ("GET", "/api/push/key"),
            ("GET", "/api/push/subscriptions"),
            ("POST", "/api/push/subscriptions"),
            ("GET", "/api/account/notifications"),
            ("PUT", "/api/account/email"),
        ):
            api_error(http.request(method, path, json={}), 401, "login_required")
        login = f"push{secrets.randbelow(10**9)}"
        registered = http.post(
            "/api/register",
            json={"login": login, "password": "Ober-sticht", "display_name": "Dora"},
        )
        assert registered.status_code == 201
        # no SMTP server configured: no e-mail
        state = http.get("/api/account/notifications").json()
        assert state["email_available"] is False
        api_error(
            http.put("/api/account/email", json={"email": "dora@example.org"}),
            503,
            "email_unavailable",
        )
        api_error(
            http.put("/api/account/email-digest", json={"on": False}), 503, "email_unavailable"
        )
        # bad subscriptions change nothing
        bad = subscription("http://push.example/x")
        api_error(http.post("/api/push/subscriptions", json=bad), 422, "bad_push_endpoint")
        unknown = subscription("https://push.example/x")  # no push service of a browser
        api_error(http.post("/api/push/subscriptions", json=unknown), 422, "bad_push_endpoint")
        short = subscription("https://fcm.googleapis.com/fcm/send/x")
        short["keys"]["auth"] = "AAAA"
        api_error(http.post("/api/push/subscriptions", json=short), 422, "bad_push_key")
        api_error(http.post("/api/push/subscriptions", json=[1]), 422, "invalid_request")
        # a page of another site cannot subscribe for the person
        elsewhere = http.post(
            "/api/push/subscriptions",
            json=subscription("https://push.example/evil"),
            headers={"origin": "https://evil.example"},
        )
        api_error(elsewhere, 403, "bad_origin")
        assert http.get("/api/push/subscriptions").json() == {"devices": []}
        # at most MAX_DEVICES devices; the same device again takes its row over
        for number in range(MAX_DEVICES):
            device = subscription(f"https://fcm.googleapis.com/fcm/send/{login}-{number}")
            assert http.post("/api/push/subscriptions", json=device).status_code == 201
        again = subscription(f"https://fcm.googleapis.com/fcm/send/{login}-0", label="neu")
        assert http.post("/api/push/subscriptions", json=again).json()["label"] == "neu"
        one_more = subscription(f"https://fcm.googleapis.com/fcm/send/{login}-{MAX_DEVICES}")
        api_error(http.post("/api/push/subscriptions", json=one_more), 409, "too_many_devices")
        assert len(http.get("/api/push/subscriptions").json()["devices"]) == MAX_DEVICES
        api_error(
            http.request("DELETE", "/api/push/subscriptions", json={"endpoint": 5}),
            422,
            "invalid_request",
        )
        # the service worker, for the whole site
        worker = http.get("/sw.js")
        assert worker.status_code == 200
        assert worker.headers["service-worker-allowed"] == "/"
        assert worker.headers["content-type"].startswith("text/javascript")
        assert "showNotification" in worker.text


def test_a_mail_that_cannot_be_sent_changes_nothing(migrated_db_url: str) -> None:
    """The SMTP server does not answer: ``email_failed`` and the address is not kept; each
    try counts against the limit of confirmation mails (five, then ``too_many_requests``)."""
    settings = Settings(
        database_url=migrated_db_url,
        smtp_host="127.0.0.1",
        smtp_port=closed_port(),
        gc_freeze=False,
    )
    app = create_app(settings, check_database_on_startup=False)
    with uvicorn_thread(app) as base, httpx.Client(base_url=base, timeout=60) as http:
        registered = http.post(
            "/api/register",
            json={"login": "erika", "password": "Ober-sticht", "display_name": "Erika"},
        )
        assert registered.status_code == 201
        for _ in range(5):
            refused = http.put("/api/account/email", json={"email": "erika@example.org"})
            api_error(refused, 502, "email_failed")
        assert http.get("/api/account/notifications").json() == {
            "email_available": True,
            "email": None,
            "email_verified": False,
            "email_digest": False,
        }
        limited = http.put("/api/account/email", json={"email": "erika@example.org"})
        api_error(limited, 429, "too_many_requests")
        assert int(limited.headers["Retry-After"]) > 0


class FakeShared:
    def __init__(self, count: int | Exception) -> None:
        self._count = count

    async def count(self, _user_id: int) -> int:
        if isinstance(self._count, Exception):
            raise self._count
        return self._count


class FakeTables:
    def __init__(self, own: list[object], shared: FakeShared | None) -> None:
        self.own = own
        self.shared_sockets = shared

    def sockets_of(self, _user_id: int) -> list[object]:
        return self.own


@pytest.mark.parametrize(
    ("own", "shared", "expected"),
    [
        ([], None, False),  # one process, no socket
        ([object()], None, True),  # one process, a table page open
        ([], FakeShared(0), False),  # several processes, none has a socket
        ([], FakeShared(1), True),  # another process has one
        ([object()], FakeShared(ConnectionError("away")), True),  # own socket: no question
        ([], FakeShared(ConnectionError("away")), False),  # Redis away: this process's only
    ],
)
def test_an_open_table_page_on_any_process(
    own: list[object], shared: FakeShared | None, expected: bool
) -> None:
    check = open_page_check(FakeTables(own, shared))  # type: ignore[arg-type]

    async def ask() -> bool:
        return await check(7)

    assert asyncio.run(ask()) is expected


def test_the_push_texts() -> None:
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    end = datetime(2026, 3, 10, 12, tzinfo=UTC)
    table = Waiting(4, 9, "Donnerstag", "Doppelkopf", end)
    turn = push_message(catalogs.gettext, "en", table, 0, end - timedelta(days=1))
    assert turn == {
        "title": "Your move",
        "body": "Donnerstag (Doppelkopf): you have until 2026-03-10 12:00 UTC.",
        "url": "/rooms/9/table",
        "tag": "match-4",
    }
    late = push_message(catalogs.gettext, "de", table, 90, end - timedelta(minutes=119))
    assert late["title"] == "Erinnerung: du bist dran"
    assert late["body"] == "Donnerstag (Doppelkopf): nur noch 119 Min., bis 2026-03-10 12:00 UTC."
    hours = push_message(catalogs.gettext, "de", table, 75, end - timedelta(hours=2))
    assert hours["body"].endswith("nur noch 2 Std., bis 2026-03-10 12:00 UTC.")


@pytest.mark.parametrize("module", [reminders, subscriptions, mail])
def test_the_examples_in_the_docstrings(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


class FakeClock:
    def __init__(self, now: datetime) -> None:
        self.moment = now

    def now(self) -> datetime:
        return self.moment


def test_a_digest_the_smtp_server_did_not_take_goes_out_at_the_next_poll(
    store_db: TestDatabase, smtp: tuple[int, MailBox]
) -> None:
    port, box = smtp
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    clock = FakeClock(datetime(2026, 5, 4, 8, 30, tzinfo=UTC))
    origin = "https://karten.example.org"

    async def nobody_at_a_table(_user_id: int) -> bool:
        return False

    def notifier(sessions: Any, keys: VapidKeys, smtp_port: int) -> Notifier:
        settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp_port, public_origins=(origin,))
        return Notifier(sessions, settings, clock, keys, catalogs.gettext, nobody_at_a_table)

    async def sent_at(sessions: Any, user_id: int) -> datetime | None:
        async with sessions() as session:
            user = await session.get(User, user_id)
            return None if user.digest_sent_at is None else aware(user.digest_sent_at)

    async def scenario(sessions: Any) -> None:
        user_id, room_id = await a_correspondence_turn(
            sessions,
            clock,
            "Frieda",
            email="frieda@example.org",
            email_verified_at=clock.now(),
            email_digest=True,
        )
        keys = await load_or_create(sessions)
        # the SMTP server does not answer: no digest, and none counted as sent
        await notifier(sessions, keys, closed_port()).run_once()
        assert box.mails == [] and await sent_at(sessions, user_id) is None
        # the next poll, with the SMTP server there
        clock.moment += timedelta(minutes=1)
        working = notifier(sessions, keys, port)
        await working.run_once()
        assert len(box.mails) == 1 and await sent_at(sessions, user_id) == clock.now()
        recipients, digest = box.mails[0]
        assert recipients == ["frieda@example.org"]
        assert f"{origin}/rooms/{room_id}/table" in parts(digest)[0]
        assert "Freitagsrunde (Doppelkopf) – bis 2026-05-05 08:30 UTC" in parts(digest)[0]
        await working.run_once()
        clock.moment += timedelta(hours=23, minutes=59)
        await working.run_once()
        assert len(box.mails) == 1
        clock.moment += timedelta(minutes=1)
        await working.run_once()
        assert len(box.mails) == 2

    run_with_sessions(store_db, scenario)


async def a_correspondence_turn(
    sessions: Any, clock: FakeClock, name: str, **person: Any
) -> tuple[int, int]:
    """A person (``person``: more of his columns) with a running correspondence match
    (one day per move) whose turn began now: (user id, room id)."""
    async with sessions() as session:
        login = f"{name.lower()}{secrets.randbelow(10**6)}"
        user = User(login=login, display_name=name, **person)
        session.add(user)
        await session.flush()
        room = Room(
            invite_token=secrets.token_hex(8),
            host_id=user.id,
            name="Freitagsrunde",
            game="doppelkopf",
            options={},
            tempo_seconds=DAY,
        )
        session.add(room)
        await session.flush()
        match = Match(
            room_id=room.id,
            game="doppelkopf",
            players=[name],
            player_ids=[user.id],
            config={"tempo_seconds": DAY},
        )
        session.add(match)
        await session.flush()
        session.add(
            Turn(
                match_id=match.id,
                room_id=room.id,
                user_id=user.id,
                seat=0,
                version=3,
                since=clock.now(),
                deadline=clock.now() + timedelta(days=1),
            )
        )
        await session.commit()
        return user.id, room.id


def test_processes_polling_at_once_send_each_message_once(
    store_db: TestDatabase, push_service: PushService
) -> None:
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    start_time = datetime(2026, 5, 4, 8, 30, tzinfo=UTC)
    clock = FakeClock(start_time)

    async def nobody_at_a_table(_user_id: int) -> bool:
        return False

    async def scenario(sessions: Any) -> None:
        user_id, _room_id = await a_correspondence_turn(sessions, clock, "Greta")
        async with sessions() as session:
            await subscriptions.add(
                session,
                user_id,
                check_subscription(
                    subscription(f"{push_service.origin}/push/greta"), ("127.0.0.1",)
                ),
                clock.now(),
            )
            await session.commit()
        keys = await load_or_create(sessions)
        settings = Settings()
        three = [
            Notifier(sessions, settings, clock, keys, catalogs.gettext, nobody_at_a_table)
            for _ in range(3)
        ]

        async def poll() -> None:
            await asyncio.gather(*(notifier.run_once() for notifier in three))

        await poll()
        await poll()
        assert len(push_service.to("/push/greta")) == 1
        clock.moment = start_time + timedelta(hours=18)  # 75 %
        await poll()
        await poll()
        assert len(push_service.to("/push/greta")) == 2
        clock.moment = start_time + timedelta(hours=22)  # 90 % (from 21:36 on)
        await poll()
        await poll()
        assert len(push_service.to("/push/greta")) == 3

    run_with_sessions(store_db, scenario)
