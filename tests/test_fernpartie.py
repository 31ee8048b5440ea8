"""A Fernpartie from end to end, with nothing put into the database by hand: three people
start a correspondence match (one day per move) and close their table pages; the table
stores whose move it is, the start page's list shows it to that person only, his device
is told "Du bist dran" and reminded at 75 % and 90 % of the day, and when the day is over
the stand-in moves for him (marked as such), after which the next person's turn begins
and her device is told. A real server process whose wall clock a file moves ahead, a
local push service, the table's own writes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from tests.support import PushService, server_process
from tests.table_client import make_room, start
from tests.test_correspondence import last_client_id, stored_turn
from tests.test_notifications import browser_keys, decrypt, eventually, move_clock

pytestmark = pytest.mark.live_server

DAY = 86400


def test_a_fernpartie_tells_reminds_and_stands_in(
    play_db_url: str, tmp_path: Path, push_service: PushService
) -> None:
    clock = tmp_path / "clock"
    clock.write_text("0")
    env = {"STAMMTISCH_CLOCK_FILE": str(clock), "STAMMTISCH_DEADLINE_POLL_SECONDS": "0.2"}
    with server_process(play_db_url, tmp_path / "server.log", env=env) as (base, _process):
        asyncio.run(scenario(base, play_db_url, push_service, clock))


async def scenario(base: str, db_url: str, service: PushService, clock: Path) -> None:
    clients, room, _ = await make_room(
        base, "dreierles", ["Anna", "Bernd", "Clara"], tempo_seconds=DAY,
        computer_pause_ms=[0, 0],
    )  # fmt: skip
    # every person's phone asks for notifications; nobody has the table open
    keys: dict[int, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
    for client in clients:
        key, p256dh, auth, auth_text = browser_keys()
        keys[client.user_id] = (key, auth)
        body = {"endpoint": f"{service.origin}/push/{client.user_id}",
                "keys": {"p256dh": p256dh, "auth": auth_text}}  # fmt: skip
        assert (await client.http.post("/api/push/subscriptions", json=body)).status_code == 201
    match_id = await start(clients[0], room)
    by_id = {client.user_id: client for client in clients}

    def pushes(user: int) -> list[Any]:
        key, auth = keys[user]
        return [decrypt(r, key, auth) for r in service.to(f"/push/{user}")]

    # the table stores the first turn; its person (only he) is told and sees it listed
    async def first_turn() -> bool:
        return await stored_turn(db_url) is not None

    await eventually(first_turn)
    turn = await stored_turn(db_url)
    assert turn is not None and turn.deadline is not None
    mover = turn.user_id
    assert (turn.deadline - turn.since).total_seconds() == DAY
    await eventually(lambda: len(pushes(mover)) == 1)
    told = pushes(mover)[0]
    assert told["title"] == "Du bist dran" and told["url"] == f"/rooms/{room}/table"
    assert told["tag"] == f"match-{match_id}"
    for client in clients:
        listed = (await client.http.get("/api/turns")).json()
        if client.user_id == mover:
            assert listed["count"] == 1
            entry = listed["turns"][0]
            assert (entry["room_id"], entry["match_id"]) == (room, match_id)
            assert entry["tempo_seconds"] == DAY and entry["url"] == f"/rooms/{room}/table"
        else:
            assert listed == {**listed, "count": 0, "turns": []}
    others = [user for user in by_id if user != mover]
    assert all(pushes(user) == [] for user in others)

    # 76 % and 91 % of the day: one reminder each, to him only
    move_clock(clock, 0.76 * DAY)
    await eventually(lambda: len(pushes(mover)) == 2)
    assert pushes(mover)[1]["title"] == "Erinnerung: du bist dran"
    move_clock(clock, 0.91 * DAY)
    await eventually(lambda: len(pushes(mover)) == 3)
    assert pushes(mover)[2]["title"] == "Erinnerung: du bist dran"
    actions_before, _ = await last_client_id(db_url)

    # the day is over: the stand-in (the room's default) moves for him, marked
    move_clock(clock, DAY + 60)

    async def moved() -> bool:
        count, _ = await last_client_id(db_url)
        return count > actions_before

    await eventually(moved)
    _count, client_id = await last_client_id(db_url)
    assert client_id is not None and client_id.startswith("standin:"), client_id

    # the next person's turn begins with a full day, and she is told
    async def next_turn() -> bool:
        new = await stored_turn(db_url)
        return new is not None and new.version > turn.version

    await eventually(next_turn)
    after = await stored_turn(db_url)
    assert after is not None and after.deadline is not None
    assert (after.deadline - after.since).total_seconds() == DAY
    assert after.since >= turn.deadline
    if after.user_id != mover:
        await eventually(lambda: len(pushes(after.user_id)) == 1)
        assert pushes(after.user_id)[0]["title"] == "Du bist dran"
        assert (await by_id[mover].http.get("/api/turns")).json()["count"] == 0
    await asyncio.sleep(1.0)  # five polls: nothing more for the first mover's old turn
    assert len(pushes(mover)) == (3 if after.user_id != mover else 4)
    for client in clients:
        await client.aclose()
