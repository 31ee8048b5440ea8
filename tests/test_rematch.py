"""Around the table over HTTP and the table protocol, on SQLite and PostgreSQL: ending a
running match by agreement, Revanche (same people, same options, one tap each), leaving,
the room list's your-turn marker and a spectator who joins a running match."""

from __future__ import annotations

import random
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.pool import NullPool

from server.store.db import make_engine
from server.store.models import Match
from tests.table_client import Client, make_room, start, step
from tests.test_tables import connect_all, join_as_spectator, play_to_end, run

DOPPELKOPF = ["Ute", "Paul", "Rita", "Olaf"]
EVENING = {"pflichtsolo_rule": False, "solo_replay": False, "start_points": 20}


async def stored_matches(db_url: str) -> list[dict[str, Any]]:
    """Every stored match: id, room, status, players, config, in order."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            rows = await db.execute(
                select(Match.id, Match.room_id, Match.status, Match.player_ids, Match.config,
                       Match.finished_at).order_by(Match.id)
            )  # fmt: skip
            return [
                {"id": i, "room_id": r, "status": s, "player_ids": p, "config": c, "finished_at": f}
                for i, r, s, p, c, f in rows.all()
            ]
    finally:
        await engine.dispose()


async def post(client: Client, path: str, status: int = 200) -> Any:
    response = await client.http.post(path)
    assert response.status_code == status, response.text
    return response.json() if response.content else None


def code_of(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


async def listed(client: Client) -> dict[int, dict[str, Any]]:
    response = await client.http.get("/api/rooms")
    assert response.status_code == 200
    return {room["id"]: room for room in response.json()["rooms"]}


def test_end_by_agreement_then_revanche_with_the_same_people_and_options(
    play_server: tuple[str, str],
) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        players, room, token = await make_room(
            live_server,
            "doppelkopf",
            DOPPELKOPF,
            rounds=0,
            options={"dulle": "first"},
            match_options=EVENING,
            next_deal_pause_seconds=20,
        )
        ute, paul, rita, olaf = players
        first = await start(ute, room)
        watcher = await join_as_spectator(live_server, token)  # joins the running match
        await connect_all([*players, watcher], room)
        assert watcher.view is not None and watcher.view["seat"] is None
        (stored,) = await stored_matches(db_url)
        assert stored["id"] == first and stored["status"] == "running"
        config = stored["config"]
        assert config["options"]["dulle"] == "first"
        assert (config["pflichtsolo_rule"], config["solo_replay"]) == (False, False)
        assert (config["start_points"], config["next_deal_pause_seconds"]) == (20, 20)
        assert (config["kurzer_limit"], config["depot_cents"]) == (7, 50)  # the defaults

        # the room list marks the room for exactly the player to move
        await step(players, random.Random(3))
        for client in players:
            mine = (await listed(client))[room]
            assert mine["status"] == "playing"
            assert mine["your_turn"] is client.my_turn()
        assert sum(c.my_turn() for c in players) == 1
        assert (await listed(watcher))[room]["your_turn"] is False

        # during the match: no leaving, no Revanche, spectators do not vote
        refused = await paul.http.post(f"/api/rooms/{room}/leave")
        assert refused.status_code == 409 and code_of(refused) == "end_by_agreement"
        refused = await paul.http.post(f"/api/rooms/{room}/rematch")
        assert refused.status_code == 409 and code_of(refused) == "room_not_finished"
        refused = await watcher.http.post(f"/api/rooms/{room}/end")
        assert refused.status_code == 403 and code_of(refused) == "not_a_player"

        for client in (ute, paul, rita):
            answer = await post(client, f"/api/rooms/{room}/end")
            assert answer["ended"] is False
        withdrawn = await rita.http.delete(f"/api/rooms/{room}/end")
        assert withdrawn.status_code == 200
        assert sorted(withdrawn.json()["room"]["end_votes"]) == sorted([ute.user_id, paul.user_id])
        assert (await post(olaf, f"/api/rooms/{room}/end"))["ended"] is False
        answer = await post(rita, f"/api/rooms/{room}/end")
        assert answer["ended"] is True and answer["room"]["status"] == "finished"
        assert answer["room"]["end_votes"] == []
        (stored,) = await stored_matches(db_url)
        assert stored["status"] == "ended" and stored["finished_at"] is not None

        # everybody at the table is told at once: the final snapshot says "ended early"
        for client in [*players, watcher]:
            final = await client.expect("snapshot")
            assert final["match"]["finished"] is True and final["match"]["ended_early"] is True
            assert final["turn"] == {"seat": None, "ends_in": None}
            assert final["between_deals"] is None

        # the table takes no more actions
        mover = next((c for c in players if c.view and c.view["legal_actions"]), ute)
        assert mover.view is not None
        action = mover.view["legal_actions"][0]
        await mover.send({"type": "action", "action": action, "v": mover.version, "id": "late"})
        error = await mover.expect("error")
        assert error["code"] == "match_finished"

        # the archive shows it as ended early; "Meine Räume" no longer lists it
        history = await ute.http.get("/api/history/matches")
        assert history.status_code == 200, history.text
        entry = next(m for m in history.json()["matches"] if m["id"] == first)
        assert entry["status"] == "ended"
        assert room not in await listed(ute)

        # Revanche: one tap offers, one tap each accepts, the new match starts
        answer = await post(paul, f"/api/rooms/{room}/rematch")
        assert answer["match_id"] is None
        assert answer["room"]["rematch"] == {"by": paul.user_id, "accepted": [paul.user_id]}
        assert (await listed(ute))[room]["rematch"]["by"] == paul.user_id
        refused = await watcher.http.post(f"/api/rooms/{room}/rematch")
        assert refused.status_code == 403 and code_of(refused) == "not_a_player"
        again = await post(paul, f"/api/rooms/{room}/rematch")  # a second tap changes nothing
        assert again["room"]["rematch"]["accepted"] == [paul.user_id]
        assert (await post(ute, f"/api/rooms/{room}/rematch"))["match_id"] is None
        assert (await post(olaf, f"/api/rooms/{room}/rematch"))["match_id"] is None
        answer = await post(rita, f"/api/rooms/{room}/rematch")
        second = answer["match_id"]
        assert isinstance(second, int) and second != first
        assert answer["room"]["status"] == "playing" and answer["room"]["rematch"] is None
        old, new = await stored_matches(db_url)
        assert (new["id"], new["room_id"], new["status"]) == (second, room, "running")
        assert new["player_ids"] == old["player_ids"]
        same = {k: v for k, v in old["config"].items() if k != "first_dealer"}
        assert {k: v for k, v in new["config"].items() if k != "first_dealer"} == same

        # the new match is played at the same table
        for client in players:
            await client.close_socket()
        await connect_all(players, room)
        assert ute.snapshot is not None and ute.snapshot["match"]["deal_number"] == 1
        assert await play_to_end(players, seed=5, limit=3) == 3
        for client in [*players, watcher]:
            await client.aclose()

    run(scenario())


def test_revanche_after_a_match_played_to_its_end(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        players, room, _token = await make_room(
            live_server, "dreierles", ["Anna", "Bernd", "Catrin"], stake_cents=20
        )
        first = await start(players[0], room)
        await connect_all(players, room)
        await play_to_end(players, seed=11)
        assert players[0].snapshot is not None and players[0].snapshot["match"]["finished"]
        late = await players[0].http.post(f"/api/rooms/{room}/end")
        assert late.status_code == 409 and code_of(late) == "room_not_open"
        (stored,) = await stored_matches(db_url)
        assert stored["status"] == "finished"
        for client in players:
            assert room not in await listed(client)
        offered = await post(players[1], f"/api/rooms/{room}/rematch")
        assert offered["match_id"] is None
        assert (await post(players[2], f"/api/rooms/{room}/rematch"))["match_id"] is None
        second = (await post(players[0], f"/api/rooms/{room}/rematch"))["match_id"]
        assert isinstance(second, int) and second != first
        old, new = await stored_matches(db_url)
        assert new["player_ids"] == old["player_ids"] and new["status"] == "running"
        assert (
            new["config"]["stake_cents"] == 20
            and new["config"]["options"] == (old["config"]["options"])
        )
        for client in players:
            await client.aclose()

    run(scenario())


def test_leaving_a_room(play_server: tuple[str, str]) -> None:
    live_server, _db_url = play_server

    async def scenario() -> None:
        players, room, token = await make_room(live_server, "dreierles", ["Anna", "Bernd"])
        anna, bernd = players
        watcher = await join_as_spectator(live_server, token)
        outsider = Client(live_server, "Fremd")
        await outsider.register()
        missing = await outsider.http.post(f"/api/rooms/{room}/leave")
        assert missing.status_code == 404 and code_of(missing) == "room_not_found"
        # the host leaves an open room: the next player hosts it
        assert await post(anna, f"/api/rooms/{room}/leave", 204) is None
        shown = await bernd.http.get(f"/api/rooms/{room}")
        assert shown.json()["host_id"] == bernd.user_id
        assert [(m["display_name"], m["seat_order"]) for m in shown.json()["members"]] == [
            ("Bernd", 0), ("Kiebitz", None)
        ]  # fmt: skip
        assert (await anna.http.get(f"/api/rooms/{room}")).status_code == 404
        assert room not in await listed(anna)
        # a spectator may leave at any time
        assert await post(watcher, f"/api/rooms/{room}/leave", 204) is None
        assert room not in await listed(watcher)
        for client in (anna, bernd, watcher, outsider):
            await client.aclose()

    run(scenario())
