"""Instructions and data-cache misses per deal, counted by valgrind's cachegrind.

On a shared machine the clock drifts by several per cent from run to run, which hides the
small steps an engine change makes. Cachegrind counts instead of timing: the same deals give
the same counts on a busy machine and an idle one. For each game and each tree (the working
tree and, with ``--ref``, a commit checked out into a temporary worktree) it runs the same
random deals (``play_random`` and the scoring, as ``bench/run.py``) once with ``--deals``
deals and once with none, and reports the difference per deal: instructions (``Ir``) and
first-level data-cache read and write misses (``D1``). Counts are not times: an instruction
that misses the cache costs many that hit, so the clock stays the judge
(``bench/run.py``, ``bench/compare.py``); the counts tell which way a change went.

The yardstick is counted the same way in every tree: the bare bitmask trick loop of
``bench/run.py`` (``baseline_run``: deal, 16 Tarock tricks with Farb- and Trumpfzwang, no
auction, no scoring), as many deals. Each game's row gives its instructions per deal as a
share of the loop's, ``loop / engine``: 0.5 means a deal of the game costs twice the loop's
instructions (the engine runs at half the loop's speed, by this count).

Needs ``valgrind`` on the PATH (Debian: ``apt-get install valgrind``); about half a minute
per game and tree for 300 deals.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


#: The name under which the bare trick loop is counted beside the games.
BARE_LOOP = "bare-loop"

#: Every playable game, in the order of the tables on docs/benchmarks.md.
GAMES = "dreierles,doppen,doppelkopf,tarock-zu-dritt,bayerisches-tarock"


def worker(game: str, deals: int) -> None:
    """Play ``deals`` random deals of ``game`` (or of the bare loop, :data:`BARE_LOOP`) in
    the tree on ``sys.path`` (seed 5)."""
    if game == BARE_LOOP:
        sys.path.insert(0, str(Path.cwd() / "bench"))
        from run import baseline_run  # type: ignore[import-not-found]

        baseline_run(deals, 5)
        return
    from server.engine.playout import play_random
    from server.engine.registry import get_rules

    rules = get_rules(game)
    rng = random.Random(5)
    for _ in range(deals):
        deal, _problems = play_random(rules, rng)
        deal.outcome()


def counts(tree: Path, game: str, deals: int) -> tuple[int, int]:
    """Instructions and D1 misses of a run of ``deals`` deals in ``tree``."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=/dev/null",
         sys.executable, str(ROOT / "bench" / "instructions.py"), "--worker", game,
         "--deals", str(deals)],
        cwd=tree, check=True, capture_output=True, text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"},
    ).stderr  # fmt: skip
    found = {}
    for name in ("I", "D1"):
        match = re.search(rf"{name}\s+(?:refs|misses):\s+([\d,]+)", out)
        if match is None:
            raise SystemExit(f"no {name} count in valgrind's report:\n{out[-2000:]}")
        found[name] = int(match.group(1).replace(",", ""))
    return found["I"], found["D1"]


def per_deal(tree: Path, game: str, deals: int) -> dict[str, int]:
    """Instructions and D1 misses per deal, the start-up run subtracted (after a run
    without valgrind, so that neither count pays for compiling the modules)."""
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "instructions.py"), "--worker", game,
         "--deals", "1"],
        cwd=tree, check=True, capture_output=True, env={"PYTHONPATH": str(tree)},
    )  # fmt: skip
    base_ir, base_d1 = counts(tree, game, 0)
    ir, d1 = counts(tree, game, deals)
    return {"instructions": (ir - base_ir) // deals, "d1_misses": (d1 - base_d1) // deals}


def main() -> int:
    """Count both trees and print a table and one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=GAMES, help="comma-separated games")
    parser.add_argument("--deals", type=int, default=300, help="deals per count")
    parser.add_argument("--ref", help="also count this commit, in a temporary worktree")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, str(Path.cwd()))
        worker(args.worker, args.deals)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    games = args.games.split(",")
    result: dict[str, dict[str, dict[str, int]]] = {}
    with tempfile.TemporaryDirectory(prefix="stammtisch-count-") as tmp:
        trees = {"now": ROOT}
        if args.ref:
            before = Path(tmp) / "ref"
            subprocess.run(["git", "worktree", "add", "--detach", str(before), args.ref],
                           cwd=ROOT, check=True, capture_output=True)  # fmt: skip
            trees = {args.ref: before, "now": ROOT}
        try:
            for game in [BARE_LOOP, *games]:
                result[game] = {label: per_deal(tree, game, args.deals)
                                for label, tree in trees.items()}  # fmt: skip
        finally:
            if args.ref:
                subprocess.run(["git", "worktree", "remove", "--force", str(trees[args.ref])],
                               cwd=ROOT, check=False)  # fmt: skip
    loop = result[BARE_LOOP]
    ratios = {
        game: {label: round(loop[label]["instructions"] / row["instructions"], 3)
               for label, row in rows.items()}
        for game, rows in result.items() if game != BARE_LOOP
    }  # fmt: skip
    print(
        f"{'game':20} {'tree':10} {'instructions/deal':>18} {'D1 misses/deal':>15}"
        f" {'loop/engine':>12} {'engine/loop':>12}"
    )
    for game, rows in result.items():
        for label, row in rows.items():
            share = loop[label]["instructions"] / row["instructions"]
            print(
                f"{game:20} {label:10} {row['instructions']:>18,} {row['d1_misses']:>15,}"
                f" {share:>12.3f} {1 / share:>12.2f}"
            )
    print(json.dumps({"deals": args.deals, "counts": result, "loop_over_engine": ratios}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
