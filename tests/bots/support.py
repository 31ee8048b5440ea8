"""Positions of random deals for the computer players' tests."""

from __future__ import annotations

import random

from server.engine.base import Deal
from server.engine.registry import get_rules, playable

#: Every playable game of the registry (never a list written here).
GAMES = tuple(playable())


def position(game: str, seed: int, actions: int) -> Deal:
    """A deal of ``game`` played at random for up to ``actions`` actions (unfinished)."""
    rules = get_rules(game)
    for attempt in range(50):
        deal: Deal = rules.new_deal(rules.shuffle_and_deal(random.Random(seed * 100 + attempt)))
        rng = random.Random(seed * 7 + attempt)
        while not deal.finished and len(deal.history) < actions:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        if not deal.finished:
            return deal
    raise AssertionError("no unfinished position found")
