"""Requests around the match at the table (issue 28) over real sockets: a request to end
the match by agreement and a Revanche offer, made over HTTP (from the room page or the
table), reach every socket at the live table at once (``requests``), players' and
spectators' alike; the table's snapshot carries them, so a reload shows them; a "no" at the
table withdraws every agreement and says who; a spectator or a stranger is refused with a
coded error and nothing changes or is pushed."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.table_client import Client, make_room, start
from tests.test_tables import join_as_spectator

NAMES = ["Anna", "Bernd", "Catrin"]


def code_of(response: httpx.Response) -> str:
    """The error code of an API refusal."""
    code: str = response.json()["error"]["code"]
    return code


async def requests_everywhere(sockets: list[Client]) -> list[dict[str, Any]]:
    """The next ``requests`` message of every socket."""
    return [await client.expect("requests") for client in sockets]


def no_requests_yet(sockets: list[Client]) -> bool:
    """Whether none of the messages every socket has and has not read is a ``requests``
    (they are read now)."""
    unread = []
    for client in sockets:
        while not client.inbox.empty():
            unread.append(client.inbox.get_nowait())
    return all(message["type"] != "requests" for message in unread)


def test_requests_reach_the_table_and_are_answered_there(live_server: str) -> None:
    async def run() -> None:
        clients, room, token = await make_room(live_server, "dreierles", NAMES)
        anna, bernd, catrin = clients
        kiebitz = await join_as_spectator(live_server, token)
        stranger = Client(live_server, "Fremd")
        await stranger.register()
        everybody = [*clients, kiebitz]
        try:
            await start(anna, room)
            for client in everybody:
                snapshot = await client.connect(room)
                assert snapshot["requests"] == {"rematch": None, "end_votes": []}
            # Anna asks to end the match on the room page: every socket at the table is told
            answer = await anna.http.post(f"/api/rooms/{room}/end")
            assert answer.status_code == 200 and answer.json()["ended"] is False
            for told in await requests_everywhere(everybody):
                assert told == {"type": "requests", "rematch": None,
                                "end_votes": [anna.user_id], "declined_by": None}  # fmt: skip
            # a reload shows it
            await bernd.close_socket()
            snapshot = await bernd.connect(room)
            assert snapshot["requests"] == {"rematch": None, "end_votes": [anna.user_id]}
            # a spectator and a stranger may neither agree nor say no: nothing changes
            for who, path, status, code in (
                (kiebitz, "end", 403, "not_a_player"),
                (kiebitz, "end/decline", 403, "not_a_player"),
                (stranger, "end", 404, "room_not_found"),
                (stranger, "end/decline", 404, "room_not_found"),
            ):
                refused = await who.http.post(f"/api/rooms/{room}/{path}")
                assert (refused.status_code, code_of(refused)) == (status, code)
            shown = (await anna.http.get(f"/api/rooms/{room}")).json()
            assert shown["end_votes"] == [anna.user_id] and shown["status"] == "playing"
            # Bernd says no at the table: every agreement is withdrawn, everybody told who
            declined = await bernd.http.post(f"/api/rooms/{room}/end/decline")
            assert declined.status_code == 200
            assert declined.json()["room"]["end_votes"] == []
            for told in await requests_everywhere(everybody):
                assert told == {"type": "requests", "rematch": None, "end_votes": [],
                                "declined_by": bernd.user_id}  # fmt: skip
            assert no_requests_yet(everybody)
            # all three agree at the table: the match ends, the final snapshot says so
            for voter, votes in ((catrin, [catrin.user_id]),
                                 (anna, sorted([anna.user_id, catrin.user_id]))):  # fmt: skip
                assert (await voter.http.post(f"/api/rooms/{room}/end")).status_code == 200
                for told in await requests_everywhere(everybody):
                    assert told["end_votes"] == votes
            assert (await bernd.http.post(f"/api/rooms/{room}/end")).json()["ended"] is True
            for client in everybody:
                final = await client.expect("snapshot")
                assert final["match"]["ended_early"] is True
                assert final["requests"] == {"rematch": None, "end_votes": []}
            # after it, a Revanche offer reaches the table; a spectator cannot join it
            offered = await catrin.http.post(f"/api/rooms/{room}/rematch")
            assert offered.status_code == 200 and offered.json()["match_id"] is None
            offer = {"by": catrin.user_id, "accepted": [catrin.user_id]}
            for told in await requests_everywhere(everybody):
                assert told == {"type": "requests", "rematch": offer, "end_votes": [],
                                "declined_by": None}  # fmt: skip
            refused = await kiebitz.http.post(f"/api/rooms/{room}/rematch")
            assert (refused.status_code, code_of(refused)) == (403, "not_a_player")
            await anna.close_socket()
            snapshot = await anna.connect(room)
            assert snapshot["requests"] == {"rematch": offer, "end_votes": []}
            assert (await anna.http.post(f"/api/rooms/{room}/rematch")).status_code == 200
            accepted = [catrin.user_id, anna.user_id]  # in the order they said yes
            for told in await requests_everywhere(everybody):
                assert told["rematch"] == {"by": catrin.user_id, "accepted": accepted}
            # the last one starts the Revanche: everybody at the table moves over
            started = await bernd.http.post(f"/api/rooms/{room}/rematch")
            match_id = started.json()["match_id"]
            for client in everybody:
                moved = await client.expect("new_match")
                assert moved["match_id"] == match_id
            assert no_requests_yet(everybody)
        finally:
            for client in [*everybody, stranger]:
                await client.aclose()

    asyncio.run(run())
