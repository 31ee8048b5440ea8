"""The views every trick game shares (server/engine/trickdeal.py: ``TrickDeal``).

The view digests hold what each view shows; these tests hold the shape: the games on
``TrickDeal`` write no view of their own, the shared part is one object per position, the
two parts merge into the view without a key twice, and a seat's hidden cards are never in
its view.
"""

from __future__ import annotations

import random

import pytest

from server.engine.playout import leaks
from server.engine.registry import GAMES, get_rules
from server.engine.trickdeal import TrickDeal

TRICK_GAMES = [
    name
    for name, info in GAMES.items()
    if info.implemented and issubclass(get_rules(name).deal_type(), TrickDeal)
]


def test_the_three_handed_games_are_trick_deals() -> None:
    three_handed = {name for name, info in GAMES.items() if info.implemented and info.seats == 3}
    assert len(three_handed) >= 4
    assert three_handed <= set(TRICK_GAMES)


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_a_trick_game_writes_no_view_of_its_own(game: str) -> None:
    own = vars(get_rules(game).deal_type())
    assert not {"view", "view_parts", "_public_view", "replay_state"} & set(own)


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_the_shared_part_is_one_object_per_position(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(7)
    for _ in range(5):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while True:
            viewers: list[int | None] = [*range(rules.seats), None]
            first = deal.view_parts(0)[0]
            for viewer in viewers:
                shared, own = deal.view_parts(viewer)
                assert shared is first
                assert not set(shared) & set(own)
                assert {**shared, **own} == deal.view(viewer)
                assert own["seat"] == viewer
            assert {"game", "seats", "dealer", "phase", "to_move", "hand_sizes", "trick",
                    "last_trick", "tricks_won", "take_back"} <= set(first)  # fmt: skip
            assert not leaks(deal)
            if deal.finished:
                assert "outcome" in deal.view_parts(None)[1]
                break
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
