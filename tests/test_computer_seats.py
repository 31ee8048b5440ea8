"""Computer players' seats in rooms over HTTP against a real uvicorn server: the host seats,
moves and removes them; bad input gets a coded error and changes nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from server.store.rooms import MAX_RUNNING_HOSTED
from tests.support import Guest
from tests.support import api_error as error
from tests.test_rooms import create, join, me, token_of

pytestmark = pytest.mark.live_server


def room_of(client: httpx.Client, room: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{room['id']}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def seated(room: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [(m["display_name"], m["kind"], m["level"]) for m in room["members"]
            if m["role"] == "player"]  # fmt: skip


def add(client: httpx.Client, room: dict[str, Any], level: Any) -> httpx.Response:
    return client.post(f"/api/rooms/{room['id']}/computers", json={"level": level})


def test_the_host_seats_moves_and_removes_computer_players(guest: Guest) -> None:
    host, friend = guest("Wirtin"), guest("Freund")
    room = create(host, "doppelkopf")
    assert room["computer_pause_ms"] == [800, 1500]
    first = add(host, room, "einsteiger")
    assert first.status_code == 201, first.text
    computer = first.json()["members"][1]
    assert computer["kind"] == "computer" and computer["level"] == "einsteiger"
    assert computer["display_name"] == "Computer 1" and computer["seat_order"] == 1
    assert computer["user_id"] == -computer["computer_id"] < 0 and not computer["is_host"]
    assert join(friend, room).status_code == 200
    assert add(host, room, "stark").status_code == 201
    now = room_of(host, room)
    assert seated(now) == [
        ("Wirtin", "person", None), ("Computer 1", "computer", "einsteiger"),
        ("Freund", "person", None), ("Computer 2", "computer", "stark"),
    ]  # fmt: skip
    assert now["seats_free"] == 0
    # the friend sees them too
    assert seated(room_of(friend, room)) == seated(now)

    # moved like a member: the seat order names a computer player by its negative id
    ids = [m["user_id"] for m in now["members"]]
    moved = host.put(f"/api/rooms/{room['id']}/seats", json={"order": ids[::-1]})
    assert moved.status_code == 200, moved.text
    assert [n for n, *_ in seated(moved.json())] == ["Computer 2", "Freund", "Computer 1", "Wirtin"]

    # removed like a member; the seats close up, the next one added takes the free name
    removed = host.delete(f"/api/rooms/{room['id']}/computers/{computer['computer_id']}")
    assert removed.status_code == 200, removed.text
    order = [(m["display_name"], m["seat_order"]) for m in removed.json()["members"]]
    assert order == [("Computer 2", 0), ("Freund", 1), ("Wirtin", 2)]
    again = add(host, room, "einsteiger").json()
    assert seated(again)[-1] == ("Computer 1", "computer", "einsteiger")

    # the invite preview shows them as computer players
    preview = httpx.get(f"{host.base_url}/api/invite/{token_of(room)}").json()
    assert {(m["display_name"], m["kind"]) for m in preview["members"]} >= {
        ("Computer 2", "computer")
    }


def test_bad_input_gets_a_coded_error_and_changes_nothing(guest: Guest) -> None:
    host, friend, stranger = guest("Gastgeber"), guest("Mitspieler"), guest("Fremder")
    room = create(host, "dreierles")
    assert join(friend, room).status_code == 200
    before = room_of(host, room)

    error(add(friend, room, "stark"), 403, "not_host")
    error(add(stranger, room, "stark"), 404, "room_not_found")
    for level in ("random", "grossmeister", "Stark", ""):
        error(add(host, room, level), 422, "unknown_level")
    for body in ({}, {"level": 3}, {"level": "stark", "seat": 2}, {"level": "x" * 41}):
        response = host.post(f"/api/rooms/{room['id']}/computers", json=body)
        assert response.status_code == 422, response.text
    assert room_of(host, room) == before

    computer = add(host, room, "stark").json()["members"][2]
    assert add(host, room, "einsteiger").status_code == 201
    full = room_of(host, room)
    error(add(host, room, "einsteiger"), 409, "room_full")  # Dreierles seats four
    error(host.delete(f"/api/rooms/{room['id']}/computers/{computer['computer_id']}"
                      .replace(str(computer["computer_id"]), "999999")), 404,
          "computer_not_found")  # fmt: skip
    friend_row = next(m for m in full["members"] if m["display_name"] == "Mitspieler")
    error(host.delete(f"/api/rooms/{room['id']}/computers/{friend_row['user_id']}"), 404,
          "computer_not_found")  # a person is no computer player  # fmt: skip
    error(friend.delete(f"/api/rooms/{room['id']}/computers/{computer['computer_id']}"), 403,
          "not_host")  # fmt: skip
    error(host.put(f"/api/rooms/{room['id']}/seats", json={"order": [me(host), me(friend)]}),
          422, "bad_seat_order")  # fmt: skip
    assert room_of(host, room) == full

    # once the match has started, nothing changes the seats
    started = host.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    playing = room_of(host, room)
    error(add(host, room, "stark"), 409, "room_not_open")
    error(host.delete(f"/api/rooms/{room['id']}/computers/{computer['computer_id']}"), 409,
          "room_not_open")  # fmt: skip
    assert room_of(host, room) == playing


@pytest.mark.parametrize("pause", [[5, 1], [0, 10_001], [-1, 0], [1], [1, 2, 3], ["1", "2"]])
def test_a_bad_computer_pause_is_refused(guest: Guest, pause: Any) -> None:
    host = guest("Wirt")
    response = host.post("/api/rooms", json={"name": "x", "game": "doppelkopf",
                                             "computer_pause_ms": pause})  # fmt: skip
    assert response.status_code == 422, response.text
    if isinstance(pause[0], int) and len(pause) == 2:
        error(response, 422, "bad_computer_pause")
    assert create(host, "doppelkopf", computer_pause_ms=[0, 0])["computer_pause_ms"] == [0, 0]


def test_a_practice_room_starts_at_once(guest: Guest) -> None:
    me_ = guest("Übende")
    answer = me_.post("/api/practice", json={"game": "doppelkopf", "level": "stark"})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    room = body["room"]
    assert room["status"] == "playing" and isinstance(body["match_id"], int)
    assert room["game"] == "doppelkopf" and room["host_id"] == me(me_)
    assert seated(room) == [("Übende", "person", None)] + [
        (f"Computer {n}", "computer", "stark") for n in (1, 2, 3)
    ]
    three = me_.post("/api/practice", json={"game": "dreierles"}).json()["room"]
    assert seated(three) == [("Übende", "person", None), ("Computer 1", "computer", "einsteiger"),
                             ("Computer 2", "computer", "einsteiger")]  # fmt: skip
    assert [r["id"] for r in me_.get("/api/rooms").json()["rooms"]][:2] == [three["id"], room["id"]]


def test_a_bad_practice_request_changes_nothing(guest: Guest) -> None:
    me_ = guest("Zögerer")
    before = me_.get("/api/rooms").json()
    error(me_.post("/api/practice", json={"game": "schafkopf-gibts-nicht"}), 422, "unknown_game")
    for level in ("random", "meister"):
        error(me_.post("/api/practice", json={"game": "doppelkopf", "level": level}), 422,
              "unknown_level")  # fmt: skip
    response = me_.post("/api/practice", json={"game": "doppelkopf", "seats": 4})
    assert response.status_code == 422
    assert me_.get("/api/rooms").json() == before
    logged_out = httpx.post(f"{me_.base_url}/api/practice", json={"game": "doppelkopf"})
    assert logged_out.status_code == 401


def test_a_practice_match_ended_early_is_in_the_archive(guest: Guest) -> None:
    """The archive and the statistics read a match with computer players (their ids are
    negative: no account) without trouble."""
    me_ = guest("Archivarin")
    body = me_.post("/api/practice", json={"game": "dreierles"}).json()
    room, match_id = body["room"], body["match_id"]
    ended = me_.post(f"/api/rooms/{room['id']}/end")  # she alone decides
    assert ended.status_code == 200 and ended.json()["ended"], ended.text
    listed = me_.get("/api/history/matches")
    assert listed.status_code == 200, listed.text
    match = next(m for m in listed.json()["matches"] if m["id"] == match_id)
    assert [p["name"] for p in match["players"]] == ["Archivarin", "Computer 1", "Computer 2"]
    assert [p["user_id"] < 0 for p in match["players"]] == [False, True, True]
    for path in (f"/api/history/matches/{match_id}", "/api/history/stats",
                 f"/archive/matches/{match_id}", "/archive"):  # fmt: skip
        assert me_.get(path).status_code == 200, path


def test_the_room_page_says_the_computer_players_pace_where_they_sit(guest: Guest) -> None:
    host = guest("Tempo")
    room = create(host, "doppelkopf")
    assert 'data-rule="computer-pace"' not in host.get(f"/rooms/{room['id']}").text
    assert add(host, room, "einsteiger").status_code == 201
    page = host.get(f"/rooms/{room['id']}").text
    assert 'data-rule="computer-pace"' in page and "0,8–1,5 s" in page
    assert "0.8–1.5 s" in host.get(f"/rooms/{room['id']}?lang=en").text


def test_one_person_hosts_a_bounded_number_of_running_matches(guest: Guest) -> None:
    """A script starting practice matches without end is stopped at the limit with a coded
    error that stores nothing; ending one makes room for the next."""
    limit = MAX_RUNNING_HOSTED
    me_ = guest("Dauerübende")
    started = []
    for _ in range(limit):
        answer = me_.post("/api/practice", json={"game": "dreierles"})
        assert answer.status_code == 201, answer.text
        started.append(answer.json()["room"]["id"])
    before = me_.get("/api/rooms").json()
    refused = error(me_.post("/api/practice", json={"game": "dreierles"}), 409, "too_many_matches")
    assert str(limit) in refused["message"]
    # an ordinary room of hers cannot start either, and stays open
    room = create(me_, game="dreierles")
    for _ in range(2):
        assert add(me_, room, "einsteiger").status_code == 201
    error(me_.post(f"/api/rooms/{room['id']}/start"), 409, "too_many_matches")
    assert room_of(me_, room)["status"] == "open"
    after = me_.get("/api/rooms").json()
    assert [r["id"] for r in after["rooms"] if r["id"] != room["id"]] == [
        r["id"] for r in before["rooms"]
    ]
    # one ended: the next starts
    ended = me_.post(f"/api/rooms/{started[0]}/end")
    assert ended.status_code == 200 and ended.json()["ended"], ended.text
    assert me_.post(f"/api/rooms/{room['id']}/start").status_code == 200
