"""Random deals walked position by position, for the tests that check a property of the
engine everywhere."""

from __future__ import annotations

import random
from collections.abc import Iterator

from server.engine.base import Deal
from server.engine.registry import get_rules


def random_positions(game: str, deals: int, seed: int) -> Iterator[Deal]:
    """Every position of ``deals`` random deals of ``game``, the finished one last of each
    deal: the caller looks at the deal, then the walk makes a random legal action."""
    rules = get_rules(game)
    rng = random.Random(seed)
    for _ in range(deals):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while True:
            yield deal
            if deal.finished:
                break
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
