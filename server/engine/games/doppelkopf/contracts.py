"""Doppelkopf contracts as data: one :class:`DokoContract` row per game kind, and the trick
rules built from a row.

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

Every fact about a contract is a field of its row in :data:`CONTRACTS`; the code reads
the row, never the contract's name.

>>> CONTRACTS["damen"].solo, CONTRACTS["damen"].premiums, CONTRACTS["armut"].priority
(True, False, 2)
>>> DOPPELKOPF.codes(trick_rules(CONTRACTS["herz"]).trumps & DOPPELKOPF.suit_mask["H"])
['HA.1', 'H10.1', 'HK.1', 'HQ.1', 'HJ.1', 'H9.1', 'HA.2', 'H10.2', 'HK.2', 'HQ.2', 'HJ.2', 'H9.2']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import cast

from server.engine.base import Contract, contract_table
from server.engine.cards import DOPPELKOPF
from server.engine.tricks import TrickRules

K = DOPPELKOPF.kind_mask
SUITS = ("C", "S", "H", "D")
QUEENS = [K[s + "Q"] for s in SUITS]
JACKS = [K[s + "J"] for s in SUITS]
H10 = K["H10"]
DA = K["DA"]


@dataclass(frozen=True, slots=True)
class DokoContract(Contract):
    """A Doppelkopf contract (the fields of :class:`~server.engine.base.Contract` and):

    ``priority`` of its reservation (DK-A16: Solo 0 > Schmeißen 1 > Armut 2 > Hochzeit 3;
    ``None``: not a reservation); ``reservation`` the verb that declares it (``"solo"``,
    ``"schmeissen"`` …; empty: it is not declared); ``top`` the ranks of the permanent
    trumps below the Dulle (``"QJ"``: queens then jacks); ``suit`` the trump suit
    (``None``: none); ``dulle`` whether the ``H10`` is the top trump (``"always"``,
    ``"option"``: with ``farbsolo_keeps_dulle``, ``"never"``); ``plain`` the Fehl ranks,
    highest first; ``schweinchen`` whether a Schweinchen can be made; ``parties_known``
    whether the table knows the parties as soon as play starts; ``partner`` how the
    declarer gets a partner (``"trick"``: the first foreign trick of the Hochzeit's kind,
    ``"exchange"``: the Armut's taker; empty: none, or the Kreuz Damen decide); ``secret``
    whether the table sees a normal game (stille Hochzeit); ``starts`` what follows once
    it is decided (``"play"``; ``"push"``: the Armut exchange; ``"thrown_in"``: the deal
    ends). Views, outcomes and sheets carry
    the code, which the catalogues translate as ``contract.doppelkopf.<code>``.
    """

    priority: int | None = None
    reservation: str = ""
    top: str = "QJ"
    suit: str | None = "D"
    dulle: str = "always"
    plain: str = "A 10 K 9"
    schweinchen: bool = True
    parties_known: bool = False
    partner: str = ""
    secret: bool = False
    starts: str = "play"


def _solo(name: str, **fields: object) -> DokoContract:
    """A declared solo: the soloist leads, alone against three, no extra points, ×3; no
    Schweinchen unless ``fields`` say so."""
    fields.setdefault("schweinchen", False)
    return DokoContract(
        name, value=3, leader="declarer", solo=True, premiums=False, priority=0,
        reservation="solo", parties_known=True,
        **fields,  # type: ignore[arg-type]
    )  # fmt: skip


#: Every Doppelkopf contract, by its code.
CONTRACTS = cast(
    "dict[str, DokoContract]",
    contract_table(
    DokoContract("normal", leader="vorhand"),
    DokoContract("hochzeit", leader="vorhand", priority=3, reservation="hochzeit",
                 partner="trick"),
    DokoContract("stille_hochzeit", value=3, leader="vorhand", premiums=False,
                 secret=True),
    DokoContract("armut", leader="vorhand", priority=2, reservation="armut",
                 parties_known=True, partner="exchange", starts="push"),
    DokoContract("schmeissen", leader="vorhand", priority=1, reservation="schmeissen",
                 starts="thrown_in"),
    _solo("trumpf", schweinchen=True),
    _solo("kreuz", suit="C", dulle="option"),
    _solo("pik", suit="S", dulle="option"),
    _solo("herz", suit="H", dulle="option"),
    _solo("karo", suit="D", dulle="option"),
    _solo("damen", top="Q", suit=None, dulle="never", plain="A 10 K J 9"),
    _solo("buben", top="J", suit=None, dulle="never", plain="A 10 K Q 9"),
    _solo("international", suit=None, dulle="never"),
    _solo("fleischlos", top="", suit=None, dulle="never",
          plain="A 10 K Q J 9"),
    ),
)  # fmt: skip
#: The solos in the order the ``solo`` verb lists them.
SOLOS = tuple(name for name, row in CONTRACTS.items() if row.solo)
#: The contracts declared by a reservation with an argument-free verb.
RESERVATIONS = {row.reservation: row for row in CONTRACTS.values() if row.reservation != "solo"}


def _plain(ranks: str, trumps: int) -> list[list[int]]:
    """Fehl rankings: every suit's cards of ``ranks`` (highest first) that are not trumps."""
    order = ranks.split()
    return [[K[s + r] & ~trumps for r in order if K[s + r] & ~trumps] for s in SUITS]


@cache
def trick_rules(
    contract: DokoContract,
    *,
    schweinchen: bool = False,
    dulle_second: bool = True,
    keeps_dulle: bool = False,
) -> TrickRules:
    """The trick rules of ``contract``.

    ``schweinchen`` puts both ``DA`` on top (where the row allows a Schweinchen);
    ``dulle_second`` makes the second ``H10`` beat the first where it is the top trump;
    ``keeps_dulle`` keeps ``H10`` as top trump in Farbsoli (DDV option).
    """
    dulle_top = contract.dulle == "always" or (contract.dulle == "option" and keeps_dulle)
    top = [H10] if dulle_top else []
    if schweinchen and contract.schweinchen:
        top = [DA, *top]
    trumps = [*top]
    if "Q" in contract.top:
        trumps += QUEENS
    if "J" in contract.top:
        trumps += JACKS
    if contract.suit is not None:
        own = [K[contract.suit + r] & ~sum(top) for r in ("A", "10", "K", "9")]
        trumps += [tier for tier in own if tier]
    trump_mask = sum(trumps)
    plain = [p for p in _plain(contract.plain, trump_mask) if p]
    groups = ([trump_mask] if trump_mask else []) + [sum(p) for p in plain]
    return TrickRules.build(
        len(DOPPELKOPF),
        groups,
        trumps,
        plain,
        void_must=0,
        later_equal_wins=H10 if dulle_top and dulle_second else 0,
    )


NORMAL = CONTRACTS["normal"]
#: The trumps of the normal game (Armut is judged by them).
NORMAL_TRUMPS = trick_rules(NORMAL).trumps
