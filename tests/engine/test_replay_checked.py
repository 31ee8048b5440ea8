"""A deal replayed from another deal's history without the checks
(:meth:`~server.engine.base.Deal.replay_checked`, the copies of a computer player's sampled
worlds) is the same deal as one replayed through :meth:`apply`: at every position of random
deals of every playable game with random house rules (take-backs and calls out of turn
among them), the copy shows every seat the same view, lists the same legal moves, and
plays on to the same end; and the copy shares nothing that the original changes."""

from __future__ import annotations

import random

import pytest

from server.engine.registry import get_rules, playable
from tests.engine.positions import deal_state, house_rule_deals, replayed


@pytest.mark.parametrize("game", playable())
def test_a_copy_replayed_without_checks_is_the_same_deal(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(23)
    compared = 0
    for deal in house_rule_deals(game, 12, rng):
        dealt = deal.dealt
        while not deal.finished:
            if rng.random() < 0.3:
                checked = replayed(deal)
                copy = rules.new_deal(dealt, deal.options, deal.seat_names, deal.dealer)
                copy.replay_checked(deal.history)
                assert deal_state(copy) == deal_state(checked) == deal_state(deal)
                # both play on alike to the end; the original is left as it was
                before = deal_state(deal)
                moves = random.Random(compared)
                while not copy.finished:
                    seat, move = copy.random_action(moves)
                    copy.apply(move, seat)
                    checked.apply(move, seat)
                    assert deal_state(copy) == deal_state(checked)
                assert deal_state(deal) == before
                compared += 1
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert compared > 50
