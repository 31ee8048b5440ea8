"""Random full-deal playouts with invariants (card points, zero sum, replay, no leaks)."""

from __future__ import annotations

import random

import pytest

from server.engine.base import JSON
from server.engine.games.dreierles import Dreierles, DreierlesDeal
from server.engine.playout import check_finished, leaks, play_random, run_playouts


def test_a_thousand_random_deals_keep_every_invariant() -> None:
    # the information-set oracle has its own thousand deals (test_infoset.py)
    report = run_playouts("dreierles", 1000, seed=20261122, oracle=False)
    assert report.failures == []
    assert report.invariant_failures == 0
    assert report.deals == 1000
    # the random policy reaches every contract (Räuber included)
    assert set(report.contracts) == {"dreier", "zweier", "einer", "solo", "raeuber"}


@pytest.mark.parametrize(
    "options",
    [
        {"counting": "thirds"},
        {"final_round": True, "final_rauber_points": 2},
        {"hand_bonus_declarer_only": True, "minimum_game_points": 0},
    ],
)
def test_random_deals_with_other_house_rules(options: dict[str, object]) -> None:
    report = run_playouts("dreierles", 200, seed=7, options=options)
    assert report.failures == []


class LeakyDeal(DreierlesDeal):
    """A deal whose view wrongly shows the next seat's hand."""

    def view(self, seat: int | None) -> JSON:
        view = super().view(seat)
        if seat is not None:
            view["gossip"] = self.rules.pack.codes(self.hands[(seat + 1) % 3])
        return view


def test_the_leak_check_catches_a_leaking_view() -> None:
    rules = Dreierles()
    deal = LeakyDeal(
        rules, rules.shuffle_and_deal(random.Random(1)), rules.resolve_options(), None, None
    )
    problems = leaks(deal)
    assert problems and problems[0].startswith("seat 0 sees ")


def test_the_replay_check_catches_a_wrong_outcome() -> None:
    deal, _ = play_random(Dreierles(), random.Random(3))
    assert check_finished(deal) == []
    outcome = deal.outcome()
    assert outcome is not None
    outcome["settlement"][0] += 1  # the outcome is cached: tamper with it
    failures = check_finished(deal)
    assert any("sum to zero" in f for f in failures)
    assert any(
        "replaying the record fails: outcome: the stored outcome differs" in f for f in failures
    )
