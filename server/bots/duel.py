"""Duplicate duels between two levels of computer players.

One *deal set* is one shuffle of the pack played once for every seat arrangement of the
two players ``a`` and ``b`` (at three seats ``abb, bab, bba, baa, aba, aab``; at four the
six with two seats each): luck of the cards cancels out. Its value is the mean over the
arrangements of (mean settlement of ``a``'s seats − mean settlement of ``b``'s seats), in
the game's own settlement points (the outcome's ``settlement``). The duel reports the
mean over the deal sets with a 95 % confidence interval (normal approximation), the
declarer's win rate per contract (from the game's :meth:`Rules.summarize`) and the
time each level took per decision.

This is the table's side: it holds the deals and gives each player only its information
set (:func:`server.bots.info.info_for`).

A player is a pure function of its information set, its level and its seed, and a
decision's seed depends on the deal set, the step and the side, not on the arrangement.
So the arrangements of a deal set that reach the same position (the same actions so far,
the same level to move) ask the same question: it is answered once per deal set and the
answer reused (:class:`Decisions`), with the time it took counted again for each
arrangement, as if it had been thought anew. The results are those of asking every time
(a test plays both ways); the duel costs less, most in the bids, where the arrangements
part late.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from server.bots import choose
from server.bots.info import info_for
from server.engine.base import JSON, Dealt, Rules
from server.engine.registry import get_rules

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def arrangements(seats: int) -> list[tuple[str, ...]]:
    """The seat arrangements of a duel: each seat ``"a"`` or ``"b"``, both levels seated,
    as evenly as the seats allow.

    >>> ["".join(seats) for seats in arrangements(3)]
    ['aab', 'aba', 'abb', 'baa', 'bab', 'bba']
    >>> len(arrangements(4))
    6
    """
    low, high = seats // 2, (seats + 1) // 2
    return [
        combo for combo in itertools.product("ab", repeat=seats) if combo.count("a") in (low, high)
    ]


@dataclass
class DuelStats:
    """What a duel collects while it runs."""

    values: list[float] = field(default_factory=list)
    move_ms: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    contracts: dict[str, dict[str, int]] = field(default_factory=dict)
    #: decisions reused from another arrangement of their deal set (counted in ``move_ms``)
    reused: int = 0

    def count_contract(self, summary: JSON, arrangement: tuple[str, ...]) -> None:
        """Count one played deal in the declarer's win rate of its contract."""
        contract = str(summary.get("contract"))
        counts = ("deals", "declared", "declarer_won", "a_declared", "a_won", "b_declared", "b_won")
        row = self.contracts.setdefault(contract, dict.fromkeys(counts, 0))
        row["deals"] += 1
        declarer = summary.get("declarer")
        if declarer is None:
            return
        level = arrangement[declarer]
        won = bool(summary.get("declarer_won"))
        row["declared"] += 1
        row["declarer_won"] += won
        row[f"{level}_declared"] += 1
        row[f"{level}_won"] += won


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank; 0 for none).

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), percentile([], 0.95)
    (3.0, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def median_interval(values: list[float]) -> tuple[float, float, float]:
    """The median of ``values`` and a 95 % confidence interval for it that assumes nothing
    about their distribution (the order statistics at the ranks n/2 ∓ 1.96·√n/2, the sign
    test's interval): the measure where the mean does not exist. In a game whose calls
    double a deal's value without a limit, a uniformly random player doubles at every step
    with probability ½, so its expected settlement is a sum of ½·2 + ¼·4 + … that never
    ends: no number of deal sets makes the mean's interval narrow.

    >>> median_interval([float(v) for v in range(1, 101)])
    (50.5, 40.0, 61.0)
    >>> median_interval([3.0]), median_interval([])
    ((3.0, 3.0, 3.0), (0.0, 0.0, 0.0))
    """
    n = len(values)
    if not n:
        return 0.0, 0.0, 0.0
    ordered = sorted(values)
    middle = (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
    reach = Z95 * math.sqrt(n) / 2
    low = max(1, math.floor(n / 2 - reach))
    high = min(n, math.ceil(n / 2 + reach) + 1)
    return middle, ordered[low - 1], ordered[high - 1]


#: What a deal set's decisions are remembered by: the level, the seed and the actions so far.
DecisionKey = tuple[str, int, tuple[tuple[int, int], ...]]


@dataclass
class Decisions:
    """The decisions made in one deal set (the same cards), each with the time it took:
    an arrangement that reaches a position another one asked about gets the same answer
    (the same information set, level and seed give the same action)."""

    made: dict[DecisionKey, tuple[str, float]] = field(default_factory=dict)
    #: how often a decision was reused instead of made again
    reused: int = 0


def play_deal(
    rules: Rules[Any],
    dealt: Dealt,
    options: Mapping[str, object],
    levels: Mapping[str, str],
    arrangement: tuple[str, ...],
    seed: int,
    stats: DuelStats,
    clock: Callable[[], float] = time.perf_counter,
    decisions: Decisions | None = None,
) -> JSON:
    """Play one deal with the levels seated as ``arrangement`` says; its outcome.
    ``decisions``: those of the deal set's other arrangements (the same ``dealt``,
    ``options`` and ``seed``), reused where this deal reaches the same position."""
    deal = rules.new_deal(dealt, options)
    first = [list(deal.view(seat)["hand"]) for seat in range(rules.seats)]
    step = 0
    while not deal.finished:
        seat = deal.to_move
        assert seat is not None
        side = arrangement[seat]
        level = levels[side]
        decision_seed = seed * 2003 + 2 * step + (side == "b")
        if not first[seat]:  # the hands are chosen after the deal: from the first view with cards
            first[seat] = info_for(deal, seat)["hand_dealt"]
        key: DecisionKey = (level, decision_seed, tuple(deal.history))
        known = decisions.made.get(key) if decisions is not None else None
        if known is not None and decisions is not None:
            text, ms = known
            decisions.reused += 1
        else:
            info = info_for(deal, seat, hand_dealt=first[seat])
            start = clock()
            text = choose(info, level, decision_seed)
            ms = (clock() - start) * 1000
            if decisions is not None:
                decisions.made[key] = (text, ms)
        stats.move_ms[side].append(ms)
        deal.act(seat, text)
        step += 1
    outcome: JSON | None = deal.outcome()
    assert outcome is not None
    return outcome


def play_sets(
    game: str,
    a: str,
    b: str,
    deal_sets: int,
    seed: int = 1,
    options: Mapping[str, object] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    reuse: bool = True,
) -> DuelStats:
    """Play ``deal_sets`` duplicate deal sets of ``game`` between levels ``a`` and ``b``;
    what they collected (several runs merge with :func:`merge`; ``clock`` times each
    decision: the wall clock, or ``time.process_time`` for the CPU a decision took;
    ``reuse``: a decision another arrangement of the deal set made at the same position
    is reused, see the module text — the same results, for less work)."""
    rules = get_rules(game)
    resolved = rules.resolve_options(options)
    rng = random.Random(seed)
    stats = DuelStats()
    seats = arrangements(rules.seats)
    levels = {"a": a, "b": b}
    for _ in range(deal_sets):
        dealt = rules.shuffle_and_deal(rng)
        deal_seed = rng.randrange(1 << 30)
        total = 0.0
        decisions = Decisions() if reuse else None
        for arrangement in seats:
            outcome = play_deal(
                rules, dealt, resolved, levels, arrangement, deal_seed, stats, clock, decisions
            )
            settlement = outcome["settlement"]
            mine = [settlement[s] for s, side in enumerate(arrangement) if side == "a"]
            theirs = [settlement[s] for s, side in enumerate(arrangement) if side == "b"]
            total += sum(mine) / len(mine) - sum(theirs) / len(theirs)
            stats.count_contract(rules.summarize(outcome), arrangement)
        stats.values.append(total / len(seats))
        if decisions is not None:
            stats.reused += decisions.reused
    return stats


def merge(parts: list[DuelStats]) -> DuelStats:
    """One duel's statistics from the runs it was played in."""
    merged = DuelStats()
    for part in parts:
        merged.values.extend(part.values)
        merged.reused += part.reused
        for side, times in part.move_ms.items():
            merged.move_ms[side].extend(times)
        for contract, row in part.contracts.items():
            into = merged.contracts.setdefault(contract, dict.fromkeys(row, 0))
            for key, count in row.items():
                into[key] += count
    return merged


def duel(
    game: str,
    a: str,
    b: str,
    deal_sets: int,
    seed: int = 1,
    options: Mapping[str, object] | None = None,
) -> JSON:
    """Play ``deal_sets`` duplicate deal sets of ``game`` between levels ``a`` and ``b``
    and return the report (the form of ``stammtisch duel --json``, ``docs/bots.md``)."""
    return report(game, a, b, seed, play_sets(game, a, b, deal_sets, seed, options))


def report(game: str, a: str, b: str, seed: int, stats: DuelStats) -> JSON:
    """The duel's report from what it collected."""
    values = stats.values
    n = len(values)
    mean = sum(values) / n if n else 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n) if n > 1 else 0.0
    by_contract: JSON = {}
    for contract, row in sorted(stats.contracts.items()):
        entry: JSON = dict(row)
        entry["declarer_rate"] = (
            round(row["declarer_won"] / row["declared"], 4) if row["declared"] else None
        )
        by_contract[contract] = entry
    return {
        "game": game,
        "a": a,
        "b": b,
        "seed": seed,
        "deal_sets": n,
        "mean": round(mean, 4),
        "ci_low": round(mean - half, 4),
        "ci_high": round(mean + half, 4),
        # the median and its interval (distribution-free; see :func:`median_interval`)
        **dict(
            zip(
                ("median", "median_low", "median_high"),
                (round(v, 4) for v in median_interval(values)),
                strict=True,
            )
        ),
        "move_ms": {
            side: {
                "p50": round(percentile(times, 0.5), 3),
                "p95": round(percentile(times, 0.95), 3),
                "max": round(max(times, default=0.0), 3),
                "decisions": len(times),
            }
            for side, times in stats.move_ms.items()
        },
        "by_contract": by_contract,
    }


def format_report(result: JSON) -> str:
    """The report as lines of text for a terminal."""
    lines = [
        f"{result['game']}: {result['a']} (a) against {result['b']} (b), "
        f"{result['deal_sets']} deal sets, seed {result['seed']}",
        f"a − b per deal: {result['mean']:+.3f}  (95 % CI {result['ci_low']:+.3f} … "
        f"{result['ci_high']:+.3f})",
        f"median: {result['median']:+.3f}  (95 % CI {result['median_low']:+.3f} … "
        f"{result['median_high']:+.3f})",
    ]
    for side in ("a", "b"):
        ms = result["move_ms"][side]
        lines.append(
            f"move time {side}: p50 {ms['p50']:.3f} ms, p95 {ms['p95']:.3f} ms, "
            f"max {ms['max']:.3f} ms over {ms['decisions']} decisions"
        )
    lines.append("contract: deals, declarer won / declared (a, b)")
    for contract, row in result["by_contract"].items():
        rate = "-" if row["declarer_rate"] is None else f"{100 * row['declarer_rate']:.1f} %"
        lines.append(
            f"  {contract}: {row['deals']}, {row['declarer_won']}/{row['declared']} = {rate} "
            f"(a {row['a_won']}/{row['a_declared']}, b {row['b_won']}/{row['b_declared']})"
        )
    return "\n".join(lines)
