"""Tarock zu dritt, the play: legal cards per kind of game (TZ-A18 … TZ-A20), the
Kaiserstich (TZ-A17), the Pagat as the last tarock (TZ-A19), announced birds (TZ-A13,
TZ-A14), ouvert views (TZ-A21), the Trischaken talon (TZ-A23) and the early end."""

from __future__ import annotations

from server.engine.cards import TAROCK
from server.engine.games.tarock_zu_dritt import TarockZuDrittDeal
from tests.engine.test_tarock_zu_dritt_deals import act, deal_hands, plays, refused

KREUZ_TALON = "KrC KrB Kr10 Kr9 Kr8 Kr7"
B1 = dict(
    v="SK T21 T20 T19 T18 HK HD HC HB KaK KaD KaC PK PD KrK KrD",
    m="T1 T2 T3 T4 T5 T6 T7 T8 HA H2 H3 H4 KaB KaA Ka2 Ka3",
    h="T9 T10 T11 T12 T13 T14 T15 T16 T17 Ka4 PC PB P10 P9 P8 P7",
    talon=KREUZ_TALON,
)
B2 = dict(
    v="T1 T5 T15 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA",
    m="T10 T2 T3 T4 T6 T7 T8 T9 Ka2 Ka3 Ka4 PK PD PC PB P10",
    h="SK T21 T20 T19 T18 T17 T16 T14 T13 T12 T11 P9 P8 P7 KrK KrD",
    talon=KREUZ_TALON,
)
B3 = dict(
    v="SK T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6",
    m="T21 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA Ka2 Ka3",
    h="T1 T2 T3 T4 T5 Ka4 PK PD PC PB P10 P9 P8 P7 KrK KrD",
    talon=KREUZ_TALON,
)
# B3 with Vorhand's Sküs and Hinterhand's Pagat swapped
B3P = dict(B3, v=B3["v"].replace("SK", "T1"), h=B3["h"].replace("T1", "SK"))
B4 = dict(
    v="SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7",
    m="T1 T2 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA Ka2",
    h="T3 T4 T5 T6 Ka3 Ka4 PK PD PC PB P10 P9 P8 P7 KrK KrD",
    talon=KREUZ_TALON,
)
GUT3 = ("gut", "gut", "gut")


def game(hands: dict[str, str], *calls: str, **options: object) -> TarockZuDrittDeal:
    return act(deal_hands(hands, options or None), *calls)


def test_positive_games_farbzwang_tarockzwang_no_stichzwang() -> None:
    deal = game(B1, "bid solodreier", "pass", "pass", "liege", *GUT3)
    assert deal.phase == "play" and deal.to_move == 0
    act(deal, "play HK")
    assert plays(deal) == ["HA", "H2", "H3", "H4"]
    assert refused(deal, "play KaB") == "farbzwang"
    act(deal, "play H4")
    # void in Herz: any tarock (no need to beat), no suit card
    assert plays(deal) == [f"T{n}" for n in range(9, 18)]
    assert refused(deal, "play P7") == "tarockzwang"
    act(deal, "play T9")
    assert deal.tricks[-1][2] == 2
    deal = game(B1, "bid solodreier", "pass", "pass", "liege", *GUT3, "play T18")
    # tarock led: every tarock, the Pagat too (no Pagat rule in positive games)
    assert plays(deal) == [f"T{n}" for n in range(1, 9)]


def test_negative_games_stichzwang() -> None:
    deal = game(B2, "vorhand", "bid bettler", "pass", "pass", *GUT3)
    assert deal.contract == "bettler" and deal.to_move == 1  # the declarer leads
    act(deal, "play T10")
    assert plays(deal) == ["T11", "T12", "T13", "T14", "T16", "T17", "T18", "T19", "T20", "T21",
                           "SK"]  # fmt: skip
    act(deal, "play T11")
    assert plays(deal) == ["T15"]
    assert refused(deal, "play T5") == "stichzwang"
    assert refused(deal, "play T1") == "stichzwang"


def test_the_pagat_is_the_last_tarock_in_negative_games() -> None:
    deal = game(B2, "vorhand", "bid bettler", "pass", "pass", *GUT3, "play T10", "play SK")
    # nothing beats the Sküs: any tarock, but not the Pagat while another is left
    assert plays(deal) == ["T5", "T15"]
    assert refused(deal, "play T1") == "pagat_last"


def test_negative_kaiserstich_forces_the_pagat_and_wins() -> None:
    deal = game(B3, "bid bettler", "pass", "pass", *GUT3, "play SK")
    assert plays(deal) == ["T21"]
    act(deal, "play T21")
    assert plays(deal) == ["T1"]
    assert refused(deal, "play T3") == "stichzwang"
    act(deal, "play T1")
    assert deal.tricks[-1][2] == 2 and deal.phase == "play"


# Mond (Vorhand) and Pagat (Mittelhand, his only tarock) come before Hinterhand's Sküs
KAISER_SKUS = dict(
    v="T21 T20 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA Ka2",
    m="T1 Ka3 Ka4 PK PD PC PB P10 P9 P8 P7 KrK KrD KrC KrB Kr10",
    h="SK " + " ".join(f"T{n}" for n in range(2, 17)),
    talon="Kr9 Kr8 Kr7 T19 T18 T17",
)


def test_stichzwang_does_not_force_the_skus_into_a_kaiserstich_it_cannot_win() -> None:
    # TZ-A18: Stichzwang asks for a card that "would become the current winner"; beside
    # Mond and Pagat the Sküs completes the Kaiserstich and the Pagat wins (TZ-A17), so
    # no card of Hinterhand can take the trick: any tarock (Tarockzwang) is legal
    for calls in (("bid bettler", "pass", "pass", *GUT3),
                  ("vorhand", "pass", "pass", "bid trischaken")):  # fmt: skip
        deal = game(KAISER_SKUS, *calls, "play T21", "play T1")
        assert plays(deal) == [f"T{n}" for n in range(2, 17)] + ["SK"]
        act(deal, "play SK")
        assert deal.tricks[-1][2] == 1  # the Pagat's Kaiserstich
    deal = game(KAISER_SKUS, "bid bettler", "pass", "pass", *GUT3, "play T21", "play T1")
    act(deal, "play T16")
    assert deal.tricks[-1][2] == 0  # the Mond keeps it


def test_positive_kaiserstich_in_any_order() -> None:
    deal = game(B3, "bid solodreier", "pass", "pass", "liege", *GUT3, "play SK", "play T21")
    assert plays(deal) == ["T1", "T2", "T3", "T4", "T5"]
    act(deal, "play T1")
    assert deal.tricks[-1][2] == 2
    deal = game(B3P, "bid solodreier", "pass", "pass", "liege", *GUT3)
    act(deal, "play T1", "play T21", "play SK")
    assert deal.tricks[-1][2] == 0  # Pagat, Mond, Sküs: the Pagat still wins


def test_farbenspiel_tarock_has_no_trick_power_and_no_tarock_lead_with_suits() -> None:
    deal = game(B1, "bid farbensolo", "pass", "pass", "liege", *GUT3)
    assert plays(deal) == ["HK", "HD", "HC", "HB", "KaK", "KaD", "KaC", "PK", "PD", "KrK", "KrD"]
    assert refused(deal, "play SK") == "farbausspielzwang"
    act(deal, "play HB", "play H4")
    assert plays(deal) == [f"T{n}" for n in range(9, 18)]  # Tarockzwang stays
    act(deal, "play T17")
    assert deal.tricks[-1][2] == 0  # the Herz Bube takes it


def test_farbenspiel_kaiserstich_when_tarock_was_led() -> None:
    deal = game(B3P, "bid farbensolo", "pass", "pass", "liege", *GUT3)
    act(deal, "play T1", "play T21", "play SK")
    assert deal.tricks[-1][2] == 0


def test_announced_birds_are_kept_and_forced_out_highest_first() -> None:
    deal = game(B4, "vorhand", "bid solodreier", "pass", "pass", "announce pagat",
                "announce uhu", "liege", *GUT3)  # fmt: skip
    assert deal.phase == "play" and deal.to_move == 0
    act(deal, "play T7")
    assert plays(deal) == ["T2"]
    assert refused(deal, "play T1") == "bird_kept"


def test_ouvert_every_hand_lies_open_after_the_first_trick() -> None:
    deal = game(B1, "bid bettel_ouvert", "pass", "pass", *GUT3, "play HB", "play HA")
    talon = TAROCK.mask(KREUZ_TALON)
    assert deal.view(1)["open_hands"] == {}
    assert deal.hidden_from(1) & deal.hands[0]
    act(deal, "play T9")
    assert deal.phase == "play" and deal.tricks[-1][2] == 2
    view = deal.view(1)
    assert set(view["open_hands"]) == {"0", "1", "2"}
    assert view["open_hands"]["0"] == TAROCK.codes(deal.hands[0])
    for seat in (0, 1, 2, None):
        assert deal.hidden_from(seat) == talon


def test_semi_ouvert_only_the_declarers_hand_lies_open() -> None:
    deal = game(B1, "bid bettel_semi", "pass", "pass", *GUT3, "play HB", "play HA", "play T9")
    assert set(deal.view(2)["open_hands"]) == {"0"}
    assert not deal.hidden_from(1) & deal.hands[0]
    assert deal.hidden_from(1) & deal.hands[2] == deal.hands[2]


def test_a_negative_game_ends_as_soon_as_it_is_lost() -> None:
    deal = game(B1, "bid bettler", "pass", "pass", *GUT3, "play SK", "play T8", "play T17")
    assert deal.finished and len(deal.tricks) == 1
    outcome = deal.outcome()
    assert outcome is not None and outcome["declarer_won"] is False


def test_trischaken_gives_the_talon_to_the_first_six_tricks() -> None:
    deal = game(B1, "vorhand", "pass", "pass", "bid trischaken")
    assert deal.to_move == 0
    act(deal, "play HB", "play HA", "play T9")
    assert deal.won[2] & TAROCK.mask("KrC")
    assert deal.hidden_from(0) & TAROCK.mask("KrC")
    # Stichzwang in Trischaken: Hinterhand must beat T9 ... and the Pagat is the last tarock
    act(deal, "play T10")
    assert "SK" in plays(deal) and "T18" in plays(deal)


def test_trischaken_without_stichzwang_as_an_option() -> None:
    deal = game(B2, "vorhand", "pass", "pass", "bid trischaken", trischaken_stichzwang=False)
    act(deal, "play T5")
    assert plays(deal) == ["T2", "T3", "T4", "T6", "T7", "T8", "T9", "T10"]
    deal = game(B2, "vorhand", "pass", "pass", "bid trischaken")
    assert "T1" not in plays(deal)  # the Pagat is the last tarock in Trischaken too
    act(deal, "play T5")
    assert plays(deal) == ["T6", "T7", "T8", "T9", "T10"]
