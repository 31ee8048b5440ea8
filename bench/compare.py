"""Engine speed before and after a change, measured in one run: ``make bench-compare REF=…``.

Checks out ``--ref`` (a commit, default ``main``) into a temporary git worktree and times
the same work in both trees, alternating run by run so that a busy machine slows both
alike: full random deals of every game both trees know (``play_random``: the engine's own
random moves, every move checked by ``Deal.apply``, scoring included) and, as the yardstick,
the bare bitmask trick loop of ``bench/run.py`` (16 Tarock tricks, no auction or scoring).
Prints the medians, the ratio after/before per game and each tree's Dreierles engine as a
share of the bare loop, then the same as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def worker(game: str, deals: int, seed: int) -> None:
    """Time ``deals`` deals of ``game`` (or the bare loop) in the tree on ``sys.path``."""
    sys.path.insert(0, os.getcwd())
    if game == "bare-loop":
        sys.path.insert(0, str(Path.cwd() / "bench"))
        from run import baseline_run  # type: ignore[import-not-found]

        start = time.perf_counter()
        baseline_run(deals, seed)
    else:
        from server.engine.playout import play_random
        from server.engine.registry import get_rules

        rules = get_rules(game)
        rng = random.Random(seed)
        start = time.perf_counter()
        for _ in range(deals):
            deal, _problems = play_random(rules, rng)
            deal.outcome()
    print(json.dumps({"deals_per_second": deals / (time.perf_counter() - start)}))


def run_in(tree: Path, game: str, deals: int, seed: int) -> float:
    """Deals per second of one run in ``tree``."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compare.py"), "--worker", game,
         "--deals", str(deals), "--seed", str(seed)],
        cwd=tree, check=True, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )  # fmt: skip
    return float(json.loads(out.stdout.strip().splitlines()[-1])["deals_per_second"])


def main() -> int:
    """Measure both trees and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ref", default="main", help="the commit to compare against")
    parser.add_argument("--deals", type=int, default=3000, help="deals per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per tree; medians")
    parser.add_argument("--games", default="dreierles,doppelkopf")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.deals, args.seed)
        return 0
    commit = subprocess.run(
        ["git", "rev-parse", "--short", args.ref], cwd=ROOT, check=True,
        capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
        capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    benchmarks = [*args.games.split(","), "bare-loop"]
    with tempfile.TemporaryDirectory(prefix="stammtisch-bench-") as tmp:
        before = Path(tmp) / "before"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(before), commit], cwd=ROOT, check=True,
            capture_output=True,
        )  # fmt: skip
        try:
            figures: dict[str, dict[str, list[float]]] = {
                b: {"before": [], "after": []} for b in benchmarks
            }
            for r in range(args.repeats):
                for name in benchmarks:
                    for label, tree in (("before", before), ("after", ROOT)):
                        figures[name][label].append(run_in(tree, name, args.deals, 1000 + r))
                print(f"run {r + 1}/{args.repeats} done", file=sys.stderr)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False
            )
    medians = {
        name: {label: round(statistics.median(runs)) for label, runs in sides.items()}
        for name, sides in figures.items()
    }
    bare = medians["bare-loop"]
    result = {
        "before": commit,
        "after": head,
        "runs": args.repeats,
        "deals_per_run": args.deals,
        "deals_per_second": medians,
        "after_over_before": {
            name: round(m["after"] / m["before"], 2) for name, m in medians.items()
        },
        "dreierles_over_bare_loop": {
            label: round(medians["dreierles"][label] / bare[label], 2)
            for label in ("before", "after")
        }
        if "dreierles" in medians
        else None,
    }
    print(f"before = {commit}, after = {head} (working tree); medians of {args.repeats} runs")
    print(f"{'benchmark':14} {'before':>10} {'after':>10} {'after/before':>13}")
    for name, m in medians.items():
        ratio = result["after_over_before"][name]
        print(f"{name:14} {m['before']:>10,} {m['after']:>10,} {ratio:>13}")
    if result["dreierles_over_bare_loop"]:
        print(f"Dreierles engine / bare loop: {result['dreierles_over_bare_loop']}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
