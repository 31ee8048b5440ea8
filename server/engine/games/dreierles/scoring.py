"""Dreierles scoring: from the facts of a finished deal to points per seat.

Kept apart from the state machine so that the worked example of ``dreierles.txt`` can be
checked on its own and the match can re-use it. All amounts are game points; money is
points times the table's stake. Every settlement sums to zero.

Declarer games (``dreierles.txt`` "Wertung", DL-A5 … DL-A13, DL-A20):

* The declarer wins with 36 card points (whole-point count) or 35⅔ (exact thirds).
* The winning side scores one point per started five card points above 35
  (``ceil((W − 35) / 5)``), at least ``minimum_game_points`` (DL-A7), times the game
  factor (Dreier 1, Zweier 2, Einer 3, Solo 4) and doubled for each knock. The declarer
  receives it from, or pays it to, each opponent.
* Hand bonuses (Zehn Trumpf, Drull, Vier Könige) are personal: 1 point from each other
  player, never multiplied (DL-A9, DL-A10).
* Pfeife (DL-A12, DL-A13) is a team bonus: silent 1, announced 2, between the declarer
  and each opponent; never multiplied.

Räuber (DL-A16): the player with the most card points pays ``value × 2^knocks`` to each
other player (value 2, or 4 in the final round by agreement); two tied for most pay half
of that each to the third; three tied pay nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.games.dreierles.contracts import CONTRACTS

#: The game factor of every declarer game, from the contract table.
FACTORS: dict[str, int] = {name: row.value for name, row in CONTRACTS.items() if row.declared}
HAND_BONUSES = ("zehn_trumpf", "drull", "vier_koenige")


@dataclass(frozen=True, slots=True)
class Pfeife:
    """What happened to the Pfeife (T1) that decides a bonus.

    ``side`` is ``"declarer"`` or ``"opponents"`` (whose Pfeife it was), ``announced``
    whether the declarer laid it open, ``won`` whether it took the last trick.
    """

    side: str
    announced: bool
    won: bool

    @property
    def points(self) -> int:
        """The bonus value: 2 announced, 1 silent."""
        return 2 if self.announced else 1

    @property
    def name(self) -> str:
        """The premium name used in outcomes."""
        return "pfeife_angesagt" if self.announced else "pfeife"


def units_above_35(winner_points: int, thirds: bool) -> int:
    """Started fives above 35 for the winning side (0 when not above 35).

    >>> units_above_35(46, False), units_above_35(43, False), units_above_35(36, False)
    (3, 2, 1)
    >>> units_above_35(107, True), units_above_35(105, True)
    (1, 0)
    """
    surplus = winner_points - (105 if thirds else 35)
    step = 15 if thirds else 5
    return max(0, -(-surplus // step))


def declarer_wins(declarer_points: int, thirds: bool) -> bool:
    """Whether the declarer reached 36 (or 35⅔ in thirds)."""
    return declarer_points >= (107 if thirds else 36)


def game_points(
    contract: str, declarer_points: int, knocks: int, *, thirds: bool, minimum: int
) -> int:
    """Signed game points for the declarer against each opponent.

    >>> game_points("zweier", 46, 0, thirds=False, minimum=1)
    6
    >>> game_points("einer", 43, 0, thirds=False, minimum=1)
    6
    >>> game_points("dreier", 35, 1, thirds=False, minimum=1)
    -2
    """
    total = 210 if thirds else 70
    won = declarer_wins(declarer_points, thirds)
    winner_points = declarer_points if won else total - declarer_points
    units = max(units_above_35(winner_points, thirds), minimum)
    value = (units * FACTORS[contract]) << knocks  # each knock doubles
    return value if won else -value


def score_declarer_game(
    seats: int,
    declarer: int,
    game: int,
    hand_bonuses: Sequence[tuple[str, int]],
    pfeife: Pfeife | None,
) -> list[int]:
    """Settle a declarer game: ``game`` is the signed value against each opponent.

    ``hand_bonuses`` lists ``(name, seat)`` for every bonus held. Returns points per seat.

    The worked example of ``dreierles.txt``: Anna (seat 0) wins an Einer with 43, holds
    Zehn Trumpf, loses her announced Pfeife; Bernd holds Vier Könige.

    >>> score_declarer_game(3, 0, 6, [("zehn_trumpf", 0), ("vier_koenige", 1)],
    ...                     Pfeife("declarer", announced=True, won=False))
    [9, -3, -6]
    """
    result = [0] * seats
    opponents = [s for s in range(seats) if s != declarer]
    for o in opponents:
        result[declarer] += game
        result[o] -= game
    for _name, holder in hand_bonuses:
        for other in range(seats):
            if other != holder:
                result[holder] += 1
                result[other] -= 1
    if pfeife is not None:
        declarer_side_gains = (pfeife.side == "declarer") == pfeife.won
        amount = pfeife.points if declarer_side_gains else -pfeife.points
        for o in opponents:
            result[declarer] += amount
            result[o] -= amount
    return result


def score_rauber(points: Sequence[int], knocks: int, value: int) -> tuple[list[int], list[int]]:
    """Settle a Räuber from each seat's card points; return (settlement, losers).

    >>> score_rauber([30, 20, 14], 1, 2)
    ([-8, 4, 4], [0])
    >>> score_rauber([25, 25, 14], 0, 2)
    ([-1, -1, 2], [0, 1])
    >>> score_rauber([20, 20, 20], 3, 2)
    ([0, 0, 0], [0, 1, 2])
    """
    seats = len(points)
    top = max(points)
    losers = [s for s in range(seats) if points[s] == top]
    result = [0] * seats
    if len(losers) == seats:
        return result, losers
    pay = value << knocks
    if len(losers) == 2:
        pay //= 2
    for loser in losers:
        for other in range(seats):
            if other not in losers:
                result[loser] -= pay
                result[other] += pay
    return result, losers
