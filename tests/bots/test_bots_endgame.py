"""The exact search of the last tricks (server/bots/endgame.py) against a plain search of
every line written here, on random positions of every game; and its place in the playouts."""

from __future__ import annotations

import copy
import random

import pytest

from server.bots.endgame import ENDGAME_TRICKS, Copier, solve, tricks_left
from server.bots.info import info_for
from server.bots.sampler import Sampler, SamplingError, trick_core
from server.bots.search import Playouts, policy_of
from server.engine.base import Deal
from server.engine.registry import get_rules
from tests.bots.support import GAMES

Line = list[tuple[int, int]]


def endgame(game: str, seed: int, tricks: int = ENDGAME_TRICKS) -> Deal:
    """A deal of ``game`` played at random until no hand holds more than ``tricks`` cards."""
    rules = get_rules(game)
    rng = random.Random(seed)
    while True:
        deal: Deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while not deal.finished:
            core = trick_core(deal)
            if core is not None and tricks_left(core.hands) <= tricks:
                break
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        if not deal.finished:
            return deal


def every_line(deal: Deal) -> tuple[tuple[float, ...], Line]:
    """Each seat's settlement after the line in which every seat chooses the best for
    itself (ties: the first legal move), by trying every move on a deep copy."""
    seat = deal.to_move
    if seat is None:
        outcome = deal.outcome()
        assert outcome is not None
        return tuple(float(v) for v in outcome["settlement"]), []
    best: tuple[tuple[float, ...], Line] | None = None
    for move in deal.legal_moves():
        child = copy.deepcopy(deal)
        child.apply(move, seat)
        values, line = every_line(child)
        if best is None or values[seat] > best[0][seat]:
            best = values, [(seat, move), *line]
    assert best is not None
    return best


@pytest.mark.parametrize("game", GAMES)
def test_the_search_finds_the_line_every_seat_chooses(game: str) -> None:
    for seed in range(12):
        deal = endgame(game, 900 + seed)
        expected = every_line(copy.deepcopy(deal))
        before = len(deal.history)
        solution = solve(deal)
        assert solution is not None
        assert (solution.values, solution.line) == expected, (game, seed)
        # the deal is played along the line to its end, and scores what the search said
        assert deal.finished and deal.history[before:] == solution.line
        outcome = deal.outcome()
        assert outcome is not None
        assert tuple(float(v) for v in outcome["settlement"]) == solution.values
        assert solution.cost > 0


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_gains_by_leaving_the_line(game: str) -> None:
    """At the first choice of the line, every other move of that seat (the others then
    searching as before) ends no better for it."""
    for seed in range(6):
        deal = endgame(game, 700 + seed)
        solution = solve(copy.deepcopy(deal))
        assert solution is not None
        for seat, move in solution.line:
            if len(deal.legal_moves()) > 1:
                for other in deal.legal_moves():
                    branch = copy.deepcopy(deal)
                    branch.apply(other, seat)
                    values = every_line(branch)[0]
                    assert values[seat] <= solution.values[seat], (game, seed, other)
                break
            deal.apply(move, seat)


def test_a_position_with_too_many_lines_is_left_alone() -> None:
    deal = endgame(GAMES[0], 5, tricks=4)
    before = list(deal.history)
    view = deal.view(0)
    assert solve(deal, max_nodes=3) is None
    assert deal.history == before and not deal.finished and deal.view(0) == view


@pytest.mark.parametrize("game", GAMES)
def test_a_playout_ends_by_the_search(game: str) -> None:
    """In a sampled world, the playout plays the last tricks along the searched line: the
    same end as the search from where the playout reached them."""
    checked = 0
    for seed in range(30):
        deal = endgame(game, 500 + seed, tricks=ENDGAME_TRICKS + 1)
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        legal = [t for t in deal.legal_texts(seat) if t != "takeback"]
        try:
            world = Sampler(info).sample(random.Random(seed))
        except SamplingError:  # the sampler's known gaps (docs/bots.md): not this test's
            continue
        playouts = Playouts(info, world, policy_of(game))
        exact, _ = playouts.run(legal[0], 3)
        last = playouts.last
        assert last is not None and last.finished
        # the same playout without the search, up to where the search took over
        plain = Playouts(info, world, policy_of(game), exact=0)
        plain.run(legal[0], 3)
        assert plain.last is not None
        start = next(
            index
            for index in range(len(world.deal.history) + 1, len(last.history) + 1)
            if tricks_left(_hands_at(last, copier_of(playouts), index)) <= ENDGAME_TRICKS
        )
        assert last.history[:start] == plain.last.history[:start]
        at = copier_of(playouts).start()
        for actor, move in last.history[:start]:
            at.apply(move, actor)
        solution = solve(at)
        assert solution is not None
        assert last.history[start:] == solution.line
        assert exact == solution.values[seat]
        checked += 1
    assert checked >= 20


def copier_of(playouts: Playouts) -> Copier:
    """The playouts' copier of their world."""
    return playouts.copier


def _hands_at(deal: Deal, copier: Copier, index: int) -> list[int]:
    """The hands of ``deal`` after its first ``index`` actions (a full hand before the
    tricks)."""
    at = copier.start()
    for actor, move in deal.history[:index]:
        at.apply(move, actor)
    core = trick_core(at)
    return [(1 << 60) - 1] if core is None else list(core.hands)
