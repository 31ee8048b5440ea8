"""Doppen scoring: pure functions from the facts of a finished deal to points.

Everything is reckoned between the declarer and *each* opponent (``doppen.txt``
"Zahlungen": "Der Alleinspieler zahlt an oder bekommt von jedem Gegenspieler den
entsprechenden Betrag"; DP-A9, DP-A10); a sitting-out dealer counts as an opponent
(DP-A20). Points are money only on the sheet (points × the agreed stake per point).

The card-point game (DP-A8, DP-A9): whole points in groups of three; the declarer wins
with more than 35, the opponents at 35:35. The winner gets 10 plus the difference to 35,
times the Spielfaktor and the game's doublings:

>>> game_points(36, 1), game_points(35, 1), game_points(45, 2), game_points(50, 3)
(11, -10, 40, 75)
>>> game_points(20, 4, doubling=2)   # a kontriertes Solo lost with 20
-200

Premiums (DP-A10 … DP-A12, DP-A15): the Valat with the Spielfaktor, all others with the
Prämienfaktor; an announced Pagat, Uhu or Valat also with its own Kontra chain, a silent
Valat (which replaces the card-point game) with the game's:

>>> premium_multiplier("valat", spielfaktor=2, praemienfaktor=1, chains={"game": 2},
...                    announced=False)
4
>>> premium_multiplier("pagat", spielfaktor=2, praemienfaktor=1, chains={"pagat": 4},
...                    announced=True)
4
>>> premium_multiplier("trull", spielfaktor=3, praemienfaktor=3, chains={"game": 2},
...                    announced=False)
3

A worked case: an Unterer (Spielfaktor 2, Prämienfaktor 1) won with 40 card points,
Kontra on the game; the declarer's announced Pagat is won, an opponent held the four
Könige. Per opponent: game (10 + 5) × 2 × 2 = 60, Pagat +20, Könige −10:

>>> per_opponent(game_points(40, 2, doubling=2), [("pagat", True, 20), ("koenige", False, 10)])
70
>>> settlement(3, 0, 70), settlement(3, 2, -15)
([140, -70, -70], [15, 15, -30])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: The declarer needs more than this many card points (DP-A9).
HALF = 35
#: The base of a won or lost card-point game.
GAME_BASE = 10


def declarer_wins(points: int) -> bool:
    """Whether the declarer's whole-point count wins the card-point game (35:35 does not).

    >>> declarer_wins(36), declarer_wins(35)
    (True, False)
    """
    return points > HALF


def game_points(points: int, spielfaktor: int, doubling: int = 1) -> int:
    """The card-point game for the declarer against each opponent, signed."""
    value = (GAME_BASE + abs(points - HALF)) * spielfaktor * doubling
    return value if declarer_wins(points) else -value


def premium_multiplier(
    code: str,
    *,
    spielfaktor: int,
    praemienfaktor: int,
    chains: Mapping[str, int],
    announced: bool,
) -> int:
    """What a premium's base value is multiplied by (see the module text)."""
    if code == "valat":
        return spielfaktor * chains.get("valat" if announced else "game", 1)
    return praemienfaktor * chains.get(code, 1)


def per_opponent(game: int, premiums: Sequence[tuple[str, bool, int]]) -> int:
    """The declarer's balance against each opponent: the game plus every premium
    ``(code, declarer's side gains, points)``."""
    return game + sum(points if gains else -points for _code, gains, points in premiums)


def settlement(seats: int, declarer: int, amount: int) -> list[int]:
    """Points per seat when the declarer gets ``amount`` from each other seat."""
    out = [-amount] * seats
    out[declarer] = amount * (seats - 1)
    return out
