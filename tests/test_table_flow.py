"""The table's flow over real sockets: the turn timer on screen and without anybody at the
table, the pause between deals ("Weiter"), and forced deals announced (docs/protocol.md).

Timers are real and short: a room's timer is set to 1 or 2 seconds straight in the
database before the match starts (the room form allows 10 to 600), and every wait is for
a message or a stored row, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.pool import NullPool

from server.engine.games.doppelkopf.evening import DoppelkopfEvening
from server.engine.registry import get_rules
from server.store import log
from server.store.db import make_engine
from server.store.models import ActionRow, DealRow, Room
from server.tables.matches import LiveMatch
from server.tables.table import auto_seen
from tests.engine.doppelkopf_deals import SEATS, play
from tests.engine.test_doppelkopf_evening import D_DEALT, finish, solo_deal
from tests.support import server_process
from tests.table_client import Client, make_room, next_deal, settle, start, step
from tests.test_tables import check_messages, join_as_spectator, run, stored_deals

# ---------------------------------------------------------------- helpers


async def set_room(db_url: str, room: int, **values: Any) -> None:
    """Change a room's row straight in the database (before its match starts)."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.begin() as db:
            await db.execute(update(Room).where(Room.id == room).values(**values))
    finally:
        await engine.dispose()


async def stored_actions(db_url: str) -> list[tuple[int, int, str | None]]:
    """Every stored action as (deal number, seq, client id), in order."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            rows = await db.execute(
                select(DealRow.number, ActionRow.seq, ActionRow.client_id)
                .join(DealRow, DealRow.id == ActionRow.deal_id)
                .order_by(DealRow.number, ActionRow.seq)
            )
            return [(number, seq, client_id) for number, seq, client_id in rows.all()]
    finally:
        await engine.dispose()


async def until_stored(db_url: str, count: int, timeout: float = 30) -> list[Any]:
    """Wait until at least ``count`` actions are stored; return them."""
    async with asyncio.timeout(timeout):
        while len(actions := await stored_actions(db_url)) < count:
            await asyncio.sleep(0.05)
    return actions


async def play_deal(clients: list[Client], rng: random.Random) -> dict[str, Any]:
    """Random legal actions until the current deal is finished; return its last event."""
    while True:
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        legal = actor.view["legal_actions"]
        text = rng.choice([a for a in legal if not a.startswith("knock")] or legal)
        msg_id = f"{actor.name}-{actor.version}"
        await actor.send({"type": "action", "action": text, "v": actor.version, "id": msg_id})
        event = await actor.expect_ack(msg_id)
        await settle(clients, event["v"])
        if event["view"]["phase"] == "finished":
            return event


async def error_of(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; return the error it is answered with (the connection stays)."""
    await client.send(message)
    error = await client.expect("error")
    await client.send({"type": "ping", "id": "still-there"})
    assert (await client.expect("pong"))["id"] == "still-there"
    return error


# ---------------------------------------------------------------- turn timer


def test_the_timer_plays_with_nobody_at_the_table_and_after_a_restart(
    play_db_url: str, tmp_path: Path
) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"

    async def unattended(base: str) -> tuple[list[Client], int]:
        clients, room, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"])
        await set_room(db_url, room, timer_seconds=1, standin=False)
        await start(clients[0], room)
        actions = await until_stored(db_url, 2)  # nobody has the table open
        assert all(client_id == log.AUTO_ACTION for _, _, client_id in actions)
        return clients, room

    async def after_restart(clients: list[Client], room: int, base: str) -> None:
        before = len(await stored_actions(db_url))
        actions = await until_stored(db_url, before + 1)  # still nobody at the table
        assert all(client_id == log.AUTO_ACTION for _, _, client_id in actions)
        anna = clients[0]
        anna.move_to(base)
        snapshot = await anna.connect(room)
        view, turn = snapshot["view"], snapshot["turn"]
        if snapshot["between_deals"] is None:
            assert turn["seat"] == view["to_move"] and 0 <= turn["ends_in"] <= 1
            played = len(view["history"]) if "history" in view else None
            auto = snapshot["auto_actions"]
            indexes = [entry["index"] for entry in auto]
            assert len(auto) >= 1 and indexes == list(range(len(auto)))
            assert all(set(entry) == {"index", "seat", "action"} for entry in auto)
            if played is not None:
                assert indexes == list(range(played))
        event = await anna.expect("event", timeout=10)  # the timer goes on while she looks
        assert event["auto"] is True
        assert set(event["turn"]) == {"seat", "ends_in"}
        for client in clients:
            await client.aclose()

    with server_process(db_url, log_path) as (base, process):
        loop = asyncio.new_event_loop()
        clients, room = loop.run_until_complete(unattended(base))
        os.kill(process.pid, signal.SIGKILL)  # a crash: no shutdown
        process.wait()
    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(after_restart(clients, room, base))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def test_turn_in_snapshots_and_events(live_server: str, migrated_db_url: str) -> None:
    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"],
                                           timer_seconds=60)  # fmt: skip
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        snapshot = clients[0].snapshot
        assert snapshot is not None
        turn = snapshot["turn"]
        assert turn["seat"] == snapshot["view"]["to_move"] and 55 < turn["ends_in"] <= 60
        assert snapshot["auto_actions"] == [] and snapshot["between_deals"] is None
        actor = next(c for c in clients if c.my_turn())
        legal = actor.view["legal_actions"]  # type: ignore[index]
        await actor.send({"type": "action", "action": legal[0], "v": actor.version, "id": 1})
        event = await actor.expect_ack(1)
        assert event["auto"] is False
        assert event["turn"]["seat"] == event["view"]["to_move"] != actor.seat
        assert 55 < event["turn"]["ends_in"] <= 60  # a fresh period for the next seat
        for client in clients:
            await client.aclose()

    run(scenario())


# ---------------------------------------------------------------- between deals


def test_the_next_deal_waits_for_weiter(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        names = ["Anna", "Bernd", "Catrin", "Dora"]  # four at Dreierles: the dealer sits out
        players, room, token = await make_room(live_server, "dreierles", names)
        watcher = await join_as_spectator(live_server, token)
        clients = [*players, watcher]
        await start(players[0], room)
        for client in clients:
            await client.connect(room)
        await settle(clients, 0)
        anna = players[0]
        refused = await error_of(anna, {"type": "next", "id": "too-early"})
        assert refused["code"] == "not_between_deals" and refused["id"] == "too-early"
        sitting_out = next(c for c in players if c.seat is None)
        seated = [c for c in players if c is not sitting_out]
        last = await play_deal(clients, random.Random(3))
        assert last["view"]["outcome"] is not None and last["turn"] == {
            "seat": None,
            "ends_in": None,
        }
        ends = [await c.expect("deal_end") for c in clients]
        assert all(e == ends[0] for e in ends)
        pauses = [await c.expect("snapshot") for c in clients]  # the sheet with the deal on it
        for client, pause in zip(clients, pauses, strict=True):
            assert pause["v"] == ends[0]["v"] and pause["match"]["deal_number"] == 1
            assert pause["between_deals"] == {"waiting": ends[0]["waiting"],
                                              "pause_ends_in": None}  # fmt: skip
            events = [m for m in client.messages if m["type"] == "event"]
            assert pause["view"] == events[-1]["view"]  # the finished deal, as it ended
            assert len(pause["match"]["sheet"]["rows"]) == 1
        assert ends[0]["v"] == last["v"] + 1 and ends[0]["pause_ends_in"] is None
        assert sorted(ends[0]["waiting"]) == sorted(c.user_id for c in seated)
        # while waiting: no action, no tap from who is not waited for; nothing changes
        refused = await error_of(watcher, {"type": "next", "id": "kiebitz"})
        assert refused["code"] == "not_seated"
        refused = await error_of(sitting_out, {"type": "next"})
        assert refused["code"] == "not_seated"
        actor = seated[0]
        refused = await error_of(actor, {"type": "action", "action": "pass", "v": actor.version})
        assert refused["code"] == "between_deals"
        # a reconnect sees the finished deal, its outcome and who is still reading
        await watcher.close_socket()
        snapshot = await watcher.connect(room)
        assert snapshot["match"]["deal_number"] == 1 and snapshot["view"]["outcome"]
        assert snapshot["between_deals"]["waiting"] == ends[0]["waiting"]
        assert snapshot["turn"] == {"seat": None, "ends_in": None}
        # each tap: everybody is told the shorter list
        first = seated[0]
        await first.send({"type": "next", "id": "weiter"})
        answers = {c.name: await c.expect("deal_end") for c in clients}
        assert answers.pop(first.name) == {**ends[0], "waiting": answers["Kiebitz"]["waiting"],
                                           "id": "weiter"}  # fmt: skip
        assert all("id" not in a for a in answers.values())
        assert sorted(answers["Kiebitz"]["waiting"]) == sorted(c.user_id for c in seated[1:])
        await first.send({"type": "next"})  # again: nothing changes
        again = await first.expect("deal_end")
        assert again["waiting"] == answers["Kiebitz"]["waiting"]
        await next_deal(clients)
        new_deal = anna.snapshot
        assert new_deal is not None and new_deal["match"]["deal_number"] == 2
        assert new_deal["between_deals"] is None and new_deal["v"] == ends[0]["v"]
        assert new_deal["view"]["phase"] != "finished" and new_deal["auto_actions"] == []
        refused = await error_of(anna, {"type": "next"})
        assert refused["code"] == "not_between_deals"
        deals = await stored_deals(db_url)
        assert [d["number"] for d in deals] == [1, 2] and deals[1]["actions"] == []
        for client in clients:
            check_messages(client, deals)
            await client.aclose()

    run(scenario())


def test_with_a_timer_the_pause_ends_by_itself(live_server: str, migrated_db_url: str) -> None:
    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"],
                                           rounds=2)  # fmt: skip
        await set_room(migrated_db_url, room, timer_seconds=2, standin=False)
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        assert clients[0].snapshot["match"]["next_deal_pause_seconds"] == 2  # type: ignore[index]
        await play_deal(clients, random.Random(5))
        end = await clients[0].expect("deal_end")
        assert 0 < end["pause_ends_in"] <= 2 and len(end["waiting"]) == 3
        pause = await clients[0].expect("snapshot")
        assert pause["between_deals"]["waiting"] == end["waiting"]
        snapshot = await clients[0].expect("snapshot", timeout=10)  # nobody tapped
        assert snapshot["match"]["deal_number"] == 2 and snapshot["between_deals"] is None
        assert 0 < snapshot["turn"]["ends_in"] <= 2
        for client in clients:
            await client.aclose()

    run(scenario())


def test_a_restart_between_deals_asks_everybody_again(play_db_url: str, tmp_path: Path) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"

    async def first_deal(base: str) -> tuple[list[Client], int, dict[str, Any]]:
        clients, room, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"],
                                           rounds=2)  # fmt: skip
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        await play_deal(clients, random.Random(8))
        end = await clients[0].expect("deal_end")
        await clients[0].send({"type": "next"})
        await clients[1].expect("deal_end")  # the deal's end
        tapped = await clients[1].expect("deal_end")  # Anna's tap
        assert clients[0].user_id not in tapped["waiting"]
        return clients, room, end

    async def after_restart(clients: list[Client], room: int, base: str,
                            end: dict[str, Any]) -> None:  # fmt: skip
        before = await stored_deals(db_url)
        for client in clients:
            await client.close_socket()
            client.move_to(base)
            snapshot = await client.connect(room)
            assert snapshot["match"]["deal_number"] == 1 and snapshot["view"]["outcome"]
            assert sorted(snapshot["between_deals"]["waiting"]) == sorted(end["waiting"])
        await next_deal(clients)
        assert clients[0].snapshot["match"]["deal_number"] == 2  # type: ignore[index]
        await step(clients, random.Random(9))
        deals = await stored_deals(db_url)
        assert [d["record"] for d in deals] == [d["record"] for d in before]  # nothing redealt
        assert len(deals[1]["actions"]) == 1
        for client in clients:
            check_messages(client, deals)
            await client.aclose()

    with server_process(db_url, log_path) as (base, process):
        loop = asyncio.new_event_loop()
        clients, room, end = loop.run_until_complete(first_deal(base))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(after_restart(clients, room, base, end))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


# ---------------------------------------------------------------- forced deals announced


def test_the_snapshot_announces_the_deals_setup(live_server: str) -> None:
    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(clients[0], room)
        snapshot = await clients[0].connect(room)
        # one round only: it is the last, played as "Räuber oder Solo"
        assert snapshot["match"]["setup"] == {"note": "final_round", "params": {}}
        await clients[0].aclose()
        for client in clients[1:]:
            await client.http.aclose()

    run(scenario())


def test_a_lost_lustsolo_is_announced_as_replay() -> None:
    evening = DoppelkopfEvening(SEATS, first_dealer=3)
    live = LiveMatch(1, "doppelkopf", list(SEATS), [1, 2, 3, 4], {}, evening)
    live.deal = evening.start_deal(D_DEALT)
    assert live.setup() == {"note": None, "params": {}}
    evening.record(solo_deal(evening, won=False))
    live.deal = evening.start_deal(D_DEALT)
    assert live.setup() == {"note": "replay", "params": {"player": "Paul", "contract": "damen"}}


def test_a_vorfuehrung_is_announced_with_its_player_and_solo() -> None:
    evening = DoppelkopfEvening(SEATS, first_dealer=3, start_points=5)
    evening.obligations["Rita"] = ["buben"]
    evening.record(finish(play(evening.start_deal(D_DEALT), *("gesund",) * 4), random.Random(3)))
    live = LiveMatch(1, "doppelkopf", list(SEATS), [1, 2, 3, 4], {}, evening)
    live.deal = evening.start_deal(D_DEALT)
    assert live.setup() == {"note": "vorfuehrung",
                            "params": {"player": "Rita", "contract": "buben"}}  # fmt: skip


def test_snapshot_timer_marks_are_masked_like_their_events() -> None:
    """``auto_actions`` in a snapshot names seat and action of each timer move as the
    viewer saw its event: a face-down discard stays hidden from the other seats."""
    rules = get_rules("dreierles")
    for seed in range(100):  # the first seeded deal with a face-down discard
        rng = random.Random(seed)
        deal = rules.new_deal(rules.shuffle_and_deal(rng), seats=("Anna", "Bernd", "Catrin"))
        while not deal.finished and not any(
            deal.action_seen_by(i, None) == "discard" for i in range(len(deal.history))
        ):
            deal.act(None, deal.move_text(deal.random_move(rng)))
        if not deal.finished:
            break
    index = len(deal.history) - 1
    declarer, move = deal.history[index]
    card = deal.move_text(move)
    others = [seat for seat in range(3) if seat != declarer]
    own = auto_seen(deal, [0, index], declarer)
    assert own == [
        {"index": 0, "seat": deal.history[0][0], "action": deal.move_text(deal.history[0][1])},
        {"index": index, "seat": declarer, "action": card},
    ]
    assert card.startswith("discard ")
    for viewer in [*others, None]:
        assert auto_seen(deal, [index], viewer) == [
            {"index": index, "seat": declarer, "action": "discard"}
        ]
    assert auto_seen(None, [0], 0) == []
