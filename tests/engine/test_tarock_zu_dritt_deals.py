"""Hand-built Tarock zu dritt deals for the scenario tests, and the deal itself.

:func:`deal_of` builds a deal from partial hands: the cards named for Vorhand (seat 0),
Mittelhand (1), Hinterhand (2) and the talon, every other card filled in from the end of
the pack (the low Kreuz first) into the talon, then V, M and H up to 6/16 cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from server.engine.base import Dealt
from server.engine.cards import TAROCK
from server.engine.errors import IllegalActionError
from server.engine.games.tarock_zu_dritt import TarockZuDritt, TarockZuDrittDeal

RULES = TarockZuDritt()


def dealt_of(v: str = "", m: str = "", h: str = "", talon: str = "") -> Dealt:
    """A full deal from partial hands (see the module text)."""
    given = [TAROCK.mask(x) if x else 0 for x in (v, m, h)]
    talon_cards = [TAROCK.parse(c) for c in talon.split()]
    used = sum(given) | sum(1 << c for c in talon_cards)
    assert sum(g.bit_count() for g in given) + len(talon_cards) == used.bit_count()
    free = [c for c in reversed(range(54)) if not (used >> c) & 1]
    while len(talon_cards) < 6:
        talon_cards.append(free.pop(0))
    hands = []
    for mask in given:
        while mask.bit_count() < 16:
            mask |= 1 << free.pop(0)
        hands.append(mask)
    assert not free
    return Dealt(tuple(hands), tuple(talon_cards))


def deal_of(
    v: str = "",
    m: str = "",
    h: str = "",
    talon: str = "",
    options: Mapping[str, object] | None = None,
) -> TarockZuDrittDeal:
    """A new deal from partial hands."""
    return RULES.new_deal(dealt_of(v, m, h, talon), options)


def deal_hands(
    hands: Mapping[str, str], options: Mapping[str, object] | None = None
) -> TarockZuDrittDeal:
    """A new deal from partial hands given as ``{"v": …, "m": …, "h": …, "talon": …}``."""
    v, m, h, talon = (hands.get(k, "") for k in ("v", "m", "h", "talon"))
    return deal_of(v, m, h, talon, options)


def act(deal: TarockZuDrittDeal, *texts: str) -> TarockZuDrittDeal:
    """Apply ``texts`` in turn, each for the seat to move."""
    for text in texts:
        deal.act(None, text)
    return deal


def refused(deal: TarockZuDrittDeal, text: str) -> str:
    """The code of the error that refuses ``text`` for the seat to move."""
    with pytest.raises(IllegalActionError) as caught:
        deal.act(None, text)
    return caught.value.code


def cards(text: str) -> list[str]:
    """Card codes in the order the legal moves list them (pack order)."""
    return TAROCK.codes(TAROCK.mask(text))


def plays(deal: TarockZuDrittDeal) -> list[str]:
    """The cards the seat to move may play."""
    return [t.split()[1] for t in deal.legal_texts() if t.startswith("play ")]


def test_the_regular_deal_gives_eight_the_talon_and_eight_again() -> None:
    order = list(range(54))
    dealt = RULES.deal_cards(order)
    assert TAROCK.codes(dealt.hands[0]) == TAROCK.codes(
        TAROCK.mask([TAROCK.code(c) for c in [*range(8), *range(30, 38)]])
    )
    assert [TAROCK.code(c) for c in dealt.talon] == ["HC", "HB", "HA", "H2", "H3", "H4"]
    assert TAROCK.codes(dealt.hands[2]) == TAROCK.codes(
        TAROCK.mask([TAROCK.code(c) for c in [*range(16, 24), *range(46, 54)]])
    )


def test_the_deal_refuses_what_is_not_a_permutation() -> None:
    with pytest.raises(ValueError):
        RULES.deal_cards([0] * 54)


def test_after_a_knock_vorhand_chooses_a_packet_first() -> None:
    dealt = RULES.shuffle_and_deal(random.Random(5))
    deal = RULES.new_deal(dealt, {"geklopft": True})
    assert deal.phase == "packet" and deal.to_move == 0
    assert deal.legal_texts() == ["packet 1", "packet 2", "packet 3"]
    # before the choice nobody sees any card
    assert deal.view(0)["hand"] == [] and deal.hidden_from(0) == TAROCK.full
    act(deal, "packet 3")
    assert deal.to_move == 1 and deal.legal_texts() == ["packet 1", "packet 2"]
    assert refused(deal, "packet 3") == "wrong_phase"
    act(deal, "packet 1")
    assert deal.hands == [dealt.hands[2], dealt.hands[0], dealt.hands[1]]
    assert deal.phase == "auction" and deal.to_move == 0


def test_dealer_is_hinterhand() -> None:
    from server.engine.errors import MalformedError

    with pytest.raises(MalformedError):
        RULES.new_deal(dealt_of(), None, ("A", "B", "C"), "A")


def seats_of(deal: TarockZuDrittDeal) -> Sequence[str]:
    return deal.seat_names
