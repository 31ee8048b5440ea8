"""Duplicate duels: the report's form, its determinism by seed, and the CLI."""

from __future__ import annotations

import json

import pytest

from server.bots.duel import arrangements, duel, format_report, play_sets
from server.cli import main
from server.engine.registry import playable


def _without_times(report: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in report.items() if k != "move_ms"}


def test_arrangements_seat_both_levels_evenly() -> None:
    assert ["".join(seats) for seats in arrangements(3)] == [
        "aab",
        "aba",
        "abb",
        "baa",
        "bab",
        "bba",
    ]
    assert ["".join(seats) for seats in arrangements(4)] == [
        "aabb",
        "abab",
        "abba",
        "baab",
        "baba",
        "bbaa",
    ]


def test_random_against_random_has_the_report_form_and_repeats_by_seed() -> None:
    report = duel("dreierles", "random", "random", 20, seed=7)
    assert set(report) == {"game", "a", "b", "seed", "deal_sets", "mean", "ci_low", "ci_high",
                           "median", "median_low", "median_high", "move_ms",
                           "by_contract"}  # fmt: skip
    assert report["game"] == "dreierles" and report["deal_sets"] == 20
    assert report["ci_low"] <= report["mean"] <= report["ci_high"]
    assert report["median_low"] <= report["median"] <= report["median_high"]
    assert set(report["move_ms"]) == {"a", "b"}
    for side in ("a", "b"):
        ms = report["move_ms"][side]
        assert ms["p50"] <= ms["p95"] <= ms["max"] and ms["decisions"] > 20 * 6 * 10
    deals = sum(row["deals"] for row in report["by_contract"].values())
    assert deals == 20 * 6
    for row in report["by_contract"].values():
        assert row["declared"] == row["a_declared"] + row["b_declared"]
        assert row["declarer_won"] == row["a_won"] + row["b_won"]
    again = duel("dreierles", "random", "random", 20, seed=7)
    assert _without_times(again) == _without_times(report)
    assert _without_times(duel("dreierles", "random", "random", 20, seed=8)) != _without_times(
        report
    )
    assert "20 deal sets" in format_report(report)


def test_the_duel_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["duel", "--game", "doppelkopf", "--a", "random", "--b", "random",
                 "--deals", "2", "--seed", "3", "--json"])  # fmt: skip
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "doppelkopf" and report["deal_sets"] == 2
    assert set(report["move_ms"]["a"]) == {"p50", "p95", "max", "decisions"}


def test_the_duel_command_refuses_unknown_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "--game", "dreierles", "--a", "meister", "--b", "random"]) == 2
    assert "unknown level 'meister'" in capsys.readouterr().err


@pytest.mark.parametrize("game", playable())
def test_reusing_a_deal_sets_decisions_changes_no_result(game: str) -> None:
    """The arrangements of a deal set that reach the same position get the decision made
    there once: every deal set, contract and decision comes out as when each is asked."""
    reused = play_sets(game, "einsteiger", "random", 4, seed=3)
    asked = play_sets(game, "einsteiger", "random", 4, seed=3, reuse=False)
    assert reused.values == asked.values
    assert reused.contracts == asked.contracts
    assert {side: len(ms) for side, ms in reused.move_ms.items()} == {
        side: len(ms) for side, ms in asked.move_ms.items()
    }
    assert asked.reused == 0 < reused.reused
