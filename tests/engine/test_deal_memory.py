"""How the deals of every playable game sit in memory.

* A finished deal goes when its last reference does: its trick core drops the hooks that
  point back at the deal (``TrickPlay.release``), so no finished deal waits in a
  reference cycle for the cycle collector (a busy server finishes many).
* A deal keeps at most 30 attributes in its instance dict (the rest in slots): CPython
  shares the keys of instance dicts only up to that size, and without key sharing every
  attribute lookup of every action takes the slow way."""

from __future__ import annotations

import gc
import random
import weakref

import pytest

from server.engine.playout import play_random
from server.engine.registry import get_rules, playable
from tests.engine.positions import random_positions

PLAYABLE = playable()


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


#: CPython's limit for key-sharing instance dicts (``SHARED_KEYS_MAX_SIZE``).
SHARED_KEYS_MAX = 30


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_deal_keeps_its_instance_dict_small_enough_to_share_keys(game: str) -> None:
    most = 0
    for deal in random_positions(game, 40, 9):
        if deal.finished:
            deal.outcome()
        most = max(most, len(vars(deal)))
    assert most <= SHARED_KEYS_MAX
