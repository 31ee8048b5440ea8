"""The Dreierles Partie: rounds of deals, dealer rotation, the final round and the sheet.

* Three or four people sit at the table, listed in playing order (anticlockwise). The
  dealer passes to the right, i.e. to the next person in that list (DL-A1); the first
  three people after the dealer are Vorhand, Mittelhand and Hinterhand. With three the
  dealer is Hinterhand; with four the dealer sits out and settles nothing (DL-A18).
* A round is one deal by every person at the table: three deals with three people, as
  the rules text says ("eine Runde besteht aus drei Spielen"), and four with four people
  so that everybody deals and sits out equally often (our decision).
* With ``final_round_special`` the last round is played as "Räuber oder Solo": only a
  Solo may be bid, and if nobody bids, the Räuber is worth ``final_rauber_points``.
* The sheet lists every deal with its points per person and the running totals; the
  final settlement says who pays whom, in cents at the agreed stake per point.
* The match implements :class:`server.engine.match.Match`: a ``"points"`` sheet (totals
  from 0, higher is better); Dreierles moves no pots. The match option
  ``final_round_special`` (default on) is read from the stored config.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from server.engine.base import Option
from server.engine.games.dreierles.deal import Dreierles, DreierlesDeal
from server.engine.ledger import scaled
from server.engine.match import DealSetup, finished_outcome, stake_reasons
from server.engine.sheet import SheetMatch, SheetRow, settled_points


class DreierlesMatch(SheetMatch[DreierlesDeal]):
    """A Partie of Dreierles, computed purely from the outcomes of its deals."""

    game = "dreierles"
    match_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "final_round_special",
            True,
            (True, False),
            "Die letzte Runde ist »Räuber oder Solo«.",
            "The last round is played as Räuber oder Solo.",
        ),
    )

    def __init__(
        self,
        players: Sequence[str],
        *,
        rounds: int = 4,
        first_dealer: int = 0,
        stake_cents: int = 10,
        options: Mapping[str, object] | None = None,
        final_round_special: bool = True,
    ) -> None:
        self._set_up(Dreierles(), players, rounds, first_dealer, stake_cents, options)
        self.rounds = rounds
        self.final_round_special = final_round_special
        self._set_up_sheet()

    @property
    def total_deals(self) -> int:
        """Number of deals in the whole match."""
        return self.rounds * len(self.players)

    def next_setup(self) -> DealSetup:
        """The dealer, seats and options of the next deal."""
        number = len(self.rows)
        final = self.final_round_special and number >= self.total_deals - len(self.players)
        options = dict(self.options, final_round=final)
        # the table says "Räuber oder Solo" in the final round
        note = "final_round" if final else None
        return self.round_the_table(number, self.first_dealer, options, note)

    def record(self, deal: DreierlesDeal) -> SheetRow:
        """Enter a finished deal on the sheet; it must be the deal :meth:`next_setup` set up."""
        setup = self.next_setup()
        outcome = finished_outcome(deal, setup.seats, setup.dealer, setup.options)
        points = settled_points(self.players, setup.seats, outcome["settlement"])
        for name, amount in points.items():
            self.totals[name] += amount
        self.write_ledger(setup, points, scaled(points, self.stake_cents), self.totals,
                          reasons=stake_reasons(points, self.stake_cents))  # fmt: skip
        row: SheetRow = self.write_row(setup, outcome, points)
        return row
