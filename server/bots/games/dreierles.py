"""The rule-based player ("Einsteiger") of Dreierles (``rules/dreierles.txt``).

* **Bidding**: a hand strength from its trumps (the Trull counts extra), kings and short
  plain suits (:func:`server.bots.games.tarockhand.strength`); the stronger the hand, the
  fewer blind cards it needs (Dreier → Solo).
* **Discards**: cards of the shortest plain suit first (a void to trump into), the ones
  with most points first (the discards count for the declarer).
* **Pfeife**: announced only with a long trump hand holding the Sküs and the 21, which
  draws the other trumps before the last trick.
* **Knocking**: only with a hand that would have been a Zweier.
* **Play**: :mod:`server.bots.games.trickplay`; the Pfeife is kept for the last trick by a
  hand long enough in trumps to bring it home; in the Räuber the points are ducked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server.bots.games.tarockhand import (
    PAGAT,
    TOP,
    TRUMPS,
    choose_discard,
    mask,
    strength,
)
from server.bots.games.tarockhand import (
    card_plan as tarock_plan,
)
from server.bots.games.trickplay import CardPlan, own_moves

#: Actions that show the sampler their player holds cards: the announced Pfeife lies open.
HOLDS = {"announce pfeife": ("T1",)}
#: The sampler's hint: refusals of a card kept for the last trick (played earlier only
#: when nothing else is legal).
LAST_RESORT = ("pfeife_announced",)
#: The strength a bid needs, highest bid first.
BIDS = (("solo", 16.0), ("einer", 14.5), ("zweier", 13.0), ("dreier", 11.0))


def bid(info: Mapping[str, Any], legal: list[str]) -> str:
    """The highest bid the hand is strong enough for, else pass."""
    value = strength(mask(info["view"]["hand"]))
    for name, needed in BIDS:
        if value >= needed and f"bid {name}" in legal:
            return f"bid {name}"
    return "pass"


def discard(info: Mapping[str, Any], legal: list[str]) -> str:
    """The card of the shortest plain suit with most points."""
    return choose_discard(mask(info["view"]["hand"]), legal)


def card_plan(info: Mapping[str, Any]) -> CardPlan:
    """The seat's card play (the blind's rest and the discards seen are out; the Räuber
    is played by ducking)."""
    view = info["view"]
    declarer = view.get("declarer")
    raeuber = view.get("contract") == "raeuber" or declarer is None
    gone = mask(view.get("talon_rest")) | mask(view.get("discards"))
    gone |= mask(view.get("open_discards"))
    return tarock_plan(
        info,
        declarer=None if raeuber else int(declarer),
        negative=raeuber,
        gone=gone,
        keep=0 if raeuber else 1 << PAGAT,
    )


def play(info: Mapping[str, Any], legal: list[str]) -> str:
    """A card by the rules of thumb (:func:`card_plan`)."""
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
    if phase == "discard":
        return discard(info, legal)
    if phase == "declare":
        strong = (hand & TRUMPS).bit_count() >= 11 and hand & TOP == TOP
        return "announce pfeife" if strong and "announce pfeife" in legal else "fertig"
    if phase == "knock":
        return "knock" if strength(hand) >= 13.0 and "knock" in legal else "pass"
    if phase == "play":
        return play(info, legal)
    return rng.choice(legal)
