"""What one user may do to a table, and what a table keeps: chat stored with the match (it
survives a restart and the archive shows it), one user's chat rate over all devices, the
number of sockets one user may hold at a table and on the server, and a resent action
answered with ``ack`` instead of being applied twice."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from server.tables.manager import SOCKETS_PER_USER as SERVER_SOCKETS
from server.tables.table import CHAT_BURST, SOCKETS_PER_USER
from tests.support import free_port, server_process
from tests.table_client import COOKIE, Client, make_room, settle, start

NAMES = ["Anna", "Bernd", "Catrin"]


async def table(base: str, **room: Any) -> tuple[list[Client], int, int]:
    clients, room_id, _ = await make_room(base, "dreierles", NAMES, **room)
    match_id = await start(clients[0], room_id)
    for client in clients:
        await client.connect(room_id)
    return clients, room_id, match_id


def test_chat_is_kept_across_a_restart_and_shown_in_the_archive(
    migrated_db_url: str, tmp_path: Path
) -> None:
    port = free_port()
    log_path = tmp_path / "server.log"
    loop = asyncio.new_event_loop()
    with server_process(migrated_db_url, log_path, port=port) as (base, _):

        async def before() -> tuple[list[Client], int, int]:
            clients, room, match_id = await table(base)
            await clients[0].send({"type": "chat", "text": "Servus beinand"})
            await clients[1].send({"type": "chat", "text": "Grüß Gott <b>!</b>"})
            for client in clients:
                await client.expect("chat")
                await client.expect("chat")
            return clients, room, match_id

        clients, room, match_id = loop.run_until_complete(before())
    with server_process(migrated_db_url, log_path, port=port) as (base, _):

        async def after() -> None:
            for client in clients:
                await client.close_socket()
                client.move_to(base)
            snapshot = await clients[2].connect(room)
            lines = [(m["name"], m["text"]) for m in snapshot["chat"]]
            assert lines == [("Anna", "Servus beinand"), ("Bernd", "Grüß Gott <b>!</b>")]
            archived = (await clients[2].http.get(f"/api/history/matches/{match_id}")).json()
            assert [(m["name"], m["text"]) for m in archived["chat"]] == lines
            assert all(m["at"].endswith("+00:00") for m in archived["chat"])
            for client in clients:
                await client.aclose()

        loop.run_until_complete(after())
    loop.close()


def test_one_user_chats_at_a_bounded_rate_over_all_devices(module_server: Any) -> None:
    async def scenario() -> None:
        clients, room, _ = await table(module_server.base_url)
        anna = clients[0]
        second = Client(module_server.base_url, "Anna")
        second.http.cookies.set(COOKIE, anna.cookie)
        await second.connect(room)
        lines = int(CHAT_BURST) + 4
        for i in range(lines):  # at once, from two devices of one user
            await (anna if i % 2 else second).send({"type": "chat", "text": f"Zeile {i}"})
        await asyncio.sleep(0.5)
        errors = [m for c in (anna, second) for m in c.messages if m["type"] == "error"]
        relayed = [m for m in clients[1].messages if m["type"] == "chat"]
        assert {e["code"] for e in errors} == {"chat_too_fast"}
        assert len(relayed) + len(errors) == lines
        assert int(CHAT_BURST) <= len(relayed) <= CHAT_BURST + 1  # the burst, no more
        await asyncio.sleep(1.1)  # a second later one line is allowed again
        await anna.send({"type": "chat", "text": "wieder da"})
        async with asyncio.timeout(5):
            while clients[1].messages[-1].get("text") != "wieder da":
                await asyncio.sleep(0.01)
        for client in [*clients, second]:
            await client.aclose()

    asyncio.run(scenario())


def test_a_user_holds_a_bounded_number_of_sockets(module_server: Any) -> None:
    async def scenario() -> None:
        clients, room, _ = await table(module_server.base_url)
        anna = clients[0]
        url = module_server.base_url.replace("http://", "ws://") + "/ws"
        headers = {"Cookie": f"{COOKIE}={anna.cookie}"}
        sockets: list[Any] = []
        for _ in range(SOCKETS_PER_USER + 2):  # more devices than a table allows
            ws = await connect(url, additional_headers=headers)
            await ws.send(json.dumps({"type": "hello", "room": room}))
            assert json.loads(await ws.recv())["type"] == "snapshot"
            sockets.append(ws)
        # the oldest were replaced: told so, then closed
        for ws in sockets[:2]:
            async with asyncio.timeout(10):
                seen = [json.loads(m) async for m in ws]  # until it is closed
            assert any(m.get("code") == "replaced" for m in seen), seen
        assert anna.reader is not None
        await asyncio.wait_for(anna.reader, 10)  # her first socket, read by her client
        assert any(m.get("code") == "replaced" for m in anna.messages)
        online = (await clients[1].expect("presence"))["online"]
        assert anna.user_id in online
        # on the server as a whole a user may hold SERVER_SOCKETS sockets, no more
        more = [await connect(url, additional_headers=headers)
                for _ in range(SERVER_SOCKETS - SOCKETS_PER_USER)]  # fmt: skip
        refused = await connect(url, additional_headers=headers)
        message = json.loads(await refused.recv())
        assert message["code"] == "too_many_connections"
        await refused.wait_closed()
        for ws in [*sockets, *more]:
            await ws.close()
        await asyncio.sleep(0.2)  # closed sockets are counted out: a new one is welcome
        again = await connect(url, additional_headers=headers)
        await again.send(json.dumps({"type": "hello", "room": room}))
        assert json.loads(await again.recv())["type"] == "snapshot"
        await again.close()
        for client in clients:
            await client.aclose()

    asyncio.run(scenario())


def test_an_action_sent_twice_is_applied_once(module_server: Any) -> None:
    async def scenario() -> None:
        clients, _, _ = await table(module_server.base_url)
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        version = actor.version
        message = {"type": "action", "action": actor.view["legal_actions"][0], "v": version,
                   "id": "einmal"}  # fmt: skip
        await actor.send(message)
        event = await actor.expect_ack("einmal")
        await settle(clients, event["v"])
        await actor.send(message)  # the same message again, as after a reconnect
        ack = await actor.expect("ack")
        assert ack == {"type": "ack", "id": "einmal", "v": version + 1, "duplicate": True}
        await asyncio.sleep(0.2)
        assert all(c.version == version + 1 for c in clients)  # nothing else happened
        # another player's message with the same id and version is his own, not a repeat:
        # it is refused as stale, not acknowledged as if it had gone through
        other = next(c for c in clients if c is not actor)
        await other.send({**message, "action": "pass"})
        error = await other.expect("error")
        assert error["id"] == "einmal" and error["code"] == "stale_version"
        # the same id at the current version is a new action, checked as any other
        await actor.send({**message, "v": version + 1})
        error = await actor.expect("error")
        assert error["id"] == "einmal" and error["code"] in ("not_your_turn", "wrong_phase")
        for client in clients:
            await client.aclose()

    asyncio.run(scenario())


def test_logout_closes_the_sessions_table_sockets(module_server: Any) -> None:
    async def scenario() -> None:
        clients, room, _ = await table(module_server.base_url)
        anna, bernd = clients[0], clients[1]
        token = anna.cookie
        other_device = Client(module_server.base_url, "Anna")  # her phone: another session
        login = await other_device.http.post("/api/login", json={
            "login": anna.login, "password": "Ober-sticht"})  # fmt: skip
        assert login.status_code == 200, login.text
        await other_device.connect(room)
        assert (await anna.http.post("/api/logout")).status_code == 204
        assert anna.reader is not None
        await asyncio.wait_for(anna.reader, 10)  # closed by the server
        assert anna.messages[-1]["code"] == "logged_out"
        presence = [m for m in bernd.messages if m["type"] == "presence"][-1]
        assert anna.user_id in presence["online"]  # her other session plays on
        await other_device.send({"type": "ping", "id": "still"})
        assert (await other_device.expect("pong"))["id"] == "still"
        url = module_server.base_url.replace("http://", "ws://") + "/ws"
        async with connect(url, additional_headers={"Cookie": f"{COOKIE}={token}"}) as ws:
            assert json.loads(await ws.recv())["code"] == "login_required"
        for client in [*clients, other_device]:
            await client.aclose()

    asyncio.run(scenario())


def test_a_spectator_who_leaves_the_room_is_sent_nothing_more(module_server: Any) -> None:
    async def scenario() -> None:
        clients, room, token = await make_room(module_server.base_url, "dreierles", NAMES)
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        watcher = Client(module_server.base_url, "Kiebitz")
        await watcher.register()
        joined = await watcher.http.post(f"/api/invite/{token}/join", json={"role": "spectator"})
        joined.raise_for_status()
        await watcher.connect(room)
        assert (await watcher.http.post(f"/api/rooms/{room}/leave")).status_code == 204
        assert watcher.reader is not None
        await asyncio.wait_for(watcher.reader, 10)  # closed by the server
        seen = len(watcher.messages)
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        text = actor.view["legal_actions"][0]
        await actor.send({"type": "action", "action": text, "v": actor.version, "id": "nach"})
        event = await actor.expect_ack("nach")
        await settle(clients, event["v"])
        assert len(watcher.messages) == seen  # the event did not reach him
        await watcher.open_socket()  # and he cannot come back in
        await watcher.send({"type": "hello", "room": room})
        assert (await watcher.expect("error"))["code"] == "not_a_member"
        for client in [*clients, watcher]:
            await client.aclose()

    asyncio.run(scenario())
