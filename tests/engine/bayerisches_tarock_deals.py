"""Hand-built Bayerisches Tarock deals for scenario tests (seat 0 = Vorhand Anna, 1 Bernd,
2 Catrin; Catrin deals).

B1: Anna holds the top of Eichel (A 10 K O U 9), GA G10, HA H10 and SA; Bernd the
Eichel Spatzen E8 E7 E6, GK GO GU G9 and HK HO HU H9; Catrin G8 G7 G6, H8 H7 H6 and
SK SO SU S9 S8; the Stock S10 S7 S6.

B2 (Stichzwang with trumps): Anna holds seven Schellen with EA E10 GA G10 and no Herz;
Bernd is void in Schellen with HA HO H9 H8; Catrin too, with HK HU H7 H6; Stock S7 S6 H10.

B3 (Durch): Anna holds every Herz, EA and GA.

B4 (Bettel): Anna holds the three lowest cards of Eichel, Gras and Schellen and H7 H6;
whatever is led, somebody else holds a higher card of the suit.
"""

from __future__ import annotations

from collections.abc import Mapping

from server.engine.base import Dealt
from server.engine.cards import GERMAN
from server.engine.games.bayerisches_tarock import BayerischesTarock, BayerischesTarockDeal

Spec = tuple[str, str, str, str]

B1: Spec = (
    "EA E10 EK EO EU E9 GA G10 HA H10 SA",
    "E8 E7 E6 GK GO GU G9 HK HO HU H9",
    "G8 G7 G6 H8 H7 H6 SK SO SU S9 S8",
    "S10 S7 S6",
)
B2: Spec = (
    "SA S10 SK SO SU S9 S8 EA E10 GA G10",
    "HA HO H9 H8 E9 E8 E7 E6 G9 G8 G7",
    "HK HU H7 H6 EK EO EU GK GO GU G6",
    "S7 S6 H10",
)
B3: Spec = (
    "HA H10 HK HO HU H9 H8 H7 H6 EA GA",
    "E10 EK EO EU E9 E8 G10 GK GO GU G9",
    "E7 E6 G8 G7 G6 SA S10 SK SO SU S9",
    "S8 S7 S6",
)
B4: Spec = (
    "E6 E7 E8 G6 G7 G8 S6 S7 S8 H6 H7",
    "EA EK EO EU E10 E9 GA GK GO GU G10",
    "G9 SA SK SO SU S10 S9 HA HK HO HU",
    "H10 H9 H8",
)

SEATS = ("Anna", "Bernd", "Catrin")


def dealt(spec: Spec) -> Dealt:
    """Three hands and the Stock as a Dealt."""
    return Dealt(
        tuple(GERMAN.mask(h) for h in spec[:3]), tuple(GERMAN.parse(c) for c in spec[3].split())
    )


def new_deal(
    spec: Spec = B1,
    options: Mapping[str, object] | None = None,
    seats: tuple[str, str, str] = SEATS,
    dealer: str = "Catrin",
) -> BayerischesTarockDeal:
    """A fresh deal of ``spec`` (Catrin deals unless told otherwise)."""
    return BayerischesTarock().new_deal(dealt(spec), options, seats, dealer)


def play(deal: BayerischesTarockDeal, *actions: str) -> BayerischesTarockDeal:
    """Apply actions in turn order (each by the seat to move) and return the deal."""
    for text in actions:
        deal.act(deal.to_move, text)
    return deal


def legal(deal: BayerischesTarockDeal) -> list[str]:
    """The legal actions of the seat to move, as texts."""
    return deal.legal_texts()


def first_legal_to_end(deal: BayerischesTarockDeal) -> BayerischesTarockDeal:
    """Play the first legal action of every seat until the deal is over."""
    while not deal.finished:
        deal.apply(deal.legal_moves()[0])
    return deal
