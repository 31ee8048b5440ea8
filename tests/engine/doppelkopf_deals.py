"""Hand-built Doppelkopf deals for scenario tests (seat 0 = P1 … seat 3 = P4, the dealer).

D: P1 holds both Kreuz Damen, a Herz 10 and both Karo Assen (Schweinchen); P2 the other
Herz 10, both Pik Damen, both Kreuz Buben; P4 has five Neunen (Schmeißen).
A: like D, but P1's Karo Assen and P4's Pik Könige are swapped: P1 has three trumps (Armut).
"""

from __future__ import annotations

from collections.abc import Mapping

from server.engine.base import Dealt
from server.engine.cards import DOPPELKOPF
from server.engine.games.doppelkopf import Doppelkopf, DoppelkopfDeal

D = (
    "CQ.1 CQ.2 H10.1 DA.1 DA.2 CA.1 CA.2 C10.1 SA.1 HA.1 HK.1 H9.1",
    "H10.2 SQ.1 SQ.2 HQ.1 CJ.1 CJ.2 D10.1 C10.2 CK.1 S10.1 HA.2 H9.2",
    "HQ.2 DQ.1 DQ.2 SJ.1 SJ.2 D10.2 DK.1 CK.2 C9.1 SA.2 S10.2 HK.2",
    "HJ.1 HJ.2 DJ.1 DJ.2 DK.2 D9.1 D9.2 C9.2 SK.1 SK.2 S9.1 S9.2",
)
A = (
    D[0].replace("DA.1 DA.2", "SK.1 SK.2"),
    D[1],
    D[2],
    D[3].replace("SK.1 SK.2", "DA.1 DA.2"),
)
SEATS = ("Ute", "Paul", "Rita", "Olaf")


def new_deal(
    spec: tuple[str, ...] = D, options: Mapping[str, object] | None = None
) -> DoppelkopfDeal:
    """A fresh deal of ``spec``; Olaf (P4) deals."""
    dealt = Dealt(tuple(DOPPELKOPF.mask(h) for h in spec), ())
    return Doppelkopf().new_deal(dealt, options, SEATS, "Olaf")


def play(deal: DoppelkopfDeal, *actions: str) -> DoppelkopfDeal:
    """Apply actions by the seat to move; ``"2: knock"`` is an action by seat 2."""
    for text in actions:
        seat, sep, rest = text.partition(": ")
        if sep:
            deal.act(int(seat), rest)
        else:
            deal.act(deal.to_move, text)
    return deal


ALL_GESUND = ("gesund",) * 4
