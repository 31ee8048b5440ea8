"""Bayerisches Tarock's games as data: the contract table, the bidding ladders, the trick rules.

One :class:`BTContract` row per kind of game (``bayerisches-tarock.txt``, "Spielarten" and
"Variante ohne Reizen", BT-A3 … BT-A14). What differs between them is in the row, never
in a branch on a contract's name:

* ``stock`` — the declarer takes the Stock and discards three (Frage, BT-A3); otherwise
  the Stock stays unseen and counts for the declarer (Hand, BT-A4);
* ``trump`` — ``"choose"`` (the declarer names any suit), ``"other"`` (any suit but Herz:
  the variant without Reizen lists Herz games apart), ``"H"`` (Herz is trump) or
  ``"none"`` (Bettel);
* ``hand`` — a Hand game (the "Hand" unit of BT-A10, never through the Haferl, BT-A12);
* ``positive`` — the declarer wants Augen (False: Bettel, no trick allowed);
* ``durch`` — the declarer must take every trick (BT-A9);
* ``rank`` — the order of the requests in the variant without Reizen (Bettel > Hand in
  Herz > Hand > Stock in Herz > Stock); ``0``: not a request there;
* ``value`` — the payout of the variant without Reizen (Herz-Neischaugn 1, Solo 2,
  Herzsolo 3, Bettel 4; a Stock game in another suit 1, BT-A14).

>>> CONTRACTS["hand_herz"].value, CONTRACTS["frage"].stock, CONTRACTS["bettel"].positive
(3, True, False)
>>> [c.name for c in sorted(CONTRACTS.values(), key=lambda c: c.rank) if c.rank]
['frage', 'frage_herz', 'hand', 'hand_herz', 'bettel']
>>> REIZ_LADDER.bids[:3], REIZ_LADDER.bids[-2:]
(('ich_spiele', 'hand', '66'), ('116', 'durch'))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from server.engine.auction import Ladder, point_steps
from server.engine.base import Contract, contract_table
from server.engine.cards import GERMAN
from server.engine.tricks import TrickRules, suit_trump_rules, trumpless_rules

#: The suits a declarer may name (Eichel, Gras, Herz, Schellen).
SUITS = GERMAN.suits
HERZ = "H"
#: The order of the cards in every suit (trump or not): A 10 K O U 9 8 7 6.
RANKS = ("A", "10", "K", "O", "U", "9", "8", "7", "6")
#: In a Bettel the ten sits between Unter and Neuner (the rules text's Bettel table).
BETTEL_RANKS = ("A", "K", "O", "U", "10", "9", "8", "7", "6")
#: The least Augen of a won game, the step of the point bids, the most Augen.
BASE_TARGET = 61
STEP = 5
TOTAL_AUGEN = 120
TRICKS = 11

#: Trick rules per trump suit: Farbzwang, Trumpfzwang and Stichzwang (BT-A6).
TRUMP_RULES: dict[str, TrickRules] = {
    suit: suit_trump_rules(GERMAN, suit, RANKS, stichzwang=True) for suit in SUITS
}
#: Before the trump is named: every suit plain, in its usual order (to sort a hand by).
SORT_RULES = trumpless_rules(GERMAN, RANKS)
#: Bettel: no trumps, the ten between Unter and Neuner; Stichzwang or not (BT-A7).
BETTEL_RULES: dict[bool, TrickRules] = {
    flag: trumpless_rules(GERMAN, BETTEL_RANKS, stichzwang=flag) for flag in (True, False)
}


@dataclass(frozen=True, slots=True)
class BTContract(Contract):
    """A row of Bayerisches Tarock's contract table (see the module text)."""

    stock: bool = False
    trump: str = "choose"
    hand: bool = True
    durch: bool = False

    def trump_choices(self, *, herz_only: bool = False, herz_apart: bool = True) -> tuple[str, ...]:
        """The suits the declarer may name (empty in a Bettel). ``herz_only``: a house rule
        allows this game only in Herz (Frage nur in Herz, BT-A3; the Berliner, BT-A17);
        ``herz_apart``: Herz games are requests of their own (the variant without Reizen),
        so an ``"other"`` row may not name Herz.

        >>> CONTRACTS["frage"].trump_choices(), CONTRACTS["frage"].trump_choices(herz_apart=False)
        (('E', 'G', 'S'), ('E', 'G', 'H', 'S'))
        >>> CONTRACTS["hand_herz"].trump_choices(), CONTRACTS["frage"].trump_choices(herz_only=True)
        (('H',), ('H',))
        """
        if self.trump == "none":
            return ()
        if self.trump == HERZ or herz_only:
            return (HERZ,)
        if self.trump == "other" and herz_apart:
            return tuple(s for s in SUITS if s != HERZ)
        return SUITS


CONTRACTS: dict[str, BTContract] = contract_table(
    BTContract("frage", rank=1, value=1, talon=3, stock=True, hand=False, trump="other"),
    BTContract("frage_herz", rank=2, value=1, talon=3, stock=True, hand=False, trump=HERZ),
    BTContract("hand", rank=3, value=2, solo=True, trump="other"),
    BTContract("hand_herz", rank=4, value=3, solo=True, trump=HERZ),
    BTContract("bettel", rank=5, value=4, solo=True, trump="none", positive=False),
    BTContract("durch", rank=0, value=0, solo=True, durch=True),
)  # fmt: skip

#: The point bids after "Hand": "fünf mehr" (66) … "55 mehr" (116) (BT-A1, BT-A9).
POINT_BIDS = point_steps(BASE_TARGET + STEP, BASE_TARGET + 11 * STEP, STEP)
ICH_SPIELE = "ich_spiele"
HAND = "hand"
BETTEL = "bettel"
DURCH = "durch"


@cache  # a frozen value built anew for every deal otherwise (its table of bids: ~90 µs)
def reiz_ladder(*, bettel: bool, opening_only_ich_spiele: bool = True) -> Ladder:
    """The ladder of the Reizen (BT-A1): "Ich spiele" < "Hand" [< "Bettel", BT-A8] < 66 < …
    < 116 < "Durch"; holding by priority (an earlier seat may take the same level), passes
    are final; the first bid of the auction is "Ich spiele" (V opens with it or passes).

    >>> reiz_ladder(bettel=True).bids[:4]
    ('ich_spiele', 'hand', 'bettel', '66')
    """
    bids = (ICH_SPIELE, HAND, *((BETTEL,) if bettel else ()), *POINT_BIDS, DURCH)
    first = (ICH_SPIELE,) if opening_only_ich_spiele else ()
    return Ladder(bids, holding=True, first_bids=first)


REIZ_LADDER = reiz_ladder(bettel=False)
#: The variant without Reizen: each seat names its wish once, from V; a later wish must be
#: higher (the earlier seat wins a tie, BT-A14).
WISH_LADDER = Ladder(
    tuple(c.name for c in sorted(CONTRACTS.values(), key=lambda c: c.rank) if c.rank), rounds=1
)
#: Every word of every auction (the codec's ``bid`` arguments), in an order that keeps
#: both ladders in order (the legal moves are listed by move number).
BID_WORDS: tuple[str, ...] = (
    ICH_SPIELE,
    "frage",
    "frage_herz",
    HAND,
    "hand_herz",
    BETTEL,
    *POINT_BIDS,
    DURCH,
)
#: What the declarer may announce as his game after the Reizen: the Stock game, a Hand game
#: at 61, the Bettel, or a Hand game with a point target (his bid, or higher when he raises
#: himself, BT-A2), or Durch.
GAME_WORDS: tuple[str, ...] = ("frage", HAND, BETTEL, *POINT_BIDS, DURCH)


def target_of(word: str) -> int:
    """The Augen a Hand game announced with ``word`` needs (61 for "hand", the bid for a
    point bid; Durch counts as the step above 116).

    >>> target_of("hand"), target_of("71"), target_of("durch")
    (61, 71, 121)
    """
    if word == DURCH:
        return BASE_TARGET + (len(POINT_BIDS) + 1) * STEP
    if word in POINT_BIDS:
        return int(word)
    return BASE_TARGET
