"""The game description and the match protocol every game's match implements.

Part one: :func:`server.engine.registry.describe` for all five games (the fields of
``docs/api.md`` "Games", the phases and options read from the playable games' rules,
the catalogue keys present in both languages). Part two: every implemented game's match
through :class:`server.engine.match.Match` only (scripted deals with exact sheet values,
recovery by replaying the records, pots moved per deal).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from server.api.i18n import load_catalogs
from server.engine.base import Deal, OptionValue
from server.engine.errors import MalformedError
from server.engine.match import Match
from server.engine.record import dump_record, load_record
from server.engine.registry import (
    GAMES,
    describe,
    get_rules,
    list_games,
    match_type,
    new_match,
    playable,
)

LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"
KEYS = {
    "name", "title", "implemented", "players", "seats", "dealer_sits_out", "direction",
    "pack", "seat_labels", "phases", "action_groups", "rounds", "sheet", "pots",
    "js_module", "options", "match_options", "rules", "summary", "warnings", "figures",
}  # fmt: skip


# --------------------------------------------------------------------------- description


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_is_described(name: str) -> None:
    info = describe(name)
    assert set(info) == KEYS
    assert info["name"] == info["js_module"] == name
    assert info["pack"] in ("tarock", "french48", "german")
    assert info["direction"] in ("anticlockwise", "clockwise")
    assert info["seats"] <= min(info["players"])
    assert info["dealer_sits_out"] == (max(info["players"]) > info["seats"])
    assert info["seat_labels"] == [] or len(info["seat_labels"]) == info["seats"]
    assert info["phases"] and info["phases"][-1] == "finished"
    assert info["sheet"]["kind"] in ("points", "counters")
    assert info["sheet"]["better"] in ("higher", "lower")
    rounds = info["rounds"]
    assert rounds["min"] <= rounds["default"] <= rounds["max"]
    assert rounds["unit"] in ("rounds", "deals")
    assert (rounds["min"] == 0) == rounds["open_allowed"]
    assert info["summary"] == f"game.{name}.summary"
    # a warning names options of the game, with values they can take
    choices = {o["name"]: o["choices"] for o in info["options"] + info["match_options"]}
    for warning in info["warnings"]:
        assert warning["key"].startswith(f"warning.{name}.")
        for option, value in warning["when"].items():
            assert value in choices[option], (option, value)
    # the game's own figures of the statistics, named in its catalogue
    for figure in info["figures"]:
        assert figure["label"] == f"archive.stats.{name}.{figure['key']}"


def test_doppelkopf_warns_of_lost_solos_replayed_without_a_cap() -> None:
    assert describe("doppelkopf")["warnings"] == [
        {
            "key": "warning.doppelkopf.endless_replays",
            "when": {"solo_replay": True, "max_solo_replays": 0},
        }
    ]


@pytest.mark.parametrize(
    ("name", "facts"),
    [
        ("doppelkopf", ("french48", "clockwise", [4], 4, ["depot"])),
        ("doppen", ("tarock", "anticlockwise", [3, 4], 3, ["pagatkasse"])),
        ("dreierles", ("tarock", "anticlockwise", [3, 4], 3, [])),
        ("tarock-zu-dritt", ("tarock", "anticlockwise", [3], 3, [])),
        ("bayerisches-tarock", ("german", "clockwise", [3, 4], 3, ["haferl"])),
    ],
)
def test_the_games_as_their_rules_texts_say(name: str, facts: tuple[Any, ...]) -> None:
    """The pack, direction, people, seats and pots each rules text gives (a game added
    later is checked by its own tests; this list does not have to grow)."""
    d = describe(name)
    assert (d["pack"], d["direction"], d["players"], d["seats"], d["pots"]) == facts


@pytest.mark.parametrize("name", playable())
def test_a_playable_game_is_described_from_its_rules(name: str) -> None:
    info = describe(name)
    rules = get_rules(name)
    assert info["phases"] == [p.value for p in rules.deal_type().Phase]
    per_room = [o for o in rules.options if o.per_room]
    assert [o["name"] for o in info["options"]] == [o.name for o in per_room]
    for shown, option in zip(info["options"], per_room, strict=True):
        assert shown["default"] == option.default and shown["choices"] == list(option.choices)
        assert shown["label"] == f"option.{name}.{option.name}"
        assert shown["help"] == f"option.{name}.{option.name}.help"
    assert [o["name"] for o in info["match_options"]] == [
        o.name for o in match_type(name).match_options
    ]
    assert info["sheet"]["kind"] == match_type(name).kind
    assert info["sheet"]["better"] == match_type(name).better
    assert rules.pack is not None and info["pack"] in ("tarock", "french48", "german")


def test_every_catalogue_key_of_the_descriptions_exists() -> None:
    catalogs = load_catalogs(LOCALE)
    for game in GAMES:
        info = describe(game)
        keys = [*info["seat_labels"], *info["action_groups"].values(), *info["sheet"]["notes"]]
        keys += [f"pack.{info['pack']}", info["summary"]]
        keys += [f"pot.{pot}" for pot in info["pots"]]
        keys += [f"rounds.unit.{info['rounds']['unit']}"]
        for option in info["options"] + info["match_options"]:
            keys += [option["label"], option["help"]]
        for lang in ("de", "en"):
            missing = [k for k in keys if k not in catalogs.messages[lang]]
            assert missing == [], (game, lang)
    for entry in list_games():  # the catalogue's summaries are the registry's
        assert catalogs.messages["de"][f"game.{entry.name}.summary"] == entry.summary_de
        assert catalogs.messages["en"][f"game.{entry.name}.summary"] == entry.summary_en
    for key in ("sheet.col.number", "sheet.col.values", "sheet.col.totals", "pot.reason.placing"):
        assert key in catalogs.messages["de"] and key in catalogs.messages["en"]


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(MalformedError) as err:
        describe("no-such-game")
    assert err.value.code == "unknown_game"


def test_match_options_come_from_the_config_and_are_checked() -> None:
    config: dict[str, Any] = {"rounds": 1, "first_dealer": 0, "stake_cents": 10, "options": {}}
    cls = match_type("doppelkopf")
    defaults: dict[str, OptionValue] = {o.name: o.default for o in cls.match_options}
    assert cls.read_match_options(config) == defaults
    assert cls.read_match_options({**config, "depot_cents": 20})["depot_cents"] == 20
    with pytest.raises(MalformedError):
        cls.read_match_options({**config, "depot_cents": 33})


# --------------------------------------------------------------------------- the protocol

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CONFIG: dict[str, Any] = {"first_dealer": 0, "stake_cents": 10, "options": {}}


def golden(game: str, name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / game / f"{name}.json").read_text("utf-8"))
    return record


def play_golden(match: Match[Deal], game: str, name: str) -> Deal:
    """The next deal of ``match`` with the cards and actions of a golden record (played by
    whoever the match seats; seats are positions, so the play and the outcome per seat
    are the record's), recorded on the sheet."""
    record = golden(game, name)
    deal = match.start_deal(load_record(record).dealt)
    for seat, text in record["actions"]:
        deal.act(seat, text)
    match.record(deal)
    return deal


def recovered(
    game: str, players: list[str], config: dict[str, Any], deals: list[Deal]
) -> Match[Any]:
    """A new match of the same config with the deals replayed from their records."""
    match = new_match(game, players, config)
    for deal in deals:
        match.record(load_record(dump_record(deal)))
    return match


def test_a_scripted_dreierles_partie() -> None:
    players = ["Anna", "Bernd", "Catrin"]
    config = {**CONFIG, "rounds": 2, "first_dealer": 2}
    match = new_match("dreierles", players, config)
    script = ["worked-example", "zweier", "raeuber", "final-solo", "final-raeuber", "final-solo"]
    deals = [play_golden(match, "dreierles", name) for name in script]
    sheet = match.to_json()
    assert (sheet["kind"], sheet["better"], sheet["start"]) == (
        "points", "higher", {"Anna": 0, "Bernd": 0, "Catrin": 0}
    )  # fmt: skip
    # seats (V, M, H) rotate anticlockwise from Catrin; each settlement per seat as recorded
    assert [(r["dealer"], r["contract"], r["declarer"]) for r in sheet["rows"]] == [
        ("Catrin", "einer", "Anna"),  # [9, -3, -6] for Anna, Bernd, Catrin
        ("Anna", "zweier", "Catrin"),  # [4, -8, 4] for Bernd, Catrin, Anna
        ("Bernd", "raeuber", None),  # [4, -8, 4] for Catrin, Anna, Bernd
        ("Catrin", "solo", "Bernd"),  # [24, -48, 24] for Anna, Bernd, Catrin
        ("Anna", "raeuber", None),  # [8, -16, 8] for Bernd, Catrin, Anna
        ("Bernd", "solo", "Anna"),  # [24, -48, 24] for Catrin, Anna, Bernd
    ]
    assert [tuple(r["values"].values()) for r in sheet["rows"]] == [
        (9, -3, -6), (4, 4, -8), (-8, 4, 4), (24, -48, 24), (8, 8, -16), (-48, 24, 24)
    ]  # fmt: skip
    assert [tuple(r["totals"].values()) for r in sheet["rows"]] == [
        (9, -3, -6), (13, 1, -14), (5, 5, -10), (29, -43, 14), (37, -35, -2), (-11, -11, 22)
    ]  # fmt: skip
    assert match.finished and sheet["finished"]
    assert sheet["progress"] == {"done": 6, "of": 6}
    assert sheet["totals"] == match.standing() == {"Anna": -11, "Bernd": -11, "Catrin": 22}
    assert sheet["placings"] == {"Anna": 2, "Bernd": 2, "Catrin": 1}
    assert sheet["balances_cents"] == {"Anna": -110, "Bernd": -110, "Catrin": 220}
    assert sheet["payments"] == [
        {"payer": "Bernd", "payee": "Catrin", "cents": 110},
        {"payer": "Anna", "payee": "Catrin", "cents": 110},
    ]
    assert sheet["pots"] == {} and match.pots_of_last_deal() == []
    assert recovered("dreierles", players, config, deals).to_json() == sheet


def test_a_scripted_evening_moves_the_depot_with_its_last_deal() -> None:
    players = ["Ute", "Paul", "Rita", "Olaf"]
    config = {**CONFIG, "rounds": 4, "first_dealer": 3}
    match = new_match("doppelkopf", players, config)
    deals, moved = [], []
    for name in ("normal", "schmeissen", "knocked-announced", "hochzeit"):
        deals.append(play_golden(match, "doppelkopf", name))
        moved.append([m.to_json() for m in match.pots_of_last_deal()])
    sheet = match.to_json()
    assert (sheet["kind"], sheet["better"]) == ("counters", "lower")
    assert sheet["start"] == dict.fromkeys(players, 30)
    # the dealer passes to the left, and deals again after a deal thrown in
    assert [(r["dealer"], r["contract"], r["declarer"]) for r in sheet["rows"]] == [
        ("Olaf", "normal", None),  # [2, -2, 2, -2] for Ute, Paul, Rita, Olaf
        ("Ute", "schmeissen", "Rita"),  # thrown in (by P2: Rita)
        ("Ute", "normal", None),  # [8, -8, 8, -8] for Paul, Rita, Olaf, Ute
        ("Paul", "hochzeit", "Olaf"),  # [-5, 5, -5, 5] for Rita, Olaf, Ute, Paul
    ]
    assert [r["values"] for r in sheet["rows"]] == [
        {"Ute": 2, "Paul": -2, "Rita": 2, "Olaf": -2},
        {"Ute": 0, "Paul": 0, "Rita": 0, "Olaf": 0},
        {"Ute": -8, "Paul": 8, "Rita": -8, "Olaf": 8},
        {"Ute": -5, "Paul": 5, "Rita": -5, "Olaf": 5},
    ]
    # only the winners' counters move, down by what they won
    assert [tuple(r["totals"].values()) for r in sheet["rows"]] == [
        (28, 30, 28, 30), (28, 30, 28, 30), (28, 22, 28, 22), (28, 17, 28, 17)
    ]  # fmt: skip
    assert [r["kurzer"] for r in sheet["rows"]] == [False, False, True, False]
    assert [r["note"] for r in sheet["rows"]] == [None] * 4
    assert match.finished and sheet["progress"] == {"done": 4, "of": 4}
    assert sheet["placings"] == {"Ute": 3, "Paul": 1, "Rita": 3, "Olaf": 1}
    # the Depot: placing × 0.50 €, moved by the deal that ended the evening
    depot = {"Ute": 150, "Paul": 50, "Rita": 150, "Olaf": 50}
    assert moved[:3] == [[], [], []]
    assert moved[3] == [
        {"pot": "depot", "player": name, "cents": cents, "reason": "placing", "placing": place}
        for (name, cents), place in zip(depot.items(), (3, 1, 3, 1), strict=True)
    ]
    assert sheet["pots"] == match.pots() == {"depot": depot}
    # the evening's money is what each pays into the Depot; nobody pays anybody else
    assert sheet["balances_cents"] == {name: -cents for name, cents in depot.items()}
    assert sheet["payments"] == [] and sheet["settlement"]["pots"]["depot"]["held"] == 400
    assert [e.total_cents for e in match.last_ledger().entries] == [-150, -50, -150, -50]
    assert sheet["rows"][-1]["pot_balances"] == {"depot": 400}
    assert recovered("doppelkopf", players, config, deals).to_json() == sheet


def run_to_the_end(game: str, players: list[str], config: dict[str, Any], seed: int) -> None:
    """A random match through the protocol only, checking its sheet after every deal."""
    rng = random.Random(seed)
    rules = get_rules(game)
    match = new_match(game, players, config)
    info = describe(game)
    deals: list[Deal] = []
    moved: dict[str, dict[str, int]] = {}
    while not match.finished and len(deals) < 400:
        setup = match.next_setup()
        deal = match.start_deal(rules.shuffle_and_deal(rng))
        assert (deal.dealer, deal.seat_names) == (setup.dealer, tuple(setup.seats))
        while not deal.finished:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        match.record(deal)
        deals.append(deal)
        for pot_move in match.pots_of_last_deal():
            assert pot_move.pot in info["pots"]
            pot = moved.setdefault(pot_move.pot, {})
            pot[pot_move.player] = pot.get(pot_move.player, 0) + pot_move.amount
        sheet = match.to_json()
        assert (sheet["kind"], sheet["better"]) == (info["sheet"]["kind"], info["sheet"]["better"])
        row = sheet["rows"][-1]
        assert sum(row["values"].values()) == 0
        assert set(row["values"]) == set(players) == set(row["totals"])
        won = {
            p: sum(r["values"][p] if info["sheet"]["kind"] == "points" else max(r["values"][p], 0)
                   for r in sheet["rows"])
            for p in players
        }  # fmt: skip
        sign = 1 if info["sheet"]["kind"] == "points" else -1
        assert sheet["totals"] == {p: sheet["start"][p] + sign * won[p] for p in players}
        assert sheet["pots"] == moved == match.pots()
        held = sum(pot["held"] for pot in match.final_settlement()["pots"].values())
        assert sum(match.balances_cents().values()) + held == 0
        assert sum(match.ledger.money.values()) + sum(match.ledger.pot_balances.values()) == 0
    assert match.finished
    assert recovered(game, players, config, deals).to_json() == match.to_json()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_matches_through_the_protocol(seed: int) -> None:
    run_to_the_end("dreierles", ["A", "B", "C", "D"], {**CONFIG, "rounds": 1}, seed)
    run_to_the_end("dreierles", ["A", "B", "C"], {**CONFIG, "rounds": 1}, seed)
    evening = {**CONFIG, "rounds": 12, "max_solo_replays": 1}
    run_to_the_end("doppelkopf", ["A", "B", "C", "D"], evening, seed)


def test_radl_counts_following_deals() -> None:
    # TZ-A24: a Trischaken in deal 2 hangs a Radl over the next round (three deals), a
    # Fensterbankl in deal 3 another: deals 3..5 and 4..6 double, 4 and 5 count ×4.
    from server.engine.match import Radl

    radl, factors = Radl(), []
    for deal in range(1, 8):
        factors.append(radl.factor())
        radl.next_deal()
        if deal in (2, 3):
            radl.add(3)
    assert factors == [1, 1, 2, 4, 4, 2, 1]
    skoty, factors = Radl(stack=False), []
    for deal in range(1, 8):
        factors.append(skoty.factor())
        skoty.next_deal()
        if deal in (2, 3):
            skoty.add(3)
    assert factors == [1, 1, 2, 2, 2, 2, 1]
    with pytest.raises(ValueError):
        radl.add(0)
