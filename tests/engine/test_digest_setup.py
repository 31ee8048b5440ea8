"""How the view digests (:mod:`tests.engine.view_digests`) choose their deals: the games
whose dealer may sit out come from the registry's descriptions, never from a list here."""

from __future__ import annotations

import pytest

from server.engine.registry import GAMES
from tests.engine.view_digests import (
    GAMES as DIGESTED,
)
from tests.engine.view_digests import (
    dealer_may_sit_out,
    play,
    recorded_sitting_out,
)


def test_the_games_recorded_with_a_sitting_out_dealer_may_have_one() -> None:
    recorded = recorded_sitting_out()
    assert recorded, "no game's digests cover a dealer who sits out"
    assert recorded <= {game for game in DIGESTED if dealer_may_sit_out(game)}


def test_whether_the_dealer_may_sit_out_is_the_descriptions() -> None:
    for game in DIGESTED:
        info = GAMES[game]
        more_people_than_seats = max(info.players) > info.seats
        assert dealer_may_sit_out(game) is (info.dealer_sits_out and more_people_than_seats)


@pytest.mark.parametrize("game", [g for g in DIGESTED if not dealer_may_sit_out(g)])
def test_a_game_whose_dealer_always_plays_deals_the_same_either_way(game: str) -> None:
    assert play(game, 0, sitting_out=True) == play(game, 0, sitting_out=False)
