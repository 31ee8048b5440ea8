"""Doppen's contracts as data, its auction ladder, discard rule and premium table.

One :class:`DoppenContract` row per bid of ``doppen.txt`` ("Steigern", DP-A2 … DP-A5):
the five bids from the lowest, each with what the logic reads:

* ``rank`` — the place on the ladder (Dreier < Unterer < Zweier < Einer < Solo);
* ``value`` — the Spielfaktor (Dreier 1, Unterer and Zweier 2, Einer 3, Solo 4);
* ``premium_factor`` — the Prämienfaktor (the Unterer's is 1, else the Spielfaktor);
* ``talon_rule`` — what the declarer takes from the turned-up talon: one of the two
  halves (Dreier, Unterer), one of the three pairs (Zweier), any one card (Einer),
  nothing unseen (Solo, DP-A2);
* ``talon_words`` — the words that name the groups of a ``"groups"`` rule in talon order
  (``take upper`` / ``take lower``; ``take upper|middle|lower``); an ``"any"`` rule is
  answered with the card (``take T5``).

>>> [(c.name, c.value, c.premium_factor, c.talon) for c in CONTRACTS.values()]
... # doctest: +NORMALIZE_WHITESPACE
[('dreier', 1, 1, 3), ('unterer', 2, 1, 3), ('zweier', 2, 2, 2), ('einer', 3, 3, 1),
 ('solo', 4, 4, 0)]
>>> LADDER.after
{'unterer': 'dreier'}
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.auction import Ladder
from server.engine.base import Contract, contract_table
from server.engine.cards import TAROCK
from server.engine.doubling import DoublingRules
from server.engine.tarock.discards import tarock_discards
from server.engine.tarock.premiums import KINGS, TRULL, Bird, Held, PremiumTable, Valat
from server.engine.tarock.talon import TalonRule
from server.engine.tricks import TrickRules, tarock_rules

PAGAT = TAROCK.parse("T1")
UHU = TAROCK.parse("T2")
BIT_PAGAT = 1 << PAGAT
BIT_UHU = 1 << UHU
#: Farbzwang, Trumpfzwang, no Stichzwang, no Kaiserstich (DP-A21, DP-A22).
TRICK_RULES = tarock_rules(TAROCK)
#: A Solo takes nothing from the talon.
NO_TALON = TalonRule("none")


@dataclass(frozen=True, slots=True)
class DoppenContract(Contract):
    """A row of Doppen's contract table (see the module text)."""

    premium_factor: int = 1
    talon_rule: TalonRule = NO_TALON
    talon_words: tuple[str, ...] = ()
    trick_rules: TrickRules = TRICK_RULES


CONTRACTS: dict[str, DoppenContract] = contract_table(
    DoppenContract("dreier", rank=1, value=1, talon=3, premium_factor=1,
                   talon_rule=TalonRule("groups", 3), talon_words=("upper", "lower")),
    DoppenContract("unterer", rank=2, value=2, talon=3, premium_factor=1,
                   talon_rule=TalonRule("groups", 3), talon_words=("upper", "lower")),
    DoppenContract("zweier", rank=3, value=2, talon=2, premium_factor=2,
                   talon_rule=TalonRule("groups", 2), talon_words=("upper", "middle", "lower")),
    DoppenContract("einer", rank=4, value=3, talon=1, premium_factor=3,
                   talon_rule=TalonRule("any", 1)),
    DoppenContract("solo", rank=5, value=4, talon=0, premium_factor=4, solo=True,
                   talon_rule=TalonRule("none")),
)  # fmt: skip
#: The bids, lowest first.
BIDS = tuple(c.name for c in sorted(CONTRACTS.values(), key=lambda c: c.rank))
#: Holding by priority, a pass is final, the Unterer only over a Dreier (DP-A3, DP-A4).
LADDER = Ladder(BIDS, holding=True, after={"unterer": "dreier"})
#: Honours never; trumps only when forced, face up (DP-A5).
DISCARDS = tarock_discards(TAROCK)
#: The words of the talon choices of ``"groups"`` rules (the union, in codec order).
TAKE_WORDS = ("upper", "middle", "lower")

#: The items that may be doubled (DP-A14) and the doubling words (Kontra, Re, Kontra …).
DOUBLING = DoublingRules(
    words=("kontra", "re"), cap=None, doublable=frozenset({"game", "valat", "pagat", "uhu"})
)
ITEMS = ("game", "valat", "pagat", "uhu")
#: What may be announced: the birds by their holder, the Valat by the declarer (DP-A13).
ANNOUNCEABLE = ("pagat", "uhu", "valat")
#: The bird's card and the index of the trick it must win.
BIRDS = {"pagat": (PAGAT, 15), "uhu": (UHU, 14)}

#: The premiums (DP-A10 … DP-A12, DP-A15): silent and announced values before the factors.
PREMIUMS = PremiumTable(
    (
        Bird("pagat", PAGAT, 0, silent=10, announced=20, silent_loss=True),
        Bird("uhu", UHU, 1, silent=10, announced=20, silent_loss=True),
        Held("trull", TRULL, 10),
        Held("koenige", KINGS, 10),
        Valat("valat", silent=50, announced=100),
    )
)
