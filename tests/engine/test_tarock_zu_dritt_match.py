"""The Tarock zu dritt Partie (TZ-A24, TZ-A25): dealer rotation, the Radl after a
Trischaken and a Fensterbankl, the Schlussradl to the first Vorhand or to the Gstieß,
the sheet, and random Partien through the match protocol."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine.base import Dealt
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.tarock_zu_dritt.deal import TarockZuDrittDeal
from server.engine.games.tarock_zu_dritt.match import TarockZuDrittMatch
from tests.engine.test_tarock_zu_dritt_deals import RULES, act, dealt_of

PLAYERS = ["Anna", "Bernd", "Clara"]
CONFIG: dict[str, Any] = {"rounds": 1, "first_dealer": 0, "stake_cents": 10}
# Vorhand holds the sixteen highest tarocks (a Solodreier Valat), see the scoring tests.
TOP = dealt_of(
    "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7",
    "T1 T2 T3 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA",
    "T4 T5 T6 Ka2 Ka3 Ka4 PK PD PC PB P10 P9 P8 P7 KrK KrD",
    "KrC KrB Kr10 Kr9 Kr8 Kr7",
)


def finish(deal: TarockZuDrittDeal, *texts: str) -> TarockZuDrittDeal:
    act(deal, *texts)
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    return deal


def solo_valat(match: TarockZuDrittMatch) -> None:
    """Vorhand plays a Solodreier and takes every trick: +23 from each opponent."""
    match.record(finish(match.start_deal(TOP), "bid solodreier", "pass", "pass", "liege",
                        "gut", "gut", "gut"))  # fmt: skip


def trischaken(match: TarockZuDrittMatch) -> int:
    deal = finish(match.start_deal(TOP), "vorhand", "pass", "pass", "bid trischaken")
    match.record(deal)
    outcome = deal.outcome()
    assert outcome is not None
    return int(outcome["settlement"][0])


def test_the_match_needs_three_people() -> None:
    with pytest.raises(MalformedError):
        TarockZuDrittMatch(["A", "B", "C", "D"])
    with pytest.raises(MalformedError):
        TarockZuDrittMatch(PLAYERS, rounds=0)


def test_the_deal_passes_to_the_right_and_the_schlussradl_counts_double() -> None:
    match = TarockZuDrittMatch.from_config(PLAYERS, CONFIG)
    setups = []
    while not match.finished:
        setup = match.next_setup()
        setups.append((setup.dealer, setup.seats, setup.factor, setup.note))
        if len(setups) == 4:  # the sheet says when the Schlussradl has begun
            assert match.to_json()["lines"] == [{"code": "schlussradl", "factor": 2}]
        solo_valat(match)
    assert setups == [
        ("Anna", ("Bernd", "Clara", "Anna"), 1, None),
        ("Bernd", ("Clara", "Anna", "Bernd"), 1, None),
        ("Clara", ("Anna", "Bernd", "Clara"), 1, None),
        ("Anna", ("Bernd", "Clara", "Anna"), 2, "schlussradl"),
        ("Bernd", ("Clara", "Anna", "Bernd"), 2, "schlussradl"),
        ("Clara", ("Anna", "Bernd", "Clara"), 2, "schlussradl"),
    ]
    sheet = match.to_json()
    # Vorhand wins 46 each deal: Bernd, Clara, Anna, then doubled
    assert [r["values"]["Bernd"] for r in sheet["rows"]] == [46, -23, -23, 92, -46, -46]
    assert sheet["totals"] == {"Anna": 0, "Bernd": 0, "Clara": 0}
    assert sheet["finished"] and sheet["progress"] == {"done": 6, "of": 6}
    with pytest.raises(IllegalActionError):
        match.next_setup()


def test_a_trischaken_hangs_a_radl_over_the_next_round_and_radln_stack() -> None:
    match = TarockZuDrittMatch.from_config(PLAYERS, {**CONFIG, "rounds": 2})
    first = trischaken(match)
    assert match.next_setup().factor == 2 and match.next_setup().note == "radl"
    second = trischaken(match)  # deal 2, counted double, hangs another Radl
    assert match.to_json()["rows"][1]["factor"] == 2
    assert match.to_json()["rows"][1]["values"]["Clara"] == 2 * second
    # the sheet says what runs: two Radln over the next deal, the second for three deals
    assert match.to_json()["lines"] == [{"code": "radl", "factor": 4, "deals": 3}]
    factors = [match.next_setup().factor]
    solo_valat(match)
    factors.append(match.next_setup().factor)
    solo_valat(match)
    factors.append(match.next_setup().factor)
    solo_valat(match)
    factors.append(match.next_setup().factor)
    assert factors == [4, 4, 2, 1]
    assert match.to_json()["radl"] == {"factor": 1, "pending": [], "schlussradl": False}
    assert match.to_json()["lines"] == []
    assert first != 0


def test_skoty_trophy_radln_do_not_stack() -> None:
    match = TarockZuDrittMatch.from_config(PLAYERS, {**CONFIG, "options": {"skoty": True}})
    trischaken(match)
    trischaken(match)
    assert match.next_setup().factor == 2


def test_schlussradl_to_the_gstiess() -> None:
    config = {**CONFIG, "schlussradl": "gstiess"}
    match = TarockZuDrittMatch.from_config(PLAYERS, config)
    for _ in range(3):
        solo_valat(match)
    # the Sküs was Vorhand's in deal 3: Anna's; Anna deals next anyway
    assert match.final_from == 3 and match.next_setup().factor == 2
    other = dealt_of(  # the Sküs with Mittelhand
        "T1 T2 T3 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA",
        "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7",
        "T4 T5 T6 Ka2 Ka3 Ka4 PK PD PC PB P10 P9 P8 P7 KrK KrD",
        "KrC KrB Kr10 Kr9 Kr8 Kr7",
    )
    match = TarockZuDrittMatch.from_config(PLAYERS, config)
    for dealt in (TOP, TOP, other):
        deal = match.start_deal(dealt)
        finish(deal, "bid dreier", "pass", "pass")
        match.record(deal)
    # deal 3: Clara deals, Anna is Vorhand, Bernd Mittelhand holds the Sküs: Bernd deals deal 5
    assert match.final_from == 4 and match.total_deals == 7
    assert [match.next_setup().factor] == [1]


def recovered(deals: list[TarockZuDrittDeal], config: dict[str, Any]) -> TarockZuDrittMatch:
    match = TarockZuDrittMatch.from_config(PLAYERS, config)
    for deal in deals:
        again = match.start_deal(deal.dealt)
        for seat, text in deal.actions():
            again.act(seat, text)
        match.record(again)
    return match


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_partien_through_the_protocol(seed: int) -> None:
    for config in ({**CONFIG, "rounds": 2}, {**CONFIG, "schlussradl": "gstiess"}):
        rng = random.Random(seed)
        match = TarockZuDrittMatch.from_config(PLAYERS, config)
        deals: list[TarockZuDrittDeal] = []
        while not match.finished:
            deal = match.start_deal(RULES.shuffle_and_deal(rng))
            while not deal.finished:
                legal = deal.legal_texts()
                pick = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
                deal.act(None, pick)
            match.record(deal)
            deals.append(deal)
            sheet = match.to_json()
            row = sheet["rows"][-1]
            assert sum(row["values"].values()) == 0
            outcome = deal.outcome()
            assert outcome is not None
            seats = deal.seat_names
            assert row["values"] == {
                seats[s]: outcome["settlement"][s] * row["factor"] for s in range(3)
            }
            assert sheet["totals"] == {
                p: sum(r["values"][p] for r in sheet["rows"]) for p in PLAYERS
            }
            assert sum(match.balances_cents().values()) == 0
        assert recovered(deals, config).to_json() == match.to_json()


def test_a_wrong_deal_is_not_written() -> None:
    match = TarockZuDrittMatch.from_config(PLAYERS, CONFIG)
    deal = RULES.new_deal(Dealt(TOP.hands, TOP.talon))
    with pytest.raises(IllegalActionError):
        match.record(deal)


def test_a_fensterbankl_hangs_a_radl_too() -> None:
    match = TarockZuDrittMatch.from_config(PLAYERS, CONFIG)
    deal = finish(match.start_deal(TOP), "bid solodreier", "pass", "pass", "liege",
                  "gut", "gut", "gut")  # fmt: skip
    played = deal.outcome()
    assert played is not None
    # a deal settled with zero for everybody (here: the settlement set to zero)
    setattr(deal, "outcome", lambda: {**played, "settlement": [0, 0, 0]})  # noqa: B010
    match.record(deal)
    assert match.next_setup().factor == 2 and match.to_json()["radl"]["pending"] == [3]
