"""Tarock zu dritt scoring: pure functions from the facts of a finished deal to points.

Amounts are points of the Speisezettel (the "Wert" column); money is points times the
table's stake, and the Partie multiplies a deal by its Radl factor. Every settlement sums
to zero. Card points are counted exactly, in thirds ("Blatt", TZ-A6): the pack is 210
thirds = 70 points.

Positive games (TZ-A6, TZ-A8): the declarer wins with 35 Punkte 2 Blatt (107 thirds) and
receives the game value times its Kontra factor from each opponent; a lost game costs the
value (the Sechserdreier: 6) times the factor to each opponent. Premiums are settled
separately (:mod:`server.engine.tarock.premiums`), doubled in the Solospiele except Valat.

"35 Punkte 2 Blatt" wins, "35 Punkte 1 Blatt" does not:

>>> declarer_wins(parse_count("35/2")), declarer_wins(parse_count("35/1"))
(True, False)
>>> positive_game(value=3, cost=3, declarer_thirds=parse_count("35/2"), factor=1)
3
>>> positive_game(value=3, cost=6, declarer_thirds=parse_count("34/1"), factor=2)
-12

Negative games (TZ-A21): exactly the number of tricks of the game (Bettler none).

>>> negative_made(tricks=1, need=1), negative_made(tricks=2, need=1), negative_made(0, 0)
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.tarock.premiums import parse_count

__all__ = [
    "declarer_wins",
    "negative_made",
    "parse_count",
    "pay_declarer",
    "positive_game",
    "trischaken",
]

#: 35 Punkte 2 Blatt in thirds (TZ-A6).
TO_WIN = 107


def declarer_wins(declarer_thirds: int) -> bool:
    """Whether the declarer's count (in thirds) wins a positive game."""
    return declarer_thirds >= TO_WIN


def positive_game(*, value: int, cost: int, declarer_thirds: int, factor: int) -> int:
    """The signed game amount for the declarer against each opponent."""
    if declarer_wins(declarer_thirds):
        return value * factor
    return -cost * factor


def negative_made(tricks: int, need: int) -> bool:
    """Whether a negative game made exactly its number of tricks."""
    return tricks == need


def pay_declarer(settlement: list[int], declarer: int, opponent: int, amount: int) -> None:
    """Move ``amount`` (signed, for the declarer) from ``opponent`` to ``declarer``."""
    settlement[declarer] += amount
    settlement[opponent] -= amount


def trischaken(
    thirds: Sequence[int], tricks: Sequence[int], value: int = 2
) -> tuple[list[int], list[dict[str, object]]]:
    """Settle a Trischaken from each seat's count (thirds, talon cards included) and
    tricks; return the settlement and the result lines (TZ-A22).

    The player with the most points pays ``value`` to each other player, as Bürgermeister
    (35 Punkte 2 Blatt or more) twice that. A Jungfrau (no trick) receives everything:
    the payer pays her both shares, the third player gets nothing. Two tied for the most
    points both pay; three tied pay nothing. Whoever takes every trick pays four (twice
    the value) to each other player.

    >>> trischaken([parse_count("30"), parse_count("25"), parse_count("15")], [6, 6, 4])
    ([-4, 2, 2], [{'code': 'trischaken_pays', 'seat': 0, 'points': 2, 'buergermeister': False}])
    >>> trischaken([parse_count("40"), parse_count("30"), 0], [9, 7, 0])[0]
    [-8, 0, 8]
    >>> trischaken([parse_count("35"), parse_count("35"), 0], [8, 8, 0])[0]
    [-2, -2, 4]
    >>> trischaken([parse_count("30"), parse_count("30"), parse_count("10")], [6, 6, 4])[0]
    [-2, -2, 4]
    >>> trischaken([210, 0, 0], [16, 0, 0])[0]
    [-8, 4, 4]
    """
    seats = len(thirds)
    out = [0] * seats
    lines: list[dict[str, object]] = []
    for seat in range(seats):
        if tricks[seat] == sum(tricks):
            for other in range(seats):
                if other != seat:
                    out[seat] -= 2 * value
                    out[other] += 2 * value
            lines.append({"code": "trischaken_valat", "seat": seat, "points": 2 * value})
            return out, lines
    top = max(thirds)
    payers = [s for s in range(seats) if thirds[s] == top]
    if len(payers) == seats:
        lines.append({"code": "trischaken_tie", "seat": None, "points": 0})
        return out, lines
    buergermeister = top >= TO_WIN
    amount = 2 * value if buergermeister else value
    others = [s for s in range(seats) if s not in payers]
    jungfrauen = [s for s in others if tricks[s] == 0]
    for payer in payers:
        lines.append(
            {"code": "trischaken_pays", "seat": payer, "points": amount,
             "buergermeister": buergermeister}
        )  # fmt: skip
        if len(jungfrauen) == 1:
            receivers = jungfrauen
            share = amount * len(others)
        else:
            receivers = others
            share = amount
        for receiver in receivers:
            out[payer] -= share
            out[receiver] += share
    if len(jungfrauen) == 1:
        lines.append({"code": "jungfrau", "seat": jungfrauen[0], "points": 0})
    return out, lines
