"""The stille Hochzeit is the holder's secret until the table can tell (DK-A20).

A player holding both Kreuz Damen who says "gesund" plays alone. Everybody else holds the
cards of a normal game and must see one: contract ``normal``, no declarer, only his own
party and the Kreuz Damen played so far. The table learns of the stille Hochzeit when the
holder plays his second Kreuz Dame (then his party is known and all others are Kontra)
and, of course, at the end.
"""

from __future__ import annotations

from typing import Any

from server.engine.games.doppelkopf import DoppelkopfDeal
from tests.engine.doppelkopf_deals import ALL_GESUND, D, new_deal, play

#: Like ``D``, but P2 holds both Kreuz Damen (P1 both Pik Damen instead).
P2_BOTH = (
    D[0].replace("CQ.1 CQ.2", "SQ.1 SQ.2"),
    D[1].replace("SQ.1 SQ.2", "CQ.1 CQ.2"),
    D[2],
    D[3],
)
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)


def seen(deal: DoppelkopfDeal) -> list[tuple[Any, ...]]:
    """Per viewer (P1 … P4, spectator): contract, declarer and parties."""
    views = [deal.view(v) for v in VIEWERS]
    return [(v["contract"], v["declarer"], v["parties"]) for v in views]


def normal(*parties: str | None) -> tuple[Any, ...]:
    return ("normal", None, list(parties))


def stille(declarer: int, *parties: str | None) -> tuple[Any, ...]:
    return ("stille_hochzeit", declarer, list(parties))


N = None


def test_another_player_holds_both_kreuz_damen_and_says_gesund() -> None:
    deal = play(new_deal(P2_BOTH), *ALL_GESUND)
    assert (deal.contract, deal.declarer, deal.to_move) == ("stille_hochzeit", 1, 0)
    assert seen(deal) == [
        normal("kontra", N, N, N),  # P1 holds no Kreuz Dame: as in any normal game
        stille(1, N, "re", N, N),  # only the holder knows
        normal(N, N, "kontra", N),
        normal(N, N, N, "kontra"),
        normal(N, N, N, N),  # the spectator
    ]
    play(deal, "play SQ", "play CQ")  # P2's first Kreuz Dame: he is Re, nothing more
    assert seen(deal) == [
        normal("kontra", "re", N, N),
        stille(1, N, "re", N, N),
        normal(N, "re", "kontra", N),
        normal(N, "re", N, "kontra"),
        normal(N, "re", N, N),
    ]
    play(deal, "play HQ", "play HJ")  # P2 wins the trick and leads
    assert deal.to_move == 1 and seen(deal)[0] == normal("kontra", "re", N, N)
    play(deal, "play CQ")  # the second Kreuz Dame from the same hand: now everybody knows
    everybody = stille(1, "kontra", "re", "kontra", "kontra")
    assert seen(deal) == [everybody] * 5
    play(deal, "play DQ", "play DJ", "play SQ")
    assert seen(deal) == [everybody] * 5


def test_the_holder_leads_a_kreuz_dame() -> None:
    deal = play(new_deal(D), *ALL_GESUND)
    assert (deal.contract, deal.declarer, deal.to_move) == ("stille_hochzeit", 0, 0)
    assert seen(deal) == [
        stille(0, "re", N, N, N),
        normal(N, "kontra", N, N),
        normal(N, N, "kontra", N),
        normal(N, N, N, "kontra"),
        normal(N, N, N, N),
    ]
    play(deal, "play CQ")  # P1 is Re, as he would be in a normal game
    assert [deal.action_seen_by(4, v) for v in VIEWERS] == ["play CQ"] * 5
    assert seen(deal) == [
        stille(0, "re", N, N, N),
        normal("re", "kontra", N, N),
        normal("re", N, "kontra", N),
        normal("re", N, N, "kontra"),
        normal("re", N, N, N),
    ]
    play(deal, "play SQ", "play DQ", "play HJ", "play CQ")  # P1 won and leads the other
    everybody = stille(0, "re", "kontra", "kontra", "kontra")
    assert seen(deal) == [everybody] * 5


def test_the_end_shows_the_stille_hochzeit_to_everybody() -> None:
    deal = play(new_deal(P2_BOTH), *ALL_GESUND)
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    assert seen(deal) == [stille(1, "kontra", "re", "kontra", "kontra")] * 5
