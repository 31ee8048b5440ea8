"""The Bayerisches Tarock session: dealer rotation clockwise, the sitting-out fourth, the
sheet, pocket mode and the Haferl (BT-A12, BT-A15, BT-A16), with exact values worked out
from the rules for the hand-built deals of ``bayerisches_tarock_deals.py``."""

from __future__ import annotations

import pytest

from server.engine.errors import IllegalActionError
from server.engine.games.bayerisches_tarock.deal import BayerischesTarockDeal
from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch
from server.engine.match import PotMove
from tests.engine.bayerisches_tarock_deals import B2, B3, B4, dealt, first_legal_to_end, play

GUT3 = ("gut", "gut", "gut")
B3_ORDER = ["HA", "H10", "HK", "HO", "HU", "H9", "H8", "H7", "H6", "EA", "GA"]
PLAYERS = ("Anna", "Bernd", "Catrin")


def vorhand_leads(deal: BayerischesTarockDeal, order: list[str]) -> BayerischesTarockDeal:
    """Vorhand plays ``order``; the others their first legal card."""
    cards = list(order)
    while not deal.finished:
        if deal.to_move == 0:
            deal.act(0, f"play {cards.pop(0)}")
        else:
            deal.apply(deal.legal_moves()[0])
    return deal


def frage_won_by_vorhand(match: BayerischesTarockMatch) -> BayerischesTarockDeal:
    """B3: Vorhand takes the Stock, lays it away again, trump Herz, takes every trick:
    1 + 11 fives reached = 12 units."""
    deal = match.start_deal(dealt(B3))
    play(deal, "bid ich_spiele", "pass", "pass", "game frage",
         "discard S8", "discard S7", "discard S6", "trump H", *GUT3)  # fmt: skip
    return vorhand_leads(deal, B3_ORDER)


def frage_lost_by_vorhand(match: BayerischesTarockMatch) -> BayerischesTarockDeal:
    """B4: Vorhand with the lowest cards plays a Stock game in Herz and loses (1 unit)."""
    deal = match.start_deal(dealt(B4))
    play(deal, "bid ich_spiele", "pass", "pass", "game frage",
         "discard E6", "discard E7", "discard E8", "trump H", *GUT3)  # fmt: skip
    first_legal_to_end(deal)
    outcome = deal.outcome()
    assert outcome is not None and outcome["declarer_won"] is False and outcome["units"] == 1
    return deal


def test_the_deal_goes_clockwise_and_the_dealer_is_hinterhand() -> None:
    match = BayerischesTarockMatch(PLAYERS, rounds=1, first_dealer=2)
    setup = match.next_setup()
    assert (setup.dealer, setup.seats, setup.sitting_out) == ("Catrin", PLAYERS, None)
    match.record(play(match.start_deal(dealt(B2)), "pass", "pass", "pass"))
    setup = match.next_setup()
    assert (setup.dealer, setup.seats) == ("Anna", ("Bernd", "Catrin", "Anna"))
    assert match.rows[0].contract == "thrown_in" and match.totals == dict.fromkeys(PLAYERS, 0)


def test_pocket_mode_pays_each_opponent() -> None:
    match = BayerischesTarockMatch(PLAYERS, rounds=1, first_dealer=2, stake_cents=10)
    deal = match.start_deal(dealt(B3))
    play(deal, "bid ich_spiele", "bid hand", "pass", "bid durch", "pass", "trump H", *GUT3)
    row = match.record(vorhand_leads(deal, B3_ORDER))
    assert row.values == {"Anna": 50, "Bernd": -25, "Catrin": -25}
    assert (row.contract, row.declarer, row.haferl_cents) == ("durch", "Anna", None)
    assert match.pots() == {} and match.pots_of_last_deal() == []
    assert match.balances_cents() == {"Anna": 500, "Bernd": -250, "Catrin": -250}
    sheet = match.to_json()
    assert sheet["rows"][0]["values"] == row.values and sheet["pots"] == {}
    assert sheet["progress"] == {"done": 1, "of": 3}


def test_the_haferl_pays_stock_games_and_never_hand_games() -> None:
    match = BayerischesTarockMatch(PLAYERS, rounds=1, first_dealer=2, stake_cents=10,
                                   haferl=True, haferl_einsatz=10)  # fmt: skip
    # deal 1: everybody pays 10 units in; Anna's won Stock game is paid from the Haferl
    row = match.record(frage_won_by_vorhand(match))
    assert row.values == {"Anna": 0, "Bernd": 0, "Catrin": 0}
    assert match.pots_of_last_deal() == [
        PotMove("haferl", "Anna", 100, "einsatz"),
        PotMove("haferl", "Bernd", 100, "einsatz"),
        PotMove("haferl", "Catrin", 100, "einsatz"),
        PotMove("haferl", "Anna", -120, "stock_game", params=(("units", 12),)),
    ]
    assert row.haferl_cents == 180
    assert match.balances_cents() == {"Anna": 80, "Bernd": -40, "Catrin": -40}
    # deal 2 (Anna deals; Bernd is Vorhand): Bernd loses a Stock game; Catrin, the first
    # opponent after him, is paid from the Haferl, Anna by Bernd
    row = match.record(frage_lost_by_vorhand(match))
    assert row.values == {"Anna": 1, "Bernd": -1, "Catrin": 0}
    assert match.pots_of_last_deal() == [
        PotMove("haferl", "Catrin", -10, "stock_game", params=(("units", 1),))
    ]
    assert row.haferl_cents == 170
    # deal 3 (Bernd deals; Catrin is Vorhand): a Hand game, from each to each, not the pot
    deal = match.start_deal(dealt(B3))
    play(deal, "bid ich_spiele", "pass", "pass", "game hand", "trump H", *GUT3)
    row = match.record(vorhand_leads(deal, B3_ORDER))
    assert row.values == {"Anna": -13, "Bernd": -13, "Catrin": 26}
    assert match.finished
    # the session's last deal: what is left in the Haferl is shared, 170 → 57, 57, 56
    assert [(m.player, m.amount, m.reason) for m in match.pots_of_last_deal()] == [
        ("Anna", -57, "haferl_shared"), ("Bernd", -57, "haferl_shared"),
        ("Catrin", -56, "haferl_shared"),
    ]  # fmt: skip
    assert row.haferl_cents == 0 and match.last_ledger().pots == {"haferl": 0}
    settlement = match.final_settlement()
    assert [(m["player"], m["cents"]) for m in settlement["closing"]] == [
        ("Anna", -57), ("Bernd", -57), ("Catrin", -56)]  # fmt: skip
    assert settlement["pots"]["haferl"]["held"] == 0 and not settlement["ended_early"]
    assert match.totals == {"Anna": -12, "Bernd": -14, "Catrin": 26}
    assert match.balances_cents() == {"Anna": -43, "Bernd": -183, "Catrin": 226}
    assert match.ledger.money == match.balances_cents()
    # net into the Haferl: Anna 100 − 120 − 57, Bernd 100 − 57, Catrin 100 − 10 − 56
    assert match.pots() == {"haferl": {"Anna": -77, "Bernd": 43, "Catrin": 34}}
    assert sum(p.cents for p in match.settlement()) == 226
    assert match.placings() == {"Anna": 2, "Bernd": 3, "Catrin": 1}


def test_an_empty_haferl_is_filled_again_before_it_pays() -> None:
    match = BayerischesTarockMatch(PLAYERS, rounds=1, first_dealer=2, stake_cents=10,
                                   haferl=True, haferl_einsatz=5)  # fmt: skip
    match.record(frage_won_by_vorhand(match))
    assert match.pot_cents == 30
    match.record(frage_won_by_vorhand(match))  # Bernd, Vorhand now, wins 12 units
    assert [(m.player, m.amount, m.reason) for m in match.pots_of_last_deal()] == [
        ("Anna", 50, "einsatz"), ("Bernd", 50, "einsatz"), ("Catrin", 50, "einsatz"),
        ("Bernd", -120, "stock_game"),
    ]  # fmt: skip
    assert match.pot_cents == 60
    assert match.balances_cents() == {"Anna": 40, "Bernd": 40, "Catrin": -80}


def test_four_people_the_dealer_sits_out_and_pays_only_the_einsatz() -> None:
    players = ("Anna", "Bernd", "Catrin", "Dora")
    match = BayerischesTarockMatch(players, rounds=1, first_dealer=3, stake_cents=10,
                                   haferl=True)  # fmt: skip
    setup = match.next_setup()
    assert (setup.dealer, setup.seats, setup.sitting_out) == ("Dora", PLAYERS, "Dora")
    row = match.record(frage_won_by_vorhand(match))
    assert row.values == {"Anna": 0, "Bernd": 0, "Catrin": 0, "Dora": 0}
    assert row.haferl_cents == 280
    assert match.balances_cents() == {"Anna": 90, "Bernd": -30, "Catrin": -30, "Dora": -30}
    setup = match.next_setup()
    assert (setup.seats, setup.sitting_out) == (("Bernd", "Catrin", "Dora"), "Anna")
    assert match.total_deals == 4


def test_from_config_and_a_wrong_deal_is_refused() -> None:
    config = {"rounds": 2, "first_dealer": 1, "stake_cents": 5, "options": {"reizen": False},
              "haferl": True, "haferl_einsatz": 20}  # fmt: skip
    match = BayerischesTarockMatch.from_config(PLAYERS, config)
    assert (match.haferl, match.haferl_einsatz, match.total_deals) == (True, 20, 6)
    assert match.next_setup().options["reizen"] is False
    stranger = BayerischesTarockMatch(PLAYERS, first_dealer=0).start_deal(dealt(B2))
    play(stranger, "pass", "pass", "pass")
    with pytest.raises(IllegalActionError) as info:
        match.record(stranger)
    assert info.value.code == "wrong_deal"
