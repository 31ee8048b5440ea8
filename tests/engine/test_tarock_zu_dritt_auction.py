"""Tarock zu dritt: the Speisezettel as a table and the Lizitation, Phase I (TZ-A1 … TZ-A3)."""

from __future__ import annotations

import doctest

import pytest

from server.engine.games.tarock_zu_dritt import contracts as contracts_module
from server.engine.games.tarock_zu_dritt.contracts import BIDS, CONTRACTS, VORHANDSPIELE
from tests.engine.test_tarock_zu_dritt_deals import act, deal_of, refused

#: The Speisezettel: code → (Nr, Wert); the Vorhandspiele have no Nr.
SPEISEZETTEL = {
    "trischaken": (0, 2), "sechserdreier": (0, 3), "farbdreier": (3, 3), "dreier": (4, 3),
    "triccolo": (5, 4), "zwiccolo": (6, 4), "piccolo": (7, 4), "bettler": (8, 4),
    "farbenzweier": (9, 4), "zweier": (10, 4), "triccolo_semi": (11, 6),
    "zwiccolo_semi": (12, 6), "piccolo_semi": (13, 6), "bettel_semi": (14, 6),
    "farbeneiner": (15, 6), "einer": (16, 6), "triccolo_ouvert": (17, 8),
    "zwiccolo_ouvert": (18, 8), "piccolo_ouvert": (19, 8), "bettel_ouvert": (20, 8),
    "farbensolo": (21, 8), "solodreier": (22, 8),
}  # fmt: skip


def test_doctests() -> None:
    assert doctest.testmod(contracts_module).failed == 0


def test_every_row_of_the_speisezettel_with_its_nr_and_wert() -> None:
    assert {c.name: (c.rank, c.value) for c in CONTRACTS.values()} == SPEISEZETTEL
    assert VORHANDSPIELE == ("trischaken", "sechserdreier")
    assert BIDS[0] == "farbdreier" and BIDS[-1] == "solodreier" and len(BIDS) == 20


def test_the_rows_carry_what_the_logic_reads() -> None:
    negative = [c.name for c in CONTRACTS.values() if c.negative]
    assert len(negative) == 12
    assert all(CONTRACTS[n].leader == "declarer" and not CONTRACTS[n].premium_codes
               for n in negative)  # fmt: skip
    assert [CONTRACTS[n].tricks for n in ("triccolo", "zwiccolo", "piccolo", "bettler")] == [
        3, 2, 1, 0,
    ]  # fmt: skip
    assert CONTRACTS["piccolo_semi"].ouvert == "semi"
    assert CONTRACTS["bettel_ouvert"].ouvert == "all"
    assert CONTRACTS["dreier"].talon_rule.kind == "groups"
    assert CONTRACTS["zweier"].talon_rule.size == 2
    assert CONTRACTS["einer"].talon_rule.kind == "any"
    assert CONTRACTS["sechserdreier"].talon_rule.kind == "hidden"
    assert CONTRACTS["solodreier"].talon_rule.kind == "none"
    assert CONTRACTS["farbdreier"].premium_codes == ("koenige", "sack", "doppelsack", "valat")
    assert CONTRACTS["solodreier"].premium_factor == 2 and CONTRACTS["dreier"].premium_factor == 1
    assert CONTRACTS["sechserdreier"].cost == 6 and CONTRACTS["dreier"].cost == 3
    assert CONTRACTS["trischaken"].leader == CONTRACTS["dreier"].leader == "vorhand"


def test_vorhand_opens_with_vorhand_or_a_game_and_may_not_pass() -> None:
    deal = deal_of()
    legal = deal.legal_texts()
    assert "vorhand" in legal
    assert "pass" not in legal and "bei" not in legal
    assert "bid dreier" in legal and "bid trischaken" not in legal
    assert refused(deal, "pass") == "vorhand_must_speak"
    assert refused(deal, "bid trischaken") == "vorhandspiel_only"


def test_after_vorhand_and_two_weiter_she_chooses_a_vorhandspiel() -> None:
    deal = act(deal_of(), "vorhand", "weiter", "pass")
    assert deal.phase == "choose" and deal.to_move == 0
    assert sorted(deal.legal_texts()) == ["bid sechserdreier", "bid trischaken"]
    assert refused(deal, "bid solodreier") == "choose_vorhandspiel"
    assert refused(deal, "kontra game") == "wrong_phase"
    act(deal, "bid trischaken")
    assert deal.contract == "trischaken" and deal.phase == "play" and deal.to_move == 0


def test_only_vorhand_says_vorhand_and_only_at_her_first_call() -> None:
    deal = act(deal_of(), "vorhand")
    assert "vorhand" not in deal.legal_texts()
    assert refused(deal, "vorhand") == "not_vorhand"  # Mittelhand
    act(deal, "bid dreier", "pass")
    assert deal.to_move == 0 and refused(deal, "vorhand") == "vorhand_first_call"


def test_a_game_is_overbid_only_by_a_higher_one_no_holding() -> None:
    deal = act(deal_of(), "bid zweier")
    legal = deal.legal_texts()
    assert "bid zweier" not in legal and "bid dreier" not in legal
    assert "bid triccolo_semi" in legal and "pass" in legal
    assert refused(deal, "bid zweier") == "bid_too_low"


def test_holding_is_no_word_here() -> None:
    from server.engine.errors import MalformedError

    deal = act(deal_of(), "bid zweier")
    with pytest.raises(MalformedError):
        deal.act(None, "hold")


def test_own_bid_raised_only_after_being_overbid() -> None:
    deal = act(deal_of(), "bid dreier", "pass", "pass")
    # nobody overbid Vorhand: her Dreier stands, she cannot raise it
    assert deal.contract == "dreier" and deal.declarers == [0] and deal.phase == "talon"
    deal = act(deal_of(), "bid dreier", "bid zweier", "pass")
    # overbid by Mittelhand: Vorhand may now raise above the Zweier, or pass
    assert deal.to_move == 0
    assert "bid einer" in deal.legal_texts() and "bid zweier" not in deal.legal_texts()
    act(deal, "bid einer", "pass")
    assert deal.contract == "einer" and deal.declarers == [0]


def test_a_pass_is_final() -> None:
    deal = act(deal_of(), "vorhand", "pass", "bid dreier", "bid zweier")
    # Mittelhand passed: the turn goes from Vorhand to Hinterhand
    assert deal.to_move == 2
    act(deal, "pass")
    assert deal.contract == "zweier" and deal.declarers == [0]


def test_vorhand_cannot_say_bei_to_a_positive_game() -> None:
    deal = act(deal_of(), "vorhand", "bid dreier", "pass")
    assert deal.to_move == 0 and "bei" not in deal.legal_texts()
    assert refused(deal, "bei") == "no_join"


def test_bei_joins_the_same_negative_game_once() -> None:
    deal = act(deal_of(), "vorhand", "bid piccolo")
    assert "bei" in deal.legal_texts()
    act(deal, "bei")
    assert deal.to_move == 0 and "bei" not in deal.legal_texts()
    act(deal, "pass")
    assert deal.contract == "piccolo" and deal.declarers == [1, 2]
    # negative games have no talon: straight to Phase III, from the first declarer's right
    assert deal.phase == "kontra" and deal.to_move == 2


def test_an_overbid_drops_the_bei_and_both_may_raise() -> None:
    deal = act(deal_of(), "bid piccolo", "bei", "bid bettler")
    assert deal.to_move == 0 and "bid zweier" in deal.legal_texts()
    act(deal, "pass")
    assert deal.to_move == 1
    act(deal, "bei")
    assert deal.declarers == [2, 1] and deal.contract == "bettler"


def test_the_first_announcer_leads_a_bei_game() -> None:
    deal = act(deal_of(), "vorhand", "bid bettler", "bei", "pass", "gut", "gut", "gut")
    assert deal.phase == "play" and deal.to_move == 1


def test_auction_calls_are_in_the_public_view() -> None:
    deal = act(deal_of(), "vorhand", "bid dreier")
    view = deal.view(None)
    assert view["calls"] == [{"seat": 0, "call": "vorhand"}, {"seat": 1, "call": "dreier"}]
    assert view["high_bidder"] == 1 and view["contract"] is None
