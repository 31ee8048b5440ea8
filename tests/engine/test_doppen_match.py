"""The Pagatkasse and the Doppen Partie (DP-A17, DP-A19, DP-A20, DP-A24): the rules text's
worked Kasse example, the sheet, the pairwise settlement, the Kasse split, and whole
random Partien through the match."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine.base import JSON
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppen import Doppen, DoppenDeal
from server.engine.games.doppen.kasse import PagatKasse
from server.engine.games.doppen.match import DoppenMatch, pairwise
from server.engine.games.doppen.outcome import thrown_in
from server.engine.games.doppen.scoring import settlement
from tests.engine.test_doppen_deals import D1, dealt

PLAYERS = ("Anne", "Bert", "Clara")


# --------------------------------------------------------------------------- the worked example


def test_the_worked_kasse_example_of_the_rules_text() -> None:
    kasse = PagatKasse(PLAYERS, base=100)  # "Der Grundbetrag sei auf 1 Euro festgesetzt"
    assert kasse.empty
    kasse.fill()  # each records «1»
    assert kasse.column == 100 and kasse.content() == 300
    kasse.all_pass()  # nobody plays: the Kasse column goes up to 1,50
    assert kasse.column == 150
    assert kasse.pagat_lost("Bert") == 450  # 4,50 at the foot of Bert's column
    assert kasse.individual == {"Anne": 0, "Bert": 450, "Clara": 0}
    assert kasse.content() == 900  # "Effektiv sind nun 9,00 Euro in der Kasse"
    assert kasse.payout("Anne") == {"Bert": 600, "Clara": 150}
    assert kasse.payout("Anne", factor=2) == {"Bert": 1200, "Clara": 300}  # kontriert
    assert kasse.pagat_won("Anne") == {"Bert": 600, "Clara": 150}
    assert kasse.empty and kasse.individual == {"Anne": 0, "Bert": 0, "Clara": 0}


class ScriptedDeal(DoppenDeal):
    """A deal whose outcome the test sets (the match only reads finished outcomes)."""

    scripted: JSON

    def outcome(self) -> JSON | None:
        return self.scripted


def scripted(match: DoppenMatch, outcome: JSON) -> DoppenDeal:
    setup = match.next_setup()
    deal = ScriptedDeal(Doppen(), dealt(D1), dict(setup.options), setup.seats, setup.dealer)
    deal.scripted = outcome
    return deal


def game(seats: tuple[str, ...], declarer: str, amount: int, kasse: JSON | None = None) -> JSON:
    seat = seats.index(declarer)
    return {"contract": "dreier", "declarer": seat, "per_opponent": amount,
            "settlement": settlement(3, seat, amount), "kasse": kasse}  # fmt: skip


def pots(match: DoppenMatch) -> list[tuple[str, int, str]]:
    return [(m.player, m.amount, m.reason) for m in match.pots_of_last_deal()]


@pytest.mark.parametrize("factor", [1, 2])
def test_the_worked_example_through_the_partie(factor: int) -> None:
    match = DoppenMatch(PLAYERS, deals=4, stake_cents=2, kasse_base_cents=100)
    match.record(scripted(match, thrown_in()))
    assert pots(match) == [
        *((p, 100, "kasse_fill") for p in PLAYERS),
        *((p, 50, "kasse_all_pass") for p in PLAYERS),
    ]
    seats = match.next_setup().seats
    assert seats == ("Clara", "Anne", "Bert")  # the old Vorhand deals
    lost = {"event": "pagat_lost", "seat": seats.index("Bert"), "factor": 1}
    match.record(scripted(match, game(seats, "Bert", -30, lost)))
    assert pots(match) == [("Bert", 450, "pagat_lost")]
    assert match.kasse.content() == 900
    assert match.to_json()["lines"] == [{"code": "cents"}, {"code": "kasse", "cents": 900}]
    assert match.columns == {"Anne": 0, "Bert": -60, "Clara": 0}
    seats = match.next_setup().seats
    won = {"event": "pagat_won", "seat": seats.index("Anne"), "factor": factor}
    match.record(scripted(match, game(seats, "Anne", 25, won)))
    # Anne takes the Kasse's 9,00 € out; with Kontra Bert and Clara pay as much again as
    # they recorded (6,00 and 1,50) in first, and Anne takes that too
    kontra = [("Bert", 600, "pagat_won_kontra"), ("Clara", 150, "pagat_won_kontra")]
    assert pots(match) == [*(kontra if factor == 2 else []),
                           ("Anne", -900 - 750 * (factor - 1), "pagat_won")]  # fmt: skip
    assert match.kasse.empty and match.last_ledger().pots == {"pagatkasse": 0}
    # "dann zahlt ihr Bert 6,00 (4,50 plus 1,50) und Clara 1,50"; kontriert 12,00 and 3,00:
    # the ledger's money is the games' pairwise settlement and the Kasse's payments
    games = pairwise(match.columns)
    assert {p: match.ledger.money[p] - games[p] for p in PLAYERS} == {
        "Anne": 750 * factor, "Bert": -600 * factor, "Clara": -150 * factor}  # fmt: skip
    row = match.to_json()["rows"][-1]
    assert row["values"] == {"Anne": 50, "Bert": 0, "Clara": 0}
    assert row["totals"] == {"Anne": 50, "Bert": -60, "Clara": 0}
    # the last deal: the Kasse is filled again, then split at the end of the Partie
    match.record(scripted(match, thrown_in()))
    assert [r for _p, _a, r in pots(match)] == ["kasse_fill"] * 3 + ["kasse_all_pass"] * 3 + [
        "kasse_split"
    ] * 3
    assert match.finished and match.kasse.empty
    # pairwise: Anne 2·50 − (−60) = 160, Bert 2·(−60) − 50 = −170, Clara 0 − (−10) = 10
    assert pairwise(match.columns) == {"Anne": 160, "Bert": -170, "Clara": 10}
    balances = match.balances_cents()
    assert balances == {"Anne": 160 + 750 * factor, "Bert": -170 - 600 * factor,
                        "Clara": 10 - 150 * factor}  # fmt: skip
    assert sum(balances.values()) == 0
    sheet = match.to_json()
    assert sheet["finished"] and sheet["progress"] == {"done": 4, "of": 4}
    assert sheet["lines"] == [{"code": "cents"}, {"code": "kasse", "cents": 0}]  # split
    assert sum(p["cents"] for p in sheet["payments"]) == 160 + 750 * factor


def test_a_lost_kontriertes_pagat_records_double_the_content() -> None:
    match = DoppenMatch(PLAYERS, deals=3, kasse_base_cents=200)
    seats = match.next_setup().seats
    lost = {"event": "pagat_lost", "seat": seats.index("Clara"), "factor": 2}
    match.record(scripted(match, game(seats, "Clara", -10, lost)))
    assert pots(match)[-1] == ("Clara", 1200, "pagat_lost")  # 3 × 2,00 × 2
    assert match.pots() == {"pagatkasse": {"Anne": 200, "Bert": 200, "Clara": 1400}}


def test_the_kasse_split_at_the_end_pays_in_and_shares_out() -> None:
    match = DoppenMatch(PLAYERS, deals=2, stake_cents=0, kasse_base_cents=100)
    seats = match.next_setup().seats
    lost = {"event": "pagat_lost", "seat": seats.index("Bert"), "factor": 1}
    match.record(scripted(match, game(seats, "Bert", 0, lost)))
    match.record(scripted(match, thrown_in()))
    # recorded: 150 each and Bert 300 more; content 750, 250 each
    split = [m for m in match.pots_of_last_deal() if m.reason == "kasse_split"]
    assert [(m.player, m.amount) for m in split] == [("Anne", -250), ("Bert", -250),
                                                     ("Clara", -250)]  # fmt: skip
    assert match.balances_cents() == {"Anne": 100, "Bert": -200, "Clara": 100}
    assert match.ledger.money == match.balances_cents()


# --------------------------------------------------------------------------- four players


def test_four_players_the_dealer_sits_out_and_counts_to_the_opponents() -> None:
    players = ("Anne", "Bert", "Clara", "Dora")
    match = DoppenMatch(players, deals=4, stake_cents=1)
    setup = match.next_setup()
    assert (setup.dealer, setup.sitting_out) == ("Anne", "Anne")
    assert setup.seats == ("Bert", "Clara", "Dora")
    match.record(scripted(match, game(setup.seats, "Clara", 10)))
    # the Kasse (100 from each) would split evenly: only the game counts
    assert match.balances_cents() == {"Anne": -10, "Bert": -10, "Clara": 30, "Dora": -10}
    setup = match.next_setup()
    assert (setup.dealer, setup.seats) == ("Bert", ("Clara", "Dora", "Anne"))
    # the deal's money in the ledger charges the sitting-out dealer too
    entries = match.last_ledger().entries
    assert {e.player: e.cents for e in entries} == {
        "Anne": -10, "Bert": -10, "Clara": 30, "Dora": -10}  # fmt: skip
    assert [e.player for e in entries if e.sitting_out] == ["Anne"]
    match.record(scripted(match, thrown_in()))
    assert {e.player: e.cents for e in match.last_ledger().entries} == dict.fromkeys(players, 0)


def test_balances_before_the_end_include_the_kasse_as_if_split_now() -> None:
    match = DoppenMatch(PLAYERS, deals=6, stake_cents=1)
    match.record(scripted(match, thrown_in()))
    assert match.balances_cents() == {"Anne": 0, "Bert": 0, "Clara": 0}
    assert match.pots() == {"pagatkasse": {"Anne": 150, "Bert": 150, "Clara": 150}}


# --------------------------------------------------------------------------- config and protocol


def test_from_config_and_bad_configs() -> None:
    config: dict[str, Any] = {
        "rounds": 6,
        "first_dealer": 1,
        "stake_cents": 4,
        "kasse_base_cents": 200,
        "options": {"table_signal": False},
    }
    match = DoppenMatch.from_config(PLAYERS, config)
    assert (match.deals, match.first_dealer, match.stake_cents, match.kasse.base) == (6, 1, 4, 200)
    assert match.next_setup().dealer == "Bert"
    assert match.next_setup().options == {"table_signal": False, "take_back": False}
    default = DoppenMatch.from_config(PLAYERS, {"rounds": 12, "first_dealer": 0, "stake_cents": 2})
    assert default.kasse.base == 100 and default.deals % 3 == 0
    with pytest.raises(MalformedError):
        DoppenMatch(("A", "B"))
    with pytest.raises(MalformedError):
        DoppenMatch(PLAYERS, deals=0)
    with pytest.raises(MalformedError):
        DoppenMatch(PLAYERS, kasse_base_cents=75)
    with pytest.raises(MalformedError):
        DoppenMatch.from_config(PLAYERS, {**config, "kasse_base_cents": 300})


@pytest.mark.parametrize("players", [PLAYERS, ("Anne", "Bert", "Clara", "Dora")])
def test_random_partien_keep_the_books(players: tuple[str, ...]) -> None:
    rng = random.Random(f"doppen-match-{len(players)}")
    for _ in range(5):
        match = DoppenMatch(players, deals=12, stake_cents=2, kasse_base_cents=100)
        cents = dict.fromkeys(players, 0)
        while not match.finished:
            deal = match.start_deal(match.rules.shuffle_and_deal(rng))
            while not deal.finished:
                seat, move = deal.random_action(rng)
                deal.apply(move, seat)
            match.record(deal)
            for entry in match.last_ledger().entries:
                cents[entry.player] += entry.cents
            assert all(pot.pot == "pagatkasse" for pot in match.pots_of_last_deal())
            assert match.ledger.pot_balances["pagatkasse"] == match.kasse.content()
            assert sum(match.ledger.money.values()) + match.kasse.content() == 0
            assert sum(match.balances_cents().values()) == 0
        assert match.ledger.pot_balances == {"pagatkasse": 0}  # split at the end
        # the deals' money adds up to the sheet's pairwise settlement, a sitting-out
        # dealer's share included (DP-A19, DP-A20)
        assert cents == pairwise(match.columns)
        sheet = match.to_json()
        assert sheet["finished"] and len(sheet["rows"]) == 12
        for row in sheet["rows"]:
            entries = [v for v in row["values"].values() if v]
            assert len(entries) <= 1  # only the declarer's column changes
        balances = match.balances_cents()
        pays = sum(p.cents for p in match.settlement())
        assert pays == sum(v for v in balances.values() if v > 0)


def test_a_deal_not_set_up_by_the_match_is_refused() -> None:
    match = DoppenMatch(PLAYERS)
    with pytest.raises(IllegalActionError) as info:
        match.record(Doppen().new_deal(dealt(D1)))
    assert info.value.code == "deal_not_finished"
    deal = Doppen().new_deal(dealt(D1), None, ("Anne", "Bert", "Clara"), "Clara")
    for text in ("pass", "pass", "pass"):
        deal.act(deal.to_move, text)
    with pytest.raises(IllegalActionError) as info:
        match.record(deal)  # the match's first deal is Anne's: Bert, Clara, Anne
    assert info.value.code == "wrong_deal"
