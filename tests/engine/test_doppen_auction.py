"""Doppen's auction with holding, the talon choices and the discards (DP-A2 … DP-A7)."""

from __future__ import annotations

import pytest

from server.engine.cards import TAROCK
from server.engine.errors import IllegalActionError
from tests.engine.test_doppen_deals import D1, D2, new_deal, play


def refused(deal: object, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalActionError) as info:
        deal.act(deal.to_move if seat is None else seat, text)  # type: ignore[attr-defined]
    return info.value.code


# --------------------------------------------------------------------------- auction


def test_vorhand_bids_first_and_may_open_with_anything_but_the_unterer() -> None:
    deal = new_deal()
    assert deal.phase == "auction" and deal.to_move == 0
    assert deal.legal_texts() == ["pass", "bid dreier", "bid zweier", "bid einer", "bid solo"]
    assert refused(deal, "bid unterer") == "unterer_only_over_dreier"
    assert refused(deal, "hold") == "no_holding"


def test_the_unterer_only_raises_a_dreier() -> None:
    deal = play(new_deal(), "bid dreier")
    assert deal.legal_texts() == [
        "pass", "bid unterer", "bid zweier", "bid einer", "bid solo",
    ]  # fmt: skip
    deal = play(new_deal(), "pass", "bid zweier")
    assert "bid unterer" not in deal.legal_texts()
    assert refused(deal, "bid unterer") == "bid_too_low"
    assert refused(deal, "bid dreier") == "bid_too_low"


def test_holding_by_priority_then_a_final_weiter() -> None:
    deal = play(new_deal(), "bid dreier", "bid unterer", "pass")
    # Anne sits before Bert, the high bidder: she may hold his Unterer
    assert deal.to_move == 0
    assert deal.legal_texts() == ["pass", "hold", "bid zweier", "bid einer", "bid solo"]
    play(deal, "hold")
    # Bert may not hold Anne: he must bid higher or pass
    assert deal.to_move == 1
    assert deal.legal_texts() == ["pass", "bid zweier", "bid einer", "bid solo"]
    assert refused(deal, "hold") == "no_holding"
    play(deal, "bid zweier")
    # Clara passed: she is not asked again; Anne holds once more, Bert goes to Einer
    assert deal.to_move == 0
    play(deal, "hold", "bid einer", "pass")
    assert deal.phase == "talon" and deal.declarer == 1 and deal.contract == "einer"
    assert [c for _s, c in deal.auction.calls] == [
        "dreier", "unterer", "pass", "hold", "zweier", "hold", "einer", "pass",
    ]  # fmt: skip


def test_a_later_seat_cannot_hold_and_a_held_bid_wins() -> None:
    deal = play(new_deal(), "pass", "bid dreier", "bid zweier")
    assert deal.to_move == 1  # Bert sits before Clara: he may hold her Zweier
    assert "hold" in deal.legal_texts()
    play(deal, "hold")
    assert deal.to_move == 2 and "hold" not in deal.legal_texts()
    play(deal, "pass")
    assert deal.declarer == 1 and deal.contract == "zweier"


def test_everybody_passes_the_deal_is_thrown_in() -> None:
    deal = play(new_deal(), "pass", "pass", "pass")
    assert deal.finished and deal.phase == "finished"
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome["thrown_in"] and outcome["contract"] is None
    assert outcome["settlement"] == [0, 0, 0]
    assert outcome["kasse"] == {"event": "all_pass"}


def test_two_pass_and_the_last_seat_bids_alone() -> None:
    deal = play(new_deal(), "pass", "pass", "bid dreier")
    assert deal.phase == "talon" and deal.declarer == 2


# --------------------------------------------------------------------------- talon


def test_the_talon_is_unseen_during_the_auction_and_turned_up_after() -> None:
    deal = new_deal()
    assert deal.view(1)["talon"] is None
    talon = TAROCK.mask(D1[3])
    assert deal.hidden_from(0) & talon == talon
    play(deal, "bid dreier", "pass", "pass")
    assert deal.view(1)["talon"] == D1[3].split()
    assert deal.hidden_from(1) & talon == 0


def test_dreier_takes_the_upper_or_the_lower_three() -> None:
    deal = play(new_deal(), "bid dreier", "pass", "pass")
    assert deal.legal_texts() == ["take upper", "take lower"]
    assert refused(deal, "take middle") == "bad_talon_choice"
    play(deal, "take lower")
    assert TAROCK.codes(deal.taken) == ["Kr9", "Kr8", "Kr7"]
    assert TAROCK.codes(deal.rest) == ["KrC", "KrB", "Kr10"]
    assert deal.phase == "discard" and deal.discards_left == 3


def test_unterer_takes_a_half_too() -> None:
    deal = play(new_deal(), "bid dreier", "bid unterer", "pass", "pass")
    assert deal.declarer == 1 and deal.legal_texts() == ["take upper", "take lower"]
    play(deal, "take upper")
    assert TAROCK.codes(deal.taken) == ["KrC", "KrB", "Kr10"]


def test_zweier_takes_one_of_three_pairs() -> None:
    deal = play(new_deal(), "bid zweier", "pass", "pass")
    assert deal.legal_texts() == ["take upper", "take middle", "take lower"]
    play(deal, "take middle")
    assert TAROCK.codes(deal.taken) == ["Kr10", "Kr9"]
    assert deal.discards_left == 2


def test_einer_takes_any_one_card() -> None:
    deal = play(new_deal(), "bid einer", "pass", "pass")
    assert deal.legal_texts() == [f"take {c}" for c in TAROCK.codes(TAROCK.mask(D1[3]))]
    assert refused(deal, "take HK") == "bad_talon_choice"
    assert refused(deal, "take upper") == "bad_talon_choice"
    play(deal, "take Kr8")
    assert TAROCK.codes(deal.taken) == ["Kr8"] and deal.discards_left == 1
    assert TAROCK.codes(deal.rest) == ["KrC", "KrB", "Kr10", "Kr9", "Kr7"]


def test_solo_leaves_the_talon_unseen_for_the_opponents() -> None:
    deal = play(new_deal(), "bid solo", "pass", "pass")
    assert deal.phase == "announce" and deal.to_move == 0
    assert deal.view(1)["talon"] is None
    talon = TAROCK.mask(D1[3])
    for seat in (0, 1, 2, None):
        assert deal.hidden_from(seat) & talon == talon
    assert deal.rest == talon and deal.taken == 0


# --------------------------------------------------------------------------- discards


def test_discards_never_honours_and_no_trump_while_other_cards_are_left() -> None:
    deal = play(new_deal(), "pass", "pass", "bid dreier", "take upper")
    # Clara: T21 SK HA H2 H3 H4 Ka3 Ka4 PC PB P10 P9 P8 P7 KrK KrD + KrC KrB Kr10
    assert refused(deal, "discard KrK") == "discard_honour"
    assert refused(deal, "discard SK") == "discard_honour"
    assert refused(deal, "discard T21") == "discard_honour"
    assert refused(deal, "discard HK") == "card_not_in_hand"
    assert "discard KrC" in deal.legal_texts()  # a card just taken may go again (DP-A5)
    play(deal, "discard KrC", "discard P7", "discard H4")
    assert deal.phase == "announce"
    assert deal.view(0)["discards"] is None and deal.view(2)["discards"] == ["H4", "P7", "KrC"]
    assert deal.view(0)["discard_count"] == 3 and deal.view(0)["open_discards"] == []
    assert deal.action_seen_by(len(deal.history) - 1, 0) == "discard"
    assert deal.action_seen_by(len(deal.history) - 1, 2) == "discard H4"


def test_trumps_when_forced_and_then_face_up() -> None:
    deal = play(new_deal(D2), "bid dreier", "pass", "pass", "take lower")
    # HD P7 Kr7 are her only free cards: exactly those may go
    assert deal.legal_texts() == ["discard HD", "discard P7", "discard Kr7"]
    assert refused(deal, "discard T5") == "discard_trump"
    assert refused(deal, "discard HK") == "discard_honour"
    deal = play(new_deal(D2), "bid dreier", "pass", "pass", "take upper")
    # nothing but trumps and honours: any trump but the Trull, shown to everybody
    legal = deal.legal_texts()
    assert legal == [f"discard T{n}" for n in range(2, 17)]
    assert refused(deal, "discard T1") == "discard_honour"
    play(deal, "discard T2", "discard T3", "discard T16")
    assert deal.view(1)["open_discards"] == ["T2", "T3", "T16"]
    assert deal.action_seen_by(len(deal.history) - 1, 1) == "discard T16"
    assert deal.hidden_from(1) & TAROCK.mask("T2 T3 T16") == 0
