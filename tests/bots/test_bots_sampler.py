"""The sampler of worlds: consistent with everything the seat saw, and spread over every
place an unseen card may lie."""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from server.bots import choose
from server.bots.info import info_for
from server.bots.sampler import Sampler, SamplingError, sample_world
from server.engine.registry import get_rules
from tests.bots.support import GAMES, position


def _plain(value: object) -> object:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("actions", [0, 3, 12, 25, 40])
def test_every_world_replays_and_shows_the_seat_its_own_view(game: str, actions: int) -> None:
    deal = position(game, actions + 1, actions)
    seat = deal.to_move
    assert seat is not None
    info = info_for(deal, seat)
    sampler = Sampler(info)
    for k in range(4):
        world = sampler.sample(random.Random(k)).deal
        assert len(world.history) == len(deal.history)
        assert _plain(world.view(seat)) == _plain(deal.view(seat))
        seen = [[s, world.action_seen_by(i, seat)] for i, (s, _) in enumerate(world.history)]
        assert seen == info["actions"]
        assert world.legal_texts(seat) == deal.legal_texts(seat)
        pack = get_rules(game).pack
        first = world.rules.new_deal(world.dealt, world.options, world.seat_names, world.dealer)
        assert first.view(seat)["hand"] == info["hand_dealt"], pack.name


@pytest.mark.parametrize("game", GAMES)
def test_worlds_are_a_function_of_the_information_set_and_the_seed(game: str) -> None:
    deal = position(game, 5, 30)
    seat = deal.to_move
    assert seat is not None
    info = info_for(deal, seat)
    a = sample_world(info, random.Random(9)).dealt
    b = sample_world(json.loads(json.dumps(info)), random.Random(9)).dealt
    assert a == b


@pytest.mark.parametrize("game", GAMES)
def test_before_the_first_card_each_unseen_card_lands_in_every_other_place(game: str) -> None:
    rules = get_rules(game)
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(11)))
    seat = deal.to_move
    assert seat is not None
    sampler = Sampler(info_for(deal, seat))
    pack = rules.pack
    own = deal.dealt.hands[seat]
    landed: dict[str, set[str]] = defaultdict(set)  # by kind: the copies are alike
    rng = random.Random(4)
    for _ in range(400):
        dealt = sampler.sample(rng).dealt
        assert pack.codes(dealt.hands[seat]) == pack.codes(deal.dealt.hands[seat]) or (
            sorted(pack.cards[c].kind for c in range(len(pack)) if (dealt.hands[seat] >> c) & 1)
            == sorted(pack.cards[c].kind for c in range(len(pack)) if (own >> c) & 1)
        )
        for s, hand in enumerate(dealt.hands):
            for card in range(len(pack)):
                if (hand >> card) & 1 and s != seat:
                    landed[pack.cards[card].kind].add(f"seat {s}")
        for card in dealt.talon:
            landed[pack.cards[card].kind].add("talon")
    places = {f"seat {s}" for s in range(rules.seats) if s != seat}
    if rules.talon_size:
        places.add("talon")
    for kind, mask in pack.kind_mask.items():
        expected = places if mask & ~own else set()
        assert landed[kind] == expected, kind


@pytest.mark.parametrize("game", GAMES)
def test_in_play_unseen_cards_spread_and_voids_hold(game: str) -> None:
    deal = position(game, 3, 35)
    seat = deal.to_move
    assert seat is not None
    rules = get_rules(game)
    sampler = Sampler(info_for(deal, seat))
    pack = rules.pack
    where: dict[str, set[int]] = defaultdict(set)  # by kind: the copies are alike
    rng = random.Random(8)
    for _ in range(150):
        dealt = sampler.sample(rng).dealt
        for s, hand in enumerate(dealt.hands):
            for card in range(len(pack)):
                if (hand >> card) & 1 and s != seat:
                    where[pack.cards[card].kind].add(s)
    hidden = deal.unplaced_for(seat)
    # some card the seat cannot place is dealt to more than one hand over the samples
    assert any(len(where[pack.cards[c].kind]) > 1 for c in range(len(pack)) if (hidden >> c) & 1)
    for card in range(len(pack)):
        if (hidden >> card) & 1:  # the hand that really holds it is among the sampled ones
            holders = {s for s, hand in enumerate(deal.dealt.hands) if (hand >> card) & 1}
            assert holders <= where[pack.cards[card].kind], pack.code(card)


@pytest.mark.parametrize("game", GAMES)
def test_a_sampled_world_gives_the_seat_the_same_information_set_and_decisions(
    game: str,
) -> None:
    for actions in (2, 18, 33):
        deal = position(game, 9, actions)
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        sampler = Sampler(info)
        for k in range(3):
            world = sampler.sample(random.Random(k)).deal
            assert info_for(world, seat) == info
            for level in ("random", "einsteiger"):
                assert choose(info_for(world, seat), level, k) == choose(info, level, k)


def test_packets_chosen_after_the_deal_are_where_the_seats_chose_them() -> None:
    rules = get_rules("tarock-zu-dritt")
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(1)), {"geklopft": True})
    assert deal.phase == "packet"
    with pytest.raises(SamplingError, match="its hand is chosen later"):
        Sampler(info_for(deal, 0))
    deal.act(0, "packet 2")
    deal.act(1, "packet 3")
    for seat, packet in ((0, 1), (1, 2), (2, 0)):
        info = info_for(deal, seat)
        assert info["hand_dealt"] == rules.pack.codes(deal.dealt.hands[packet])
        world = Sampler(info).sample(random.Random(seat)).deal
        assert world.dealt.hands[packet] == deal.dealt.hands[packet]
        assert _plain(world.view(seat)) == _plain(deal.view(seat))


def test_a_talon_taken_unseen_lies_in_the_talon_of_every_world() -> None:
    """A Sechserdreier's declarer takes the whole talon without showing it: the cards he
    holds and was not dealt lay in the talon, in every world (before, the sampler dealt
    them anywhere, and forty tries found no world with the declarer's view)."""
    game = "tarock-zu-dritt"
    rules = get_rules(game)
    found = 0
    for number in range(300):
        deal = rules.new_deal(rules.shuffle_and_deal(random.Random(number)))
        while not deal.finished and deal.phase != "discard":
            seat = deal.to_move
            assert seat is not None
            deal.act(seat, choose(info_for(deal, seat), "einsteiger", number))
        if deal.phase != "discard" or deal.view(deal.to_move or 0).get("contract") != (
            "sechserdreier"
        ):
            continue
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        taken = set(info["view"]["hand"]) - set(info["hand_dealt"])
        assert len(taken) == 6 and info["view"]["talon"] is None
        sampler = Sampler(info, tries=40)
        for draw in range(5):
            world = sampler.sample(random.Random(draw))
            talon = {rules.pack.cards[c].code for c in world.dealt.talon}
            assert talon == taken
        found += 1
        if found == 3:
            return
    pytest.fail(f"only {found} Sechserdreier found")
