"""The searching level, "stark": Perfect Information Monte Carlo over sampled worlds.

For an information set the player samples worlds (:class:`server.bots.sampler.Sampler`:
deals consistent with everything the seat saw, the seen actions replayed on them), and in
each world evaluates every legal action (cards, bids, calls alike) by playing the deal to
its end with the rule-based player of the game (the module's ``einsteiger``) at every seat.
An end is scored in the game's own settlement points for the deciding seat (the outcome's
``settlement``: a Schneider, a Pagat ultimo or a doubled game counts what the ledger counts),
and the action with the best mean over the worlds is chosen (ties: the first in the order of
``legal_actions``). A game module may narrow the actions the search weighs
(``search_actions(info, legal)``: a doubling chain without a limit, where two searching
seats would otherwise double each other without end, each sure in its sampled worlds that
the rule-based replies say "gut").

The worlds are the player's own: the real deal is never reached, only the information set.
Everything is a pure function of the information set and the ``random.Random`` given:
the effort is a budget of work counted in playout steps (:data:`STEP_BUDGET`, or the
game's own, :func:`budget_of`), never a clock. The number of worlds is what the budget
allows for the actions and the length of the rest of the deal, at most
:data:`MAX_WORLDS`; where it allows fewer than :data:`MIN_WORLDS` (the first actions of a
long deal with many choices), or no world can be sampled (the sampler's known gaps), the
player makes the rule-based player's choice instead.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from server.bots.endgame import ENDGAME_TRICKS, Copier, solve, tricks_left
from server.bots.games.trickplay import CardPlan, choose_card
from server.bots.infoformat import FORMAT, VERSION
from server.bots.players import Player, game_module_name, legal_actions
from server.bots.sampler import Sampler, SamplingError, World, trick_core
from server.engine.base import JSON, Deal

#: The work one decision may do, in units of one card played from the cards alone in a
#: playout (about 16 µs of one core of the reference machine; docs/bots.md). A game's
#: module may set its own (``STARK_BUDGET``, :func:`budget_of`): a unit's work costs more
#: time in some games than in others.
STEP_BUDGET = 6000
#: The most worlds a decision samples.
MAX_WORLDS = 24
#: The sampling tries a world may take (more: the position is left to the rule-based player).
SAMPLE_TRIES = 40
#: What a playout step costs where the policy reads the seat's view (a bid, a call, a card
#: of a game without a card plan), in units.
VIEW_STEP_COST = 3
#: What replaying one action costs (a sampling try, the copy of a world), in units.
REPLAY_COST = 0.6
#: What starting a deal to replay on costs (and, for a sampling try, comparing its view).
DEAL_COST = 10
#: A world's weight is multiplied by this for each action of another seat that the
#: rule-based player would have made otherwise (``None``: every world weighs alike).
MISMATCH: float | None = 0.5
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


Planner = Callable[[Mapping[str, Any]], CardPlan]


def planner_of(game: str) -> Planner | None:
    """The game module's ``card_plan`` (its rule-based card play as a
    :class:`~server.bots.games.trickplay.CardPlan`), or ``None``: then every playout step
    asks the policy with the seat's view."""
    module = importlib.import_module(game_module_name(game))
    plan: Planner | None = getattr(module, "card_plan", None)
    return plan


class Playouts:
    """Plays the deals of one sampled world to their ends with one policy at every seat,
    each seat given the information set it would have in that world.

    Where the game's module has a ``card_plan``, the tricks are played from the cards
    alone: at a seat's first card with a choice its plan is made from its information
    set, and every later card of that seat is chosen by the plan from the trick core's
    hand, legal cards and running trick, without building a view (the same choice the
    rule-based player makes from its view: a test plays both ways). A position where the
    seat may do more than play a card (a call during the tricks) asks the policy."""

    def __init__(
        self,
        info: Mapping[str, Any],
        world: World,
        policy: Player,
        fast: bool = True,
        exact: int = ENDGAME_TRICKS,
    ) -> None:
        """Prepare the world: every seat's dealt hand and the actions each seat saw
        (``fast``: play the tricks from the cards where the game allows; from ``exact``
        tricks left on, the rest of the deal is searched exactly, 0: never)."""
        self.info = info
        self.world = world
        self.policy = policy
        self.planner = planner_of(str(info["game"])) if fast else None
        self.exact = exact
        deal = world.deal
        self.copier = Copier(
            lambda: deal.rules.new_deal(world.dealt, deal.options, deal.seat_names, deal.dealer)
        )
        self.cards = len(deal.rules.pack)
        #: the deal the last playout played to its end
        self.last: Deal | None = None
        self.seats = deal.rules.seats
        self.hands = _hands_dealt(world, info)
        self.seen = [
            [
                [actor, deal.action_seen_by(index, seat)]
                for index, (actor, _) in enumerate(deal.history)
            ]
            for seat in range(self.seats)
        ]

    def likelihood(self, mismatch: float) -> tuple[float, float]:
        """How likely the rule-based player would have made the other seats' actions of
        this world: the product over their actions with a choice of ``mismatch`` where it
        would have acted otherwise (1 where alike), and the work it took (a view per
        action weighed, the replay)."""
        world = self.world.deal
        viewer = int(self.info["seat"])
        replay: Deal = world.rules.new_deal(
            self.world.dealt, world.options, world.seat_names, world.dealer
        )
        rng = random.Random(0)
        weight = 1.0
        cost = DEAL_COST + REPLAY_COST * len(world.history)
        for index, (seat, move) in enumerate(world.history):
            if seat != viewer and seat == replay.to_move and len(replay.legal_moves()) > 1:
                seen = self.seen[seat][:index]
                text = self.policy(self._info(replay, seat, seen), rng)
                cost += VIEW_STEP_COST
                if replay.move_text(replay.parse(text)) != replay.move_text(move):
                    weight *= mismatch
            replay.apply(move, seat)
        return weight, cost

    def fresh(self) -> Deal:
        """A copy of the world's deal at the seat's position (replayed from its cards)."""
        return self.copier.copy(self.world.deal)

    def run(self, first: str, seed: int) -> tuple[float, float]:
        """Make the seat's action ``first`` in a copy of the world, play the deal to its end
        with the policy, the last tricks by exact search (:mod:`server.bots.endgame`); the
        seat's settlement and the work done (in the units of :data:`STEP_BUDGET`: the copy
        of the world, then each step, then the search)."""
        deal = self.fresh()
        seen = [list(actions) for actions in self.seen]
        rng = random.Random(seed)
        viewer: int = self.info["seat"]
        deal.act(viewer, first)
        cost = DEAL_COST + REPLAY_COST * len(deal.history)
        plans: dict[int, CardPlan] = {}
        played = 0  # the cards played in this playout
        while not deal.finished:
            seat = deal.to_move
            if seat is None:
                raise SamplingError("a playout reached a position nobody is to move in")
            core = trick_core(deal)
            if core is not None and tricks_left(core.hands) <= self.exact:
                solution = solve(deal)
                if solution is not None:  # the deal is at its end
                    cost += solution.cost
                    break
            card = None
            if core is not None and self.planner is not None:
                card = self._card(deal, core.to_move == seat, seat, seen, plans, played)
            if card is None:
                _catch_up(deal, seen)
                deal.act(seat, self.policy(self._info(deal, seat, seen[seat]), rng))
                move = deal.history[-1][1]
                if core is not None and 0 <= move < self.cards:
                    played |= 1 << move
                cost += VIEW_STEP_COST
            else:
                deal.apply(card, seat)
                played |= 1 << card
                cost += 1
        self.last = deal
        outcome: JSON | None = deal.outcome()
        assert outcome is not None
        return float(outcome["settlement"][viewer]), cost

    def _card(
        self,
        deal: Deal,
        in_turn: bool,
        seat: int,
        seen: list[list[list[Any]]],
        plans: dict[int, CardPlan],
        played: int,
    ) -> int | None:
        """The card the seat's plan chooses, or ``None`` where the seat may do more than
        play a card (the policy decides there)."""
        if not in_turn:
            return None
        moves = deal.legal_moves()
        cards = self.cards
        legal = 0
        for move in moves:
            if not 0 <= move < cards:
                return None
            legal |= 1 << move
        if len(moves) == 1:
            return moves[0]
        plan = plans.get(seat)
        if plan is None:
            if deal.phase != "play":
                return None
            _catch_up(deal, seen)
            assert self.planner is not None
            plan = plans[seat] = self.planner(self._info(deal, seat, seen[seat]))
        core = trick_core(deal)
        assert core is not None
        trick = plan.trick(core.hands[seat], legal, core.leader, tuple(core.trick), played)
        return choose_card(trick)

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


def _catch_up(deal: Deal, seen: list[list[list[Any]]]) -> None:
    """Note the actions made since each seat's list was last brought up to date, as that
    seat sees them (the lists are read only where a seat's information set is built)."""
    history = deal.history
    for viewer, actions in enumerate(seen):
        for index in range(len(actions), len(history)):
            actions.append([history[index][0], deal.action_seen_by(index, viewer)])


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


def budget_of(game: str) -> int:
    """The work one decision of ``game`` may do: its module's ``STARK_BUDGET``, else
    :data:`STEP_BUDGET`. The units count the same steps in every game, but a step costs
    more time where the rules do more per card (parties that change during the tricks,
    extra points, a larger state to copy); a game whose decisions would pass the time
    limit at :data:`STEP_BUDGET` gets a smaller budget, measured (docs/bots.md)."""
    module = importlib.import_module(game_module_name(game))
    budget: int = getattr(module, "STARK_BUDGET", STEP_BUDGET)
    return budget


def stark_player(info: Mapping[str, Any], rng: random.Random) -> str:
    """The searching player (see the module text)."""
    legal = list(dict.fromkeys(legal_actions(info)))
    game = str(info["game"])
    policy = policy_of(game)
    narrow = candidates_of(game)
    if narrow is not None:
        legal = narrow(info, legal) or legal
    if len(legal) == 1:
        return legal[0]
    choice = search(info, legal, policy, rng, budget=budget_of(game))
    return choice if choice is not None else policy(info, rng)


def search(
    info: Mapping[str, Any],
    legal: list[str],
    policy: Player,
    rng: random.Random,
    budget: int = STEP_BUDGET,
    worlds: tuple[int, int] = (MIN_WORLDS, MAX_WORLDS),
    on_world: Callable[[int, dict[str, float]], None] | None = None,
    mismatch: float | None = MISMATCH,
) -> str | None:
    """The legal action with the best mean settlement over the worlds the budget allows,
    or ``None`` where it allows fewer than ``worlds[0]`` or no world is found. ``on_world``
    (for tests) is told each world's index and the (weighted) score of each action
    weighed in it.

    Where the budget cannot weigh every action in ``worlds[0]`` worlds (twenty bids at
    once, a declarer's first discard of many), the first world **screens** them: the
    actions with the best scores in it, and always the rule-based player's choice, go on
    to as many further worlds as the budget allows for them (at least ``worlds[0]`` in
    all, else ``None``); the others are dropped.

    The budget counts work in units of one card played from the cards alone: a playout
    step that reads a view costs :data:`VIEW_STEP_COST`, replaying an action (a sampling
    try, the copy of a world for an action) :data:`REPLAY_COST` and starting such a deal
    :data:`DEAL_COST`."""
    low, high = worlds
    tries = DEAL_COST + REPLAY_COST * len(info["actions"])
    try:
        sampler = Sampler(info, tries=SAMPLE_TRIES)
        world = sampler.sample(rng)
    except SamplingError:
        return None
    seed = rng.randrange(1 << 30)
    playouts = Playouts(info, world, policy)
    # one playout measures what the rest of the deal costs, and so what a world costs
    score, first = playouts.run(legal[0], seed)
    weight, weighing = _weigh(playouts, mismatch)
    overhead = world.tries * tries + weighing
    cost = len(legal) * first + overhead
    if budget // cost < low:
        # screening: every action once, in this world, if that leaves room for the best
        # few (at least two) in the other worlds
        spare = budget - cost
        keep = int((spare / max(1, low - 1) - overhead) // first) if spare > 0 else 0
        if keep < 2:
            return None
    else:
        keep = len(legal)
    rest, spent = _evaluate(playouts, legal[1:], seed)
    scores = [weight * value for value in (score, *rest)]
    used = first + spent + overhead
    if on_world is not None:
        on_world(0, dict(zip(legal, scores, strict=True)))
    if keep < len(legal):
        per_action = (first + spent) / len(legal)  # what one action's playout cost here
        legal, scores = _screen(info, legal, scores, keep, policy, seed)
        cost = per_action * len(legal) + overhead
    totals = scores
    for index in range(1, high):
        if used + cost > budget:
            break
        try:
            world = sampler.sample(rng)
        except SamplingError:
            break
        playouts = Playouts(info, world, policy)
        weight, weighing = _weigh(playouts, mismatch)
        scores, spent = _evaluate(playouts, legal, seed + index)
        scores = [weight * value for value in scores]
        cost = spent + world.tries * tries + weighing
        used += cost
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        if on_world is not None:
            on_world(index, dict(zip(legal, scores, strict=True)))
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best]


def _screen(
    info: Mapping[str, Any],
    legal: list[str],
    scores: list[float],
    keep: int,
    policy: Player,
    seed: int,
) -> tuple[list[str], list[float]]:
    """The ``keep`` actions with the best scores of the screening world, the rule-based
    player's choice always among them, in the order of ``legal``; and their scores."""
    ranked = sorted(range(len(legal)), key=lambda i: (-scores[i], i))[:keep]
    choice = policy(info, random.Random(seed))
    if choice in legal and legal.index(choice) not in ranked:
        ranked[-1] = legal.index(choice)
    kept = sorted(ranked)
    return [legal[i] for i in kept], [scores[i] for i in kept]


def _weigh(playouts: Playouts, mismatch: float | None) -> tuple[float, float]:
    """A world's weight and the work it took to weigh (1 and none without weighing)."""
    if mismatch is None:
        return 1.0, 0.0
    return playouts.likelihood(mismatch)


def _evaluate(playouts: Playouts, legal: list[str], seed: int) -> tuple[list[float], float]:
    """Each action's settlement in one world (the same policy seed for every action) and
    the work all its playouts did."""
    scores: list[float] = []
    spent = 0.0
    for text in legal:
        score, cost = playouts.run(text, seed)
        scores.append(score)
        spent += cost
    return scores, spent
