"""Tarock zu dritt's optional rule "Honneurs (5 Fünferzähler)" (the rules text's optional
rules; DECISIONS.md has no row, the choice is written in the package docstring): five of
the seven Honneurs — the four Könige and the three Trull cards, each a Fünferzähler — in
one hand at the first lead are a silent premium of 1 for that hand's party, counted like
the other premiums (doubled in the Solospiele, none in negative games, in Farbenspiele or
beside a Valat), never announced."""

from __future__ import annotations

import pytest

from server.engine.cards import TAROCK
from server.engine.errors import MalformedError
from server.engine.games.tarock_zu_dritt import TarockZuDritt
from server.engine.games.tarock_zu_dritt.contracts import ANNOUNCEABLE, CONTRACTS, HONNEURS
from server.engine.games.tarock_zu_dritt.outcome import premium_results
from server.engine.registry import describe
from server.engine.tarock.premiums import Facts
from tests.engine.test_tarock_zu_dritt_deals import act, deal_hands
from tests.engine.test_tarock_zu_dritt_scoring import GUT3, play_out

# Mittelhand holds five Honneurs (Sküs, Mond, Pagat, Herz- and Karo-König).
FIVE = dict(
    v="T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 PK KrK",
    m="SK T21 T1 HK KaK T2 T3 T4 T5 T6 H2 H3 H4 Ka2 Ka3 Ka4",
    h="HD HC HB HA KaD KaC KaB KaA PD PC PB P10 P9 P8 P7 KrD",
    talon="KrC KrB Kr10 Kr9 Kr8 Kr7",
)


def hands(*texts: str) -> tuple[int, ...]:
    return tuple(TAROCK.mask(text) for text in texts)


def facts(start_hands: tuple[int, ...]) -> Facts:
    return Facts((0, 1, 1), [], start_hands=start_hands, piles={0: 0, 1: 0})


def test_the_honneurs_are_the_seven_fuenferzaehler() -> None:
    assert HONNEURS.cards == TAROCK.mask("HK KaK PK KrK T1 T21 SK")
    assert HONNEURS.need == 5
    assert "honneurs" not in ANNOUNCEABLE


def test_five_in_one_hand_count_one_for_its_party() -> None:
    five = facts(hands("HK KaK PK T1 SK", "", ""))
    results = premium_results(CONTRACTS["dreier"], five, {}, lambda c: 1, honneurs=True)
    assert [(r.code, r.side, r.seat, r.won, r.announced, r.points) for r in results] == [
        ("honneurs", 0, 0, True, False, 1)
    ]
    # an opponent's five count for the opponents
    theirs = facts(hands("", "HK KaK PK KrK T21", ""))
    results = premium_results(CONTRACTS["dreier"], theirs, {}, lambda c: 1, honneurs=True)
    assert [(r.code, r.side, r.seat) for r in results] == [("honneurs", 1, 1)]


def test_four_are_not_enough_and_two_hands_do_not_add_up() -> None:
    four = facts(hands("HK KaK PK T1", "KrK T21 SK", ""))
    assert premium_results(CONTRACTS["dreier"], four, {}, lambda c: 1, honneurs=True) == []


def test_only_with_the_option() -> None:
    five = facts(hands("HK KaK PK T1 SK", "", ""))
    assert premium_results(CONTRACTS["dreier"], five, {}, lambda c: 1) == []


def test_doubled_in_the_solospiele_and_by_kontra_never_in_negative_or_farbenspiele() -> None:
    five = facts(hands("HK KaK PK KrK SK T21 T1", "", ""))
    solo = premium_results(CONTRACTS["solodreier"], five, {}, lambda c: 1, honneurs=True)
    assert [(r.code, r.points) for r in solo] == [("honneurs", 2)]
    for name in ("bettler", "piccolo", "trischaken", "farbdreier", "farbensolo"):
        results = premium_results(CONTRACTS[name], five, {}, lambda c: 1, honneurs=True)
        assert [r.code for r in results if r.code == "honneurs"] == [], name


def test_a_whole_deal_pays_the_honneurs_of_an_opponent() -> None:
    """The same Solodreier with and without the option: Mittelhand's five Honneurs move
    2 (1, doubled in the Solospiel) from the declarer to each opponent."""
    settlements = []
    for option in (False, True):
        deal = act(deal_hands(FIVE, {"honneurs": option}), "bid solodreier", "pass", "pass",
                   "liege", *GUT3)  # fmt: skip
        outcome = play_out(deal).outcome()
        assert outcome is not None
        codes = [p["code"] for p in outcome["premiums"]]
        assert ("honneurs" in codes) is option
        settlements.append(outcome["settlement"])
    without, with_ = settlements
    assert [b - a for a, b in zip(without, with_, strict=True)] == [-4, 2, 2]


def test_the_option_is_offered_to_rooms_and_checked() -> None:
    options = {o["name"]: o for o in describe("tarock-zu-dritt")["options"]}
    assert options["honneurs"]["default"] is False
    assert options["honneurs"]["choices"] == [False, True]
    assert TarockZuDritt().resolve_options(None)["honneurs"] is False
    with pytest.raises(MalformedError):
        TarockZuDritt().resolve_options({"honneurs": 2})


def test_not_beside_a_valat() -> None:
    """Beside a Valat only the birds count (the rules text), the Honneurs not."""
    p7, p8, p9 = (TAROCK.parse(c) for c in ("P7", "P8", "P9"))
    valat = Facts(
        (0, 1, 1),
        [(0, (p7, p8, p9), 0)] * 16,
        start_hands=hands("HK KaK PK T1 SK", "", ""),
        piles={0: TAROCK.full, 1: 0},
    )
    results = premium_results(CONTRACTS["dreier"], valat, {}, lambda c: 1, honneurs=True)
    assert [r.code for r in results] == ["valat"]
