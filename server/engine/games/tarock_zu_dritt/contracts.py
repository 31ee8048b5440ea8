"""The Speisezettel of Tarock zu dritt as data: one row per game, the auction ladder, the
premiums, the discard rules and the play rules of its tricks.

One :class:`TzdContract` row per line of the rules text's table (TZ-A1, TZ-A2). ``rank``
is the "Nr" column and decides the bidding (the two Vorhandspiele have none: they are
chosen, never bid); ``value`` is the "Wert" column and decides the payment. The logic of
the deal reads the fields, never a name:

* ``kind`` — ``"positive"`` (card points), ``"negative"`` (a number of tricks) or
  ``"trischaken"`` (nobody plays alone);
* ``talon_rule`` — what the declarer takes (TZ-A4, TZ-A5): a half, a pair, any one card,
  the whole talon unseen, or nothing;
* ``farben`` — a Farbenspiel: tarocks without trick power, Farbausspielzwang, its own
  discard rule and only Könige, Säcke and Valat as premiums (TZ-A10, TZ-A20);
* ``premium_factor`` — 2 in the Solospiele (all premiums but Valat count double);
* ``lost_value`` — what a lost game costs (the Sechserdreier: 6, TZ-A8);
* ``tricks`` — the exact number of tricks a negative game needs (TZ-A21);
* ``ouvert`` — ``"semi"`` (the declarer's hand) or ``"all"`` lies open after trick 1;
* ``vorhand_only`` — a Vorhandspiel (chosen by Vorhand when everybody passed her);
* ``leader`` — who leads trick 1: Vorhand in positive games and Trischaken, the declarer
  in negative games (TZ-A7).

>>> [c.name for c in CONTRACTS.values() if c.rank][:4]
['farbdreier', 'dreier', 'triccolo', 'zwiccolo']
>>> CONTRACTS["bettel_ouvert"].rank, CONTRACTS["bettel_ouvert"].value
(20, 8)
>>> CONTRACTS["sechserdreier"].lost_value, CONTRACTS["farbensolo"].premium_factor
(6, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.auction import Ladder
from server.engine.base import Contract, contract_table
from server.engine.cards import TAROCK
from server.engine.doubling import DoublingRules
from server.engine.tarock.discards import DiscardRule, farbenspiel_discards, tarock_discards
from server.engine.tarock.premiums import (
    KINGS,
    MOND,
    PAGAT,
    TRULL,
    Bird,
    Collected,
    Fang,
    Held,
    PremiumTable,
    Sack,
    Valat,
)
from server.engine.tarock.talon import TalonRule
from server.engine.tricks import TrickRules, tarock_rules

SKUS = TAROCK.parse("SK")
TAROCKS = TAROCK.suit_mask["T"]
BIT_PAGAT = 1 << PAGAT
BIT_MOND = 1 << MOND
BIT_SKUS = 1 << SKUS

#: The trick rules: Farb- and Tarockzwang always; Stichzwang in negative games and
#: Trischaken (TZ-A18); no trick power of tarock and Farbausspielzwang in Farbenspiele.
POSITIVE_TRICKS = tarock_rules(TAROCK)
NEGATIVE_TRICKS = tarock_rules(TAROCK, stichzwang=True)
FARBEN_TRICKS = tarock_rules(TAROCK, farbenspiel=True)

POSITIVE_DISCARDS = tarock_discards(TAROCK)
FARBEN_DISCARDS = farbenspiel_discards(TAROCK)


NO_TALON = TalonRule("none")


@dataclass(frozen=True, slots=True)
class TzdContract(Contract):
    """A row of the Speisezettel (see the module text)."""

    kind: str = "positive"
    talon_rule: TalonRule = NO_TALON
    farben: bool = False
    premium_factor: int = 1
    lost_value: int = 0
    tricks: int = -1
    ouvert: str = ""
    vorhand_only: bool = False

    @property
    def negative(self) -> bool:
        """A game for a number of tricks (Stichzwang, no premiums, no talon)."""
        return self.kind == "negative"

    @property
    def trischaken(self) -> bool:
        """The game without a declarer."""
        return self.kind == "trischaken"

    @property
    def trick_rules(self) -> TrickRules:
        """The follow and ranking rules of the game's tricks (TZ-A18, TZ-A20)."""
        if self.farben:
            return FARBEN_TRICKS
        return POSITIVE_TRICKS if self.kind == "positive" else NEGATIVE_TRICKS

    @property
    def discard_rule(self) -> DiscardRule:
        """Honours never; tarocks (Farbenspiele: suit cards) only when forced (TZ-A5)."""
        return FARBEN_DISCARDS if self.farben else POSITIVE_DISCARDS

    @property
    def cost(self) -> int:
        """What the game costs the declarer when lost (``value`` unless the row says)."""
        return self.lost_value or self.value

    @property
    def premium_codes(self) -> tuple[str, ...]:
        """The premiums that count in this game (TZ-A10): none in negative games and
        Trischaken, Könige, Säcke and Valat in Farbenspiele, all otherwise."""
        if self.kind != "positive":
            return ()
        if self.farben:
            return FARBEN_PREMIUMS
        return ALL_PREMIUMS


def _row(name: str, rank: int, value: int, **fields: object) -> TzdContract:
    leader = "declarer" if fields.get("kind") == "negative" else "vorhand"
    return TzdContract(name, rank=rank, value=value, leader=leader, **fields)  # type: ignore[arg-type]


HALVES = TalonRule("groups", 3)
PAIRS = TalonRule("groups", 2)
ONE = TalonRule("any", 1)
HIDDEN = TalonRule("hidden")
NEG = {"kind": "negative", "positive": False, "premiums": False}

CONTRACTS: dict[str, TzdContract] = contract_table(
    _row("trischaken", 0, 2, kind="trischaken", positive=False, premiums=False,
         vorhand_only=True),
    _row("sechserdreier", 0, 3, talon=6, talon_rule=HIDDEN, lost_value=6, vorhand_only=True),
    _row("farbdreier", 3, 3, talon=3, talon_rule=HALVES, farben=True),
    _row("dreier", 4, 3, talon=3, talon_rule=HALVES),
    _row("triccolo", 5, 4, tricks=3, **NEG),
    _row("zwiccolo", 6, 4, tricks=2, **NEG),
    _row("piccolo", 7, 4, tricks=1, **NEG),
    _row("bettler", 8, 4, tricks=0, **NEG),
    _row("farbenzweier", 9, 4, talon=2, talon_rule=PAIRS, farben=True),
    _row("zweier", 10, 4, talon=2, talon_rule=PAIRS),
    _row("triccolo_semi", 11, 6, tricks=3, ouvert="semi", **NEG),
    _row("zwiccolo_semi", 12, 6, tricks=2, ouvert="semi", **NEG),
    _row("piccolo_semi", 13, 6, tricks=1, ouvert="semi", **NEG),
    _row("bettel_semi", 14, 6, tricks=0, ouvert="semi", **NEG),
    _row("farbeneiner", 15, 6, talon=1, talon_rule=ONE, farben=True),
    _row("einer", 16, 6, talon=1, talon_rule=ONE),
    _row("triccolo_ouvert", 17, 8, tricks=3, ouvert="all", **NEG),
    _row("zwiccolo_ouvert", 18, 8, tricks=2, ouvert="all", **NEG),
    _row("piccolo_ouvert", 19, 8, tricks=1, ouvert="all", **NEG),
    _row("bettel_ouvert", 20, 8, tricks=0, ouvert="all", **NEG),
    _row("farbensolo", 21, 8, farben=True, solo=True, premium_factor=2),
    _row("solodreier", 22, 8, solo=True, premium_factor=2),
)  # fmt: skip

#: The bids, lowest first (the "Nr" column).
BIDS = tuple(c.name for c in sorted(CONTRACTS.values(), key=lambda c: c.rank) if c.rank)
#: The Vorhandspiele, chosen by Vorhand when both others passed her "Vorhand!".
VORHANDSPIELE = tuple(c.name for c in CONTRACTS.values() if c.vorhand_only)
#: Phase I (TZ-A1, TZ-A3): Vorhand's opening, strictly higher bids, no holding, passes are
#: final, the same negative game may be joined once ("-bei").
LADDER = Ladder(
    BIDS,
    opening="vorhand",
    joinable=tuple(c.name for c in CONTRACTS.values() if c.negative),
)

#: Kontra, Rekontra, Subkontra, no more (TZ-A9); game and every announced premium apart.
DOUBLING = DoublingRules(words=("kontra", "rekontra", "subkontra"), cap=3)
#: In negative games each opponent doubles for himself: one chain per opponent (TZ-A9).
DOUBLING_NEGATIVE = DoublingRules(
    words=("kontra", "rekontra", "subkontra"), cap=3, per_opponent=True
)
#: The "Skoty-Trophy" option: Kontra only.
SKOTY_TROPHY = DoublingRules(words=("kontra",), cap=1)

#: The optional rule "Honneurs (5 Fünferzähler)": five of the seven Honneurs (the Könige
#: and the Trull cards, each a Fünferzähler) in one hand at the first lead; silent only,
#: 1 for the hand's party (counted only with the option ``honneurs``).
HONNEURS = Held("honneurs", KINGS | TRULL, silent=1, need=5)

#: The premiums (Zutaten) with their silent and announced values. Säcke are silent only
#: with the option "stille Säcke" (:data:`SILENT_SACK_PREMIUMS`).
PREMIUMS = PremiumTable(
    (
        Bird("pagat", PAGAT, 0, silent=1, announced=2),
        Bird("uhu", TAROCK.parse("T2"), 1, silent=2, announced=4),
        Bird("kakadu", TAROCK.parse("T3"), 2, silent=3, announced=6),
        Bird("quapil", TAROCK.parse("T4"), 3, silent=4, announced=8),
        Collected("koenige", KINGS, silent=1, announced=2),
        Collected("trull", TRULL, silent=1, announced=2),
        Fang("mondfang", MOND, silent=1, unless=TRULL),
        Fang("pagatfang", PAGAT, silent=1),
        Sack("sack", 137, silent=None, announced=2),
        Sack("doppelsack", 167, silent=None, announced=2),
        HONNEURS,
        Valat("valat", silent=15, announced=30),
    ),
    with_valat=frozenset({"pagat", "uhu", "kakadu", "quapil"}),
)
SILENT_SACK_PREMIUMS = PremiumTable(
    tuple(
        Sack(s.code, s.threshold, silent=1, announced=s.announced) if isinstance(s, Sack) else s
        for s in PREMIUMS.specs
    ),
    PREMIUMS.with_valat,
)
FARBEN_PREMIUMS = ("koenige", "sack", "doppelsack", "valat")
#: Every premium of the table, in its order (what a positive game counts).
ALL_PREMIUMS = tuple(spec.code for spec in PREMIUMS.specs)
#: Every premium code that may be announced, and the bird cards one must hold to do so.
ANNOUNCEABLE = tuple(PREMIUMS.announceable())
BIRD_CARDS: dict[str, int] = {s.code: s.card for s in PREMIUMS.specs if isinstance(s, Bird)}
#: The trick (0-based, of 16) each bird must win (TZ-A13).
BIRD_TRICKS: dict[str, int] = {
    s.code: 15 - s.from_end for s in PREMIUMS.specs if isinstance(s, Bird)
}
