"""The ``stammtisch`` command line, run as a real process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "tests" / "golden" / "dreierles" / "worked-example.json"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_replay_prints_the_outcome_with_money() -> None:
    result = run("replay", str(WORKED))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["finished"] is True and out["contract"] == "einer"
    assert [s["cents"] for s in out["settlement"]] == [90, -30, -60]
    assert [s["name"] for s in out["settlement"]] == ["Anna", "Bernd", "Catrin"]
    assert len(out["tricks"]) == 16 and out["card_points"]["declarer"] == "43"


def test_replay_of_an_unfinished_deal_prints_the_position() -> None:
    record = json.loads(WORKED.read_text(encoding="utf-8"))
    del record["outcome"]
    record["actions"] = record["actions"][:3]
    result = run("replay", "-", stdin=json.dumps(record))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["finished"] is False and out["phase"] == "discard"
    assert out["to_move"] == 0 and out["to_move_name"] == "Anna"
    assert all(a.startswith("discard ") for a in out["legal_actions"])


def test_replay_rejects_a_bad_record_with_its_position() -> None:
    record = json.loads(WORKED.read_text(encoding="utf-8"))
    record["actions"][0] = [0, "bid vierer"]
    result = run("replay", "-", stdin=json.dumps(record))
    assert result.returncode == 2
    assert "actions[0] (0, 'bid vierer')" in result.stderr
    assert result.stdout == ""
    missing = run("replay", "/nonexistent/record.json")
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_playout_reports_rates_and_no_failures() -> None:
    result = run("playout", "--game", "dreierles", "--deals", "50", "--seed", "3")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["deals"] == 50 and out["invariant_failures"] == 0
    assert out["actions"] > 50 * 50
    assert out["deals_per_second"] > 0 and out["actions_per_second"] > 0
    assert out["infoset"]["alternatives"] > 50 * 10 and out["infoset"]["comparisons"] > 0


def test_playout_fails_on_a_leak_only_the_oracle_sees(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A view that tells how many trumps lie in the blind names no card: the oracle's
    alternatives (a blind card swapped with a hand's) catch it, and the exit status is 1."""
    from server import cli
    from server.engine import playout
    from server.engine.games.dreierles import Dreierles
    from tests.engine.test_infoset import TalonGossip, rules_with

    monkeypatch.setattr(playout, "get_rules", lambda _name: rules_with(Dreierles, TalonGossip))
    assert cli.main(["playout", "--game", "dreierles", "--deals", "3"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["invariant_failures"] == 3
    assert "deal 0: dreierles: " in out["failures"][0]
    assert "own.blind_trumps" in out["failures"][0]
    assert cli.main(["playout", "--game", "dreierles", "--deals", "3", "--no-oracle"]) == 0


def test_playout_of_an_unknown_game_fails_clearly() -> None:
    result = run("playout", "--game", "skat", "--deals", "1")
    assert result.returncode == 2 and "'skat' is not a playable game" in result.stderr


def test_deal_prints_a_record_that_replays() -> None:
    made = run("deal", "--game", "dreierles", "--seed", "9", "--play")
    assert made.returncode == 0, made.stderr
    replayed = run("replay", "-", stdin=made.stdout)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["finished"] is True


def test_a_reader_that_goes_away_ends_the_command_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``stammtisch deal ... | head``: the closed pipe ends the command with status 0."""
    from server import cli

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert cli.main(["deal", "--game", "dreierles", "--seed", "1"]) == 0
