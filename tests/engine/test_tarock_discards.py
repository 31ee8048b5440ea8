"""Discard rules as data: honours never, tarocks (or suit cards) only when forced, face up."""

from __future__ import annotations

import doctest

from server.engine.cards import TAROCK
from server.engine.tarock import discards as discards_module
from server.engine.tarock.discards import farbenspiel_discards, honours, tarock_discards

m, t = TAROCK.mask, TAROCK.parse


def test_doctests() -> None:
    assert doctest.testmod(discards_module).failed == 0


def test_honours_are_the_kings_and_the_trull() -> None:
    assert honours(TAROCK) == m("HK KaK PK KrK SK T21 T1")


def test_positive_games_discard_plain_cards_face_down() -> None:
    rule = tarock_discards(TAROCK)
    hand = m("HK KaD P7 Kr8 T5 T9 T1 T21 SK")
    assert rule.discardable(hand, 2) == m("KaD P7 Kr8")
    assert rule.discardable(hand, 3) == m("KaD P7 Kr8")
    assert not rule.face_up(t("KaD"))
    assert rule.explain(hand, 2, t("HK")) == "never"
    assert rule.explain(hand, 2, t("T21")) == "never"
    assert rule.explain(hand, 2, t("T5")) == "forced_only"
    assert rule.explain(hand, 2, t("HD")) == "not_held"
    assert rule.explain(hand, 2, t("P7")) is None


def test_tarocks_only_when_forced_and_then_face_up() -> None:
    rule = tarock_discards(TAROCK)
    hand = m("HK P7 T5 T9 T1 T21 SK")
    assert rule.discardable(hand, 2) == m("P7 T5 T9")  # one free card for two discards
    assert rule.face_up(t("T5")) and rule.explain(hand, 2, t("T9")) is None
    assert rule.explain(hand, 2, t("SK")) == "never"  # the Trull never, even when forced
    assert rule.discardable(m("HK T1 T21 SK"), 1) == 0  # nothing may go: the game decides


def test_farbenspiel_discards_tarocks_face_down_and_suit_cards_when_forced() -> None:
    rule = farbenspiel_discards(TAROCK)
    hand = m("HK HD P7 T5 T9 T1")
    assert rule.discardable(hand, 2) == m("T5 T9")
    assert rule.discardable(hand, 3) == m("T5 T9 HD P7")
    assert not rule.face_up(t("T5")) and rule.face_up(t("HD"))
    assert rule.explain(hand, 2, t("HD")) == "forced_only"
    assert rule.explain(hand, 2, t("T1")) == "never"
