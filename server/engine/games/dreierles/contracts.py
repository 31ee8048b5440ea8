"""Dreierles' contracts as data, its auction, talon, discard rules and its own play rules.

One :class:`DreierlesContract` row per game (``dreierles.txt``, DL-A2 … DL-A17): the four
bids (Dreier, Zweier, Einer, Solo; factor 1–4, taking 3/2/1/0 cards of the blind) and
the Räuber that follows when everybody passes. What differs between them is in the row,
never in a branch on a contract's name:

* ``value`` — the game factor (the Räuber's base payment: 2, DL-A16);
* ``talon`` — the top cards of the blind the declarer takes (DL-A3);
* ``trick_rules`` — the follow and ranking rules of its tricks (the same for all five:
  Farbzwang, Trumpfzwang, no Stichzwang, DL-A15);
* ``leader`` — who leads trick 1: the declarer (DL-A14), in the Räuber Vorhand;
* ``declared`` — whether somebody plays alone (no declarer, no bonuses in the Räuber);
* ``knock`` — who may knock: ``"opponents"`` (one bidding opponent, then the declarer
  back, DL-A8) or ``"each"`` (every seat once from Vorhand, DL-A16);
* ``blind`` — where the rest of the blind goes: ``"opponents"`` (DL-A3) or ``"aside"``;
* ``play_rules`` — the codes of the contract's own restrictions in trick play
  (:data:`PLAY_RULES`), applied on top of Farb- and Trumpfzwang by the trick core.

>>> CONTRACTS["einer"].value, CONTRACTS["einer"].talon, CONTRACTS["raeuber"].leader
(3, 1, 'vorhand')
>>> [c.name for c in CONTRACTS.values() if c.rank]
['dreier', 'zweier', 'einer', 'solo']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from server.engine.auction import Ladder
from server.engine.base import Contract, contract_table
from server.engine.cards import TAROCK
from server.engine.tarock.discards import tarock_discards
from server.engine.tarock.talon import TalonRule
from server.engine.tricks import Restriction, TrickPlay, TrickRules, tarock_rules

PFEIFE = TAROCK.parse("T1")
MOND = TAROCK.parse("T21")
SKUS = TAROCK.parse("SK")
TRUMPS = TAROCK.suit_mask["T"]
KINGS = TAROCK.mask("HK KaK PK KrK")
TRULL = TAROCK.mask("SK T21 T1")
BIT_PFEIFE = 1 << PFEIFE
BIT_MOND = 1 << MOND
#: Farbzwang, Trumpfzwang, no overtrump duty (no Stichzwang), no Kaiserstich (DL-A15).
TRICK_RULES = tarock_rules(TAROCK)


@dataclass(frozen=True, slots=True)
class DreierlesContract(Contract):
    """A row of Dreierles' contract table (see the module text)."""

    title: str = ""
    trick_rules: TrickRules = TRICK_RULES
    declared: bool = True
    knock: str = "opponents"
    blind: str = "opponents"
    play_rules: tuple[str, ...] = ()

    #: The declarer takes the top ``talon`` cards of the blind (DL-A3); filled in after
    #: construction.
    talon_rule: TalonRule = field(default=TalonRule("none"), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        rule = TalonRule("top", self.talon) if self.talon else TalonRule("none")
        object.__setattr__(self, "talon_rule", rule)

    @property
    def factor(self) -> int | None:
        """The game factor shown at the table (``None`` in the Räuber)."""
        return self.value if self.declared else None


CONTRACTS: dict[str, DreierlesContract] = contract_table(
    DreierlesContract("dreier", rank=1, value=1, talon=3, title="Dreier"),
    DreierlesContract("zweier", rank=2, value=2, talon=2, title="Zweier"),
    DreierlesContract("einer", rank=3, value=3, talon=1, title="Einer"),
    DreierlesContract("solo", rank=4, value=4, talon=0, solo=True, title="Solo"),
    DreierlesContract(
        "raeuber", value=2, leader="vorhand", positive=False, premiums=False, title="Räuber",
        declared=False, knock="each", blind="aside",
        play_rules=("pfeife_third_trick", "mond_on_skus", "pfeife_before_third_trick"),
    ),
)  # fmt: skip
#: The contract when everybody passes.
ALL_PASS = CONTRACTS["raeuber"]
#: The bids, lowest first.
BIDS = tuple(c.name for c in sorted(CONTRACTS.values(), key=lambda c: c.rank) if c.rank)
#: One pass V → M → H, each bid higher than the last, no holding (DL-A2).
LADDER = Ladder(BIDS, rounds=1)
#: The final round of a Partie: only a Solo may be bid (DL-A19).
FINAL_LADDER = LADDER.only("solo")
#: Kings never; tarocks other than the Trull only when forced, face up (DL-A4).
DISCARDS = tarock_discards(TAROCK)


def pfeife_third_trick(play: TrickPlay, seat: int, legal: int) -> int:
    """Räuber (DL-A16, DL-A17): the Pfeife must go to the third trick when the follow
    rules allow it (also as the lead)."""
    if play.number == 2 and legal & BIT_PFEIFE:
        return BIT_PFEIFE
    return legal


def pfeife_not_before_third_trick(play: TrickPlay, seat: int, legal: int) -> int:
    """Räuber (DL-A17, sharpened): in tricks 1 and 2 the Pfeife may be played only when it
    is the only legal card, so that the duty to play it to the third trick cannot be
    dodged. Applied after :func:`mond_on_skus`: a player holding the Pfeife may not put
    the Mond on the Sküs (the Pfeife is another trump), so the Pfeife can then be his only
    legal card and is played."""
    if play.number < 2 and legal & BIT_PFEIFE and legal != BIT_PFEIFE:
        return legal & ~BIT_PFEIFE
    return legal


def mond_on_skus(play: TrickPlay, seat: int, legal: int) -> int:
    """Räuber (DL-A16): the Mond may not go onto a trick holding the Sküs while the player
    may play another trump."""
    if legal & BIT_MOND and legal & TRUMPS & ~BIT_MOND and SKUS in play.trick:
        return legal & ~BIT_MOND
    return legal


def announced_pfeife(declarer: int) -> Restriction:
    """The declarer's announced Pfeife may be played before the last trick only when it
    is his only legal card (DL-A13)."""

    def rule(play: TrickPlay, seat: int, legal: int) -> int:
        if seat == declarer and legal & BIT_PFEIFE and legal != BIT_PFEIFE and play.number < 15:
            return legal & ~BIT_PFEIFE
        return legal

    return ("pfeife_announced", rule)


#: The named play rules a contract row may list.
PLAY_RULES: dict[str, Restriction] = {
    "pfeife_third_trick": ("pfeife_third_trick", pfeife_third_trick),
    "mond_on_skus": ("mond_on_skus", mond_on_skus),
    "pfeife_before_third_trick": ("pfeife_before_third_trick", pfeife_not_before_third_trick),
}
