"""The computer players' benchmark runs (a tiny run: it cannot rot unseen)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
