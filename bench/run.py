"""``make bench``: engine throughput, as medians of several runs, with ratios.

Measures, for Dreierles and Doppelkopf:

* **engine**: full random deals through the real engine (auction, blind, discards,
  knocks, 16 tricks, scoring) — the figure the foundation issue asks for;
* **Doppelkopf**: full random deals (Vorbehalte, Armut, Hochzeit, knocks, 12 tricks,
  scoring) the same way, with and without the checks;
* **engine + checks**: the same with every invariant of ``stammtisch playout`` checked
  (views after every action, replay of the record), i.e. what the test suite pays;
* **baseline**: a minimal bitmask trick loop (deal, 16 tricks with Farb-/Trumpfzwang,
  no auction, no scoring), written here only to put the engine's overhead in proportion.

Run ``python bench/run.py --help`` for the knobs. Results go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.engine.bits import nth_card
from server.engine.cards import TAROCK
from server.engine.playout import play_random, run_playouts
from server.engine.registry import get_rules
from server.engine.tricks import tarock_rules


def engine_run(game: str) -> Callable[[int, int], tuple[int, int]]:
    """A runner playing random deals of ``game`` through the engine: (deals, actions)."""

    def run(deals: int, seed: int) -> tuple[int, int]:
        rules = get_rules(game)
        rng = random.Random(seed)
        actions = 0
        for _ in range(deals):
            deal, _problems = play_random(rules, rng)
            actions += len(deal.history)
        return deals, actions

    return run


def checked_run(game: str) -> Callable[[int, int], tuple[int, int]]:
    """A runner of random deals of ``game`` with every invariant checked (the
    information-set oracle aside: it replays alternative deals, which is a test's cost,
    not the engine's; ``stammtisch playout`` runs it)."""

    def run(deals: int, seed: int) -> tuple[int, int]:
        report = run_playouts(game, deals, seed, oracle=False)
        if report.invariant_failures:
            raise SystemExit(f"invariant failures: {report.failures[:3]}")
        return deals, report.actions

    return run


def baseline_run(deals: int, seed: int) -> tuple[int, int]:
    """A minimal bitmask playout of 16 tricks (no auction, blind or scoring)."""
    rules = tarock_rules(TAROCK)
    group_of, beats, trumps = rules.group_of, rules.beats, rules.trumps
    rng = random.Random(seed)
    rand = rng.random
    order = list(range(54))
    actions = 0
    for _ in range(deals):
        rng.shuffle(order)
        hands = [0, 0, 0]
        for i, c in enumerate(order[6:]):
            hands[i % 3] |= 1 << c
        leader = 0
        for _trick in range(16):
            lead = best = -1
            best_seat = leader
            for k in range(3):
                seat = (leader + k) % 3
                hand = hands[seat]
                if lead < 0:
                    legal = hand
                else:
                    legal = group_of[lead] & hand or trumps & hand or hand
                card = nth_card(legal, int(rand() * legal.bit_count()))
                hands[seat] = hand & ~(1 << card)
                if lead < 0:
                    lead = best = card
                elif (beats[best] >> card) & 1:
                    best, best_seat = card, seat
            leader = best_seat
            actions += 3
    return deals, actions


def machine() -> str:
    """The machine the figures were measured on, in one line."""
    return " ".join(
        [
            platform.machine(),
            platform.python_implementation(),
            platform.python_version(),
            platform.system(),
            f"{os.cpu_count()} CPUs",
        ]
    )


def measure(
    fn: Callable[[int, int], tuple[int, int]], deals: int, repeats: int
) -> dict[str, float]:
    """Median deals/s and actions/s over ``repeats`` runs of ``deals`` deals."""
    dps, aps = [], []
    for r in range(repeats):
        start = time.perf_counter()
        n, actions = fn(deals, 1000 + r)
        elapsed = time.perf_counter() - start
        dps.append(n / elapsed)
        aps.append(actions / elapsed)
    return {
        "deals_per_second": round(statistics.median(dps)),
        "actions_per_second": round(statistics.median(aps)),
        "runs": repeats,
        "deals_per_run": deals,
    }


def main() -> int:
    """Run the benchmarks and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5000, help="deals per run (engine)")
    parser.add_argument("--repeats", type=int, default=5, help="runs; the median is reported")
    parser.add_argument("--json", action="store_true", help="print only JSON")
    args = parser.parse_args()

    engine = measure(engine_run("dreierles"), args.deals, args.repeats)
    checked = measure(checked_run("dreierles"), max(50, args.deals // 25), args.repeats)
    doppelkopf = measure(engine_run("doppelkopf"), args.deals, args.repeats)
    doppelkopf_checked = measure(checked_run("doppelkopf"), max(50, args.deals // 25), args.repeats)
    baseline = measure(baseline_run, args.deals, args.repeats)
    result = {
        "machine": machine(),
        "dreierles_engine": engine,
        "dreierles_engine_with_checks": checked,
        "doppelkopf_engine": doppelkopf,
        "doppelkopf_engine_with_checks": doppelkopf_checked,
        "minimal_bitmask_baseline": baseline,
        "ratio_engine_to_baseline": round(
            engine["deals_per_second"] / baseline["deals_per_second"], 2
        ),
        "ratio_checked_to_engine": round(
            checked["deals_per_second"] / engine["deals_per_second"], 3
        ),
    }
    if not args.json:
        print(f"machine: {result['machine']}")
        print(
            f"{'benchmark':34} {'deals/s':>10} {'actions/s':>12}   (median of {args.repeats} runs)"
        )
        for name, key in (
            ("Dreierles, engine", "dreierles_engine"),
            ("Dreierles, engine + all checks", "dreierles_engine_with_checks"),
            ("Doppelkopf, engine", "doppelkopf_engine"),
            ("Doppelkopf, engine + all checks", "doppelkopf_engine_with_checks"),
            ("minimal bitmask trick loop", "minimal_bitmask_baseline"),
        ):
            row = result[key]
            assert isinstance(row, dict)
            print(f"{name:34} {row['deals_per_second']:>10,} {row['actions_per_second']:>12,}")
        print(
            f"engine / baseline: {result['ratio_engine_to_baseline']}   "
            f"checked / engine: {result['ratio_checked_to_engine']}"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
