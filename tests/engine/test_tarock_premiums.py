"""Premium evaluators (server/engine/tarock/premiums.py) with values worked out from the texts.

Seats are in playing order; seat 0 is the declarer (side 0), seats 1 and 2 the opponents
(side 1). The tables below are the premiums as each game's text lists them; the game
modules will hold them (these tests pin the values down first).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from server.engine.cards import GERMAN, TAROCK
from server.engine.counting import PointCounter
from server.engine.doubling import Doubling
from server.engine.games.doppen.contracts import DOUBLING as DOPPEN_DOUBLING
from server.engine.games.dreierles import DreierlesDeal
from server.engine.games.dreierles.scoring import FACTORS
from server.engine.playout import play_random
from server.engine.registry import get_rules
from server.engine.tarock.premiums import (
    KAKADU,
    KINGS,
    MOND,
    PAGAT,
    QUAPIL,
    TAROCKS,
    TRULL,
    UHU,
    Bird,
    Collected,
    Facts,
    Fang,
    Held,
    PremiumTable,
    Result,
    Sack,
    Trick,
    Valat,
    bird_play_mask,
    evaluate,
    parse_count,
    settle,
    side_count,
    valat_side,
)
from server.engine.tricks import tarock_rules
from tests.engine.dreierles_deals import D1, D3, new_deal

PARTIES = (0, 1, 1)
RULES = tarock_rules(TAROCK)
t = TAROCK.parse

# Doppen: "Pagat … 10 Punkte ohne Ansage, angesagt 20", Uhu the same, Trull and Könige held
# before the first lead 10 (silent only), Valat 50 / announced 100 (DP-A11 … DP-A15).
DOPPEN = PremiumTable(
    (
        Bird("pagat", PAGAT, 0, silent=10, announced=20, silent_loss=True),
        Bird("uhu", UHU, 1, silent=10, announced=20, silent_loss=True),
        Held("trull", TRULL, silent=10),
        Held("koenige", KINGS, silent=10),
        Valat("valat", silent=50, announced=100),
    )
)

# Tarock zu dritt: the "Zutaten" table (still / angesagt), TZ-A10 … TZ-A16, TZ-A26.
TZ_BIRDS = ("pagat", "uhu", "kakadu", "quapil")
TAROCK_ZU_DRITT = PremiumTable(
    (
        Bird("pagat", PAGAT, 0, silent=1, announced=2),
        Bird("uhu", UHU, 1, silent=2, announced=4),
        Bird("kakadu", KAKADU, 2, silent=3, announced=6),
        Bird("quapil", QUAPIL, 3, silent=4, announced=8),
        Collected("koenige", KINGS, silent=1, announced=2),
        Collected("trull", TRULL, silent=1, announced=2),
        Fang("mondfang", MOND, silent=1, unless=TRULL),
        Fang("pagatfang", PAGAT, silent=1),
        Sack("sack", parse_count("45⅔"), silent=None, announced=2),
        Sack("doppelsack", parse_count("55⅔"), silent=None, announced=2),
        Valat("valat", silent=15, announced=30),
    ),
    with_valat=frozenset(TZ_BIRDS),
)


def dreierles_table(declarer_only: bool = False) -> PremiumTable:
    """Dreierles' bonuses ("Boni" table; DL-A10 … DL-A13)."""
    return PremiumTable(
        (
            Held("zehn_trumpf", TAROCKS, 1, need=10, personal=True, declarer_only=declarer_only),
            Held("drull", TRULL, 1, personal=True, declarer_only=declarer_only),
            Held("vier_koenige", KINGS, 1, personal=True),
            Bird("pfeife", PAGAT, 0, silent=1, announced=2, silent_loss=True),
        )
    )


def tricks(rows: Sequence[tuple[int, str]], kaiser: bool = False) -> list[Trick]:
    """Tricks from ``(leader, "cards in playing order")``; the winner by the usual rules,
    or the Pagat when the whole Trull falls together (``kaiser``)."""
    out: list[Trick] = []
    for leader, text in rows:
        cards = tuple(t(c) for c in text.split())
        pos = RULES.winner(cards)
        if kaiser and sum(1 << c for c in cards) & TRULL == TRULL:
            pos = cards.index(PAGAT)
        out.append((leader, cards, (leader + pos) % 3))
    return out


RESERVED = TAROCK.mask("T1 T2 T3 T4 T21 SK")


def full(last: Sequence[tuple[int, str]], kaiser: bool = False) -> list[Trick]:
    """Sixteen tricks ending with ``last``; the earlier ones are filler without the birds,
    the Mond and the Sküs, led by seat 0."""
    used = sum(TAROCK.mask(text) for _, text in last)
    spare = [c for c in range(54) if not (used | RESERVED) >> c & 1]
    filler = [
        (0, " ".join(TAROCK.code(c) for c in spare[3 * i : 3 * i + 3]))
        for i in range(16 - len(last))
    ]
    return tricks([*filler, *last], kaiser)


def codes(results: Sequence[Result]) -> list[tuple[str, int, bool, bool, int]]:
    """The results as (code, side, announced, won, points)."""
    return [(r.code, r.side, r.announced, r.won, r.points) for r in results]


# ------------------------------------------------------------------ Dreierles' example


def test_dreierles_worked_example() -> None:
    # "Anna sagt Einer an …, legt die Pfeife ab …, gewinnt das Spiel mit 43 Augen und
    # erhält einen Bonus für Zehn Trümpfe, verliert aber die Pfeife im letzten Stich.
    # Bernd erhält vier Könige." Anna 90 Cent, Bernd −30, Catrin −60 (10 Cent a point).
    anna = TAROCK.mask("T1 T6 T7 T8 T9 T10 T11 T12 T13 T14 H2 H3 H4 Ka2 Ka3 Ka4")
    bernd = TAROCK.mask("HK KaK PK KrK T5 T15 T16 T17 T18 HD HC HB KaD KaC KaB P10")
    catrin = TAROCK.full & ~(anna | bernd) & ~TAROCK.mask("Kr7 Kr8 Kr9 Kr10 KrB KrC")
    last = full([(0, "T1 T18 HA")])  # Bernd's T18 takes Anna's Pfeife in trick 16
    facts = Facts(PARTIES, last, start_hands=(anna, bernd, catrin), declarer=0)
    results = evaluate(dreierles_table(), facts, {"pfeife": 0})
    assert codes(results) == [
        ("zehn_trumpf", 0, False, True, 1),
        ("vier_koenige", 1, False, True, 1),
        ("pfeife", 0, True, False, 2),
    ]
    assert [r.seat for r in results] == [0, 1, 0]
    bonuses = settle(results, PARTIES)
    assert bonuses == [-3, 3, 0]
    game = 2 * 3  # 43 Augen: 8 over 35 → two fives, × 3 for the Einer
    assert FACTORS["einer"] == 3
    settlement = [bonuses[0] + 2 * game, bonuses[1] - game, bonuses[2] - game]
    assert [10 * p for p in settlement] == [90, -30, -60]


def test_dreierles_declarer_only_option() -> None:
    hands = (TAROCK.mask("T2 T3"), TAROCK.mask("SK T21 T1") | (TAROCKS & ~TAROCK.mask("T2 T3")), 0)
    facts = Facts(PARTIES, full([(0, "HA H2 H3")]), start_hands=hands, declarer=0)
    assert [r.code for r in evaluate(dreierles_table(), facts)] == ["zehn_trumpf", "drull"]
    assert evaluate(dreierles_table(declarer_only=True), facts) == []


# -------------------------------------------------------------------------------- Doppen


def test_doppen_trull_of_an_opponent_costs_the_declarer_twice() -> None:
    # DP-A10/A11: Bert holds the Trull at the first lead; Unterer: Prämienfaktor 1.
    hands = (0, TRULL | TAROCK.mask("HK"), 0)
    facts = Facts(PARTIES, full([(0, "HA H2 H3")]), start_hands=hands)
    results = evaluate(DOPPEN, facts)
    assert codes(results) == [("trull", 1, False, True, 10)]
    assert settle(results, PARTIES) == [-20, 10, 10]


def test_doppen_silent_pagat_lost_in_the_last_trick() -> None:
    # DP-A12: the declarer's T1 in trick 16 does not win: the other side +10 × PF (Zweier: 2).
    facts = Facts(PARTIES, full([(0, "T1 T7 HA")]))
    results = evaluate(DOPPEN, facts, multiplier=lambda code: 2)
    assert codes(results) == [("pagat", 0, False, False, 20)]
    assert settle(results, PARTIES) == [-40, 20, 20]


def test_doppen_pagat_lost_even_when_the_partner_wins() -> None:
    # "Wird I im letzten Stich gespielt, gewinnt diesen aber nicht, dann ist das ein
    # verlorener Pagat, selbst wenn der Partner den Stich gewonnen hat."
    facts = Facts(PARTIES, full([(1, "T1 T9 HA")]))  # Bert's Pagat, Clara's T9 wins
    assert facts.tricks[-1][2] == 2
    assert codes(evaluate(DOPPEN, facts)) == [("pagat", 1, False, False, 10)]
    assert settle(evaluate(DOPPEN, facts), PARTIES) == [20, -10, -10]


def test_doppen_silent_pagat_won_and_silent_uhu_played_early() -> None:
    rows = [(2, "T2 HA H2"), (1, "P7 T1 P8"), (1, "P9 H3 P10")]
    # Uhu in trick 14, Pagat in trick 15: neither in its own trick, silent: nothing.
    facts = Facts(PARTIES, full(rows))
    assert codes(evaluate(DOPPEN, facts)) == []
    rows = [(2, "T2 HA H2"), (1, "P9 H3 P10"), (1, "P7 T1 P8")]
    facts = Facts(PARTIES, full(rows))
    assert facts.tricks[-1][2] == 2  # Clara (seat 2) played T1 second and wins
    assert codes(evaluate(DOPPEN, facts)) == [("pagat", 1, False, True, 10)]


def test_doppen_announced_uhu_forced_out_early_is_lost() -> None:
    # DP-A12: an announced bird not won in its trick, for any reason: 20 × PF.
    rows = [(2, "T2 HA H2"), (1, "P9 H3 P10"), (1, "P7 T8 P8")]
    facts = Facts(PARTIES, full(rows))
    results = evaluate(DOPPEN, facts, {"uhu": 2}, multiplier=lambda code: 3)
    assert codes(results) == [("uhu", 1, True, False, 60)]
    assert settle(results, PARTIES) == [120, -60, -60]
    # Announced and won in the second-last trick.
    rows = [(2, "HA T2 H2"), (1, "P9 H3 P10")]
    facts = Facts(PARTIES, full(rows))
    assert facts.tricks[-2][2] == 0  # seat 2 leads HA, seat 0 plays T2 and wins
    assert codes(evaluate(DOPPEN, facts, {"uhu": 0})) == [("uhu", 0, True, True, 20)]


def test_doppen_kontra_on_the_pagat_doubles_it() -> None:
    d = Doubling(DOPPEN_DOUBLING, PARTIES, first=0, items={"game": 0, "pagat": 0})
    for seat, text in ((0, "gut"), (1, "kontra pagat"), (2, "gut"), (0, "re pagat")):
        d.act(seat, text)
    facts = Facts(PARTIES, full([(0, "T1 H2 H3")]))
    results = evaluate(DOPPEN, facts, {"pagat": 0}, multiplier=lambda c: 1 * d.factor(c))
    assert codes(results) == [("pagat", 0, True, True, 80)]


def test_doppen_valat_scaled_by_the_game_factor_and_other_premiums_count() -> None:
    # DP-A15: silent 50 × Spielfaktor, announced 100 × Spielfaktor; premiums still count.
    facts = Facts(PARTIES, tricks(valat_rows("T7 H2 HA")), start_hands=(KINGS, 0, 0))
    assert valat_side(facts) == 0
    factor = {"valat": 2}  # Unterer: Spielfaktor 2, Prämienfaktor 1

    def mult(code: str) -> int:
        return factor.get(code, 1)

    assert codes(evaluate(DOPPEN, facts, multiplier=mult)) == [
        ("koenige", 0, False, True, 10),
        ("valat", 0, False, True, 100),
    ]
    assert codes(evaluate(DOPPEN, facts, {"valat": 0}, multiplier=mult))[-1] == (
        "valat",
        0,
        True,
        True,
        200,
    )


def test_doppen_announced_valat_lost_by_an_early_end() -> None:
    # DP-A16: play stops once the opponents have a trick: fewer than 16 tricks.
    facts = Facts(PARTIES, tricks([(0, "HA H2 HK")]))
    assert valat_side(facts) is None
    results = evaluate(DOPPEN, facts, {"valat": 0}, multiplier=lambda c: 4)
    assert codes(results) == [("valat", 0, True, False, 400)]
    assert settle(results, PARTIES) == [-800, 400, 400]


def valat_rows(last: str) -> list[tuple[int, str]]:
    """Sixteen tricks led by seat 0 with SK, T21 … T8 and then ``last`` (T7, T1, HA, H2 are
    left for it): the declarer wins all fifteen, and the last if his card is highest."""
    high = ["SK", *[f"T{n}" for n in range(21, 7, -1)]]
    spare = ("T7", "T1", "HA", "H2")
    low = [c.code for c in TAROCK.cards if c.code not in high and c.code not in spare]
    rows = [(0, f"{high[i]} {low[2 * i]} {low[2 * i + 1]}") for i in range(15)]
    return [*rows, (0, last)]


# ----------------------------------------------------------------------- Tarock zu dritt


def test_tarock_zu_dritt_birds_values() -> None:
    # Kakadu (III) wins the third-last trick silently: 3; Quapil (IIII) announced: 8.
    rows = [(0, "T4 H2 H3"), (0, "T3 P7 P8"), (0, "HA H4 Ka4"), (1, "Ka2 Ka3 KaA")]
    facts = Facts(PARTIES, full(rows))
    assert codes(evaluate(TAROCK_ZU_DRITT, facts, {"quapil": 0})) == [
        ("kakadu", 0, False, True, 3),
        ("quapil", 0, True, True, 8),
    ]
    assert codes(evaluate(TAROCK_ZU_DRITT, facts)) == [
        ("kakadu", 0, False, True, 3),
        ("quapil", 0, False, True, 4),
    ]


def test_tarock_zu_dritt_silent_bird_lost_costs_nothing_but_the_pagatfang_counts() -> None:
    # TZ-A12 "kein 'abhauen'": a silent Pagat that fails scores nothing; caught by the other
    # side it is a Pagatfang (1, TZ-A15).
    facts = Facts(PARTIES, full([(0, "T1 T5 H2")]))
    assert codes(evaluate(TAROCK_ZU_DRITT, facts)) == [("pagatfang", 1, False, True, 1)]
    # Announced and lost: the announced value to the other side, and the Pagatfang.
    results = evaluate(TAROCK_ZU_DRITT, facts, {"pagat": 0})
    assert codes(results) == [("pagat", 0, True, False, 2), ("pagatfang", 1, False, True, 1)]
    assert settle(results, PARTIES) == [-6, 3, 3]
    # The partner taking it is no Pagatfang (and no Pagat: the bird must win itself).
    facts = Facts(PARTIES, full([(1, "T1 T5 H2")]))
    assert codes(evaluate(TAROCK_ZU_DRITT, facts)) == []


def test_tarock_zu_dritt_mondfang_but_not_in_a_kaiserstich() -> None:
    facts = Facts(PARTIES, full([(0, "T21 SK H2")]))
    assert codes(evaluate(TAROCK_ZU_DRITT, facts)) == [("mondfang", 1, False, True, 1)]
    # SK, Mond and Pagat together: the Pagat wins (Kaiserstich), no Mondfang (TZ-A15).
    facts = Facts(PARTIES, full([(1, "T21 SK T1")], kaiser=True))
    assert facts.tricks[-1][2] == 0  # seat 0 played the Pagat third
    assert codes(evaluate(TAROCK_ZU_DRITT, facts)) == [("pagat", 0, False, True, 1)]


def test_tarock_zu_dritt_trull_and_koenige_in_the_tricks_with_the_talon_share() -> None:
    # TZ-A11: the opponents' talon share (KaK) counts for them.
    opp = KINGS | TAROCK.mask("HD")
    facts = Facts(PARTIES, full([(0, "HA H2 H3")]), piles={0: TAROCK.full & ~opp, 1: opp})
    assert codes(evaluate(TAROCK_ZU_DRITT, facts)) == [
        ("koenige", 1, False, True, 1),
        ("trull", 0, False, True, 1),
    ]
    results = evaluate(TAROCK_ZU_DRITT, facts, {"koenige": 0, "trull": 0})
    assert codes(results) == [("koenige", 0, True, False, 2), ("trull", 0, True, True, 2)]
    assert settle(results, PARTIES) == [0, 0, 0]


def test_tarock_zu_dritt_sack_thresholds_from_the_text() -> None:
    # "1. Sack: mindestens 45/2 Blatt (Gegner bis incl. 24/1 Blatt)"
    # "2. Sack: mindestens 55/2 Blatt (Gegner bis incl. 14/1 Blatt)"
    def facts_for(opp: str) -> Facts:
        pile = TAROCK.mask(opp)
        return Facts(PARTIES, full([(0, "HA H2 H3")]), piles={0: TAROCK.full & ~pile, 1: pile})

    at_sack = facts_for("HK KaK PK KrK SK HC T5")  # 29 raw, 7 cards: 24⅓
    assert side_count(at_sack, 1) == parse_count("24/1") == 73
    assert side_count(at_sack, 0) == parse_count("45/2") == 137
    below = facts_for("HK KaK PK KrK SK HC T5 T6")  # 30 raw, 8 cards: 24⅔
    assert side_count(below, 0) == 136
    at_double = facts_for("HK KaK PK HB")  # 17 raw, 4 cards: 14⅓
    assert side_count(at_double, 0) == parse_count("55⅔") == 167

    sacks = TAROCK_ZU_DRITT.only("sack", "doppelsack")  # the kings are counted apart
    announced = {"sack": 0, "doppelsack": 0}
    assert codes(evaluate(sacks, at_sack, announced)) == [
        ("sack", 0, True, True, 2),
        ("doppelsack", 0, True, False, 2),
    ]
    assert codes(evaluate(sacks, below, {"sack": 0})) == [("sack", 0, True, False, 2)]
    assert codes(evaluate(sacks, at_double, announced)) == [
        ("sack", 0, True, True, 2),
        ("doppelsack", 0, True, True, 2),
    ]
    # Säcke are not silent unless the "stille Säcke" option gives them a value (TZ-A26).
    assert [r.code for r in evaluate(sacks, at_double)] == []
    silent = PremiumTable(
        (Sack("sack", 137, silent=1, announced=2), Sack("doppelsack", 167, silent=1, announced=2))
    )
    assert codes(evaluate(silent, at_double)) == [
        ("sack", 0, False, True, 1),
        ("doppelsack", 0, False, True, 1),
    ]
    # The opponents may make (and announce) a Sack too.
    opponents_sack = facts_for(" ".join(TAROCK.codes(TAROCK.full & ~KINGS)))
    assert side_count(opponents_sack, 1) == 210 - (3 * 20 - 2 * 4) == 158  # 52⅔
    assert codes(evaluate(silent, opponents_sack)) == [("sack", 1, False, True, 1)]


def test_sack_in_whole_points() -> None:
    pile = TAROCK.mask("HK KaK PK KrK SK HC T5")
    facts = Facts(PARTIES, [], piles={0: TAROCK.full & ~pile, 1: pile})
    assert side_count(facts, 0, "whole") == 46 and side_count(facts, 1, "whole") == 24
    with pytest.raises(ValueError):
        side_count(facts, 0, "augen")
    table = PremiumTable((Sack("sack", 46, silent=1, announced=2, method="whole"),))
    assert codes(evaluate(table, facts)) == [("sack", 0, False, True, 1)]


def test_tarock_zu_dritt_valat_keeps_only_the_birds() -> None:
    # TZ-A16: made Valat: game + Valat (15/30) + birds; Könige, Trull, Säcke, Fang do not count.
    rows = valat_rows("T7 T1 HA")  # the Pagat is the opponents', caught
    facts = Facts(PARTIES, tricks(rows), piles={0: TAROCK.full, 1: 0})
    assert valat_side(facts) == 0
    assert codes(evaluate(TAROCK_ZU_DRITT, facts, {"sack": 0})) == [("valat", 0, False, True, 15)]
    facts = Facts(PARTIES, tricks(valat_rows("T1 HA H2")), piles={0: TAROCK.full, 1: 0})
    assert codes(evaluate(TAROCK_ZU_DRITT, facts, {"valat": 0})) == [
        ("pagat", 0, False, True, 1),
        ("valat", 0, True, True, 30),
    ]
    # The declarer announced a Valat and the opponents took every trick: a Valat is made
    # (by them), so only the birds count beside the lost announcement.
    theirs = [(1, cards, (w + 1) % 3) for _, cards, w in tricks(valat_rows("T1 HA H2"))]
    facts = Facts(PARTIES, theirs, piles={0: 0, 1: TAROCK.full})
    assert valat_side(facts) == 1
    assert codes(evaluate(TAROCK_ZU_DRITT, facts, {"valat": 0})) == [
        ("pagat", 1, False, True, 1),
        ("valat", 0, True, False, 30),
    ]
    # An announced Valat that fails: all premiums count (and the Valat is paid).
    lost = Facts(PARTIES, full([(0, "T21 SK H2")]), piles={0: KINGS, 1: TAROCK.full & ~KINGS})
    assert codes(evaluate(TAROCK_ZU_DRITT, lost, {"valat": 0})) == [
        ("koenige", 0, False, True, 1),
        ("trull", 1, False, True, 1),
        ("mondfang", 1, False, True, 1),
        ("valat", 0, True, False, 30),
    ]


def test_tarock_zu_dritt_solo_doubles_premiums_but_not_the_valat() -> None:
    facts = Facts(PARTIES, tricks(valat_rows("T1 HA H2")), piles={0: TAROCK.full, 1: 0})

    def solo(code: str) -> int:
        return 1 if code == "valat" else 2

    assert codes(evaluate(TAROCK_ZU_DRITT, facts, {"pagat": 0}, multiplier=solo)) == [
        ("pagat", 0, True, True, 4),
        ("valat", 0, False, True, 15),
    ]


def test_farbenspiele_only_koenige_saecke_valat() -> None:
    farben = TAROCK_ZU_DRITT.only("koenige", "sack", "doppelsack", "valat")
    assert farben.announceable() == ["koenige", "sack", "doppelsack", "valat"]
    facts = Facts(PARTIES, full([(0, "T1 HA H2")]), piles={0: KINGS, 1: TAROCK.full & ~KINGS})
    assert codes(evaluate(farben, facts)) == [("koenige", 0, False, True, 1)]
    with pytest.raises(ValueError):
        evaluate(farben, facts, {"pagat": 0})
    with pytest.raises(ValueError):
        evaluate(TAROCK_ZU_DRITT, facts, {"mondfang": 0})
    with pytest.raises(ValueError):
        PremiumTable((Valat("valat", 1, 2), Valat("valat", 1, 2)))


def test_result_json_is_a_code_with_parameters() -> None:
    facts = Facts(PARTIES, full([(0, "T1 H2 H3")]))
    [result] = evaluate(DOPPEN, facts, {"pagat": 0})
    assert result.to_json() == {
        "code": "pagat",
        "side": 0,
        "seat": 0,
        "announced": True,
        "won": True,
        "points": 20,
        "personal": False,
    }


# ----------------------------------------------------------------------------- counting


def test_counts_of_both_sides_always_total_the_pack() -> None:
    rng = random.Random("tarock-counting")
    for _ in range(300):
        pile = sum(1 << c for c in range(54) if rng.random() < 0.5)
        facts = Facts(PARTIES, [], piles={0: pile, 1: TAROCK.full & ~pile})
        thirds = side_count(facts, 0), side_count(facts, 1)
        assert sum(thirds) == 210
        # The text's two readings of a Sack agree: ≥ 45⅔ for one side ⇔ ≤ 24⅓ for the other.
        assert (thirds[0] >= parse_count("45/2")) == (thirds[1] <= parse_count("24/1"))
        assert (thirds[0] >= parse_count("55/2")) == (thirds[1] <= parse_count("14/1"))
        if pile.bit_count() % 3 == 0:
            assert side_count(facts, 0, "whole") * 3 == thirds[0]


# --------------------------------------------------------- cross-check against Dreierles


def dreierles_facts(deal: DreierlesDeal) -> tuple[Facts, dict[str, int]]:
    """The facts of a finished Dreierles deal and its announcements."""
    declarer = deal.declarer
    assert declarer is not None
    parties = tuple(0 if s == declarer else 1 for s in range(3))
    facts = Facts(parties, deal.tricks, start_hands=tuple(deal.start_hands), declarer=declarer)
    announced = {"pfeife": declarer} if deal.pfeife_announced else {}
    return facts, announced


def as_dreierles(results: Sequence[Result]) -> list[dict[str, object]]:
    """The results in the shape of today's Dreierles outcome."""
    out: list[dict[str, object]] = []
    for r in results:
        if r.code == "pfeife":
            name = "pfeife_angesagt" if r.announced else "pfeife"
            side = "declarer" if r.side == 0 else "opponents"
            out.append({"name": name, "side": side, "won": r.won, "points": r.points})
        else:
            out.append({"name": r.code, "seat": r.seat, "points": r.points})
    return out


def _key(p: dict[str, object]) -> str:
    return repr(sorted(p.items()))


@pytest.mark.parametrize("declarer_only", [False, True])
def test_premiums_match_dreierles_over_random_deals(declarer_only: bool) -> None:
    rules = get_rules("dreierles")
    options = {"hand_bonus_declarer_only": declarer_only}
    table = dreierles_table(declarer_only)
    seen: dict[str, int] = {}
    deals: list[DreierlesDeal] = []
    for i in range(300):
        deal = play_random(rules, random.Random(f"premiums:{i}"), options)[0]
        assert isinstance(deal, DreierlesDeal)
        deals.append(deal)
    # The hand-built deals bring the rare hands: the Drull, four kings, sixteen trumps.
    for spec in (D1, D3):
        for i in range(40):
            deal = new_deal(spec, options)
            rng = random.Random(f"premiums:{i}")
            while not deal.finished:
                seat, move = deal.random_action(rng)
                deal.apply(move, seat)
            deals.append(deal)
    for deal in deals:
        outcome = deal.outcome()
        assert outcome is not None
        if outcome["contract"] == "raeuber":
            continue
        facts, announced = dreierles_facts(deal)
        results = evaluate(table, facts, announced)
        expected = outcome["premiums"]
        assert sorted(map(_key, as_dreierles(results))) == sorted(map(_key, expected))
        game = outcome["game_points"]
        declarer = facts.declarer
        base = [2 * game if s == declarer else -game for s in range(3)]
        bonus = settle(results, facts.parties)
        assert [a + b for a, b in zip(base, bonus, strict=True)] == outcome["settlement"]
        for r in results:
            key = f"{r.code}{'!' if r.announced else ''}{'+' if r.won else '-'}"
            seen[key] = seen.get(key, 0) + 1
    # The comparison saw every kind of result (not only empty lists).
    assert {"zehn_trumpf+", "drull+", "vier_koenige+", "pfeife+", "pfeife-"} <= set(seen)
    assert "pfeife!-" in seen


# --------------------------------------------------------------- announced birds in play


def test_announced_birds_wait_for_their_trick() -> None:
    birds = [(PAGAT, 15), (UHU, 14)]
    hand = TAROCK.mask("T1 T2 T9 HK")
    # Trump led in trick 5: T9 must do; the birds wait.
    legal = RULES.legal(hand, t("T20"), t("T20"))
    assert TAROCK.codes(legal) == ["T1", "T2", "T9"]
    mask = bird_play_mask(legal, birds, 4, must_play_due=True, highest_first=True)
    assert TAROCK.codes(mask) == ["T9"]
    # Only birds left to follow a trump lead: forced; Tarock zu dritt plays the highest
    # first, Doppen leaves the choice.
    legal = RULES.legal(TAROCK.mask("T1 T2 HK"), t("T20"), t("T20"))
    tz = bird_play_mask(legal, birds, 4, must_play_due=True, highest_first=True)
    doppen = bird_play_mask(legal, birds, 4, must_play_due=True, highest_first=False)
    assert (TAROCK.codes(tz), TAROCK.codes(doppen)) == (["T2"], ["T1", "T2"])
    # Doppen: the announced Uhu "muss im vorletzten Stich gespielt werden, wenn … möglich".
    legal = RULES.legal(TAROCK.mask("T1 T2"), t("T20"), t("T20"))
    assert TAROCK.codes(
        bird_play_mask(legal, birds, 14, must_play_due=True, highest_first=False)
    ) == ["T2"]
    # A suit led and followed: the due bird cannot be played; nothing changes.
    legal = RULES.legal(TAROCK.mask("T1 T2 HK"), t("HA"), t("HA"))
    assert bird_play_mask(legal, birds, 14, must_play_due=True, highest_first=True) == legal
    # Dreierles' Pfeife (DL-A13): nothing is forced into its trick (the last has one card).
    assert bird_play_mask(
        TAROCK.mask("T1 HK"), [(PAGAT, 15)], 2, must_play_due=False, highest_first=False
    ) == TAROCK.mask("HK")


def test_bird_play_mask_matches_dreierles_announced_pfeife() -> None:
    rules = get_rules("dreierles")
    checked = 0
    for i in range(400):
        rng = random.Random(f"pfeife:{i}")
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        assert isinstance(deal, DreierlesDeal)
        while not deal.finished:
            seat = deal.to_move
            if (
                deal.phase == "play"
                and deal.pfeife_announced
                and seat == deal.declarer
                and not deal.is_rauber
            ):
                assert seat is not None
                hand, trick = deal.hands[seat], deal.trick
                legal = RULES.legal(hand, trick[0], trick[RULES.winner(trick)]) if trick else hand
                birds = [(PAGAT, 15)] if hand >> PAGAT & 1 else []
                mask = bird_play_mask(
                    legal, birds, len(deal.tricks), must_play_due=True, highest_first=False
                )
                assert mask == sum(1 << m for m in deal.legal_moves())
                checked += 1
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert checked > 100


# ------------------------------------------------------------------ Bayerisches Tarock


def test_bayerisches_tarock_schneider_and_matsch_on_the_german_pack() -> None:
    # No-bidding variant: "Gewinn mit Gegner im Schneider + 1-fach, mit Gegner Matsch
    # nochmal +1-fach" (BT-A14: Schneider = declarer 91 or more, Matsch = all 11 tricks).
    table = PremiumTable(
        (
            Sack("schneider", 91, silent=1, announced=None, method="raw"),
            Valat("matsch", silent=1, announced=None),
        )
    )
    counter = PointCounter(GERMAN)
    pile = GERMAN.mask("EA GA HA SA E10 G10 H10 S10 EK GK")  # 4 × 21 + 8 = 92 Augen
    all_tricks = [(0, (0, 1, 2), 0)] * 11
    facts = Facts(
        PARTIES,
        all_tricks,
        trick_count=11,
        piles={0: pile, 1: GERMAN.full & ~pile},
        counter=counter,
    )
    assert side_count(facts, 0, "raw") == 92 and side_count(facts, 1, "raw") == 28
    assert codes(evaluate(table, facts)) == [
        ("schneider", 0, False, True, 1),
        ("matsch", 0, False, True, 1),
    ]
    short = GERMAN.mask("EA GA HA SA E10 G10 H10 S10 EO GU")  # 84 + 5 = 89: no Schneider
    lost_one = [*all_tricks[:10], (1, (3, 4, 5), 1)]
    facts = Facts(
        PARTIES,
        lost_one,
        trick_count=11,
        piles={0: short, 1: GERMAN.full & ~short},
        counter=counter,
    )
    assert codes(evaluate(table, facts)) == []
