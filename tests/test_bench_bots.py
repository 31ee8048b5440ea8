"""The computer players' benchmark runs (a tiny run: it cannot rot unseen)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from server.bots.players import version_of

ROOT = Path(__file__).resolve().parents[1]


def test_a_tiny_run_of_the_bots_benchmark(tmp_path: Path) -> None:
    out = tmp_path / "bots.json"
    done = subprocess.run(
        [sys.executable, "bench/bots.py", "--games", "dreierles", "--sets", "1", "--chunk", "1",
         "--jobs", "1", "--decisions", "30", "--stark-decisions", "2", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    pairs = [(d["a"], d["b"], d["deal_sets"]) for d in results["duels"]]
    assert pairs == [("einsteiger", "random", 1), ("stark", "einsteiger", 1)]
    assert [(r["level"], r["decisions"], r["illegal"]) for r in results["legality"]] == [
        ("einsteiger", 30, 0),
        ("stark", 2, 0),
    ]
    assert "| dreierles | stark | einsteiger | 1 |" in done.stdout


def test_a_duel_kept_in_a_progress_directory_continues_where_it_stopped(tmp_path: Path) -> None:
    def run(sets: int, *extra: str) -> dict[str, object]:
        out = tmp_path / f"out-{sets}-{len(extra)}.json"
        done = subprocess.run(
            [sys.executable, "bench/bots.py", "--games", "dreierles", "--pairs",
             "einsteiger:random", "--sets", str(sets), "--chunk", "2", "--jobs", "2",
             "--decisions", "0", "--stark-decisions", "0", "--json", str(out), *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        duel: dict[str, object] = json.loads(out.read_text())["duels"][0]
        return duel

    kept = tmp_path / "kept"
    first = run(4, "--progress", str(kept))
    assert (first["deal_sets"], first["runs"]) == (4, 2)
    stored = json.loads((kept / "dreierles-einsteiger-random.json").read_text())
    assert stored["runs_done"] == [0, 1] and len(stored["values"]) == 4
    more = run(8, "--progress", str(kept))  # plays runs 2 and 3 only
    assert (more["deal_sets"], more["runs"]) == (8, 4)
    fresh = run(8)  # the same eight deal sets in one go
    for key in ("deal_sets", "mean", "ci_low", "ci_high", "by_contract"):
        assert more[key] == fresh[key], key
    assert more["move_ms"]["a"]["decisions"] == fresh["move_ms"]["a"]["decisions"]  # type: ignore[index]
    # another duel's file in the same place is refused, not mixed in
    clash = subprocess.run(
        [sys.executable, "bench/bots.py", "--games", "dreierles", "--pairs", "einsteiger:random",
         "--sets", "2", "--chunk", "1", "--decisions", "0", "--stark-decisions", "0",
         "--progress", str(kept)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert clash.returncode != 0 and "holds another duel" in clash.stderr
    # the file says which versions of the levels played; runs of another version are
    # refused (a file kept before versions were written counts as version 1)
    path = kept / "dreierles-einsteiger-random.json"
    assert stored["versions"] == {
        "a": version_of("einsteiger", "dreierles"), "b": version_of("random", "dreierles")
    }  # fmt: skip
    path.write_text(json.dumps({**stored, "versions": {"a": 99, "b": 1}}))
    older = subprocess.run(
        [sys.executable, "bench/bots.py", "--games", "dreierles", "--pairs", "einsteiger:random",
         "--sets", "4", "--chunk", "2", "--decisions", "0", "--stark-decisions", "0",
         "--progress", str(kept)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert older.returncode != 0 and "versions" in older.stderr
    assert "move it aside" in older.stderr
    without = {k: v for k, v in stored.items() if k != "versions"}
    path.write_text(json.dumps(without))
    assert run(4, "--progress", str(kept))["deal_sets"] == 4  # version 1 of both: kept


def test_the_bots_benchmark_examples_hold() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "doctest", "-v", "bench/bots.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout
    assert "0 failed" in done.stdout


def test_a_legality_sweep_kept_in_a_progress_directory_continues_where_it_stopped(
    tmp_path: Path,
) -> None:
    def run(decisions: int, *extra: str) -> dict[str, Any]:
        out = tmp_path / f"out-{decisions}-{len(extra)}.json"
        done = subprocess.run(
            [sys.executable, "bench/bots.py", "--games", "doppen", "--pairs", "",
             "--decisions", str(decisions), "--stark-decisions", "0", "--legality-chunk",
             "25", "--jobs", "2", "--json", str(out), *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "| doppen | einsteiger |" in done.stdout
        row: dict[str, Any] = json.loads(out.read_text())["legality"][0]
        return row

    kept = tmp_path / "kept"
    first = run(50, "--progress", str(kept))
    assert (first["decisions"], first["illegal"], first["runs"]) == (50, 0, 2)
    stored = json.loads((kept / "doppen-einsteiger-legality.json").read_text())
    assert stored["runs_done"] == [0, 1] and stored["decisions"] == 50
    assert sum(stored["histogram"].values()) == 50
    assert 0 < first["p50_ms"] <= first["p95_ms"] <= first["slowest_ms"] + 0.05
    more = run(100, "--progress", str(kept))  # plays runs 2 and 3 only
    assert (more["decisions"], more["runs"]) == (100, 4)
    fresh = run(100)  # the same positions and answers in one go
    assert fresh["digests"] == more["digests"] and len(set(fresh["digests"].values())) == 4
    # a sweep kept for another chunk is refused, not mixed in
    clash = subprocess.run(
        [sys.executable, "bench/bots.py", "--games", "doppen", "--pairs", "", "--decisions",
         "50", "--stark-decisions", "0", "--legality-chunk", "10", "--progress", str(kept)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert clash.returncode != 0 and "holds another sweep" in clash.stderr


def test_the_bots_benchmark_refuses_counts_it_cannot_play() -> None:
    for argument, value, says in (
        ("--chunk", "0", "0 is less than 1"),
        ("--legality-chunk", "-5", "-5 is less than 0"),
        ("--stark-decisions", "many", "'many' is not a whole number"),
    ):
        done = subprocess.run(
            [sys.executable, "bench/bots.py", "--games", "dreierles", argument, value],
            cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and says in done.stderr, (argument, done.stderr)
        assert done.stdout == ""  # refused before anything was played
