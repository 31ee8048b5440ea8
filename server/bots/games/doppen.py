"""The rule-based player ("Einsteiger") of Doppen (``rules/doppen.txt``).

* **Bidding**: the hand strength of :func:`server.bots.games.tarockhand.strength`; the
  stronger, the fewer talon cards it needs (Dreier → Solo); a bid is held (Vorhand's
  privilege) when the hand is worth the bid standing.
* **Talon**: the half, pair or card worth most to the declarer (trumps, kings, points).
* **Discards**: the shortest plain suit first, its cards with most points first.
* **Announcements and Kontra**: "gut", unless the hand is overwhelming: a Pagat announced
  by a declarer long in trumps with the Sküs and the 21, a Kontra by an opponent who would
  have bid a Solo himself.
* **Play**: :mod:`server.bots.games.trickplay`; the Pagat kept for the last trick by a
  hand long enough in trumps to bring it home.

For the searching player, :func:`search_actions` leaves out the doublings past the Re
(the text sets no limit to the Kontra/Re chain): weighed in sampled worlds where the
rule-based replies say "gut", every further doubling looks as good as the last, and two
searching seats would double each other without end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server.bots.games.tarockhand import (
    PAGAT,
    TOP,
    TRUMPS,
    card_value,
    choose_discard,
    mask,
    strength,
)
from server.bots.games.tarockhand import (
    card_plan as tarock_plan,
)
from server.bots.games.trickplay import CardPlan, own_moves
from server.engine.cards import TAROCK

#: The searching player's budget here (``server.bots.search.budget_of``, docs/bots.md): at
#: 6,000 units its decisions took 112 / 190 ms of CPU (p50 / p95) in five deal sets against
#: the Einsteiger; at 4,500, 89 / 149 ms (the machine of 2026-11-28, two duels at once).
STARK_BUDGET = 4_500
#: Actions that show the sampler their player holds cards: a bird is announced by the
#: player who holds it.
HOLDS = {"announce pagat": ("T1",), "announce uhu": ("T2",)}
#: The sampler's hint: an announced bird may be played early only as the last resort.
LAST_RESORT = ("bird_announced",)
#: The highest doubling level the searching player weighs (1 Kontra, 2 Re).
SEARCH_DOUBLINGS = 2
#: The strength a bid needs, highest bid first.
BIDS = (("solo", 16.5), ("einer", 14.5), ("zweier", 13.0), ("unterer", 12.0), ("dreier", 11.0))
NEEDED = dict(BIDS)


def bid(info: Mapping[str, Any], legal: list[str]) -> str:
    """The highest bid the hand is strong enough for, holding the standing bid when the
    hand is worth it; else pass."""
    view = info["view"]
    value = strength(mask(view["hand"]))
    for name, needed in BIDS:
        if value >= needed and f"bid {name}" in legal:
            return f"bid {name}"
    standing = view.get("high_bid")
    if "hold" in legal and standing in NEEDED and value >= NEEDED[standing]:
        return "hold"
    return "pass"


def take(info: Mapping[str, Any], legal: list[str]) -> str:
    """The talon group (or card) worth most to the declarer."""
    talon = [TAROCK.parse(code) for code in info["view"].get("talon") or []]
    words = [text.split()[1] for text in legal]
    if talon and all(word in ("upper", "middle", "lower") for word in words):
        size = len(talon) // len(words)
        order = [w for w in ("upper", "middle", "lower") if w in words]
        groups = {w: talon[i * size : (i + 1) * size] for i, w in enumerate(order)}
        best = max(order, key=lambda w: (sum(card_value(c) for c in groups[w]), -order.index(w)))
        return f"take {best}"
    return max(legal, key=lambda text: card_value(TAROCK.parse(text.split()[1])))


def call(info: Mapping[str, Any], legal: list[str]) -> str:
    """Announcements and Kontra: only with an overwhelming hand."""
    view = info["view"]
    hand = mask(view["hand"])
    seat = int(info["seat"])
    long_trumps = (hand & TRUMPS).bit_count() >= 12 and hand & TOP == TOP
    pagat = long_trumps and (hand >> PAGAT) & 1 and "announce pagat" in legal
    if seat == view.get("declarer") and pagat:
        return "announce pagat"
    if seat != view.get("declarer") and strength(hand) >= 16.5 and "kontra game" in legal:
        return "kontra game"
    return "gut" if "gut" in legal else legal[0]


def card_plan(info: Mapping[str, Any]) -> CardPlan:
    """The seat's card play (the talon's rest and the discards seen are out; the Pagat
    kept for the last trick)."""
    view = info["view"]
    talon = mask(view.get("talon")) & ~mask(view.get("talon_taken"))
    gone = talon | mask(view.get("discards")) | mask(view.get("open_discards"))
    declarer = view.get("declarer")
    return tarock_plan(
        info,
        declarer=None if declarer is None else int(declarer),
        gone=gone,
        keep=1 << PAGAT,
    )


def play(info: Mapping[str, Any], legal: list[str]) -> str:
    """A card by the rules of thumb (:func:`card_plan`)."""
    return card_plan(info).play(info["view"], legal)


def search_actions(info: Mapping[str, Any], legal: list[str]) -> list[str]:
    """The actions the searching player weighs: every legal action but a doubling that
    would raise its chain past :data:`SEARCH_DOUBLINGS`.

    >>> view = {"doubling": {"chains": [{"item": "game", "against": None, "level": 2},
    ...                                 {"item": "pagat", "against": None, "level": 0}]}}
    >>> search_actions({"view": view}, ["gut", "kontra game", "kontra pagat"])
    ['gut', 'kontra pagat']
    """
    chains = (info["view"].get("doubling") or {}).get("chains") or []
    levels = {
        chain["item"]
        if chain.get("against") is None
        else f"{chain['item']}@{chain['against']}": int(chain["level"])
        for chain in chains
    }
    words = ("kontra", "re")
    kept = []
    for text in legal:
        parts = text.split()
        if len(parts) == 2 and parts[0] in words and levels.get(parts[1], 0) >= SEARCH_DOUBLINGS:
            continue
        kept.append(text)
    return kept


def einsteiger(info: Mapping[str, Any], rng: random.Random) -> str:
    """The Einsteiger's action in ``info`` (see the module text)."""
    view = info["view"]
    legal = own_moves(view)
    legal = [t for t in legal if not t.startswith("cover ")] or legal
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "auction":
        return bid(info, legal)
    if phase == "talon":
        return take(info, legal)
    if phase == "discard":
        return choose_discard(mask(view["hand"]), legal)
    if phase == "announce":
        return call(info, legal)
    if phase == "play":
        return play(info, legal)
    return rng.choice(legal)
