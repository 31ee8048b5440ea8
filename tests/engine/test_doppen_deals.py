"""Hand-built Doppen deals for the scenario tests, and the deal's own checks of them.

Seats: 0 = Vorhand Anne, 1 = Mittelhand Bert, 2 = Hinterhand Clara (Clara deals).

D1: Anne T1–T10, four Herz pictures and PK PD; Bert T11–T20 and six Karo; Clara T21, SK,
the Herz pips, Ka3 Ka4, six Pik and KrK KrD; the talon the rest of Kreuz, in order:
KrC KrB Kr10 Kr9 Kr8 Kr7.
D2: Anne T1–T15 and HK; the talon SK T21 T16 HD P7 Kr7 (the upper half leaves her nothing
but trumps to discard).
D3: Anne the sixteen highest trumps (SK, T21–T7); Bert T1–T3 and the four Könige.
"""

from __future__ import annotations

from collections.abc import Mapping

from server.engine.base import Dealt
from server.engine.cards import TAROCK
from server.engine.games.doppen import Doppen, DoppenDeal

Spec = tuple[str, str, str, str]

D1: Spec = (
    "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 HK HD HC HB PK PD",
    "T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 KaK KaD KaC KaB KaA Ka2",
    "T21 SK HA H2 H3 H4 Ka3 Ka4 PC PB P10 P9 P8 P7 KrK KrD",
    "KrC KrB Kr10 Kr9 Kr8 Kr7",
)


def rest_of(*specs: str) -> str:
    """The cards of the pack not named in ``specs``, in pack order."""
    used = 0
    for spec in specs:
        used |= TAROCK.mask(spec)
    return " ".join(TAROCK.codes(TAROCK.full & ~used))


def complete(first: str, second: str, talon: str) -> Spec:
    """A deal whose third hand is every card not named (16 of them)."""
    third = rest_of(first, second, talon)
    return (first, second, third, talon)


D2: Spec = complete(
    "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 HK",
    "T17 T18 T19 T20 KaK KaD KaC KaB KaA Ka2 Ka3 Ka4 PK PD PC PB",
    "SK T21 T16 HD P7 Kr7",
)
D3: Spec = complete(
    "SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7",
    "T1 T2 T3 HK KaK PK KrK HD KaD PD KrD HC KaC PC KrC HB",
    "Kr7 Kr8 Kr9 Kr10 P7 P8",
)
SEATS = ("Anne", "Bert", "Clara")


def dealt(spec: Spec) -> Dealt:
    """Three hands and the talon (in order) as a Dealt."""
    hands = tuple(TAROCK.mask(h) for h in spec[:3])
    return Dealt(hands, tuple(TAROCK.parse(c) for c in spec[3].split()))


def new_deal(spec: Spec = D1, options: Mapping[str, object] | None = None) -> DoppenDeal:
    """A fresh deal of ``spec`` with Anne, Bert and Clara (Clara deals)."""
    return Doppen().new_deal(dealt(spec), options, SEATS, "Clara")


def play(deal: DoppenDeal, *actions: str) -> DoppenDeal:
    """Apply actions in turn order (each by the seat to move) and return the deal."""
    for text in actions:
        deal.act(deal.to_move, text)
    return deal


def play_first_legal(deal: DoppenDeal, until_trick: int = 16) -> DoppenDeal:
    """Play the first legal card of the seat to move until trick ``until_trick`` (0-based)
    is about to start or the deal ends."""
    while not deal.finished and deal.play is not None and deal.play.number < until_trick:
        deal.apply(deal.legal_moves()[0])
    return deal


# --------------------------------------------------------------------------- the hand-built deals


def test_the_hand_built_deals_split_the_pack() -> None:
    for spec in (D1, D2, D3):
        deal = new_deal(spec)
        assert [h.bit_count() for h in deal.hands] == [16, 16, 16]
        assert len(deal.talon) == 6


def test_talon_first_then_twice_eight_anticlockwise() -> None:
    order = list(range(54))
    got = Doppen().deal_cards(order)
    assert got.talon == (0, 1, 2, 3, 4, 5)
    expected = [set(range(6 + 8 * s, 14 + 8 * s)) | set(range(30 + 8 * s, 38 + 8 * s))
                for s in range(3)]  # fmt: skip
    assert [set(c for c in range(54) if (h >> c) & 1) for h in got.hands] == expected
