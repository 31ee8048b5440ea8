"""Events carry only what changed, and applying them gives what a fresh snapshot shows.

For every game of the registry, a real server and real sockets: as many people as the game
allows (with four at three active seats the dealer sits out and sees what a spectator
sees) and a spectator play
through the first deal into the second. After every action each of them asks for a fresh
snapshot on a second socket of its own; the view it has built by applying the events'
changes (``tests.table_client``, as the browser does) must equal the snapshot's view, and
the score sheet it has built from partial snapshots must equal the whole one. Once a
client has its first snapshot, no event carries a whole view again.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from server.engine.registry import list_games
from tests.table_client import Client, make_room, settle, start
from tests.test_tables import join_as_spectator

#: Every playable game, with the most people it allows and the fewest rounds (or deals) its
#: matches allow, at least two.
GAMES = [(info.name, max(info.players), max(2, info.rounds.min))
         for info in list_games() if info.implemented]  # fmt: skip
NAMES = ["Anna", "Bernd", "Clara", "Dieter"]


async def probe_of(client: Client, room: int) -> Client:
    """A second socket of ``client``'s account at the table."""
    probe = Client(client.base_url, client.name)
    probe.http.cookies = client.http.cookies
    await probe.connect(room)
    return probe


async def fresh_snapshot(probe: Client, room: int) -> dict[str, Any]:
    """A fresh snapshot: ``hello`` again on the probe's socket (what it was sent before
    is dropped first). The probe greets once for every action, as fast as the table
    plays; over the server's 50 messages a second a greeting is dropped unread
    (``rate_limited``): then it waits a moment and greets again."""
    while not probe.inbox.empty():
        probe.inbox.get_nowait()
    for _ in range(20):
        await probe.send({"type": "hello", "room": room, "last_version": None})
        answer = await probe.expect_any(("snapshot", "error"))
        if answer["type"] == "snapshot":
            return answer
        assert answer["code"] == "rate_limited", answer
        await asyncio.sleep(0.1)
    raise AssertionError("the probe was rate limited twenty times in a row")


def events_after_first_snapshot(client: Client) -> list[dict[str, Any]]:
    """The events a client received after its first snapshot."""
    seen_snapshot = False
    events = []
    for message in client.messages:
        if message["type"] == "snapshot":
            seen_snapshot = True
        elif message["type"] == "event" and seen_snapshot:
            events.append(message)
    return events


async def compare_all(clients: list[Client], probes: list[Client], room: int) -> None:
    """Every client's view and sheet equal a fresh snapshot's."""
    for client, probe in zip(clients, probes, strict=True):
        snapshot = await fresh_snapshot(probe, room)
        assert snapshot["v"] == client.version or client.between is not None
        assert client.view == snapshot["view"], (client.name, client.version)
        assert client.snapshot is not None
        assert client.snapshot["match"]["sheet"] == snapshot["match"]["sheet"], client.name


@pytest.mark.parametrize(("game", "people", "rounds"), GAMES)
def test_applied_changes_equal_a_fresh_snapshot(
    live_server: str, game: str, people: int, rounds: int
) -> None:
    asyncio.run(play_and_compare(live_server, game, people, rounds))


async def play_and_compare(live_server: str, game: str, people: int, rounds: int) -> None:
    """Play the first deal into the second, comparing after every action."""
    rng = random.Random(f"changes-{game}")
    players, room, token = await make_room(live_server, game, NAMES[:people], rounds=rounds)
    watcher = await join_as_spectator(live_server, token)
    clients = [*players, watcher]
    probes: list[Client] = []
    try:
        await start(players[0], room)
        for client in clients:
            await client.connect(room)
        probes = [await probe_of(client, room) for client in clients]
        await compare_all(clients, probes, room)
        deals_ended = 0
        for _ in range(400):
            actor = next((c for c in players if c.my_turn()), None)
            if actor is None:
                break
            assert actor.view is not None
            legal = actor.view["legal_actions"]
            text = "gesund" if "gesund" in legal and rng.random() < 0.9 else rng.choice(legal)
            await actor.send({"type": "action", "action": text, "v": actor.version, "id": text})
            event = await actor.expect_ack(text)
            await settle(clients + probes, event["v"])
            if event["view"]["phase"] != "finished":
                await compare_all(clients, probes, room)
            else:  # compared once the sheet with the finished deal is in
                deals_ended += 1
                async with asyncio.timeout(10):  # deal_end, then the sheet's new row
                    while any(c.snapshot is None or c.snapshot["v"] <= event["v"]
                              for c in clients):  # fmt: skip
                        await asyncio.sleep(0.005)
                await compare_all(clients, probes, room)
                if deals_ended == 2:
                    break
                for client in players:
                    await client.send({"type": "next", "id": f"next-{client.version}"})
                async with asyncio.timeout(10):
                    while any(c.between is not None for c in clients):
                        await asyncio.sleep(0.005)
                await compare_all(clients, probes, room)
        assert deals_ended >= 1, "no deal reached its end"
        for client in clients:
            events = events_after_first_snapshot(client)
            assert events, client.name
            assert not any("changed" not in e for e in events), "an event with a whole view"
            assert all("changed" in e and "gone" in e for e in events)
        # the partial sheets: once a deal is on the sheet, a snapshot sent to everybody
        # carries only the rows after those the clients have (none for the next deal)
        snapshots = [m for m in players[0].messages if m["type"] == "snapshot"]
        if any(m["match"]["deal_number"] >= 2 for m in snapshots):  # not over after one
            assert any(m["match"]["sheet_from"] for m in snapshots), "no partial sheet"
    finally:
        for client in clients + probes:
            await client.aclose()
