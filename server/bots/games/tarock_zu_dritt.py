"""The rule-based player ("Einsteiger") of Tarock zu dritt (``rules/tarock-zu-dritt.txt``).

A cautious beginner at the Speisezettel:

* **Bidding**: only the plain positive games, by the hand strength of
  :func:`server.bots.games.tarockhand.strength` (Dreier, Zweier, Einer, Solodreier); no
  negative game, no Farbenspiel, never "bei". Vorhand opens with "Vorhand!" when the hand
  is worth no game; if it stands, she picks the Sechserdreier with a strong hand, else
  Trischaken.
* **Talon**: the half, pair or card worth most to the declarer.
* **Discards**: the shortest plain suit first, its cards with most points first.
* **Announcements and Kontra**: "ich liege" and "gut": the beginner announces nothing and
  doubles nothing.
* **Play**: :mod:`server.bots.games.trickplay` with the trick rules of the game played:
  the tarock rules of a positive game (the Pagat kept for the last trick by a hand long
  in trumps), Stichzwang and ducking in negative games and Trischaken (whoever wants no
  tricks), tarocks without trick power in a Farbenspiel.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server.bots.games.tarockhand import (
    PAGAT,
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
from server.engine.tricks import tarock_rules

#: The searching player's budget here (``server.bots.search.budget_of``, docs/bots.md): at
#: 6,000 units its decisions took 139 / 207 ms of CPU (p50 / p95) in five deal sets against
#: the Einsteiger; at 4,000, 99 / 145 ms (the machine of 2026-11-28, two duels at once).
STARK_BUDGET = 4_000
#: Actions that show the sampler their player holds cards: a bird is announced by the
#: player who holds it.
HOLDS = {
    "announce pagat": ("T1",),
    "announce uhu": ("T2",),
    "announce kakadu": ("T3",),
    "announce quapil": ("T4",),
}
#: The sampler's hint: refusals of a card kept for the last trick (played earlier only
#: when nothing else is legal).
LAST_RESORT = ("bird_kept",)


def places(info: Mapping[str, Any]) -> list[int] | None:
    """The sampler's hint after a knock (option ``geklopft``): the packet (dealt hand)
    each seat chose, Vorhand first, Mittelhand next, Hinterhand keeps the last; ``None``
    while the packets are not all taken (or were not dealt)."""
    chosen: dict[int, int] = {}
    for seat, text in info["actions"]:
        words = str(text).split()
        if len(words) == 2 and words[0] == "packet":
            chosen[int(seat)] = int(words[1]) - 1
    if len(chosen) < 2:
        return None
    (last,) = {0, 1, 2} - set(chosen.values())
    return [chosen[0], chosen[1], last]


#: For the sampler: the packets the seats chose.
PLACES = places
#: The strength a bid needs, highest first (the plain positive games only).
BIDS = (("solodreier", 17.0), ("einer", 14.5), ("zweier", 13.0), ("dreier", 11.5))
#: The games played for a number of tricks (the declarer wants few), and Trischaken.
NEGATIVE = frozenset({
    "triccolo", "zwiccolo", "piccolo", "bettler", "triccolo_semi", "zwiccolo_semi",
    "piccolo_semi", "bettel_semi", "triccolo_ouvert", "zwiccolo_ouvert", "piccolo_ouvert",
    "bettel_ouvert", "trischaken",
})  # fmt: skip
NEGATIVE_TRICKS = tarock_rules(TAROCK, stichzwang=True)
FARBEN_TRICKS = tarock_rules(TAROCK, farbenspiel=True)


def bid(info: Mapping[str, Any], legal: list[str]) -> str:
    """The highest plain positive game the hand is worth; else "Vorhand!" or pass; when
    Vorhand's call stood, the Sechserdreier with a strong hand, else Trischaken."""
    value = strength(mask(info["view"]["hand"]))
    if "bid trischaken" in legal or "bid sechserdreier" in legal:
        if value >= 13.0 and "bid sechserdreier" in legal:
            return "bid sechserdreier"
        return "bid trischaken" if "bid trischaken" in legal else legal[0]
    for name, needed in BIDS:
        if value >= needed and f"bid {name}" in legal:
            return f"bid {name}"
    if "vorhand" in legal:
        return "vorhand"
    return "pass" if "pass" in legal else legal[0]


def take(info: Mapping[str, Any], legal: list[str]) -> str:
    """The talon group (``take 1|2``, ``take 1|2|3``) or card (``take 1`` … ``6``) worth
    most to the declarer."""
    view = info["view"]
    talon = [TAROCK.parse(code) for code in view.get("talon") or []]
    numbers = [int(text.split()[1]) for text in legal]
    if not talon:
        return legal[0]
    if view.get("talon_pick") or len(numbers) == len(talon):
        size = 1
    else:
        size = len(talon) // max(numbers)

    def worth(number: int) -> float:
        return sum(card_value(c) for c in talon[(number - 1) * size : number * size])

    best = max(numbers, key=lambda n: (worth(n), -n))
    return f"take {best}"


def card_plan(info: Mapping[str, Any]) -> CardPlan:
    """The seat's card play in the game played (a negative game by ducking, a Farbenspiel
    with its trick rules)."""
    view = info["view"]
    contract = str(view.get("contract") or "")
    declarer = view.get("declarer")
    talon = mask(view.get("talon")) if contract not in NEGATIVE else 0
    gone = (talon & ~mask(view.get("talon_taken"))) | mask(view.get("discards"))
    gone |= mask(view.get("open_discards"))
    negative = contract in NEGATIVE
    rules = None
    if negative:
        rules = NEGATIVE_TRICKS
    elif contract.startswith("farb"):
        rules = FARBEN_TRICKS
    declarers = view.get("declarers") or []
    return tarock_plan(
        info,
        declarer=None if declarer is None or len(declarers) != 1 else int(declarer),
        negative=negative,
        gone=gone,
        keep=0 if negative else 1 << PAGAT,
        rules=rules,
    )


def play(info: Mapping[str, Any], legal: list[str]) -> str:
    """A card by the rules of thumb of the game played (:func:`card_plan`)."""
    return card_plan(info).play(info["view"], legal)


def einsteiger(info: Mapping[str, Any], rng: random.Random) -> str:
    """The Einsteiger's action in ``info`` (see the module text)."""
    view = info["view"]
    legal = own_moves(view)
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "auction":
        return bid(info, legal)
    if phase == "talon":
        return take(info, legal)
    if phase == "discard":
        return choose_discard(mask(view["hand"]), legal)
    if phase in ("announce", "kontra"):
        for quiet in ("liege", "gut"):
            if quiet in legal:
                return quiet
    if phase == "play":
        return play(info, legal)
    return rng.choice(legal)
