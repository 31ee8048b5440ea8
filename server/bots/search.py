"""The searching level, "stark": Perfect Information Monte Carlo over sampled worlds.

For an information set the player samples worlds (:class:`server.bots.sampler.Sampler`:
deals consistent with everything the seat saw, the seen actions replayed on them), and in
each world evaluates every legal action (cards, bids, calls alike) by playing the deal to
its end with the rule-based player of the game (the module's ``einsteiger``) at every seat.
An end is scored in the game's own settlement points for the deciding seat (the outcome's
``settlement``: a Schneider, a Pagat ultimo or a doubled game counts what the ledger counts),
and the action with the best mean over the worlds is chosen (ties: the first in the order of
``legal_actions``). A game module may narrow the actions the search weighs
(``search_actions(info, legal)``: Doppen's unlimited Kontra/Re chain, where two searching
seats would otherwise double each other without end, each sure in its sampled worlds that
the rule-based replies say "gut").

The worlds are the player's own: the real deal is never reached, only the information set.
Everything is a pure function of the information set and the ``random.Random`` given:
the effort is a budget of playout steps (:data:`STEP_BUDGET`), never a clock. The number of
worlds is what the budget allows for the actions and the length of the rest of the deal, at
most :data:`MAX_WORLDS`; where it allows fewer than :data:`MIN_WORLDS` (the first actions of
a long deal with many choices), or no world can be sampled (the sampler's known gaps), the
player makes the rule-based player's choice instead.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from server.bots.infoformat import FORMAT, VERSION
from server.bots.players import Player, game_module_name, legal_actions
from server.bots.sampler import Sampler, SamplingError, World
from server.engine.base import JSON, Deal

#: Playout steps (one action of one seat each) one decision may spend.
STEP_BUDGET = 600
#: The most worlds a decision samples.
MAX_WORLDS = 24
#: The sampling tries a world may take (more: the position is left to the rule-based player).
SAMPLE_TRIES = 40
#: What replaying one seen action costs, in playout steps (no view, no policy to ask).
REPLAY_COST = 0.25
#: The fewest worlds worth a search; below it the rule-based choice is made.
MIN_WORLDS = 4


def policy_of(game: str) -> Player:
    """The rule-based player of ``game`` (its module's ``einsteiger``), the playout policy;
    NotImplementedError where the game has none."""
    module = importlib.import_module(game_module_name(game))
    play: Player | None = getattr(module, "einsteiger", None)
    if play is None:
        raise NotImplementedError(f"no einsteiger player for the game {game!r} yet")
    return play


class Playouts:
    """Plays the deals of one sampled world to their ends with one policy at every seat,
    each seat given the information set it would have in that world."""

    def __init__(self, info: Mapping[str, Any], world: World, policy: Player) -> None:
        """Prepare the world: every seat's dealt hand and the actions each seat saw."""
        self.info = info
        self.world = world
        self.policy = policy
        deal = world.deal
        self.seats = deal.rules.seats
        self.hands = _hands_dealt(world, info)
        self.seen = [
            [
                [actor, deal.action_seen_by(index, seat)]
                for index, (actor, _) in enumerate(deal.history)
            ]
            for seat in range(self.seats)
        ]

    def fresh(self) -> Deal:
        """A copy of the world's deal at the seat's position (replayed from its cards)."""
        deal = self.world.deal
        copy: Deal = deal.rules.new_deal(
            self.world.dealt, deal.options, deal.seat_names, deal.dealer
        )
        for seat, move in deal.history:
            copy.apply(move, seat)
        return copy

    def run(self, first: str, seed: int) -> tuple[float, int]:
        """Make the seat's action ``first`` in a copy of the world, play the deal to its end
        with the policy; the seat's settlement and the number of steps played."""
        deal = self.fresh()
        seen = [list(actions) for actions in self.seen]
        rng = random.Random(seed)
        viewer: int = self.info["seat"]
        _act(deal, seen, viewer, first)
        steps = 0
        while not deal.finished:
            seat = deal.to_move
            if seat is None:
                raise SamplingError("a playout reached a position nobody is to move in")
            text = self.policy(self._info(deal, seat, seen[seat]), rng)
            _act(deal, seen, seat, text)
            steps += 1
        outcome: JSON | None = deal.outcome()
        assert outcome is not None
        return float(outcome["settlement"][viewer]), steps

    def _info(self, deal: Deal, seat: int, actions: list[list[Any]]) -> JSON:
        """The information set of ``seat`` in the playout (shared, not copied: the policy
        only reads it)."""
        info = self.info
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": info["game"],
            "options": info["options"],
            "seats": info["seats"],
            "dealer": info["dealer"],
            "seat": seat,
            "hand_dealt": self.hands[seat],
            "view": deal.view(seat),
            "actions": actions,
            "match": info["match"],
        }


def _act(deal: Deal, seen: list[list[list[Any]]], seat: int, text: str) -> None:
    """Make an action in a playout and note it as every seat sees it."""
    deal.act(seat, text)
    index = len(deal.history) - 1
    for viewer, actions in enumerate(seen):
        actions.append([seat, deal.action_seen_by(index, viewer)])


def _hands_dealt(world: World, info: Mapping[str, Any]) -> list[list[str]]:
    """Every seat's first hand in the world (its first view showing cards); the deciding
    seat's is its own."""
    deal = world.deal
    seats = deal.rules.seats
    replay: Deal = deal.rules.new_deal(world.dealt, deal.options, deal.seat_names, deal.dealer)
    hands = [list(replay.view(seat)["hand"]) for seat in range(seats)]
    for seat, move in deal.history:
        if all(hands):
            break
        replay.apply(move, seat)
        for other in range(seats):
            if not hands[other]:
                hands[other] = list(replay.view(other)["hand"])
    hands[int(info["seat"])] = list(info["hand_dealt"])
    return hands


def candidates_of(game: str) -> Callable[[Mapping[str, Any], list[str]], list[str]] | None:
    """The game module's ``search_actions`` (the legal actions its search may weigh), or
    ``None`` where the search weighs every legal action."""
    module = importlib.import_module(game_module_name(game))
    narrow: Callable[[Mapping[str, Any], list[str]], list[str]] | None = getattr(
        module, "search_actions", None
    )
    return narrow


def stark_player(info: Mapping[str, Any], rng: random.Random) -> str:
    """The searching player (see the module text)."""
    legal = list(dict.fromkeys(legal_actions(info)))
    policy = policy_of(str(info["game"]))
    narrow = candidates_of(str(info["game"]))
    if narrow is not None:
        legal = narrow(info, legal) or legal
    if len(legal) == 1:
        return legal[0]
    choice = search(info, legal, policy, rng)
    return choice if choice is not None else policy(info, rng)


def search(
    info: Mapping[str, Any],
    legal: list[str],
    policy: Player,
    rng: random.Random,
    budget: int = STEP_BUDGET,
    worlds: tuple[int, int] = (MIN_WORLDS, MAX_WORLDS),
    on_world: Callable[[int, list[float]], None] | None = None,
) -> str | None:
    """The legal action with the best mean settlement over the worlds the budget allows,
    or ``None`` where it allows fewer than ``worlds[0]`` or no world is found. ``on_world``
    (for tests) is told each world's index and scores.

    The budget counts playout steps; replaying the seen actions once (a sampling try, the
    copy of a world for an action) costs :data:`REPLAY_COST` of a step per action."""
    low, high = worlds
    replay = 1 + int(len(info["actions"]) * REPLAY_COST)
    try:
        sampler = Sampler(info, tries=SAMPLE_TRIES)
        world = sampler.sample(rng)
    except SamplingError:
        return None
    seed = rng.randrange(1 << 30)
    playouts = Playouts(info, world, policy)
    # one playout measures how long the rest of the deal is, and so what a world costs
    score, steps = playouts.run(legal[0], seed)
    cost = len(legal) * (steps + 1 + replay) + world.tries * replay
    if budget // cost < low:
        return None
    rest, steps = _evaluate(playouts, legal[1:], seed)
    totals = [score, *rest]
    used = cost
    if on_world is not None:
        on_world(0, totals)
    for index in range(1, high):
        if used + cost > budget:
            break
        try:
            world = sampler.sample(rng)
        except SamplingError:
            break
        scores, steps = _evaluate(Playouts(info, world, policy), legal, seed + index)
        cost = steps + len(legal) * replay + world.tries * replay
        used += cost
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        if on_world is not None:
            on_world(index, scores)
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best]


def _evaluate(playouts: Playouts, legal: list[str], seed: int) -> tuple[list[float], int]:
    """Each action's settlement in one world (the same policy seed for every action) and
    the steps all its playouts took."""
    scores: list[float] = []
    steps = 0
    for text in legal:
        score, taken = playouts.run(text, seed)
        scores.append(score)
        steps += taken + 1
    return scores, steps
