"""Packs as data (server/engine/cards.py: ``PackSpec``, ``build_pack``).

The built-in packs come from their specs; the packs the engine built card by card before
are written out here once more, and the specs must give exactly them: the same codes in
the same order (each card's bit), suits, ranks, kinds, points and aliases.
"""

from __future__ import annotations

import pytest

from server.engine.bits import cards_of
from server.engine.cards import (
    DOPPELKOPF,
    GERMAN,
    PACKS,
    TAROCK,
    Card,
    Pack,
    PackSpec,
    SuitSpec,
    build_pack,
)


def tarock_by_hand() -> Pack:
    """The 54-card pack as the engine built it card by card."""
    cards: list[Card] = []
    for n in range(1, 22):
        cards.append(Card(n - 1, f"T{n}", "T", str(n), 5 if n in (1, 21) else 1, f"T{n}"))
    cards.append(Card(21, "SK", "T", "SK", 5, "SK"))
    honours = {"K": 5, "D": 4, "C": 3, "B": 2}
    for suit, pips in (
        ("H", "A234"),
        ("Ka", "A234"),
        ("P", ("10", "9", "8", "7")),
        ("Kr", ("10", "9", "8", "7")),
    ):
        for rank in [*honours, *pips]:
            code = suit + rank
            cards.append(Card(len(cards), code, suit, rank, honours.get(rank, 1), code))
    roman = ["I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
             "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"]  # fmt: skip
    aliases = {r: i for i, r in enumerate(roman)}
    aliases.update({"IV": 3, "SKÜS": 21, "SKUS": 21, "SKIS": 21, "GSTIESS": 21, "GSTIEß": 21,
                    "STIESS": 21, "PAGAT": 0, "PFEIFE": 0, "MOND": 20})  # fmt: skip
    return Pack("Tarock", tuple(cards), ("T", "H", "Ka", "P", "Kr"), aliases)


def french48_by_hand() -> Pack:
    """The 48-card pack as the engine built it card by card."""
    cards: list[Card] = []
    points = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    for copy in (1, 2):
        for suit in "CSHD":
            for rank, pts in points.items():
                kind = suit + rank
                cards.append(Card(len(cards), f"{kind}.{copy}", suit, rank, pts, kind))
    return Pack("French 48", tuple(cards), ("C", "S", "H", "D"))


def german_by_hand() -> Pack:
    """The 36-card pack as the engine built it card by card."""
    cards: list[Card] = []
    points = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0, "6": 0}
    for suit in "EGHS":
        for rank, pts in points.items():
            cards.append(Card(len(cards), suit + rank, suit, rank, pts, suit + rank))
    return Pack("German", tuple(cards), ("E", "G", "H", "S"))


@pytest.mark.parametrize(
    ("pack", "by_hand"),
    [(TAROCK, tarock_by_hand), (DOPPELKOPF, french48_by_hand), (GERMAN, german_by_hand)],
    ids=["tarock", "french48", "german"],
)
def test_the_built_in_packs_are_the_ones_built_by_hand(pack: Pack, by_hand: object) -> None:
    old = by_hand()  # type: ignore[operator]
    assert pack == old
    assert pack.cards == old.cards  # codes, order (bits), suits, ranks, kinds, points
    assert pack.aliases == old.aliases
    assert (pack.full, pack.points, pack.suit_mask, pack.kind_mask) == (
        old.full, old.points, old.suit_mask, old.kind_mask,
    )  # fmt: skip
    for card in pack.cards:
        assert pack.parse(card.code) == card.index
        assert pack.code(card.index) == card.code
    for alias, index in old.aliases.items():
        assert pack.parse(alias) == index


def test_the_registry_packs_are_the_built_in_ones() -> None:
    assert PACKS == {"tarock": TAROCK, "french48": DOPPELKOPF, "german": GERMAN}


GERMAN_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2}


def test_a_german_32_card_pack_from_data() -> None:
    # the Schafkopf pack: A 10 K O U 9 8 7 in Eichel, Gras, Herz, Schellen
    spec = PackSpec(
        "German 32",
        tuple(
            SuitSpec(s, ("A", "10", "K", "O", "U", "9", "8", "7"), GERMAN_POINTS) for s in "EGHS"
        ),
        aliases={"ALTE": "EO", "SAU": "EA"},
    )
    pack = build_pack(spec)
    assert len(pack) == 32 and pack.full == (1 << 32) - 1
    assert pack.suits == ("E", "G", "H", "S")
    assert pack.codes(pack.full)[:9] == ["EA", "E10", "EK", "EO", "EU", "E9", "E8", "E7", "GA"]
    assert pack.code(31) == "S7" and pack.parse("ho") == 19
    assert pack.parse("Alte") == pack.parse("EO") == 3
    assert pack.points_of(pack.full) == 120
    assert cards_of(pack.suit_mask["G"]) == list(range(8, 16))
    assert pack.kind_mask["HU"] == 1 << 20


def test_a_36_card_pack_twice_over_and_one_with_other_codes() -> None:
    # a 36-card pack from two copies of an 18-card one (suits of nine)
    spec = PackSpec(
        "Double 18",
        (SuitSpec("E", ("A", "10", "K", "O", "U", "9", "8", "7", "6"), GERMAN_POINTS),
         SuitSpec("H", ("A", "10", "K", "O", "U", "9", "8", "7", "6"), GERMAN_POINTS)),
        copies=2,
    )  # fmt: skip
    pack = build_pack(spec)
    assert len(pack) == 36
    assert pack.code(0) == "EA.1" and pack.code(18) == "EA.2" and pack.code(35) == "H6.2"
    assert pack.kind_mask["EA"] == (1 << 0) | (1 << 18)
    assert pack.points_of(pack.full) == 2 * 2 * 30
    # the German 36 again, from a spec written out here: the built-in one
    again = PackSpec(
        "German",
        tuple(SuitSpec(s, ("A", "10", "K", "O", "U", "9", "8", "7", "6"), GERMAN_POINTS)
              for s in "EGHS"),
    )  # fmt: skip
    assert build_pack(again) == GERMAN


def test_a_pack_spec_is_checked() -> None:
    suit = SuitSpec("E", ("A", "A"))
    with pytest.raises(ValueError, match="each code once"):
        build_pack(PackSpec("Twice", (suit,)))
    with pytest.raises(ValueError, match="at most 64"):
        build_pack(PackSpec("Big", (SuitSpec("E", tuple(str(n) for n in range(65))),)))
    with pytest.raises(ValueError, match="names no card"):
        build_pack(PackSpec("Alias", (SuitSpec("E", ("A",)),), aliases={"SAU": "GA"}))
