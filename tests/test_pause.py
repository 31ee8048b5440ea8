"""A pause by agreement (issue 28) over real sockets, on SQLite and PostgreSQL: the table
pauses only when every player of the deal asks for it, then nobody can act and the turn
timer stands still; it goes on, with the time the timer had left, once every player asks
to go on; and a pause outlives a crash of the server.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path
from typing import Any

from server.tables.protocol import Pause, parse_message
from tests.support import server_process
from tests.table_client import Client, make_room, start, step
from tests.test_table_flow import set_room
from tests.test_tables import join_as_spectator

NAMES = ["Anna", "Bernd", "Catrin"]
TIMER = 30


def test_the_message() -> None:
    assert parse_message('{"type":"pause","pause":true}') == Pause(type="pause", pause=True)


async def ask(client: Client, pause: bool, others: list[Client]) -> dict[str, Any]:
    """``client`` asks for a pause (or to go on); the answer everybody gets."""
    await client.send({"type": "pause", "pause": pause, "id": f"pause-{client.name}-{pause}"})
    answer = await client.expect_any(("pause", "snapshot"))
    for other in others:
        got = await other.expect_any(("pause", "snapshot"))
        assert got["type"] == answer["type"]
    return answer


def test_a_pause_agreed_by_all(play_db_url: str, tmp_path: Path) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"
    loop = asyncio.new_event_loop()

    async def pause_mid_deal(base: str) -> tuple[list[Client], int]:
        clients, room, _ = await make_room(base, "dreierles", NAMES)
        await set_room(db_url, room, timer_seconds=TIMER, standin=False)
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        rng = random.Random(28)
        for _ in range(4):
            await step(clients, rng)
        for client in clients:  # what came before
            while not client.inbox.empty():
                client.inbox.get_nowait()
        # one or two asking: the table plays on
        first = await ask(clients[0], True, clients[1:])
        assert first["type"] == "pause" and first["paused"] is False
        assert first["asking"] == [clients[0].user_id] and first["id"] == "pause-Anna-True"
        second = await ask(clients[1], True, [clients[0], clients[2]])
        assert sorted(second["asking"]) == sorted(c.user_id for c in clients[:2])
        # withdrawn and asked again
        back = await ask(clients[1], False, [clients[0], clients[2]])
        assert back["asking"] == [clients[0].user_id]
        await ask(clients[1], True, [clients[0], clients[2]])
        # the last one: paused, told with a snapshot
        paused = await ask(clients[2], True, clients[:2])
        assert paused["type"] == "snapshot"
        assert paused["pause"] == {"paused": True, "asking": []}
        assert paused["turn"]["ends_in"] is None and paused["turn"]["seat"] is not None
        # nobody can act
        mover = next(c for c in clients if c.my_turn())
        assert mover.view is not None
        text = mover.view["legal_actions"][0]
        await mover.send({"type": "action", "action": text, "v": mover.version, "id": "x"})
        refused = await mover.expect("error")
        assert refused["code"] == "paused" and refused["id"] == "x"
        return clients, room

    async def after_restart(clients: list[Client], room: int, base: str) -> None:
        for client in clients:
            await client.close_socket()
            client.move_to(base)
            snapshot = await client.connect(room)
            assert snapshot["pause"] == {"paused": True, "asking": []}
            assert snapshot["turn"]["ends_in"] is None
        version = clients[0].version
        await ask(clients[0], False, clients[1:])
        await ask(clients[1], False, [clients[0], clients[2]])
        going_on = await ask(clients[2], False, clients[:2])
        assert going_on["type"] == "snapshot" and going_on["pause"]["paused"] is False
        assert going_on["v"] == version  # nothing happened meanwhile
        # the timer runs again (after a restart: a whole period)
        assert TIMER - 2 < going_on["turn"]["ends_in"] <= TIMER
        assert await step(clients, random.Random(29))
        for client in clients:
            await client.aclose()

    with server_process(db_url, log_path) as (base, process):
        clients, room = loop.run_until_complete(pause_mid_deal(base))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(after_restart(clients, room, base))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def test_the_timer_stands_still_while_paused(live_server: str, migrated_db_url: str) -> None:
    async def run() -> None:
        clients, room, token = await make_room(live_server, "dreierles", NAMES)
        await set_room(migrated_db_url, room, timer_seconds=TIMER, standin=False)
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        await step(clients, random.Random(3))
        for client in clients:
            while not client.inbox.empty():
                client.inbox.get_nowait()
        await ask(clients[0], True, clients[1:])
        await ask(clients[1], True, [clients[0], clients[2]])
        paused = await ask(clients[2], True, clients[:2])
        assert paused["pause"]["paused"]
        await asyncio.sleep(2.5)  # the timer would have run down 2.5 s
        await ask(clients[0], False, clients[1:])
        await ask(clients[1], False, [clients[0], clients[2]])
        going_on = await ask(clients[2], False, clients[:2])
        left = going_on["turn"]["ends_in"]
        # what it had left when the table paused, not 2.5 s less
        assert TIMER - 2 < left <= TIMER, left
        # a spectator has no say
        watcher = await join_as_spectator(live_server, token)
        await watcher.connect(room)
        await watcher.send({"type": "pause", "pause": True, "id": "w"})
        refused = await watcher.expect("error")
        assert refused["code"] == "not_a_player" and refused["id"] == "w"
        for client in [*clients, watcher]:
            await client.aclose()

    asyncio.run(run())
