"""``Deal.view_parts``: the shared part and the seat's own part of every view, which the
server encodes separately (the shared part once per action), merge into exactly the view."""

from __future__ import annotations

import random

import pytest

from server.engine.registry import get_rules, playable


@pytest.mark.parametrize("game", playable())
def test_view_parts_merge_into_the_view_at_every_position(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(11)
    positions = 0
    for _ in range(20):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while True:
            viewers: list[int | None] = [*range(len(deal.seat_names)), None]
            shared_parts = []
            for viewer in viewers:
                shared, own = deal.view_parts(viewer)
                assert not set(shared) & set(own), (game, viewer)
                assert {**shared, **own} == deal.view(viewer)
                assert own["seat"] == viewer  # the seat's own part names the seat
                shared_parts.append(shared)
            assert all(part == shared_parts[0] for part in shared_parts)
            positions += 1
            if deal.finished:
                break
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert positions > 20 * len(rules.pack) // 2  # the scan itself works: whole deals


def test_dreierles_shares_one_object_per_position() -> None:
    rules = get_rules("dreierles")
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(3)))
    first = deal.view_parts(0)[0]
    assert all(deal.view_parts(s)[0] is first for s in (1, 2, None))
    assert not {"seat", "hand", "talon_rest", "discards", "legal_actions"} & set(first)
    seat, move = deal.random_action(random.Random(4))
    deal.apply(move, seat)
    assert deal.view_parts(0)[0] is not first  # a new position, a new shared part
