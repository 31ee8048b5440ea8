"""The engine's short ways of checking a move (a card straight from the trick core's mask,
a pass or a "gut" without listing the other calls) agree with the full list of legal
moves: at every position of random deals of every playable game, for every move the
game's codec can write."""

from __future__ import annotations

import pytest

from server.engine.registry import playable
from tests.engine.positions import random_positions

PLAYABLE = playable()


@pytest.mark.parametrize("game", PLAYABLE)
def test_is_legal_agrees_with_the_legal_moves_everywhere(game: str) -> None:
    checked = 0
    for deal in random_positions(game, 40, 11):
        every = range(len(deal.codec.texts))
        legal = set(deal.legal_moves())
        fast = {m for m in every if deal.is_legal(m)}
        assert fast == legal, (game, str(deal.phase), deal.actions())
        assert not deal.is_legal(-1) and not deal.is_legal(len(every))
        checked += 1
    assert checked > 1000
