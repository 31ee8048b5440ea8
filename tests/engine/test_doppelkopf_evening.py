"""The Doppelkopf evening: count-down sheet, Pflichtsolo, Vorführung, end, Kurzer, Depot."""

from __future__ import annotations

import random

import pytest

from server.engine.base import Dealt
from server.engine.cards import DOPPELKOPF
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppelkopf import DoppelkopfDeal
from server.engine.games.doppelkopf.evening import DoppelkopfEvening
from tests.engine.doppelkopf_deals import SEATS, D, play

D_DEALT = Dealt(tuple(DOPPELKOPF.mask(h) for h in D), ())


def evening(**kwargs: object) -> DoppelkopfEvening:
    """Ute, Paul, Rita, Olaf clockwise; Olaf deals first, so the seats are those of D."""
    return DoppelkopfEvening(SEATS, first_dealer=3, **kwargs)  # type: ignore[arg-type]


def finish(deal: DoppelkopfDeal, rng: random.Random) -> DoppelkopfDeal:
    while not deal.finished:
        deal.apply(rng.choice([m for m in deal.legal_moves() if m < 48]))
    return deal


def solo_deal(ev: DoppelkopfEvening, won: bool, solo: str = "damen") -> DoppelkopfDeal:
    """Paul (P2) declares ``solo``; random play until the solo is won (or lost)."""
    for seed in range(500):
        deal = play(ev.start_deal(D_DEALT), "gesund", f"solo {solo}", "gesund", "gesund")
        finish(deal, random.Random(seed))
        outcome = deal.outcome()
        assert outcome is not None
        if (outcome["winner"] == "re") == won and outcome["value"] > 0:
            return deal
    raise AssertionError("no such deal")


def test_count_down_only_the_winners_counters_move() -> None:
    ev = evening()
    deal = finish(play(ev.start_deal(D_DEALT), "hochzeit erster", "gesund", "gesund", "gesund"),
                  random.Random(1))  # fmt: skip
    row = ev.record(deal)
    for name, pts in row.points.items():
        assert ev.counters[name] == 30 - max(pts, 0)
    assert sum(row.points.values()) == 0
    assert ev.next_setup().dealer == "Ute"  # a normal game: the deal passes to the left


def test_won_voluntary_solo_obliges_the_others_and_the_dealer_deals_again() -> None:
    ev = evening()
    row = ev.record(solo_deal(ev, won=True))
    assert row.note == "lustsolo"
    assert row.points["Paul"] == 3 * row.value
    assert ev.counters["Paul"] == 30 - 3 * row.value
    assert ev.obligations == {"Ute": ["damen"], "Paul": [], "Rita": ["damen"], "Olaf": ["damen"]}
    assert ev.next_setup().dealer == "Olaf"  # same dealer after a solo


def test_lost_solo_is_replayed_at_once() -> None:
    ev = evening()
    row = ev.record(solo_deal(ev, won=False))
    assert row.points["Paul"] == -3 * row.value and ev.counters["Paul"] == 30
    setup = ev.next_setup()
    assert setup.note == "replay"
    assert setup.options["pflichtsolo"] == "1:damen" and setup.options["pflichtsolo_lead"] == (
        "soloist")  # fmt: skip
    deal = ev.start_deal(D_DEALT)
    assert (deal.phase, deal.contract, deal.declarer, deal.to_move) == ("play", "damen", 1, 1)


def test_owed_solo_declared_voluntarily_discharges_the_obligation() -> None:
    ev = evening()
    ev.obligations["Paul"] = ["damen"]
    row = ev.record(solo_deal(ev, won=True))
    assert row.note == "pflichtsolo"
    assert ev.obligations["Paul"] == [] and ev.obligations["Ute"] == []


def test_vorfuehrung_when_a_counter_falls_below_six() -> None:
    ev = evening(start_points=5)  # every counter is below 6 from the start
    ev.obligations["Rita"] = ["buben"]
    assert ev.next_setup().note is None  # the Vorführung starts after a deal is written
    ev.record(finish(play(ev.start_deal(D_DEALT), *("gesund",) * 4), random.Random(3)))
    assert ev.vorfuehrung
    setup = ev.next_setup()
    assert setup.note == "vorfuehrung"
    assert setup.options["pflichtsolo"] == f"{setup.seats.index('Rita')}:buben"
    assert setup.options["pflichtsolo_lead"] == "p1"
    deal = ev.start_deal(D_DEALT)
    assert deal.to_move == 0 and deal.declarer == setup.seats.index("Rita")


def test_end_waits_for_owed_solos() -> None:
    ev = evening(max_deals=1)
    row = ev.record(solo_deal(ev, won=True))
    assert row.number == 1 and ev.end_requested
    assert not ev.finished  # three Damensoli are owed
    setup = ev.next_setup()
    assert setup.note == "vorfuehrung" and setup.options["pflichtsolo_lead"] == "p1"
    assert setup.options["pflichtsolo"] == "0:damen"  # Ute sits left of the dealer


def test_kurzer_and_depot() -> None:
    ev = evening(kurzer_limit=2)
    row = ev.record(solo_deal(ev, won=True))
    assert row.kurzer == (3 * row.value > 2)
    ev.counters = {"Ute": 12, "Paul": 3, "Rita": 12, "Olaf": 20}
    assert ev.placings() == {"Paul": 1, "Ute": 2, "Rita": 2, "Olaf": 4}
    assert ev.depot() == {"Paul": 50, "Ute": 100, "Rita": 100, "Olaf": 200}


def test_a_random_evening_runs_to_its_end() -> None:
    rng = random.Random(42)
    ev = DoppelkopfEvening(SEATS, max_deals=40, max_solo_replays=2)
    played = 0
    while not ev.finished and played < 400:
        deal = ev.start_deal(ev.rules.shuffle_and_deal(rng))
        while not deal.finished:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        ev.record(deal)
        played += 1
    assert ev.finished
    sheet = ev.to_json()
    won = {p: sum(max(r["points"][p], 0) for r in sheet["rows"]) for p in SEATS}
    assert sheet["counters"] == {p: 30 - won[p] for p in SEATS}
    assert all(not s for s in sheet["obligations"].values())
    assert sorted(sheet["placings"].values())[0] == 1


def test_bad_evening_settings_and_foreign_deals() -> None:
    with pytest.raises(MalformedError):
        DoppelkopfEvening(SEATS[:3])
    ev = evening()
    deal = ev.start_deal(D_DEALT)
    with pytest.raises(IllegalActionError) as err:
        ev.record(deal)
    assert err.value.code == "deal_not_finished"


def test_the_evening_from_a_stored_config() -> None:
    config: dict[str, object] = {"rounds": 1, "first_dealer": 3, "stake_cents": 10,
                                 "options": {}}  # fmt: skip
    ev = DoppelkopfEvening.from_config(SEATS, config)
    assert (ev.start_points, ev.max_deals, ev.kurzer_limit, ev.depot_cents) == (30, 1, 7, 50)
    quiet = DoppelkopfEvening.from_config(
        SEATS, {**config, "depot_cents": 0, "kurzer_limit": 0, "start_points": 20}
    )
    assert (quiet.start_points, quiet.kurzer_limit, quiet.depot_cents) == (20, None, None)
    deal = finish(play(quiet.start_deal(D_DEALT), "hochzeit erster", "gesund", "gesund",
                       "gesund"), random.Random(1))  # fmt: skip
    row = quiet.record(deal)
    assert quiet.finished and not row.kurzer  # one deal, no Kurzer without a limit
    assert quiet.pots_of_last_deal() == [] and quiet.pots() == {}  # no Depot
    assert quiet.to_json()["start"] == dict.fromkeys(SEATS, 20)
    with pytest.raises(MalformedError):
        DoppelkopfEvening.from_config(SEATS, {**config, "start_points": 31})


def test_the_sheet_says_what_is_owed_and_when_the_vorfuehrung_comes() -> None:
    """What the table reads at the Vorbehalt (issue 28): each player's owed solos and the
    counter below which the Vorführung plays them (0: only at the evening's end)."""
    ev = evening()
    ev.record(solo_deal(ev, won=True))
    sheet = ev.to_json()
    assert sheet["obligations"] == {"Ute": ["damen"], "Paul": [], "Rita": ["damen"],
                                    "Olaf": ["damen"]}  # fmt: skip
    assert (sheet["vorfuehrung_below"], sheet["vorfuehrung"]) == (6, False)
    assert evening(vorfuehrung_below=0).to_json()["vorfuehrung_below"] == 0
