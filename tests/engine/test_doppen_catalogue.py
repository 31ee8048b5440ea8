"""Doppen's catalogue keys: every code the engine, the match and the description give out
has its German and English text (``web/locale/*/game-doppen.po``)."""

from __future__ import annotations

from pathlib import Path

from server.api.i18n import load_catalogs
from server.engine.games.doppen import Doppen
from server.engine.games.doppen.contracts import CONTRACTS, PREMIUMS
from server.engine.games.doppen.match import DoppenMatch
from server.engine.registry import describe

LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"


def test_every_code_of_doppen_has_a_text_in_both_languages() -> None:
    catalogs = load_catalogs(LOCALE)
    keys = [f"contract.doppen.{c}" for c in CONTRACTS]
    keys += [f"result.doppen.{spec.code}" for spec in PREMIUMS.specs]
    keys += [f"result.doppen.{c}" for c in ("game_won", "game_lost", "thrown_in", "ended_early")]
    keys += [f"pot.reason.{r}" for r in ("kasse_fill", "kasse_all_pass", "pagat_lost",
                                         "pagat_won", "kasse_split")]  # fmt: skip
    for option in (*Doppen.options, *DoppenMatch.match_options):
        keys += [f"option.doppen.{option.name}", f"option.doppen.{option.name}.help"]
    info = describe("doppen")
    keys += [rule["key"] for rule in info["rules"]]
    keys += [*info["action_groups"].values(), *info["sheet"]["notes"]]
    keys += [f"pot.{pot}" for pot in info["pots"]]
    for lang in ("de", "en"):
        missing = [k for k in keys if k not in catalogs.messages[lang]]
        assert missing == [], lang


def test_the_description_is_the_rules_texts() -> None:
    info = describe("doppen")
    assert (info["players"], info["seats"], info["dealer_sits_out"]) == ([3, 4], 3, True)
    assert info["direction"] == "anticlockwise" and info["pack"] == "tarock"
    assert info["implemented"] is True
    assert info["phases"] == [str(p) for p in Doppen().deal_type().Phase]
    assert info["rounds"]["unit"] == "deals" and info["rounds"]["default"] % 3 == 0
    assert info["pots"] == ["pagatkasse"]
