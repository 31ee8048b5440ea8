"""Bad inputs of every kind against a real server: each is refused with a coded error,
changes nothing, and leaves the connection answering; the server never logs a traceback.

The corpus crosses every client message type and field with bad values (numbers out of
range or of the wrong type, text with unpaired surrogates, NUL and control characters,
over-long text, deep nesting, unknown fields, binary frames and frames that are not UTF-8,
messages just over the limits) and every HTTP route with bad ids, bad bodies, wrong content
types and bodies over the limits (with and without ``Content-Length``). For each case:

* the answer is the coded error (the WebSocket ``error`` message or the API's error shape,
  with ``code``, ``message`` and ``message_de``; the friendly 404 page for a page), and a
  client ``id`` that is itself invalid is not echoed back;
* the socket still answers a ping (frames the WebSocket layer must close, 1007 and 1009,
  close only that socket: every other one still answers);
* nothing changed: no other seat was told anything, the database holds exactly the same
  rows, and afterwards the table still plays from the same version;
* the server's log has no traceback.

The figures (cases tried, refused cleanly) are printed (``pytest -s``) and written with
every case's result to ``artifacts/bad-inputs-<database>.json``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import os
import random
import socket
import statistics
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import NullPool

from server.api.limits import DEFAULT_BODY_BYTES
from server.engine.record import dump_record
from server.engine.registry import get_rules
from server.store.db import make_engine
from server.store.models import Base, Turn
from server.tables.protocol import MAX_FRAME_BYTES, MAX_MESSAGE
from tests.support import REPO_ROOT, server_process, sqlite_url, upgrade
from tests.table_client import COOKIE, Client, make_room, start

MIN_CASES = 150
MIB = 1024 * 1024


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# --------------------------------------------------------------------------- raw sockets


class RawSocket:
    """A WebSocket spoken by hand, for what no client library sends: text frames that are
    not UTF-8, frame headers announcing more than the limit, broken framing."""

    def __init__(self, base_url: str, cookie: str) -> None:
        host, port = base_url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: {COOKIE}={cookie}\r\n\r\n".encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            assert chunk, "handshake refused"
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head

    @staticmethod
    def frame(opcode: int, payload: bytes, *, fin: bool = True, rsv: int = 0,
              declared: int | None = None, masked: bool = True) -> bytes:  # fmt: skip
        """One client frame; the mask key is zero, so the payload goes out as it is."""
        size = len(payload) if declared is None else declared
        first = (0x80 if fin else 0) | (rsv << 4) | opcode
        mask_bit = 0x80 if masked else 0
        if size < 126:
            head = struct.pack("!BB", first, mask_bit | size)
        elif size < 65536:
            head = struct.pack("!BBH", first, mask_bit | 126, size)
        else:
            head = struct.pack("!BBQ", first, mask_bit | 127, size)
        return head + (b"\0\0\0\0" if masked else b"") + payload

    def send(self, data: bytes) -> None:
        """Send raw bytes (ignoring a connection the server has closed already)."""
        with contextlib.suppress(OSError):
            self.sock.sendall(data)

    def _read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def read_frame(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        first, second = self._read(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._read(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._read(8))
        return first & 0x0F, self._read(size)

    def close_code(self) -> int | None:
        """Read until the server's close frame; its code (None: closed without one)."""
        try:
            while True:
                opcode, payload = self.read_frame()
                if opcode == 8:
                    return int(struct.unpack("!H", payload[:2])[0]) if payload else 1005
        except (ConnectionError, OSError):
            return None

    def close(self) -> None:
        """Close the TCP connection."""
        self.sock.close()


# --------------------------------------------------------------------------- the world


@dataclass
class World:
    """The server under test and the people on it."""

    base_url: str
    db_url: str
    log_path: Path
    process: subprocess.Popen[bytes]
    players: list[Client]
    room: int
    match_id: int
    outsider: Client
    other_room: int
    log_offset: int = 0

    @property
    def mover(self) -> Client:
        return next(c for c in self.players if c.my_turn())

    @property
    def waiter(self) -> Client:
        return next(c for c in self.players if not c.my_turn())

    def new_log(self) -> str:
        """What the server logged since the last call."""
        data = self.log_path.read_bytes()
        fresh, self.log_offset = data[self.log_offset :], len(data)
        return fresh.decode("utf-8", "replace")


def traceback_in(log: str) -> bool:
    return "Traceback" in log or "Exception" in log


async def digest(engine: AsyncEngine) -> str:
    """A fingerprint of every row of every table."""
    hasher = hashlib.sha256()
    async with engine.connect() as db:
        for table in Base.metadata.sorted_tables:
            rows = (await db.execute(select(table))).all()
            hasher.update(f"{table.name}:{sorted(repr(tuple(r)) for r in rows)}".encode())
    return hasher.hexdigest()


async def turn_stored(engine: AsyncEngine, match_id: int, version: int) -> None:
    """Wait until the match's stored turn is the one that began at ``version``."""
    async with asyncio.timeout(10):
        while True:
            async with engine.connect() as db:
                stored = await db.scalar(select(Turn.version).where(Turn.match_id == match_id))
            if stored == version:
                return
            await asyncio.sleep(0.05)


@pytest.fixture
def world_server(play_db_url: str, tmp_path: Path) -> Iterator[tuple[str, str, Path, Any]]:
    log = tmp_path / "uvicorn.log"
    with server_process(play_db_url, log) as (url, process):
        yield url, play_db_url, log, process


async def make_world(base_url: str, db_url: str, log: Path, process: Any) -> World:
    players, room, _ = await make_room(base_url, "dreierles", ["Anna", "Bernd", "Catrin"])
    outsiders, other_room, _ = await make_room(base_url, "dreierles", ["Xaver"])
    match_id = await start(players[0], room)
    for client in players:
        await client.connect(room)
    await outsiders[0].open_socket()
    return World(base_url, db_url, log, process, players, room, match_id, outsiders[0],
                 other_room)  # fmt: skip


@dataclass
class Result:
    """One case's outcome."""

    kind: str
    name: str
    clean: bool
    detail: str = ""


@dataclass
class Tally:
    results: list[Result] = field(default_factory=list)

    def add(self, kind: str, name: str, problem: str | None) -> None:
        self.results.append(Result(kind, name, problem is None, problem or ""))

    def report(self, label: str) -> tuple[int, int]:
        tried = len(self.results)
        clean = sum(r.clean for r in self.results)
        by_kind: dict[str, list[int]] = {}
        for r in self.results:
            counts = by_kind.setdefault(r.kind, [0, 0])
            counts[0] += 1
            counts[1] += r.clean
        out = REPO_ROOT / "artifacts"
        out.mkdir(exist_ok=True)
        (out / f"bad-inputs-{label}.json").write_text(
            json.dumps(
                {
                    "tried": tried,
                    "refused_cleanly": clean,
                    "by_kind": {k: {"tried": t, "clean": c} for k, (t, c) in by_kind.items()},
                    "cases": [r.__dict__ for r in self.results],
                },
                indent=1,
            )
        )
        kinds = ", ".join(f"{k} {c}/{t}" for k, (t, c) in by_kind.items())
        print(f"\nbad inputs ({label}): {clean} of {tried} refused cleanly "
              f"({100 * clean / tried:.1f} %): {kinds}")  # fmt: skip
        return tried, clean


# --------------------------------------------------------------------------- WebSocket cases


@dataclass(frozen=True)
class WsCase:
    """A message and the codes it may be refused with; ``msg_id``: the id the error must
    carry (None for every message whose id is missing or invalid)."""

    name: str
    payload: str | bytes | list[str]
    codes: tuple[str, ...]
    msg_id: Any = None
    sender: str = "mover"  # or "waiter", "outsider" (connected, no hello)


def dumps(message: Any) -> str:
    return json.dumps(message)  # ASCII escapes: lone surrogates go out as \\udxxx


BAD_INTS: dict[str, Any] = {
    "2^31": 2**31, "2^63": 2**63, "2^64": 2**64, "-2^63": -(2**63), "10^30": 10**30,
    "float": 1.5, "whole float": 3.0, "true": True, "false": False, "string": "3",
    "list": [1], "object": {"n": 1}, "surrogate": "\ud800",
}  # fmt: skip
BAD_IDS: dict[str, Any] = {
    "surrogate": "\ud800", "low surrogate": "a\udfff", "65 characters": "x" * 65,
    "NUL": "a\x00b", "tab": "a\tb", "newline": "a\nb", "DEL": "\x7f", "C1 control": "\x85",
    "umlaut": "ä", "RTL override": "\u202eab", "quote": 'a"b', "backslash": "a\\b",
    "2^53": 2**53, "2^63": 2**63, "-2^64": -(2**64), "float": 1.5, "true": True,
    "list": ["a"], "object": {},
}  # fmt: skip
VALID: dict[str, dict[str, Any]] = {
    "hello": {"type": "hello", "room": 0},  # the room is filled in
    "action": {"type": "action", "action": "pass"},
    "chat": {"type": "chat", "text": "Servus"},
    "ping": {"type": "ping"},
}


def ws_cases(world: World) -> list[WsCase]:
    room, version = world.room, world.mover.version
    hello = {"type": "hello", "room": room}
    cases: list[WsCase] = []

    def add(name: str, payload: Any, *codes: str, msg_id: Any = None, sender: str = "mover",
            raw: bool = False) -> None:  # fmt: skip
        text = payload if raw or isinstance(payload, bytes | list) else dumps(payload)
        cases.append(WsCase(name, text, codes, msg_id, sender))

    # every field that is a number, with every bad number (and more for the room)
    for label, value in {**BAD_INTS, "zero": 0, "-1": -1, "null": None}.items():
        add(f"hello.room {label}", {**hello, "room": value}, "bad_message")
    for label, value in {**BAD_INTS, "-2": -2}.items():
        add(f"hello.last_version {label}", {**hello, "last_version": value}, "bad_message")
        add(f"action.v {label}", {"type": "action", "action": "pass", "v": value}, "bad_message")
    for label, value in {**BAD_INTS, "-1": -1, "16": 16}.items():
        add(f"action.seat {label}", {"type": "action", "action": "pass", "seat": value},
            "bad_message")  # fmt: skip
    # every message type with every bad id: refused, and the id is not echoed
    for kind, message in VALID.items():
        base = {**message, "room": room} if kind == "hello" else message
        for label, value in BAD_IDS.items():
            add(f"{kind}.id {label}", {**base, "id": value}, "bad_message")
    # the action text
    for label, value, codes in [
        ("empty", "", ("bad_message",)), ("65 characters", "x" * 65, ("bad_message",)),
        ("number", 5, ("bad_message",)), ("null", None, ("bad_message",)),
        ("true", True, ("bad_message",)), ("list", ["pass"], ("bad_message",)),
        ("object", {}, ("bad_message",)), ("NUL", "pass\x00", ("malformed_action",)),
        ("surrogate", "pass\ud800", ("malformed_action", "bad_message")),
        ("umlaut", "päss", ("malformed_action",)), ("RTL override", "\u202epass",
        ("malformed_action",)), ("newline", "pass\n", ("malformed_action",)),
        ("superscript digit", "bid ²", ("malformed_action",)),
        ("escape sequence", "\x1b[2Jpass", ("malformed_action",)),
        ("unknown word", "teleport", ("malformed_action",)),
        ("unknown contract", "bid vierer", ("unknown_contract",)),
    ]:  # fmt: skip
        add(f"action.action {label}", {"type": "action", "action": value, "id": "a"}, *codes,
            msg_id="a")  # fmt: skip
    # the chat text
    for label, value, code in [
        ("empty", "", "bad_chat"), ("blank", "   ", "bad_chat"), ("501 characters", "x" * 501,
        "bad_chat"), ("1001 characters", "x" * 1001, "bad_message"), ("surrogate", "\ud800",
        "bad_chat"), ("surrogate inside", "Servus \udc00!", "bad_chat"), ("NUL", "a\x00b",
        "bad_chat"), ("escape sequence", "\x1b[31mred", "bad_chat"), ("newline", "a\nb",
        "bad_chat"), ("DEL", "a\x7f", "bad_chat"), ("C1 control", "a\x85", "bad_chat"),
        ("number", 5, "bad_message"), ("null", None, "bad_message"), ("list", ["a"],
        "bad_message"), ("true", True, "bad_message"),
    ]:  # fmt: skip
        add(f"chat.text {label}", {"type": "chat", "text": value, "id": 7}, code, msg_id=7)
    # the shape of a message
    for kind, message in VALID.items():
        base = {**message, "room": room} if kind == "hello" else message
        add(f"{kind} extra field", {**base, "extra": 1, "id": "e"}, "bad_message", msg_id="e")
        add(f"{kind} surrogate field name", {**base, "\ud800": 1}, "bad_message")
    for kind, name in [("hello", "room"), ("action", "action"), ("chat", "text")]:
        add(f"{kind} without {name}", {"type": kind, "id": "m"}, "bad_message", msg_id="m")
    for label, value in [("missing", None), ("number", 5), ("list", ["ping"]),
                         ("object", {}), ("true", True)]:  # fmt: skip
        message = {"id": "t"} if label == "missing" else {"type": value, "id": "t"}
        add(f"type {label}", message, "bad_message", msg_id="t")
    for label, value in [("unknown", "teleport"), ("capitals", "PING"), ("empty", ""),
                         ("surrogate", "\ud800"), ("1000 characters", "x" * 1000),
                         ("trailing blank", "ping "), ("NUL", "ping\x00")]:  # fmt: skip
        add(f"type {label}", {"type": value, "id": "u"}, "unknown_type", msg_id="u")
    for label, raw in [("array", "[]"), ("number", "5"), ("string", '"ping"'), ("null", "null"),
                       ("true", "true"), ("array of a message", '[{"type": "ping"}]'),
                       ("20 levels, not an object", "[" * 20 + "]" * 20),
                       ("4000-digit number", "1" * 4000),
                       ("duplicate type", '{"type": "ping", "type": "teleport"}')]:  # fmt: skip
        code = "unknown_type" if label == "duplicate type" else "bad_message"
        add(f"message {label}", raw, code, raw=True)
    # JSON that cannot be read
    for label, raw in [("not JSON", "{not json"), ("empty", ""), ("blank", " "), ("brace", "{"),
                       ("unterminated", '{"type": "ping"'), ("trailing text",
                       '{"type": "ping"} x'), ("single quotes", "{'type': 'ping'}"),
                       ("byte order mark", '\ufeff{"type": "ping"}'), ("NUL", "\x00"),
                       ("NaN id", '{"type": "ping", "id": NaN}'), ("Infinity", "Infinity"),
                       ("1e400 id", '{"type": "ping", "id": 1e400}'),
                       ("lone minus", "-")]:  # fmt: skip
        codes = ("malformed_json", "bad_message")  # NaN and 1e400 are JSON to Python
        add(f"json {label}", raw, *codes, raw=True)
    for label, raw in [("arrays 4000 deep", "[" * 4000), ("objects 800 deep", '{"a":' * 800),
                       ("closed arrays 2000 deep", "[" * 2000 + "]" * 2000),
                       ("closed arrays 21 deep", "[" * 21 + "]" * 21),
                       ("deep id", '{"type": "ping", "id": %s}' % ("[" * 1500 + "]" * 1500))
                       ]:  # fmt: skip
        add(f"json {label}", raw, "too_deep", "bad_message", "malformed_json", raw=True)
    # sizes: over MAX_MESSAGE characters but within the frame limit
    ping_pad = '{"type": "ping", "id": "big", "pad": "%s"}'
    for label, raw in [
        ("4097 characters", "x" * (MAX_MESSAGE + 1)),
        ("padded ping", ping_pad % ("x" * MAX_MESSAGE)),
        ("5000 euro signs (15 KB)", "€" * 5000),
        ("8000 emoji (32 KB)", "😀" * (MAX_FRAME_BYTES // 4 - 192)),
        ("exactly the frame limit", "x" * MAX_FRAME_BYTES),
        ("chat of 4100 characters", dumps({"type": "chat", "text": "x" * 4100})),
    ]:
        add(f"size {label}", raw, "message_too_large", raw=True)
    cases.append(WsCase("size fragmented, 3 x 2000", ["x" * 2000] * 3, ("message_too_large",)))
    # binary frames
    for label, data in [("empty", b""), ("a ping as bytes", b'{"type": "ping", "id": "b"}'),
                        ("garbage", b"\x00\xff" * 10)]:  # fmt: skip
        cases.append(WsCase(f"binary {label}", data, ("bad_message",)))
    cases.append(WsCase("binary fragments", [b"{", b"}"], ("bad_message",)))  # type: ignore[list-item]
    # well-formed, refused by the table's rules
    other = world.mover.seat
    assert other is not None
    add("action for another seat", {"type": "action", "action": "pass", "v": version,
        "seat": (other + 1) % 3, "id": "s"}, "not_your_seat", msg_id="s")  # fmt: skip
    add("stale version", {"type": "action", "action": "pass", "v": version - 1, "id": "v"},
        "stale_version", msg_id="v")  # fmt: skip
    add("version from the future", {"type": "action", "action": "pass", "v": 2**31 - 1},
        "stale_version")  # fmt: skip
    add("a card in the auction", {"type": "action", "action": "play HK", "v": version},
        "wrong_phase", "unknown_card")  # fmt: skip
    add("out of turn", {"type": "action", "action": "pass", "v": version}, "not_your_turn",
        sender="waiter")  # fmt: skip
    add("hello to a room of others", {"type": "hello", "room": world.other_room},
        "not_a_member")  # fmt: skip
    add("hello to the largest room id", {"type": "hello", "room": 2**31 - 1}, "not_a_member")
    add("action before hello", {"type": "action", "action": "pass"}, "hello_first",
        sender="outsider")  # fmt: skip
    add("chat before hello", {"type": "chat", "text": "hi"}, "hello_first", sender="outsider")
    add("hello to a room not started", {"type": "hello", "room": world.other_room},
        "match_not_started", sender="outsider")  # fmt: skip
    add("outsider's hello to the table", {"type": "hello", "room": room}, "not_a_member",
        sender="outsider")  # fmt: skip
    return cases


async def next_message(client: Client, timeout: float = 5) -> dict[str, Any]:
    """The next message that is not a presence update."""
    async with asyncio.timeout(timeout):
        while True:
            message = await client.inbox.get()
            if message["type"] != "presence":
                return message


async def reconnect(world: World, client: Client) -> None:
    """A fresh socket for ``client`` after its socket died (then: hello again)."""
    with contextlib.suppress(Exception):
        await client.close_socket()
    if client is world.outsider:
        await client.open_socket()
    else:
        await client.connect(world.room)
    await asyncio.sleep(0.1)  # the presence of the new socket
    while not client.inbox.empty():
        client.inbox.get_nowait()


def told(clients: list[Client], seen: dict[int, int]) -> list[dict[str, Any]]:
    """What ``clients`` were told since ``seen`` (their message counts) other than answers to
    their own messages and presence."""
    return [m for c in clients for m in c.messages[seen[id(c)] :]
            if m["type"] not in ("pong", "error", "presence")]  # fmt: skip


async def ws_case(
    world: World, case: WsCase, senders: dict[str, Client], everybody: list[Client]
) -> str | None:
    """Send one case; return what is wrong with the server's answer (None: refused cleanly)."""
    client = senders[case.sender]
    assert client.ws is not None
    seen = {id(c): len(c.messages) for c in everybody}
    await client.ws.send(case.payload)
    try:
        error = await next_message(client)
    except TimeoutError:
        return "no answer (the socket is silent)"
    if error.get("type") != "error":
        return f"not refused: {error}"
    if error.get("code") not in case.codes:
        return f"code {error.get('code')!r}, expected {case.codes}: {error.get('message')}"
    if not error.get("message") or not error.get("message_de"):
        return f"no message: {error}"
    if error.get("id") != case.msg_id:
        return f"id {error.get('id')!r} echoed, expected {case.msg_id!r}"
    tag = f"p{random.randrange(10**9)}"
    await client.send({"type": "ping", "id": tag})
    try:
        pong = await next_message(client)
    except TimeoutError:
        return "the socket no longer answers a ping"
    if pong != {"type": "pong", "id": tag}:
        return f"ping answered with {pong}"
    await asyncio.sleep(0.005)
    others = told([c for c in everybody if c is not client], seen)
    if others:
        return f"others were told {others[:2]}"
    return None


@dataclass(frozen=True)
class FrameCase:
    """Broken framing on a socket of its own: the server closes it with ``close_code``."""

    name: str
    frames: Callable[[], list[bytes]]
    close_codes: tuple[int, ...]


def frame_cases() -> list[FrameCase]:
    f = RawSocket.frame
    big = MAX_FRAME_BYTES + 1
    return [
        FrameCase("text frame not UTF-8", lambda: [f(1, b'{"type":"ping","id":"\xed\xa0\x80"}')],
                  (1007,)),
        FrameCase("overlong UTF-8", lambda: [f(1, b'{"type":"ping","id":"\xc0\xaf"}')], (1007,)),
        FrameCase("truncated UTF-8", lambda: [f(1, b'{"type":"ping","id":"\xe2\x82"}')], (1007,)),
        FrameCase("header announcing 16 MiB", lambda: [f(1, b"{", declared=16 * MIB)], (1009,)),
        FrameCase("header announcing 2^63 - 1 bytes", lambda: [f(1, b"", declared=2**63 - 1)],
                  (1009, 1002)),
        FrameCase("one byte over the frame limit", lambda: [f(1, b"x" * big)], (1009,)),
        FrameCase("binary one byte over", lambda: [f(2, b"x" * big)], (1009,)),
        FrameCase("fragments over the limit", lambda: [f(1, b"x" * 20000, fin=False),
                  f(0, b"x" * 20000)], (1009,)),
        FrameCase("unmasked frame", lambda: [f(1, b'{"type":"ping"}', masked=False)], (1002,)),
        FrameCase("reserved bits", lambda: [f(1, b'{"type":"ping"}', rsv=4)], (1002,)),
        FrameCase("reserved opcode", lambda: [f(3, b"x")], (1002,)),
        FrameCase("ping payload of 126 bytes", lambda: [f(9, b"x" * 126)], (1002,)),
        FrameCase("fragmented ping", lambda: [f(9, b"x", fin=False)], (1002,)),
        FrameCase("continuation without a start", lambda: [f(0, b"x")], (1002,)),
    ]  # fmt: skip


async def frame_case(world: World, case: FrameCase) -> str | None:
    def attempt() -> int | None:
        raw = RawSocket(world.base_url, world.players[0].cookie)
        try:
            for data in case.frames():
                raw.send(data)
            return raw.close_code()
        finally:
            raw.close()

    code = await asyncio.to_thread(attempt)
    if code not in case.close_codes:
        return f"closed with {code}, expected {case.close_codes}"
    for client in [*world.players, world.outsider]:  # every other socket still answers
        tag = f"f{random.randrange(10**9)}"
        await client.send({"type": "ping", "id": tag})
        pong = await next_message(client)
        if pong != {"type": "pong", "id": tag}:
            return f"{client.name}'s socket answered {pong}"
    return None


# --------------------------------------------------------------------------- HTTP cases


@dataclass(frozen=True)
class HttpCase:
    """A request and the (status, code) answers that are a clean refusal; ``code`` None: the
    friendly 404 page (HTML)."""

    name: str
    method: str
    path: str
    answers: tuple[tuple[int, str | None], ...]
    json_body: Any = None
    content: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    who: str = "anna"  # "anna" (host, player), "outsider" or "nobody" (logged out)


ROOM_ID_BAD = {
    "0": "0", "-1": "-1", "2^31": str(2**31), "2^63": str(2**63), "2^64": str(2**64),
    "99999999999": "99999999999", "letters": "abc", "decimal": "1.5", "exponent": "1e3",
    "plus": "+1", "hex": "0x10", "blank": "%20", "underscore": "1_0", "NUL": "%00",
}  # fmt: skip
INVALID = (422, "invalid_request")


def surrogate_json(message: Any) -> bytes:
    """JSON whose strings may hold lone surrogates (as ``\\u`` escapes)."""
    return json.dumps(message).encode()


def chunked(size: int, piece: int = 4096) -> Iterator[bytes]:
    sent = 0
    while sent < size:
        yield b"x" * min(piece, size - sent)
        sent += piece


def http_cases(world: World, record: dict[str, Any]) -> list[HttpCase]:
    room, match_id = world.room, world.match_id
    bernd = world.players[1].user_id
    cases: list[HttpCase] = []

    def add(name: str, method: str, path: str, *answers: tuple[int, str | None],
            **kwargs: Any) -> None:  # fmt: skip
        cases.append(HttpCase(name, method, path, answers, **kwargs))

    # ids in paths: refused before the database is asked
    for label, value in ROOM_ID_BAD.items():
        add(f"room {label}", "GET", f"/api/rooms/{value}", INVALID, (404, "not_found"))
        add(f"seats of room {label}", "PUT", f"/api/rooms/{value}/seats", INVALID,
            (404, "not_found"), json_body={"order": [world.players[0].user_id]})  # fmt: skip
        add(f"member of room {label}", "DELETE", f"/api/rooms/{value}/members/{bernd}", INVALID,
            (404, "not_found"))  # fmt: skip
        add(f"member {label}", "DELETE", f"/api/rooms/{room}/members/{value}", INVALID,
            (404, "not_found"))  # fmt: skip
        add(f"start room {label}", "POST", f"/api/rooms/{value}/start", INVALID,
            (404, "not_found"))  # fmt: skip
        for what, path in [("match", f"/api/history/matches/{value}"),
                           ("match record", f"/api/history/matches/{value}/record")]:  # fmt: skip
            add(f"{what} {label}", "GET", path, (404, "match_not_found"), (404, "not_found"))
        for what, path in [("deal replay", f"/api/history/deals/{value}/replay"),
                           ("deal record", f"/api/history/deals/{value}/record")]:  # fmt: skip
            add(f"{what} {label}", "GET", path, (404, "deal_not_found"), (404, "not_found"))
        for what, path in [("room page", f"/rooms/{value}"), ("table page",
                           f"/rooms/{value}/table"), ("match page", f"/archive/matches/{value}"),
                           ("deal page", f"/archive/deals/{value}")]:  # fmt: skip
            add(f"{what} {label}", "GET", path, (404, None))
    add("largest room id", "GET", f"/api/rooms/{2**31 - 1}", (404, "room_not_found"))
    add("largest match id", "GET", f"/api/history/matches/{2**31 - 1}", (404, "match_not_found"))
    for label, number in [("2^31", 2**31), ("2^63", 2**63), ("-2^31", -(2**31)), ("letters", "abc"),
                          ("decimal", 1.5), ("empty", "")]:  # fmt: skip
        add(f"history filter with={label}", "GET", f"/api/history/matches?with={number}",
            INVALID)  # fmt: skip
    add("history filter long game", "GET", f"/api/history/matches?game={'x' * 41}", INVALID)
    add("stats long game", "GET", f"/api/history/stats?game={'x' * 41}", INVALID)
    # invite tokens
    for label, token in [("200 characters", "x" * 200), ("surrogate", "%ED%A0%80"),
                         ("NUL", "%00"), ("dots", ".."), ("unknown", "abc"),
                         ("space", "a%20b")]:  # fmt: skip
        add(f"invite {label}", "GET", f"/api/invite/{token}", (404, "invite_not_found"),
            (404, "not_found"), who="outsider")  # fmt: skip
        add(f"join invite {label}", "POST", f"/api/invite/{token}/join",
            (404, "invite_not_found"), (404, "not_found"), json_body={"role": "player"},
            who="outsider")  # fmt: skip
    # bodies of the account routes
    s8 = "\ud800" * 8
    accounts: list[tuple[str, str, Any, tuple[tuple[int, str | None], ...], str]] = [
        ("login: surrogate login", "/api/login", {"login": "\ud800", "password": "Ober-sticht"},
         (INVALID, (401, "bad_credentials")), "nobody"),
        ("login: surrogate password", "/api/login", {"login": "anna1", "password": s8},
         (INVALID, (401, "bad_credentials")), "nobody"),
        ("login: NUL login", "/api/login", {"login": "a\x00b", "password": "Ober-sticht"},
         (INVALID, (401, "bad_credentials")), "nobody"),
        ("login: 201-character login", "/api/login", {"login": "x" * 201, "password": "x"},
         (INVALID,), "nobody"),
        ("login: 4097-character password", "/api/login", {"login": "x", "password": "x" * 4097},
         (INVALID,), "nobody"),
        ("login: number", "/api/login", {"login": 5, "password": "x"}, (INVALID,), "nobody"),
        ("login: null", "/api/login", {"login": None, "password": "x"}, (INVALID,), "nobody"),
        ("login: list", "/api/login", {"login": ["a"], "password": "x"}, (INVALID,), "nobody"),
        ("login: extra field", "/api/login", {"login": "a", "password": "x", "admin": True},
         (INVALID,), "nobody"),
        ("login: array", "/api/login", [], (INVALID,), "nobody"),
        ("register: surrogate name", "/api/register", {"login": "neu1", "password": "Ober-sticht",
         "display_name": "\ud800"}, (INVALID, (422, "bad_name")), "nobody"),
        ("register: surrogate password", "/api/register", {"login": "neu2", "password": s8,
         "display_name": "Neu"}, (INVALID,), "nobody"),
        ("register: surrogate login", "/api/register", {"login": "\ud800neu", "password":
         "Ober-sticht", "display_name": "Neu"}, (INVALID, (422, "bad_login")), "nobody"),
        ("register: NUL name", "/api/register", {"login": "neu3", "password": "Ober-sticht",
         "display_name": "a\x00"}, ((422, "bad_name"),), "nobody"),
        ("register: newline name", "/api/register", {"login": "neu4", "password": "Ober-sticht",
         "display_name": "a\nb"}, ((422, "bad_name"),), "nobody"),
        ("register: 41-character name", "/api/register", {"login": "neu5", "password":
         "Ober-sticht", "display_name": "x" * 41}, ((422, "bad_name"),), "nobody"),
        ("register: login with blank", "/api/register", {"login": "a b c", "password":
         "Ober-sticht", "display_name": "Neu"}, ((422, "bad_login"),), "nobody"),
        ("register: short password", "/api/register", {"login": "neu6", "password": "kurz",
         "display_name": "Neu"}, ((422, "weak_password"),), "nobody"),
        ("register: 1025-character password", "/api/register", {"login": "neu7", "password":
         "x" * 1025, "display_name": "Neu"}, ((422, "password_too_long"),), "nobody"),
        ("register: missing name", "/api/register", {"login": "neu8", "password":
         "Ober-sticht"}, (INVALID,), "nobody"),
        ("guest: surrogate", "/api/guest", {"display_name": "\ud800"},
         (INVALID, (422, "bad_name")), "nobody"),
        ("guest: empty", "/api/guest", {"display_name": ""}, ((422, "bad_name"),), "nobody"),
        ("guest: blank", "/api/guest", {"display_name": "   "}, ((422, "bad_name"),), "nobody"),
        ("guest: escape sequence", "/api/guest", {"display_name": "\x1b[31m"},
         ((422, "bad_name"),), "nobody"),
        ("guest: RTL override only", "/api/guest", {"display_name": "\u202e"},
         ((422, "bad_name"),), "nobody"),
        ("guest: number", "/api/guest", {"display_name": 5}, (INVALID,), "nobody"),
        ("guest: null", "/api/guest", {"display_name": None}, (INVALID,), "nobody"),
        ("guest: extra field", "/api/guest", {"display_name": "Gast", "id": 1}, (INVALID,),
         "nobody"),
        ("claim: not a guest", "/api/claim", {"login": "\ud800", "password": "Ober-sticht"},
         (INVALID, (403, "not_a_guest")), "anna"),
        ("claim: logged out", "/api/claim", {"login": "neu9", "password": "Ober-sticht"},
         ((401, "login_required"),), "nobody"),
    ]  # fmt: skip
    for name, path, body, answers, who in accounts:
        cases.append(HttpCase(name, "POST", path, answers, content=surrogate_json(body),
                              headers={"Content-Type": "application/json"}, who=who))  # fmt: skip
    for label, body, answers in [
        ("surrogate name", {"display_name": "\ud800"}, (INVALID, (422, "bad_name"))),
        ("surrogate language", {"language": "\ud800"}, (INVALID, (422, "bad_language"))),
        ("unknown language", {"language": "xx"}, ((422, "bad_language"),)),
        ("name and bad language", {"display_name": "Anna2", "language": "fr"},
         ((422, "bad_language"),)),
        ("number name", {"display_name": 5}, (INVALID,)),
        ("201-character name", {"display_name": "x" * 201}, (INVALID,)),
        ("extra field", {"is_guest": True}, (INVALID,)),
    ]:  # fmt: skip
        cases.append(HttpCase(f"profile: {label}", "PATCH", "/api/me", answers,
                              content=surrogate_json(body),
                              headers={"Content-Type": "application/json"}))  # fmt: skip
    # malformed bodies and wrong content types
    for label, content, ctype in [
        ("brace", b"{", "application/json"), ("empty", b"", "application/json"),
        ("null", b"null", "application/json"), ("string", b'"x"', "application/json"),
        ("arrays 5000 deep", b"[" * 5000, "application/json"),
        ("objects 2000 deep", b'{"a":' * 2000, "application/json"),
        ("closed arrays 3000 deep", b"[" * 3000 + b"]" * 3000, "application/json"),
        ("not UTF-8", b'{"display_name": "\xff\xfe"}', "application/json"),
        ("UTF-8 surrogate bytes", b'{"display_name": "\xed\xa0\x80"}', "application/json"),
        ("NaN", b'{"display_name": NaN}', "application/json"),
        ("text/plain", b'{"display_name": "Gast"}', "text/plain"),
        ("form", b"display_name=Gast", "application/x-www-form-urlencoded"),
        ("multipart", b"--b\r\nContent-Disposition: form-data; name=\"display_name\"\r\n\r\n"
         b"Gast\r\n--b--\r\n", "multipart/form-data; boundary=b"),
        ("xml", b"<display_name>Gast</display_name>", "application/xml"),
    ]:  # fmt: skip
        cases.append(HttpCase(f"guest body {label}", "POST", "/api/guest",
                              (INVALID, (400, "bad_request"), (422, "bad_name"),
                               (415, "unsupported_media_type")), content=content,
                              headers={"Content-Type": ctype}, who="nobody"))  # fmt: skip
    # rooms
    game = {"name": "Neu", "game": "dreierles"}
    for label, body, answers in [
        ("surrogate name", {**game, "name": "\ud800"}, (INVALID, (422, "bad_room_name"))),
        ("201-character name", {**game, "name": "x" * 201}, (INVALID,)),
        ("empty name", {**game, "name": ""}, ((422, "bad_room_name"),)),
        ("NUL name", {**game, "name": "a\x00"}, ((422, "bad_room_name"),)),
        ("unknown game", {**game, "game": "schach"}, ((422, "unknown_game"),)),
        ("surrogate game", {**game, "game": "\ud800"}, (INVALID, (422, "unknown_game"))),
        ("stake 2^63", {**game, "stake_cents": 2**63}, (INVALID, (422, "bad_stake"))),
        ("stake -1", {**game, "stake_cents": -1}, ((422, "bad_stake"),)),
        ("stake 1.5", {**game, "stake_cents": 1.5}, (INVALID,)),
        ("stake string", {**game, "stake_cents": "10"}, (INVALID,)),
        ("stake true", {**game, "stake_cents": True}, (INVALID,)),
        ("rounds 2^63", {**game, "rounds": 2**63}, (INVALID, (422, "bad_rounds"))),
        ("rounds -1", {**game, "rounds": -1}, ((422, "bad_rounds"),)),
        ("timer 2^63", {**game, "timer_seconds": 2**63}, (INVALID, (422, "bad_timer"))),
        ("timer 5", {**game, "timer_seconds": 5}, ((422, "bad_timer"),)),
        ("spectators string", {**game, "allow_spectators": "yes"}, (INVALID,)),
        ("options list", {**game, "options": []}, (INVALID,)),
        ("option surrogate name", {**game, "options": {"\ud800": 1}},
         (INVALID, (422, "unknown_option"))),
        ("option unknown", {**game, "options": {"no_such_rule": 1}}, ((422, "unknown_option"),)),
        ("option value 2^63", {**game, "options": {"minimum_game_points": 2**63}},
         (INVALID, (422, "bad_option"), (422, "option_not_per_room"), (422, "unknown_option"))),
        ("option value list", {**game, "options": {"x": [1]}}, (INVALID,)),
        ("option value surrogate", {**game, "options": {"x": "\ud800"}},
         (INVALID, (422, "unknown_option"))),
        ("extra field", {**game, "host_id": 1}, (INVALID,)),
    ]:  # fmt: skip
        cases.append(HttpCase(f"new room: {label}", "POST", "/api/rooms", answers,
                              content=surrogate_json(body),
                              headers={"Content-Type": "application/json"}))  # fmt: skip
    for label, order in [("2^63", [2**63]), ("-2^31", [-(2**31)]), ("0", [0]),
                         ("string", ["1"]), ("float", [1.5]), ("nested", [[1]]),
                         ("true", [True]), ("17 entries", list(range(1, 18))), ("object", {}),
                         ("2^31", [2**31])]:  # fmt: skip
        add(f"seat order {label}", "PUT", f"/api/rooms/{room}/seats", INVALID,
            json_body={"order": order})  # fmt: skip
    # a negative id is a computer player's (well formed): this room's match has begun
    add("seat order -1", "PUT", f"/api/rooms/{room}/seats", (409, "room_not_open"),
        json_body={"order": [-1]})  # fmt: skip
    for label, role in [("admin", "admin"), ("number", 1), ("null", None),
                        ("surrogate", "\ud800")]:  # fmt: skip
        cases.append(HttpCase(f"join role {label}", "POST", "/api/invite/x/join",
                              (INVALID, (404, "invite_not_found")),
                              content=surrogate_json({"role": role}),
                              headers={"Content-Type": "application/json"},
                              who="outsider"))  # fmt: skip
    # bodies over the limit (the route never runs), declared JSON and without a content type
    # (which the API may refuse first: 415 unsupported_media_type)
    over = DEFAULT_BODY_BYTES + 1
    too_big = (413, "body_too_large")
    record_big = (413, "record_too_large")
    not_json = (415, "unsupported_media_type")
    oversized: list[tuple[str, str, str, tuple[int, str], bytes | None, dict[str, str], str]] = [
        ("login: 48 MiB declared", "POST", "/api/login", too_big, None,
         {"Content-Length": str(48 * MIB)}, "nobody"),
        ("login: one byte over", "POST", "/api/login", too_big, b"x" * over, {}, "nobody"),
        ("login: chunked over", "POST", "/api/login", too_big, b"chunked:" + b"x" * over, {},
         "nobody"),
        ("guest: chunked, small pieces", "POST", "/api/guest", too_big,
         b"chunked-small:" + b"x" * over, {}, "nobody"),
        ("me: GET with a body", "GET", "/api/me", too_big, b"x" * (2 * over), {}, "anna"),
        ("healthz: 19-digit length", "GET", "/healthz", too_big, None,
         {"Content-Length": "9" * 19}, "nobody"),
        ("rooms: one byte over", "POST", "/api/rooms", too_big,
         b'{"name": "' + b"x" * over + b'"}', {}, "anna"),
        ("unknown path: over", "POST", "/api/nope", too_big, b"x" * over, {}, "nobody"),
        ("page: over", "POST", "/archive", too_big, b"x" * over, {}, "anna"),
        ("record: 300 KiB declared", "POST", "/api/records/replay", record_big, None,
         {"Content-Length": str(300 * 1024)}, "anna"),
        ("record: one byte over", "POST", "/api/records/replay", record_big,
         b"x" * (256 * 1024 + 1), {}, "anna"),
        ("record: chunked over", "POST", "/api/records/replay", record_big,
         b"chunked:" + b"x" * (256 * 1024 + 1), {}, "anna"),
    ]  # fmt: skip
    for name, method, path, refusal, body, headers, who in oversized:
        add(f"{name}, JSON", method, path, refusal, content=body,
            headers={"Content-Type": "application/json", **headers}, who=who)  # fmt: skip
        add(f"{name}, no content type", method, path, refusal, not_json, content=body,
            headers=headers, who=who)  # fmt: skip
    # uploaded records
    bad_record = (422, "bad_record")
    seats = record["seats"]
    for label, content in [
        ("brace", b"{"), ("array", b"[]"), ("empty", b""),
        ("arrays 200000 deep", b"[" * 200_000), ("objects 40000 deep", b'{"a":' * 40_000),
        ("not UTF-8", b'{"format": "\xff"}'), ("UTF-16", json.dumps(record).encode("utf-16")),
        ("surrogate seat name", surrogate_json({**record, "seats": [seats[0], "\ud800",
         seats[2]]})),
        ("surrogate option name", surrogate_json({**record, "options": {"\udc00": 1}})),
        ("surrogate in an action", surrogate_json({**record, "actions": [[0, "pass\ud800"]]})),
        ("surrogate in the outcome", surrogate_json({**record, "outcome": {"x": "\ud800"}})),
        ("UTF-8 surrogate bytes", json.dumps(record).replace(seats[1], "\\ud800").encode()
         .replace(b"\\ud800", b"\xed\xa0\x80")),
        ("NaN stake", json.dumps({**record, "stake_cents": float("nan")}).encode()),
        ("5000-digit stake", json.dumps(record).replace('"stake_cents": 10', '"stake_cents": '
         + "9" * 5000).encode()),
        ("seat 2^63", surrogate_json({**record, "actions": [[2**63, "pass"]]})),
        ("unknown field", surrogate_json({**record, "extra": 1})),
        ("card 2^63", surrogate_json({**record, "hands": [[2**63], *record["hands"][1:]]})),
    ]:  # fmt: skip
        add(f"record: {label}", "POST", "/api/records/replay", bad_record, (400, "bad_request"),
            content=content, headers={"Content-Type": "application/json"})  # fmt: skip
    # methods and paths nobody serves
    add("DELETE login", "DELETE", "/api/login", (405, "method_not_allowed"), who="nobody")
    add("PUT healthz", "PUT", "/healthz", (405, "method_not_allowed"), who="nobody")
    add("GET record upload", "GET", "/api/records/replay", (405, "method_not_allowed"))
    add("unknown API path", "GET", "/api/nope", (404, "not_found"))
    add("surrogate in a path", "GET", "/api/%ED%A0%80", (404, "not_found"))
    add("match 2^63 via the table page", "GET", f"/rooms/{match_id}%00/table", (404, None))
    return cases


def raw_request(base_url: str, case: HttpCase, cookie: str | None) -> tuple[int, bytes, str]:
    """Send a request as written (chunked bodies, declared lengths without a body)."""
    host, port = base_url.removeprefix("http://").split(":")
    headers = {"Host": host, **case.headers}
    if cookie:
        headers["Cookie"] = f"{COOKIE}={cookie}"
    body = case.content or b""
    pieces: list[bytes] = []
    if body.startswith((b"chunked:", b"chunked-small:")):
        marker, _, payload = body.partition(b":")
        size = 512 if marker == b"chunked-small" else 4096
        headers["Transfer-Encoding"] = "chunked"
        pieces = [b"%x\r\n%s\r\n" % (len(p), p) for p in chunked(len(payload), size)]
        pieces.append(b"0\r\n\r\n")
    elif "Content-Length" not in headers:
        headers["Content-Length"] = str(len(body))
        pieces = [body]
    head = f"{case.method} {case.path} HTTP/1.1\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head.encode())
        for piece in pieces:
            try:
                sock.sendall(piece)
            except OSError:
                break  # the server answered and closed already
        data = b""
        try:
            while b"\r\n\r\n" not in data or len(data) < _expected_size(data):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
    head_bytes, _, content = data.partition(b"\r\n\r\n")
    status = int(head_bytes.split(b" ", 2)[1]) if head_bytes else 0
    ctype = next((line.split(b":", 1)[1].strip().decode() for line in head_bytes.split(b"\r\n")
                  if line.lower().startswith(b"content-type:")), "")  # fmt: skip
    return status, content, ctype


def _expected_size(data: bytes) -> int:
    head, _, _ = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(head) + 4 + int(line.split(b":")[1])
    return len(data) + 1


async def http_case(world: World, case: HttpCase, cookies: dict[str, str | None]) -> str | None:
    cookie = cookies[case.who]
    if case.content is not None or "Content-Length" in case.headers:
        status, content, ctype = await asyncio.to_thread(raw_request, world.base_url, case, cookie)
    else:
        jar = {COOKIE: cookie} if cookie else None
        async with httpx.AsyncClient(base_url=world.base_url, timeout=10, cookies=jar) as http:
            response = await http.request(
                case.method, case.path, json=case.json_body, headers=case.headers
            )
            status, content = response.status_code, response.content
            ctype = response.headers.get("content-type", "")
    if status == 0:
        return "no answer"
    if status < 400 or status >= 500:
        return f"status {status}: {content[:200]!r}"
    if (status, None) in case.answers and ctype.startswith("text/html"):
        return None
    try:
        body = json.loads(content)
        error = body["error"]
        assert set(body) == {"error"} and set(error) == {"code", "message", "message_de"}
        assert error["message"] and error["message_de"]
    except (ValueError, KeyError, TypeError, AssertionError):
        return f"status {status} without the error shape: {content[:200]!r}"
    if (status, error["code"]) not in case.answers:
        return f"answered {status} {error['code']}: {error['message']}; expected {case.answers}"
    return None


# --------------------------------------------------------------------------- the corpus


def a_finished_record() -> dict[str, Any]:
    rules = get_rules("dreierles")
    rng = random.Random(3)
    deal = rules.new_deal(rules.shuffle_and_deal(rng), seats=["Anna", "Bernd", "Catrin"])
    while deal.outcome() is None:
        seat, move = deal.random_action(rng)
        deal.apply(move, seat)
    return dump_record(deal, stake_cents=10)


def test_bad_inputs_are_refused_cleanly(world_server: tuple[str, str, Path, Any]) -> None:
    base_url, db_url, log, process = world_server
    label = db_url.split("+", 1)[0].split(":", 1)[0]

    async def scenario() -> tuple[int, int]:
        world = await make_world(base_url, db_url, log, process)
        engine = make_engine(db_url, poolclass=NullPool)
        tally = Tally()
        try:
            await asyncio.sleep(0.2)  # presence settles
            for client in world.players:
                while not client.inbox.empty():
                    client.inbox.get_nowait()
            version = world.mover.version
            # the table stores whose turn it is a moment after it changed (a live table
            # within a second): the fingerprint is taken once that is in
            await turn_stored(engine, world.match_id, version)
            before = await digest(engine)
            world.new_log()
            # extra sockets of the player to move: the rate limit (50 a second) is per
            # connection, and each case costs two messages (the case and a ping)
            movers = []
            for _ in range(3):
                extra = Client(base_url, world.mover.name)
                extra.http.cookies.set(COOKIE, world.mover.cookie)
                await extra.connect(world.room)
                movers.append(extra)
            await asyncio.sleep(0.2)
            for client in movers:
                while not client.inbox.empty():
                    client.inbox.get_nowait()
            everybody = [*world.players, world.outsider, *movers]
            seen = {id(c): len(c.messages) for c in everybody}

            cases = ws_cases(world)
            for index, case in enumerate(cases):
                senders = {"mover": movers[index % 3], "waiter": world.waiter,
                           "outsider": world.outsider}  # fmt: skip
                try:
                    async with asyncio.timeout(20):
                        problem = await ws_case(world, case, senders, everybody)
                except Exception as exc:  # the socket died: a failure, and a new socket
                    problem = f"connection lost: {exc!r}"
                    async with asyncio.timeout(20):
                        await reconnect(world, senders[case.sender])
                if problem is None and await digest(engine) != before:
                    problem = "the database changed"
                logged = world.new_log()
                if problem is None and traceback_in(logged):
                    problem = f"traceback in the log: {logged[-500:]}"
                tally.add("websocket", case.name, problem)
                await asyncio.sleep(0.015)
            for frame in frame_cases():
                try:
                    async with asyncio.timeout(30):
                        problem = await frame_case(world, frame)
                except Exception as exc:
                    problem = f"connection lost: {exc!r}"
                    async with asyncio.timeout(60):
                        for client in [*world.players, world.outsider]:
                            await reconnect(world, client)
                logged = world.new_log()
                if problem is None and traceback_in(logged):
                    problem = f"traceback in the log: {logged[-500:]}"
                tally.add("frame", frame.name, problem)
            # nobody was told anything but the answers to their own messages
            assert not told(everybody, seen), told(everybody, seen)[:3]
            assert await digest(engine) == before, "a WebSocket case changed the database"

            cookies: dict[str, str | None] = {
                "anna": world.players[0].cookie,
                "outsider": world.outsider.cookie,
                "nobody": None,
            }
            for request in http_cases(world, a_finished_record()):
                problem = await http_case(world, request, cookies)
                if problem is None and await digest(engine) != before:
                    problem = "the database changed"
                logged = world.new_log()
                if problem is None and traceback_in(logged):
                    problem = f"traceback in the log: {logged[-500:]}"
                tally.add("http", request.name, problem)

            # nothing changed: a fresh snapshot shows the same table, which still plays
            for client in movers:  # (one user keeps at most four sockets at a table)
                await client.aclose()
            fresh = Client(base_url, "Anna")
            fresh.http.cookies.set(COOKIE, world.players[0].cookie)
            snapshot = await fresh.connect(world.room)
            assert snapshot["v"] == version and snapshot["chat"] == []
            mover = world.mover
            await mover.send({"type": "action", "action": "pass", "v": version, "id": "ok"})
            assert (await mover.expect_ack("ok"))["v"] == version + 1
            await fresh.aclose()
            for client in [*world.players, world.outsider]:
                await client.aclose()
        finally:
            await engine.dispose()
        failures = [r for r in tally.results if not r.clean]
        tried, clean = tally.report(label)
        assert not traceback_in(log.read_text(errors="replace")), "traceback in the server log"
        assert not failures, "\n".join(f"{r.kind} {r.name}: {r.detail}" for r in failures[:40])
        return tried, clean

    tried, clean = run(scenario())
    assert tried >= MIN_CASES and clean == tried


# --------------------------------------------------------------------------- load


#: Seconds of flooding with oversized frames and bodies.
FLOOD = 3.0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def oversized_frames(base_url: str, cookie: str, seconds: float, results: list[int | None]) -> None:
    """Send text frames of 16 MiB for ``seconds``, each on a new socket (the server closes
    it)."""
    payload = b"[" * (16 * MIB)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        raw = RawSocket(base_url, cookie)
        try:
            raw.send(RawSocket.frame(1, b"", declared=len(payload)))
            raw.send(payload)
            results.append(raw.close_code())
        finally:
            raw.close()


def oversized_bodies(base_url: str, seconds: float, results: list[int]) -> None:
    """POST bodies of 48 MiB to /api/login without a session for ``seconds``: declared, and
    sent for as long as the server reads, and as many chunked ones."""
    host, port = base_url.removeprefix("http://").split(":")
    piece = b"x" * MIB
    deadline = time.monotonic() + seconds
    i = 0
    while time.monotonic() < deadline:
        i += 1
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            if i % 2:
                sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")  # fmt: skip
                framing = b"%x\r\n" % len(piece)
            else:
                sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             b"application/json\r\nContent-Length: %d\r\n\r\n"
                             % (48 * MIB))  # fmt: skip
                framing = b""
            try:
                for _ in range(48):
                    sock.sendall(framing + piece + (b"\r\n" if framing else b""))
            except OSError:
                pass
            try:
                answer = sock.recv(4096)
            except OSError:
                answer = b""
            results.append(int(answer.split(b" ", 2)[1]) if answer else 0)


def test_oversized_frames_and_bodies_stall_nothing_and_cost_no_memory(tmp_path: Path) -> None:
    """A member floods 16 MiB frames and bodies of 48 MiB are posted without a session:
    each is refused before it is read (1009, 413), another table's ping is answered within
    200 ms all the while, and the server's memory does not grow."""
    db_url = sqlite_url(tmp_path / "stammtisch.sqlite3")
    upgrade(db_url)
    log = tmp_path / "uvicorn.log"
    with server_process(db_url, log) as (base_url, process):
        cmdline = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
        flags = [part.decode() for part in cmdline]
        assert flags[1:3] == ["-m", "server"], flags  # as in production: UVICORN_OPTIONS

        async def scenario() -> dict[str, Any]:
            flooders, room_a, _ = await make_room(base_url, "dreierles", ["Anna", "Bernd", "Otto"])
            await start(flooders[0], room_a)
            players, room_b, _ = await make_room(base_url, "dreierles", ["Dora", "Emil", "Fritz"])
            await start(players[0], room_b)
            for client in players:
                await client.connect(room_b)
            pinger = players[0]
            # warm up: a few refusals of each kind before the first measurement
            frames: list[int | None] = []
            bodies: list[int] = []
            await asyncio.to_thread(oversized_frames, base_url, flooders[2].cookie, 0.3, frames)
            await asyncio.to_thread(oversized_bodies, base_url, 0.3, bodies)
            await asyncio.sleep(0.5)
            before = rss_kib(process.pid)
            latencies: list[float] = []
            done = threading.Event()

            async def ping_all_the_while() -> None:
                n = 0
                while not done.is_set():
                    n += 1
                    started = time.perf_counter()
                    await pinger.send({"type": "ping", "id": n})
                    pong = await pinger.expect_any(("pong", "error"))
                    assert pong == {"type": "pong", "id": n}, pong
                    latencies.append(time.perf_counter() - started)
                    await asyncio.sleep(0.025)  # 40 a second: under the rate limit

            async def flood() -> None:
                try:
                    await asyncio.gather(
                        asyncio.to_thread(oversized_frames, base_url, flooders[2].cookie, FLOOD,
                                          frames),
                        asyncio.to_thread(oversized_bodies, base_url, FLOOD, bodies),
                    )  # fmt: skip
                finally:
                    done.set()

            await asyncio.gather(ping_all_the_while(), flood())
            await asyncio.sleep(0.5)
            after = rss_kib(process.pid)
            for client in [*players, *flooders]:
                await client.aclose()
            return {"frames": frames, "bodies": bodies, "latencies": latencies,
                    "rss_before_kib": before, "rss_after_kib": after}  # fmt: skip

        figures = run(scenario())
    latencies = sorted(figures["latencies"])
    summary = {
        "oversized_frames": len(figures["frames"]),
        "frame_close_codes": sorted(set(figures["frames"]), key=str),
        "oversized_bodies": len(figures["bodies"]),
        "body_statuses": sorted(set(figures["bodies"])),
        "pings": len(latencies),
        "ping_ms_median": round(1000 * statistics.median(latencies), 2),
        "ping_ms_max": round(1000 * latencies[-1], 2),
        "rss_mb_before": round(figures["rss_before_kib"] / 1024, 1),
        "rss_mb_after": round(figures["rss_after_kib"] / 1024, 1),
    }
    out = REPO_ROOT / "artifacts"
    out.mkdir(exist_ok=True)
    (out / "oversized-inputs.json").write_text(json.dumps(summary, indent=1))
    print(f"\noversized inputs: {summary}")
    assert set(figures["frames"]) == {1009}, summary
    assert set(figures["bodies"]) == {413}, summary
    assert len(latencies) >= 60 and latencies[-1] < 0.2, summary
    assert figures["rss_after_kib"] - figures["rss_before_kib"] < 20 * 1024, summary
    assert not traceback_in(log.read_text(errors="replace"))


def test_server_log_is_quiet_for_a_frame_that_is_not_utf8(tmp_path: Path) -> None:
    """uvicorn closes the connection (1007) and logs one warning line, not a traceback."""
    db_url = sqlite_url(tmp_path / "stammtisch.sqlite3")
    upgrade(db_url)
    log = tmp_path / "uvicorn.log"
    with server_process(db_url, log) as (base_url, _process):

        async def scenario() -> None:
            clients, _, _ = await make_room(base_url, "dreierles", ["Anna"])
            raw = RawSocket(base_url, clients[0].cookie)
            raw.send(RawSocket.frame(1, b'"\xff"'))
            assert raw.close_code() == 1007
            raw.close()
            await clients[0].aclose()

        run(scenario())
        time.sleep(0.2)
    logged = log.read_text()
    assert "Invalid UTF-8 sequence received from client." in logged
    assert not traceback_in(logged), logged


def test_a_client_id_is_echoed_only_when_valid(live_server: str) -> None:
    """Valid ids of both kinds come back exactly, at the edges of what is allowed."""

    async def scenario() -> None:
        clients, _, _ = await make_room(live_server, "dreierles", ["Anna"])
        anna = clients[0]
        await anna.open_socket()
        for msg_id in ["", "x" * 64, " ~!#$%&'()*+,-./:;<=>?@[]^_`{|}", 0, -(2**53) + 1,
                       2**53 - 1, "play HK"]:  # fmt: skip
            await anna.send({"type": "ping", "id": msg_id})
            assert (await anna.expect("pong")) == {"type": "pong", "id": msg_id}
        await anna.send({"type": "teleport", "id": "t1"})
        assert (await anna.expect("error"))["id"] == "t1"
        await anna.aclose()

    run(scenario())
