"""The engine core: packs and notation, the shared trick core, counting."""

from __future__ import annotations

import pytest

from server.engine.bits import cards_of, mask_of, nth_card
from server.engine.cards import DOPPELKOPF, GERMAN, TAROCK
from server.engine.counting import PointCounter, format_thirds
from server.engine.errors import MalformedError
from server.engine.tricks import TrickRules, tarock_rules


def test_packs_have_the_right_cards_and_points() -> None:
    assert (len(TAROCK), len(DOPPELKOPF), len(GERMAN)) == (54, 48, 36)
    assert sum(TAROCK.points) == 106  # 70 after counting in threes
    assert sum(DOPPELKOPF.points) == 240
    assert sum(GERMAN.points) == 120
    assert TAROCK.codes(TAROCK.suit_mask["H"]) == ["HK", "HD", "HC", "HB", "HA", "H2", "H3", "H4"]
    assert TAROCK.codes(TAROCK.suit_mask["Kr"]) == [
        "KrK",
        "KrD",
        "KrC",
        "KrB",
        "Kr10",
        "Kr9",
        "Kr8",
        "Kr7",
    ]
    assert TAROCK.code(21) == "SK" and TAROCK.suit_mask["T"].bit_count() == 22
    assert GERMAN.codes(GERMAN.suit_mask["E"]) == [
        "EA",
        "E10",
        "EK",
        "EO",
        "EU",
        "E9",
        "E8",
        "E7",
        "E6",
    ]


def test_every_code_parses_back_to_its_card() -> None:
    for pack in (TAROCK, DOPPELKOPF, GERMAN):
        assert len({c.code for c in pack.cards}) == len(pack)
        for card in pack.cards:
            assert pack.parse(card.code) == card.index
            assert pack.parse(card.code.lower()) == card.index


def test_doppelkopf_copies_are_distinct_but_of_one_kind() -> None:
    first, second = DOPPELKOPF.parse("H10.1"), DOPPELKOPF.parse("♥10.2")
    assert first != second
    assert DOPPELKOPF.cards[first].kind == DOPPELKOPF.cards[second].kind == "H10"
    assert DOPPELKOPF.kind_mask["H10"] == (1 << first) | (1 << second)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Sküs", "SK"),
        ("gstieß", "SK"),
        ("XXI", "T21"),
        ("Pfeife", "T1"),
        ("IIII", "T4"),
        ("kak", "KaK"),
        ("KRK", "KrK"),
        (" p10 ", "P10"),
    ],
)
def test_tarock_aliases(text: str, code: str) -> None:
    assert TAROCK.code(TAROCK.parse(text)) == code


@pytest.mark.parametrize("text", ["T22", "H10", "Ka1", "", "CQ"])
def test_unknown_cards_are_malformed(text: str) -> None:
    with pytest.raises(MalformedError) as err:
        TAROCK.parse(text)
    assert err.value.code == "unknown_card"
    assert "Tarock" in err.value.message_de


def test_bits() -> None:
    mask = mask_of([0, 7, 8, 33, 53])
    assert cards_of(mask) == [0, 7, 8, 33, 53]
    assert [nth_card(mask, i) for i in range(5)] == [0, 7, 8, 33, 53]
    assert cards_of(1 << 70) == [70]  # beyond the byte tables


# ---------------------------------------------------------------- trick core

T = TAROCK.parse
TAROCK_RULES = tarock_rules(TAROCK)


def test_tarock_winner() -> None:
    assert TAROCK_RULES.winner([T("HB"), T("HK"), T("H4")]) == 1  # highest of the led suit
    assert TAROCK_RULES.winner([T("HB"), T("PK"), T("H4")]) == 0  # off-suit never wins
    assert TAROCK_RULES.winner([T("HK"), T("T1"), T("T2")]) == 2  # highest trump
    assert TAROCK_RULES.winner([T("SK"), T("T21"), T("T1")]) == 0  # no Kaiserstich here
    assert TAROCK_RULES.winner([T("Ka4"), T("KaA"), T("Ka2")]) == 1  # red pips: A > 2 > 4


def test_tarock_legal() -> None:
    hand = TAROCK.mask("HA H4 T5 T17 PK")
    lead, best = T("HK"), T("HK")
    assert TAROCK.codes(TAROCK_RULES.legal(hand, lead, best)) == ["HA", "H4"]  # Farbzwang
    assert TAROCK.codes(TAROCK_RULES.legal(hand, T("KrK"), T("KrK"))) == ["T5", "T17"]
    assert TAROCK.codes(TAROCK_RULES.legal(TAROCK.mask("PK Kr7"), T("KaK"), T("KaK"))) == [
        "PK",
        "Kr7",
    ]  # void and no trumps: anything
    assert TAROCK_RULES.legal(hand, -1, -1) == hand


def test_stichzwang_forces_a_winning_card_if_there_is_one() -> None:
    rules = tarock_rules(TAROCK, stichzwang=True)
    hand = TAROCK.mask("T3 T9 T12 HK")
    # T10 is winning a trump trick: T12 beats it, so only T12 is allowed
    assert TAROCK.codes(rules.legal(hand, T("T2"), T("T10"))) == ["T12"]
    # nothing beats the Sküs: every trump stays allowed
    assert TAROCK.codes(rules.legal(hand, T("T2"), T("SK"))) == ["T3", "T9", "T12"]
    # Herz led and trumped: following suit cannot win, any Herz is fine
    assert TAROCK.codes(rules.legal(TAROCK.mask("HK H4 T3"), T("HD"), T("T5"))) == ["HK", "H4"]


def doppelkopf_normal(later_equal_wins: int) -> TrickRules:
    """A Doppelkopf-shaped contract: Dullen, queens, jacks, Karo as trumps; no trump duty."""
    k = DOPPELKOPF.kind_mask
    trumps = [
        k["H10"],
        k["CQ"],
        k["SQ"],
        k["HQ"],
        k["DQ"],
        k["CJ"],
        k["SJ"],
        k["HJ"],
        k["DJ"],
        k["DA"],
        k["D10"],
        k["DK"],
        k["D9"],
    ]
    trump_mask = sum(trumps)
    plain = {s: [k[s + r] for r in ("A", "10", "K", "9") if k[s + r] & ~trump_mask] for s in "CSH"}
    groups = [trump_mask] + [sum(v) for v in plain.values()]
    return TrickRules.build(
        48, groups, trumps, list(plain.values()), void_must=0, later_equal_wins=later_equal_wins
    )


def test_first_of_two_equal_cards_wins_and_the_second_dulle_option() -> None:
    d = DOPPELKOPF.parse
    plain = doppelkopf_normal(0)
    assert plain.winner([d("CA.1"), d("CA.2"), d("C9.1"), d("CK.1")]) == 0
    assert plain.winner([d("H10.1"), d("CQ.1"), d("H10.2"), d("D9.1")]) == 0
    second_dulle = doppelkopf_normal(DOPPELKOPF.kind_mask["H10"])
    assert second_dulle.winner([d("H10.1"), d("CQ.1"), d("H10.2"), d("D9.1")]) == 2
    assert second_dulle.winner([d("CA.1"), d("CA.2"), d("C9.1"), d("CK.1")]) == 0
    # Herz: H10 is a trump, so a Herz lead is followed only by HA HK H9
    hand = DOPPELKOPF.mask("H10.1 HK.1 SA.1")
    assert DOPPELKOPF.codes(plain.legal(hand, d("HA.1"), d("HA.1"))) == ["HK.1"]
    # void in Kreuz: no duty to trump in Doppelkopf
    assert plain.legal(hand, d("CA.1"), d("CA.1")) == hand


def test_building_rejects_incomplete_tables() -> None:
    with pytest.raises(ValueError):
        TrickRules.build(3, [0b011], [0b001], [[0b010]])
    with pytest.raises(ValueError):
        TrickRules.build(2, [0b11, 0b01], [0b01], [[0b10]])


# ---------------------------------------------------------------- counting

COUNT = PointCounter(TAROCK)


@pytest.mark.parametrize(
    ("cards", "raw", "whole", "thirds"),
    [
        ("HK HD HC", 12, 10, 30),  # one group: 12 − 2
        ("HK HD HC T5", 13, 10, 31),  # one left over: −1 whole, −⅔ exact (10⅓)
        ("HK HD HC T5 T6", 14, 11, 32),  # two left over: −1 whole, −1⅓ exact (10⅔)
        ("T2 T3 T4", 3, 1, 3),  # three blanks are one point
        ("SK", 5, 4, 13),  # a lone honour: 4 (4⅓ exact)
    ],
)
def test_tarock_counting(cards: str, raw: int, whole: int, thirds: int) -> None:
    mask = TAROCK.mask(cards)
    assert (COUNT.raw(mask), COUNT.whole(mask), COUNT.thirds(mask)) == (raw, whole, thirds)


def test_any_split_of_the_pack_counts_seventy() -> None:
    for n in range(55):
        pile = (1 << n) - 1
        rest = TAROCK.full & ~pile
        assert COUNT.thirds(pile) + COUNT.thirds(rest) == 210
        assert COUNT.whole(pile) + COUNT.whole(rest) == 70


def test_format_thirds() -> None:
    assert [format_thirds(t) for t in (105, 106, 107, 108)] == ["35", "35⅓", "35⅔", "36"]


def test_augen() -> None:
    assert PointCounter(DOPPELKOPF).raw(DOPPELKOPF.full) == 240
    assert PointCounter(GERMAN).raw(GERMAN.mask("EA E10 EK")) == 25


def test_codes_lists_any_mask_in_pack_order_and_hands_out_fresh_lists() -> None:
    import random

    from server.engine.bits import cards_of
    from server.engine.cards import DOPPELKOPF, GERMAN, LISTED_MASKS, TAROCK

    rng = random.Random(5)
    for pack in (TAROCK, DOPPELKOPF, GERMAN):
        for mask in [0, pack.full, *(rng.getrandbits(len(pack)) for _ in range(3000))]:
            listed = pack.codes(mask)
            assert listed == [pack.cards[i].code for i in cards_of(mask)]
            listed.append("changed by the caller")
            assert pack.codes(mask) == [pack.cards[i].code for i in cards_of(mask)]
        assert len(pack._listed) <= LISTED_MASKS  # the memory of listed masks is bounded
        with pytest.raises(ValueError):
            pack.codes(1 << len(pack) + 8)
