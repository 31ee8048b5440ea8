"""Doppelkopf contracts as data: which cards are trumps, in what order, and the Fehl order.

Orders (``doppelkopf.txt`` with DK-A1, DK-A3, DK-A5, DK-A13, DK-A14), highest first:

* **Normal family** (Normalspiel, Hochzeit, Armut, stille Hochzeit, Trumpfsolo):
  ``H10 > CQ SQ HQ DQ > CJ SJ HJ DJ > DA > D10 > DK > D9``; with an active Schweinchen
  the two ``DA`` rank above ``H10``. Fehl: ♣ and ♠ ``A 10 K 9``, ♥ ``A K 9``.
* **Farbsolo** in a suit: ``CQ SQ HQ DQ CJ SJ HJ DJ`` then that suit ``A 10 K 9``; the
  ``H10`` is an ordinary Herz card (rules text, DK-A13) unless the option
  ``farbsolo_keeps_dulle`` puts it on top as in the DDV rules.
* **Damensolo**: queens; Fehl ``A 10 K J 9``. **Bubensolo**: jacks; Fehl ``A 10 K Q 9``.
  **Internationales Solo**: queens then jacks; Fehl ``A 10 K 9``. **Fleischloses**: no
  trumps; ``A 10 K Q J 9``. Queens and jacks rank ♣ > ♠ > ♥ > ♦.

Of two equal cards the first played wins, except the second ``H10`` where it is the top
trump (DK-A2, DK-A3): option ``dulle`` = ``second`` (rules text), ``second_except_last``
(common house variant) or ``first`` (tournament rule). There is no duty to trump.
"""

from __future__ import annotations

from functools import cache

from server.engine.cards import DOPPELKOPF
from server.engine.tricks import TrickRules

K = DOPPELKOPF.kind_mask
SUITS = ("C", "S", "H", "D")
SUIT_WORDS = {"kreuz": "C", "pik": "S", "herz": "H", "karo": "D"}
SOLOS = ("trumpf", "kreuz", "pik", "herz", "karo", "damen", "buben", "international", "fleischlos")
SOLO_TITLES = {
    "trumpf": "Trumpfsolo",
    "kreuz": "Kreuzsolo",
    "pik": "Piksolo",
    "herz": "Herzsolo",
    "karo": "Karosolo",
    "damen": "Damensolo",
    "buben": "Bubensolo",
    "international": "Internationales Solo",
    "fleischlos": "Fleischloses Solo",
}
QUEENS = [K[s + "Q"] for s in SUITS]
JACKS = [K[s + "J"] for s in SUITS]
NORMAL_FAMILY = ("normal", "hochzeit", "armut", "stille_hochzeit", "trumpf")


def _plain(ranks: str, trumps: int) -> list[list[int]]:
    """Fehl rankings: every suit's cards of ``ranks`` (highest first) that are not trumps."""
    order = ranks.split()
    return [[K[s + r] & ~trumps for r in order if K[s + r] & ~trumps] for s in SUITS]


def _build(trumps: list[int], plain_ranks: str, dulle_second: bool) -> TrickRules:
    trump_mask = sum(trumps)
    plain = [p for p in _plain(plain_ranks, trump_mask) if p]
    groups = ([trump_mask] if trump_mask else []) + [sum(p) for p in plain]
    return TrickRules.build(
        len(DOPPELKOPF),
        groups,
        trumps,
        plain,
        void_must=0,
        later_equal_wins=K["H10"] if dulle_second else 0,
    )


@cache
def trick_rules(
    contract: str,
    *,
    schweinchen: bool = False,
    dulle_second: bool = True,
    keeps_dulle: bool = False,
) -> TrickRules:
    """The trick rules of ``contract`` (a game kind or a solo name).

    ``dulle_second`` makes the second ``H10`` beat the first where it is the top trump;
    ``keeps_dulle`` keeps ``H10`` as top trump in Farbsoli (DDV option).
    """
    if contract in NORMAL_FAMILY:
        low = [K["DA"], K["D10"], K["DK"], K["D9"]]
        top = [K["H10"]]
        if schweinchen:
            top = [K["DA"], K["H10"]]
            low = low[1:]
        return _build(top + QUEENS + JACKS + low, "A 10 K 9", dulle_second)
    if contract in SUIT_WORDS:
        suit = SUIT_WORDS[contract]
        top = [K["H10"]] if keeps_dulle else []
        own = [K[suit + r] & ~sum(top) for r in ("A", "10", "K", "9")]
        return _build(top + QUEENS + JACKS + own, "A 10 K 9", dulle_second and keeps_dulle)
    if contract == "damen":
        return _build(QUEENS, "A 10 K J 9", False)
    if contract == "buben":
        return _build(JACKS, "A 10 K Q 9", False)
    if contract == "international":
        return _build(QUEENS + JACKS, "A 10 K 9", False)
    if contract == "fleischlos":
        return _build([], "A 10 K Q J 9", False)
    raise ValueError(f"unknown contract {contract}")


NORMAL_TRUMPS = trick_rules("normal").trumps
