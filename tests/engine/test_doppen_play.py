"""Doppen's announcements and doublings, play with the bird rules, the table signal, the
early end of a lost announced Valat, and worked scoring cases (DP-A10 … DP-A16)."""

from __future__ import annotations

import pytest

from server.engine.cards import TAROCK
from server.engine.errors import IllegalActionError
from server.engine.games.doppen import DoppenDeal
from tests.engine.test_doppen_deals import D1, D3, complete, new_deal, play, play_first_legal

# D4: Anne (Vorhand) the ten highest trumps, T2, T1 and the Herz pictures; Bert T3–T7, the
# Herz pips and seven Karo; Clara T8–T12 and the rest but for the talon (Kreuz pips).
D4 = complete(
    "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T2 T1 HK HD HC HB",
    "T3 T4 T5 T6 T7 HA H2 H3 H4 KaK KaD KaC KaB KaA Ka2 Ka3",
    "KrC KrB Kr10 Kr9 Kr8 Kr7",
)
ANNE_D4 = [
    "SK",
    "T21",
    "T20",
    "T19",
    "T18",
    "T17",
    "T16",
    "T15",
    "T14",
    "T13",
    "HK",
    "HD",
    "HC",
    "HB",
    "T2",
    "T1",
]


def refused(deal: DoppenDeal, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalActionError) as info:
        deal.act(deal.to_move if seat is None else seat, text)
    return info.value.code


def anne_dreier() -> DoppenDeal:
    """D1: Anne plays a Dreier with the upper half and lays it away again."""
    return play(new_deal(), "bid dreier", "pass", "pass", "take upper",
                "discard KrC", "discard KrB", "discard Kr10")  # fmt: skip


def premiums(deal: DoppenDeal) -> dict[str, tuple[int, bool, bool, int]]:
    outcome = deal.outcome()
    assert outcome is not None
    return {
        p["code"]: (p["side"], p["announced"], p["won"], p["points"]) for p in outcome["premiums"]
    }


# --------------------------------------------------------------------------- announcements


def test_announcements_start_with_the_declarer_birds_by_their_holder() -> None:
    deal = anne_dreier()
    assert deal.phase == "announce" and deal.to_move == 0
    assert deal.legal_texts() == ["announce pagat", "announce uhu", "announce valat", "gut"]
    assert refused(deal, "kontra game") == "own_side_doubles"
    play(deal, "announce pagat")
    assert deal.to_move == 1
    assert deal.legal_texts() == ["gut", "kontra game", "kontra pagat"]
    assert refused(deal, "announce pagat") == "announced_twice"
    assert refused(deal, "announce uhu") == "no_uhu"
    assert refused(deal, "announce valat") == "valat_declarer_only"
    assert refused(deal, "re game") == "wrong_doubling_word"


def test_kontra_re_kontra_per_item_until_a_full_round_of_gut() -> None:
    deal = play(anne_dreier(), "announce pagat", "kontra pagat")
    assert deal.legal_texts() == ["gut", "kontra game"]  # Clara: the Re is Anne's
    play(deal, "gut")
    assert deal.legal_texts() == ["announce uhu", "announce valat", "gut", "re pagat"]
    play(deal, "re pagat", "kontra pagat", "kontra game", "re game", "gut")
    assert refused(deal, "re pagat") == "other_side_redoubles"  # Clara: the Pagat is Anne's
    play(deal, "gut")
    assert deal.phase == "announce" and deal.to_move == 0
    play(deal, "gut")
    assert deal.phase == "play" and deal.to_move == 0  # Vorhand leads trick 1
    assert deal.chain_factors() == {"game": 4, "valat": 1, "pagat": 8, "uhu": 1}
    view = deal.view(None)
    assert view["announced"] == {"pagat": 0}
    assert [c[1] for c in view["doubling"]["calls"]] == [
        "announce pagat", "kontra pagat", "gut", "re pagat", "kontra pagat", "kontra game",
        "re game", "gut", "gut", "gut",
    ]  # fmt: skip


def test_an_opponent_announces_his_bird_and_the_declarer_doubles_it() -> None:
    deal = play(new_deal(), "pass", "pass", "bid dreier", "take lower",
                "discard Kr9", "discard Kr8", "discard Kr7")  # fmt: skip
    # Clara declares and speaks first; Anne (an opponent) holds T1 and T2
    assert deal.to_move == 2 and deal.legal_texts() == ["announce valat", "gut"]
    play(deal, "gut", "announce uhu")
    assert deal.legal_texts() == ["gut", "kontra game"]  # Bert: the Uhu is his side's
    play(deal, "gut", "kontra uhu", "re uhu", "gut", "gut", "gut")
    assert deal.phase == "play" and deal.chain_factors()["uhu"] == 4
    assert deal.announced == {"uhu": 0}
    assert deal.to_move == 0  # Vorhand leads although Clara declared


# --------------------------------------------------------------------------- the birds


def test_an_announced_bird_waits_for_its_trick_and_the_uhu_must_go_to_the_fifteenth() -> None:
    deal = play(new_deal(D4), "bid solo", "pass", "pass",
                "announce pagat", "gut", "gut", "announce uhu", "gut", "gut",
                "announce valat", "gut", "gut", "gut")  # fmt: skip
    assert deal.phase == "play"
    assert refused(deal, "play T1") == "bird_announced"
    assert refused(deal, "play T2") == "bird_announced"
    for number, card in enumerate(ANNE_D4):
        assert deal.to_move == 0 and deal.play is not None and deal.play.number == number
        if number == 14:
            assert deal.legal_texts() == ["play T2"]
            assert refused(deal, "play T1") == "bird_announced"
        play(deal, f"play {card}")
        while not deal.finished and deal.to_move != 0:
            deal.apply(deal.legal_moves()[0])
    assert deal.finished
    outcome = deal.outcome()
    assert outcome is not None
    # Solo: Spielfaktor = Prämienfaktor = 4. Valat 100, Pagat 20, Uhu 20, Trull 10.
    assert premiums(deal) == {
        "pagat": (0, True, True, 80),
        "uhu": (0, True, True, 80),
        "trull": (0, False, True, 40),
        "valat": (0, True, True, 400),
    }
    assert outcome["card_points"] is None and outcome["game_points"] == 0
    assert outcome["per_opponent"] == 600
    assert outcome["settlement"] == [1200, -600, -600]
    assert outcome["kasse"] == {"event": "pagat_won", "seat": 0, "factor": 1}


def test_an_announced_bird_forced_out_early_is_lost_doubled_by_its_kontra() -> None:
    deal = play(anne_dreier(), "announce pagat", "kontra pagat", "gut",
                "announce uhu", "gut", "gut", "gut")  # fmt: skip
    play_first_legal(deal)
    outcome = deal.outcome()
    assert outcome is not None
    # both birds left Anne's hand before their tricks: forced, so allowed, and lost
    assert premiums(deal) == {"pagat": (0, True, False, 40), "uhu": (0, True, False, 20)}
    points = outcome["card_points"]
    assert points == {"declarer": 40, "opponents": 30}
    assert outcome["game_points"] == 15  # (10 + 40 − 35) × 1
    assert outcome["per_opponent"] == 15 - 40 - 20
    assert outcome["kasse"] == {"event": "pagat_lost", "seat": 0, "factor": 2}


# --------------------------------------------------------------------------- Valat


def test_a_lost_announced_valat_ends_the_play_at_the_first_opponents_trick() -> None:
    deal = play(anne_dreier(), "announce valat", "kontra valat", "gut", "gut", "gut")
    play(deal, "play T3", "play T11", "play SK")
    assert deal.finished and deal.ended_early
    outcome = deal.outcome()
    assert outcome is not None
    assert premiums(deal) == {"valat": (0, True, False, 200)}  # 100 × Spielfaktor 1 × Kontra
    assert outcome["card_points"] is None and outcome["game_points"] == 0
    assert outcome["settlement"] == [-400, 200, 200]
    assert deal.invariant_errors() == []


def test_with_an_announced_bird_open_the_lost_valat_is_played_on() -> None:
    deal = play(anne_dreier(), "announce valat", "gut", "gut", "announce pagat",
                "gut", "gut", "gut")  # fmt: skip
    play(deal, "play T3", "play T11", "play SK")
    assert not deal.finished and deal.to_move == 2


def test_a_made_valat_replaces_the_game_silent_50_announced_100() -> None:
    def solo(*announce: str) -> DoppenDeal:
        deal = play(new_deal(D3), "bid solo", "pass", "pass", *announce)
        while not deal.finished:  # Anne the highest trump, the others their first card
            legal = deal.legal_moves()
            deal.apply(max(legal, key=lambda m: (TAROCK.cards[m].suit == "T", m)))
            if deal.to_move == 0 or deal.finished:
                continue
            while not deal.finished and deal.to_move != 0:
                deal.apply(deal.legal_moves()[0])
        return deal

    # Bert holds the four Könige: 10 × Prämienfaktor 4 to the opponents
    silent = solo("gut", "gut", "gut")
    assert premiums(silent) == {"koenige": (1, False, True, 40), "valat": (0, False, True, 200)}
    assert silent.outcome()["per_opponent"] == 200 - 40  # type: ignore[index]
    doubled = solo("gut", "kontra game", "gut", "re game", "gut", "gut", "gut")
    assert premiums(doubled)["valat"] == (0, False, True, 800)  # the game's Kontra and Re
    announced = solo("announce valat", "kontra valat", "gut", "gut", "gut")
    assert premiums(announced)["valat"] == (0, True, True, 800)
    assert announced.outcome()["settlement"] == [1520, -760, -760]  # type: ignore[index]


# --------------------------------------------------------------------------- the table signal


def test_the_second_opponent_covers_his_winning_card_on_the_declarers_lead() -> None:
    deal = play(anne_dreier(), "gut", "gut", "gut", "play T3")
    assert deal.to_move == 1
    assert deal.legal_texts(2) == ["cover T21", "cover SK"]
    assert deal.legal_texts(0) == []
    assert refused(deal, "cover T12", seat=1) == "no_cover"
    assert refused(deal, "cover P7", seat=2) == "no_cover"
    deal.act(2, "cover SK")
    index = len(deal.history) - 1
    assert deal.action_seen_by(index, 1) == "cover"
    assert deal.action_seen_by(index, 0) == "cover"
    assert deal.action_seen_by(index, 2) == "cover SK"
    assert deal.view(1)["covered_by"] == 2 and deal.view(1)["covered"] is None
    assert deal.view(2)["covered"] == "SK"
    assert deal.hidden_from(1) >> TAROCK.parse("SK") & 1
    assert refused(deal, "cover T21", seat=2) == "no_cover"
    assert refused(deal, "play T21", seat=2) == "covered_card"  # the Sküs lies for him
    assert refused(deal, "play T11", seat=0) == "not_your_turn"
    play(deal, "play T11")  # Bert plays; the covered Sküs follows by itself
    assert deal.tricks[0] == (0, tuple(TAROCK.parse(c) for c in ("T3", "T11", "SK")), 2)
    assert deal.action_seen_by(index, 1) == "cover SK"
    assert deal.to_move == 2 and deal.view(1)["covered_by"] is None
    assert deal.legal_texts(0) == [] and deal.legal_texts(1) == []  # Clara leads: no signal


def test_no_signal_without_the_option_or_on_an_opponents_lead() -> None:
    deal = play(new_deal(D1, {"table_signal": False}), "bid dreier", "pass", "pass",
                "take upper", "discard KrC", "discard KrB", "discard Kr10",
                "gut", "gut", "gut", "play T3")  # fmt: skip
    assert deal.legal_texts(2) == []
    deal = play(new_deal(), "pass", "bid dreier", "pass", "take upper", "discard KaA",
                "discard Ka2", "discard KaB", "gut", "gut", "gut", "play T3")  # fmt: skip
    # Bert declares; Anne (an opponent) led: nobody may cover
    assert deal.legal_texts(0) == [] and deal.legal_texts(2) == []


# --------------------------------------------------------------------------- held premiums

# D5: Anne holds SK, T21 and three Könige; the talon's middle pair is T1 and KrK.
D5 = complete(
    "SK T21 HK KaK PK T2 T3 T4 T5 HD HC HB PD PC PB P10",
    "T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 KaD KaC KaB KaA Ka2",
    "KrC KrB T1 KrK Kr10 Kr9",
)


def test_trull_and_koenige_count_as_held_after_the_exchange() -> None:
    deal = play(new_deal(D5), "bid zweier", "pass", "pass", "take middle",
                "discard HB", "discard PB", "gut", "gut", "gut")  # fmt: skip
    assert deal.start_hands[0] & TAROCK.mask("SK T21 T1 HK KaK PK KrK") == TAROCK.mask(
        "SK T21 T1 HK KaK PK KrK"
    )
    play_first_legal(deal)
    got = premiums(deal)
    # Zweier: Prämienfaktor 2; claimed after the deal, silent only
    assert got["trull"] == (0, False, True, 20) and got["koenige"] == (0, False, True, 20)


D6 = complete(
    "SK T21 T1 HK KaK PK KrK HD HC HB PD PC PB P10 P9 P8",
    "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 KaD KaC KaB KaA",
    "Kr7 Kr8 Kr9 Kr10 KrB KrC",
)


def test_an_opponents_trull_and_koenige_cost_the_declarer_against_each_opponent() -> None:
    deal = play(new_deal(D6), "pass", "bid dreier", "pass", "take upper",
                "discard Kr7", "discard Kr8", "discard Kr9", "gut", "gut", "gut")  # fmt: skip
    play_first_legal(deal)
    got = premiums(deal)
    assert got["trull"] == (1, False, True, 10) and got["koenige"] == (1, False, True, 10)
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome["per_opponent"] == outcome["game_points"] - 20 + sum(
        (p if (side == 0) == won else -p)
        for code, (side, _a, won, p) in got.items()
        if code not in ("trull", "koenige")
    )
    assert outcome["settlement"][1] == 2 * outcome["per_opponent"]


def test_an_opponents_valat_takes_the_declarers_discards_too() -> None:
    # D3: Anne holds the sixteen highest trumps; Bert (four Könige) plays a Dreier
    deal = play(new_deal(D3), "pass", "bid dreier", "pass", "take upper",
                "discard Kr7", "discard Kr8", "discard Kr9", "gut", "gut", "gut")  # fmt: skip
    while not deal.finished:
        legal = deal.legal_moves()
        if deal.to_move == 0:
            deal.apply(max(legal, key=lambda m: (TAROCK.cards[m].suit == "T", m)))
        else:
            deal.apply(legal[0])
    assert deal.play is not None and deal.play.tricks_won == [16, 0, 0]
    mine, theirs = deal.piles()
    assert mine == 0 and theirs == TAROCK.full  # DP-A6: no trick, no discards
    assert premiums(deal) == {"koenige": (0, False, True, 10), "valat": (1, False, True, 50)}
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome["card_points"] is None and outcome["per_opponent"] == -40
    assert deal.invariant_errors() == []
