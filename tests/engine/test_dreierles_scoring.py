"""Dreierles scoring: the worked example of the rules text and exact values for every rule."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from server.engine.games.dreierles import DreierlesDeal
from server.engine.games.dreierles import contracts as contracts_module
from server.engine.games.dreierles import deal as deal_module
from server.engine.games.dreierles import errors as errors_module
from server.engine.games.dreierles import scoring as scoring_module
from server.engine.games.dreierles.contracts import CONTRACTS
from server.engine.games.dreierles.scoring import (
    FACTORS,
    Pfeife,
    game_points,
    score_declarer_game,
    score_rauber,
)
from server.engine.record import load_record
from tests.engine.dreierles_deals import new_deal, play

GOLDEN = Path(__file__).parent.parent / "golden" / "dreierles"
LOCALE = Path(__file__).parent.parent.parent / "web" / "locale"

# The counting of the rules text, written out independently of the engine.
VALUES = {"SK": 5, "T21": 5, "T1": 5}


def card_value(code: str) -> int:
    if code in VALUES:
        return VALUES[code]
    if code.startswith("T"):
        return 1
    rank = code[2:] if code.startswith(("Ka", "Kr")) else code[1:]
    return {"K": 5, "D": 4, "C": 3, "B": 2}.get(rank, 1)


def whole_count(cards: list[str]) -> int:
    """Groups of three minus 2; one or two left over: minus 1 (doppen.txt)."""
    n = len(cards)
    return sum(card_value(c) for c in cards) - 2 * (n // 3) - (1 if n % 3 else 0)


def test_worked_example_in_points() -> None:
    """Anna: Einer won with 43, Zehn Trumpf, announced Pfeife lost; Bernd: Vier Könige."""
    game = game_points("einer", 43, 0, thirds=False, minimum=1)
    assert game == 6  # 8 over 35 → 10 → 2 × 3
    settlement = score_declarer_game(
        3,
        0,
        game,
        [("zehn_trumpf", 0), ("vier_koenige", 1)],
        Pfeife("declarer", announced=True, won=False),
    )
    assert [p * 10 for p in settlement] == [90, -30, -60]


def test_worked_example_as_a_full_deal() -> None:
    record = json.loads((GOLDEN / "worked-example.json").read_text(encoding="utf-8"))
    deal = load_record(record)
    assert isinstance(deal, DreierlesDeal)
    outcome = deal.outcome()
    assert outcome is not None
    assert deal.seat_names == ("Anna", "Bernd", "Catrin")
    assert (outcome["contract"], outcome["declarer"], outcome["knocks"]) == ("einer", 0, 0)
    assert deal.pfeife_announced
    # recount Anna's pile by hand: her tricks plus her discard
    anna = [c for t in outcome["tricks"] if t["winner"] == 0 for c in t["cards"]]
    discards = [text.split()[1] for seat, text in record["actions"] if text.startswith("discard")]
    assert whole_count(anna + discards) == 43
    assert outcome["card_points"] == {"declarer": "43", "opponents": "27"}
    last = outcome["tricks"][15]
    assert "T1" in last["cards"] and last["winner"] != 0  # the Pfeife lost in the last trick
    assert (last["leader"] + last["cards"].index("T1")) % 3 == 0
    assert outcome["premiums"] == [
        {"name": "zehn_trumpf", "seat": 0, "points": 1},
        {"name": "vier_koenige", "seat": 1, "points": 1},
        {"name": "pfeife_angesagt", "side": "declarer", "won": False, "points": 2},
    ]
    assert [p * record["stake_cents"] for p in outcome["settlement"]] == [90, -30, -60]


@pytest.mark.parametrize(
    ("contract", "points", "knocks", "expected"),
    [
        ("zweier", 46, 0, 6),  # the text's example: 11 over → 15 → 3 × 2
        ("dreier", 36, 0, 1),  # the least win
        ("dreier", 40, 0, 1),  # exactly 5 over is one five
        ("dreier", 41, 0, 2),  # started fives count ("niemals abgerundet")
        ("solo", 70, 0, 28),  # 35 over → 7 × 4
        ("einer", 36, 2, 12),  # two knocks: 1 × 3 × 4
        ("dreier", 35, 0, -1),  # 35:35 → opponents win at least one (DL-A7)
        ("zweier", 20, 1, -12),  # opponents 50: 15 over → 3 × 2 × 2
    ],
)
def test_game_points(contract: str, points: int, knocks: int, expected: int) -> None:
    assert game_points(contract, points, knocks, thirds=False, minimum=1) == expected


def test_minimum_option_and_thirds() -> None:
    assert game_points("dreier", 35, 0, thirds=False, minimum=0) == 0
    assert game_points("dreier", 107, 0, thirds=True, minimum=1) == 1  # 35⅔ wins
    assert game_points("dreier", 106, 0, thirds=True, minimum=1) == -1  # 35⅓ loses
    assert game_points("zweier", 138, 0, thirds=True, minimum=1) == 6  # 46 → 3 × 2


@pytest.mark.parametrize(
    ("pfeife", "expected"),
    [
        (Pfeife("declarer", announced=False, won=True), [2, -1, -1]),
        (Pfeife("declarer", announced=False, won=False), [-2, 1, 1]),
        (Pfeife("opponents", announced=False, won=True), [-2, 1, 1]),
        (Pfeife("opponents", announced=False, won=False), [2, -1, -1]),
        (Pfeife("declarer", announced=True, won=True), [4, -2, -2]),
        (Pfeife("declarer", announced=True, won=False), [-4, 2, 2]),
    ],
)
def test_pfeife_is_a_team_bonus_never_multiplied(pfeife: Pfeife, expected: list[int]) -> None:
    assert score_declarer_game(3, 0, 0, [], pfeife) == expected


def test_hand_bonuses_are_personal() -> None:
    # Bernd (seat 1) loses 3 to each; Anna holds the Drull, Catrin the four kings:
    # Anna 3 + 2 − 1 = 4, Bernd −6 − 1 − 1 = −8, Catrin 3 − 1 + 2 = 4
    settlement = score_declarer_game(3, 1, -3, [("drull", 0), ("vier_koenige", 2)], None)
    assert settlement == [4, -8, 4]


@pytest.mark.parametrize(
    ("points", "knocks", "value", "expected"),
    [
        ([30, 20, 14], 0, 2, [-4, 2, 2]),
        ([30, 20, 14], 2, 2, [-16, 8, 8]),
        ([25, 25, 14], 1, 2, [-2, -2, 4]),  # two tied: 1 × 2 each to the third
        ([22, 22, 22], 0, 2, [0, 0, 0]),  # three tied: nobody pays
        ([14, 20, 30], 0, 4, [4, 4, -8]),  # final-round Räuber worth 4
    ],
)
def test_raeuber(points: list[int], knocks: int, value: int, expected: list[int]) -> None:
    assert score_rauber(points, knocks, value)[0] == expected


def test_raeuber_deal_counts_each_pile_and_sets_the_blind_aside() -> None:
    deal = play(new_deal(), "pass", "pass", "pass", "knock", "pass", "pass")
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    outcome = deal.outcome()
    assert outcome is not None
    piles = [
        whole_count([c for t in outcome["tricks"] if t["winner"] == s for c in t["cards"]])
        for s in range(3)
    ]
    assert outcome["card_points"]["seats"] == [str(p) for p in piles]
    assert outcome["card_points"]["blind"] == str(
        whole_count(["KrC", "KrB", "Kr10", "Kr9", "Kr8", "Kr7"])
    )
    assert sum(piles) + int(outcome["card_points"]["blind"]) == 70
    top = max(piles)
    losers = [s for s in range(3) if piles[s] == top]
    assert outcome["losers"] == losers
    if len(losers) == 1:
        assert outcome["settlement"][losers[0]] == -2 * 2 * 2  # 2 × 2^1 to each of two
    assert outcome["premiums"] == []


def test_contract_table_holds_the_facts_of_every_game() -> None:
    rows = [CONTRACTS[name] for name in ("dreier", "zweier", "einer", "solo")]
    assert [(r.rank, r.value, r.talon, r.leader) for r in rows] == [
        (1, 1, 3, "declarer"),
        (2, 2, 2, "declarer"),
        (3, 3, 1, "declarer"),
        (4, 4, 0, "declarer"),
    ]
    raeuber = CONTRACTS["raeuber"]
    assert (raeuber.rank, raeuber.value, raeuber.leader, raeuber.declared) == (
        0,
        2,
        "vorhand",
        False,
    )
    assert raeuber.play_rules == ("pfeife_third_trick", "mond_on_skus", "pfeife_before_third_trick")
    assert (raeuber.knock, rows[0].knock) == ("each", "opponents")
    assert raeuber.factor is None and rows[3].factor == 4
    assert FACTORS == {"dreier": 1, "zweier": 2, "einer": 3, "solo": 4}


def test_modules_doctests() -> None:
    for module in (contracts_module, scoring_module, deal_module, errors_module):
        assert doctest.testmod(module).failed == 0


def test_outcome_codes_have_catalogue_keys() -> None:
    # The outcome carries codes only; the client says them with the catalogues:
    # ``contract.dreierles.<code>`` for every row and, in the game's own words,
    # ``result.dreierles.premium.<name>`` for every premium (web/static/js/games/dreierles.js).
    from server.api.i18n import load_catalogs

    messages = load_catalogs(LOCALE).messages
    record = json.loads((GOLDEN / "worked-example.json").read_text(encoding="utf-8"))
    outcome = load_record(record).outcome()
    assert outcome is not None
    assert [p["name"] for p in outcome["premiums"]] == [
        "zehn_trumpf", "vier_koenige", "pfeife_angesagt"]  # fmt: skip
    premiums = {"zehn_trumpf", "drull", "vier_koenige", "pfeife", "pfeife_angesagt"}
    for lang in ("de", "en"):
        for code in CONTRACTS:
            assert f"contract.dreierles.{code}" in messages[lang], (lang, code)
        for name in premiums:
            assert f"result.dreierles.premium.{name}" in messages[lang], (lang, name)
