"""A restored snapshot is the deal it was taken of: at random positions of random deals of
every playable game with random house rules (take-backs and calls out of turn among them),
random lines are played on the deal and the snapshot restored, again and again; after
each restore every seat's view, the legal moves of every seat, the history and a random
continuation to the end (its views and its outcome) are those of a copy replayed from the
history."""

from __future__ import annotations

import random

import pytest

from server.engine import snapshot
from server.engine.base import Deal
from server.engine.registry import get_rules, playable
from tests.engine.positions import deal_state, house_rule_deals, replayed


def _play_on(deal: Deal, rng: random.Random, moves: int) -> list[tuple[int | None, int]]:
    line: list[tuple[int | None, int]] = []
    while not deal.finished and len(line) < moves:
        seat, move = deal.random_action(rng)
        deal.apply(move, seat)
        line.append((seat, move))
    return line


@pytest.mark.parametrize("game", playable())
def test_a_restored_snapshot_is_the_deal_it_was_taken_of(game: str) -> None:
    rng = random.Random(31)
    restored = 0
    for deal in house_rule_deals(game, 10, rng):
        while not deal.finished:
            if rng.random() < 0.25:
                taken = snapshot.take(deal)
                expected = deal_state(deal)
                for attempt in range(3):
                    # a line of some moves or to the end, then back
                    _play_on(deal, rng, rng.choice((1, 3, 10_000)))
                    snapshot.restore(taken)
                    assert deal_state(deal) == expected, (game, attempt)
                    restored += 1
                # the restored deal plays on exactly like a replayed copy
                copy = replayed(deal)
                line_rng = random.Random(restored)
                twin = random.Random(restored)
                while not deal.finished:
                    seat, move = deal.random_action(line_rng)
                    assert copy.random_action(twin) == (seat, move)
                    deal.apply(move, seat)
                    copy.apply(move, seat)
                    assert deal_state(deal) == deal_state(copy)
                snapshot.restore(taken)
                assert deal_state(deal) == expected
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert restored > 100


def test_a_value_the_snapshot_does_not_know_is_refused() -> None:
    rules = get_rules("dreierles")
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(1)))
    deal.__dict__["stray"] = bytearray(b"state")
    with pytest.raises(TypeError, match="bytearray"):
        snapshot.take(deal)


class _Slotted:
    """An object of the engine's kind with slots, some of them set later (or never)."""

    __module__ = "server.engine.test_state"  # the snapshot walks the engine's own objects
    __slots__ = ("cards", "later", "leader")
    later: list[int]

    def __init__(self) -> None:
        self.cards = [1, 2]
        self.leader = 0


def test_slots_set_after_the_snapshot_are_unset_again_and_their_objects_come_back() -> None:
    rules = get_rules("dreierles")
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(1)))
    slotted = _Slotted()
    deal.__dict__["extra"] = slotted
    cards = slotted.cards
    taken = snapshot.take(deal)
    slotted.later = [9]  # a slot unset at the snapshot
    slotted.cards = [3]  # a new list in place of the old one
    cards.append(5)  # and the old one changed
    deal.__dict__["newer"] = 1  # an attribute made after the snapshot
    snapshot.restore(taken)
    assert not hasattr(slotted, "later")
    assert slotted.cards is cards and cards == [1, 2]
    assert slotted.leader == 0 and "newer" not in deal.__dict__
    # and once every slot is set, the same again
    slotted.later = [7]
    taken = snapshot.take(deal)
    slotted.later.append(8)
    del slotted.leader
    snapshot.restore(taken)
    assert slotted.later == [7] and slotted.leader == 0
