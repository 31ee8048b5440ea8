"""The trick core's TrickPlay: running trick, piles, hooks, named restrictions, explanations."""

from __future__ import annotations

import doctest
import random

import pytest

from server.engine import tricks as tricks_module
from server.engine.bits import cards_of, nth_card
from server.engine.cards import TAROCK
from server.engine.tricks import TrickPlay, TrickRules, tarock_rules, trick_json

m, t = TAROCK.mask, TAROCK.parse
RULES = tarock_rules(TAROCK)


def test_doctests() -> None:
    assert doctest.testmod(tricks_module).failed == 0


def no_pagat_early(play: TrickPlay, seat: int, legal: int) -> int:
    """A test rule: T1 only in the last trick unless forced."""
    pagat = 1 << t("T1")
    if play.number < play.total - 1 and legal & pagat and legal != pagat:
        return legal & ~pagat
    return legal


def test_named_restrictions_limit_legal_and_name_themselves() -> None:
    hands = [m("T1 T5 HK"), m("T2 T6 HD"), m("T3 T7 HC")]
    play = TrickPlay(RULES, hands, leader=0, tricks=3, restrictions=[("no_pagat", no_pagat_early)])
    assert play.legal() == m("T5 HK")
    assert play.explain(t("T1")) == "no_pagat"
    assert play.explain(t("T2")) == "not_held"
    assert play.explain(t("HK")) is None
    play.play(t("HK"))
    assert play.explain(t("T2")) == "follow_suit"  # the follow rules come first
    play.play(t("HD"))
    assert play.explain(t("T3")) == "follow_suit"
    with pytest.raises(ValueError):
        play.play(t("T3"))
    assert play.try_play(t("HC"), seat=1) == -1  # not seat 1's turn
    assert play.try_play(t("HC"), seat=2) == 2
    assert play.tricks[-1] == (0, (t("HK"), t("HD"), t("HC")), 0)
    assert play.number == 1 and play.to_move == 0


def test_restrictions_ask_only_the_seats_they_concern_and_go_when_play_ends() -> None:
    asked: list[int] = []

    def counted(play: TrickPlay, seat: int, legal: int) -> int:
        asked.append(seat)
        return no_pagat_early(play, seat, legal)

    hands = [m("T1 T5 HK"), m("T2 T6 HD"), m("T3 T7 HC")]
    play = TrickPlay(RULES, hands, leader=1, tricks=3,
                     restrictions=[("no_pagat", counted)], restricted=[0])  # fmt: skip
    play.play(t("T2"))  # seats 1 and 2 are not asked
    play.play(t("T3"))
    assert play.legal() == m("T5")  # seat 0's Pagat stays back
    assert play.explain(t("T1")) == "no_pagat"
    assert set(asked) == {0}
    play.play(t("T5"))
    assert play.to_move == 0 and play.legal() == m("HK")
    play.release()  # no rule is left to ask
    assert play.restrictions == () and play.explain(t("T1")) is None


def test_restrict_hook_and_restrictions_together() -> None:
    hands = [m("T1 T5 HK"), m("T2 T6 HD"), m("T3 T7 HC")]
    play = TrickPlay(
        RULES, hands, leader=0, tricks=3,
        restrict=lambda seat, legal: legal & ~(1 << t("HK")),
        restrictions=[("no_pagat", no_pagat_early)],
    )  # fmt: skip
    assert play.legal() == m("T5")
    assert play.explain(t("HK")) == "restricted"
    assert play.explain(t("T1")) == "no_pagat"


def test_trick_json_of_running_and_taken_tricks() -> None:
    hands = [m("HK T1"), m("HD T2"), m("P7 T3")]
    play = TrickPlay(RULES, hands, leader=1, tricks=2)
    assert play.trick_json(TAROCK.code) == {"leader": 1, "cards": [], "winner": None}
    play.play(t("HD"))
    assert play.trick_json(TAROCK.code) == {"leader": 1, "cards": ["HD"], "winner": None}
    play.play(t("T3"))
    play.play(t("HK"))
    assert play.tricks_json(TAROCK.code) == [
        {"leader": 1, "cards": ["HD", "T3", "HK"], "winner": 2}
    ]
    assert trick_json(str, 0, [1, 2], 1) == {"leader": 0, "cards": ["1", "2"], "winner": 1}


@pytest.mark.parametrize(
    "rules",
    [RULES, tarock_rules(TAROCK, stichzwang=True), tarock_rules(TAROCK, farbenspiel=True)],
)
def test_random_plays_keep_the_piles_and_hands_consistent(rules: TrickRules) -> None:
    rng = random.Random(5)
    for _ in range(200):
        order = list(range(54))
        rng.shuffle(order)
        hands = [sum(1 << c for c in order[16 * s : 16 * s + 16]) for s in range(3)]
        start = list(hands)
        play = TrickPlay(rules, hands, leader=0, tricks=16,
                         restrictions=[("no_pagat", no_pagat_early)])  # fmt: skip
        while not play.finished:
            trick = play.trick
            lead, best = (trick[0], trick[play.best]) if trick else (-1, -1)
            follow = rules.legal(hands[play.to_move], lead, best)
            legal = play.legal()
            assert legal == no_pagat_early(play, play.to_move, follow)
            assert legal and legal & ~hands[play.to_move] == 0
            for card in cards_of(hands[play.to_move]):
                assert (play.explain(card) is None) == bool((legal >> card) & 1)
            play.play(nth_card(legal, rng.randrange(legal.bit_count())))
        assert not any(hands)
        assert sum(play.won) == sum(start) and sum(play.tricks_won) == 16
        for leader, cards, winner in play.tricks:
            assert (leader + rules.winner(cards)) % 3 == winner
