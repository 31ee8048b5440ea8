"""Exact search of a deal's last tricks in a sampled world (the searching player's endgame).

Once every hand of a world holds at most :func:`endgame_tricks` cards, the searching
player no longer plays the rest of the deal with the rule-based policy: it searches every
line of play to the deal's end, all cards open (the world is one guess of the hidden
cards; the guesses are averaged over by the search, :mod:`server.bots.search`). Each seat
chooses the move that is best for **its own settlement** (the outcome's ``settlement``, the
ledger's points: a Pagat or a Pfeife in the last trick, a Schneider, a Kontra count what they
count) — a max-n search, which in a game of two parties (declarer against the rest, Re
against Kontra, where partners settle alike) is the minimax of the parties, and in a game
of everyone for himself (Trischaken, Räuber) what each player would do. Of equally good
moves a seat takes the first in the order of its legal moves, so the search is a pure
function of the position.

There is no game knowledge here: the engine plays every line (``Deal.apply``) and scores
every end (``Deal.outcome``). A deal cannot take a move back by its rules, so the search
goes back to a position by a snapshot of the deal's state (:mod:`server.engine.snapshot`;
it used to play each branch but the last on a copy replayed from the cards and the history,
:class:`Copier`, which is still how a playout gets its world, and the work is counted as
then). The search counts its work in the units of the searching player's budget and gives
up (``None``) where a position has more lines than :data:`MAX_NODES`, leaving it to the
playout.

>>> tricks_left([0b1, 0b10, 0b100])
1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from server.engine import snapshot
from server.engine.base import Deal

#: The positions one search may visit before it gives up (the playout goes on instead).
MAX_NODES = 2000
#: The work of the search in units of the searching player's budget (one card played from
#: the cards alone in a playout, about 16 µs; docs/bots.md), as measured on this machine:
#: starting a copy of a deal (6–27 µs), replaying one action on it without a view
#: (0.8–3.2 µs), a move of the search (the legal moves and the move) and scoring an end
#: (the outcome, 10–37 µs).
COPY_COST = 1.0
COPY_ACTION_COST = 0.1
MOVE_COST = 0.25
OUTCOME_COST = 1.5


def tricks_left(hands: list[int] | tuple[int, ...]) -> int:
    """The most cards any hand still holds (the tricks left to play, once a trick is done)."""
    return max(hand.bit_count() for hand in hands)


#: From how many tricks left the search is exact. Three with three players cost some
#: 300 units a search at the median and up to 1,000 (a playout's rest costs 9): a
#: decision could then weigh few worlds; two cost about 25 (50 with four players).
ENDGAME_TRICKS = 2


class TooLarge(Exception):
    """The position has more lines than the search may visit."""


@dataclass
class Copier:
    """Makes copies of a deal at any later position: its cards dealt, then its moves."""

    start: Callable[[], Deal]

    def copy(self, deal: Deal) -> Deal:
        """A new deal at ``deal``'s position (its history was checked when it was made:
        the copy replays it without the checks, :meth:`Deal.replay_checked`)."""
        fresh = self.start()
        fresh.replay_checked(deal.history)
        return fresh


@dataclass
class Solution:
    """The result of a search: every seat's settlement at the end of the line the seats
    choose, the line itself and the work done (in budget units)."""

    values: tuple[float, ...]
    line: list[tuple[int, int]]
    cost: float


def solve(deal: Deal, max_nodes: int = MAX_NODES) -> Solution | None:
    """Play ``deal`` (changed in place: it ends at the end of the chosen line) to its end
    with every seat choosing what is best for its own settlement; ``None`` where the
    search would visit more than ``max_nodes`` positions (``deal`` is then unchanged)."""
    search = _Search(max_nodes)
    start = len(deal.history)
    root = snapshot.take(deal)
    search.count_copy(deal)  # the search's own start (the work of a copy, see _Search)
    try:
        values, line = search.best(deal)
    except TooLarge:
        return None
    finally:
        snapshot.restore(root)
    for seat, move in line:
        deal.apply(move, seat)
    assert len(deal.history) == start + len(line)
    cost = search.cost + MOVE_COST * len(line)
    return Solution(values, line, cost)


class _Search:
    """One search: the node limit and the work counted.

    Every line is tried on the deal itself, which goes back to the position before each
    further branch by a snapshot (:mod:`server.engine.snapshot`). The work is counted as
    it was measured when each branch but the last played on a copy replayed from the
    history (:data:`COPY_COST`, :data:`COPY_ACTION_COST`): the budget's units, and with
    them every decision, stay what they were; the snapshot is only faster."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.nodes = 0
        self.cost = 0.0

    def best(self, deal: Deal) -> tuple[tuple[float, ...], list[tuple[int, int]]]:
        """The values and the line from ``deal`` on (``deal`` is played on, not kept)."""
        line: list[tuple[int, int]] = []
        moves: list[int] = []
        while True:
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise TooLarge
            seat = deal.to_move
            if seat is None:
                outcome = deal.outcome()
                assert outcome is not None
                self.cost += OUTCOME_COST
                return tuple(float(v) for v in outcome["settlement"]), line
            moves = list(deal.legal_moves())
            if len(moves) == 1:  # no choice: played in place
                deal.apply(moves[0], seat)
                self.cost += MOVE_COST
                line.append((seat, moves[0]))
                continue
            break
        best_values: tuple[float, ...] | None = None
        best_line: list[tuple[int, int]] = []
        last = len(moves) - 1
        here = snapshot.take(deal)
        for index, move in enumerate(moves):
            if index:
                snapshot.restore(here)
            if index != last:
                self.count_copy(deal)
            deal.apply(move, seat)
            self.cost += MOVE_COST
            values, rest = self.best(deal)
            if best_values is None or values[seat] > best_values[seat]:
                best_values, best_line = values, [(seat, move), *rest]
        assert best_values is not None
        return best_values, line + best_line

    def count_copy(self, deal: Deal) -> None:
        """Count the work of a copy of ``deal`` replayed from its history."""
        self.cost += COPY_COST + COPY_ACTION_COST * len(deal.history)
