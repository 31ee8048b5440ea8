"""Tarock zu dritt, Phase II and III: the talon (TZ-A4), the discards (TZ-A5), the
premium announcements, "ich liege", and the Kontra rounds (TZ-A9)."""

from __future__ import annotations

import pytest

from server.engine.cards import TAROCK
from server.engine.errors import MalformedError
from tests.engine.test_tarock_zu_dritt_deals import act, deal_of, refused

TALON = "HK HD HC KaK KaD KaC"


def dreier(talon: str = TALON, v: str = "", **options: object) -> object:
    return act(deal_of(v=v, talon=talon, options=options or None), "bid dreier", "pass", "pass")


def test_dreier_the_talon_lies_open_and_a_half_is_taken() -> None:
    deal = act(deal_of(talon=TALON), "bid dreier", "pass", "pass")
    assert deal.phase == "talon" and deal.to_move == 0
    assert deal.legal_texts() == ["take 1", "take 2"]
    for seat in (0, 1, 2, None):
        assert deal.view(seat)["talon"] == TALON.split()
        assert deal.hidden_from(seat) & TAROCK.mask(TALON) == 0
    act(deal, "take 2")
    assert deal.phase == "discard"
    assert deal.hands[0] & TAROCK.mask("KaK KaD KaC") == TAROCK.mask("KaK KaD KaC")
    assert deal.rest == TAROCK.mask("HK HD HC")
    assert deal.view(1)["talon_taken"] == ["KaK", "KaD", "KaC"]
    assert refused(deal, "take 1") == "wrong_phase"


def test_the_talon_and_the_discards_are_tabu_during_the_play() -> None:
    # "Alle dürfen den letzten Stich einsehen, die anderen Stiche und der Talon sind tabu."
    deal = act(deal_of(talon=TALON), "bid dreier", "pass", "pass", "take 2")
    discards = [deal.move_text(m) for m in deal.legal_moves()[:3]]
    act(deal, *discards, "liege", "gut", "gut", "gut")
    assert deal.phase == "play"
    for seat in (0, 1, 2, None):
        view = deal.view(seat)
        assert view["talon"] is None and view["talon_taken"] == []
        assert view["discards"] is None  # the declarer's too
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    assert deal.view(1)["talon"] == TALON.split()
    assert deal.view(0)["discards"] == [d.split()[1] for d in discards]


def test_zweier_takes_one_of_three_pairs_einer_any_one_card() -> None:
    deal = act(deal_of(talon=TALON), "bid zweier", "pass", "pass")
    assert deal.legal_texts() == ["take 1", "take 2", "take 3"]
    act(deal, "take 2")
    assert deal.taken == TAROCK.mask("HC KaK") and deal.discards_left == 2
    deal = act(deal_of(talon=TALON), "bid einer", "pass", "pass")
    assert deal.legal_texts() == [f"take {i}" for i in range(1, 7)]
    act(deal, "take 4")
    assert deal.taken == TAROCK.mask("KaK") and deal.discards_left == 1
    deal = act(deal_of(talon=TALON), "bid farbenzweier", "pass", "pass")
    assert deal.legal_texts() == ["take 1", "take 2", "take 3"]
    deal = act(deal_of(talon=TALON), "bid farbeneiner", "pass", "pass")
    assert len(deal.legal_texts()) == 6


def test_zweier_frei_takes_any_two_cards_one_after_the_other() -> None:
    # TZ-A4's alternative, a room option: any 2 cards instead of one of the pairs
    for game in ("zweier", "farbenzweier"):
        deal = act(deal_of(talon=TALON, options={"zweier_frei": True}), f"bid {game}",
                   "pass", "pass")  # fmt: skip
        assert deal.phase == "talon" and deal.view(1)["talon_pick"] is True
        assert deal.legal_texts() == [f"take {i}" for i in range(1, 7)]
        act(deal, "take 2")  # HD
        assert deal.phase == "talon" and deal.to_move == 0
        assert deal.legal_texts() == ["take 1", "take 3", "take 4", "take 5", "take 6"]
        assert refused(deal, "take 2") == "bad_talon_choice"  # taken already
        assert deal.view(2)["talon_taken"] == ["HD"]
        act(deal, "take 6")  # KaC
        assert deal.phase == "discard" and deal.discards_left == 2
        assert deal.taken == TAROCK.mask("HD KaC")
        assert deal.rest == TAROCK.mask("HK HC KaK KaD")
    # without the option, and in the other games with it, the choices stay as they were
    deal = act(deal_of(talon=TALON), "bid zweier", "pass", "pass")
    assert deal.legal_texts() == ["take 1", "take 2", "take 3"]
    assert deal.view(0)["talon_pick"] is False
    deal = act(deal_of(talon=TALON, options={"zweier_frei": True}), "bid dreier", "pass", "pass")
    assert deal.legal_texts() == ["take 1", "take 2"]


def test_a_talon_choice_beyond_the_game_is_refused() -> None:
    deal = act(deal_of(talon=TALON), "bid dreier", "pass", "pass")
    assert refused(deal, "take 3") == "bad_talon_choice"
    with pytest.raises(MalformedError) as caught:  # no such part of any talon
        deal.act(None, "take 7")
    assert caught.value.code == "unknown_talon_part"  # a code is one word


def test_sechserdreier_takes_the_whole_talon_unseen_by_the_others() -> None:
    deal = act(deal_of(talon=TALON), "vorhand", "pass", "pass", "bid sechserdreier")
    assert deal.phase == "discard" and deal.discards_left == 6
    assert deal.hands[0].bit_count() == 22
    talon = TAROCK.mask(TALON)
    assert deal.hidden_from(1) & talon == talon and deal.hidden_from(None) & talon == talon
    assert deal.hidden_from(0) & talon == 0
    assert deal.view(1)["talon"] is None and deal.view(0)["talon"] is None


def test_solo_and_negative_games_have_no_talon() -> None:
    deal = act(deal_of(talon=TALON), "bid solodreier", "pass", "pass")
    assert deal.phase == "announce" and deal.hands[0].bit_count() == 16
    talon = TAROCK.mask(TALON)
    assert all(deal.hidden_from(s) & talon == talon for s in (0, 1, 2, None))
    deal = act(deal_of(talon=TALON), "bid bettler", "pass", "pass")
    assert deal.phase == "kontra" and deal.hands[0].bit_count() == 16


def test_positive_discards_honours_never_tarock_only_when_forced() -> None:
    deal = act(
        deal_of(v="T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 P7 P8", talon=TALON),
        "bid dreier", "pass", "pass", "take 1",
    )  # fmt: skip
    hand = TAROCK.codes(deal.hands[0])
    assert "HK" in hand
    assert refused(deal, "discard HK") == "discard_honour"
    assert refused(deal, "discard T5") == "discard_tarock"
    assert refused(deal, "discard KaD") == "not_held"
    legal = [t.split()[1] for t in deal.legal_texts()]
    assert "HK" not in legal and "T5" not in legal and "P7" in legal
    # the face-down discard shows to the declarer only
    act(deal, "discard P7")
    assert deal.action_seen_by(len(deal.history) - 1, 1) == "discard"
    assert deal.action_seen_by(len(deal.history) - 1, 0) == "discard P7"
    p7 = TAROCK.mask("P7")
    assert deal.hidden_from(1) & p7 and not deal.hidden_from(0) & p7
    # a talon card the declarer took and laid away again stays known to everybody
    act(deal, "discard HD")
    assert not deal.hidden_from(1) & TAROCK.mask("HD")


def test_a_forced_tarock_discard_lies_face_up() -> None:
    # Vorhand: fifteen tarocks and the Sküs; the upper half brings HK HD HC
    v = "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 SK"
    deal = act(deal_of(v=v, talon=TALON), "bid dreier", "pass", "pass", "take 1")
    legal = [t.split()[1] for t in deal.legal_texts()]
    assert "HD" in legal and "T5" in legal and "T1" not in legal and "SK" not in legal
    act(deal, "discard T5")
    assert deal.view(2)["open_discards"] == ["T5"]
    assert deal.action_seen_by(len(deal.history) - 1, 2) == "discard T5"
    assert not deal.hidden_from(2) & TAROCK.mask("T5")


def test_farbenspiel_discards_tarock_face_down_suit_cards_only_when_forced() -> None:
    deal = act(deal_of(v="T2 T3 T4 P7 P8", talon=TALON), "bid farbdreier", "pass", "pass", "take 2")
    assert refused(deal, "discard P7") == "discard_suit"
    assert refused(deal, "discard KaK") == "discard_honour"
    act(deal, "discard T3")
    assert deal.view(1)["open_discards"] == []
    assert deal.action_seen_by(len(deal.history) - 1, 1) == "discard"


def test_announcements_then_ich_liege() -> None:
    deal = act(
        deal_of(v="T1 T2 P7 P8", talon=TALON),
        "bid dreier", "pass", "pass", "take 1", "discard P7", "discard P8", "discard HD",
    )  # fmt: skip
    assert deal.phase == "announce" and deal.to_move == 0
    legal = deal.legal_texts()
    assert "announce pagat" in legal and "announce uhu" in legal
    assert "announce kakadu" not in legal  # Vögel muss man selbst im Blatt haben
    assert "announce doppelsack" not in legal and "announce mondfang" not in legal
    assert refused(deal, "announce kakadu") == "bird_not_held"
    assert refused(deal, "announce doppelsack") == "sack_first"
    act(deal, "announce pagat", "announce sack")
    assert "announce doppelsack" in deal.legal_texts()
    assert refused(deal, "announce pagat") == "premium_twice"
    act(deal, "liege")
    assert deal.phase == "kontra" and deal.to_move == 1
    assert deal.announced == {"pagat": 0, "sack": 0}


def test_farbenspiele_allow_only_koenige_saecke_valat() -> None:
    deal = act(deal_of(v="T1 T2"), "bid farbensolo", "pass", "pass")
    legal = deal.legal_texts()
    assert legal == ["announce koenige", "announce sack", "announce valat", "liege"]
    assert refused(deal, "announce pagat") == "premium_not_allowed"


def test_kontra_rekontra_subkontra_on_the_game_for_both_opponents() -> None:
    deal = act(deal_of(), "bid solodreier", "pass", "pass", "liege")
    assert deal.to_move == 1
    assert {"gut", "kontra game", "announce trull"} <= set(deal.legal_texts())
    act(deal, "kontra game")
    assert deal.to_move == 2 and "kontra game" not in deal.legal_texts()
    act(deal, "gut")
    assert "rekontra game" in deal.legal_texts()
    act(deal, "rekontra game", "subkontra game")
    assert deal.doubling is not None and deal.doubling.factor("game") == 8
    assert "rekontra game" not in deal.legal_texts()
    act(deal, "gut", "gut")
    assert deal.phase == "kontra"
    act(deal, "gut")
    assert deal.phase == "play" and deal.to_move == 0


def test_phase_three_premiums_doubled_separately_and_announced_by_opponents() -> None:
    deal = act(deal_of(m="T1"), "bid solodreier", "pass", "pass", "announce trull", "liege")
    act(deal, "announce pagat")  # Mittelhand holds the Pagat
    assert deal.announced == {"trull": 0, "pagat": 1}
    act(deal, "kontra trull", "kontra pagat")
    assert deal.doubling is not None
    assert deal.doubling.factor("trull") == 2 and deal.doubling.factor("pagat") == 2
    assert deal.doubling.factor("game") == 1
    assert deal.to_move == 1 and "rekontra pagat" in deal.legal_texts()
    assert "rekontra trull" not in deal.legal_texts()
    act(deal, "rekontra pagat", "gut")
    assert deal.to_move == 0
    assert {"rekontra trull", "subkontra pagat"} <= set(deal.legal_texts())


def test_a_declarer_cannot_kontra_his_own_game() -> None:
    deal = act(deal_of(), "bid solodreier", "pass", "pass", "liege", "gut", "gut")
    assert deal.to_move == 0 and "kontra game" not in deal.legal_texts()
    assert refused(deal, "kontra game") == "own_side_doubles"


def test_negative_games_each_opponent_doubles_for_himself() -> None:
    deal = act(deal_of(), "bid bettler", "pass", "pass")
    assert deal.to_move == 1 and deal.legal_texts() == ["gut", "kontra game@1"]
    assert refused(deal, "kontra game@2") == "doubles_for_himself"
    act(deal, "kontra game", "gut", "rekontra game@1", "gut", "gut", "gut")
    assert deal.phase == "play" and deal.to_move == 0  # the declarer leads
    assert deal.doubling is not None
    assert deal.doubling.factor("game", 1) == 4 and deal.doubling.factor("game", 2) == 1


def test_skoty_trophy_has_kontra_only() -> None:
    deal = act(deal_of(options={"skoty": True}), "bid solodreier", "pass", "pass", "liege")
    act(deal, "kontra game", "gut")
    assert deal.to_move == 0
    assert [t for t in deal.legal_texts() if "kontra" in t] == []
    assert refused(deal, "rekontra game") == "not_played_here"  # said so, not unreadable


def test_trischaken_has_no_phase_two_or_three() -> None:
    deal = act(deal_of(), "vorhand", "pass", "pass", "bid trischaken")
    assert deal.phase == "play" and deal.doubling is None


def test_kontra_calls_are_refused_with_the_rule_that_forbids_them() -> None:
    deal = act(deal_of(), "bid solodreier", "pass", "pass", "liege")
    assert refused(deal, "rekontra game") == "wrong_doubling_word"
    assert refused(deal, "kontra pagat") == "no_such_item"
    act(deal, "kontra game")
    assert refused(deal, "rekontra game") == "other_side_redoubles"
    act(deal, "gut", "rekontra game", "subkontra game", "gut", "gut")
    assert refused(deal, "subkontra game") == "chain_capped"
