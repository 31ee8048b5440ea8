"""The stand-in ("Vertretung") over real sockets: a real uvicorn server, real WebSocket
clients. A person's socket closes mid-deal: after the room's delay a computer player of
the room's stand-in level plays for him, each move marked (``standin`` in the event, the
stored client id ``standin:<level>:<seed>``, from which the decision is made again here);
he comes back, sees what was played for him, and his next own move gives him the seat
back. A timed-out turn is played by the stand-in, not the passive move; a restart while
the stand-in is to move resumes it; a person may ask for a stand-in himself."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.pool import NullPool

from server.store.db import make_engine
from server.store.models import ActionRow, DealRow, Match
from tests.support import server_process
from tests.table_client import Client, make_room, start
from tests.test_computer_players import check_decisions, logged, seat_computers
from tests.test_table_flow import set_room

pytestmark = pytest.mark.live_server


def check_standins(deals: list[dict[str, Any]]) -> int:
    """Every stand-in's stored move is what its level decides, with the stored seed, in the
    information set its seat had then; return how many were checked."""
    return check_decisions(deals, "standin:")


async def move(person: Client, rng: random.Random) -> dict[str, Any]:
    """The person makes a random legal move (healthy in the reservation); its event."""
    assert person.view is not None
    legal = [a for a in person.view["legal_actions"] if not a.startswith(("knock", "announce"))]
    text = "gesund" if "gesund" in legal else rng.choice(legal)
    msg_id = f"m{person.version}-{rng.random()}"
    await person.send({"type": "action", "action": text, "v": person.version, "id": msg_id})
    return await person.expect_ack(msg_id)


async def play_until(
    person: Client, rng: random.Random, done: Callable[[dict[str, Any]], bool], timeout: float = 60
) -> dict[str, Any]:
    """The person plays on her turns until a message satisfies ``done``; return it."""
    async with asyncio.timeout(timeout):
        while True:
            if person.my_turn():
                event = await move(person, rng)
                if done(event):
                    return event
                continue
            message = await person.next_message()
            if done(message):
                return message


async def two_people_two_computers(base: str, **room: Any) -> tuple[Client, Client, int]:
    (anna, bert), room_id, _ = await make_room(
        base, "doppelkopf", ["Anna", "Bert"], computer_pause_ms=[0, 0], **room
    )
    await seat_computers(anna, room_id, ["einsteiger", "einsteiger"])
    return anna, bert, room_id


def test_the_standin_plays_for_a_player_offline_and_he_gets_his_seat_back(
    play_server: tuple[str, str],
) -> None:
    base, db_url = play_server
    rng = random.Random(7)

    async def scenario() -> None:
        anna, bert, room = await two_people_two_computers(base, standin_delay_seconds=2)
        await start(anna, room)
        snapshot = await anna.connect(room)
        assert snapshot["match"]["standin"] == {"level": "einsteiger", "delay_seconds": 2}
        assert snapshot["standins"] == {"users": [], "asked": {}}
        await bert.connect(room)
        # Bert makes his first move himself, then his phone drops off mid-deal
        async with asyncio.timeout(60):
            while not bert.my_turn():
                if anna.my_turn():
                    await move(anna, rng)
                await asyncio.sleep(0.05)
        await move(bert, rng)
        bert_seat = bert.seat
        await bert.close_socket()
        # the stand-in plays for him after the delay, marked on the seat and the move
        marked = await play_until(anna, rng, lambda m: m["type"] == "standin"
                                  and bert.user_id in m["users"])  # fmt: skip
        assert marked["asked"] == {}
        event = await play_until(anna, rng, lambda m: m["type"] == "event"
                                 and m["seat"] == bert_seat)  # fmt: skip
        assert event["standin"] is True and event["auto"] is False
        await play_until(anna, rng, lambda m: m["type"] == "event" and m["seat"] == bert_seat)
        # Bert is back: he sees the seat marked and what was played for him
        snapshot = await bert.connect(room)
        assert bert.user_id in snapshot["standins"]["users"]
        played = snapshot["you"]["standin_moves"]
        assert len(played) >= 2 and all(m["seat"] == bert_seat for m in played)
        assert all(set(m) == {"deal", "index", "seat", "action"} for m in played)
        standin_indexes = [a["index"] for a in snapshot["standin_actions"]]
        assert [m["index"] for m in played if m["deal"] == 1] == standin_indexes
        # he is back: the stand-in no longer moves for him; his own move is accepted
        async with asyncio.timeout(60):
            while not bert.my_turn():
                if anna.my_turn():
                    await move(anna, rng)
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # a stand-in would have moved by now (pace 0)
        assert bert.my_turn()
        own = await move(bert, rng)
        assert "standin" not in own
        cleared = await bert.expect("standin")
        assert cleared["users"] == []
        deals = await logged(db_url)
        ids = [client_id or "" for _s, _t, client_id in deals[0]["actions"]]
        standins = [i for i, c in enumerate(ids) if c.startswith("standin:einsteiger:")]
        assert standins == [m["index"] for m in played]
        assert check_standins(deals) == len(standins)
        # the archive's replay of the deal marks the same moves (steps count from 1)
        page = await anna.http.get(f"/archive/deals/{await first_deal_id(db_url)}")
        assert page.status_code == 200
        embedded = re.search(r'<script type="application/json" id="standins">([^<]*)</script>',
                             page.text)  # fmt: skip
        assert embedded is not None
        assert json.loads(embedded.group(1)) == [index + 1 for index in standins]
        await anna.aclose()
        await bert.aclose()

    asyncio.run(scenario())


async def first_deal_id(db_url: str) -> int:
    """The id of the first stored deal."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            return int((await db.execute(select(func.min(DealRow.id)))).scalar_one())
    finally:
        await engine.dispose()


def test_a_timed_out_turn_is_played_by_the_standin_not_the_passive_move(
    play_server: tuple[str, str],
) -> None:
    base, db_url = play_server
    rng = random.Random(8)

    async def scenario() -> None:
        anna, bert, room = await two_people_two_computers(base)
        await set_room(db_url, room, timer_seconds=1)
        await start(anna, room)
        await anna.connect(room)
        await bert.connect(room)
        # Bert lets his time run out (Anna moves at once on hers)
        event = await play_until(anna, rng, lambda m: m["type"] == "event"
                                 and m["seat"] == bert.seat)  # fmt: skip
        assert event["standin"] is True and event["auto"] is False
        deals = await logged(db_url)
        stored = [c for _s, _t, c in deals[0]["actions"]]
        assert all(c != "auto" for c in stored)
        assert sum(1 for c in stored if (c or "").startswith("standin:einsteiger:")) >= 1
        assert check_standins(deals) >= 1
        await anna.aclose()
        await bert.aclose()

    asyncio.run(scenario())


def test_without_standin_a_timed_out_turn_is_the_passive_move(
    play_server: tuple[str, str],
) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        anna, bert, room = await two_people_two_computers(base, standin=False)
        await set_room(db_url, room, timer_seconds=1)
        await start(anna, room)
        snapshot = await anna.connect(room)
        assert snapshot["match"]["standin"] is None and snapshot["standins"] is None
        async with asyncio.timeout(20):  # nobody moves: the timer plays the passive move
            event = await anna.expect("event")
            while not event["auto"]:
                event = await anna.expect("event")
        assert "standin" not in event
        await anna.send({"type": "standin", "on": True, "id": "s"})
        error = await anna.expect("error")
        assert error["code"] == "standin_off" and error["id"] == "s"
        await anna.aclose()
        await bert.aclose()

    asyncio.run(scenario())


def test_a_player_asks_for_a_standin_and_ends_it(play_server: tuple[str, str]) -> None:
    base, db_url = play_server
    rng = random.Random(9)

    async def scenario() -> None:
        # four deals: the searching stand-in may throw a weak hand in (Schmeißen, an Armut
        # nobody takes), which ends a deal, and with it a match of one deal, at once
        anna, bert, room = await two_people_two_computers(base, standin_level="stark", rounds=4)
        await start(anna, room)
        await anna.connect(room)
        await bert.connect(room)
        for bad in ({"type": "standin"}, {"type": "standin", "on": "ja"},
                    {"type": "standin", "on": True, "minutes": 5}):  # fmt: skip
            await bert.send({**bad, "id": "bad"})
            error = await bert.expect("error")
            assert error["code"] == "bad_message", error
        await bert.send({"type": "standin", "on": True, "id": "vertretung"})
        told = await bert.expect("standin")
        assert told["id"] == "vertretung" and told["users"] == [bert.user_id]
        assert 299 <= told["asked"][str(bert.user_id)] <= 300
        # while he is online, the stand-in makes his moves
        event = await play_until(anna, rng, lambda m: m["type"] == "event"
                                 and m["seat"] == bert.seat, timeout=120)  # fmt: skip
        assert event["standin"] is True
        await bert.send({"type": "standin", "on": False, "id": "zurueck"})
        # the answer waits for the table's lock (a stand-in's move being stored) and for its
        # own write: a bound against a hang, generous for a loaded machine
        seen: list[str] = []
        try:
            async with asyncio.timeout(30):
                while True:
                    told = await bert.next_message()
                    seen.append(
                        f"{told['type']}:{told.get('id')}:{told.get('v')}:{told.get('code', '')}"
                    )
                    if told["type"] == "standin" and told.get("id") == "zurueck":
                        break
        except TimeoutError:
            raise AssertionError(f"no answer to switching off; Bert got {seen}") from None
        assert told["users"] == [] and told["asked"] == {}
        deals = await logged(db_url)
        assert any((c or "").startswith("standin:stark:") for _s, _t, c in deals[0]["actions"])
        assert check_standins(deals) >= 1
        await anna.aclose()
        await bert.aclose()

    asyncio.run(scenario())


def test_a_restart_while_the_standin_is_to_move_resumes_it(
    play_db_url: str, tmp_path: Path
) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"
    rng = random.Random(10)

    async def until_the_standin_is_to_move(base: str) -> tuple[Client, Client, int, int]:
        anna, bert, room = await two_people_two_computers(base, standin_delay_seconds=1)
        await set_room(db_url, room, computer_pause_min_ms=1500, computer_pause_max_ms=1500)
        await start(anna, room)
        await anna.connect(room)
        await bert.connect(room)
        seat = bert.seat
        await bert.close_socket()
        await play_until(anna, rng, lambda m: m["type"] == "standin"
                         and bert.user_id in m["users"])  # fmt: skip
        # until it is Bert's turn: the stand-in thinks for 1.5 s
        async with asyncio.timeout(60):
            while not (anna.view and anna.view["to_move"] == seat):
                if anna.my_turn():
                    await move(anna, rng)
                else:
                    await anna.next_message()
        return anna, bert, room, anna.version

    with server_process(db_url, log_path) as (base, process):
        loop = asyncio.new_event_loop()
        anna, bert, room, version = loop.run_until_complete(until_the_standin_is_to_move(base))
        os.kill(process.pid, signal.SIGKILL)  # within the stand-in's pause: a crash
        process.wait()
    stored = loop.run_until_complete(logged(db_url))
    assert sum(len(d["actions"]) for d in stored) == version

    async def resumed(base: str) -> None:
        await anna.close_socket()
        anna.move_to(base)
        snapshot = await anna.connect(room)
        seat = snapshot["turn"]["seat"]
        assert snapshot["v"] == version and seat != anna.seat
        # Bert is still away: after the delay the stand-in moves for him, marked
        event = await anna.expect("event", timeout=20)
        assert event["v"] == version + 1 and event["seat"] == seat
        assert event["standin"] is True
        deals = await logged(db_url)
        assert deals[-1]["actions"][-1][2].startswith("standin:einsteiger:")
        assert check_standins(deals) >= 1
        await anna.aclose()
        await bert.aclose()

    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(resumed(base))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    assert "recovered" in log_path.read_text()


async def match_status(db_url: str, room: int) -> tuple[str, list[tuple[bool, int]]]:
    """The status of the room's match and, for each of its stored deals, whether it is
    finished and how many actions it has."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            match_id, status = (
                await db.execute(select(Match.id, Match.status).where(Match.room_id == room))
            ).one()
            rows = (
                await db.execute(
                    select(DealRow.outcome.is_not(None), func.count(ActionRow.seq))
                    .outerjoin(ActionRow, ActionRow.deal_id == DealRow.id)
                    .where(DealRow.match_id == match_id)
                    .group_by(DealRow.id)
                    .order_by(DealRow.id)
                )
            ).all()
            return str(status), [(bool(done), int(n)) for done, n in rows]
    finally:
        await engine.dispose()


def test_a_table_whose_people_all_left_for_good_ends_after_the_deal(
    play_server: tuple[str, str],
) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        # Anna practises with two computer players and closes her browser: after the delay
        # (1 s) the stand-in plays for her, the table plays on; ten delays after she left
        # the match ends by itself, after the deal in play (her stand-in is the searching
        # level, so that a deal takes about a second even without pauses)
        (anna,), room, _ = await make_room(
            base, "tarock-zu-dritt", ["Anna"], computer_pause_ms=[0, 0],
            standin_delay_seconds=1, standin_level="stark", rounds=50,
        )  # fmt: skip
        await seat_computers(anna, room, ["einsteiger"] * 2)
        await start(anna, room)
        await anna.connect(room)
        left = asyncio.get_running_loop().time()
        await anna.close_socket()
        async with asyncio.timeout(90):
            status, deals = await match_status(db_url, room)
            while status == "running":
                await asyncio.sleep(0.25)
                status, deals = await match_status(db_url, room)
        gone_for = asyncio.get_running_loop().time() - left
        assert status == "ended", (status, len(deals))
        assert gone_for >= 10  # not before she had left for good
        # the stand-in played on for her until then, each deal to its end, not to the end
        # of the match (50 rounds of three deals); the next deal had not begun
        assert 2 <= len(deals) < 150
        assert all(done for done, _ in deals[:-1])
        assert deals[-1] == (False, 0)
        snapshot = await anna.connect(room)
        assert snapshot["match"]["finished"] is True and snapshot["match"]["ended_early"] is True
        assert snapshot["standins"] is None or anna.user_id not in snapshot["standins"]["asked"]
        await anna.aclose()

    asyncio.run(scenario())


async def asked_stored(db_url: str, room: int) -> dict[str, str]:
    """The stand-ins people of the room's match asked for, as stored."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            value = (
                await db.execute(select(Match.standin_asked).where(Match.room_id == room))
            ).scalar_one()
            return dict(value or {})
    finally:
        await engine.dispose()


def test_a_standin_asked_for_outlives_a_restart_and_its_end_too(
    play_db_url: str, tmp_path: Path
) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"
    rng = random.Random(11)
    loop = asyncio.new_event_loop()

    async def ask(base: str) -> tuple[Client, Client, int]:
        anna, bert, room = await two_people_two_computers(base)
        await start(anna, room)
        await anna.connect(room)
        await bert.connect(room)
        await bert.send({"type": "standin", "on": True, "id": "vertretung"})
        assert (await bert.expect("standin"))["id"] == "vertretung"
        assert list(await asked_stored(db_url, room)) == [str(bert.user_id)]
        return anna, bert, room

    with server_process(db_url, log_path) as (base, process):
        anna, bert, room = loop.run_until_complete(ask(base))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()

    async def still_asked(base: str) -> None:
        for person in (anna, bert):
            await person.close_socket()
            person.move_to(base)
        await anna.connect(room)
        snapshot = await bert.connect(room)
        # the time he asked for goes on where it was (the restart took a few seconds)
        assert snapshot["standins"]["users"] == [bert.user_id]
        assert 270 <= snapshot["standins"]["asked"][str(bert.user_id)] < 300
        # online, he is still stood in for: the stand-in makes his next move
        event = await play_until(anna, rng, lambda m: m["type"] == "event"
                                 and m["seat"] == bert.seat, timeout=120)  # fmt: skip
        assert event["standin"] is True
        await bert.send({"type": "standin", "on": False, "id": "zurueck"})
        async with asyncio.timeout(10):
            while (await bert.expect("standin")).get("id") != "zurueck":
                pass
        assert await asked_stored(db_url, room) == {}

    with server_process(db_url, log_path) as (base, process):
        loop.run_until_complete(still_asked(base))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()

    async def over(base: str) -> None:
        await bert.close_socket()
        bert.move_to(base)
        snapshot = await bert.connect(room)
        assert snapshot["standins"] == {"users": [], "asked": {}}
        await anna.aclose()
        await bert.aclose()

    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(over(base))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
