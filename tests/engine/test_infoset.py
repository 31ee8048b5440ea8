"""The information-set oracle (``server/engine/infoset.py``): a view is a function of what
its viewer may know, checked against deals that differ only in what is hidden from it.

Every implemented game goes through it (a new game in the registry is picked up here), over
a thousand random deals and every golden record. Leaks planted on purpose must be found,
and the situations it found in Doppelkopf are pinned down as scenarios.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from server.engine.base import JSON, Deal, Rules
from server.engine.cards import DOPPELKOPF, TAROCK
from server.engine.games.doppelkopf import Doppelkopf, DoppelkopfDeal
from server.engine.games.doppelkopf.contracts import NORMAL_TRUMPS
from server.engine.games.dreierles import Dreierles, DreierlesDeal
from server.engine.infoset import Alternative, InfosetOracle, Leak, first_difference
from server.engine.playout import run_playouts
from server.engine.record import load_record
from server.engine.registry import playable
from tests.engine import doppelkopf_deals as dk
from tests.engine import dreierles_deals as dl
from tests.engine.test_stille_hochzeit_views import P2_BOTH

GAMES = playable()
GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*/*.json"))
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)


def card(code: str, pack: Any = DOPPELKOPF) -> int:
    index: int = pack.parse(code)
    return index


def rules_with(base: type[Rules[Any]], deal_class: type[Deal]) -> Rules[Any]:
    """``base``'s rules, but its deals are ``deal_class`` (to plant a leak)."""

    class Planted(base):  # type: ignore[misc, valid-type]
        def deal_type(self) -> type[Deal]:
            return deal_class

    rules: Rules[Any] = Planted()
    return rules


def oracle_of(rules: Rules[Any], deal: Deal) -> InfosetOracle:
    """The oracle of ``deal``'s record, replayed with ``rules``."""
    return InfosetOracle(rules, deal.dealt, deal.options, deal.seat_names, deal.dealer,
                         deal.actions())  # fmt: skip


# ---------------------------------------------------------------- every game, many deals


@pytest.mark.parametrize("game", GAMES)
def test_a_thousand_random_deals_through_the_oracle(game: str) -> None:
    report = run_playouts(game, 1000, seed=20261123, check=False, oracle=True)
    assert report.failures == []
    # the alternatives were compared, not only dropped: about 30 views each
    assert report.alternatives >= 1000 * 10
    assert report.comparisons >= 15 * report.alternatives


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_records_through_the_oracle(path: Path) -> None:
    deal = load_record(json.loads(path.read_text(encoding="utf-8")))
    oracle = InfosetOracle.of(deal)
    assert oracle.check(random.Random(path.stem), swaps=6, shuffles=2, choices=3) == []
    assert oracle.comparisons > 0


def test_random_armut_and_hochzeit_deals_through_the_oracle() -> None:
    """Random play seldom reaches these: here a holder of both Kreuz Damen announces a
    Hochzeit, or a player with three trumps or fewer Armut (taken more often than not)."""
    rules = Doppelkopf()
    both_cq = DOPPELKOPF.kind_mask["CQ"]
    played = {"armut": 0, "hochzeit": 0}
    i = 0
    while min(played.values()) < 40:
        i += 1
        rng = random.Random(f"reservation:{i}")
        dealt = rules.shuffle_and_deal(rng)
        hochzeit = [s for s, hand in enumerate(dealt.hands) if hand & both_cq == both_cq]
        poor = [s for s, hand in enumerate(dealt.hands) if (hand & NORMAL_TRUMPS).bit_count() < 4]
        if hochzeit and played["hochzeit"] < 40:
            word = rng.choice(["erster", "herz", "pik", "kreuz", "trumpf"])
            seat, said = hochzeit[0], f"hochzeit {word}"
        elif poor and played["armut"] < 40:
            seat, said = poor[0], "armut"
        else:
            continue
        played[said.split()[0]] += 1
        deal = rules.new_deal(dealt)
        for s in range(4):
            deal.act(s, said if s == seat else "gesund")
        while not deal.finished:
            if deal.phase == "offer" and rng.random() < 0.6:
                deal.act(deal.to_move, "take")
            else:
                actor, move = deal.random_action(rng)
                deal.apply(move, actor)
        assert InfosetOracle.of(deal).check(rng, choices=3) == [], (i, said)


def test_every_frame_of_a_deal_alone() -> None:
    """As the server tests use it: one viewer, one position, compared there only."""
    rules = Doppelkopf()
    rng = random.Random(8)
    deal = rules.new_deal(rules.shuffle_and_deal(rng))
    while not deal.finished:
        seat, move = deal.random_action(rng)
        deal.apply(move, seat)
    oracle = InfosetOracle.of(deal)
    frames = 0
    for position in range(len(deal.history)):
        for viewer in VIEWERS:
            assert oracle.check(random.Random(position), [viewer], at=position) == []
            frames += 1
    assert oracle.comparisons > 2 * frames  # most alternatives reach their position


# ---------------------------------------------------------------- leaks planted on purpose


class OldStilleHochzeitView(DoppelkopfDeal):
    """The stille Hochzeit view before the fix: the contract was hidden from the others
    only while ``parties[0]`` was ``None``, tested after the viewer's own party had been
    filled in (and true for everybody once P1 played a Kreuz Dame)."""

    def view(self, seat: int | None) -> JSON:
        view = super().view(seat)
        parties = self.public_parties()
        if seat is not None and parties[seat] is None:
            parties[seat] = self.own_party(seat)
        if self.contract == "stille_hochzeit" and self.phase == "play":
            view["contract"] = "normal" if parties[0] is None else "stille_hochzeit"
        return view


def test_the_oracle_finds_the_old_stille_hochzeit_leak_p1_sees_it() -> None:
    """P2 holds both Kreuz Damen and says "gesund": P1 was told at once."""
    deal = dk.play(dk.new_deal(P2_BOTH), *dk.ALL_GESUND, "play SQ")
    old = oracle_of(rules_with(Doppelkopf, OldStilleHochzeitView), deal)
    # P3 could hold a Kreuz Dame just as well: then it is a normal game
    split = old.swap(0, card("CQ.2"), card("SJ.1"))
    [leak] = old.run([split])
    assert (leak.viewer, leak.position, leak.key) == (0, 4, "view.contract")
    assert (leak.real, leak.alternative) == ("stille_hochzeit", "normal")
    assert "swap CQ.2 (Paul's hand) and SJ.1 (Rita's hand)" in str(leak)
    assert old.check(random.Random(1), [0]), "sampled alternatives find it too"
    fixed = InfosetOracle.of(deal)
    assert fixed.run([fixed.swap(0, card("CQ.2"), card("SJ.1"))]) == []
    assert fixed.comparisons == 6  # positions 0 … 5 compared


def test_the_oracle_finds_the_old_stille_hochzeit_leak_p1_leads_a_kreuz_dame() -> None:
    """P1 holds both and leads one: every other seat and the spectator were told."""
    deal = dk.play(dk.new_deal(dk.D), *dk.ALL_GESUND, "play CQ", "play SQ")
    old = oracle_of(rules_with(Doppelkopf, OldStilleHochzeitView), deal)
    for viewer in (1, 2, 3, None):
        # the other Kreuz Dame could be P4's (swapped with one of P3's cards for seat 3)
        other = card("SJ.1") if viewer == 3 else card("HJ.1")
        [leak] = old.run([old.swap(viewer, card("CQ.2"), other)])
        assert (leak.position, leak.key, leak.real) == (5, "view.contract", "stille_hochzeit")
        assert leak.after == "play CQ"
        fixed = InfosetOracle.of(deal)
        assert fixed.run([fixed.swap(viewer, card("CQ.2"), other)]) == []


class RealCopies(DoppelkopfDeal):
    """Tricks show which copy the engine took: the lower one its player held."""

    _shown_trick = DoppelkopfDeal._trick_json


def test_the_oracle_finds_copies_that_tell_a_hand() -> None:
    """P2 plays his only Herz 10; as "H10.2" it told the table he held no other."""
    deal = dk.play(dk.new_deal(), "solo trumpf", *("gesund",) * 3, "play DA", "play H10")
    old = oracle_of(rules_with(Doppelkopf, RealCopies), deal)
    # the same deal with the two Herz 10 (one card to the players) the other way round
    [leak] = old.run([old.swap(2, card("H10.1"), card("H10.2"))])
    assert (leak.position, leak.key) == (6, "view.trick.cards[1]")
    assert (leak.real, leak.alternative) == ("H10.2", "H10.1")
    fixed = InfosetOracle.of(deal)
    assert fixed.run([fixed.swap(2, card("H10.1"), card("H10.2"))]) == []


class OpenReservations(DoppelkopfDeal):
    """The view shows every reservation as it was said."""

    def view(self, seat: int | None) -> JSON:
        return {**super().view(seat), "reservations": list(self.reservations)}


def test_the_oracle_finds_a_masked_reservation_in_the_view() -> None:
    deal = dk.play(dk.new_deal(), "gesund", "solo damen", "gesund")
    old = oracle_of(rules_with(Doppelkopf, OpenReservations), deal)
    leaks = old.check(random.Random(2), [2], swaps=0, shuffles=0, choices=1)
    assert [(leak.position, leak.key) for leak in leaks] == [(2, "view.reservations[1]")]
    assert "replace action 1 'solo damen' by" in leaks[0].what


class TalonGossip(DreierlesDeal):
    """Everybody is told how many trumps lie in the blind."""

    def view_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        shared, own = super().view_parts(seat)
        trumps = sum(1 for c in self.talon if TAROCK.cards[c].suit == "T")
        return shared, {**own, "blind_trumps": trumps}


def test_the_oracle_finds_a_dreierles_blind_leak() -> None:
    deal = dl.play(dl.new_deal(), "pass")
    old = oracle_of(rules_with(Dreierles, TalonGossip), deal)
    swap = old.swap(None, card("Kr7", TAROCK), card("T5", TAROCK))  # blind ↔ Anna's hand
    [leak] = old.run([swap])
    assert (leak.viewer, leak.position, leak.key) == (None, 0, "own.blind_trumps")
    assert (leak.real, leak.alternative) == (0, 1)
    assert "talon[5]" in leak.what


class DiscardGossip(DreierlesDeal):
    """The opponents are told the card points of the declarer's discards."""

    def view_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        shared, own = super().view_parts(seat)
        return shared, {**own, "discard_points": TAROCK.points_of(self.discards)}


def test_the_oracle_finds_a_discard_told_by_its_points() -> None:
    deal = dl.play(dl.new_deal(), "bid dreier", "pass", "pass", "discard HD", "discard PD")
    old = oracle_of(rules_with(Dreierles, DiscardGossip), deal)
    assert old.masked[3] == (1, 2, None)  # the opponents and the spectator see "discard"
    kinds = (1 << card("HD", TAROCK), 1 << card("HC", TAROCK))
    other = Alternative(1, old.dealt, kinds, "discard HC instead", (3, "discard HC"))
    [leak] = old.run([other])
    assert (leak.position, leak.key, leak.real, leak.alternative) == (
        4, "own.discard_points", 4, 3)  # fmt: skip
    assert InfosetOracle.of(deal).run([other]) == []


# ---------------------------------------------------------------- what the table may learn


def test_a_shown_schweinchen_places_the_second_karo_ass() -> None:
    """P1 knocked with both Karo Assen and plays one: the table knows where the other is,
    so a deal in which P3 holds it is no longer one the others cannot tell apart."""
    deal = dk.play(dk.new_deal(), *dk.ALL_GESUND, "0: knock", "play DA")
    assert deal.view(2)["schweinchen"] == 0
    da2 = card("DA.2")
    assert deal.hidden_from(2) >> da2 & 1 and not deal.unplaced_for(2) >> da2 & 1
    oracle = InfosetOracle.of(deal)
    assert oracle.run([oracle.swap(2, da2, card("HJ.1"))]) == []
    assert oracle.comparisons == 6  # compared until P1 played the first Karo Ass


def test_the_winning_reservation_is_announced_once_resolved() -> None:
    deal = dk.play(dk.new_deal(), "hochzeit erster", "solo damen", "gesund")
    masked = ["vorbehalt", "solo damen", "vorbehalt", "vorbehalt", "vorbehalt"]
    assert [deal.action_seen_by(1, v) for v in VIEWERS] == masked
    dk.play(deal, "schmeissen")
    assert [deal.action_seen_by(1, v) for v in VIEWERS] == ["solo damen"] * 5
    assert [deal.action_seen_by(0, v) for v in VIEWERS] == [
        "hochzeit erster", "vorbehalt", "vorbehalt", "vorbehalt", "vorbehalt"]  # fmt: skip
    assert deal.action_seen_by(3, 0) == "vorbehalt"
    won_by_p4 = dk.play(dk.new_deal(), "gesund", "gesund", "gesund", "solo buben")
    assert won_by_p4.action_seen_by(3, None) == "solo buben"  # the event of P4's action


def test_armut_cards_lying_face_down_are_hidden() -> None:
    deal = dk.play(dk.new_deal(dk.A), "armut", *("gesund",) * 3, "push CQ", "push CQ")
    pushed = DOPPELKOPF.mask("CQ.1 CQ.2")
    assert [deal.hidden_from(v) & pushed for v in VIEWERS] == [0, pushed, pushed, pushed, pushed]
    dk.play(deal, "push H10", "pass", "take", "return C9")
    returned = DOPPELKOPF.mask("C9.1")
    assert [deal.hidden_from(v) & returned for v in VIEWERS] == [0, returned, 0, returned,
                                                                 returned]  # fmt: skip
    assert deal.view(0)["armut"]["returned"] == ["C9.1"]
    dk.play(deal, "return HK", "return SA", "play CA", "play C10", "play CK", "play C9")
    oracle = InfosetOracle.of(deal)
    assert oracle.check(random.Random(4), swaps=8, shuffles=3, choices=4) == []
    assert oracle.comparisons > 100


def test_copies_are_numbered_in_the_order_the_table_saw_them() -> None:
    """P1 and P2 hold one Herz 10 each (the engine's H10.1 and H10.2). Whoever plays the
    first one shows "H10.1"; the other then holds "H10.2"."""
    deal = dk.play(dk.new_deal(), "solo trumpf", *("gesund",) * 3)
    assert deal.view(0)["hand"][0] == "H10.1" and deal.view(1)["hand"][0] == "H10.1"
    dk.play(deal, "play DA", "play H10")  # P2 plays his (the engine's H10.2)
    assert all(deal.view(v)["trick"]["cards"] == ["DA.1", "H10.1"] for v in VIEWERS)
    assert deal.view(0)["hand"][0] == "H10.2"
    dk.play(deal, "play D10", "play D9")  # P2 wins and leads
    assert deal.view(None)["last_trick"]["cards"] == ["DA.1", "H10.1", "D10.1", "D9.1"]
    dk.play(deal, "play SQ", "play DK", "play D9", "play H10")
    assert deal.view(3)["last_trick"]["cards"] == ["SQ.1", "DK.1", "D9.2", "H10.2"]
    assert deal.tricks[0][1][1] == card("H10.2")  # the engine keeps its own copies …
    assert deal.replay_state()["last_trick"]["cards"][-1] == "H10.1"  # … and so do replays


# ---------------------------------------------------------------- reports


def test_a_leak_names_where_and_what() -> None:
    leak = Leak("doppelkopf", None, 5, "play", "play CQ", "swap a and b", "view.x", 1, 2)
    text = str(leak)
    assert text.startswith("doppelkopf: the spectator at position 5 (play after 'play CQ')")
    assert "swap a and b: view.x is 1 here, 2 there" in text
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "view.a[1].b"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "view.a[1]"
    assert first_difference({"a": 1}, {"a": 1, "c": 2}) == "view.c"
    assert first_difference({"a": 1}, {"a": 1}) is None
