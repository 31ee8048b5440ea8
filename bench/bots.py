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
  exit status is 1), and the decisions' CPU time is reported (median, 95th percentile,
  slowest). The sweep is played in runs of ``--legality-chunk`` decisions spread over the
  processes like the duels (run ``k`` from the seed ``--seed`` + ``k``; ``0``: one run).

The full run of issue 30 (2,000 deal sets per game and pair, 100,000 decisions per game
and level) is ``make bench-bots``; it takes about half a day on two cores (the searching
player's duels and sweep nearly all of it). Results go into docs/bots.md.

**Long runs keep their progress** with ``--progress DIR``: each finished run of a duel is
merged at once into ``DIR/<game>-<a>-<b>.json`` (written to a new file and renamed, so an
interrupted run loses at most the runs still being played; with the levels' versions,
``server.bots.players.version_of``: a file kept for another version is refused), and a later
call with the same seed, chunk and directory plays only the runs that are missing. The file
keeps what the report needs: every deal set's value, the contract counts, and each level's
decision times as a histogram of 2 % wide bins (its percentiles are the upper edge of their
bin, at most 2 % above the exact value and never above the maximum, which is exact).
The legality sweep keeps its runs so too, in ``DIR/<game>-<level>-legality.json``: the
decisions, the illegal answers, the time histogram and a digest of each run's answers
(the same seed asks the same positions and gets the same answers).
``--budget-seconds`` stops handing out new runs after that much wall time; the report then
covers the runs done so far.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import choose
from server.bots.duel import DuelStats, merge, play_sets, report
from server.bots.info import info_for
from server.bots.players import version_of
from server.engine.registry import get_rules, playable


def _run(job: tuple[str, str, str, int, int]) -> DuelStats:
    """One run of a duel (in a worker process)."""
    game, a, b, sets, seed = job
    return play_sets(game, a, b, sets, seed, clock=time.process_time)


#: The width of a decision-time histogram's bins: each is 2 % wider than the one below.
BIN_RATIO = 1.02
#: The lower edge of bin 0 (ms).
BIN_FLOOR = 0.001


def time_bin(ms: float) -> int:
    """The histogram bin of a decision that took ``ms`` milliseconds.

    >>> time_bin(0.0), time_bin(BIN_FLOOR), bin_edge(time_bin(50.0)) >= 50.0
    (0, 0, True)
    >>> bin_edge(time_bin(50.0)) <= 50.0 * BIN_RATIO
    True
    """
    if ms <= BIN_FLOOR:
        return 0
    return max(0, math.ceil(math.log(ms / BIN_FLOOR) / math.log(BIN_RATIO) - 1e-9))


def bin_edge(index: int) -> float:
    """The upper edge of histogram bin ``index`` (ms)."""
    return BIN_FLOOR * BIN_RATIO**index


def histogram_percentile(histogram: dict[str, int], share: float) -> float:
    """The ``share`` percentile of a histogram (nearest rank, as the upper edge of its bin).

    >>> hist = {str(time_bin(ms)): 1 for ms in (1.0, 2.0, 3.0, 4.0)}
    >>> round(histogram_percentile(hist, 0.5), 1), histogram_percentile({}, 0.5)
    (2.0, 0.0)
    """
    total = sum(histogram.values())
    if not total:
        return 0.0
    rank = max(1, math.ceil(share * total))
    seen = 0
    for index in sorted(histogram, key=int):
        seen += histogram[index]
        if seen >= rank:
            return bin_edge(int(index))
    return bin_edge(max(int(i) for i in histogram))  # pragma: no cover - rank <= total


class Kept:
    """Results merged one finished run at a time, kept in a file (``path``; ``None``: in
    memory only). A file kept for another ``key`` (another seed, chunk or version) is
    refused rather than mixed in."""

    #: what the file holds (for the refusal)
    kind = "run"
    #: keys a file kept by an older version of this script may lack, and their values then
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, path: Path | None, key: dict[str, Any], empty: dict[str, Any]) -> None:
        self.path = path
        self.data: dict[str, Any] = {**key, "runs_done": [], **empty}
        if path is not None and path.exists():
            stored = {**self.defaults, **json.loads(path.read_text())}
            clash = {k: (stored.get(k), v) for k, v in key.items() if stored.get(k) != v}
            if clash:
                raise SystemExit(
                    f"{path} holds another {self.kind}: {clash} (stored, asked); "
                    "move it aside to start this one"
                )
            self.data = stored

    def done(self, run: int) -> bool:
        """Whether run ``run`` is already merged."""
        return run in self.data["runs_done"]

    def add(self, run: int, result: Any) -> None:
        """Merge one finished run and write the file (new file, then rename)."""
        self.data["runs_done"] = sorted({*self.data["runs_done"], run})
        self.merge(result)
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_suffix(".tmp")
        fresh.write_text(json.dumps(self.data, sort_keys=True, separators=(",", ":")) + "\n")
        os.replace(fresh, self.path)

    def merge(self, result: Any) -> None:  # pragma: no cover - every kind has its own
        """Count one run's result into :attr:`data`."""
        raise NotImplementedError


def add_times(histogram: dict[str, int], times: list[float]) -> None:
    """Count decision times (ms) into a histogram of :func:`time_bin` bins."""
    for ms in times:
        index = str(time_bin(ms))
        histogram[index] = histogram.get(index, 0) + 1


def run_kept(
    pool: ProcessPoolExecutor,
    jobs: list[tuple[int, Any]],
    kept: Kept,
    work: Callable[[Any], Any],
    label: str,
    deadline: float,
    workers: int,
) -> None:
    """Play the runs ``jobs`` (``(k, job)``) that ``kept`` lacks, ``workers`` at a time,
    merging each as it finishes; none is handed out after ``deadline``."""
    waiting = [(k, job) for k, job in jobs if not kept.done(k)]
    running: dict[Future[Any], int] = {}
    while waiting or running:
        while waiting and len(running) < workers and time.monotonic() < deadline:
            k, job = waiting.pop(0)
            running[pool.submit(work, job)] = k
        if not running:
            break
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            kept.add(running.pop(future), future.result())
            print(f"  {label}: {len(kept.data['runs_done'])} of {len(jobs)} runs",
                  file=sys.stderr, flush=True)  # fmt: skip


class Progress(Kept):
    """A duel's results kept in a file, merged one finished run at a time."""

    kind = "duel"
    defaults: ClassVar[dict[str, Any]] = {"versions": {"a": 1, "b": 1}}  # kept before versions

    def __init__(self, path: Path, game: str, a: str, b: str, seed: int, chunk: int) -> None:
        # the levels' versions: the runs of a level that plays otherwise now are not merged
        versions = {"a": version_of(a, game), "b": version_of(b, game)}
        key = {"game": game, "a": a, "b": b, "seed": seed, "chunk": chunk, "versions": versions}
        super().__init__(path, key, {
            "values": [],
            "contracts": {},
            "histogram": {"a": {}, "b": {}},
            "max_ms": {"a": 0.0, "b": 0.0},
            "decisions": {"a": 0, "b": 0},
        })  # fmt: skip

    def merge(self, result: Any) -> None:
        """Count one run's deal sets, contracts and decision times."""
        stats: DuelStats = result
        data = self.data
        data["values"].extend(round(v, 6) for v in stats.values)
        for contract, row in stats.contracts.items():
            into = data["contracts"].setdefault(contract, dict.fromkeys(row, 0))
            for key, count in row.items():
                into[key] = into.get(key, 0) + count
        for side, times in stats.move_ms.items():
            add_times(data["histogram"][side], times)
            data["max_ms"][side] = round(max([data["max_ms"][side], *times]), 3)
            data["decisions"][side] += len(times)

    def report(self) -> dict[str, Any]:
        """The duel's report over the runs merged so far."""
        data = self.data
        result = report(data["game"], data["a"], data["b"], data["seed"], DuelStats(
            values=list(data["values"]), contracts=data["contracts"]
        ))  # fmt: skip
        top = data["max_ms"]
        result["move_ms"] = {
            side: {
                "p50": round(min(histogram_percentile(hist, 0.5), top[side]), 3),
                "p95": round(min(histogram_percentile(hist, 0.95), top[side]), 3),
                "max": data["max_ms"][side],
                "decisions": data["decisions"][side],
            }
            for side, hist in data["histogram"].items()
        }
        result["runs"] = len(data["runs_done"])
        return result


def duel_report(
    pool: ProcessPoolExecutor,
    game: str,
    a: str,
    b: str,
    sets: int,
    chunk: int,
    seed: int,
    progress: Path | None = None,
    deadline: float = math.inf,
    workers: int = 1,
) -> dict[str, Any]:
    """The report of one duel played in runs of ``chunk`` deal sets (with ``progress``: kept
    in that directory, only the missing runs played; no new run after ``deadline``, a
    ``time.monotonic`` value; ``workers`` runs at a time)."""
    jobs = []
    for k, start in enumerate(range(0, sets, chunk)):
        jobs.append((k, (game, a, b, min(chunk, sets - start), seed + k)))
    if progress is None:
        return report(game, a, b, seed, merge(list(pool.map(_run, [job for _, job in jobs]))))
    kept = Progress(progress / f"{game}-{a}-{b}.json", game, a, b, seed, chunk)
    run_kept(pool, jobs, kept, _run, f"{game} {a}:{b}", deadline, workers)
    return kept.report()


def legality(game: str, level: str, decisions: int, seed: int) -> dict[str, Any]:
    """``decisions`` decisions of ``level`` at positions of deals played at random (from
    ``seed``): which answers were illegal, each decision's CPU time (ms), and a digest of
    the answers (the same seed gives the same positions and answers)."""
    rules = get_rules(game)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    times: list[float] = []
    illegal: list[str] = []
    while len(times) < decisions:
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while not deal.finished and len(times) < decisions:
            seat = deal.to_move
            assert seat is not None
            legal = [t for t in deal.legal_texts(seat) if t != "takeback"]
            if len(legal) > 1:
                info = info_for(deal, seat)
                start = time.process_time()
                text = choose(info, level, rng.randrange(1 << 30))
                times.append((time.process_time() - start) * 1000)
                digest.update(f"{seat} {text}\n".encode())
                if text not in legal:
                    illegal.append(f"{game} {level}: {text!r} not in {legal}")
                    print(f"ILLEGAL {illegal[-1]}", file=sys.stderr, flush=True)
            seat_move = deal.random_action(rng)
            deal.apply(seat_move[1], seat_move[0])
    return {
        "game": game,
        "level": level,
        "seed": seed,
        "times": times,
        "illegal": illegal,
        "digest": digest.hexdigest()[:16],
    }


def _legality_job(job: tuple[str, str, int, int]) -> dict[str, Any]:
    return legality(*job)


class Sweep(Kept):
    """A legality sweep's results kept in a file, merged one finished run at a time."""

    kind = "sweep"

    def __init__(self, path: Path | None, game: str, level: str, seed: int, chunk: int) -> None:
        key = {"game": game, "level": level, "seed": seed, "chunk": chunk,
               "version": version_of(level, game)}  # fmt: skip
        super().__init__(path, key, {"illegal": [], "histogram": {}, "max_ms": 0.0,
                                     "decisions": 0, "digests": {}})  # fmt: skip

    def merge(self, result: dict[str, Any]) -> None:
        """Count one run's decisions, times and illegal answers."""
        data = self.data
        data["illegal"].extend(result["illegal"])
        data["digests"][str(result["seed"])] = result["digest"]
        times = result["times"]
        add_times(data["histogram"], times)
        data["max_ms"] = round(max([data["max_ms"], *times]), 3)
        data["decisions"] += len(times)

    def report(self) -> dict[str, Any]:
        """The sweep over the runs merged so far."""
        data = self.data
        hist, top = data["histogram"], data["max_ms"]
        return {
            "game": data["game"],
            "level": data["level"],
            "decisions": data["decisions"],
            "illegal": len(data["illegal"]),
            "p50_ms": round(min(histogram_percentile(hist, 0.5), top), 3),
            "p95_ms": round(min(histogram_percentile(hist, 0.95), top), 3),
            "slowest_ms": round(top, 1),
            "runs": len(data["runs_done"]),
            "digests": data["digests"],
        }


def sweep_report(
    pool: ProcessPoolExecutor,
    game: str,
    level: str,
    decisions: int,
    chunk: int,
    seed: int,
    progress: Path | None,
    deadline: float = math.inf,
    workers: int = 1,
) -> dict[str, Any]:
    """The legality sweep of ``decisions`` decisions of ``level`` in runs of ``chunk`` (run
    ``k`` from the seed ``seed`` + ``k``; with ``progress``: kept in that directory, only
    the missing runs played)."""
    jobs = [(k, (game, level, min(chunk, decisions - start), seed + k))
            for k, start in enumerate(range(0, decisions, chunk))]  # fmt: skip
    name = f"{game}-{level}-legality.json"
    kept = Sweep(progress / name if progress else None, game, level, seed, chunk)
    run_kept(pool, jobs, kept, _legality_job, f"{game} {level} legality", deadline, workers)
    return kept.report()


def counted(least: int) -> Callable[[str], int]:
    """An argument type: a whole number of at least ``least``.

    >>> counted(1)("3"), counted(0)("0")
    (3, 0)
    >>> counted(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0 is less than 1
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is less than {least}")
        return value

    return parse


def main() -> int:
    """Run the benchmark and print its tables (and JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(playable()))
    parser.add_argument("--pairs", default="einsteiger:random,stark:einsteiger")
    parser.add_argument("--sets", type=counted(0), default=100, help="deal sets per game and pair")
    parser.add_argument("--chunk", type=counted(1), default=10, help="deal sets per run")
    parser.add_argument("--jobs", type=counted(1), default=2, help="processes")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--decisions", type=counted(0), default=10_000)
    parser.add_argument("--stark-decisions", type=counted(0), default=200)
    parser.add_argument(
        "--legality-chunk", type=counted(0), default=1000,
        help="decisions per run of the legality sweep (run k from the seed --seed + k; "
        "0: all in one run from --seed)",
    )  # fmt: skip
    parser.add_argument("--json", help="write the results to this file too")
    parser.add_argument(
        "--progress", type=Path, help="keep each duel's and sweep's finished runs in this "
        "directory and play only the missing ones (a long run can be stopped and continued)"
    )  # fmt: skip
    parser.add_argument(
        "--budget-seconds", type=float, default=math.inf,
        help="hand out no new duel run after this many seconds (the report covers the runs done)",
    )  # fmt: skip
    args = parser.parse_args()
    deadline = time.monotonic() + args.budget_seconds
    games = [g for g in args.games.split(",") if g]
    pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",") if pair]
    results: dict[str, Any] = {"duels": [], "legality": []}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        print(
            "| game | a | b | deal sets | mean a − b | 95 % CI | median | 95 % CI "
            "| a CPU p50 / p95 / max ms | b CPU p50 / p95 / max ms |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for game in games:
            for a, b in pairs:
                r = duel_report(
                    pool,
                    game,
                    a,
                    b,
                    args.sets,
                    args.chunk,
                    args.seed,
                    args.progress,
                    deadline,
                    args.jobs,
                )
                results["duels"].append(r)
                ma, mb = r["move_ms"]["a"], r["move_ms"]["b"]
                print(
                    f"| {game} | {a} | {b} | {r['deal_sets']} | {r['mean']:+.3f} | "
                    f"{r['ci_low']:+.3f} … {r['ci_high']:+.3f} | {r['median']:+.3f} | "
                    f"{r['median_low']:+.3f} … {r['median_high']:+.3f} | "
                    f"{ma['p50']:.2f} / {ma['p95']:.2f} / {ma['max']:.1f} | "
                    f"{mb['p50']:.2f} / {mb['p95']:.2f} / {mb['max']:.1f} |",
                    flush=True,
                )
        sweeps = [(game, level, count) for game in games
                  for level, count in (("einsteiger", args.decisions),
                                       ("stark", args.stark_decisions)) if count]  # fmt: skip
        print("\n| game | level | decisions | illegal | CPU p50 / p95 / slowest ms |")
        print("|---|---|---|---|---|")
        for game, level, count in sweeps:
            row = sweep_report(
                pool, game, level, count, args.legality_chunk or count, args.seed,
                args.progress, deadline, args.jobs,
            )  # fmt: skip
            results["legality"].append(row)
            print(
                f"| {row['game']} | {row['level']} | {row['decisions']} | {row['illegal']} "
                f"| {row['p50_ms']:.2f} / {row['p95_ms']:.2f} / {row['slowest_ms']} |",
                flush=True,
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if any(row["illegal"] for row in results["legality"]) else 0


if __name__ == "__main__":
    raise SystemExit(main())
