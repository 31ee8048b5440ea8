"""A lone "Gut" said by the table (issue 28, room option ``gut_automatisch``) over real
sockets: after the action that leaves a seat only "gut" in Bayerisches Tarock's Kontra
round, that action's event says ``turn.forced`` and the table says "gut" at once, stored
with the client id ``auto`` and announced to every seat with ``auto: true``, like a move of
the turn timer; a reloaded page is told it in ``auto_actions``. With the option off the
player says it himself."""

from __future__ import annotations

import asyncio
from typing import Any

from server.store import log
from tests.table_client import Client, make_room, start
from tests.test_table_flow import stored_actions

GAME = "bayerisches-tarock"
NAMES = ["Anna", "Bernd", "Catrin"]


def by_seat(clients: list[Client]) -> dict[int, Client]:
    """The clients by their seat in the current deal."""
    seats: dict[int, Client] = {}
    for client in clients:
        assert client.seat is not None
        seats[client.seat] = client
    return seats


async def act(seats: dict[int, Client], seat: int, text: str) -> dict[str, Any]:
    """``seat`` sends ``text``; its event (the acknowledgement), once every seat has it."""
    client = seats[seat]
    msg_id = f"{seat}-{text}-{client.version}"
    await client.send({"type": "action", "action": text, "v": client.version, "id": msg_id})
    event = await client.expect_ack(msg_id)
    for other in seats.values():
        while other.version < event["v"]:
            await other.expect("event")
    return event


async def the_auto_event(seats: dict[int, Client], version: int) -> list[dict[str, Any]]:
    """The event of version ``version`` as every seat got it."""
    seen = []
    for client in seats.values():
        event = await client.expect("event")
        while event["v"] < version:
            event = await client.expect("event")
        seen.append(event)
    return seen


async def into_the_kontra_round(base: str, **room: Any) -> tuple[list[Client], dict[int, Client]]:
    """A room of three whose first deal Vorhand bids to a Hand game in Eichel; the Kontra
    round is about to start (Vorhand, the declarer, is asked first)."""
    clients, room_id, _ = await make_room(base, GAME, NAMES, **room)
    await start(clients[0], room_id)
    for client in clients:
        await client.connect(room_id)
    seats = by_seat(clients)
    for seat, text in ((0, "bid ich_spiele"), (1, "pass"), (2, "pass"), (0, "game hand")):
        event = await act(seats, seat, text)
        assert event["turn"].get("forced") is None
    return clients, seats


def test_the_table_says_a_lone_gut_itself_announced_as_auto(
    live_server: str, migrated_db_url: str
) -> None:
    async def run() -> None:
        clients, seats = await into_the_kontra_round(live_server)
        try:
            # naming the trump opens the Kontra round; the declarer may only say "gut"
            named = await act(seats, 0, "trump E")
            assert named["turn"] == {"seat": 0, "ends_in": None, "forced": True}
            assert named["view"]["phase"] == "kontra"
            for event in await the_auto_event(seats, named["v"] + 1):
                assert (event["seat"], event["action"], event["auto"]) == (0, "gut", True)
                assert event["turn"] == {"seat": 1, "ends_in": None}
            assert seats[1].view is not None and seats[1].view["legal_actions"] == [
                "gut", "kontra game"
            ]  # fmt: skip
            # a Kontra leaves the other opponent only "gut": said for him too
            kontra = await act(seats, 1, "kontra game")
            assert kontra["turn"]["forced"] is True and kontra["turn"]["seat"] == 2
            for event in await the_auto_event(seats, kontra["v"] + 1):
                assert (event["seat"], event["action"], event["auto"]) == (2, "gut", True)
            # the declarer chooses (Re or gut); then the Kontra caller has only "gut"
            said = await act(seats, 0, "gut")
            assert said["turn"]["forced"] is True and said["turn"]["seat"] == 1
            for event in await the_auto_event(seats, said["v"] + 1):
                assert (event["seat"], event["action"], event["auto"]) == (1, "gut", True)
                assert event["view"]["phase"] == "play" and event["turn"]["seat"] == 0
            # stored as the table's own moves (not the timer's): actions 5, 7 and 9 of the deal
            stored = await stored_actions(migrated_db_url)
            assert [seq for _, seq, client_id in stored if client_id == log.FORCED_ACTION] == [
                5, 7, 9
            ]  # fmt: skip
            assert not [seq for _, seq, client_id in stored if client_id == log.AUTO_ACTION]
            assert len(stored) == 10
            # a page opened now marks no seat for them: nobody's timer ran out (as live,
            # where the event before said turn.forced)
            watcher = seats[2]
            await watcher.close_socket()
            snapshot = await watcher.connect(watcher.room)
            assert snapshot["auto_actions"] == []
            assert snapshot["view"]["phase"] == "play"
        finally:
            for client in clients:
                await client.aclose()

    asyncio.run(run())


def test_with_the_option_off_the_player_says_gut_himself(live_server: str) -> None:
    async def run() -> None:
        clients, seats = await into_the_kontra_round(
            live_server, match_options={"gut_automatisch": False}
        )
        try:
            named = await act(seats, 0, "trump E")
            assert named["turn"] == {"seat": 0, "ends_in": None}
            assert seats[0].view is not None and seats[0].view["legal_actions"] == ["gut"]
            said = await act(seats, 0, "gut")
            assert said["auto"] is False and said["turn"] == {"seat": 1, "ends_in": None}
        finally:
            for client in clients:
                await client.aclose()

    asyncio.run(run())
