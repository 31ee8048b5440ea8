"""The searching player's fast playouts choose every card as the rule-based player does
from its view: both ways play each world to the same end."""

from __future__ import annotations

import random

import pytest

from server.bots.info import info_for
from server.bots.players import legal_actions
from server.bots.sampler import Sampler, SamplingError
from server.bots.search import Playouts, planner_of, policy_of
from server.engine.registry import playable
from tests.bots.support import position

PLANNED = [game for game in playable() if planner_of(game) is not None]


def test_the_tarock_games_play_their_tricks_from_the_cards() -> None:
    assert {"dreierles", "doppen", "tarock-zu-dritt", "bayerisches-tarock"} <= set(PLANNED)


@pytest.mark.parametrize("game", PLANNED)
def test_fast_and_slow_playouts_reach_the_same_end(game: str) -> None:
    compared = 0
    for number in range(24):
        deal = position(game, 500 + number, (3, 8, 14, 20, 30, 45)[number % 6])
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        try:
            world = Sampler(info, tries=40).sample(random.Random(number))
        except SamplingError:
            continue
        fast = Playouts(info, world, policy_of(game))
        slow = Playouts(info, world, policy_of(game), fast=False)
        assert fast.planner is not None and slow.planner is None
        for text in dict.fromkeys(legal_actions(info)):
            ends = []
            for playouts in (fast, slow):
                score, _ = playouts.run(text, number)
                assert playouts.last is not None and playouts.last.finished
                ends.append((score, list(playouts.last.history)))
            assert ends[0] == ends[1], (game, number, text)
            compared += 1
    assert compared >= 40
