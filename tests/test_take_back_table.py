"""Taking back a card at a real table over real sockets (issue 28, item 5): the player who
played the last card of an open trick sends ``takeback``; every seat gets the event with the
card back in that hand and the trick without it; the player is to move again with a whole
turn period; the action log stores it as its own action. A room of a game whose default is
off refuses it with a coded error and stores nothing.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.pool import NullPool

from server.store.db import make_engine
from server.store.models import ActionRow
from tests.table_client import Client, make_room, settle, start, step
from tests.test_table_flow import set_room

NAMES = ["Anna", "Bernd", "Catrin"]
TIMER = 60


async def stored_texts(db_url: str) -> list[tuple[int, str]]:
    """Every stored action as (seat, text), in order."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            rows = await db.execute(
                select(ActionRow.seat, ActionRow.text).order_by(ActionRow.deal_id, ActionRow.seq)
            )
            return [(seat, text) for seat, text in rows.all()]
    finally:
        await engine.dispose()


async def to_play(clients: list[Client], seed: int) -> None:
    """Random actions until the deal's play begins."""
    rng = random.Random(seed)
    while True:
        view = clients[0].view
        assert view is not None
        if view["phase"] == "play":
            return
        assert await step(clients, rng)


async def play_card(mover: Client, clients: list[Client], card: str) -> dict[str, Any]:
    await mover.send({"type": "action", "action": card, "v": mover.version, "id": card})
    event = await mover.expect_ack(card)
    await settle(clients, event["v"])
    return event


def test_a_take_back_is_seen_by_all_and_stored(live_server: str, migrated_db_url: str) -> None:
    async def run() -> None:
        clients, room, _ = await make_room(live_server, "tarock-zu-dritt", NAMES)
        await set_room(migrated_db_url, room, timer_seconds=TIMER, standin=False)
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        await to_play(clients, 5)
        leader = next(c for c in clients if c.my_turn())
        assert leader.view is not None
        hand = list(leader.view["hand"])
        card = leader.view["legal_actions"][-1]
        code = card.split()[1]
        played = await play_card(leader, clients, card)
        assert played["view"]["take_back"] == leader.seat
        assert code not in leader.view["hand"]
        others = [c for c in clients if c is not leader]
        for other in others:
            while not other.inbox.empty():
                other.inbox.get_nowait()
        # one who did not play it: refused with a code, nothing changes
        version = others[0].version
        await others[0].send({"type": "action", "action": "takeback", "v": version, "id": "tb0"})
        refusal = await others[0].expect("error")
        assert (refusal["code"], refusal["id"]) == ("take_back_not_last", "tb0")
        # the player who played it
        await leader.send({"type": "action", "action": "takeback", "v": leader.version,
                           "id": "tb"})  # fmt: skip
        event = await leader.expect_ack("tb")
        await settle(clients, event["v"])
        assert (event["action"], event["seat"]) == ("takeback", leader.seat)
        assert event["turn"]["seat"] == leader.seat
        assert TIMER - 5 < event["turn"]["ends_in"] <= TIMER  # a whole turn again
        assert leader.view is not None and leader.view["hand"] == hand
        assert leader.view["take_back"] is None and card in leader.view["legal_actions"]
        for other in others:
            seen = await other.expect("event")
            expected = ("takeback", leader.seat, event["v"])
            assert (seen["action"], seen["seat"], seen["v"]) == expected
            assert other.view is not None
            assert other.view["trick"]["cards"] == []
            assert other.view["hand_sizes"][leader.seat] == len(hand)
            assert other.view["to_move"] == leader.seat
        # the log: the card and its take-back, each an action of its own
        stored = await stored_texts(migrated_db_url)
        assert stored[-2:] == [(leader.seat, card), (leader.seat, "takeback")]
        # the game goes on: the same player plays again (another card this time)
        other_card = next(a for a in leader.view["legal_actions"] if a != card)
        again = await play_card(leader, clients, other_card)
        assert again["view"]["trick"]["cards"] == [other_card.split()[1]]
        for client in clients:
            await client.aclose()

    asyncio.run(run())


def test_a_room_with_the_option_off_refuses(live_server: str, migrated_db_url: str) -> None:
    async def run() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", NAMES)
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        await to_play(clients, 7)
        leader = next(c for c in clients if c.my_turn())
        assert leader.view is not None
        card = leader.view["legal_actions"][0]
        played = await play_card(leader, clients, card)
        assert played["view"]["take_back"] is None
        before = await stored_texts(migrated_db_url)
        await leader.send({"type": "action", "action": "takeback", "v": leader.version,
                           "id": "tb"})  # fmt: skip
        refusal = await leader.expect("error")
        assert (refusal["code"], refusal["id"]) == ("take_back_off", "tb")
        assert await stored_texts(migrated_db_url) == before
        for client in clients:
            await client.aclose()

    asyncio.run(run())
