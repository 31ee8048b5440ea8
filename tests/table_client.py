"""A scripted client of the real server: HTTP for accounts and rooms, a WebSocket for play.

Every message a client receives is kept (``messages``) so that tests can check afterwards
what each seat was told; ``version`` and ``view`` follow the latest event or snapshot.
An event that carries only the changes of the view gets its whole ``view`` filled in from
the view before (as the browser applies them), and a snapshot's partial sheet its earlier
rows, so that tests read every message whole.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

COOKIE = "stammtisch_session"
#: the type of the message a client puts in its inbox when it stops reading its socket
#: because of a message it could not follow (the ``expect`` methods raise it)
FAILED = "client_failed"
#: the pace of a client's sends (messages a second, and the burst): under the server's
#: limit of 50 a second per connection (``server.tables.table.RateLimit``), so that a
#: scripted evening played as fast as the table answers is never ``rate_limited``
PACE = 40.0
PACE_BURST = 40.0


class Client:
    """One person: an HTTP session and (once connected) a WebSocket to a table."""

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        self.name = name
        # an idle connection is dropped before the server's keep-alive timeout (5 s) would
        # close it under a request that reuses it (a ReadError on a busy machine)
        self.http = httpx.AsyncClient(
            base_url=base_url, timeout=30, limits=httpx.Limits(keepalive_expiry=2.0)
        )
        self.user_id = 0
        self.login = ""
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.messages: list[dict[str, Any]] = []
        #: every message's text as it came over the socket
        self.frames: list[str] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.version = -1
        #: the version of the view this client has (of its last event or snapshot)
        self._view_version = -1
        self.view: dict[str, Any] | None = None
        self.forced = False  # the last event said the table plays the next move itself
        self.snapshot: dict[str, Any] | None = None
        #: the latest ``deal_end`` while the table waits between deals (else ``None``)
        self.between: dict[str, Any] | None = None
        self.room = 0
        #: why this client stopped reading its socket (a message it could not follow)
        self.failure: Exception | None = None
        #: how the socket closed, once it has (by the server or by :meth:`close_socket`)
        self.closed: ConnectionClosed | None = None
        self._tokens = PACE_BURST  # the pace's bucket (see :meth:`send`)
        self._stamp = 0.0

    async def register(self) -> None:
        """Register with a login derived from the name."""
        login = self.login = f"{self.name.lower()}{random.randrange(10**6)}"
        response = await self.http.post(
            "/api/register",
            json={"login": login, "password": "Ober-sticht", "display_name": self.name},
        )
        response.raise_for_status()
        self.user_id = response.json()["id"]

    @property
    def cookie(self) -> str:
        """The session token (the cookie's value)."""
        token = self.http.cookies.get(COOKIE)
        assert token
        return token

    async def open_socket(self, base_url: str | None = None) -> None:
        """Open the WebSocket (no hello yet)."""
        url = (base_url or self.base_url).replace("http://", "ws://") + "/ws"
        self.ws = await connect(url, additional_headers={"Cookie": f"{COOKIE}={self.cookie}"})
        self.reader = asyncio.create_task(self._read())

    async def connect(self, room: int, base_url: str | None = None) -> dict[str, Any]:
        """Open the socket, say hello to ``room`` and wait for the snapshot."""
        await self.open_socket(base_url)
        self.room = room
        await self.send({"type": "hello", "room": room, "last_version": self.version})
        return await self.expect("snapshot")

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            await self._read_frames()
        except ConnectionClosed as exc:  # nothing more arrives
            self.closed = exc
        except Exception as exc:  # a message this client could not follow: say so
            self.failure = exc
            await self.inbox.put({"type": FAILED, "error": repr(exc)})

    async def _read_frames(self) -> None:
        assert self.ws is not None
        async for raw in self.ws:
            self.frames.append(raw if isinstance(raw, str) else raw.decode())
            message = json.loads(raw)
            self.messages.append(message)
            if message["type"] in ("event", "snapshot"):
                if "view" not in message:  # an event with the view's changes only
                    message["view"] = self._apply_changes(message)
                self.version = self._view_version = message["v"]
                self.view = message["view"]
                # the table plays the next move itself (a lone Gut): nobody is to act yet
                self.forced = bool((message.get("turn") or {}).get("forced"))
                if message["type"] == "snapshot":
                    message["match"]["sheet"] = self._whole_sheet(message["match"])
                    self.snapshot = message
                    self.between = message.get("between_deals")
            elif message["type"] == "deal_end":
                self.version = message["v"]
                self.between = message
            await self.inbox.put(message)

    def _apply_changes(self, event: dict[str, Any]) -> dict[str, Any]:
        """The view after an event that carries only its changes (``changed``, ``gone``),
        as the browser client applies them: they follow the view of the version before."""
        assert self.view is not None and event["v"] == self._view_version + 1, (
            "an event with changes only, but not for the view this client has",
            self._view_version,
            event,
        )
        view = {**self.view, **event["changed"]}
        for key in event["gone"]:
            del view[key]
        return view

    def _whole_sheet(self, match: dict[str, Any]) -> dict[str, Any]:
        """The whole score sheet of a snapshot that carries only the rows from
        ``match.sheet_from`` on (the client has the ones before)."""
        sheet: dict[str, Any] = match["sheet"]
        start = match.get("sheet_from", 0)
        if not start:
            return sheet
        assert self.snapshot is not None, "a partial sheet needs the rows before it"
        rows = self.snapshot["match"]["sheet"]["rows"]
        assert len(rows) >= start, (len(rows), start)
        return {**sheet, "rows": rows[:start] + sheet["rows"]}

    async def send(self, message: dict[str, Any] | str, *, paced: bool = True) -> None:
        """Send a message (a dict as JSON, or raw text), at most :data:`PACE` a second
        (``paced=False``: at once, as a flood would)."""
        assert self.ws is not None
        if paced:
            await self._pace()
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def _pace(self) -> None:
        """Wait for a token of the client's own bucket (:data:`PACE`, :data:`PACE_BURST`)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._tokens = min(PACE_BURST, self._tokens + (now - self._stamp) * PACE)
        self._stamp = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / PACE)
            self._tokens = 1.0
            self._stamp = loop.time()
        self._tokens -= 1

    async def expect(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of type ``kind`` (skipping others)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next_message()
                if message["type"] == kind:
                    return message

    async def next_message(self) -> dict[str, Any]:
        """The next message in the inbox; raises if this client stopped following its socket
        (a message it could not follow, such as an event for a view it does not have) or the
        socket closed with nothing left to read."""
        if self.inbox.empty() and self.reader is not None:
            getter = asyncio.ensure_future(self.inbox.get())
            try:
                await asyncio.wait({getter, self.reader}, return_when=asyncio.FIRST_COMPLETED)
            except asyncio.CancelledError:
                # a caller's timeout: the getter must not live on and take the next message
                getter.cancel()
                raise
            if not getter.done():
                getter.cancel()  # the socket closed: what it still sent is in the inbox
                if self.inbox.empty():
                    raise AssertionError(f"{self.name}'s socket closed: {self.closed!r}")
                message = self.inbox.get_nowait()
            else:
                message = getter.result()
        else:
            message = await self.inbox.get()
        if message["type"] == FAILED:
            raise AssertionError(f"{self.name} stopped reading its socket: {message['error']}")
        return message

    async def expect_any(self, kinds: tuple[str, ...], timeout: float = 10) -> dict[str, Any]:
        """The next message of any type in ``kinds``."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next_message()
                if message["type"] in kinds:
                    return message

    async def expect_ack(self, msg_id: Any, timeout: float = 10) -> dict[str, Any]:
        """The event of this client's own action ``msg_id``: its acknowledgement (the copy
        of the event sent to the acting connection carries the action message's id)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next_message()
                if message["type"] == "event" and "id" in message:
                    assert message["id"] == msg_id, message
                    return message
                if message["type"] == "error" and message.get("id") == msg_id:
                    raise AssertionError(f"action {msg_id!r} refused: {message}")
                if message["type"] == "error" and message.get("code") == "rate_limited":
                    raise AssertionError(f"action {msg_id!r} dropped unread: {message}")

    def move_to(self, base_url: str) -> None:
        """Talk to a server at another address from now on (after a restart)."""
        self.base_url = base_url
        self.http.base_url = httpx.URL(base_url)

    async def close_socket(self) -> None:
        """Close the WebSocket (as a phone that drops off)."""
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader
        self.ws = None

    async def aclose(self) -> None:
        """Close everything."""
        await self.close_socket()
        await self.http.aclose()

    @property
    def seat(self) -> int | None:
        """This client's seat in the current deal (from its view)."""
        return None if self.view is None else self.view.get("seat")

    def my_turn(self) -> bool:
        """Whether the view says it is this client's turn (not while the table plays the
        seat's only move itself: the event before it says ``turn.forced``)."""
        view = self.view
        mine = bool(view and view["to_move"] is not None and view["to_move"] == view["seat"])
        return mine and not self.forced


async def make_room(
    base_url: str, game: str, names: list[str], **room: Any
) -> tuple[list[Client], int, str]:
    """Register ``names``; the first creates a room, the others join by the invite link."""
    clients = [Client(base_url, name) for name in names]
    for client in clients:
        await client.register()
    host = clients[0]
    body = {"name": f"{game} test", "game": game, "options": {}, "stake_cents": 10,
            "rounds": 1, "allow_spectators": True, **room}  # fmt: skip
    response = await host.http.post("/api/rooms", json=body)
    response.raise_for_status()
    room_json = response.json()
    token = room_json["invite_url"].rsplit("/", 1)[-1]
    for client in clients[1:]:
        joined = await client.http.post(f"/api/invite/{token}/join", json={"role": "player"})
        joined.raise_for_status()
    return clients, room_json["id"], token


async def start(host: Client, room: int) -> int:
    """The host starts the match; return its id."""
    response = await host.http.post(f"/api/rooms/{room}/start")
    response.raise_for_status()
    match_id: int = response.json()["match_id"]
    return match_id


async def settle(clients: list[Client], version: int, timeout: float = 10) -> None:
    """Wait until every client has seen ``version``."""
    async with asyncio.timeout(timeout):
        while any(c.version < version for c in clients):
            await asyncio.sleep(0.002)


async def step(clients: list[Client], rng: random.Random) -> bool:
    """The client whose turn it is sends a random legal action; wait for everyone.

    Returns ``False`` when nobody is to move (the match is over).
    """
    actor = next((c for c in clients if c.my_turn()), None)
    if actor is None:
        return False
    assert actor.view is not None
    legal = [a for a in actor.view["legal_actions"] if not a.startswith(("knock", "announce"))]
    text = rng.choice(legal or actor.view["legal_actions"])
    if "gesund" in legal and rng.random() < 0.9:  # as most Doppelkopf hands are
        text = "gesund"
    await actor.send({"type": "action", "action": text, "v": actor.version, "id": text})
    event = await actor.expect_ack(text)
    await settle(clients, event["v"])
    while (event.get("turn") or {}).get("forced"):  # the table's own move follows at once
        await settle(clients, event["v"] + 1)
        event = next(m for m in reversed(actor.messages)
                     if m["type"] == "event" and m["v"] == event["v"] + 1)  # fmt: skip
    if event["view"]["phase"] == "finished":
        await settle(clients, event["v"] + 1)  # deal_end (or the final snapshot)
        await next_deal(clients)
    return True


async def next_deal(clients: list[Client], timeout: float = 10) -> None:
    """Between deals, every player still waited for sends ``next`` ("Weiter"); wait until
    every client has the snapshot of the next deal."""
    for client in clients:
        if client.between is not None and client.user_id in client.between["waiting"]:
            await client.send({"type": "next", "id": f"next-{client.version}"})
    async with asyncio.timeout(timeout):
        while any(c.between is not None for c in clients):
            await asyncio.sleep(0.002)
