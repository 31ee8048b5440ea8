"""The Tarock family's auctions as data: one pass, holding, Vorhand's opening, point steps."""

from __future__ import annotations

import doctest
import random

import pytest

from server.engine import auction as auction_module
from server.engine.auction import HOLD, PASS, Auction, Ladder, point_steps

GAMES = ("dreier", "zweier", "einer", "solo")
DREIERLES = Ladder(GAMES, rounds=1)
DOPPEN = Ladder(
    ("dreier", "unterer", "zweier", "einer", "solo"),
    holding=True,
    after={"unterer": "dreier"},
)
TZD = Ladder(("dreier", "solodreier", "solo"), opening="vorhand")
BAYERN = Ladder(("ich_spiele", "hand", *point_steps(66, 116), "durch"), holding=True)


def test_doctests() -> None:
    assert doctest.testmod(auction_module).failed == 0


def test_one_pass_without_holding_everybody_speaks_once() -> None:
    a = Auction(DREIERLES, 3)
    assert a.legal() == (PASS, *GAMES)
    a.call("dreier")
    assert a.to_move == 1 and a.legal() == (PASS, "zweier", "einer", "solo")
    a.call("einer")
    assert a.legal() == (PASS, "solo")
    a.call(PASS)
    assert (a.finished, a.winner, a.high) == (True, 1, "einer")
    assert a.to_move is None
    assert a.calls == [(0, "dreier"), (1, "einer"), (2, PASS)]
    assert a.legal() == ()


def test_everybody_passes_leaves_no_declarer() -> None:
    a = Auction.replay(DREIERLES, 3, [PASS, PASS, PASS])
    assert a.finished and a.winner is None and a.high is None


def test_a_bid_not_higher_is_refused_with_its_reason() -> None:
    a = Auction.replay(DREIERLES, 3, ["zweier"])
    assert a.explain("dreier") == "bid_too_low"
    assert a.explain("zweier") == "bid_too_low"
    assert a.explain(HOLD) == "no_holding"
    assert a.explain("ramsch") == "unknown_bid"
    with pytest.raises(ValueError):
        a.call("dreier")


def test_final_round_ladder_allows_only_the_solo() -> None:
    a = Auction(DREIERLES.only("solo"), 3)
    assert a.legal() == (PASS, "solo")
    assert a.explain("dreier") == "unknown_bid"


def test_holding_by_priority_goes_round_until_one_bidder_is_left() -> None:
    a = Auction(DOPPEN, 3)
    assert a.legal() == (PASS, "dreier", "zweier", "einer", "solo")  # no Unterer first
    a.call("dreier")
    # M may not hold V's bid (V sits earlier); Unterer only over a Dreier
    assert a.legal() == (PASS, "unterer", "zweier", "einer", "solo")
    a.call("zweier")
    assert a.explain("unterer") == "bid_too_low"
    assert a.to_move == 2 and HOLD not in a.legal()
    a.call(PASS)
    assert a.to_move == 0 and a.legal() == (PASS, HOLD, "einer", "solo")
    a.call(HOLD)
    assert (a.high, a.winner, a.to_move) == ("zweier", 0, 1)
    assert a.legal() == (PASS, "einer", "solo")
    a.call("einer")
    assert a.to_move == 0  # H has passed for good
    a.call(HOLD)
    a.call(PASS)
    assert (a.finished, a.winner, a.high) == (True, 0, "einer")


def test_holding_unterer_only_over_a_dreier() -> None:
    a = Auction.replay(DOPPEN, 3, ["dreier"])
    assert "unterer" in a.legal()
    a = Auction.replay(DOPPEN, 3, ["dreier", "zweier"])
    assert a.explain("unterer") == "bid_too_low"
    first = Auction(Ladder(("dreier", "unterer"), after={"unterer": "dreier"}), 3)
    assert first.explain("unterer") == "not_after"


def test_holding_all_pass_and_a_lone_bidder() -> None:
    a = Auction.replay(DOPPEN, 3, [PASS, PASS, PASS])
    assert a.finished and a.winner is None
    a = Auction.replay(DOPPEN, 3, [PASS, PASS])
    assert a.to_move == 2 and not a.finished  # Hinterhand still speaks
    a.call("dreier")
    assert (a.finished, a.winner, a.high) == (True, 2, "dreier")


def test_vorhand_opening_and_vorhandspiele() -> None:
    a = Auction(TZD, 3)
    assert a.legal() == (PASS, "vorhand", "dreier", "solodreier", "solo")
    a.call("vorhand")
    assert a.legal() == (PASS, "dreier", "solodreier", "solo")  # any bid goes over it
    a.call(PASS)
    a.call(PASS)
    assert (a.finished, a.winner, a.high) == (True, 0, "vorhand")
    # overbid, Vorhand may raise (no holding)
    a = Auction.replay(TZD, 3, ["vorhand", "dreier", PASS])
    assert a.to_move == 0 and a.legal() == (PASS, "solodreier", "solo")
    a.call("solo")
    assert a.to_move == 1 and a.legal() == (PASS,)
    a.call(PASS)
    assert (a.finished, a.winner, a.high) == (True, 0, "solo")
    # the opening is Vorhand's first word only
    a = Auction.replay(TZD, 3, [PASS])
    assert "vorhand" not in a.legal()


def test_point_steps_of_five() -> None:
    assert point_steps(66, 116) == ("66", "71", "76", "81", "86", "91", "96", "101", "106",
                                    "111", "116")  # fmt: skip
    a = Auction.replay(BAYERN, 3, ["ich_spiele", "hand"])
    assert a.legal()[:3] == (PASS, "66", "71")
    a = Auction.replay(BAYERN, 3, ["ich_spiele", "hand", PASS, "76"])
    assert a.to_move == 1 and a.legal()[:2] == (PASS, "81")
    a.call(PASS)
    assert (a.finished, a.winner, a.high) == (True, 0, "76")
    no_jumps = Ladder(point_steps(61, 76), jumps=False)
    a = Auction.replay(no_jumps, 3, ["61"])
    assert a.legal() == (PASS, "66")
    assert a.explain("71") == "bid_too_low"


def test_ladders_refuse_bad_data() -> None:
    with pytest.raises(ValueError):
        Ladder(("dreier", "dreier"))
    with pytest.raises(ValueError):
        Ladder(("pass",))
    with pytest.raises(ValueError):
        Ladder(("dreier",), rounds=1, holding=True)
    with pytest.raises(ValueError):
        Ladder(("dreier",), after={"unterer": "dreier"})


@pytest.mark.parametrize("ladder", [DREIERLES, DOPPEN, TZD, BAYERN])
def test_random_auctions_end_with_the_highest_bid(ladder: Ladder) -> None:
    rng = random.Random(12)
    for _ in range(300):
        a = Auction(ladder, 3)
        steps = 0
        while not a.finished:
            legal = a.legal()
            assert legal[0] == PASS and all(a.explain(c) is None for c in legal)
            a.call(rng.choice(legal))
            steps += 1
            assert steps < 100
        bids = [c for _, c in a.calls if c not in (PASS, HOLD)]
        if a.winner is None:
            assert not bids
        else:
            assert a.high == bids[-1]
            assert not a.passed[a.winner]
            if ladder.rounds != 1:
                assert sum(not p for p in a.passed) == 1
        assert all(a.spoken)
        if ladder.rounds == 1:
            assert len(a.calls) == 3
