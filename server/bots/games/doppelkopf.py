"""The rule-based player ("Einsteiger") of Doppelkopf (``rules/doppelkopf.txt``).

* **Vorbehalt**: "gesund" — the beginner plays no solo, no Hochzeit, no Armut (with both
  Kreuz-Damen that is a stille Hochzeit).
* **Calls**: Re or Kontra (``knock``) only with a strong trump hand (eight trumps, three of
  them Dullen or Kreuz-/Pik-Damen) before its first card; no further announcements.
* **The searching player's candidates** (:func:`search_actions`): at the Vorbehalt it
  weighs "gesund", every other reservation and the :data:`SOLO_CANDIDATES` solos the hand
  is strongest in (:func:`solo_strength`): ten contracts played out in every sampled world
  would leave the budget no world to weigh them in.
* **Play**: :mod:`server.bots.games.trickplay` with the contract's trick rules (the
  engine's table); the partners are the seats the view shows in the own party: smear
  onto their safe tricks, take the others' cheaply, pull trumps as a soloist.

Views number the copies of a card in the order the table saw them and actions name kinds
(``play H10``): the player maps both onto card indices, its own copies first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from server.bots.games.trickplay import Trick, choose_card, own_moves
from server.engine.cards import DOPPELKOPF
from server.engine.games.doppelkopf.contracts import CONTRACTS, trick_rules

#: The searching player's budget here (``server.bots.search.budget_of``, docs/bots.md): at
#: 6,000 units its decisions took 176 / 250 ms of CPU (p50 / p95) in five deal sets against
#: the Einsteiger; at 3,400, 84 / 137 ms (the machine of 2026-11-28, two duels at once).
STARK_BUDGET = 3_400
NORMAL = CONTRACTS["normal"]
HIGH = DOPPELKOPF.kind_mask["H10"] | DOPPELKOPF.kind_mask["CQ"] | DOPPELKOPF.kind_mask["SQ"]
#: The copies of each kind as card indices, in order.
COPIES = {
    kind: [c for c in range(len(DOPPELKOPF)) if (mask >> c) & 1]
    for kind, mask in DOPPELKOPF.kind_mask.items()
}


@lru_cache(maxsize=512)
def index(code: str) -> int:
    """The index of a card code (the pack's parse, remembered: searching players call it
    in every playout step)."""
    return DOPPELKOPF.parse(code)


def hand_mask(codes: list[str]) -> int:
    """The seat's own cards (their codes as the view numbers them)."""
    found = 0
    for code in codes:
        found |= 1 << index(code)
    return found


def strong(hand: int) -> bool:
    """Whether the hand is worth a Re or Kontra."""
    trumps = hand & trick_rules(NORMAL).trumps
    return trumps.bit_count() >= 8 and (hand & HIGH).bit_count() >= 3


def _played(info: Mapping[str, Any], hand: int) -> int:
    """The cards played so far as indices: per kind as many copies as were played, never
    one the seat holds."""
    counts: dict[str, int] = {}
    for _, text in info["actions"]:  # "play <kind>" (a playout step reads them all: plainly)
        if text.startswith("play ") and (kind := text[5:]) and " " not in kind:
            counts[kind] = counts.get(kind, 0) + 1
    gone = 0
    for kind, count in counts.items():
        for card in COPIES[kind]:
            if not count:
                break
            if not (hand >> card) & 1:
                gone |= 1 << card
                count -= 1
    return gone


def play(info: Mapping[str, Any], legal: list[str]) -> str:
    """A card by the rules of thumb (see the module text)."""
    view = info["view"]
    seat = int(info["seat"])
    hand = hand_mask(view["hand"])
    row = CONTRACTS.get(str(view.get("contract")), NORMAL)
    rules = trick_rules(row, schweinchen=view.get("schweinchen") is not None)
    legal_mask = 0
    for text in legal:
        legal_mask |= hand & DOPPELKOPF.kind_mask[text.split()[1]]
    parties = view.get("parties") or [None] * 4
    mine = parties[seat]
    partners = frozenset(
        s for s, party in enumerate(parties) if s != seat and mine is not None and party == mine
    )
    declarer = view.get("declarer")
    solo = row.solo and declarer == seat
    trick = view["trick"]
    cards = tuple(index(code) for code in trick["cards"])
    on_table = sum(1 << c for c in cards)
    t = Trick(
        seat=seat,
        seats=4,
        leader=int(trick["leader"]),
        cards=cards,
        partners=partners,
        hand=hand,
        legal=legal_mask,
        gone=_played(info, hand | on_table) & ~on_table,
        rules=rules,
        points=DOPPELKOPF.points,
        full=DOPPELKOPF.full,
        alone=solo,
    )
    return f"play {DOPPELKOPF.cards[choose_card(t)].kind}"


#: The solos the searching player weighs at the Vorbehalt (the strongest for the hand).
SOLO_CANDIDATES = 2


def solo_strength(hand: int, contract: str) -> float:
    """How strong ``hand`` is in the solo ``contract``: per card, the share of the other
    players' cards that cannot beat it when it leads (a card only its own hand could beat
    counts 1, one that eight of the others' cards beat counts 0).

    >>> queens = hand_mask(["CQ.1", "CQ.2", "SQ.1", "SQ.2", "HQ.1", "HQ.2", "DQ.1", "DQ.2"])
    >>> aces = hand_mask(["CA.1", "SA.1", "HA.1", "DA.1"])
    >>> solo_strength(queens | aces, "damen") > solo_strength(queens | aces, "buben")
    True
    """
    rules = trick_rules(CONTRACTS[contract])
    strength = 0.0
    for card in range(len(DOPPELKOPF)):
        if (hand >> card) & 1:
            beaten_by = (rules.beats[card] & ~hand).bit_count()
            strength += max(0.0, 1.0 - beaten_by / 8)
    return strength


def search_actions(info: Mapping[str, Any], legal: list[str]) -> list[str]:
    """The actions the searching player weighs: at the Vorbehalt every reservation that is
    not a solo and the :data:`SOLO_CANDIDATES` solos :func:`solo_strength` rates highest
    (in the order of ``legal``); every legal action elsewhere.

    >>> hand = ["CQ.1", "CQ.2", "SQ.1", "SQ.2", "HQ.1", "HQ.2", "DQ.1", "DQ.2",
    ...         "CJ.1", "CJ.2", "CA.1", "SA.1"]
    >>> info = {"view": {"phase": "vorbehalt", "hand": hand}}
    >>> legal = ["gesund", "solo trumpf", "solo kreuz", "solo damen", "solo fleischlos"]
    >>> search_actions(info, legal)
    ['gesund', 'solo kreuz', 'solo damen']
    """
    view = info["view"]
    if view.get("phase") != "vorbehalt":
        return legal
    solos = [t for t in legal if t.startswith("solo ") and t.split()[1] in CONTRACTS]
    if len(solos) <= SOLO_CANDIDATES:
        return legal
    hand = hand_mask(view["hand"])
    ranked = sorted(solos, key=lambda t: -solo_strength(hand, t.split()[1]))
    kept = set(ranked[:SOLO_CANDIDATES])
    return [t for t in legal if t not in solos or t in kept]


def einsteiger(info: Mapping[str, Any], rng: random.Random) -> str:
    """The Einsteiger's action in ``info`` (see the module text)."""
    view = info["view"]
    legal = own_moves(view)
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    hand = hand_mask(view["hand"])
    if phase == "vorbehalt":
        return "gesund" if "gesund" in legal else legal[0]
    if phase == "play":
        first_card = len(view["hand"]) == 12
        if "knock" in legal and first_card and strong(hand):
            return "knock"
        cards = [t for t in legal if t.startswith("play ")]
        if cards:
            return play(info, cards)
    return rng.choice(legal)
