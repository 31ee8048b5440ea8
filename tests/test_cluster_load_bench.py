"""The several-processes load benchmark (``bench/cluster_load.py``) in a short run, so that
it keeps working: three tables on a throw-away PostgreSQL database and the test Redis,
played by one process with Redis, by two processes that forward half of the sockets'
traffic to each other, and by one process without Redis.

Nothing here is timed (the figures are in docs/benchmarks.md, "Several processes"): every
phase plays, nothing is refused and no table stalls, commands are forwarded in the
two-process layout and only there, and the report carries the figures the docs quote.
"""

from __future__ import annotations

import sys

import pytest

from tests.support import run_bench

pytestmark = [pytest.mark.live_server, pytest.mark.postgres]

COMMAND = [
    sys.executable, "bench/cluster_load.py", "--json", "--no-pin", "--client-procs", "1",
    "--tables", "3", "--rounds", "1", "--seconds", "2", "--rate", "100", "--warm-up", "20",
]  # fmt: skip


def test_a_short_cluster_load_run_forwards_between_two_processes(
    postgres_url: str, redis_url: str
) -> None:
    command = [*COMMAND, "--database-url", postgres_url, "--redis-url", redis_url]
    report = run_bench(command, timeout=300)
    phases = {(r["layout"], r["mode"]): r for r in report["results"]}
    assert set(phases) == {
        (layout, mode) for layout in ("one", "two", "single") for mode in ("saturation", "offered")
    }
    for (layout, mode), phase in phases.items():
        where = f"{layout} {mode}: {phase}"
        assert phase["processes"] == (2 if layout == "two" else 1), where
        assert phase["actions"] > 0, where
        assert phase["errors"] == 0 and phase["stalls"] == 0, where
        assert phase["server_us_per_action"] > 0, where
        assert len(phase["server_cpu_each"]) == phase["processes"], where
        for key in ("p50_ms", "p95_ms", "p99_ms", "actions_per_second",
                    "redis_us_per_action", "postgres_us_per_action"):  # fmt: skip
            assert isinstance(phase[key], int | float), (key, where)
        # every stored action is one the clients saw (the phase ends with every table
        # settled), seen by the processes' own counters
        assert phase["stored_actions"] >= phase["actions"], where
        assert sum(phase["tables_owned_each"]) >= 3, where
        if layout == "two":
            # each process owns tables (claimed by the first greeting), and forwards
            assert all(n > 0 for n in phase["tables_owned_each"]), where
            assert phase["forwarded_commands"] > 0, where
            assert phase["forwarded_frames"] > 0, where
            assert 0 < phase["forwarded_share"] < 1, where
        else:
            assert phase["forwarded_commands"] == 0, where
            assert phase["forwarded_frames"] == 0, where
    assert {(r["layout"], r["mode"]) for r in report["medians"]} == set(phases)
    cost = {row["mode"]: row for row in report["forwarding_cost"]}
    assert set(cost) == {"saturation", "offered"}
    for row in cost.values():
        for key in ("extra_server_us_per_action", "extra_server_and_redis_us_per_action",
                    "us_per_fully_forwarded_action", "us_per_forwarded_message"):  # fmt: skip
            assert isinstance(row[key], int | float), (key, row)
        assert 0 < row["forwarded_share"] < 1, row
    assert len(report["load_average"]["before"]) == 3
