"""A server killed at every write boundary, on SQLite and PostgreSQL, loses nothing and
applies nothing twice; a database locked at a deal's end holds the table up ("saving")
but never makes it say "nothing changed" about something it has shown.

The server runs ``tests.crash_app:app``, which SIGKILLs itself at the named write boundary
(see there). The clients then do what the browser client does: reconnect to the restarted
server and send their unanswered action again, with the same id and version. Afterwards
the archive's score sheet must equal the table's, every deal must have its outcome, the
match and its room must be finished, and every action must be stored exactly once.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import signal
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, null, select, text, update
from sqlalchemy.pool import NullPool

from server.store.db import make_engine, sqlite_file
from server.store.models import ActionRow, DealRow, Match, Room, ScoreEntry
from tests.support import free_port, server_process
from tests.table_client import Client, make_room, next_deal, settle, start

GAME = "dreierles"
NAMES = ["Anna", "Bernd", "Catrin"]
DEALS = 3  # one round of Dreierles at three


class Crashed(Exception):
    """The server went away while an action was waiting for its answer."""


async def answer(client: Client, msg_id: str, timeout: float = 30) -> dict[str, Any] | None:
    """The answer to ``client``'s action ``msg_id`` (its event, or an ``ack``), or ``None``
    when the socket closed first (the server died)."""
    async with asyncio.timeout(timeout):
        while True:
            try:
                message = await asyncio.wait_for(client.inbox.get(), 0.2)
            except TimeoutError:
                if client.reader is None or client.reader.done():
                    return None
                continue
            if message.get("id") == msg_id and message["type"] in ("event", "ack"):
                return message
            if message["type"] == "error" and message.get("id") == msg_id:
                raise AssertionError(f"{msg_id} refused: {message}")


class Players:
    """The clients of one match, playing random legal actions with unique message ids."""

    def __init__(self, clients: list[Client], seed: int) -> None:
        self.clients = clients
        self.rng = random.Random(seed)
        self.ids = itertools.count()
        self.answered: set[str] = set()
        self.pending: tuple[Client, dict[str, Any]] | None = None

    def actor(self) -> Client | None:
        return next((c for c in self.clients if c.my_turn()), None)

    async def act(self, actor: Client, text_: str) -> dict[str, Any] | None:
        msg_id = f"{actor.name}-{next(self.ids)}"
        message = {"type": "action", "action": text_, "v": actor.version, "id": msg_id}
        self.pending = (actor, message)
        await actor.send(message)
        got = await answer(actor, msg_id)
        if got is not None:
            self.answered.add(msg_id)
            self.pending = None
            await settle(self.clients, got["v"])
        return got

    async def play(self, until: int | None = None) -> None:
        """Random legal actions until the match is over (or ``until`` actions); raises
        :class:`Crashed` when the server dies."""
        done = 0
        while (actor := self.actor()) is not None and (until is None or done < until):
            assert actor.view is not None
            text_ = self.rng.choice(actor.view["legal_actions"])
            got = await self.act(actor, text_)
            if got is None:
                raise Crashed
            if got["type"] == "event" and got["view"]["phase"] == "finished":
                await settle(self.clients, got["v"] + 1)  # deal_end, or the final snapshot
                await next_deal(self.clients)  # everybody taps "Weiter"
            done += 1

    async def reconnect(self, base_url: str, room: int) -> bool:
        """After a restart: every client reconnects; the unanswered action goes again.
        ``False`` when the match had ended (then the table is gone: it is in the archive)."""
        for client in self.clients:
            await client.close_socket()
            client.move_to(base_url)
            await client.open_socket()
            await client.send({"type": "hello", "room": room, "last_version": client.version})
            reply = await client.expect_any(("snapshot", "error"))
            if reply["type"] == "error":
                assert reply["code"] == "match_finished", reply
                return False
        if self.pending is not None:
            actor, message = self.pending
            await actor.send(message)
            got = await answer(actor, message["id"])
            assert got is not None, "the restarted server did not answer the resent action"
            self.answered.add(message["id"])
            self.pending = None
            if got["type"] == "event":
                await settle(self.clients, got["v"] + (got["view"]["phase"] == "finished"))
        await next_deal(self.clients)  # between deals (also after the restart): "Weiter"
        return True


async def stored_state(db_url: str, match_id: int) -> dict[str, Any]:
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            deals = (
                await db.execute(
                    select(DealRow.id, DealRow.outcome).where(DealRow.match_id == match_id)
                )
            ).all()
            ids = [deal_id for deal_id, _ in deals]
            client_ids = (
                await db.execute(select(ActionRow.client_id).where(ActionRow.deal_id.in_(ids)))
            ).scalars()
            scores = (
                await db.execute(select(ScoreEntry.deal_id).where(ScoreEntry.match_id == match_id))
            ).scalars()
            match_status, room_id = (
                await db.execute(select(Match.status, Match.room_id).where(Match.id == match_id))
            ).one()
            room_status = (
                await db.execute(select(Room.status).where(Room.id == room_id))
            ).scalar_one()
            return {
                "outcomes": [outcome for _, outcome in deals],
                "client_ids": [json.loads(c or "null") for c in client_ids],
                "score_rows": list(scores),
                "match_status": match_status,
                "room_status": room_status,
            }
    finally:
        await engine.dispose()


def play_until_killed(
    loop: asyncio.AbstractEventLoop,
    db_url: str,
    log_path: Path,
    port: int,
    crash: str,
    *,
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Players, int, int]:
    """Serve the crashing app, start a match and play until the server kills itself at
    ``crash``; return the players (with the unanswered action), the room and the match."""
    monkeypatch.setenv("STAMMTISCH_TEST_CRASH", crash)
    with server_process(db_url, log_path, port=port, app="tests.crash_app:app") as (
        base,
        process,
    ):
        monkeypatch.delenv("STAMMTISCH_TEST_CRASH")

        async def until_the_crash() -> tuple[Players, int, int]:
            clients, room, _ = await make_room(base, GAME, NAMES)
            match_id = await start(clients[0], room)
            for client in clients:
                await client.connect(room)
            players = Players(clients, seed=seed)
            with pytest.raises(Crashed):
                await players.play()
            return players, room, match_id

        played = loop.run_until_complete(until_the_crash())
        assert process.wait(timeout=10) == -signal.SIGKILL
    assert played[0].pending is not None  # an action was sent and never answered
    return played


@pytest.mark.parametrize(
    "crash",
    [
        "action:1",  # the auction's first call
        "action:14",  # in the middle of the first deal's tricks
        "deal_end:1:before",  # the first deal's last card, not yet committed
        "deal_end:1:after",  # the first deal's last card committed, nobody told yet
        "deal_end:3:before",  # the last deal of the match, not yet committed
        "deal_end:3:after",  # the last deal of the match committed, nobody told yet
    ],
)
def test_a_kill_at_a_write_boundary_loses_nothing(
    crash: str, play_db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log_path = tmp_path / "server.log"
    port = free_port()
    loop = asyncio.new_event_loop()
    players, room, match_id = play_until_killed(
        loop, play_db_url, log_path, port, crash, seed=11, monkeypatch=monkeypatch
    )

    with server_process(play_db_url, log_path, port=port) as (base, _):

        async def after_the_restart() -> None:
            archived = players.clients[0].http.get(f"/api/history/matches/{match_id}")
            if await players.reconnect(base, room):
                await players.play()
                final = players.clients[0].snapshot
                assert final is not None and final["match"]["finished"]
                sheet = (await archived).json()["sheet"]
                assert sheet == final["match"]["sheet"]  # the money agrees
            else:  # the last deal's end was stored before the crash: the archive has it all
                assert crash == f"deal_end:{DEALS}:after"
                assert players.pending is not None
                players.answered.add(players.pending[1]["id"])
                sheet = (await archived).json()["sheet"]
                assert len(sheet["rows"]) == DEALS and sum(sheet["totals"].values()) == 0
            for client in players.clients:
                await client.aclose()

        loop.run_until_complete(after_the_restart())
    loop.close()

    stored = asyncio.run(stored_state(play_db_url, match_id))
    assert len(stored["outcomes"]) == DEALS and all(stored["outcomes"])
    rows = Counter(stored["score_rows"])  # one score row per player and deal, once
    assert len(rows) == DEALS and set(rows.values()) == {len(NAMES)}
    assert stored["match_status"] == "finished" and stored["room_status"] == "finished"
    assert len(stored["client_ids"]) == len(set(stored["client_ids"]))  # nothing twice
    assert set(stored["client_ids"]) == players.answered  # nothing lost
    if crash != f"deal_end:{DEALS}:after":  # else nothing was left running to recover
        assert "recovered" in log_path.read_text()


# ------------------------------------------------------------ a database locked at a deal's end


def last_card_next(client: Client) -> bool:
    view = client.view
    return bool(
        view
        and view["phase"] == "play"
        and len(view["hand"] or []) == 1
        and len(view["trick"]["cards"]) == len(view["seats"]) - 1
    )


def test_a_locked_database_at_a_deals_end_says_saving_and_stores_it(
    play_server: tuple[str, str],
) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        clients, room, _ = await make_room(base, GAME, NAMES)
        match_id = await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        players = Players(clients, seed=5)
        while not ((actor := players.actor()) and last_card_next(actor)):
            await players.play(until=1)
        assert actor.view is not None
        card = actor.view["legal_actions"][0]

        release = asyncio.Event()
        holding = asyncio.create_task(hold_write_lock(db_url, release))
        await asyncio.sleep(0.5)  # the lock is taken
        asyncio.get_running_loop().call_later(7, release.set)
        msg_id = "the-last-card"
        await actor.send({"type": "action", "action": card, "v": actor.version, "id": msg_id})
        got = await answer(actor, msg_id, timeout=60)
        await holding
        assert got is not None and got["type"] == "event"
        assert got["view"]["phase"] == "finished"
        await settle(clients, got["v"] + 1)
        await next_deal(clients)
        for client in clients:
            kinds = [m["type"] for m in client.messages]
            savings = [m for m in client.messages if m["type"] == "saving"]
            assert [m["active"] for m in savings] == [True, False], kinds
            assert not [m for m in client.messages if m["type"] == "error"]
            # told "saving" before the event, "saved" after it and the next deal's snapshot
            assert kinds.index("saving") < len(kinds) - 1 - kinds[::-1].index("event")
        stored = await stored_state(db_url, match_id)
        assert stored["outcomes"][0] is not None and len(stored["outcomes"]) == 2
        await players.play(until=3)  # and the table plays on
        for client in clients:
            await client.aclose()

    asyncio.run(scenario())


async def hold_write_lock(db_url: str, release: asyncio.Event) -> None:
    """Hold the database's write lock (SQLite) or a lock on the deals (PostgreSQL) until
    ``release`` is set: a backup, or an admin's open transaction."""
    path = sqlite_file(db_url)
    if path is not None:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            await release.wait()
        finally:
            other.execute("COMMIT")
            other.close()
        return
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            await db.execute(text("BEGIN"))
            await db.execute(text("LOCK TABLE deals IN EXCLUSIVE MODE"))
            await release.wait()
            await db.execute(text("COMMIT"))
    finally:
        await engine.dispose()


def test_recovery_completes_a_deal_stored_without_its_end(
    play_db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older version stored a deal's last action and its end in two transactions; a
    crash between them left a deal with all its actions but no outcome, scores or next
    deal. Recovery completes such a deal first, and the match goes on."""
    log_path = tmp_path / "server.log"
    port = free_port()
    loop = asyncio.new_event_loop()
    players, room, match_id = play_until_killed(
        loop, play_db_url, log_path, port, "deal_end:1:after", seed=3, monkeypatch=monkeypatch
    )
    assert players.pending is not None
    players.answered.add(players.pending[1]["id"])  # its action is stored
    players.pending = None

    async def as_an_older_version_left_it() -> None:
        engine = make_engine(play_db_url, poolclass=NullPool)
        try:
            async with engine.begin() as db:
                first = (
                    await db.execute(
                        select(DealRow.id).where(DealRow.match_id == match_id, DealRow.number == 1)
                    )
                ).scalar_one()
                await db.execute(delete(ScoreEntry).where(ScoreEntry.deal_id == first))
                await db.execute(
                    delete(DealRow).where(DealRow.match_id == match_id, DealRow.number == 2)
                )
                await db.execute(update(DealRow).where(DealRow.id == first).values(outcome=null()))
        finally:
            await engine.dispose()

    asyncio.run(as_an_older_version_left_it())
    with server_process(play_db_url, log_path, port=port) as (base, _):

        async def after_the_restart() -> None:
            assert await players.reconnect(base, room)
            assert players.clients[0].snapshot["match"]["deal_number"] == 2  # type: ignore[index]
            await players.play()
            final = players.clients[0].snapshot
            assert final is not None and final["match"]["finished"]
            archived = await players.clients[0].http.get(f"/api/history/matches/{match_id}")
            assert archived.json()["sheet"] == final["match"]["sheet"]
            for client in players.clients:
                await client.aclose()

        loop.run_until_complete(after_the_restart())
    loop.close()
    assert "whose end had not been stored" in log_path.read_text()
    stored = asyncio.run(stored_state(play_db_url, match_id))
    assert len(stored["outcomes"]) == DEALS and all(stored["outcomes"])
    assert len(Counter(stored["score_rows"])) == DEALS
    assert set(stored["client_ids"]) == players.answered
