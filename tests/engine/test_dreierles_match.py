"""The Dreierles Partie: rotation, sitting out, final round, sheet and settlement."""

from __future__ import annotations

import random

import pytest

from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.dreierles.match import DreierlesMatch
from server.engine.match import Payment, settle_debts


def play_match(match: DreierlesMatch, seed: int) -> None:
    rng = random.Random(seed)
    while not match.finished:
        deal = match.start_deal(match.rules.shuffle_and_deal(rng))
        while not deal.finished:
            deal.apply(deal.random_move(rng))
        match.record(deal)


def test_three_players_rotate_anticlockwise_and_the_dealer_is_hinterhand() -> None:
    match = DreierlesMatch(["Anna", "Bernd", "Catrin"], rounds=2, first_dealer=2)
    setups = []
    rng = random.Random(1)
    while not match.finished:
        setup = match.next_setup()
        setups.append((setup.dealer, setup.seats, setup.sitting_out, setup.options["final_round"]))
        deal = match.start_deal(match.rules.shuffle_and_deal(rng))
        while not deal.finished:
            deal.apply(deal.random_move(rng))
        match.record(deal)
    assert setups == [
        ("Catrin", ("Anna", "Bernd", "Catrin"), None, False),
        ("Anna", ("Bernd", "Catrin", "Anna"), None, False),
        ("Bernd", ("Catrin", "Anna", "Bernd"), None, False),
        ("Catrin", ("Anna", "Bernd", "Catrin"), None, True),
        ("Anna", ("Bernd", "Catrin", "Anna"), None, True),
        ("Bernd", ("Catrin", "Anna", "Bernd"), None, True),
    ]


def test_four_people_the_dealer_sits_out_and_settles_nothing() -> None:
    match = DreierlesMatch(["Anna", "Bernd", "Catrin", "Dieter"], rounds=1)
    first = match.next_setup()
    assert (first.dealer, first.seats, first.sitting_out) == (
        "Anna",
        ("Bernd", "Catrin", "Dieter"),
        "Anna",
    )
    play_match(match, 5)
    assert len(match.rows) == 4
    for row in match.rows:
        assert row.points[row.dealer] == 0
        assert row.sitting_out == row.dealer
        assert sum(row.points.values()) == 0
    assert [r.dealer for r in match.rows] == ["Anna", "Bernd", "Catrin", "Dieter"]


def test_sheet_totals_and_final_settlement() -> None:
    match = DreierlesMatch(["Anna", "Bernd", "Catrin"], rounds=3, stake_cents=10)
    play_match(match, 11)
    running = {"Anna": 0, "Bernd": 0, "Catrin": 0}
    for row in match.rows:
        for name, pts in row.points.items():
            running[name] += pts
        assert row.totals == running
    assert match.totals == running
    payments = match.settlement()
    net = dict.fromkeys(running, 0)
    for p in payments:
        net[p.payer] -= p.cents
        net[p.payee] += p.cents
    assert net == {name: pts * 10 for name, pts in running.items()}
    sheet = match.to_json()
    assert sheet["finished"] and len(sheet["rows"]) == 9
    # the last round is "Räuber oder Solo"
    assert {r["contract"] for r in sheet["rows"][-3:]} <= {"solo", "raeuber"}


def test_record_refuses_a_foreign_or_unfinished_deal() -> None:
    match = DreierlesMatch(["Anna", "Bernd", "Catrin"], rounds=1)
    rng = random.Random(2)
    deal = match.start_deal(match.rules.shuffle_and_deal(rng))
    with pytest.raises(IllegalActionError) as err:
        match.record(deal)
    assert err.value.code == "deal_not_finished"
    other = match.rules.new_deal(match.rules.shuffle_and_deal(rng), None, ["X", "Y", "Z"])
    while not other.finished:
        other.apply(other.random_move(rng))
    with pytest.raises(IllegalActionError) as err:
        match.record(other)
    assert err.value.code == "wrong_deal"


def test_bad_match_settings() -> None:
    with pytest.raises(MalformedError):
        DreierlesMatch(["Anna", "Bernd"])
    with pytest.raises(MalformedError):
        DreierlesMatch(["Anna", "Anna", "Bernd"])
    with pytest.raises(MalformedError):
        DreierlesMatch(["Anna", "Bernd", "Catrin"], rounds=0)


def test_settle_debts() -> None:
    assert settle_debts({"A": 50, "B": -20, "C": -30, "D": 0}) == [
        Payment("C", "A", 30),
        Payment("B", "A", 20),
    ]
    assert settle_debts({"A": 0, "B": 0}) == []
    with pytest.raises(ValueError):
        settle_debts({"A": 1})


def test_the_partie_from_a_stored_config() -> None:
    config: dict[str, object] = {"rounds": 1, "first_dealer": 1, "stake_cents": 5,
                                 "options": {"counting": "thirds"}}  # fmt: skip
    match = DreierlesMatch.from_config(["Anna", "Bernd", "Catrin"], config)
    assert (match.rounds, match.first_dealer, match.stake_cents) == (1, 1, 5)
    assert match.options["counting"] == "thirds" and match.final_round_special
    assert match.next_setup().options["final_round"]  # one round: it is the last
    plain = DreierlesMatch.from_config(
        ["Anna", "Bernd", "Catrin"], {**config, "final_round_special": False}
    )
    assert not plain.next_setup().options["final_round"]
    with pytest.raises(MalformedError):
        DreierlesMatch.from_config(["A", "B", "C"], {**config, "final_round_special": 1})
