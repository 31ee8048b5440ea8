"""Bayerisches Tarock through the shared checks: random full deals with every invariant
(Augen add up to 120, zero-sum settlement, exact replay of the record, no card shown to a
seat that may not see it, the information-set oracle), golden records that replay to
their outcome.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from server.engine.games.bayerisches_tarock import BayerischesTarock
from server.engine.infoset import InfosetOracle
from server.engine.playout import run_playouts
from server.engine.record import dump_record, load_record
from server.engine.replay import replay_steps

GAME = "bayerisches-tarock"
GOLDEN = sorted((Path(__file__).parent.parent / "golden" / GAME).glob("*.json"))


def test_a_thousand_random_deals_keep_every_invariant() -> None:
    report = run_playouts(GAME, 1000, seed=20261123, oracle=False)
    assert report.failures == []
    assert report.invariant_failures == 0
    # random bidding reaches every kind of game with Reizen
    assert {"frage", "hand", "durch", "thrown_in"} <= set(report.contracts)


@pytest.mark.parametrize(
    "options",
    [
        {"reizen": False},
        {"reizen": False, "bettel_stichzwang": False, "kontra": "hirsch"},
        {"selbststeigern": True, "bettel_beim_reizen": True},
        {"berliner": "herz", "frage_nur_herz": True},
        {"kontra": "off", "berliner": "on"},
        {"kontra_rollentausch": True, "selbststeigern": True},
    ],
)
def test_random_deals_with_house_rules(options: dict[str, object]) -> None:
    report = run_playouts(GAME, 100, seed=11, options=options, oracle=False)
    assert report.failures == []


def test_the_information_set_oracle_is_silent() -> None:
    report = run_playouts(GAME, 150, seed=3, check=False, oracle=True)
    assert report.failures == []
    assert report.alternatives >= 150 * 5
    report = run_playouts(GAME, 100, seed=4, options={"reizen": False}, check=False, oracle=True)
    assert report.failures == []


def test_the_contracts_without_reizen_all_come_up() -> None:
    report = run_playouts(GAME, 300, seed=5, options={"reizen": False}, oracle=False)
    assert {"frage", "frage_herz", "hand", "hand_herz", "bettel", "thrown_in"} <= set(
        report.contracts
    )


def test_a_record_replays_and_a_wrong_outcome_is_refused() -> None:
    rules = BayerischesTarock()
    rng = random.Random(9)
    deal = rules.new_deal(rules.shuffle_and_deal(rng))
    while not deal.finished:
        deal.apply(deal.random_move(rng))
    record = json.loads(json.dumps(dump_record(deal)))
    assert load_record(record).outcome() == deal.outcome()
    record["outcome"]["settlement"] = [9, 9, -18]
    with pytest.raises(Exception):  # noqa: B017 - RecordError, whatever its base
        load_record(record)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_records_replay_to_their_outcome(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    deal = load_record(record)
    assert deal.outcome() == record["outcome"]
    assert deal.invariant_errors() == []
    oracle = InfosetOracle.of(deal)
    assert oracle.check(random.Random(path.stem), swaps=6, shuffles=2, choices=3) == []


def test_there_are_golden_records_of_every_kind() -> None:
    contracts = {json.loads(p.read_text(encoding="utf-8"))["outcome"]["contract"] for p in GOLDEN}
    assert {"frage", "hand", "durch", "bettel", "hand_herz", "thrown_in"} <= contracts


@pytest.mark.parametrize("path", GOLDEN[:4], ids=lambda p: p.stem)
def test_the_archive_replays_a_record_step_by_step(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    replay = replay_steps(record)
    steps = replay["steps"]
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["hands"] == record["hands"] and steps[0]["talon"] == record["talon"]
    assert replay["outcome"] == record["outcome"]
    last = steps[-1]
    assert last["phase"] == "finished" and last["to_move"] is None
    augen = record["outcome"]["augen"]
    assert last["party_points"] == {k: str(v) for k, v in augen.items()}
    assert len(replay["tricks"]) == len(record["outcome"]["tricks"])
