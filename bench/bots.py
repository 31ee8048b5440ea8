"""How well and how fast the computer players play: duplicate duels and a legality sweep.

Two parts, for every playable game (``--games`` to choose):

- **duels** (``--pairs``, default ``einsteiger:random,stark:einsteiger``): duplicate deal
  sets (:mod:`server.bots.duel`: the same cards with the two levels in every seat
  arrangement), ``--sets`` of them per game and pair, played in runs of ``--chunk`` sets
  by ``--jobs`` processes (run ``k`` has the seed ``--seed`` + ``k``, so the result does not
  depend on the number of processes). Reported: the mean settlement difference per deal
  set (a − b, the game's own points) with its 95 % confidence interval, and the CPU time
  of each level's decisions (``time.process_time``: a shared machine's load does not
  enter) as median, 95th percentile and maximum;
- **legality** (``--decisions`` for the rule-based level, ``--stark-decisions`` for the
  searching one): deals played at random, every position with a choice handed to the
  level; every answer must be a legal action of the seat (a failure is printed and the
  exit status is 1), and the slowest decision is reported (CPU time).

The full run of issue 30 (2,000 deal sets per game and pair, 100,000 rule-based decisions
per game) is ``make bench-bots``; it takes hours on two cores (the searching player's
duels nearly all of it). Results go into docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import choose
from server.bots.duel import DuelStats, merge, play_sets, report
from server.bots.info import info_for
from server.engine.registry import get_rules, playable


def _run(job: tuple[str, str, str, int, int]) -> DuelStats:
    """One run of a duel (in a worker process)."""
    game, a, b, sets, seed = job
    return play_sets(game, a, b, sets, seed, clock=time.process_time)


def duel_report(
    pool: ProcessPoolExecutor, game: str, a: str, b: str, sets: int, chunk: int, seed: int
) -> dict[str, Any]:
    """The report of one duel played in runs of ``chunk`` deal sets."""
    jobs = []
    for k, start in enumerate(range(0, sets, chunk)):
        jobs.append((game, a, b, min(chunk, sets - start), seed + k))
    stats = merge(list(pool.map(_run, jobs)))
    return report(game, a, b, seed, stats)


def legality(game: str, level: str, decisions: int, seed: int) -> dict[str, Any]:
    """``decisions`` decisions of ``level`` at positions of deals played at random: how
    many were illegal, and the slowest (CPU ms)."""
    rules = get_rules(game)
    rng = random.Random(seed)
    asked = illegal = 0
    slowest = 0.0
    while asked < decisions:
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while not deal.finished and asked < decisions:
            seat = deal.to_move
            assert seat is not None
            legal = [t for t in deal.legal_texts(seat) if t != "takeback"]
            if len(legal) > 1:
                info = info_for(deal, seat)
                start = time.process_time()
                text = choose(info, level, rng.randrange(1 << 30))
                slowest = max(slowest, (time.process_time() - start) * 1000)
                asked += 1
                if text not in legal:
                    illegal += 1
                    print(f"ILLEGAL {game} {level}: {text!r} not in {legal}", file=sys.stderr)
            seat_move = deal.random_action(rng)
            deal.apply(seat_move[1], seat_move[0])
    return {
        "game": game,
        "level": level,
        "decisions": asked,
        "illegal": illegal,
        "slowest_ms": round(slowest, 1),
    }


def _legality_job(job: tuple[str, str, int, int]) -> dict[str, Any]:
    return legality(*job)


def main() -> int:
    """Run the benchmark and print its tables (and JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(playable()))
    parser.add_argument("--pairs", default="einsteiger:random,stark:einsteiger")
    parser.add_argument("--sets", type=int, default=100, help="deal sets per game and pair")
    parser.add_argument("--chunk", type=int, default=10, help="deal sets per run")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--decisions", type=int, default=10_000)
    parser.add_argument("--stark-decisions", type=int, default=200)
    parser.add_argument("--json", help="write the results to this file too")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",") if pair]
    results: dict[str, Any] = {"duels": [], "legality": []}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        print(
            "| game | a | b | deal sets | mean a − b | 95 % CI | a CPU p50 / p95 / max ms "
            "| b CPU p50 / p95 / max ms |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for game in games:
            for a, b in pairs:
                r = duel_report(pool, game, a, b, args.sets, args.chunk, args.seed)
                results["duels"].append(r)
                ma, mb = r["move_ms"]["a"], r["move_ms"]["b"]
                print(
                    f"| {game} | {a} | {b} | {r['deal_sets']} | {r['mean']:+.3f} | "
                    f"{r['ci_low']:+.3f} … {r['ci_high']:+.3f} | "
                    f"{ma['p50']:.2f} / {ma['p95']:.2f} / {ma['max']:.1f} | "
                    f"{mb['p50']:.2f} / {mb['p95']:.2f} / {mb['max']:.1f} |",
                    flush=True,
                )
        jobs = []
        for game in games:
            if args.decisions:
                jobs.append((game, "einsteiger", args.decisions, args.seed))
            if args.stark_decisions:
                jobs.append((game, "stark", args.stark_decisions, args.seed))
        print("\n| game | level | decisions | illegal | slowest (CPU ms) |")
        print("|---|---|---|---|---|")
        for row in pool.map(_legality_job, jobs):
            results["legality"].append(row)
            print(
                f"| {row['game']} | {row['level']} | {row['decisions']} | {row['illegal']} "
                f"| {row['slowest_ms']} |",
                flush=True,
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if any(row["illegal"] for row in results["legality"]) else 0


if __name__ == "__main__":
    raise SystemExit(main())
