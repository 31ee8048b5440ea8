"""Scenario tests: state after these actions → exact legal actions, winners, views.

Each expected list is worked out by hand from dreierles.txt and the DL rows of
DECISIONS.md for the hand-built deals in ``dreierles_deals.py``.
"""

from __future__ import annotations

import random

import pytest

from server.engine.cards import TAROCK
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.dreierles import DreierlesDeal
from server.engine.games.dreierles.errors import play_error
from server.engine.registry import get_rules
from tests.engine.dreierles_deals import D1, D2, D3, D4, D5, new_deal, play

TRUMPS_1_10 = [f"play T{n}" for n in range(1, 11)]
# Anna bids Dreier, Bernd Zweier; Bernd discards KaD Ka2, nobody knocks; Bernd leads.
ZWEIER_IN_PLAY = (
    "bid dreier",
    "bid zweier",
    "pass",
    "discard KaD",
    "discard Ka2",
    "fertig",
    "pass",
)
# Everybody passes, nobody knocks: Räuber, Anna leads.
RAEUBER_IN_PLAY = ("pass",) * 6


# ---------------------------------------------------------------- auction (DL-A2)


def test_auction_starts_with_vorhand_and_offers_every_game() -> None:
    deal = new_deal()
    assert (deal.phase, deal.to_move) == ("auction", 0)
    assert deal.legal_texts() == ["pass", "bid dreier", "bid zweier", "bid einer", "bid solo"]


def test_each_bid_must_be_higher_and_nobody_holds() -> None:
    deal = play(new_deal(), "bid zweier")
    assert deal.to_move == 1
    assert deal.legal_texts() == ["pass", "bid einer", "bid solo"]
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "bid zweier")
    assert err.value.code == "bid_too_low"
    assert "kein Halten" in err.value.message_de
    play(deal, "bid solo")
    assert deal.legal_texts() == ["pass"]


def test_everybody_speaks_once_then_the_highest_bidder_declares() -> None:
    deal = play(new_deal(), "bid dreier", "bid zweier", "pass")
    assert (deal.contract, deal.declarer, deal.phase, deal.to_move) == ("zweier", 1, "discard", 1)
    # Anna does not get a second chance to bid
    assert [c for _, c in deal.calls] == ["dreier", "zweier", "pass"]


def test_out_of_turn_is_refused_and_changes_nothing() -> None:
    deal = new_deal()
    with pytest.raises(IllegalActionError) as err:
        deal.act(2, "pass")
    assert err.value.code == "not_your_turn"
    assert deal.history == [] and deal.to_move == 0


def test_malformed_actions_are_a_different_error() -> None:
    deal = new_deal()
    with pytest.raises(MalformedError) as err:
        deal.act(0, "bid vierer")
    assert err.value.code == "unknown_contract"
    with pytest.raises(MalformedError):
        deal.act(0, "jump")
    with pytest.raises(MalformedError) as err2:
        deal.act(0, "play XY")
    assert err2.value.code == "unknown_card"


# ---------------------------------------------------------------- blind and discards


def test_zweier_takes_the_top_two_and_the_rest_goes_to_the_opponents() -> None:
    deal = play(new_deal(), "bid dreier", "bid zweier", "pass")
    bernd = deal.view(1)
    assert bernd["talon_taken"] == ["KrC", "KrB"]
    assert bernd["talon_rest"] is None  # the declarer never sees the rest
    assert "KrC" in bernd["hand"] and len(bernd["hand"]) == 18
    assert deal.view(0)["talon_rest"] == ["Kr10", "Kr9", "Kr8", "Kr7"]  # opponents look
    assert deal.view(2)["talon_rest"] == ["Kr10", "Kr9", "Kr8", "Kr7"]
    assert deal.view(None)["talon_rest"] is None
    assert deal.view(None)["talon_taken"] == ["KrC", "KrB"]  # turned face up for all


def test_discards_exclude_kings_and_trumps() -> None:
    deal = play(new_deal(), "bid dreier", "bid zweier", "pass")
    assert deal.legal_texts() == [
        "discard KaD",
        "discard KaC",
        "discard KaB",
        "discard KaA",
        "discard Ka2",
        "discard KrC",
        "discard KrB",
    ]
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "discard KaK")
    assert err.value.code == "discard_king"
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "discard T11")
    assert err.value.code == "discard_trump"


def test_dreier_discards_three_then_declares() -> None:
    deal = play(new_deal(), "bid dreier", "pass", "pass")
    assert deal.legal_texts() == [
        "discard HD",
        "discard HC",
        "discard HB",
        "discard PD",
        "discard KrC",
        "discard KrB",
        "discard Kr10",
    ]
    play(deal, "discard KrC", "discard KrB", "discard Kr10")
    assert deal.phase == "declare"
    assert deal.legal_texts() == ["announce pfeife", "fertig"]
    assert deal.view(1)["discards"] is None and deal.view(1)["discard_count"] == 3
    assert deal.view(0)["discards"] == ["KrC", "KrB", "Kr10"]


def test_solo_takes_nothing_and_all_six_count_for_the_opponents() -> None:
    deal = play(new_deal(), "bid solo", "pass", "pass")
    assert deal.phase == "declare" and deal.taken == 0
    assert deal.view(1)["talon_rest"] == ["KrC", "KrB", "Kr10", "Kr9", "Kr8", "Kr7"]


# ---------------------------------------------------------------- Klopfen (DL-A8)


def test_only_an_opponent_who_bid_may_knock_then_the_declarer_knocks_back() -> None:
    deal = play(new_deal(), "bid dreier", "bid zweier", "pass", "discard KaD", "discard Ka2")
    assert deal.legal_texts() == ["fertig"]  # Bernd has no Pfeife
    play(deal, "fertig")
    assert (deal.phase, deal.to_move) == ("knock", 0)  # Anna bid; Catrin did not
    assert deal.legal_texts() == ["pass", "knock"]
    play(deal, "knock")
    assert (deal.phase, deal.to_move) == ("knock", 1)  # Gegenklopfen
    play(deal, "knock")
    assert deal.knocks == [0, 1]
    assert (deal.phase, deal.to_move) == ("play", 1)  # the declarer leads


def test_no_knock_phase_when_no_opponent_bid() -> None:
    deal = play(new_deal(), "bid solo", "pass", "pass", "fertig")
    assert (deal.phase, deal.to_move) == ("play", 0)


def test_declarer_may_not_knock_back_without_an_opponent_knock() -> None:
    deal = play(
        new_deal(),
        *ZWEIER_IN_PLAY,
    )
    assert (deal.phase, deal.to_move, deal.knocks) == ("play", 1, [])


# ---------------------------------------------------------------- play (DL-A14, DL-A15)


def test_farbzwang_and_trumpfzwang() -> None:
    deal = play(
        new_deal(),
        *ZWEIER_IN_PLAY,
        "play KaK",
    )
    assert deal.to_move == 2  # anticlockwise: Bernd → Catrin → Anna
    assert deal.legal_texts() == ["play Ka3", "play Ka4"]
    with pytest.raises(IllegalActionError) as err:
        deal.act(2, "play HA")
    assert err.value.code == "farbzwang"
    assert err.value.message == "Farbzwang: Karo was led and you hold Karo"
    play(deal, "play Ka4")
    assert deal.legal_texts() == TRUMPS_1_10  # Anna has no Karo: she must trump
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "play HK")
    assert err.value.code == "trumpfzwang"
    play(deal, "play T1")
    assert deal.tricks[0] == (
        1,
        (deal.rules.pack.parse("KaK"), deal.rules.pack.parse("Ka4"), deal.rules.pack.parse("T1")),
        0,
    )
    assert deal.to_move == 0  # the winner leads


def test_trump_led_must_be_followed_with_trump_and_no_overtrump_duty() -> None:
    deal = play(
        new_deal(),
        *ZWEIER_IN_PLAY,
        "play T20",
    )
    assert deal.legal_texts() == ["play T21", "play SK"]
    play(deal, "play T21")
    assert deal.legal_texts() == TRUMPS_1_10  # must trump, need not beat
    play(deal, "play T2")
    assert deal.tricks[-1][2] == 2  # Catrin's T21 wins


def test_void_in_the_led_suit_must_trump() -> None:
    deal = play(
        new_deal(),
        *ZWEIER_IN_PLAY,
        "play KaK",
        "play Ka4",
        "play T3",
        "play HK",
    )
    assert deal.to_move == 1
    assert deal.legal_texts() == [f"play T{n}" for n in range(11, 21)]


# ---------------------------------------------------------------- the announced Pfeife


def test_announced_pfeife_is_shown_and_held_back_until_the_last_trick() -> None:
    deal = play(
        new_deal(),
        "bid dreier",
        "pass",
        "pass",
        "discard HD",
        "discard HC",
        "discard HB",
        "announce pfeife",
    )
    assert deal.legal_texts() == ["fertig"]
    assert deal.view(1)["exposed"] == ["T1"] and deal.view(None)["pfeife_announced"]
    play(deal, "fertig")
    assert (deal.phase, deal.to_move) == ("play", 0)
    legal = deal.legal_texts()
    assert "play T1" not in legal and "play T2" in legal and "play KrC" in legal
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "play T1")
    assert err.value.code == "pfeife_announced"


def test_only_the_holder_of_the_pfeife_can_announce_it() -> None:
    deal = play(
        new_deal(), "pass", "bid dreier", "pass", "discard KaD", "discard KaC", "discard KaB"
    )
    assert deal.legal_texts() == ["fertig"]
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "announce pfeife")
    assert err.value.code == "no_pfeife"


# ---------------------------------------------------------------- Räuber (DL-A16, DL-A17)


def test_all_pass_gives_a_raeuber_where_everybody_may_knock_and_vorhand_leads() -> None:
    deal = play(new_deal(), "pass", "pass", "pass")
    assert (deal.contract, deal.phase, deal.to_move) == ("raeuber", "knock", 0)
    assert deal.legal_texts() == ["pass", "knock"]
    play(deal, "knock", "pass")
    assert deal.to_move == 2 and deal.legal_texts() == ["pass", "knock"]
    play(deal, "knock")
    assert deal.knocks == [0, 2]
    assert (deal.phase, deal.to_move) == ("play", 0)
    assert deal.view(0)["talon_rest"] is None and deal.view(0)["talon_taken"] == []


def test_raeuber_pfeife_must_be_played_to_the_third_trick() -> None:
    deal = play(new_deal(), *RAEUBER_IN_PLAY, "play HK", "play T11", "play HA")  # trick 1 to Bernd
    assert deal.tricks[-1][2] == 1
    play(deal, "play KaK", "play Ka3")
    # trick 2, Anna void in Karo with T1–T10: not the Pfeife, it is not her only card (DL-A17)
    assert deal.legal_texts() == TRUMPS_1_10[1:]
    play(deal, "play T2")
    assert deal.tricks[-1][2] == 0 and deal.to_move == 0
    assert deal.legal_texts() == ["play T1"]  # trick 3: Anna must lead the Pfeife
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "play HD")
    assert err.value.code == "pfeife_third_trick"


def test_raeuber_pfeife_may_not_be_led_to_the_first_trick() -> None:
    deal = play(new_deal(), *RAEUBER_IN_PLAY)
    assert (deal.phase, deal.to_move) == ("play", 0)
    legal = deal.legal_texts()
    assert "play T1" not in legal
    assert legal == [*TRUMPS_1_10[1:], "play HK", "play HD", "play HC", "play HB", "play PK",
                     "play PD"]  # fmt: skip
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "play T1")
    assert err.value.code == "pfeife_before_third_trick"
    assert "dritten Stich" in err.value.message_de and "only legal card" in err.value.message


def test_raeuber_pfeife_refused_in_the_second_trick_with_its_rule() -> None:
    deal = play(new_deal(), *RAEUBER_IN_PLAY, "play HK", "play T11", "play HA", "play KaK")
    play(deal, "play Ka3")
    assert deal.to_move == 0 and len(deal.tricks) == 1
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "play T1")
    assert err.value.code == "pfeife_before_third_trick"
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "play HD")  # the follow rules are named first
    assert err.value.code == "trumpfzwang"


def test_raeuber_pfeife_allowed_early_when_it_is_the_only_legal_card() -> None:
    deal = play(new_deal(D4), *RAEUBER_IN_PLAY, "play KrK")
    # trick 1: Bernd is void in Kreuz and T1 is his only trump → forced, no penalty
    assert deal.to_move == 1 and deal.legal_texts() == ["play T1"]
    play(deal, "play T1", "play T12")
    assert deal.tricks[0] == (0, tuple(TAROCK.parse(c) for c in ("KrK", "T1", "T12")), 2)


def test_raeuber_pfeife_follows_the_mond_rule_first() -> None:
    # Catrin holds T1 and T21 as her only trumps after the Sküs was played: the Mond may
    # not go on the Sküs while she holds another trump, so the Pfeife is her only card.
    deal = play(new_deal(D5), *RAEUBER_IN_PLAY, "play KrK", "play SK")
    assert deal.to_move == 2 and len(deal.tricks) == 0
    assert deal.legal_texts() == ["play T1"]
    with pytest.raises(IllegalActionError) as err:
        deal.act(2, "play T21")
    assert err.value.code == "mond_on_skus"


def test_raeuber_mond_may_not_fall_on_the_skus_while_another_trump_is_held() -> None:
    deal = play(
        new_deal(D2), *RAEUBER_IN_PLAY, "play HK", "play SK"
    )  # Bernd, void in Herz, trumps with the Sküs
    assert deal.to_move == 2
    assert deal.legal_texts() == ["play HA", "play H2", "play H3", "play H4"]  # Farbzwang first
    deal = play(new_deal(D2), *RAEUBER_IN_PLAY, "play T2", "play SK")
    assert deal.legal_texts() == ["play T20"]  # T21 is held back onto the Sküs
    with pytest.raises(IllegalActionError) as err:
        deal.act(2, "play T21")
    assert err.value.code == "mond_on_skus"


# ---------------------------------------------------------------- final round (DL-A8, DL-A19)


def test_final_round_allows_only_solo_and_a_non_bidder_knocks() -> None:
    deal = new_deal(options={"final_round": True})
    assert deal.legal_texts() == ["pass", "bid solo"]
    play(deal, "pass", "bid solo")
    assert deal.legal_texts() == ["pass"]
    play(deal, "pass", "fertig")
    assert (deal.phase, deal.to_move) == ("knock", 2)  # Catrin, then Anna, may knock
    play(deal, "pass")
    assert deal.to_move == 0
    play(deal, "knock", "pass")
    assert (deal.phase, deal.to_move, deal.knocks) == ("play", 1, [0])


def test_final_round_all_pass_is_a_raeuber() -> None:
    deal = play(new_deal(options={"final_round": True}), "pass", "pass", "pass")
    assert deal.contract == "raeuber"


# ---------------------------------------------------------------- bonuses in real deals


def finish(deal: DreierlesDeal) -> dict[str, object]:
    """Play the first legal move until the end; return the outcome."""
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    outcome = deal.outcome()
    assert outcome is not None
    return outcome


def hand_premiums(outcome: dict[str, object]) -> list[tuple[str, int]]:
    premiums = outcome["premiums"]
    assert isinstance(premiums, list)
    return [(p["name"], p["seat"]) for p in premiums if "seat" in p]


def test_hand_bonuses_go_to_whoever_holds_them() -> None:
    # D1: Anna (T1–T10) and Bernd (T11–T20) both hold ten trumps
    outcome = finish(play(new_deal(D1), "pass", "bid zweier", "pass", "discard KaD", "discard Ka2"))
    assert hand_premiums(outcome) == [("zehn_trumpf", 0), ("zehn_trumpf", 1)]
    # D3: Anna holds the Drull and all four kings, Bernd sixteen trumps
    outcome = finish(play(new_deal(D3), "bid solo", "pass", "pass"))
    assert hand_premiums(outcome) == [("drull", 0), ("vier_koenige", 0), ("zehn_trumpf", 1)]


def test_zehn_trumpf_and_drull_can_be_restricted_to_the_declarer() -> None:
    options = {"hand_bonus_declarer_only": True}
    outcome = finish(play(new_deal(D3, options), "pass", "bid solo", "pass"))
    # Bernd declares; Anna keeps only her four kings
    assert hand_premiums(outcome) == [("vier_koenige", 0), ("zehn_trumpf", 1)]


def test_announced_pfeife_forced_out_early_is_lost() -> None:
    deal = play(new_deal(D3), "bid solo", "pass", "pass", "announce pfeife", "fertig")
    play(deal, "play SK", "play T2", "play T18")  # trick 1: Anna
    play(deal, "play T21", "play T3", "play T19")  # trick 2: Anna
    assert "play T1" not in deal.legal_texts()
    play(deal, "play HK", "play T4", "play T20")  # trick 3: Catrin trumps highest
    assert deal.tricks[-1][2] == 2
    play(deal, "play KaB", "play KaK", "play T5")  # trick 4: Bernd trumps
    play(deal, "play T6", "play PD")  # trick 5: trump led, Anna's only trump is the Pfeife
    assert deal.to_move == 0 and deal.legal_texts() == ["play T1"]
    outcome = finish(deal)
    premiums = outcome["premiums"]
    assert isinstance(premiums, list)
    assert premiums[-1] == {
        "name": "pfeife_angesagt",
        "side": "declarer",
        "won": False,
        "points": 2,
    }


def test_discards_are_announced_face_down() -> None:
    deal = play(new_deal(), "bid dreier", "pass", "pass", "discard KrC")
    assert deal.action_seen_by(3, 0) == "discard KrC"
    assert [deal.action_seen_by(3, v) for v in (1, 2, None)] == ["discard"] * 3
    assert deal.action_seen_by(0, 1) == "bid dreier"


def test_views_built_from_the_shared_part_match_a_fresh_replay() -> None:
    """The part of the view every seat sees alike is cached per position: at every position
    of random deals each seat's view equals that of a deal replayed afresh to there, and
    changing a returned view does not change the next one."""
    rules = get_rules("dreierles")
    rng = random.Random(17)
    for _ in range(20):
        dealt = rules.shuffle_and_deal(rng)
        deal = rules.new_deal(dealt)
        while True:
            views = [deal.view(s) for s in (0, 1, 2, None)]
            fresh = rules.new_deal(dealt)
            for seat, move in deal.history:
                fresh.apply(move, seat)
            assert views == [fresh.view(s) for s in (0, 1, 2, None)]
            views[0]["phase"] = "tampered"
            assert deal.view(0)["phase"] == fresh.view(0)["phase"]
            if deal.outcome() is not None:
                break
            deal.apply(rng.choice(deal.legal_moves()))


def test_every_refused_card_is_explained_by_the_rule_that_removed_it() -> None:
    """Random deals (Räuber included): every held card that is not legal is refused with
    one of the play rules' codes, and every legal card passes the check."""
    codes = {code for code, _en, _de in play_error.table.values()}
    rules = get_rules("dreierles")
    rng = random.Random(17)
    seen: set[str] = set()
    for _ in range(60):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        if rng.random() < 0.5:
            for _ in range(3):
                deal.act(deal.to_move, "pass")
        while not deal.finished:
            if deal.phase == "play":
                seat = deal.to_move
                assert seat is not None
                legal = set(deal.legal_moves())
                for card in range(54):
                    if card in legal:
                        assert deal.check(card) == seat
                        continue
                    with pytest.raises(IllegalActionError) as err:
                        deal.check(card)
                    assert err.value.code in codes
                    seen.add(err.value.code)
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert {"card_not_in_hand", "farbzwang", "trumpfzwang", "tarockzwang"} <= seen
    assert {"pfeife_third_trick", "pfeife_before_third_trick"} <= seen


def test_every_move_has_one_canonical_text_and_every_phase_its_handlers() -> None:
    from server.engine.games.dreierles.deal import CODEC, Phase

    for move in range(len(CODEC)):
        assert CODEC.parse(CODEC.text(move)) == move
    assert CODEC.parse("play t21") == CODEC.move("play", "T21") == TAROCK.parse("T21")
    assert CODEC.parse("Weiter") == CODEC.move("pass") and CODEC.parse("klopfen") == CODEC.move(
        "knock"
    )
    with pytest.raises(MalformedError) as err:
        CODEC.parse("bid ramsch")
    assert err.value.code == "unknown_contract"
    with pytest.raises(MalformedError) as err:
        CODEC.parse("announce mond")
    assert err.value.code == "malformed_action"
    assert set(DreierlesDeal._handlers) == {p.value for p in Phase} - {"finished"}


def test_bids_and_the_running_trick_as_before() -> None:
    deal = play(new_deal(), "bid dreier", "bid einer")
    assert deal.bids == [1, 3, 0] and deal.trick == []
    play(deal, "pass", "discard KaD", "fertig", "pass")
    assert deal.phase == "play" and deal.trick == []
    play(deal, "play KaK")
    assert deal.trick == [TAROCK.parse("KaK")]
