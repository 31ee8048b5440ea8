"""Correspondence play ("Fernpartie") over real sockets with a fake wall clock: a real
server process whose clock a file moves ahead (``STAMMTISCH_CLOCK_FILE``), looking for due
deadlines five times a second. The stored turn and its deadline, the stand-in (or the
passive move) at the deadline, a restart in between, a holiday and a pause by agreement
that move the deadline, and no "away" behaviour of the stand-in."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.pool import NullPool

from server.store import log
from server.store.db import make_engine
from server.store.models import ActionRow, DealRow, Turn
from server.store.turns import aware
from tests.support import server_process
from tests.table_client import Client, make_room, start, step

pytestmark = pytest.mark.live_server

NAMES = ["Anna", "Bernd", "Catrin"]
DAY = 86400


@contextmanager
def fernserver(db_url: str, tmp_path: Path) -> Iterator[tuple[str, Any, Path]]:
    """A server with the fake clock (file ``clock`` in ``tmp_path``) and a quick poll."""
    clock = tmp_path / "clock"
    if not clock.exists():
        clock.write_text("0")
    env = {"STAMMTISCH_CLOCK_FILE": str(clock), "STAMMTISCH_DEADLINE_POLL_SECONDS": "0.2"}
    with server_process(db_url, tmp_path / "server.log", env=env) as (base, process):
        yield base, process, clock


def advance(clock: Path, seconds: float) -> None:
    """Move the server's clock ahead to ``seconds`` past the machine's."""
    clock.write_text(str(seconds))


def server_now(clock: Path) -> datetime:
    """The server's wall clock as the file sets it."""
    return datetime.fromtimestamp(time.time() + float(clock.read_text()), UTC)


async def stored_turn(db_url: str) -> Turn | None:
    """The one match's stored turn."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            row = (await db.execute(select(Turn))).first()
            return None if row is None else Turn(**row._mapping)
    finally:
        await engine.dispose()


async def turn_at(db_url: str, version: int, timeout: float = 10) -> Turn:
    """The stored turn once it is the one that began at ``version`` (it is written just
    after the action's event)."""
    async with asyncio.timeout(timeout):
        while True:
            turn = await stored_turn(db_url)
            if turn is not None and turn.version == version:
                return turn
            await asyncio.sleep(0.05)


async def last_client_id(db_url: str) -> tuple[int, str | None]:
    """The number of stored actions and the client id of the last one."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            rows = (
                await db.execute(
                    select(ActionRow.client_id)
                    .join(DealRow, DealRow.id == ActionRow.deal_id)
                    .order_by(DealRow.number, ActionRow.seq)
                )
            ).all()
            return len(rows), rows[-1][0] if rows else None
    finally:
        await engine.dispose()


async def fern_room(base: str, **room: Any) -> tuple[list[Client], int]:
    """Three people in a correspondence room (one day per move), its match started and
    everybody at the table; a few moves made."""
    clients, room_id, _ = await make_room(
        base, "dreierles", NAMES, tempo_seconds=DAY, computer_pause_ms=[0, 0], **room
    )
    await start(clients[0], room_id)
    for client in clients:
        snapshot = await client.connect(room_id)
        assert snapshot["match"]["tempo_seconds"] == DAY
        assert snapshot["match"]["timer_seconds"] is None
    rng = random.Random(16)
    for _ in range(2):
        await step(clients, rng)
    return clients, room_id


def mover(clients: list[Client]) -> Client:
    """The client whose turn it is."""
    return next(c for c in clients if c.my_turn())


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize("standin", [True, False], ids=["standin", "passive"])
def test_the_deadline_survives_a_restart_and_the_table_moves_at_it(
    play_db_url: str, tmp_path: Path, standin: bool
) -> None:
    db_url = play_db_url
    loop = asyncio.new_event_loop()

    async def before(base: str) -> tuple[list[Client], int, Turn]:
        clients, room = await fern_room(base, standin=standin, standin_delay_seconds=1)
        person = mover(clients)
        turn = await turn_at(db_url, person.version)
        assert turn.user_id == person.user_id and turn.seat == person.view["seat"]  # type: ignore[index]
        since, deadline = aware(turn.since), aware(turn.deadline)  # type: ignore[arg-type]
        assert deadline - since == timedelta(days=1)
        assert turn.reminded == 0  # (``notified``: the notifier's, which may have run)
        # the table says the deadline; every socket of the person to move closes, for
        # longer than the stand-in's offline delay: nobody plays for him before it
        snapshot = await clients[0].connect(room)
        assert snapshot["turn"]["deadline"] == iso(deadline)
        assert snapshot["turn"]["ends_in"] is None
        count, _ = await last_client_id(db_url)
        for client in clients:
            await client.close_socket()
        await asyncio.sleep(2.5)
        assert (await last_client_id(db_url))[0] == count
        assert snapshot["standins"] in ({"users": [], "asked": {}}, None)
        return clients, room, turn

    async def after(clients: list[Client], room: int, turn: Turn, base: str, clock: Path) -> None:
        # after the restart: the same turn, since and deadline
        kept = await stored_turn(db_url)
        assert kept is not None
        assert (kept.version, kept.user_id, aware(kept.since), aware(kept.deadline)) == (  # type: ignore[arg-type]
            turn.version, turn.user_id, aware(turn.since), aware(turn.deadline)  # type: ignore[arg-type]
        )  # fmt: skip
        watcher = next(c for c in clients if c.user_id != turn.user_id)
        snapshot = await watcher.connect(room, base)
        assert snapshot["turn"]["seat"] == turn.seat
        assert snapshot["turn"]["deadline"] == iso(aware(turn.deadline))  # type: ignore[arg-type]
        count, _ = await last_client_id(db_url)
        advance(clock, DAY - 3600)  # an hour before the deadline: nothing
        await asyncio.sleep(1.0)
        assert (await last_client_id(db_url))[0] == count
        advance(clock, DAY + 60)  # past it
        async with asyncio.timeout(20):
            while True:
                event = await watcher.expect("event")
                if event["seat"] == turn.seat:
                    break
        assert event["v"] == turn.version + 1
        assert event.get("standin", False) is standin and event["auto"] is not standin
        total, client_id = await last_client_id(db_url)
        assert total == count + 1
        if standin:
            assert client_id is not None and client_id.startswith(log.STANDIN_ACTION)
        else:
            assert client_id == log.AUTO_ACTION
        # the next turn has a fresh deadline, a day from when it began
        nxt = await turn_at(db_url, event["v"])
        assert aware(nxt.deadline) - aware(nxt.since) == timedelta(days=1)  # type: ignore[arg-type]
        assert aware(nxt.since) >= aware(turn.deadline)  # type: ignore[arg-type]

    with fernserver(db_url, tmp_path) as (base, process, _clock):
        clients, room, turn = loop.run_until_complete(before(base))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    with fernserver(db_url, tmp_path) as (base, _process, clock):
        loop.run_until_complete(after(clients, room, turn, base, clock))
    for client in clients:
        loop.run_until_complete(client.aclose())
    loop.close()


def test_a_pause_by_agreement_moves_the_deadline_on(migrated_db_url: str, tmp_path: Path) -> None:
    db_url = migrated_db_url

    async def run(base: str, clock: Path) -> None:
        clients, _room = await fern_room(base)
        person = mover(clients)
        turn = await turn_at(db_url, person.version)
        deadline = aware(turn.deadline)  # type: ignore[arg-type]
        for client in clients:
            await client.send({"type": "pause", "pause": True})
        snapshot = await clients[0].expect("snapshot")
        assert snapshot["pause"]["paused"] is True and snapshot["turn"]["deadline"] is None
        paused_at = server_now(clock)
        advance(clock, 3 * DAY)  # paused past the deadline: nobody moves
        await asyncio.sleep(1.0)
        assert (await stored_turn(db_url)).version == turn.version  # type: ignore[union-attr]
        for client in clients:
            await client.send({"type": "pause", "pause": False})
        snapshot = await clients[0].expect("snapshot")
        resumed_at = server_now(clock)
        moved = aware((await stored_turn(db_url)).deadline)  # type: ignore[union-attr,arg-type]
        # moved on by the time it was paused (as the server measured it, between the two)
        assert 3 * DAY - 5 <= (moved - deadline).total_seconds() <= 3 * DAY + 5
        assert paused_at <= resumed_at
        assert snapshot["turn"]["deadline"] == iso(moved)
        for client in clients:
            await client.aclose()

    with fernserver(db_url, tmp_path) as (base, _process, clock):
        asyncio.run(run(base, clock))


def test_a_holiday_moves_the_deadline_of_the_person_to_move(
    migrated_db_url: str, tmp_path: Path
) -> None:
    db_url = migrated_db_url

    async def run(base: str, clock: Path) -> None:
        clients, room = await fern_room(base)
        person = mover(clients)
        turn = await turn_at(db_url, person.version)
        since, deadline = aware(turn.since), aware(turn.deadline)  # type: ignore[arg-type]
        # a holiday from tomorrow (UTC) for two days: the turn runs when it begins, so
        # the deadline moves by the whole holiday
        tomorrow = since.date() + timedelta(days=1)
        answer = await person.http.post(
            f"/api/rooms/{room}/holidays", json={"start": tomorrow.isoformat(), "days": 2}
        )
        assert answer.status_code == 201, answer.text
        holiday = answer.json()
        assert holiday["days"] == 2 and holiday["user_id"] == person.user_id
        start_at = datetime.combine(tomorrow, datetime.min.time(), UTC)
        assert holiday["starts_at"] == iso(start_at)
        told = await clients[0].expect("snapshot")
        moved = aware((await stored_turn(db_url)).deadline)  # type: ignore[union-attr,arg-type]
        assert moved == deadline + timedelta(days=2)
        assert told["turn"]["deadline"] == iso(moved)
        # taken back (it has not begun): the deadline is what it was
        gone = await person.http.delete(f"/api/rooms/{room}/holidays/{holiday['id']}")
        assert gone.status_code == 204, gone.text
        await clients[0].expect("snapshot")
        back = aware((await stored_turn(db_url)).deadline)  # type: ignore[union-attr,arg-type]
        assert back == deadline
        # another player's holiday does not touch it
        other = next(c for c in clients if c is not person)
        today = server_now(clock).date().isoformat()
        answer = await other.http.post(
            f"/api/rooms/{room}/holidays", json={"start": today, "days": 1}
        )
        assert answer.status_code == 201, answer.text
        assert aware((await stored_turn(db_url)).deadline) == deadline  # type: ignore[union-attr,arg-type]
        for client in clients:
            await client.aclose()

    with fernserver(db_url, tmp_path) as (base, _process, clock):
        asyncio.run(run(base, clock))


def test_between_deals_nobody_is_waited_for(migrated_db_url: str, tmp_path: Path) -> None:
    db_url = migrated_db_url

    async def run(base: str) -> None:
        clients, _room = await fern_room(base, rounds=1)
        rng = random.Random(3)
        async with asyncio.timeout(120):
            while clients[0].view is not None and clients[0].snapshot is not None:
                if clients[0].snapshot["match"]["deal_number"] >= 2:
                    break
                assert await step(clients, rng)
        ends = [m for m in clients[0].messages if m["type"] == "deal_end"]
        assert ends and all(m["waiting"] == [] for m in ends)
        assert not any(m["type"] == "next" for m in clients[0].messages)
        person = mover(clients)
        turn = await turn_at(db_url, person.version)
        assert turn.user_id == person.user_id
        assert aware(turn.deadline) - aware(turn.since) == timedelta(days=1)  # type: ignore[arg-type]
        for client in clients:
            await client.aclose()

    with fernserver(db_url, tmp_path) as (base, _process, _clock):
        asyncio.run(run(base))


def test_a_live_match_stores_its_turns_without_deadline(
    migrated_db_url: str, tmp_path: Path
) -> None:
    db_url = migrated_db_url

    async def run(base: str, clock: Path) -> None:
        clients, room, _ = await make_room(base, "dreierles", NAMES)
        await start(clients[0], room)
        for client in clients:
            snapshot = await client.connect(room)
            assert snapshot["match"]["tempo_seconds"] is None
            assert "deadline" not in snapshot["turn"]
        rng = random.Random(5)
        for _ in range(3):
            await step(clients, rng)
            person = mover(clients)
            turn = await turn_at(db_url, person.version)
            assert (turn.user_id, turn.seat) == (person.user_id, person.view["seat"])  # type: ignore[index]
            assert turn.deadline is None
            assert abs((aware(turn.since) - server_now(clock)).total_seconds()) < 60
        # no deadline: however far the clock runs, the table waits
        advance(clock, 30 * DAY)
        count, _ = await last_client_id(db_url)
        await asyncio.sleep(1.0)
        assert (await last_client_id(db_url))[0] == count
        for client in clients:
            await client.aclose()

    with fernserver(db_url, tmp_path) as (base, _process, clock):
        asyncio.run(run(base, clock))
