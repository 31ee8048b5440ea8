"""Tarock zu dritt's description and catalogue keys: the registry's provisional entry
agrees with the rules value, every contract, option, result and button has its text."""

from __future__ import annotations

from pathlib import Path

from server.api.i18n import LANGUAGES, load_catalogs
from server.engine.games.tarock_zu_dritt.contracts import ANNOUNCEABLE, CONTRACTS
from server.engine.games.tarock_zu_dritt.deal import CODEC, Phase, TarockZuDritt
from server.engine.games.tarock_zu_dritt.match import TarockZuDrittMatch
from server.engine.registry import GAMES, describe

LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"
GAME = "tarock-zu-dritt"
#: The Kontra calls name items and seats ("kontra game@1"): the table shows them by group.
GROUPED = ("play", "discard", "kontra", "rekontra", "subkontra")


def test_the_registry_entry_agrees_with_the_rules() -> None:
    info = GAMES[GAME]
    assert info.implemented is True
    assert describe(GAME)["phases"] == [p.value for p in Phase]
    assert info.players == (3,) and info.dealer_sits_out is False
    assert info.direction == "anticlockwise" and info.pack == "tarock"
    verbs = {verb.word for verb in CODEC.verbs}
    assert {verb for verb, _key in info.action_groups} == verbs
    assert TarockZuDritt.name == TarockZuDrittMatch.game == GAME


def test_every_key_the_game_uses_exists_in_both_languages() -> None:
    catalogs = load_catalogs(LOCALE)
    info = GAMES[GAME]
    keys = [f"contract.{GAME}.{code}" for code in CONTRACTS]
    keys += [f"result.{GAME}.premium.{code}" for code in ANNOUNCEABLE]
    keys += [f"result.{GAME}.{code}" for code in ("game_won", "game_lost", "premium",
             "negative_game", "trischaken_pays", "trischaken_valat", "trischaken_tie",
             "jungfrau")]  # fmt: skip
    for option in (*TarockZuDritt.options, *TarockZuDrittMatch.match_options):
        keys += [f"option.{GAME}.{option.name}", f"option.{GAME}.{option.name}.help"]
    keys += [rule.key for rule in info.rules] + list(info.sheet.notes)
    keys += [key for _verb, key in info.action_groups] + ["sheet.col.factor"]
    buttons = [text for text in CODEC.texts if text.split()[0] not in GROUPED]
    for lang in LANGUAGES:
        missing = [k for k in keys if k not in catalogs.messages[lang]]
        missing += [t for t in buttons if catalogs.action_key(lang, GAME, t) is None]
        assert missing == [], lang
