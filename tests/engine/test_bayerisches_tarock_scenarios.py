"""Bayerisches Tarock scenarios: state after these actions → exact legal actions, trick
winners, views and results, worked out by hand from bayerisches-tarock.txt and the BT rows
of DECISIONS.md for the hand-built deals in ``bayerisches_tarock_deals.py``."""

from __future__ import annotations

import pytest

from server.engine.cards import GERMAN
from server.engine.errors import IllegalActionError
from server.engine.games.bayerisches_tarock import BayerischesTarock
from server.engine.games.bayerisches_tarock.contracts import BETTEL_RULES, TRUMP_RULES
from server.engine.games.bayerisches_tarock.deal import BayerischesTarockDeal
from server.engine.playout import leaks
from tests.engine.bayerisches_tarock_deals import (
    B1,
    B2,
    B3,
    B4,
    first_legal_to_end,
    legal,
    new_deal,
    play,
)

g = GERMAN.parse
POINTS = [f"bid {p}" for p in range(66, 117, 5)]
GUT3 = ("gut", "gut", "gut")


def refused(deal: BayerischesTarockDeal, text: str) -> str:
    """The error code with which the seat to move is refused ``text``."""
    with pytest.raises(IllegalActionError) as info:
        deal.act(deal.to_move, text)
    return info.value.code


# ---------------------------------------------------------------- the deal


def test_the_cards_go_four_three_stock_four_clockwise_from_vorhand() -> None:
    dealt = BayerischesTarock().deal_cards(list(range(36)))
    # pack order: E A 10 K O U 9 8 7 6 (0-8), G (9-17), H (18-26), S (27-35)
    # V: cards 0-3, 12-14, 24-27; M: 4-7, 15-17, 28-31; the Stock 21-23
    assert GERMAN.codes(dealt.hands[0]) == ["EA", "E10", "EK", "EO", "GO", "GU", "G9",
                                            "H8", "H7", "H6", "SA"]  # fmt: skip
    assert GERMAN.codes(dealt.hands[1]) == ["EU", "E9", "E8", "E7", "G8", "G7", "G6",
                                            "S10", "SK", "SO", "SU"]  # fmt: skip
    assert [GERMAN.code(c) for c in dealt.talon] == ["HO", "HU", "H9"]
    assert (
        sum(GERMAN.points_of(h) for h in dealt.hands) + sum(GERMAN.points[c] for c in dealt.talon)
        == 120
    )


# ---------------------------------------------------------------- Reizen (BT-A1)


def test_vorhand_opens_with_ich_spiele_or_passes() -> None:
    deal = new_deal()
    assert (deal.phase, deal.to_move) == ("auction", 0)
    assert legal(deal) == ["pass", "bid ich_spiele"]
    assert refused(deal, "bid hand") == "open_with_ich_spiele"


def test_the_ladder_with_holding_by_the_earlier_seat() -> None:
    deal = play(new_deal(), "bid ich_spiele")
    assert deal.to_move == 1
    assert legal(deal) == ["pass", "bid hand", *POINTS, "bid durch"]
    assert refused(deal, "hold") == "no_holding"
    play(deal, "bid hand")
    assert deal.to_move == 2 and legal(deal) == ["pass", *POINTS, "bid durch"]
    play(deal, "pass")
    assert deal.to_move == 0 and legal(deal) == ["pass", "hold", *POINTS, "bid durch"]
    play(deal, "hold")
    assert deal.to_move == 1 and legal(deal) == ["pass", *POINTS, "bid durch"]
    play(deal, "bid 71")
    assert deal.to_move == 0 and legal(deal) == ["pass", "hold", *POINTS[2:], "bid durch"]
    play(deal, "pass")
    # Bernd won with "zehn mehr": a Hand game to 71, he names the trump at once
    assert (deal.phase, deal.to_move, deal.declarer) == ("trump", 1, 1)
    assert (deal.contract, deal.word, deal.target) == ("hand", "71", 71)
    assert legal(deal) == ["trump E", "trump G", "trump H", "trump S"]


def test_holding_wins_when_the_later_seat_gives_up() -> None:
    deal = play(new_deal(), "bid ich_spiele", "bid hand", "pass", "hold", "pass")
    assert (deal.phase, deal.declarer, deal.contract, deal.target) == ("trump", 0, "hand", 61)


def test_a_later_seat_opens_with_ich_spiele_too() -> None:
    deal = play(new_deal(), "pass")
    assert legal(deal) == ["pass", "bid ich_spiele"]
    play(deal, "bid ich_spiele", "bid hand")
    assert deal.to_move == 1 and legal(deal) == ["pass", "hold", *POINTS, "bid durch"]


def test_all_pass_throws_the_cards_in() -> None:
    deal = play(new_deal(), "pass", "pass", "pass")
    assert deal.finished and deal.thrown_in
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome["contract"], outcome["declarer"], outcome["settlement"]) == (
        "thrown_in", None, [0, 0, 0],
    )  # fmt: skip


# ---------------------------------------------------------------- the declarer's game


def test_ich_spiele_unchallenged_offers_stock_game_or_hand() -> None:
    deal = play(new_deal(), "bid ich_spiele", "pass", "pass")
    assert (deal.phase, deal.to_move) == ("game", 0)
    assert legal(deal) == ["game frage", "game hand"]
    assert refused(deal, "game 66") == "game_not_open"


def test_selbststeigern_adds_every_higher_target() -> None:
    deal = play(new_deal(options={"selbststeigern": True}), "bid ich_spiele", "pass", "pass")
    assert legal(deal) == ["game frage", "game hand",
                           *(f"game {p}" for p in range(66, 117, 5)), "game durch"]  # fmt: skip
    deal = play(new_deal(options={"selbststeigern": True}),
                "bid ich_spiele", "bid 76", "pass", "pass")  # fmt: skip
    assert deal.declarer == 1
    assert legal(deal) == ["game 76", "game 81", *(f"game {p}" for p in range(86, 117, 5)),
                           "game durch"]  # fmt: skip


def test_bettel_on_the_ladder_between_hand_and_66() -> None:
    deal = play(new_deal(options={"bettel_beim_reizen": True}), "bid ich_spiele")
    assert legal(deal)[:4] == ["pass", "bid hand", "bid bettel", "bid 66"]
    play(deal, "pass", "pass")
    assert legal(deal) == ["game frage", "game hand", "game bettel"]


# ---------------------------------------------------------------- Stock game (BT-A3)


def frage_b1(options: dict[str, object] | None = None) -> BayerischesTarockDeal:
    return play(new_deal(B1, options), "bid ich_spiele", "pass", "pass", "game frage")


def test_the_stock_game_takes_the_stock_and_discards_any_three() -> None:
    deal = frage_b1()
    assert (deal.phase, deal.to_move) == ("discard", 0)
    assert deal.hands[0].bit_count() == 14
    assert len(legal(deal)) == 14  # any card (BT-A3)
    assert deal.view(0)["stock"] == ["S10", "S7", "S6"]
    assert deal.view(1)["stock"] is None and deal.view(None)["stock"] is None
    assert leaks(deal) == []
    play(deal, "discard S10")
    assert deal.action_seen_by(4, 1) == "discard" and deal.action_seen_by(4, 0) == "discard S10"
    play(deal, "discard HA", "discard GA")
    # the trump is named after the exchange, any suit with Reizen
    assert (deal.phase, deal.to_move) == ("trump", 0)
    assert legal(deal) == ["trump E", "trump G", "trump H", "trump S"]
    play(deal, "trump E", *GUT3)
    assert (deal.phase, deal.to_move, deal.trump) == ("play", 0, "E")
    assert deal.view(1)["discards"] is None and deal.view(0)["discards"] == ["GA", "HA", "S10"]
    assert leaks(deal) == []
    parties = deal.parties()
    assert parties is not None and GERMAN.points_of(parties[0]) == 32  # 10 + 11 + 11


def test_frage_nur_herz_sets_the_trump() -> None:
    deal = frage_b1({"frage_nur_herz": True})
    play(deal, "discard S10", "discard S7", "discard S6")
    assert (deal.phase, deal.trump) == ("kontra", "H")


def test_a_hand_game_leaves_the_stock_unseen_but_counting() -> None:
    deal = play(new_deal(B1), "bid ich_spiele", "pass", "pass", "game hand", "trump E")
    assert deal.phase == "kontra" and deal.hands[0].bit_count() == 11
    stock = GERMAN.mask("S10 S7 S6")
    assert all(deal.hidden_from(s) & stock == stock for s in (0, 1, 2, None))
    assert deal.view(0)["stock"] is None
    parties = deal.parties()
    assert parties is not None and parties[0] == stock


# ---------------------------------------------------------------- Kontra (BT-A13)


def test_kontra_by_an_opponent_and_re_by_the_declarer() -> None:
    deal = frage_b1()
    play(deal, "discard S10", "discard S7", "discard S6", "trump E")
    assert (deal.phase, deal.to_move, legal(deal)) == ("kontra", 0, ["gut"])
    play(deal, "gut")
    assert legal(deal) == ["gut", "kontra game"]
    play(deal, "kontra game")
    assert legal(deal) == ["gut"]
    play(deal, "gut")
    assert legal(deal) == ["gut", "re game"]
    play(deal, "re game", "gut", "gut")
    assert deal.phase == "kontra"
    play(deal, "gut")
    assert (deal.phase, deal.kontra_factor) == ("play", 4)


def test_a_doubling_word_this_table_does_not_play_is_named_so() -> None:
    deal = frage_b1()  # Kontra and Re only
    play(deal, "discard S10", "discard S7", "discard S6", "trump E", "gut")
    with pytest.raises(IllegalActionError) as info:
        deal.act(deal.to_move, "supp game")
    assert info.value.code == "not_played_here"
    assert "kontra, re" in info.value.message and "kontra, re" in info.value.message_de
    assert refused(deal, "pass") == "wrong_phase"  # not a doubling word at all


def test_without_the_reizen_nobody_holds_and_the_refusals_say_so() -> None:
    deal = play(new_deal(B1, {"reizen": False}), "bid hand")
    with pytest.raises(IllegalActionError) as info:
        deal.act(deal.to_move, "bid hand")
    assert info.value.code == "bid_too_low" and "halten" not in info.value.message_de
    with pytest.raises(IllegalActionError) as info:
        deal.act(deal.to_move, "hold")
    assert info.value.code == "no_holding" and "ohne Reizen" in info.value.message_de
    assert legal(deal)[0] == "pass"


def test_kontra_off_and_the_hirsch_ladder() -> None:
    deal = frage_b1({"kontra": "off"})
    play(deal, "discard S10", "discard S7", "discard S6", "trump E")
    assert deal.phase == "play"
    deal = frage_b1({"kontra": "hirsch"})
    play(deal, "discard S10", "discard S7", "discard S6", "trump E",
         "gut", "kontra game", "gut", "re game", "supp game", "gut", "resupp game")  # fmt: skip
    assert legal(deal) == ["gut", "hirsch game"]
    play(deal, "hirsch game", "gut", "gut", "gut")
    assert (deal.phase, deal.kontra_factor) == ("play", 32)


# ---------------------------------------------------------------- play (BT-A5, BT-A6)


def hand_b1_herz() -> BayerischesTarockDeal:
    """Bernd plays Hand in Herz; Anna leads."""
    return play(new_deal(B1), "bid ich_spiele", "bid hand", "pass", "pass", "trump H", *GUT3)


def test_vorhand_leads_whoever_declares() -> None:
    deal = hand_b1_herz()
    assert (deal.phase, deal.declarer, deal.to_move) == ("play", 1, 0)
    assert len(legal(deal)) == 11


def test_void_in_the_suit_must_trump_and_then_following_is_any_card_of_the_suit() -> None:
    deal = play(hand_b1_herz(), "play SA")
    assert legal(deal) == ["play HK", "play HO", "play HU", "play H9"]
    assert refused(deal, "play GK") == "trumpfzwang"
    play(deal, "play H9")
    # Catrin follows Schellen: none of her cards can beat the trump, so any Schellen
    assert legal(deal) == ["play SK", "play SO", "play SU", "play S9", "play S8"]
    assert refused(deal, "play G8") == "farbzwang"
    play(deal, "play S8")
    assert deal.tricks[-1][2] == 1 and deal.to_move == 1


def test_following_that_cannot_win_is_any_card_of_the_suit() -> None:
    deal = play(hand_b1_herz(), "play E9")
    assert legal(deal) == ["play E8", "play E7", "play E6"]
    play(deal, "play E6")
    assert legal(deal) == ["play H8", "play H7", "play H6"]


def b2_hand_herz() -> BayerischesTarockDeal:
    return play(new_deal(B2), "bid ich_spiele", "pass", "pass", "game hand", "trump H", *GUT3)


def test_a_trump_lying_must_be_overtrumped_if_possible() -> None:
    deal = play(b2_hand_herz(), "play S9")
    assert legal(deal) == ["play HA", "play HO", "play H9", "play H8"]
    play(deal, "play HO")
    assert legal(deal) == ["play HK"]
    assert refused(deal, "play H7") == "stichzwang"
    assert refused(deal, "play EK") == "trumpfzwang"
    play(deal, "play HK")
    assert deal.tricks[-1][2] == 2


def test_a_trump_that_cannot_be_beaten_leaves_any_trump() -> None:
    deal = play(b2_hand_herz(), "play S9", "play HA")
    assert legal(deal) == ["play HK", "play HU", "play H7", "play H6"]


def test_must_beat_inside_the_suit_and_the_bettel_order() -> None:
    rules = TRUMP_RULES["E"]
    assert GERMAN.codes(rules.legal(GERMAN.mask("GA G9 G7 E6"), g("G10"), g("G10"))) == ["GA"]
    assert GERMAN.codes(rules.legal(GERMAN.mask("GA G9 E7"), g("G10"), g("E6"))) == ["GA", "G9"]
    assert rules.winner([g("G10"), g("GA"), g("E6")]) == 2
    bettel = BETTEL_RULES[True]
    assert bettel.winner([g("E10"), g("EU"), g("HA")]) == 1  # the ten below the Unter
    assert bettel.winner([g("E10"), g("E9"), g("EA")]) == 2
    hand = GERMAN.mask("EA E7 H6")
    assert GERMAN.codes(bettel.legal(hand, g("E10"), g("E10"))) == ["EA"]
    assert GERMAN.codes(BETTEL_RULES[False].legal(hand, g("E10"), g("E10"))) == ["EA", "E7"]
    assert GERMAN.codes(bettel.legal(GERMAN.mask("HA SA"), g("E10"), g("E10"))) == ["HA", "SA"]


# ---------------------------------------------------------------- whole games and units


def declarer_leads_to_end(deal: BayerischesTarockDeal, order: str) -> BayerischesTarockDeal:
    """Anna plays her cards in ``order`` whenever it is her turn; the others the first
    legal card."""
    cards = order.split()
    while not deal.finished:
        if deal.to_move == 0:
            deal.act(0, f"play {cards.pop(0)}")
        else:
            deal.apply(deal.legal_moves()[0])
    return deal


B3_ORDER = "HA H10 HK HO HU H9 H8 H7 H6 EA GA"


def test_durch_made_is_worth_a_made_116_plus_one() -> None:
    deal = play(new_deal(B3), "bid ich_spiele", "bid hand", "pass", "bid durch", "pass",
                "trump H", *GUT3)  # fmt: skip
    assert (deal.contract, deal.word) == ("durch", "durch")
    outcome = declarer_leads_to_end(deal, B3_ORDER).outcome()
    assert outcome is not None
    assert (outcome["declarer_won"], outcome["tricks_taken"], outcome["units"]) == (True, 11, 25)
    assert outcome["augen"] == {"declarer": 120, "opponents": 0}
    assert outcome["settlement"] == [50, -25, -25]


def test_a_self_raised_hand_game_counts_each_step_announced() -> None:
    deal = play(new_deal(B3, {"selbststeigern": True}), "bid ich_spiele", "pass", "pass",
                "game 71", "trump H", *GUT3)  # fmt: skip
    outcome = declarer_leads_to_end(deal, B3_ORDER).outcome()
    assert outcome is not None
    # 1 won + 1 Hand + 11 fives reached (66 … 116) + 2 announced (66, 71)
    assert outcome["units"] == 15 and outcome["settlement"] == [30, -15, -15]
    assert [line["code"] for line in outcome["lines"]].count("erreicht") == 11
    assert [line.get("level") for line in outcome["lines"] if line["code"] == "angesagt"] == [
        66, 71,
    ]  # fmt: skip


def test_kontra_and_re_multiply_the_settlement() -> None:
    deal = play(new_deal(B3, {"selbststeigern": True}), "bid ich_spiele", "pass", "pass",
                "game 71", "trump H", "gut", "kontra game", "gut", "re game", "gut", "gut",
                "gut")  # fmt: skip
    outcome = declarer_leads_to_end(deal, B3_ORDER).outcome()
    assert outcome is not None
    assert (outcome["units"], outcome["factor"]) == (15, 4)
    assert outcome["settlement"] == [120, -60, -60]


def test_a_stock_game_has_no_hand_unit() -> None:
    deal = play(new_deal(B3), "bid ich_spiele", "pass", "pass", "game frage",
                "discard S8", "discard S7", "discard S6", "trump H", *GUT3)  # fmt: skip
    outcome = declarer_leads_to_end(deal, B3_ORDER).outcome()
    assert outcome is not None
    # 1 won + 11 fives reached, nothing for Hand or announced steps
    assert outcome["units"] == 12 and outcome["settlement"] == [24, -12, -12]
    assert outcome["discards"] == ["S8", "S7", "S6"]


def test_a_lost_hand_game_costs_its_announced_value() -> None:
    # Bernd plays Hand to 66 in Schellen with no Schellen at all
    deal = play(new_deal(B1), "bid ich_spiele", "bid 66", "pass", "pass", "trump S", *GUT3)
    outcome = first_legal_to_end(deal).outcome()
    assert outcome is not None
    assert outcome["declarer_won"] is False
    assert outcome["augen"]["declarer"] < 66
    # 1 + Hand 1 + one announced step, to each opponent
    assert outcome["units"] == 3 and outcome["settlement"] == [3, -6, 3]
    assert deal.invariant_errors() == []


# ---------------------------------------------------------------- without Reizen (BT-A14)


def test_requests_without_reizen_in_their_order() -> None:
    deal = new_deal(B1, {"reizen": False})
    assert legal(deal) == ["pass", "bid frage", "bid frage_herz", "bid hand", "bid hand_herz",
                           "bid bettel"]  # fmt: skip
    play(deal, "bid hand")
    assert legal(deal) == ["pass", "bid hand_herz", "bid bettel"]  # a tie goes to V
    play(deal, "bid hand_herz", "pass")
    assert (deal.declarer, deal.contract, deal.trump, deal.phase) == (1, "hand_herz", "H",
                                                                       "kontra")  # fmt: skip


def test_a_stock_game_without_reizen_names_a_suit_other_than_herz() -> None:
    deal = play(new_deal(B1, {"reizen": False}), "bid frage", "pass", "pass",
                "discard S10", "discard S7", "discard S6")  # fmt: skip
    assert legal(deal) == ["trump E", "trump G", "trump S"]


def test_bettel_won_without_reizen_is_worth_four() -> None:
    deal = play(new_deal(B4, {"reizen": False}), "bid bettel")
    assert legal(deal) == ["pass"]
    play(deal, "pass", "pass", *GUT3)
    assert (deal.phase, deal.trump) == ("play", None)
    outcome = first_legal_to_end(deal).outcome()
    assert outcome is not None
    assert (outcome["declarer_won"], outcome["tricks_taken"], outcome["units"]) == (True, 0, 4)
    assert outcome["settlement"] == [8, -4, -4] and len(outcome["tricks"]) == 11


def test_bettel_ends_with_the_declarers_first_trick() -> None:
    deal = play(new_deal(B1, {"reizen": False}), "bid bettel", "pass", "pass", *GUT3)
    play(deal, "play EA", "play E8", "play G8")
    assert deal.finished
    outcome = deal.outcome()
    assert outcome is not None
    assert (outcome["declarer_won"], outcome["settlement"]) == (False, [-8, 4, 4])
    assert deal.invariant_errors() == []


def test_a_matsch_hand_in_herz_without_reizen() -> None:
    deal = play(new_deal(B3, {"reizen": False}), "bid hand_herz", "pass", "pass", *GUT3)
    outcome = declarer_leads_to_end(deal, B3_ORDER).outcome()
    assert outcome is not None
    # Herzsolo 3 + Schneider 1 + Matsch 1
    assert outcome["units"] == 5 and outcome["settlement"] == [10, -5, -5]
    assert [line["code"] for line in outcome["lines"]] == ["spielwert", "schneider", "matsch"]


# ---------------------------------------------------------------- Berliner (BT-A17)


def test_berliner_only_the_dealer_may_take_the_stock() -> None:
    deal = new_deal(B1, {"berliner": "on"})
    assert legal(deal) == ["pass", "bid hand", *POINTS, "bid durch"]
    assert refused(deal, "bid ich_spiele") == "stock_dealer_only"
    play(deal, "pass", "pass")
    assert legal(deal) == ["pass", "bid ich_spiele", "bid hand", *POINTS, "bid durch"]
    play(deal, "bid ich_spiele")
    assert (deal.declarer, legal(deal)) == (2, ["game frage", "game hand"])


def test_berliner_in_herz_and_with_the_dealer_sitting_out() -> None:
    deal = play(new_deal(B1, {"berliner": "herz"}), "pass", "pass", "bid ich_spiele",
                "game frage", "discard S10", "discard S7", "discard S6")  # fmt: skip
    assert (deal.phase, deal.trump) == ("kontra", "H")
    four = new_deal(B1, {"berliner": "on"}, dealer="Dora")
    play(four, "pass", "pass")
    assert "bid ich_spiele" not in legal(four)


def test_durch_ends_with_the_first_trick_lost() -> None:
    deal = play(new_deal(B1), "bid ich_spiele", "bid durch", "pass", "pass", "trump H", *GUT3)
    assert (deal.declarer, deal.contract) == (1, "durch")
    play(deal, "play EA", "play E6")
    assert legal(deal) == ["play H8", "play H7", "play H6"]  # Catrin must trump
    play(deal, "play H6")
    assert deal.finished and len(deal.tricks) == 1
    outcome = deal.outcome()
    assert outcome is not None
    # 1 + Hand 1 + Durch as the twelfth announced step = 14 to each opponent
    assert (outcome["declarer_won"], outcome["units"]) == (False, 14)
    assert outcome["settlement"] == [14, -28, 14]
    assert deal.invariant_errors() == []
    # the opponents have EA + E6 + H6 = 11, Bernd the unseen Stock S10 S7 S6 = 10
    summary = BayerischesTarock().summarize(outcome)
    assert summary == {"contract": "durch", "declarer": 1, "declarer_won": False, "solo": True,
                       "card_points": [11, 10, 11]}  # fmt: skip


def test_sixty_to_sixty_loses_and_the_units_of_a_lost_game() -> None:
    from server.engine.games.bayerisches_tarock.scoring import declarer_wins, reiz_lost_units

    assert declarer_wins(60, 61) is False and declarer_wins(61, 61) is True
    assert declarer_wins(70, 71) is False and declarer_wins(71, 71) is True
    assert reiz_lost_units(target=61, hand=False) == 1  # a lost Stock game
    assert reiz_lost_units(target=61, hand=True) == 2  # a lost Hand
    assert reiz_lost_units(target=116, hand=True) == 13


def test_kontra_with_the_literal_role_switch() -> None:
    deal = play(new_deal(B1, {"kontra_rollentausch": True}), "bid ich_spiele", "bid 66",
                "pass", "pass", "trump S", "kontra game", "gut", "gut", "gut")  # fmt: skip
    assert deal.roles_switched
    outcome = first_legal_to_end(deal).outcome()
    assert outcome is not None
    # the opponents, now the playing party, reach 66 with 110 Augen: Bernd loses, ×2
    assert outcome["augen"] == {"declarer": 10, "opponents": 110}
    assert (outcome["declarer_won"], outcome["roles_switched"]) == (False, True)
    assert outcome["settlement"] == [6, -12, 6]
    # a Re turns it back
    deal = play(new_deal(B1, {"kontra_rollentausch": True}), "bid ich_spiele", "bid 66",
                "pass", "pass", "trump S", "kontra game", "re game", "gut", "gut",
                "gut")  # fmt: skip
    assert not deal.roles_switched and deal.kontra_factor == 4


def test_the_role_switch_decides_by_the_opponents_augen() -> None:
    """Random deals with every Kontra: with the roles switched the declarer wins exactly
    when the opponents stay below his target (60:60 at 61 is his), else when he reaches it."""
    import random

    rules = BayerischesTarock()
    rng = random.Random(2026)
    differ = 0
    for _ in range(300):
        deal = rules.new_deal(rules.shuffle_and_deal(rng), {"kontra_rollentausch": True})
        while not deal.finished:
            moves = deal.legal_texts()
            if deal.phase == "kontra":  # the opponents say Kontra, nobody says Re
                moves = [m for m in moves if m.startswith("kontra")] or ["gut"]
            deal.act(deal.to_move, rng.choice(moves))
        outcome = deal.outcome()
        assert outcome is not None
        if outcome["contract"] not in ("frage", "hand") or len(outcome["tricks"]) < 11:
            continue
        assert outcome["roles_switched"]
        augen, target = outcome["augen"], outcome["target"]
        assert outcome["declarer_won"] == (augen["opponents"] < target)
        differ += (augen["opponents"] < target) != (augen["declarer"] >= target)
    assert differ > 0
