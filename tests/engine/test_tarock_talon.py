"""Talon choices as data: halves, pairs, any single card, the top cards, hidden, none."""

from __future__ import annotations

import doctest

import pytest

from server.engine.cards import TAROCK
from server.engine.tarock import talon as talon_module
from server.engine.tarock.talon import TalonRule

TALON = tuple(TAROCK.parse(c) for c in ("HK", "T5", "P7", "Kr10", "SK", "KaD"))


def codes(masks: list[int]) -> list[list[str]]:
    return [TAROCK.codes(m) for m in masks]


def test_doctests() -> None:
    assert doctest.testmod(talon_module).failed == 0


def test_upper_or_lower_half() -> None:
    assert codes(TalonRule("groups", 3).choices(TALON)) == [
        TAROCK.codes(TAROCK.mask("HK T5 P7")),
        TAROCK.codes(TAROCK.mask("Kr10 SK KaD")),
    ]


def test_one_of_three_pairs() -> None:
    assert codes(TalonRule("groups", 2).choices(TALON)) == [
        TAROCK.codes(TAROCK.mask("HK T5")),
        TAROCK.codes(TAROCK.mask("P7 Kr10")),
        TAROCK.codes(TAROCK.mask("SK KaD")),
    ]


def test_any_single_card_and_any_pair() -> None:
    assert codes(TalonRule("any", 1).choices(TALON)) == [[TAROCK.code(c)] for c in TALON]
    assert len(TalonRule("any", 2).choices(TALON)) == 15


def test_top_cards_hidden_and_none() -> None:
    rule = TalonRule("top", 3)
    assert codes(rule.choices(TALON)) == [TAROCK.codes(TAROCK.mask("HK T5 P7"))]
    assert rule.takes() == 3 and rule.seen()
    (taken,) = rule.choices(TALON)
    assert TAROCK.codes(TalonRule.rest(TALON, taken)) == TAROCK.codes(TAROCK.mask("Kr10 SK KaD"))
    hidden = TalonRule("hidden")
    assert hidden.choices(TALON) == [TAROCK.mask(list(map(TAROCK.code, TALON)))]
    assert not hidden.seen() and hidden.takes() == -1
    assert TalonRule("none").choices(TALON) == [0] and TalonRule("none").takes() == 0


def test_bad_rules_are_refused() -> None:
    with pytest.raises(ValueError):
        TalonRule("halves", 3)
    with pytest.raises(ValueError):
        TalonRule("groups")
    with pytest.raises(ValueError):
        TalonRule("groups", 4).choices(TALON)
