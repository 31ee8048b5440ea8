"""The match's ledger with exact values from the rules texts: a Radl deal (tarock-zu-dritt.txt
"Nach Trischaken und Fensterbankl … zählen doppelt"), a Stock game paid from the Haferl
(bayerisches-tarock.txt "Gewonnene Aufnahmespiele werden dem Alleinspieler aus dem Topf
bezahlt. Verlorene Spiele werden dem einen Gegner aus dem Topf, dem anderen aus der eigenen
Tasche bezahlt"), and the Pagatkasse example of doppen.txt with and without Kontra; then
the ledger's own bookkeeping (money and pots add up to nothing, a match stopped early)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch
from server.engine.games.doppen.match import DoppenMatch
from server.engine.games.doppen.outcome import thrown_in
from server.engine.games.tarock_zu_dritt.contracts import CONTRACTS
from server.engine.games.tarock_zu_dritt.match import TarockZuDrittMatch
from server.engine.ledger import Ledger, PotMove
from server.engine.registry import GAMES, get_rules, new_match
from tests.engine.test_bayerisches_tarock_match import frage_lost_by_vorhand, frage_won_by_vorhand
from tests.engine.test_doppen_match import game, scripted

BT = ("Anna", "Bernd", "Catrin")
DP = ("Anne", "Bert", "Clara")


def entries(match: Any) -> dict[str, tuple[int, int, int, int]]:
    """``player: (points, cents, pot_cents, total_cents)`` of the last deal's ledger."""
    return {
        e.player: (e.points, e.cents, e.into_pots, e.total_cents)
        for e in match.last_ledger().entries
    }


def reasons(match: Any, player: str) -> list[dict[str, Any]]:
    return [dict(r) for r in match.last_ledger().entry(player).reasons]


# --------------------------------------------------------------------------- the Haferl


def test_a_won_frage_is_paid_from_the_haferl_not_by_the_opponents() -> None:
    match = BayerischesTarockMatch(BT, rounds=1, first_dealer=2, stake_cents=10, haferl=True)
    match.record(frage_won_by_vorhand(match))  # 12 units, Einsatz 10 units each
    # nobody pays anybody: the sheet writes 0 for all, and so does the ledger
    assert entries(match) == {
        "Anna": (0, 0, 100 - 120, 20),
        "Bernd": (0, 0, 100, -100),
        "Catrin": (0, 0, 100, -100),
    }
    assert reasons(match, "Anna") == [
        {"code": "pot_in", "pot": "haferl", "cents": 100, "why": "einsatz"},
        {"code": "pot_out", "pot": "haferl", "cents": 120, "why": "stock_game", "units": 12},
    ]
    assert reasons(match, "Bernd") == [
        {"code": "pot_in", "pot": "haferl", "cents": 100, "why": "einsatz"}
    ]
    assert match.last_ledger().pots == {"haferl": 180}
    row = match.to_json()["rows"][-1]
    assert {e.player: e.points for e in match.last_ledger().entries} == row["values"]
    assert row["pot_balances"] == {"haferl": 180}


def test_a_lost_frage_one_opponent_from_the_haferl_the_other_from_the_pocket() -> None:
    match = BayerischesTarockMatch(BT, rounds=1, first_dealer=2, stake_cents=10, haferl=True)
    match.record(frage_won_by_vorhand(match))
    match.record(frage_lost_by_vorhand(match))  # Bernd (Vorhand) loses 1 unit
    # Catrin, the first opponent after him, is paid from the Haferl; Anna by Bernd
    assert entries(match) == {
        "Anna": (1, 10, 0, 30),
        "Bernd": (-1, -10, 0, -110),
        "Catrin": (0, 0, -10, -90),
    }
    assert reasons(match, "Bernd") == [
        {"code": "stake", "points": -1, "stake_cents": 10, "cents": -10}
    ]
    assert reasons(match, "Catrin") == [
        {"code": "pot_out", "pot": "haferl", "cents": 10, "why": "stock_game", "units": 1}
    ]
    assert match.last_ledger().pots == {"haferl": 170}


# --------------------------------------------------------------------------- the Pagatkasse


@pytest.mark.parametrize("factor", [1, 2])
def test_the_pagatkasse_example_of_the_rules_text(factor: int) -> None:
    """Anne, Bert and Clara; base 1 Euro. Everybody pays 1 €, an all-pass deal 0,50 €,
    Bert loses an announced Pagat (4,50 €); Anne wins one: Bert pays her 6,00 € and Clara
    1,50 € ("Wäre der Pagat kontriert, müsste Bert 12,00 und Clara 3,00 zahlen")."""
    match = DoppenMatch(DP, deals=4, stake_cents=0, kasse_base_cents=100)
    match.record(scripted(match, thrown_in()))
    assert entries(match) == dict.fromkeys(DP, (0, 0, 150, -150))
    seats = match.next_setup().seats
    lost = {"event": "pagat_lost", "seat": seats.index("Bert"), "factor": 1}
    match.record(scripted(match, game(seats, "Bert", 0, lost)))
    assert reasons(match, "Bert") == [
        {"code": "pot_in", "pot": "pagatkasse", "cents": 450, "why": "pagat_lost", "factor": 1}
    ]
    assert match.last_ledger().pots == {"pagatkasse": 900}
    seats = match.next_setup().seats
    won = {"event": "pagat_won", "seat": seats.index("Anne"), "factor": factor}
    match.record(scripted(match, game(seats, "Anne", 0, won)))
    taken = 900 + 750 * (factor - 1)
    assert reasons(match, "Anne") == [
        {"code": "pot_out", "pot": "pagatkasse", "cents": taken, "why": "pagat_won",
         "factor": factor}
    ]  # fmt: skip
    # what each has paid in all: Bert 6,00 (× 2), Clara 1,50 (× 2); Anne gets it
    assert {p: e[3] for p, e in entries(match).items()} == {
        "Anne": 750 * factor, "Bert": -600 * factor, "Clara": -150 * factor}  # fmt: skip
    if factor == 2:
        assert reasons(match, "Bert") == [
            {"code": "pot_in", "pot": "pagatkasse", "cents": 600, "why": "pagat_won_kontra",
             "factor": 2, "payee": "Anne"}
        ]  # fmt: skip
    assert match.last_ledger().pots == {"pagatkasse": 0}


def test_a_doppen_deal_with_four_charges_the_sitting_out_dealer() -> None:
    players = ("Anne", "Bert", "Clara", "Dora")
    match = DoppenMatch(players, deals=4, stake_cents=2, kasse_base_cents=0)
    setup = match.next_setup()
    match.record(scripted(match, game(setup.seats, "Clara", 15)))
    # Clara's 15 against each of three opponents, the dealer Anne among them (DP-A20)
    assert {p: e[:2] for p, e in entries(match).items()} == {
        "Anne": (0, -30), "Bert": (0, -30), "Clara": (30, 90), "Dora": (0, -30)}  # fmt: skip
    assert match.last_ledger().entry("Anne").sitting_out
    assert reasons(match, "Anne") == [
        {"code": "per_opponent", "declarer": "Clara", "points": 15, "opponents": 3,
         "stake_cents": 2, "cents": -30}
    ]  # fmt: skip


# --------------------------------------------------------------------------- the Radl


def radl_match(seed: int) -> TarockZuDrittMatch:
    """A Partie played at random until a deal that counts double has been written."""
    rng = random.Random(seed)
    match = TarockZuDrittMatch(BT, rounds=2, stake_cents=10)
    while not match.finished:
        factor = match.next_setup().factor
        deal = match.start_deal(match.rules.shuffle_and_deal(rng))
        while not deal.finished:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        match.record(deal)
        if factor > 1 and any(deal.outcome()["settlement"]):  # type: ignore[index]
            return match
    raise AssertionError("no Radl deal with points")


def test_a_radl_deal_counts_double_on_the_sheet_in_the_money_and_says_so() -> None:
    match = radl_match(7)
    ledger = match.last_ledger()
    row = match.rows[-1]
    raw = row.detail["settlement"]
    assert ledger.factor == row.factor >= 2
    for entry in ledger.entries:
        assert entry.points == row.points[entry.player]
        assert entry.cents == entry.points * 10
    assert sorted(e.points for e in ledger.entries) == sorted(a * ledger.factor for a in raw)
    what = row.note
    assert what in ("radl", "schlussradl")
    assert ledger.reasons == ({"code": what, "factor": ledger.factor},)
    for entry in ledger.entries:
        if entry.points:
            assert entry.reasons[0] == {
                "code": "factor", "what": what, "points": entry.points // ledger.factor,
                "factor": ledger.factor, "result": entry.points}  # fmt: skip


def test_a_trischaken_hangs_a_radl_on_the_next_three_deals() -> None:
    rng = random.Random(3)
    match = TarockZuDrittMatch(BT, rounds=200, stake_cents=10)
    while True:
        deal = match.start_deal(match.rules.shuffle_and_deal(rng))
        while not deal.finished:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        match.record(deal)
        outcome = deal.outcome()
        assert outcome is not None
        if CONTRACTS[outcome["contract"]].trischaken or not any(outcome["settlement"]):
            break
    assert match.next_setup().factor == 2 and match.next_setup().note == "radl"
    assert match.last_ledger().factor == 1  # the deal itself counts once


# --------------------------------------------------------------------------- bookkeeping


def test_money_between_players_must_add_up() -> None:
    ledger = Ledger(("A", "B"))
    with pytest.raises(ValueError, match="does not add up"):
        ledger.write(1, {"A": 1}, {"A": 10}, [], {"A": 1, "B": 0})
    with pytest.raises(ValueError, match="not at this table"):
        ledger.write(1, {"X": 1}, {}, [], {"A": 0, "B": 0})
    assert ledger.deals == []


def test_a_kept_pot_is_paid_to_the_pot_not_between_players() -> None:
    ledger = Ledger(("A", "B", "C"))
    ledger.write(1, {}, {"A": 30, "B": -30}, [], dict.fromkeys("ABC", 0))
    depot = [PotMove("depot", p, c, "placing") for p, c in (("A", 50), ("B", 100), ("C", 150))]
    settlement = ledger.settlement(depot, dict.fromkeys("ABC", 0), {"A": 1, "B": 2, "C": 3})
    assert settlement["money_cents"] == {"A": -20, "B": -130, "C": -150}
    assert settlement["pots"] == {"depot": {"held": 300, "shares": {"A": 50, "B": 100, "C": 150}}}
    assert settlement["payments"] == [{"payer": "B", "payee": "A", "cents": 30}]


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_match_stopped_early_closes_its_pots(game_name: str) -> None:
    info = GAMES[game_name]
    if not info.implemented:
        pytest.skip("not playable yet")
    players = ["A", "B", "C", "D"][: max(info.players)]
    config = {"rounds": 3, "first_dealer": 0, "stake_cents": 10, "options": {},
              "haferl": True}  # fmt: skip
    rng = random.Random(game_name)
    rules = get_rules(game_name)
    for _ in range(10):
        match = new_match(game_name, players, config)
        for _ in range(rng.randrange(1, 4)):
            deal = match.start_deal(rules.shuffle_and_deal(rng))
            while not deal.finished:
                seat, move = deal.random_action(rng)
                deal.apply(move, seat)
            match.record(deal)
            if match.finished:
                break
        settlement = match.final_settlement(ended_early=True)
        held = sum(pot["held"] for pot in settlement["pots"].values())
        assert sum(settlement["money_cents"].values()) + held == 0
        assert settlement["money_cents"] == match.balances_cents()
        assert settlement["ended_early"] == (not match.finished)
        assert match.ledger.money == {
            p: sum(d.entry(p).net_cents for d in match.ledger.deals) for p in players
        }


@pytest.mark.parametrize("game_name", sorted(g for g, info in GAMES.items() if info.implemented))
def test_a_match_stopped_before_its_first_deal_moves_no_money(game_name: str) -> None:
    """Nothing was played: no Depot is paid, no pot is filled or shared."""
    players = ["A", "B", "C", "D"][: max(GAMES[game_name].players)]
    config = {"rounds": 3, "first_dealer": 0, "stake_cents": 10, "options": {},
              "haferl": True, "depot_cents": 50}  # fmt: skip
    match = new_match(game_name, players, config)
    settlement = match.final_settlement(ended_early=True)
    assert settlement["money_cents"] == dict.fromkeys(players, 0)
    assert settlement["closing"] == [] and settlement["payments"] == []
    assert match.balances_cents() == dict.fromkeys(players, 0)


def test_a_copied_ledger_shares_the_written_deals_and_keeps_its_own_figures() -> None:
    import copy

    ledger = Ledger(("A", "B"))
    ledger.write(1, {"A": 1, "B": -1}, {"A": 10, "B": -10}, [PotMove("kasse", "A", 5, "fill")],
                 {"A": 1, "B": -1})  # fmt: skip
    twin = copy.deepcopy(ledger)
    assert twin.deals[0] is ledger.deals[0] and twin.deals is not ledger.deals
    twin.write(2, {}, {"A": -10, "B": 10}, [PotMove("kasse", "B", 5, "fill")], {"A": 1, "B": -1})
    assert (len(ledger.deals), ledger.money, ledger.pot_balances) == (1, {"A": 5, "B": -10},
                                                                       {"kasse": 5})  # fmt: skip
    assert ledger.pot_shares == {"kasse": {"A": 5, "B": 0}}
    assert twin.money == {"A": -5, "B": -5} and twin.pot_balances == {"kasse": 10}
