"""A finished deal goes when its last reference does: its trick core drops the hooks that
point back at the deal (``TrickPlay.release``), so no finished deal of any playable game
waits in a reference cycle for the cycle collector (a busy server finishes many)."""

from __future__ import annotations

import gc
import random
import weakref

import pytest

from server.engine.playout import play_random
from server.engine.registry import get_rules, list_games

PLAYABLE = [game.name for game in list_games() if game.implemented]


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_finished_deal_is_freed_without_the_cycle_collector(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(5)
    gc.disable()
    try:
        kept = []
        for _ in range(60):
            deal, _problems = play_random(rules, rng)
            deal.outcome()
            ref = weakref.ref(deal)
            del deal
            if ref() is not None:
                kept.append(ref)
    finally:
        gc.enable()
    assert kept == []
