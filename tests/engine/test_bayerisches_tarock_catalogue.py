"""Every code Bayerisches Tarock sends out has its text in both languages: the buttons
(``action.<game>.<move text>``, else the shared ``action.<move text>``), contracts, result
lines, options, pot reasons and the rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from server.api.i18n import LANGUAGES, Catalogs, load_catalogs
from server.engine.games.bayerisches_tarock import BayerischesTarock
from server.engine.games.bayerisches_tarock.contracts import CONTRACTS
from server.engine.games.bayerisches_tarock.deal import CODEC, THROWN_IN
from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch
from server.engine.registry import GAMES

GAME = "bayerisches-tarock"
LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"


@pytest.fixture(scope="module")
def catalogs() -> Catalogs:
    return load_catalogs(LOCALE)


def missing(catalogs: Catalogs, keys: list[str]) -> dict[str, list[str]]:
    return {lang: [k for k in keys if k not in catalogs.messages[lang]] for lang in LANGUAGES}


NONE_MISSING: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}


def test_every_button_has_a_label(catalogs: Catalogs) -> None:
    texts = [t for t in CODEC.texts if t.split()[0] not in ("play", "discard")]
    assert len(texts) > 30
    unlabelled = {lang: [t for t in texts if catalogs.action_key(lang, GAME, t) is None]
                  for lang in LANGUAGES}  # fmt: skip
    assert unlabelled == NONE_MISSING


def test_every_contract_result_and_option_has_a_text(catalogs: Catalogs) -> None:
    keys = [f"contract.{GAME}.{c}" for c in [*CONTRACTS, THROWN_IN]]
    options = [*BayerischesTarock.options, *BayerischesTarockMatch.match_options]
    keys += [f"option.{GAME}.{o.name}{h}" for o in options for h in ("", ".help")]
    keys += [rule.key for rule in GAMES[GAME].rules]
    keys += ["pot.reason.einsatz", "pot.reason.stock_game"]
    assert missing(catalogs, keys) == NONE_MISSING


def test_every_result_line_of_random_deals_has_a_text(catalogs: Catalogs) -> None:
    rules = BayerischesTarock()
    codes: set[str] = set()
    for options in ({}, {"reizen": False}, {"bettel_beim_reizen": True}):
        rng = random.Random(17)
        for _ in range(150):
            deal = rules.new_deal(rules.shuffle_and_deal(rng), options)
            while not deal.finished:
                deal.apply(deal.random_move(rng))
            outcome = deal.outcome()
            assert outcome is not None
            codes |= {line["code"] for line in outcome["lines"]}
    assert {"gewonnen", "verloren", "durch_lost", "spielwert", "kontra"} <= codes
    assert missing(catalogs, [f"result.{GAME}.{c}" for c in codes]) == NONE_MISSING
