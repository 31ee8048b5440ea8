"""``make bench``: engine throughput, as medians of several runs, with ratios.

Measures, for every playable game of the registry:

* **engine**: full random deals through the real engine (auction, talon, discards,
  announcements, every trick, scoring) — the figure the foundation issue asks for;
* **engine + checks**: the same with every invariant of ``stammtisch playout`` checked
  (views after every action, replay of the record), i.e. what the test suite pays;
* **baseline**: a minimal bitmask trick loop (deal, 16 tricks with Farb-/Trumpfzwang,
  no auction, no scoring), written here only to put the engine's overhead in proportion.

Each game's engine figure is also given as a ratio to Dreierles', the yardstick the game
issues name: the runs alternate between the benchmarks round by round, and a ratio is the
median of the ratios within a round, so that a busy spell of a shared machine does not
fall on one game only. Run ``python bench/run.py --help`` for the
knobs. Results go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.engine.bits import nth_card
from server.engine.cards import TAROCK
from server.engine.playout import play_random, run_playouts
from server.engine.registry import get_rules, list_games
from server.engine.tricks import tarock_rules


def engine_run(game: str) -> Callable[[int, int], tuple[int, int]]:
    """A runner playing random deals of ``game`` through the engine: (deals, actions).

    The game's modules are imported here, before the clock starts (the registry imports
    every game on first use, some 40 ms: a tenth of a run of 3,000 deals)."""
    rules = get_rules(game)

    def run(deals: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        actions = 0
        for _ in range(deals):
            deal, _problems = play_random(rules, rng)
            deal.outcome()  # the scoring is part of a deal's cost
            actions += len(deal.history)
        return deals, actions

    return run


def checked_run(game: str) -> Callable[[int, int], tuple[int, int]]:
    """A runner of random deals of ``game`` with every invariant checked (the
    information-set oracle aside: it replays alternative deals, which is a test's cost,
    not the engine's; ``stammtisch playout`` runs it)."""
    get_rules(game)  # the imports before the clock starts

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


RUNNERS: dict[str, Callable[[str], Callable[[int, int], tuple[int, int]]]] = {
    "engine": engine_run,
    "checked": checked_run,
}


def runner(spec: str) -> Callable[[int, int], tuple[int, int]]:
    """The runner a spec names: ``engine:<game>``, ``checked:<game>`` or ``baseline``."""
    if spec == "baseline":
        return baseline_run
    kind, _, game = spec.partition(":")
    return RUNNERS[kind](game)


#: Deals played untimed before each timed run: the first few dozen deals of a fresh
#: process run a third slower (the interpreter specialises its instructions as it goes).
WARM_UP = 100


def worker(spec: str, deals: int, seed: int) -> None:
    """Time one run of ``spec`` in this process and print its rates as JSON."""
    fn = runner(spec)
    fn(min(WARM_UP, max(1, deals // 10)), seed + 10_000)  # untimed: see WARM_UP
    start = time.perf_counter()
    n, actions = fn(deals, seed)
    elapsed = time.perf_counter() - start
    print(json.dumps({"deals_per_second": n / elapsed, "actions_per_second": actions / elapsed}))


def timed(spec: str, deals: int, seed: int) -> tuple[float, float]:
    """Deals/s and actions/s of one run of ``spec``, in a fresh process: a run in a
    process that has already played other games inherits their heap, and that alone moved
    the ratios between games by several per cent."""
    out = subprocess.run(
        [sys.executable, __file__, "--worker", spec, "--deals", str(deals), "--seed", str(seed)],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    rates = json.loads(out.strip().splitlines()[-1])
    return float(rates["deals_per_second"]), float(rates["actions_per_second"])


def measure_rounds(
    runners: dict[str, tuple[str, int]], repeats: int
) -> dict[str, list[tuple[float, float]]]:
    """Every runner ``name: (spec, deals)`` once per round, ``repeats`` rounds: the runs
    alternate, so that a busy spell of a shared machine slows every game alike and the
    ratios between games, taken round by round, stay fair."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
    # the engine runs of a round back to back (their ratios are the figures that matter,
    # and a long checked run between two of them let the machine drift apart), in reversed
    # order every other round so that a drift within a round favours no game
    engine = [name for name, (spec, _deals) in runners.items() if spec.startswith("engine:")]
    rest = [name for name in runners if name not in engine]
    for r in range(repeats):
        for name in (engine if r % 2 == 0 else engine[::-1]) + rest:
            spec, deals = runners[name]
            runs[name].append(timed(spec, deals, 1000 + r))
    return runs


def summary(runs: list[tuple[float, float]], deals: int) -> dict[str, float]:
    """Median deals/s and actions/s of a runner's runs."""
    return {
        "deals_per_second": round(statistics.median(r[0] for r in runs)),
        "actions_per_second": round(statistics.median(r[1] for r in runs)),
        "runs": len(runs),
        "deals_per_run": deals,
    }


def key(game: str) -> str:
    """A game's name as a JSON key ("tarock-zu-dritt" → "tarock_zu_dritt")."""
    return game.replace("-", "_")


def main() -> int:
    """Run the benchmarks and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5000, help="deals per run (engine)")
    parser.add_argument("--repeats", type=int, default=5, help="rounds; medians")
    parser.add_argument("--game", action="append", help="only these games (default: all playable)")
    parser.add_argument("--json", action="store_true", help="print only JSON")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.deals, args.seed)
        return 0

    playable = [info.name for info in list_games() if info.implemented]
    unknown = [game for game in args.game or () if game not in playable]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)} (playable: {', '.join(playable)})")
    games = args.game or playable
    if "dreierles" not in games:
        games.insert(0, "dreierles")  # the yardstick of the ratios
    checked_deals = max(50, args.deals // 25)
    runners: dict[str, tuple[str, int]] = {}
    rows: list[tuple[str, str]] = []
    for game in games:
        title = next(info.title for info in list_games() if info.name == game)
        runners[f"{key(game)}_engine"] = (f"engine:{game}", args.deals)
        runners[f"{key(game)}_engine_with_checks"] = (f"checked:{game}", checked_deals)
        rows += [
            (f"{title}, engine", f"{key(game)}_engine"),
            (f"{title}, engine + all checks", f"{key(game)}_engine_with_checks"),
        ]
    runners["minimal_bitmask_baseline"] = ("baseline", args.deals)
    rows.append(("minimal bitmask trick loop", "minimal_bitmask_baseline"))
    runs = measure_rounds(runners, args.repeats)
    result: dict[str, object] = {"machine": machine()}
    for name, (_fn, deals) in runners.items():
        result[name] = summary(runs[name], deals)

    def ratio(name: str, base: str, digits: int = 2) -> float:
        """The median over the rounds of the two runners' deals/s in the same round."""
        pairs = zip(runs[name], runs[base], strict=True)
        return round(statistics.median(a[0] / b[0] for a, b in pairs), digits)

    result["ratio_engine_to_baseline"] = ratio("dreierles_engine", "minimal_bitmask_baseline")
    result["ratio_checked_to_engine"] = ratio("dreierles_engine_with_checks", "dreierles_engine", 3)
    result["ratio_to_dreierles"] = {
        game: ratio(f"{key(game)}_engine", "dreierles_engine") for game in games
    }
    result["ratio_to_dreierles_range"] = {
        game: [
            round(f(a[0] / b[0] for a, b in zip(runs[f"{key(game)}_engine"],
                                                runs["dreierles_engine"], strict=True)), 2)
            for f in (min, max)
        ]
        for game in games
    }  # fmt: skip
    if not args.json:
        print(f"machine: {result['machine']}")
        print(
            f"{'benchmark':42} {'deals/s':>10} {'actions/s':>12}   (median of {args.repeats} runs)"
        )
        for name, row_key in rows:
            row = result[row_key]
            assert isinstance(row, dict)
            print(f"{name:42} {row['deals_per_second']:>10,} {row['actions_per_second']:>12,}")
        print(
            f"engine / baseline: {result['ratio_engine_to_baseline']}   "
            f"checked / engine: {result['ratio_checked_to_engine']}"
        )
        print(f"engine / Dreierles engine: {result['ratio_to_dreierles']}")
        print(f"  lowest and highest of the rounds: {result['ratio_to_dreierles_range']}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
