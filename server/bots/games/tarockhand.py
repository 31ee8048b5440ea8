"""What the rule-based players of the 54-card tarock games share: hand strength, the
choice of discards and of talon cards, and trick play with the tarock pack's trick rules
(:mod:`server.bots.games.trickplay`). Each game's module keeps its thresholds and its own
calls."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from server.bots.games.trickplay import CardPlan, plan_sides
from server.engine.cards import TAROCK
from server.engine.tricks import TrickRules, tarock_rules

RULES = tarock_rules(TAROCK)
TRUMPS = TAROCK.suit_mask["T"]
PAGAT = TAROCK.parse("T1")
TOP = TAROCK.mask("SK T21")
KINGS = TAROCK.mask("HK KaK PK KrK")
PLAIN_SUITS = ("H", "Ka", "P", "Kr")


@lru_cache(maxsize=512)
def index(code: str) -> int:
    """The index of a card code (the pack's parse, remembered: searching players call it
    in every playout step)."""
    return TAROCK.parse(code)


def mask(codes: Iterable[str] | None) -> int:
    """The mask of card codes (none: 0)."""
    found = 0
    for code in codes or ():
        found |= 1 << index(code)
    return found


def strength(hand: int) -> float:
    """A hand's strength: its trumps, the Sküs and the 21 once and a half more, its kings,
    and its voids and singletons in the plain suits."""
    value = float((hand & TRUMPS).bit_count())
    value += (hand & TOP).bit_count() * 1.5
    value += (hand & KINGS).bit_count() * 1.0
    for suit in PLAIN_SUITS:
        held = (hand & TAROCK.suit_mask[suit]).bit_count()
        value += {0: 1.5, 1: 0.5}.get(held, 0.0)
    return value


def card_value(card: int) -> float:
    """What a card is worth to a declarer taking it: a trump (the Sküs and the 21 most),
    a king, else its card points a little."""
    if (TRUMPS >> card) & 1:
        return 3.0 if (TOP >> card) & 1 else 2.0
    if (KINGS >> card) & 1:
        return 2.0
    return TAROCK.points[card] / 4


def played_cards(info: Mapping[str, Any]) -> int:
    """Every card the actions named as played or laid down (face up or by the seat)."""
    gone = 0
    for _, text in info["actions"]:
        words = text.split()
        if len(words) == 2 and words[0] in ("play", "discard"):
            gone |= 1 << index(words[1])
    return gone


def choose_discard(hand: int, legal: list[str]) -> str:
    """The card of the shortest plain suit with most points (a void to trump into; the
    discards count for the declarer)."""

    def key(text: str) -> tuple[int, int, int]:
        card = TAROCK.parse(text.split()[1])
        suit = TAROCK.cards[card].suit
        return ((hand & TAROCK.suit_mask[suit]).bit_count(), -TAROCK.points[card], card)

    return min(legal, key=key)


def card_plan(
    info: Mapping[str, Any],
    *,
    declarer: int | None,
    negative: bool = False,
    gone: int = 0,
    keep: int = 0,
    rules: TrickRules | None = None,
) -> CardPlan:
    """The seat's card play in a tarock game: ``declarer`` plays alone against the others
    (``None``: everybody for himself), ``gone`` are cards known out of play beyond those
    played, ``keep`` the cards to keep for the last trick while the hand is long in
    trumps, ``rules`` the trick rules of the game when they are not the plain tarock
    rules."""
    seat = int(info["seat"])
    seats = len(info["seats"])
    partners, alone = plan_sides(seat, seats, declarer)
    return CardPlan(
        seat=seat,
        seats=seats,
        partners=partners,
        gone=gone | played_cards(info),
        rules=rules or RULES,
        pack=TAROCK,
        parse=index,
        keep=keep,
        long_in=TRUMPS,
        negative=negative,
        alone=alone,
    )
