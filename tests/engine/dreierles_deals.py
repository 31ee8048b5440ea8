"""Hand-built Dreierles deals for scenario tests (seat 0 = Vorhand Anna, 1 Bernd, 2 Catrin).

D1: Anna holds T1–T10, four Herz honours and PK PD; Bernd T11–T20 and six Karo;
Catrin T21, SK, the Herz pips, Ka3 Ka4, six Pik and KrK KrD; the blind is the rest of
Kreuz, top first: KrC KrB Kr10 Kr9 Kr8 Kr7.
"""

from __future__ import annotations

from collections.abc import Mapping

from server.engine.base import Dealt
from server.engine.cards import TAROCK
from server.engine.games.dreierles import Dreierles, DreierlesDeal

D1 = (
    "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 HK HD HC HB PK PD",
    "T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 KaK KaD KaC KaB KaA Ka2",
    "T21 SK HA H2 H3 H4 Ka3 Ka4 PC PB P10 P9 P8 P7 KrK KrD",
    "KrC KrB Kr10 Kr9 Kr8 Kr7",
)

# D2: like D1 but Bernd holds the Sküs and Catrin T20 (for the Räuber's Mond rule).
D2 = (
    D1[0],
    "T11 T12 T13 T14 T15 T16 T17 T18 T19 SK KaK KaD KaC KaB KaA Ka2",
    "T21 T20 HA H2 H3 H4 Ka3 Ka4 PC PB P10 P9 P8 P7 KrK KrD",
    D1[3],
)

# D3: Anna holds the Drull (SK T21 T1), all four kings and all of Herz; Bernd T2–T17
# (sixteen trumps); Catrin T18–T20, five Karo, seven Pik and KrD.
D3 = (
    "SK T21 T1 HK KaK PK KrK HD HC HB HA H2 H3 H4 KaD KaC",
    "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17",
    "T18 T19 T20 KaB KaA Ka2 Ka3 Ka4 PD PC PB P10 P9 P8 P7 KrD",
    D1[3],
)

# D4 (DL-A17): Bernd holds the Pfeife as his only trump and no Kreuz or Pik; Anna T2–T11
# and six Kreuz; Catrin T12–T21, SK, Ka4 and four Pik; the blind P10 P9 P8 P7 Kr8 Kr7.
D4 = (
    "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 KrK KrD KrC KrB Kr10 Kr9",
    "T1 HK HD HC HB HA H2 H3 H4 KaK KaD KaC KaB KaA Ka2 Ka3",
    "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 SK Ka4 PK PD PC PB",
    "P10 P9 P8 P7 Kr8 Kr7",
)

# D5 (DL-A17 with the Mond rule): Catrin's only trumps are T1 and T21, Bernd holds the
# Sküs and no Kreuz, Anna leads Kreuz.
D5 = (
    "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 KrK KrD KrC KrB Kr10 Kr9",
    "SK T12 T13 T14 T15 T16 T17 T18 T19 T20 HK HD HC HB HA H2",
    "T1 T21 H3 H4 KaK KaD KaC KaB KaA Ka2 Ka3 Ka4 PK PD PC PB",
    "P10 P9 P8 P7 Kr8 Kr7",
)

SEATS = ("Anna", "Bernd", "Catrin")


def dealt(spec: tuple[str, str, str, str]) -> Dealt:
    """Turn four strings of card codes (three hands and the blind) into a Dealt."""
    hands = tuple(TAROCK.mask(h) for h in spec[:3])
    return Dealt(hands, tuple(TAROCK.parse(c) for c in spec[3].split()))


def new_deal(
    spec: tuple[str, str, str, str] = D1, options: Mapping[str, object] | None = None
) -> DreierlesDeal:
    """A fresh deal of ``spec`` with Anna, Bernd and Catrin (Catrin deals)."""
    return Dreierles().new_deal(dealt(spec), options, SEATS, "Catrin")


def play(deal: DreierlesDeal, *actions: str) -> DreierlesDeal:
    """Apply actions in turn order (each by the seat to move) and return the deal."""
    for text in actions:
        deal.act(deal.to_move, text)
    return deal
