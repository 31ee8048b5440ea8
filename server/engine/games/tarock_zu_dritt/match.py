"""The Tarock zu dritt Partie: rounds of three deals, the Radl and the Schlussradl.

* Three people play, listed in playing order (anticlockwise). The dealer passes to the
  right, i.e. to the next person in that list; the three after the dealer are Vorhand,
  Mittelhand and Hinterhand (the dealer). 'Hoch' is the first Vorhand.
* A round is three deals. ``rounds`` regular rounds are played, then the Schlussradl
  (TZ-A25): one more round that counts double and ends when the deal comes back to the
  first Vorhand. With ``schlussradl="gstiess"`` the Partie goes on after the regular
  rounds (at single value) until the player who held the Sküs (Gstieß) in the last
  regular deal deals; the Schlussradl starts with that deal.
* A Radl (TZ-A24): after a Trischaken and after a Fensterbankl (a deal settled with zero
  for everybody) the next round (three deals) counts double; Radln overlap and multiply,
  with the Schlussradl too (:class:`server.engine.match.Radl`); with the Skoty-Trophy
  ("keine doppelten Radln") a deal counts at most double. A Radl still open when the
  Partie ends lapses.
* The sheet lists every deal with its factor, its points per person (the deal's
  settlement times the factor) and the running totals; the running Radl is in
  ``radl``. Money is points times the stake per point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from server.engine.base import JSON, Option
from server.engine.cards import TAROCK
from server.engine.games.tarock_zu_dritt.contracts import CONTRACTS
from server.engine.games.tarock_zu_dritt.deal import TarockZuDritt, TarockZuDrittDeal
from server.engine.ledger import scaled
from server.engine.match import DealSetup, Radl, finished_outcome, stake_reasons
from server.engine.sheet import SheetMatch, settled_points
from server.engine.sheet import SheetRow as PlainRow

COLUMNS = ("number", "dealer", "contract", "declarer", "factor", "values", "totals")
SKUS = TAROCK.parse("SK")


@dataclass(frozen=True, slots=True)
class SheetRow(PlainRow):
    """One line of the score sheet, with what the deal counted (a Radl's factor)."""

    factor: int = 1


class TarockZuDrittMatch(SheetMatch[TarockZuDrittDeal]):
    """A Partie of Tarock zu dritt, computed purely from the outcomes of its deals."""

    game = "tarock-zu-dritt"
    column_keys = COLUMNS
    row_type = SheetRow
    match_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "schlussradl",
            "vorhand",
            ("vorhand", "gstiess"),
            "Schlussradl zur ersten Vorhand oder zum Gstieß.",
            "The final Radl to the first Vorhand or to the Gstieß.",
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
        schlussradl: str = "vorhand",
    ) -> None:
        self._set_up(
            TarockZuDritt(), players, rounds, first_dealer, stake_cents, options, sizes=(3,)
        )
        self.rounds = rounds
        self.schlussradl = schlussradl
        self.radl = Radl(stack=not self.options["skoty"])
        self._set_up_sheet()
        #: The number (0-based) of the deal that opens the Schlussradl, once known.
        self.final_from: int | None = None if schlussradl == "gstiess" else 3 * rounds

    @property
    def total_deals(self) -> int | None:
        """The number of deals of the whole Partie (``None`` while the Gstieß decides)."""
        return None if self.final_from is None else self.final_from + 3

    def in_schlussradl(self, number: int) -> bool:
        """Whether deal ``number`` (0-based) belongs to the Schlussradl."""
        return self.final_from is not None and number >= self.final_from

    def next_setup(self) -> DealSetup:
        """The dealer, seats, options and factor of the next deal."""
        number = len(self.rows)
        factor = self.radl.factor()
        note = None
        if self.in_schlussradl(number):
            factor = factor * 2 if self.radl.stack else 2
            note = "schlussradl"
        elif factor > 1:
            note = "radl"
        setup = self.round_the_table(number, self.first_dealer, self.options, note, factor=factor)
        if note is None:
            return setup
        return replace(setup, note_params={"factor": factor})  # the banner says what it counts

    def record(self, deal: TarockZuDrittDeal) -> SheetRow:
        """Enter a finished deal on the sheet; it must be the deal :meth:`next_setup` set up."""
        setup = self.next_setup()
        outcome = finished_outcome(deal, setup.seats, setup.dealer, setup.options)
        raw = settled_points(self.players, setup.seats, outcome["settlement"])
        points = {name: amount * setup.factor for name, amount in raw.items()}
        for name, amount in points.items():
            self.totals[name] += amount
        what = setup.note or "radl"
        self.write_ledger(
            setup,
            points,
            scaled(points, self.stake_cents),
            self.totals,
            reasons=stake_reasons(points, self.stake_cents, raw=raw, factor=setup.factor,
                                  what=what),
            deal_reasons=[{"code": what, "factor": setup.factor}] if setup.factor > 1 else [],
        )  # fmt: skip
        row: SheetRow = self.write_row(setup, outcome, points, note=setup.note, factor=setup.factor)
        self.radl.next_deal()
        fensterbankl = not any(outcome["settlement"])
        if CONTRACTS[outcome["contract"]].trischaken or fensterbankl:
            self.radl.add(3)
        if self.final_from is None and len(self.rows) == 3 * self.rounds:
            self._find_the_gstiess(deal, setup.seats)
        return row

    def _find_the_gstiess(self, deal: TarockZuDrittDeal, seats: Sequence[str]) -> None:
        """After the last regular deal: the Schlussradl starts when the holder of the Sküs
        deals (in the talon: with the first Vorhand's round)."""
        number = len(self.rows)
        holder = next((s for s, hand in enumerate(deal.dealt.hands) if hand >> SKUS & 1), None)
        if deal.options["geklopft"] and holder is not None:
            holder = deal.packet_of.index(holder)
        if holder is None:
            self.final_from = number
            return
        target = self.players.index(seats[holder])
        next_dealer = (self.first_dealer + number) % 3
        self.final_from = number + (target - next_dealer) % 3

    def sheet_lines(self) -> list[JSON]:
        """The running Radl under the sheet (``sheet.line.tarock-zu-dritt.<code>``): what
        the next deal counts and how many deals the longest open Radl still covers, or the
        Schlussradl once it has begun."""
        if self.finished:
            return []
        if self.in_schlussradl(len(self.rows)):
            return [{"code": "schlussradl", "factor": self.next_setup().factor}]
        if self.radl.pending:
            return [{"code": "radl", "factor": self.radl.factor(), "deals": max(self.radl.pending)}]
        return []

    def row_extra(self, row: Any) -> JSON:
        """What the deal counted."""
        return {"factor": row.factor}

    def sheet_extra(self) -> JSON:
        """The running Radl, and whether the Schlussradl has begun."""
        schlussradl = self.final_from is not None and len(self.rows) >= self.final_from
        return {"radl": {**self.radl.to_json(), "schlussradl": schlussradl}}
