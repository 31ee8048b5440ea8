"""The engine's short ways of checking a move (a card straight from the trick core's mask,
a pass or a "gut" without listing the other calls) agree with the full list of legal
moves: at every position of random deals of every playable game, for every move the
game's codec can write."""

from __future__ import annotations

import random

import pytest

from server.engine.registry import get_rules, list_games

PLAYABLE = [game.name for game in list_games() if game.implemented]


@pytest.mark.parametrize("game", PLAYABLE)
def test_is_legal_agrees_with_the_legal_moves_everywhere(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        every = range(len(deal.codec.texts))
        while not deal.finished:
            legal = set(deal.legal_moves())
            fast = {m for m in every if deal.is_legal(m)}
            assert fast == legal, (game, str(deal.phase), deal.actions())
            assert not deal.is_legal(-1) and not deal.is_legal(len(every))
            checked += 1
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        assert not any(deal.is_legal(m) for m in every)
    assert checked > 1000
