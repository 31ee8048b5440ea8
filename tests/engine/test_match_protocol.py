"""The game description and the match protocol every game's match implements.

Part one: :func:`server.engine.registry.describe` for all five games (the fields of
``docs/api.md`` "Games", the phases and options read from the playable games' rules,
the catalogue keys present in both languages). Part two: every implemented game's match
through :class:`server.engine.match.Match` only (scripted deals with exact sheet values,
recovery by replaying the records, pots moved per deal).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.api.i18n import load_catalogs
from server.engine.base import OptionValue
from server.engine.errors import MalformedError
from server.engine.registry import GAMES, describe, get_rules, list_games, match_type

LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"
KEYS = {
    "name", "title", "implemented", "players", "seats", "dealer_sits_out", "direction",
    "pack", "seat_labels", "phases", "action_groups", "rounds", "sheet", "pots",
    "js_module", "options", "match_options", "summary",
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


def test_the_five_games_as_their_rules_texts_say() -> None:
    facts = {
        name: (d["pack"], d["direction"], d["players"], d["seats"], d["pots"])
        for name, d in ((g.name, describe(g.name)) for g in list_games())
    }
    assert facts == {
        "doppelkopf": ("french48", "clockwise", [4], 4, ["depot"]),
        "doppen": ("tarock", "anticlockwise", [3, 4], 3, ["pagatkasse"]),
        "dreierles": ("tarock", "anticlockwise", [3, 4], 3, []),
        "tarock-zu-dritt": ("tarock", "anticlockwise", [3, 4], 3, []),
        "bayerisches-tarock": ("german", "clockwise", [3, 4], 3, ["haferl"]),
    }


@pytest.mark.parametrize("name", [g.name for g in list_games() if g.implemented])
def test_a_playable_game_is_described_from_its_rules(name: str) -> None:
    info = describe(name)
    rules = get_rules(name)
    enum = getattr(rules.deal_type(), "Phase", None)
    if enum is not None:
        assert info["phases"] == [p.value for p in enum]
    assert list(GAMES[name].phases) == info["phases"]  # the registry's copy agrees
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
    assert rules.pack is not None and info["pack"] in ("tarock", "french48")


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
    for key in ("sheet.col.number", "sheet.col.values", "sheet.col.totals", "pot.reason.placing"):
        assert key in catalogs.messages["de"] and key in catalogs.messages["en"]


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(MalformedError) as err:
        describe("schafkopf")
    assert err.value.code == "unknown_game"


def test_match_options_come_from_the_config_and_are_checked() -> None:
    config: dict[str, Any] = {"rounds": 1, "first_dealer": 0, "stake_cents": 10, "options": {}}
    cls = match_type("doppelkopf")
    defaults: dict[str, OptionValue] = {o.name: o.default for o in cls.match_options}
    assert cls.read_match_options(config) == defaults
    assert cls.read_match_options({**config, "depot_cents": 20})["depot_cents"] == 20
    with pytest.raises(MalformedError):
        cls.read_match_options({**config, "depot_cents": 33})
