"""The rule-based player ("Einsteiger") of Bayerisches Tarock (``rules/bayerisches-tarock.txt``).

* **Hand strength** per suit as trump: its length, its Daus, Zehner and König, and the
  Dauses (and Zehner beside them) of the other suits.
* **Bidding**: "Ich spiele" (a Stock game) with a good hand, "Hand" with a strong one, a
  point bid only with a hand well above it, never "Durch"; a bid standing against us is
  held when the hand is worth it. Without Reizen the requests follow the same strengths
  (no Bettel).
* **Game, trump, discards**: a Hand game with a strong hand, else the Stock; the best
  suit as trump; the three cards laid away are side cards, no Daus, from the shortest
  side suit, with most Augen (they count for the declarer).
* **Kontra**: never.
* **Play**: :mod:`server.bots.games.trickplay` with the trump suit's trick rules; the
  Bettel is played by ducking.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from server.bots.games.trickplay import CardPlan, own_moves, plan_sides
from server.engine.cards import GERMAN
from server.engine.tricks import TrickRules, suit_trump_rules, trumpless_rules

#: The searching player's budget here (``server.bots.search.budget_of``, docs/bots.md): at
#: 6,000 units its decisions took 126 / 177 ms of CPU (p50 / p95) in five deal sets against
#: the Einsteiger, 145 / 206 ms over 160 deal sets of the full duel; at 4,500, 93 / 138 ms
#: (the machine of 2026-11-28, two duels at once).
STARK_BUDGET = 4_500
RANKS = ("A", "10", "K", "O", "U", "9", "8", "7", "6")
BETTEL_RANKS = ("A", "K", "O", "U", "10", "9", "8", "7", "6")
SUITS = GERMAN.suits
TRUMP_RULES = {suit: suit_trump_rules(GERMAN, suit, RANKS, stichzwang=True) for suit in SUITS}
BETTEL_RULES = trumpless_rules(GERMAN, BETTEL_RANKS, stichzwang=True)
#: What the bids need: a Stock game, a Hand game, each point step above 61 on top of it.
STOCK_GAME, HAND_GAME, PER_STEP = 22.0, 28.0, 1.5


def mask(codes: Iterable[str] | None) -> int:
    """The mask of card codes (none: 0)."""
    found = 0
    for code in codes or ():
        found |= 1 << GERMAN.parse(code)
    return found


def _has(hand: int, code: str) -> bool:
    return bool((hand >> GERMAN.parse(code)) & 1)


def suit_strength(hand: int, trump: str) -> float:
    """The hand's strength with ``trump`` as trump (see the module text)."""
    trumps = hand & GERMAN.suit_mask[trump]
    value = 3.0 * trumps.bit_count()
    value += 4.0 * _has(hand, f"{trump}A") + 3.0 * _has(hand, f"{trump}10")
    value += 2.0 * _has(hand, f"{trump}K")
    for suit in SUITS:
        if suit != trump and _has(hand, f"{suit}A"):
            value += 3.0 + 2.0 * _has(hand, f"{suit}10")
        elif suit != trump and not hand & GERMAN.suit_mask[suit]:
            value += 1.5  # a void to trump into
    return value


def best_trump(hand: int, allowed: Iterable[str] = SUITS) -> tuple[str, float]:
    """The suit the hand is strongest with as trump, and that strength."""
    return max(((s, suit_strength(hand, s)) for s in allowed), key=lambda p: (p[1], p[0]))


def bid(info: Mapping[str, Any], legal: list[str]) -> str:
    """The bid the hand is worth (see the module text)."""
    view = info["view"]
    suit, value = best_trump(mask(view["hand"]))
    if "bid frage" in legal or "bid hand_herz" in legal:  # the variant without Reizen
        herz = "_herz" if suit == "H" else ""
        for name, needed in (("hand", HAND_GAME), ("frage", STOCK_GAME)):
            if value >= needed and f"bid {name}{herz}" in legal:
                return f"bid {name}{herz}"
        return "pass" if "pass" in legal else legal[0]
    if "hold" in legal and value >= _needed(view.get("high_bid")):
        return "hold"
    for text in legal:
        words = text.split()
        if words[0] == "bid" and words[1] != "durch" and value >= _needed(words[1]):
            return text
    return "pass" if "pass" in legal else legal[0]


def _needed(bid_word: object) -> float:
    """What a bid needs (``ich_spiele``, ``hand``, a point bid ``66`` … ``116``)."""
    if bid_word == "ich_spiele":
        return STOCK_GAME
    if bid_word == "hand":
        return HAND_GAME
    if isinstance(bid_word, str) and bid_word.isdigit():
        return HAND_GAME + 2 + PER_STEP * (int(bid_word) - 61) / 5
    return float("inf")


def discard(info: Mapping[str, Any], legal: list[str]) -> str:
    """A side card, no Daus, of the shortest side suit, with most Augen."""
    view = info["view"]
    hand = mask(view["hand"])
    trump = view.get("trump") or best_trump(hand)[0]

    def key(text: str) -> tuple[bool, bool, int, int, int]:
        card = GERMAN.parse(text.split()[1])
        c = GERMAN.cards[card]
        length = (hand & GERMAN.suit_mask[c.suit]).bit_count()
        return (c.suit == trump, c.rank == "A", length, -c.points, card)

    return min(legal, key=key)


@lru_cache(maxsize=128)
def _parse(code: str) -> int:
    """The index of a card code (remembered: the searching player reads many views)."""
    return GERMAN.parse(code)


def card_plan(info: Mapping[str, Any]) -> CardPlan:
    """The seat's card play with the game's trick rules (the Stock and the discards seen
    are out; the Bettel is played by ducking)."""
    view = info["view"]
    seat = int(info["seat"])
    declarer = view.get("declarer")
    bettel = view.get("contract") == "bettel"
    trump = view.get("trump")
    rules: TrickRules = BETTEL_RULES if bettel or trump not in SUITS else TRUMP_RULES[trump]
    gone = mask(view.get("stock")) | mask(view.get("discards"))
    for _, text in info["actions"]:
        words = text.split()
        if len(words) == 2 and words[0] in ("play", "discard"):
            gone |= 1 << _parse(words[1])
    partners, alone = plan_sides(seat, len(info["seats"]), _seat_or_none(declarer))
    return CardPlan(
        seat=seat,
        seats=len(info["seats"]),
        partners=partners,
        gone=gone,
        rules=rules,
        pack=GERMAN,
        parse=_parse,
        negative=bettel,
        alone=alone,
    )


def _seat_or_none(value: object) -> int | None:
    return None if value is None else int(str(value))


def play(info: Mapping[str, Any], legal: list[str]) -> str:
    """A card by the rules of thumb with the game's trick rules (:func:`card_plan`)."""
    return card_plan(info).play(info["view"], legal)


def einsteiger(info: Mapping[str, Any], rng: random.Random) -> str:
    """The Einsteiger's action in ``info`` (see the module text)."""
    view = info["view"]
    legal = own_moves(view)
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    hand = mask(view["hand"])
    if phase == "auction":
        return bid(info, legal)
    if phase == "game":
        strong = best_trump(hand)[1] >= HAND_GAME
        return "game hand" if strong and "game hand" in legal else legal[0]
    if phase == "trump":
        allowed = [text.split()[1] for text in legal]
        return f"trump {best_trump(hand, allowed)[0]}"
    if phase == "discard":
        return discard(info, legal)
    if phase == "kontra":
        return "gut" if "gut" in legal else legal[0]
    if phase == "play":
        return play(info, legal)
    return rng.choice(legal)
