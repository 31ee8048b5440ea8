"""Computer players at the table over real sockets: a real uvicorn server, real WebSocket
clients. The computer players' moves go through the same path as a person's (checked,
stored, published), each stored with its level and seed, from which the decision is made
again here; a restart during a computer player's turn resumes it."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.pool import NullPool

from server.bots import choose
from server.bots.info import info_for
from server.engine.record import load_record
from server.engine.registry import GAMES, get_rules
from server.store.db import make_engine
from server.store.models import ActionRow, DealRow
from tests.support import server_process
from tests.table_client import Client, make_room, start

pytestmark = pytest.mark.live_server


async def logged(db_url: str) -> list[dict[str, Any]]:
    """Every stored deal: its record and its actions with their stored client ids."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            deals = (
                await db.execute(select(DealRow.id, DealRow.record).order_by(DealRow.id))
            ).all()
            result = []
            for deal_id, record in deals:
                rows = (
                    await db.execute(
                        select(ActionRow.seat, ActionRow.text, ActionRow.client_id)
                        .where(ActionRow.deal_id == deal_id)
                        .order_by(ActionRow.seq)
                    )
                ).all()
                result.append({"record": record, "actions": [tuple(r) for r in rows]})
            return result
    finally:
        await engine.dispose()


async def seat_computers(host: Client, room: int, levels: list[str]) -> None:
    for level in levels:
        response = await host.http.post(f"/api/rooms/{room}/computers", json={"level": level})
        assert response.status_code == 201, response.text


async def play_until_deal_end(person: Client, rng: random.Random, timeout: float = 180) -> int:
    """The person makes random legal moves on its turns (the computer players make theirs)
    until the deal ends; return how many moves the person made."""
    made = 0
    async with asyncio.timeout(timeout):
        while person.between is None and not (
            person.snapshot and person.snapshot["match"]["finished"]
        ):
            if person.my_turn():
                assert person.view is not None
                legal = [a for a in person.view["legal_actions"]
                         if not a.startswith(("knock", "announce"))]  # fmt: skip
                text = "gesund" if "gesund" in legal else rng.choice(legal)
                msg_id = f"m{person.version}"
                await person.send(
                    {"type": "action", "action": text, "v": person.version, "id": msg_id}
                )
                await person.expect_ack(msg_id)
                made += 1
            else:
                await person.next_message()
    return made


def check_decisions(deals: list[dict[str, Any]], tag: str = "computer:") -> int:
    """Every stored move whose client id starts with ``tag`` (a computer player's, or a
    stand-in's with ``"standin:"``) is what its level decides, with the stored seed, in
    the information set its seat had then; return how many were checked."""
    checked = 0
    for deal in deals:
        for index, (seat, text, client_id) in enumerate(deal["actions"]):
            if not (client_id or "").startswith(tag):
                continue
            _, level, seed = client_id.split(":")
            before = load_record(
                {**deal["record"], "actions": [[s, t] for s, t, _ in deal["actions"][:index]]}
            )
            assert choose(info_for(before, seat), level, int(seed)) == text, (index, client_id)
            checked += 1
    return checked


def test_a_person_and_three_computer_players_play_a_deal(play_server: tuple[str, str]) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        # without Schmeißen: the searching player throws five Neunen or Könige in, and this
        # deal is to be played out
        (anna,), room, _ = await make_room(
            base, "doppelkopf", ["Anna"], computer_pause_ms=[0, 0], rounds=2,
            options={"schmeissen": "aus"},
        )  # fmt: skip
        await seat_computers(anna, room, ["einsteiger", "stark", "einsteiger"])
        await start(anna, room)
        snapshot = await anna.connect(room)
        match = snapshot["match"]
        assert match["players"] == ["Anna", "Computer 1", "Computer 2", "Computer 3"]
        assert match["computers"] == [None, "einsteiger", "stark", "einsteiger"]
        assert match["player_ids"][0] == anna.user_id and all(
            i < 0 for i in match["player_ids"][1:]
        )
        made = await play_until_deal_end(anna, random.Random(3))
        # the table waits for Anna only: the computer players are never waited for
        assert anna.between is not None and anna.between["waiting"] == [anna.user_id]
        deals = await logged(db_url)
        first = deals[0]["actions"]
        assert sum(1 for _seat, text, _id in first if text.startswith("play ")) == 48
        computers = [(seat, text) for seat, text, client_id in first
                     if (client_id or "").startswith("computer:")]  # fmt: skip
        # hers: the reservation and twelve cards (and her part of an Armut, if one is played)
        hers = [(seat, text) for seat, text, client_id in first
                if not (client_id or "").startswith("computer:")]  # fmt: skip
        assert len({seat for seat, _text in hers}) == 1 and hers[0][1] == "gesund"
        assert sum(1 for _seat, text in hers if text.startswith("play ")) == 12
        assert len(hers) == made
        assert len(computers) == len(first) - made  # every other move is a computer's
        assert check_decisions(deals[:1]) == len(computers)
        # Anna's "Weiter": the next deal is shown
        await anna.send({"type": "next", "id": "weiter"})
        async with asyncio.timeout(10):
            while anna.between is not None:
                await anna.next_message()
        await anna.aclose()

    asyncio.run(scenario())


def test_a_restart_during_a_computer_players_turn_resumes_it(
    play_db_url: str, tmp_path: Path
) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"

    async def until_a_computer_is_to_move(base: str) -> tuple[Client, int, int]:
        (anna,), room, _ = await make_room(
            base, "doppelkopf", ["Anna"], computer_pause_ms=[1500, 1500]
        )
        await seat_computers(anna, room, ["einsteiger"] * 3)
        await start(anna, room)
        await anna.connect(room)
        async with asyncio.timeout(30):
            while not anna.my_turn():
                await anna.next_message()
        await anna.send({"type": "action", "action": "gesund", "v": anna.version, "id": "g"})
        event = await anna.expect_ack("g")
        assert event["turn"]["seat"] != anna.seat  # a computer player is to move now
        return anna, room, event["v"]

    with server_process(db_url, log_path) as (base, process):
        loop = asyncio.new_event_loop()
        anna, room, version = loop.run_until_complete(until_a_computer_is_to_move(base))
        os.kill(process.pid, signal.SIGKILL)  # within the computer player's pause: a crash
        process.wait()
    stored = loop.run_until_complete(logged(db_url))
    assert sum(len(d["actions"]) for d in stored) == version

    async def resumed(base: str) -> None:
        await anna.close_socket()
        anna.move_to(base)
        snapshot = await anna.connect(room)
        seat = snapshot["turn"]["seat"]
        assert snapshot["v"] == version and seat != anna.seat
        event = await anna.expect("event", timeout=20)  # the computer player moves
        assert event["v"] == version + 1 and event["seat"] == seat
        deals = await logged(db_url)
        assert deals[-1]["actions"][-1][2].startswith("computer:einsteiger:")
        assert check_decisions(deals) >= 1
        await anna.aclose()

    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(resumed(base))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    assert "recovered" in log_path.read_text()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_einsteiger_decides_within_5_ms(game: str) -> None:
    """The rule-based level decides on the event loop: it must take far below 5 ms."""
    if not GAMES[game].implemented:
        pytest.skip("not playable")
    rng = random.Random(11)
    rules = get_rules(game)
    times = []
    for _ in range(12):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while not deal.finished:
            seat = deal.to_move
            assert seat is not None
            info = info_for(deal, seat)
            began = time.perf_counter()
            text = choose(info, "einsteiger", rng.getrandbits(32))
            times.append(time.perf_counter() - began)
            deal.act(seat, text)
    times = times[20:]  # the first calls import the game's player
    p95 = statistics.quantiles(times, n=20)[-1]
    assert p95 < 0.005, f"{game}: p95 {p95 * 1000:.2f} ms over {len(times)} decisions"


def test_the_strong_level_thinks_off_the_event_loop() -> None:
    """``stark`` decides in a worker process: the loop keeps running meanwhile, and the
    decision is the one ``choose`` makes with the same information set and seed."""
    from server.tables.computers import Thinker

    rules = get_rules("doppelkopf")
    rng = random.Random(5)
    deal = rules.new_deal(rules.shuffle_and_deal(rng))
    while not (deal.view(0).get("phase") == "play" and deal.to_move is not None):
        seat = deal.to_move
        assert seat is not None
        deal.act(seat, "gesund" if "gesund" in deal.view(seat)["legal_actions"] else
                 deal.view(seat)["legal_actions"][0])  # fmt: skip
    seat = deal.to_move
    infos = [info_for(deal, seat)]
    thinker = Thinker(1)

    async def scenario() -> tuple[list[str], int]:
        ticks = 0
        done = False

        async def tick() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0.001)

        ticker = asyncio.create_task(tick())
        answers = [await thinker.decide(info, "stark", 17) for info in infos]
        done = True
        await ticker
        return answers, ticks

    try:
        answers, ticks = asyncio.run(scenario())
    finally:
        thinker.close()
    assert answers == [choose(infos[0], "stark", 17)]
    assert ticks > 10  # the loop went on while the worker started and thought


def test_the_searching_players_think_below_the_servers_priority() -> None:
    """The pool's workers run :data:`WORKER_NICE` lower than the process that starts them,
    so that a busy machine serves the tables of people first."""
    import os

    from server.tables.computers import WORKER_NICE, Thinker

    thinker = Thinker(1)

    async def worker_niceness() -> int:
        loop = asyncio.get_running_loop()
        return int(await loop.run_in_executor(thinker._executor(), os.nice, 0))

    try:
        niceness = asyncio.run(worker_niceness())
    finally:
        thinker.close()
    assert niceness == min(19, os.nice(0) + WORKER_NICE)


def test_computer_players_wait_while_the_table_is_paused(live_server: str) -> None:
    """The one person decides on a pause alone (computer players have no say); while the
    table is paused no computer player moves; once it goes on, they do."""

    async def scenario() -> None:
        (anna,), room, _ = await make_room(live_server, "doppelkopf", ["Anna"],
                                           computer_pause_ms=[400, 400])  # fmt: skip
        await seat_computers(anna, room, ["einsteiger"] * 3)
        await start(anna, room)
        await anna.connect(room)
        async with asyncio.timeout(30):
            while not anna.my_turn():
                await anna.next_message()
        await anna.send({"type": "action", "action": "gesund", "v": anna.version, "id": "g"})
        await anna.expect_ack("g")  # a computer player is to move, after its pause
        await anna.send({"type": "pause", "pause": True, "id": "p"})
        paused = await anna.expect("snapshot")
        assert paused["pause"]["paused"] is True
        version = anna.version
        await asyncio.sleep(1.2)  # three times the computer player's pause
        assert anna.version == version
        assert not [m for m in anna.messages if m["type"] == "event" and m["v"] > version]
        await anna.send({"type": "pause", "pause": False, "id": "q"})
        going = await anna.expect("snapshot")
        assert going["pause"]["paused"] is False
        event = await anna.expect("event", timeout=10)
        assert event["v"] == version + 1 and event["seat"] != anna.seat
        await anna.aclose()

    asyncio.run(scenario())


def test_a_revanche_with_computer_players_needs_the_people_only(live_server: str) -> None:
    async def scenario() -> None:
        (anna,), room, _ = await make_room(live_server, "doppelkopf", ["Anna"],
                                           computer_pause_ms=[0, 0], rounds=1)  # fmt: skip
        await seat_computers(anna, room, ["einsteiger"] * 3)
        first = await start(anna, room)
        await anna.connect(room)
        await play_until_deal_end(anna, random.Random(8))
        assert anna.snapshot is not None and anna.snapshot["match"]["finished"]
        answer = await anna.http.post(f"/api/rooms/{room}/rematch")
        assert answer.status_code == 200, answer.text
        second = answer.json()["match_id"]
        assert second is not None and second != first  # she alone had to accept
        new = await anna.expect("new_match")
        assert new["match_id"] == second
        await anna.aclose()

    asyncio.run(scenario())


def test_the_pool_has_the_cores_less_one() -> None:
    from server.tables.computers import Thinker, default_processes

    assert default_processes() == max(1, (os.cpu_count() or 2) - 1)
    assert Thinker().processes == default_processes() and Thinker(3).processes == 3
