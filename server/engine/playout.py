"""Random full-deal playouts with invariants, for tests, the CLI and the benchmark.

For every deal the checker asserts (the list of the foundation issue):

* the game's own invariants (every card in one pile, card points add up: 70 in Tarock);
* the settlement sums to zero;
* the deal record, written to JSON text and loaded again, replays to the same actions and
  the same outcome;
* no view ever shows a seat (or a spectator) a card it may not see: every card code found
  anywhere in a view is checked against :meth:`Deal.hidden_from` after every action;
* every view is a function of what its viewer may know: the information-set oracle
  (:mod:`server.engine.infoset`) replays alternatives of the deal that differ only in
  what is hidden from a viewer and compares that viewer's views, key by key;
* with ``take_backs`` (the room option ``take_back`` on), a take-back now and then where one
  is legal; after each, every view must be the view of the deal replayed without the card
  and its take-back (:func:`take_back_differences`): nothing a card's play changed stays.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from server.engine.base import JSON, Deal, Rules
from server.engine.errors import EngineError
from server.engine.infoset import InfosetOracle, card_names
from server.engine.record import dump_record, load_record, parse_record_text
from server.engine.registry import get_rules

__all__ = [
    "PlayoutReport",
    "card_names",
    "cards_in_view",
    "check_finished",
    "information_leaks",
    "leaks",
    "play_random",
    "run_playouts",
    "take_back_differences",
]


def cards_in_view(view: object, names: Mapping[str, int]) -> list[int]:
    """Every card named as a word anywhere in ``view``, as masks (see :func:`card_names`: a
    code or a kind stands for every copy of its kind)."""
    found: list[int] = []
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.extend(names[word] for word in item.split() if word in names)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def leaks(deal: Deal) -> list[str]:
    """A message for every seat (and the spectator) shown a card it may not see, in its view
    or in how the latest action was announced to it. A kind leaks when all its copies are
    hidden from the seat."""
    pack = deal.rules.pack
    names = card_names(pack)
    problems = []
    for seat in [*range(deal.rules.seats), None]:
        seen: list[object] = [deal.view(seat)]
        if deal.history:
            seen.append(deal.action_seen_by(len(deal.history) - 1, seat))
        hidden = deal.hidden_from(seat)
        shown = 0
        for mask in cards_in_view(json.loads(json.dumps(seen)), names):
            if mask & hidden == mask:
                shown |= mask
        if shown:
            who = "spectator" if seat is None else f"seat {seat}"
            problems.append(f"{who} sees {' '.join(pack.codes(shown))} in phase {deal.phase}")
    return problems


def information_leaks(
    deal: Deal, rng: random.Random, report: PlayoutReport | None = None
) -> list[str]:
    """The information-set oracle's findings for ``deal`` (see :mod:`server.engine.infoset`),
    with a sample of alternatives drawn from ``rng``; ``report`` counts the comparisons."""
    oracle = InfosetOracle.of(deal)
    found = oracle.check(rng)
    if report is not None:
        report.alternatives += oracle.alternatives_run
        report.comparisons += oracle.comparisons
    return [str(leak) for leak in found]


def check_finished(deal: Deal) -> list[str]:
    """Invariants of a finished deal: game invariants, zero sum, exact replay."""
    failures = list(deal.invariant_errors())
    outcome = deal.outcome()
    if outcome is None:
        return [*failures, "deal did not finish"]
    if sum(outcome["settlement"]) != 0:
        failures.append(f"settlement {outcome['settlement']} does not sum to zero")
    text = json.dumps(dump_record(deal))
    try:
        replayed = load_record(parse_record_text(text))
    except EngineError as exc:
        return [*failures, f"replaying the record fails: {exc.message}"]
    if replayed.actions() != deal.actions() or replayed.outcome() != outcome:
        failures.append("replaying the record gives a different result")
    return failures


def _without_take_back(view: JSON) -> JSON:
    out = {k: v for k, v in view.items() if k != "take_back"}
    if isinstance(out.get("legal_actions"), list):
        out["legal_actions"] = [a for a in out["legal_actions"] if a != "takeback"]
    return out


def take_back_differences(deal: Deal) -> list[str]:
    """After a take-back (the last action of ``deal``): where any seat's view, the legal
    moves or the seat to move differ from the same deal replayed without the card and its
    take-back. Who may take back is left out (``take_back`` and the ``takeback`` among a
    seat's legal actions: the last action differs by construction)."""
    record = dump_record(deal, with_outcome=False)
    actions = record["actions"]
    # the card taken back is the last card action before the take-back
    replayed = load_record({**record, "actions": actions[:-2]})
    problems = []
    if replayed.to_move != deal.to_move or replayed.legal_moves() != deal.legal_moves():
        problems.append(f"after take-back {len(actions) - 1}: the seat to move or its moves differ")
    for seat in [*range(deal.rules.seats), None]:
        ours, theirs = _without_take_back(deal.view(seat)), _without_take_back(replayed.view(seat))
        if ours != theirs:
            keys = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
            problems.append(f"after take-back {len(actions) - 1}: seat {seat} sees {keys} differ")
    return problems


def play_random(
    rules: Rules[Any],
    rng: random.Random,
    options: Mapping[str, object] | None = None,
    *,
    check_views: bool = False,
    take_backs: float = 0.0,
) -> tuple[Deal, list[str]]:
    """Deal with ``rng`` and play random legal moves to the end; return the deal and any leaks.

    ``take_backs``: the chance of taking back the last card wherever that is legal (the
    room option ``take_back`` on); with ``check_views`` each take-back is compared with a
    replay without it (:func:`take_back_differences`)."""
    deal = rules.new_deal(rules.shuffle_and_deal(rng), options)
    problems: list[str] = []
    while deal._to_move is not None:  # not deal.finished (a property: a call per action)
        if check_views:
            problems.extend(leaks(deal))
        if take_backs:
            back = deal.take_back_action()
            if back is not None and rng.random() < take_backs:
                deal.apply(back[1], back[0])
                if check_views:
                    problems.extend(take_back_differences(deal))
                continue
        seat, move = deal.random_action(rng)
        deal.apply(move, seat)
    if check_views:
        problems.extend(leaks(deal))
    return deal, problems


@dataclass
class PlayoutReport:
    """The summary printed by ``stammtisch playout`` (the caller times the run: no clock here)."""

    game: str
    deals: int
    seed: int
    actions: int = 0
    seconds: float = 0.0
    invariant_failures: int = 0
    failures: list[str] = field(default_factory=list)
    contracts: dict[str, int] = field(default_factory=dict)
    alternatives: int = 0
    comparisons: int = 0

    def to_json(self) -> JSON:
        """The report as JSON, with rates."""
        secs = self.seconds or 1e-9
        return {
            "game": self.game,
            "seed": self.seed,
            "deals": self.deals,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals / secs, 1),
            "actions_per_second": round(self.actions / secs, 1),
            "invariant_failures": self.invariant_failures,
            "failures": self.failures[:20],
            "contracts": dict(sorted(self.contracts.items())),
            "infoset": {"alternatives": self.alternatives, "comparisons": self.comparisons},
        }


def run_playouts(
    game: str,
    deals: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    check: bool = True,
    oracle: bool = True,
    take_backs: float = 0.0,
) -> PlayoutReport:
    """Play ``deals`` random deals of ``game`` from ``seed``, checking invariants and every
    view's cards if ``check``, and every deal with the information-set oracle if ``oracle``.

    ``take_backs``: see :func:`play_random`.

    Each deal uses its own generators seeded from ``(seed, index)``, so a failure reported
    as ``deal 17`` can be reproduced alone.
    """
    rules = get_rules(game)
    report = PlayoutReport(game, deals, seed)
    for i in range(deals):
        rng = random.Random(f"{seed}:{i}")
        deal, problems = play_random(rules, rng, options, check_views=check, take_backs=take_backs)
        report.actions += len(deal.history)
        outcome = deal.outcome() or {}
        contract = str(outcome.get("contract"))
        report.contracts[contract] = report.contracts.get(contract, 0) + 1
        if check:
            problems.extend(check_finished(deal))
        if oracle:
            problems.extend(information_leaks(deal, random.Random(f"{seed}:{i}:infoset"), report))
        if problems:
            report.invariant_failures += 1
            report.failures.extend(f"deal {i}: {p}" for p in problems)
    return report
