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
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import delete, update

from server.notify.reminders import due_reminder, reminder_time
from server.notify.subscriptions import check_subscription
from server.store.db import make_engine, make_session_factory
from server.store.errors import InvalidError
from server.store.models import Match, Room, Turn
from tests.support import api_error, free_port, server_process
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
    assert check_subscription(subscription("http://127.0.0.1:9/p")).endpoint.endswith("/p")
    assert check_subscription(subscription("http://[::1]:9/p")).endpoint.endswith("/p")
    assert check_subscription(subscription("http://localhost/p")).endpoint.endswith("/p")
    padded = subscription("https://push.example/x")
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


# --------------------------------------------------------------------------- local services


@dataclass
class PushRequest:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1: records every request; ``/gone/…`` answers 410."""

    server: ThreadingHTTPServer
    requests: list[PushRequest] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def to(self, path: str) -> list[PushRequest]:
        return [r for r in list(self.requests) if r.path == path]


@pytest.fixture
def push_service() -> Iterator[PushService]:
    received: list[PushRequest] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            received.append(PushRequest(self.path, headers, body))
            self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield PushService(server, received)
    finally:
        server.shutdown()
        server.server_close()


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
    migrated_db_url: str, tmp_path: Path, push_service: PushService, clock_file: Path
) -> None:
    env = {"STAMMTISCH_CLOCK_FILE": str(clock_file), "STAMMTISCH_DEADLINE_POLL_SECONDS": POLL}
    db_url = migrated_db_url
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

    # Bernd's move (the table moved on): "Du bist dran" on his device
    deadline = server_now(clock) + timedelta(days=1)
    await put_turn(db_url, match_id, room, bernd.user_id, 2, deadline)
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
