"""Tarock zu dritt, counting and scoring (TZ-A6, TZ-A8 … TZ-A16, TZ-A21, TZ-A22, TZ-A26):
the doctests of the scoring modules, and whole deals played out to their settlement."""

from __future__ import annotations

import doctest

from server.engine.games.tarock_zu_dritt import outcome as outcome_module
from server.engine.games.tarock_zu_dritt import scoring as scoring_module
from server.engine.games.tarock_zu_dritt.contracts import CONTRACTS
from server.engine.games.tarock_zu_dritt.deal import TarockZuDrittDeal
from server.engine.games.tarock_zu_dritt.outcome import premium_results
from server.engine.games.tarock_zu_dritt.scoring import trischaken
from server.engine.tarock.premiums import KINGS, PAGAT, TRULL, Facts, parse_count
from tests.engine.test_tarock_zu_dritt_deals import act, deal_hands

KREUZ_TALON = "KrC KrB Kr10 Kr9 Kr8 Kr7"
# Vorhand holds the sixteen highest tarocks: she takes every trick she leads.
TOP = dict(
    v="SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7",
    m="T1 T2 T3 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA",
    h="T4 T5 T6 Ka2 Ka3 Ka4 PK PD PC PB P10 P9 P8 P7 KrK KrD",
    talon=KREUZ_TALON,
)
# Vorhand holds every pip card; the talon brings her three Buben and three Cavalls.
PIPS = dict(
    v="HA H2 H3 H4 KaA Ka2 Ka3 Ka4 P10 P9 P8 P7 Kr10 Kr9 Kr8 Kr7",
    m="T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 HK HD KaK KaD PK",
    h="T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 SK PD KrK KrD HC KaC",
    talon="HB KaB PB KrB PC KrC",
)
GUT3 = ("gut", "gut", "gut")


def play_out(deal: TarockZuDrittDeal) -> TarockZuDrittDeal:
    """Every seat plays its first legal card (pack order) to the end."""
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    return deal


def test_doctests() -> None:
    assert doctest.testmod(scoring_module).failed == 0
    assert doctest.testmod(outcome_module).failed == 0


def test_silent_valat_game_plus_fifteen_not_doubled_in_the_solo() -> None:
    deal = play_out(act(deal_hands(TOP), "bid solodreier", "pass", "pass", "liege", *GUT3))
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome["tricks_won"] == [16, 0, 0]
    # the talon lies with the opponents: KrC KrB Kr10 Kr9 Kr8 Kr7 = 9 Augen, two Lagen: 5
    assert outcome["card_points"] == {"declarer": "65", "opponents": "5"}
    assert [(p["code"], p["points"]) for p in outcome["premiums"]] == [("valat", 15)]
    # only birds count beside a Valat: no Trull, no Könige, no Säcke, no Pagatfang
    assert outcome["settlement"] == [2 * (8 + 15), -(8 + 15), -(8 + 15)]


def test_announced_valat_kontriert_counts_thirty_times_two() -> None:
    deal = act(deal_hands(TOP), "bid solodreier", "pass", "pass", "announce valat", "liege",
               "kontra valat", *GUT3)  # fmt: skip
    outcome = play_out(deal).outcome()
    assert outcome is not None
    assert [(p["code"], p["announced"], p["points"]) for p in outcome["premiums"]] == [
        ("valat", True, 60)
    ]
    assert outcome["settlement"] == [2 * 68, -68, -68]


def test_a_lost_sechserdreier_counts_double() -> None:
    deal = act(deal_hands(PIPS), "vorhand", "pass", "pass", "bid sechserdreier")
    while deal.phase == "discard":
        act(deal, deal.legal_texts()[0])
    act(deal, "liege", *GUT3)
    outcome = play_out(deal).outcome()
    assert outcome is not None and outcome["declarer_won"] is False
    assert parse_count(outcome["card_points"]["declarer"]) < 107
    game = outcome["lines"][0]
    assert game["code"] == "game_lost" and game["points"] == 6
    premiums = sum(
        p["points"] if (p["side"] == 0) == p["won"] else -p["points"] for p in outcome["premiums"]
    )
    assert outcome["settlement"] == [-12 + 2 * premiums, 6 - premiums, 6 - premiums]


def test_negative_game_kontra_per_opponent() -> None:
    deal = act(deal_hands(TOP), "bid bettler", "pass", "pass", "gut", "kontra game", *GUT3)
    outcome = play_out(deal).outcome()
    assert outcome is not None
    # Vorhand leads the Sküs and takes the first trick: the Bettler is lost at once
    assert outcome["tricks_won"] == [1, 0, 0] and outcome["declarer_won"] is False
    assert outcome["settlement"] == [-4 - 8, 4, 8]
    assert [(x["against"], x["factor"]) for x in outcome["lines"]] == [(1, 1), (2, 2)]


def test_piccolo_bei_each_declarer_against_each_other_player() -> None:
    deal = act(deal_hands(PIPS), "vorhand", "bid piccolo", "bei", "pass", *GUT3)
    assert deal.declarers == [1, 2]
    outcome = play_out(deal).outcome()
    assert outcome is not None
    settlement = [0, 0, 0]
    for line in outcome["lines"]:
        amount = line["points"] if line["won"] else -line["points"]
        settlement[line["seat"]] += amount
        settlement[line["against"]] -= amount
        assert line["won"] == (outcome["tricks_won"][line["seat"]] == 1)
    assert outcome["settlement"] == settlement and len(outcome["lines"]) == 4


def test_a_trischaken_deal_pays_by_its_counts() -> None:
    deal = play_out(act(deal_hands(PIPS), "vorhand", "pass", "pass", "bid trischaken"))
    outcome = deal.outcome()
    assert outcome is not None
    thirds = [parse_count(p) for p in outcome["seat_points"]]
    assert sum(thirds) == 210
    assert outcome["settlement"] == trischaken(thirds, outcome["tricks_won"])[0]


def test_premium_values_silent_announced_and_doubled_in_solospiele() -> None:
    facts = Facts((0, 1, 1), [], piles={0: TRULL | KINGS, 1: 0})
    dreier = premium_results(CONTRACTS["dreier"], facts, {}, lambda c: 1)
    assert [(r.code, r.points, r.won) for r in dreier] == [("koenige", 1, True), ("trull", 1, True)]
    announced = premium_results(CONTRACTS["dreier"], facts, {"koenige": 1}, lambda c: 1)
    # the opponents announced the Könige and did not make them: 2 to the declarer's side
    first = announced[0]
    assert (first.code, first.side, first.points, first.won) == ("koenige", 1, 2, False)
    solo = premium_results(CONTRACTS["solodreier"], facts, {"trull": 0}, lambda c: 1)
    assert [(r.code, r.points) for r in solo] == [("koenige", 2), ("trull", 4)]
    assert premium_results(CONTRACTS["bettler"], facts, {}, lambda c: 1) == []


def test_mondfang_and_pagatfang_but_no_mondfang_in_a_kaiserstich() -> None:
    from server.engine.cards import TAROCK

    t = TAROCK.parse
    caught = [(1, (t("T21"), t("SK"), t("P7")), 2)] * 1
    parties = (1, 0, 1)  # seat 1 declarer (side 0)
    facts = Facts(parties, caught, trick_count=16, piles={0: 0, 1: 0})
    codes = [r.code for r in premium_results(CONTRACTS["dreier"], facts, {}, lambda c: 1)]
    assert codes == ["mondfang"]
    kaiser = [(1, (t("T21"), t("SK"), PAGAT), 2)]
    facts = Facts(parties, kaiser, trick_count=16, piles={0: 0, 1: 0})
    codes = [r.code for r in premium_results(CONTRACTS["dreier"], facts, {}, lambda c: 1)]
    assert codes == []


def test_saecke_silent_only_with_the_option() -> None:
    from server.engine.cards import TAROCK

    pile = TAROCK.full & ~TAROCK.mask("T5 T6 T7 T8 T9 T10 T11 T12 T13")  # 70 − 9⅓·… ≥ 55⅔
    facts = Facts((0, 1, 1), [], piles={0: pile, 1: TAROCK.full & ~pile})
    plain = premium_results(CONTRACTS["dreier"], facts, {}, lambda c: 1)
    assert [r.code for r in plain] == ["koenige", "trull"]
    silent = premium_results(CONTRACTS["dreier"], facts, {}, lambda c: 1, silent_saecke=True)
    assert [(r.code, r.points) for r in silent][2:] == [("sack", 1), ("doppelsack", 1)]
    announced = premium_results(CONTRACTS["dreier"], facts, {"sack": 0, "doppelsack": 0},
                                lambda c: 2)  # fmt: skip
    assert [(r.code, r.points, r.won) for r in announced][2:] == [
        ("sack", 4, True), ("doppelsack", 4, True),
    ]  # fmt: skip


def test_the_thresholds_of_the_text_in_thirds() -> None:
    from server.engine.games.tarock_zu_dritt.contracts import PREMIUMS
    from server.engine.tarock.premiums import Sack

    sack, doppelsack = (s for s in PREMIUMS.specs if isinstance(s, Sack))
    # "mindestens 45/2 Blatt (Gegner bis incl. 24/1 Blatt)", "55/2 … (14/1)"
    assert sack.threshold == parse_count("45/2") and 210 - sack.threshold == parse_count("24/1")
    assert doppelsack.threshold == parse_count("55/2")
    assert 210 - doppelsack.threshold == parse_count("14/1")
