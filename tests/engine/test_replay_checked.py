"""A deal replayed from another deal's history without the checks
(:meth:`~server.engine.base.Deal.replay_checked`, the copies of a computer player's sampled
worlds) is the same deal as one replayed through :meth:`apply`: at every position of random
deals of every playable game with random house rules (take-backs and calls out of turn
among them), the copy shows every seat the same view, lists the same legal moves, and
plays on to the same end; and the copy shares nothing that the original changes."""

from __future__ import annotations

import random

import pytest

from server.engine.base import Deal
from server.engine.registry import get_rules, playable


def _state(deal: Deal) -> tuple[object, ...]:
    seats = range(deal.rules.seats)
    return (
        list(deal.history),
        str(deal.phase),
        deal.to_move,
        deal.finished,
        [deal.view(seat) for seat in seats],
        [list(deal.legal_moves_for(seat)) for seat in seats],
        deal.outcome() if deal.finished else None,
    )


@pytest.mark.parametrize("game", playable())
def test_a_copy_replayed_without_checks_is_the_same_deal(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(23)
    compared = 0
    for _ in range(12):
        options = {option.name: rng.choice(option.choices) for option in rules.options}
        dealt = rules.shuffle_and_deal(rng)
        deal = rules.new_deal(dealt, options)
        while not deal.finished:
            if rng.random() < 0.3:
                checked = rules.new_deal(dealt, deal.options, deal.seat_names, deal.dealer)
                for seat, move in deal.history:
                    checked.apply(move, seat)
                copy = rules.new_deal(dealt, deal.options, deal.seat_names, deal.dealer)
                copy.replay_checked(deal.history)
                assert _state(copy) == _state(checked) == _state(deal)
                # both play on alike to the end; the original is left as it was
                before = _state(deal)
                moves = random.Random(compared)
                while not copy.finished:
                    seat, move = copy.random_action(moves)
                    copy.apply(move, seat)
                    checked.apply(move, seat)
                    assert _state(copy) == _state(checked)
                assert _state(deal) == before
                compared += 1
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert compared > 50
