"""Games and rooms over HTTP against a real uvicorn server."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server.engine.registry import describe, get_rules, list_games
from server.store.names import name_key
from server.tables.matches import unique_names
from tests.support import Guest, LiveServer
from tests.support import api_error as error

pytestmark = pytest.mark.live_server


@pytest.fixture
def anonymous(module_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=module_server.base_url, timeout=15) as client:
        yield client


def create(client: httpx.Client, game: str = "doppelkopf", **fields: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"name": f"{game} am Freitag", "game": game,
                                               **fields})  # fmt: skip
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    return room


def token_of(room: dict[str, Any]) -> str:
    url: str = room["invite_url"]
    assert url.startswith("/r/")
    return url.removeprefix("/r/")


def join(client: httpx.Client, room: dict[str, Any], role: str = "player") -> httpx.Response:
    return client.post(f"/api/invite/{token_of(room)}/join", json={"role": role})


def me(client: httpx.Client) -> int:
    user_id: int = client.get("/api/me").json()["id"]
    return user_id


# --------------------------------------------------------------------------- games


def test_games_lists_the_registry_with_options(anonymous: httpx.Client) -> None:
    response = anonymous.get("/api/games")
    assert response.status_code == 200
    games = {g["name"]: g for g in response.json()}
    assert list(games) == [info.name for info in list_games()]
    for info in list_games():
        game = games[info.name]
        assert game["title"] == info.title
        assert game["players"] == list(info.players)
        assert game["implemented"] is info.implemented
        if not info.implemented:
            assert game["options"] == []
            continue
        per_room = [o for o in get_rules(info.name).options if o.per_room]
        assert [o["name"] for o in game["options"]] == [o.name for o in per_room]
        for shown, option in zip(game["options"], per_room, strict=True):
            assert shown["default"] == option.default
            assert shown["choices"] == list(option.choices)
            assert shown["help_de"] == option.help_de and shown["help_en"] == option.help_en
            assert shown["label"] == f"option.{info.name}.{option.name}"
            assert shown["help"] == f"option.{info.name}.{option.name}.help"
    assert games["doppelkopf"]["rounds"] == {
        "min": 0, "max": 200, "default": 0, "open_allowed": True, "unit": "deals"
    }  # fmt: skip
    assert games["dreierles"]["rounds"] == {
        "min": 1, "max": 50, "default": 4, "open_allowed": False, "unit": "rounds"
    }  # fmt: skip


def test_games_carry_the_description(anonymous: httpx.Client) -> None:
    games = {g["name"]: g for g in anonymous.get("/api/games").json()}
    for info in list_games():
        described = describe(info.name)
        assert {k: games[info.name][k] for k in described} == described
        one = anonymous.get(f"/api/games/{info.name}")
        assert one.status_code == 200
        assert one.json() == games[info.name]
    dreierles = games["dreierles"]
    assert dreierles["pack"] == "tarock" and dreierles["direction"] == "anticlockwise"
    assert dreierles["seat_labels"] == ["seat.vorhand", "seat.mittelhand", "seat.hinterhand"]
    assert dreierles["sheet"] == {
        "kind": "points",
        "better": "higher",
        "notes": [],
        "stake": True,
        "unit": "points",
    }
    assert dreierles["match_options"][0]["name"] == "final_round_special"
    assert games["doppelkopf"]["pots"] == ["depot"]
    assert games["bayerisches-tarock"]["pack"] == "german"
    assert games["bayerisches-tarock"]["direction"] == "clockwise"


@pytest.mark.parametrize("name", ["no-such-game", "DOPPELKOPF", "x" * 40])
def test_an_unknown_game_is_a_coded_404(anonymous: httpx.Client, name: str) -> None:
    response = anonymous.get(f"/api/games/{name}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"


# --------------------------------------------------------------------------- creation


def test_create_rooms_with_default_options(guest: Guest) -> None:
    host = guest("Wirt")  # guests may host rooms too
    dreierles = create(host, "dreierles")
    assert dreierles["options"]["counting"] == "whole"
    assert "final_round" not in dreierles["options"]
    doppelkopf = create(host, "doppelkopf", stake_cents=50, timer_seconds=30)
    assert doppelkopf["options"]["dulle"] == "second"
    assert doppelkopf["status"] == "open"
    assert (doppelkopf["stake_cents"], doppelkopf["rounds"], doppelkopf["timer_seconds"]) == (
        50,
        0,
        30,
    )
    assert doppelkopf["members"] == [
        {"user_id": me(host), "display_name": "Wirt", "role": "player", "seat_order": 0,
         "is_host": True, "kind": "person", "level": None, "computer_id": None},
    ]  # fmt: skip
    assert len(token_of(doppelkopf)) >= 32
    assert (doppelkopf["seats"], doppelkopf["seats_free"]) == (4, 3)
    mine = host.get("/api/rooms").json()["rooms"]
    assert [r["id"] for r in mine] == [doppelkopf["id"], dreierles["id"]]
    assert host.get(f"/api/rooms/{doppelkopf['id']}").json() == doppelkopf


def test_create_room_refusals(guest: Guest, anonymous: httpx.Client) -> None:
    host = guest("Wirt")
    bad = error(
        host.post("/api/rooms", json={"name": "R", "game": "doppelkopf",
                                      "options": {"dulle": "third"}}),
        422, "bad_option",
    )  # fmt: skip
    assert "dulle" in bad["message"] and "dulle" in bad["message_de"]
    error(host.post("/api/rooms", json={"name": "R", "game": "skat"}), 422, "unknown_game")
    error(host.post("/api/rooms", json={"name": "R", "game": "dreierles",
                                        "options": {"final_round": True}}),
          422, "option_not_per_room")  # fmt: skip
    error(host.post("/api/rooms", json={"name": "R", "game": "dreierles", "rounds": 0}), 422,
          "bad_rounds")  # fmt: skip
    error(host.post("/api/rooms", json={"name": "R", "game": "dreierles", "stake_cents": 20000}),
          422, "bad_stake")  # fmt: skip
    error(host.post("/api/rooms", json={"name": "R", "game": "dreierles", "timer_seconds": 5}),
          422, "bad_timer")  # fmt: skip
    wrong_type = error(
        host.post("/api/rooms", json={"name": "R", "game": "dreierles", "stake_cents": "10"}),
        422, "invalid_request",
    )  # fmt: skip
    assert "stake_cents" in wrong_type["message"]
    error(anonymous.post("/api/rooms", json={"name": "R", "game": "dreierles"}), 401,
          "login_required")  # fmt: skip
    error(anonymous.get("/api/rooms"), 401, "login_required")
    assert host.get("/api/rooms").json() == {"rooms": []}


#: The stake as typed in the form (euros) and the cents it stands for.
STAKES_READ = [("0,20", 20), ("0.20", 20), ("0,2", 20), ("0.2", 20), ("5", 500), (",50", 50),
               (" 1,50 € ", 150), ("0", 0), ("100", 10_000), ("100,00", 10_000)]  # fmt: skip
#: Stakes that are not plainly an amount: refused, never guessed.
STAKES_REFUSED = ["", " ", "abc", "0,205", "1.000", "1,000", "0,2,0", "0.2.0", "-1", "+1", "1e2",
                  "020,", "1.", "€", "0,1x", "1 000", "100,01", "1000", "٣"]  # fmt: skip


def test_the_stake_is_read_from_euros_with_a_comma_or_a_point(guest: Guest) -> None:
    host = guest("Wirt")
    for typed, cents in STAKES_READ:
        assert create(host, "dreierles", stake=typed)["stake_cents"] == cents, typed


def test_a_stake_that_is_not_plainly_an_amount_is_refused(guest: Guest) -> None:
    """Nothing is guessed: "0,205" or "1.000" (a thousands point?) is refused with a code
    and a message in both languages that says how to write it, and no room is made."""
    host = guest("Wirt")
    for typed in STAKES_REFUSED:
        bad = error(
            host.post("/api/rooms", json={"name": "R", "game": "dreierles", "stake": typed}),
            422, "bad_stake",
        )  # fmt: skip
        assert "0,20" in bad["message_de"] or "100 €" in bad["message_de"], bad
        assert "0.20" in bad["message"] or "100 euros" in bad["message"], bad
    assert host.get("/api/rooms").json() == {"rooms": []}


def test_the_stake_is_given_once(guest: Guest) -> None:
    host = guest("Wirt")
    body = {"name": "R", "game": "dreierles", "stake": "0,20", "stake_cents": 20}
    error(host.post("/api/rooms", json=body), 422, "bad_stake")
    wrong_type = error(
        host.post("/api/rooms", json={"name": "R", "game": "dreierles", "stake": 0.2}),
        422, "invalid_request",
    )  # fmt: skip
    assert "stake" in wrong_type["message"]


# --------------------------------------------------------------------------- invites


def test_invite_preview_and_join(guest: Guest, anonymous: httpx.Client) -> None:
    host = guest("Wirt")
    room = create(host, "dreierles", options={"counting": "thirds"}, stake_cents=20, rounds=6)
    preview = anonymous.get(f"/api/invite/{token_of(room)}")
    assert preview.status_code == 200
    shown = preview.json()
    assert shown["name"] == room["name"]
    assert shown["game"] == "dreierles" and shown["game_title"] == "Dreierles"
    assert (shown["stake_cents"], shown["rounds"]) == (20, 6)
    assert shown["host_name"] == "Wirt"
    assert shown["members"] == [
        {"display_name": "Wirt", "role": "player", "is_host": True, "kind": "person",
         "level": None}
    ]  # fmt: skip
    assert shown["allow_spectators"] is False
    assert (shown["seats"], shown["seats_free"]) == (4, 3)
    assert shown["your_role"] is None
    options = {o["name"]: o for o in shown["options"]}
    assert options["counting"]["value"] == "thirds"
    rules = {o.name: o for o in get_rules("dreierles").options}
    for name, option in options.items():
        assert option["help_de"] == rules[name].help_de
        assert option["help_en"] == rules[name].help_en
    assert "id" not in shown and "invite_url" not in shown

    error(anonymous.get("/api/invite/not-a-token"), 404, "invite_not_found")
    error(join(anonymous, room), 401, "login_required")

    player = guest("Spieler")
    joined = join(player, room)
    assert joined.status_code == 200, joined.text
    members = joined.json()["members"]
    assert [(m["display_name"], m["role"], m["seat_order"]) for m in members] == [
        ("Wirt", "player", 0),
        ("Spieler", "player", 1),
    ]
    assert player.get(f"/api/rooms/{room['id']}").status_code == 200
    assert [r["id"] for r in player.get("/api/rooms").json()["rooms"]] == [room["id"]]
    assert player.get(f"/api/invite/{token_of(room)}").json()["your_role"] == "player"
    assert join(player, room).status_code == 200  # again: nothing changes
    error(
        player.post(f"/api/invite/{token_of(room)}/join", json={"role": "kiebitz"}),
        422,
        "invalid_request",
    )


def test_spectators_only_where_allowed(guest: Guest) -> None:
    host = guest("Wirt")
    closed = create(host, "doppelkopf")
    watcher = guest("Kiebitz")
    error(join(watcher, closed, "spectator"), 403, "spectators_not_allowed")
    error(watcher.get(f"/api/rooms/{closed['id']}"), 404, "room_not_found")

    public = create(host, "doppelkopf", allow_spectators=True)
    joined = join(watcher, public, "spectator")
    assert joined.status_code == 200
    spectator = [m for m in joined.json()["members"] if m["display_name"] == "Kiebitz"]
    assert spectator == [{"user_id": me(watcher), "display_name": "Kiebitz",
                          "role": "spectator", "seat_order": None, "is_host": False,
                          "kind": "person", "level": None, "computer_id": None}]  # fmt: skip
    assert joined.json()["seats_free"] == 3


def test_fifth_doppelkopf_player_is_refused(guest: Guest) -> None:
    host = guest("A")
    room = create(host, "doppelkopf")
    for name in ("B", "C", "D"):
        assert join(guest(name), room).status_code == 200
    full = error(join(guest("E"), room), 409, "room_full")
    assert full["message_de"]
    assert host.get(f"/api/rooms/{room['id']}").json()["seats_free"] == 0


def test_non_members_never_see_a_room(guest: Guest, anonymous: httpx.Client) -> None:
    host = guest("Wirt")
    room = create(host, "dreierles", allow_spectators=True)
    outsider = guest("Fremder")
    hidden = outsider.get(f"/api/rooms/{room['id']}")
    missing = outsider.get("/api/rooms/999999")
    assert error(hidden, 404, "room_not_found") == error(missing, 404, "room_not_found")
    assert room["name"] not in hidden.text and token_of(room) not in hidden.text
    error(anonymous.get(f"/api/rooms/{room['id']}"), 401, "login_required")
    error(outsider.put(f"/api/rooms/{room['id']}/seats", json={"order": [me(host)]}), 404,
          "room_not_found")  # fmt: skip
    error(outsider.delete(f"/api/rooms/{room['id']}/members/{me(host)}"), 404, "room_not_found")
    error(outsider.post(f"/api/rooms/{room['id']}/start"), 404, "room_not_found")
    error(outsider.get("/api/rooms/not-a-number"), 422, "invalid_request")
    assert outsider.get("/api/rooms").json() == {"rooms": []}


# --------------------------------------------------------------------------- seats


def test_host_reorders_seats(guest: Guest) -> None:
    host = guest("A")
    room = create(host, "dreierles", allow_spectators=True)
    b, c, watcher = guest("B"), guest("C"), guest("W")
    join(b, room)
    join(c, room)
    join(watcher, room, "spectator")
    ids = {name: me(client) for name, client in (("A", host), ("B", b), ("C", c), ("W", watcher))}
    url = f"/api/rooms/{room['id']}/seats"

    reordered = host.put(url, json={"order": [ids["C"], ids["A"], ids["B"]]})
    assert reordered.status_code == 200, reordered.text
    players = [m for m in reordered.json()["members"] if m["role"] == "player"]
    assert [(m["display_name"], m["seat_order"]) for m in players] == [
        ("C", 0),
        ("A", 1),
        ("B", 2),
    ]
    for order in (
        [ids["C"], ids["A"]],
        [ids["C"], ids["A"], ids["B"], ids["W"]],
        [ids["C"], ids["A"], ids["W"]],
        [ids["C"], ids["C"], ids["B"]],
    ):
        error(host.put(url, json={"order": order}), 422, "bad_seat_order")
    error(b.put(url, json={"order": [ids["A"], ids["B"], ids["C"]]}), 403, "not_host")
    error(host.put(url, json={"order": "A,B,C"}), 422, "invalid_request")


def test_host_removes_members(guest: Guest) -> None:
    host = guest("A")
    room = create(host, "dreierles")
    b, c = guest("B"), guest("C")
    join(b, room)
    join(c, room)
    base = f"/api/rooms/{room['id']}/members"
    error(b.delete(f"{base}/{me(c)}"), 403, "not_host")
    error(host.delete(f"{base}/{me(host)}"), 409, "cannot_remove_host")
    error(host.delete(f"{base}/999999"), 404, "member_not_found")
    removed = host.delete(f"{base}/{me(b)}")
    assert removed.status_code == 200
    assert [(m["display_name"], m["seat_order"]) for m in removed.json()["members"]] == [
        ("A", 0),
        ("C", 1),
    ]
    # the removed friend is told who removed them; anybody else learns nothing
    told = error(b.get(f"/api/rooms/{room['id']}"), 404, "removed_from_room")
    assert told["message_de"] == "Du wurdest von A aus dem Raum entfernt."
    assert told["message"] == "A removed you from this room."
    error(guest("D").get(f"/api/rooms/{room['id']}"), 404, "room_not_found")
    # joining again through the invite link forgets the removal
    join(b, room)
    assert b.get(f"/api/rooms/{room['id']}").status_code == 200


# --------------------------------------------------------------------------- start


def test_start_refusals(guest: Guest, module_server: LiveServer) -> None:
    host = guest("A")
    room = create(host, "doppelkopf")
    start = f"/api/rooms/{room['id']}/start"
    others = [guest(name) for name in ("B", "C")]
    for client in others:
        join(client, room)
    needs = error(host.post(start), 409, "not_enough_players")
    assert "4" in needs["message"]
    error(others[0].post(start), 403, "not_host")

    join(guest("D"), room)
    with sqlite3.connect(module_server.database_path) as conn:  # as if a match had started
        conn.execute("UPDATE rooms SET status = 'playing' WHERE id = ?", (room["id"],))
    error(host.post(start), 409, "room_not_open")
    error(join(guest("E"), room), 409, "room_not_open")


# --------------------------------------------------------------------------- names


def test_a_name_alike_a_members_cannot_join(guest: Guest) -> None:
    host = guest("Anna")
    room = create(host, "doppelkopf", allow_spectators=True)
    for name in ("anna", "ANNA ", "\uff21nna"):  # case, spaces, fullwidth letters
        refused = error(join(guest(name), room), 409, "name_taken")
        assert "Anna" in refused["message"] and "Anna" in refused["message_de"]
        assert "account page" in refused["message"] and "Kontoseite" in refused["message_de"]
    error(join(guest("anna"), room, "spectator"), 409, "name_taken")  # spectators too
    cyrillic = guest("\u0410\u043d\u043d\u0430")  # all Cyrillic: a name of its own
    assert join(cyrillic, room).status_code == 200
    other = guest("anna")
    renamed = other.patch("/api/me", json={"display_name": "Anna B."})
    assert renamed.status_code == 200
    joined = join(other, room)
    assert joined.status_code == 200, joined.text
    names = [m["display_name"] for m in joined.json()["members"]]
    assert names == ["Anna", "\u0410\u043d\u043d\u0430", "Anna B."]
    assert join(host, room).status_code == 200  # a member joining again changes nothing


def test_renaming_into_a_room_members_name_is_refused(guest: Guest) -> None:
    host = guest("Anna")
    room = create(host, "dreierles")
    bernd = guest("Bernd")
    join(bernd, room)
    refused = error(bernd.patch("/api/me", json={"display_name": " ANNA"}), 409, "name_taken")
    assert room["name"] in refused["message"] and room["name"] in refused["message_de"]
    assert bernd.get("/api/me").json()["display_name"] == "Bernd"
    error(host.patch("/api/me", json={"display_name": "bernd"}), 409, "name_taken")
    same = host.patch("/api/me", json={"display_name": "Anna", "language": "en"})
    assert same.status_code == 200  # one's own name is no clash
    outsider = guest("Xaver")
    assert outsider.patch("/api/me", json={"display_name": "Anna"}).status_code == 200


def test_alike_names_never_block_the_start(guest: Guest, module_server: LiveServer) -> None:
    """Names stored before the rules (or changed at the same moment) can still be alike;
    the match disambiguates them instead of the engine refusing with ``bad_players``."""
    names = ["Anna", "Bernd", "Catrin"]
    clients = [guest(name) for name in names]
    room = create(clients[0], "dreierles")
    for client in clients[1:]:
        assert join(client, room).status_code == 200
    ids = [me(client) for client in clients]
    with sqlite3.connect(module_server.database_path) as conn:  # as stored long ago
        conn.execute("UPDATE users SET display_name = 'Anna' WHERE id = ?", (ids[1],))
        conn.execute("UPDATE users SET display_name = 'Anna (2)' WHERE id = ?", (ids[2],))
    started = clients[0].post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    match = clients[0].get(f"/api/history/matches/{started.json()['match_id']}")
    assert match.status_code == 200, match.text
    players = {p["user_id"]: p["name"] for p in match.json()["match"]["players"]}
    assert [players[i] for i in ids] == ["Anna", "Anna (3)", "Anna (2)"]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["Anna", "Bernd", "Catrin"], ["Anna", "Bernd", "Catrin"]),
        (["Anna", "Anna", "Anna"], ["Anna", "Anna (2)", "Anna (3)"]),
        (["Anna", "Anna", "Anna (2)"], ["Anna", "Anna (3)", "Anna (2)"]),
        (["Anna", "anna", "ANNA", "B"], ["Anna", "anna (2)", "ANNA (3)", "B"]),
        (["Anna", "\u0410nna"], ["Anna", "\u0410nna (2)"]),  # a Cyrillic A, stored long ago
        (["Anna (2)", "Anna", "Anna"], ["Anna (2)", "Anna", "Anna (3)"]),
    ],
)
def test_unique_names(names: list[str], expected: list[str]) -> None:
    unique = unique_names(names)
    assert unique == expected
    assert len({name_key(n) for n in unique}) == len(names)


# --------------------------------------------------------------------------- the evening's rules


def test_games_list_the_evenings_rules_and_match_options(anonymous: httpx.Client) -> None:
    games = {g["name"]: g for g in anonymous.get("/api/games").json()}
    doko = games["doppelkopf"]
    assert [r["key"] for r in doko["rules"]] == [
        f"rule.doppelkopf.{name}"
        for name in ("countdown", "solo_dealer", "solo_replay", "max_solo_replays",
                     "pflichtsolo", "vorfuehrung", "end", "kurzer", "depot", "take_back")
    ]  # fmt: skip
    switches = {o["name"]: o for o in doko["match_options"]}
    settable = {*switches, *(o["name"] for o in doko["options"])}
    for rule in doko["rules"]:  # every option a rule names is one the room can set
        assert rule["option"] is None or rule["option"] in settable
    assert switches["pflichtsolo_rule"]["default"] is True
    assert switches["solo_replay"]["choices"] == [True, False]
    assert [r["option"] for r in games["dreierles"]["rules"]] == [
        None, None, "final_round_special", None, "take_back"
    ]  # fmt: skip


def test_create_room_with_match_options_and_pause(guest: Guest) -> None:
    host = guest("Wirtin")
    room = create(
        host,
        match_options={"solo_replay": False, "depot_cents": 20},
        next_deal_pause_seconds=30,
    )
    assert room["next_deal_pause_seconds"] == 30
    assert room["match_options"]["solo_replay"] is False
    assert room["match_options"]["depot_cents"] == 20
    assert room["match_options"]["pflichtsolo_rule"] is True
    assert room["rematch"] is None and room["end_votes"] == [] and room["your_turn"] is False
    plain = create(host, "dreierles")
    assert plain["next_deal_pause_seconds"] == 0
    assert plain["match_options"] == {"final_round_special": True}
    for fields, code in (
        ({"next_deal_pause_seconds": 121}, "bad_pause"),
        ({"next_deal_pause_seconds": "5"}, "invalid_request"),
        ({"match_options": {"solo_replay": "nein"}}, "bad_option"),
        ({"match_options": {"dulle": "first"}}, "not_a_match_option"),
    ):
        response = host.post("/api/rooms", json={"name": "x", "game": "doppelkopf", **fields})
        error(response, 422, code)


def test_evening_switches_take_effect() -> None:
    from tests.engine.test_doppelkopf_evening import evening, solo_deal

    no_replay = evening(solo_replay=False)
    no_replay.record(solo_deal(no_replay, won=False))
    assert no_replay.replay is None and no_replay.next_setup().note is None
    replay = evening()
    replay.record(solo_deal(replay, won=False))
    assert replay.next_setup().note == "replay"
    no_duty = evening(pflichtsolo_rule=False)
    assert no_duty.record(solo_deal(no_duty, won=True)).note == "lustsolo"
    assert no_duty.obligations == {name: [] for name in no_duty.players}
    from_config = type(no_duty).from_config(
        no_duty.players,
        {"rounds": 0, "first_dealer": 3, "pflichtsolo_rule": False, "solo_replay": False},
    )
    assert (from_config.pflichtsolo_rule, from_config.solo_replay) == (False, False)
