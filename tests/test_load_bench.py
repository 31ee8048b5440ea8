"""The WebSocket load benchmark (``bench/load.py``) in a short run, so that it keeps working
as the protocol changes: the server as ``make run`` starts it on a fresh SQLite database,
three tables of scripted clients playing matches of one round (three deals) through their
deal ends and Revanches, and the bare broadcast padded to the server's frame size; and its
computer modes: two tables of people beside three Doppelkopf tables of a person and three
computer players, which rest in one phase and play in the other.

Nothing here is timed (the figures are in docs/benchmarks.md): actions flow in every phase,
every deal that ends is followed by the next one, matches end and start again, nothing is
refused and no table stalls. The clients take one event in fifty for one that does not
follow the event before (as if that had been lost), so that their resync (``hello`` again,
then the snapshot) is exercised too.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from tests.support import run_bench

pytestmark = pytest.mark.live_server

COMMAND = [
    sys.executable, "bench/load.py", "--json", "--no-pin", "--client-procs", "1",
    "--tables", "3", "--rounds", "1", "--seconds", "2.5", "--rate", "150",
    "--warm-up", "30", "--drop-events", "0.02",
]  # fmt: skip


#: The computer modes: the computer players without a pause (then they do not wait for a
#: finished trick either), their person quick, so that a few seconds see many moves.
COMPUTERS = [
    sys.executable, "bench/load.py", "--json", "--no-pin", "--client-procs", "1",
    "--tables", "2", "--rounds", "1", "--seconds", "2.5", "--mode", "computers",
    "--no-baseline", "--people-rate", "40", "--warm-up", "20", "--computer-tables", "3",
    "--computer-level", "einsteiger", "--computer-pause", "0,0", "--person-pause", "20,60",
    "--computer-warm-up", "1", "--repeats", "2",
]  # fmt: skip


def run(command: list[str]) -> dict[str, Any]:
    """Run the benchmark; its JSON report."""
    return run_bench(command, timeout=120)


def test_a_short_load_run_plays_deals_and_matches_to_their_ends() -> None:
    report = run(COMMAND)
    phases = {(r["target"], r["mode"]): r for r in report["results"]}
    assert set(phases) == {
        (target, mode) for target in ("server", "baseline") for mode in ("saturation", "offered")
    }
    for (target, mode), phase in phases.items():
        where = f"{target} {mode}: {phase}"
        assert phase["actions"] > 0, where
        assert phase["errors"] == 0 and phase["stalls"] == 0, where
        assert phase["server_us_per_action"] > 0, where
        if target == "server":
            # a phase begins and ends in a deal with somebody to move: every deal that
            # ended in it was followed by the next one (after a match's last deal: by the
            # Revanche's first), and every finished match by its Revanche
            assert phase["deals_started"] == phase["deal_ends"], where
            assert phase["out_of_order"] == 0, where
            assert phase["rematches"] == phase["matches_finished"], where
        else:  # padded to the server's mean frame size of the same mode (resyncs aside)
            assert phase["padded_to"] == phases["server", mode]["bytes_per_frame"], where
            assert abs(phase["bytes_per_frame"] - phase["padded_to"]) <= 0.05 * phase["padded_to"]
    server = [phases["server", mode] for mode in ("saturation", "offered")]
    assert sum(p["deal_ends"] for p in server) >= 1, server
    assert sum(p["next_deals"] for p in server) >= 1, server
    assert min(p["frames_per_action"] for p in server) > 3, server  # the deal ends' too
    assert sum(p["resyncs"] for p in server) >= 1, server
    # a match of one round has at most 3 * 60 actions, so a table that played more than
    # that finished one; the three tables together play some 1,500 actions in a normal run
    if sum(p["actions"] for p in server) > 3 * 3 * 60:
        assert sum(p["matches_finished"] for p in server) >= 1, server
        assert sum(p["rematches"] for p in server) >= 1, server
    assert report["medians"] and report["ratios_to_baseline"] and report["aims"]


def test_the_computer_tables_rest_in_one_phase_and_play_in_the_other() -> None:
    report = run(COMPUTERS)
    assert report["computer_tables"] == 3 and report["computer_level"] == "einsteiger"
    phases = report["results"]
    # two repeats, the two modes in turns: people first, then computers first
    assert [(p["repeat"], p["mode"]) for p in phases] == [
        (1, "people"), (1, "computers"), (2, "computers"), (2, "people"),
    ]  # fmt: skip
    for phase in phases:
        where = f"{phase['mode']}: {phase}"
        assert phase["target"] == "server", where
        assert phase["actions"] > 0, where  # the people's tables play in both
        assert phase["errors"] == 0 and phase["stalls"] == 0, where
        assert phase["computer_table_errors"] == 0, where
        assert phase["computer_tables"] == 3, where
        for key in ("p50_ms", "p95_ms", "p99_ms", "server_cpu", "computer_moves_per_second",
                    "server_us_per_move", "pool_cpu"):  # fmt: skip
            assert key in phase, (key, where)
        if phase["mode"] == "computers":
            # every computer table played, its person too
            assert phase["computer_moves"] > 0 and phase["tables_moved"] == 3, where
            assert phase["person_moves"] > 0, where
        else:  # resting: waiting for their person, who does not play
            assert phase["person_moves"] == 0, where
            assert phase["computer_moves"] <= phase["computer_tables"], where
    modes = {row["mode"]: row for row in report["medians"]}
    assert set(modes) == {"people", "computers"}
    assert modes["computers"]["computer_moves_per_second"] > 0
    assert modes["people"]["runs"] == modes["computers"]["runs"] == 2
    assert any(line.startswith("people's tables at 40/s with 3 computer tables")
               for line in report["aims"])  # fmt: skip
