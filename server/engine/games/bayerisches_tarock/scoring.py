"""Bayerisches Tarock scoring: from the facts of a finished deal to units per seat.

Kept apart from the state machine so that the rules text's worked example can be checked
on its own. Everything is in units of the Grundbetrag; money is units times the table's
stake. Every settlement sums to zero; the Haferl (the pot) is the match's business.

**With Reizen** (BT-A9 … BT-A11):

* The declarer wins with at least the target: 61, or the bid point level (66 … 116); at
  60:60 he loses. Durch is won with all eleven tricks.
* A won game is worth ``1`` (won) ``+ 1`` (a Hand game) ``+ ⌊(A − 61) / 5⌋`` (each five
  reached above 61) ``+`` each announced step (66 → 1, 71 → 2, …; a step the declarer
  raised himself counts alike, BT-A2). The "steps reached" count in a Stock game too.
  A won Durch is worth a made 116 plus one: 25.
* A lost game costs ``1 + (Hand: 1) + announced steps`` to each opponent; a lost Durch
  counts Durch as the twelfth step: 14.
* The Bettel (when a house rule puts it on the ladder, BT-A8) is worth 4, won or lost,
  as in the variant without Reizen.

**Without Reizen** (the rules text's table, BT-A14): Stock game 1 (in Herz or not),
Solo 2, Herzsolo 3, Bettel 4; a winning declarer gets +1 with the opponents Schneider
(he has 91 or more) and +1 more when they are Matsch (he took every trick). A lost game
costs its value.

Kontra and Re double the whole value (BT-A13).

The rules text's example: 82 Augen, bid to 71 Augen in a Hand game:

>>> reiz_units(82, target=71, hand=True)
8
>>> won_units_explained(82, target=71, hand=True)
[('gewonnen', 1), ('hand', 1), ('erreicht', 66), ('erreicht', 71), ('erreicht', 76), \
('erreicht', 81), ('angesagt', 66), ('angesagt', 71)]
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.games.bayerisches_tarock.contracts import BASE_TARGET, STEP, TOTAL_AUGEN

#: Units of a won and of a lost Durch (BT-A10, BT-A11 as proposed).
DURCH_WON = 25
DURCH_LOST = 14
#: A Bettel on the ladder of the Reizen (BT-A8: our value, as without Reizen).
BETTEL_VALUE = 4
#: Opponents at 29 or fewer Augen are Schneider: the declarer has 91 or more.
SCHNEIDER_FROM = TOTAL_AUGEN - 29


def announced_steps(target: int) -> int:
    """The steps announced above 61: 66 → 1 … 116 → 11 (Durch: 12).

    >>> announced_steps(61), announced_steps(71), announced_steps(116)
    (0, 2, 11)
    """
    return (target - BASE_TARGET) // STEP


def declarer_wins(augen: int, target: int) -> bool:
    """Whether ``augen`` reach ``target``; 60:60 loses.

    >>> declarer_wins(61, 61), declarer_wins(60, 61), declarer_wins(70, 71)
    (True, False, False)
    """
    return augen >= target


def won_units_explained(augen: int, *, target: int, hand: bool) -> list[tuple[str, int]]:
    """The lines of a won game (the rules text's "Abrechnungsbeispiel"): ``("gewonnen",
    1)``, ``("hand", 1)``, then one ``("erreicht", level)`` per five reached above 61 and
    one ``("angesagt", level)`` per announced step."""
    lines = [("gewonnen", 1)]
    if hand:
        lines.append(("hand", 1))
    lines += [("erreicht", level) for level in range(BASE_TARGET + STEP, augen + 1, STEP)]
    lines += [("angesagt", level) for level in range(BASE_TARGET + STEP, target + 1, STEP)]
    return lines


def reiz_units(augen: int, *, target: int, hand: bool) -> int:
    """The units of a won game with Reizen (see the module text).

    >>> reiz_units(61, target=61, hand=False), reiz_units(66, target=61, hand=False)
    (1, 2)
    >>> reiz_units(120, target=116, hand=True)
    24
    """
    return 1 + (1 if hand else 0) + max(0, (augen - BASE_TARGET) // STEP) + announced_steps(target)


def reiz_lost_units(*, target: int, hand: bool) -> int:
    """The units a declarer who lost pays each opponent (BT-A11).

    >>> reiz_lost_units(target=61, hand=False), reiz_lost_units(target=71, hand=True)
    (1, 4)
    """
    return 1 + (1 if hand else 0) + announced_steps(target)


def wish_units(value: int, augen: int, *, all_tricks: bool, won: bool, positive: bool) -> int:
    """The units of a game without Reizen (BT-A14): the request's value, and for a winning
    declarer of an Augen game +1 Schneider (91 or more) and +1 Matsch (every trick).

    >>> wish_units(2, 95, all_tricks=False, won=True, positive=True)
    3
    >>> wish_units(3, 120, all_tricks=True, won=True, positive=True)
    5
    >>> wish_units(2, 95, all_tricks=False, won=False, positive=True)
    2
    """
    if not won or not positive:
        return value
    return value + (1 if augen >= SCHNEIDER_FROM else 0) + (1 if all_tricks else 0)


def settle(seats: int, declarer: int, units: int, won: bool) -> list[int]:
    """Each seat's units: the declarer receives ``units`` from, or pays them to, each
    opponent.

    >>> settle(3, 1, 8, True), settle(3, 0, 2, False)
    ([-8, 16, -8], [-4, 2, 2])
    """
    sign = 1 if won else -1
    out = [-sign * units] * seats
    out[declarer] = sign * units * (seats - 1)
    return out


def zero_sum(values: Sequence[int]) -> bool:
    """Whether ``values`` add up to zero."""
    return sum(values) == 0
