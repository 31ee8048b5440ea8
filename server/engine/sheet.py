"""The score-sheet match: one row per deal, its points per person and the running totals.

Most games write the same sheet (``docs/api.md``, "The score sheet"): a row per deal with
its number, dealer, the person sitting out, the contract, the declarer, each person's
points (``values``; ``points`` says the same) and the totals after it; under it the
totals, the progress, a few lines and the pots. :class:`SheetMatch` writes it; a game
configures it with its :attr:`~SheetMatch.column_keys` and, where its sheet has more, hooks:

* per row: a :class:`SheetRow` subclass with the game's own fields (a factor, a pot's
  balance after the deal), :attr:`~SheetMatch.row_type` naming it and
  :meth:`~SheetMatch.row_extra` putting them into the row's JSON;
* per sheet: :meth:`~SheetMatch.sheet_columns` (a column that comes and goes with an
  option), :meth:`~SheetMatch.sheet_start` (counters that count down from a start),
  :meth:`~SheetMatch.sheet_head` (what the match counts: its ``rounds``),
  :meth:`~SheetMatch.sheet_terms` (the number of deals and the stake, where the match has
  them), :meth:`~SheetMatch.sheet_lines` (the lines under the sheet) and
  :meth:`~SheetMatch.sheet_extra` (keys of the game's own: a running Radl, a pot, owed
  solos).

A sheet whose rows look altogether different (Doppelkopf's counters) overrides
:meth:`~SheetMatch.row_json`.

A game's match still decides the deals (:meth:`Match.next_setup`), what a deal is worth
and what it moves into the pots (:meth:`Match.record`, which enters the row with
:meth:`SheetMatch.write_row` and writes the ledger).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from server.engine.base import JSON, DealT
from server.engine.match import DealSetup, Match

#: The usual columns of a sheet (``sheet.col.<key>`` in the catalogues).
COLUMNS = ("number", "dealer", "contract", "declarer", "values", "totals")


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the score sheet (a game subclasses it for fields of its own).

    ``values``: each person's points of the deal (every factor applied); ``totals``: the
    sheet's totals after it; ``note``: the row's note code (``sheet.note.<game>.<code>``);
    ``detail``: the deal's outcome without its tricks.
    """

    number: int
    dealer: str
    sitting_out: str | None
    contract: str | None
    declarer: str | None
    values: dict[str, int]
    totals: dict[str, int]
    note: str | None = None
    detail: JSON = field(default_factory=dict)

    @property
    def points(self) -> dict[str, int]:
        """The deal's points per person (the same as :attr:`values`)."""
        return self.values


def settled_points(
    players: Sequence[str], seats: Sequence[str], settlement: Sequence[int]
) -> dict[str, int]:
    """Each person's points from a deal's ``settlement`` (one amount per seat): 0 for a
    person without a seat (the dealer sitting out).

    >>> settled_points(["A", "B", "C", "D"], ["B", "C", "D"], [4, -2, -2])
    {'A': 0, 'B': 4, 'C': -2, 'D': -2}
    """
    points = dict.fromkeys(players, 0)
    for seat, amount in enumerate(settlement):
        points[seats[seat]] += amount
    return points


class SheetMatch(Match[DealT]):
    """A match whose sheet is one :class:`SheetRow` per deal (see the module text).

    The game's constructor calls :meth:`Match._set_up` and then :meth:`_set_up_sheet`;
    its :meth:`record` enters each deal with :meth:`write_row`. The match is over after
    :attr:`total_deals` deals (``None``: not known yet).
    """

    kind = "points"
    better = "higher"
    #: The sheet's columns, in order (``sheet.col.<key>``).
    column_keys: ClassVar[tuple[str, ...]] = COLUMNS
    #: The game's row type (a :class:`SheetRow` with its own fields).
    row_type: ClassVar[type[SheetRow]] = SheetRow

    rows: list[Any]
    #: The rounds the match plays (a game that counts otherwise overrides
    #: :attr:`total_deals` and :meth:`sheet_head`).
    rounds: int
    #: Each person's total so far (the sheet's totals unless :meth:`sheet_totals` says
    #: otherwise).
    totals: dict[str, int]

    def _set_up_sheet(self, start: int = 0) -> None:
        """An empty sheet: no rows, every total ``start``."""
        self.rows = []
        self.totals = dict.fromkeys(self.players, start)

    @property
    def total_deals(self) -> int | None:
        """The number of deals of the whole match (by default a round per person)."""
        return self.rounds * len(self.players)

    @property
    def finished(self) -> bool:
        """Whether every deal of the match has been played."""
        total = self.total_deals
        return total is not None and len(self.rows) >= total

    def standing(self) -> dict[str, int]:
        """Each person's points so far."""
        return dict(self.totals)

    def write_row(
        self,
        setup: DealSetup,
        outcome: JSON,
        values: dict[str, int],
        *,
        totals: dict[str, int] | None = None,
        note: str | None = None,
        **extra: Any,
    ) -> Any:
        """Enter the deal ``setup`` set up on the sheet: its contract and declarer from the
        ``outcome``, each person's ``values``, the ``totals`` after it (by default
        :attr:`totals`), the row's ``note`` and the game's own fields (``extra``, for
        :attr:`row_type`). Returns the row."""
        declarer = outcome["declarer"]
        row = self.row_type(
            number=setup.number,
            dealer=setup.dealer,
            sitting_out=setup.sitting_out,
            contract=outcome["contract"],
            declarer=None if declarer is None else setup.seats[declarer],
            values=values,
            totals=dict(self.totals if totals is None else totals),
            note=note,
            detail={k: v for k, v in outcome.items() if k != "tricks"},
            **extra,
        )
        self.rows.append(row)
        return row

    # ------------------------------------------------------------------ hooks

    def sheet_columns(self) -> list[JSON]:
        """The sheet's columns (by default :attr:`column_keys`)."""
        return [{"key": key, "label": f"sheet.col.{key}"} for key in self.column_keys]

    def sheet_start(self) -> dict[str, int]:
        """Each person's total before the first deal (by default 0)."""
        return dict.fromkeys(self.players, 0)

    def sheet_head(self) -> JSON:
        """What the match counts, before ``deals`` (by default its ``rounds``)."""
        return {"rounds": self.rounds}

    def sheet_terms(self) -> JSON:
        """The number of deals (:attr:`total_deals`) and the stake per point, after the
        head (a match whose money is not points times a stake names neither)."""
        return {"deals": self.total_deals, "stake_cents": self.stake_cents}

    def row_extra(self, row: Any) -> JSON:
        """The game's own entries of a row's JSON, after its totals (none by default)."""
        return {}

    def sheet_lines(self) -> list[JSON]:
        """The lines under the sheet (``sheet.line.<game>.<code>``; none by default)."""
        return []

    def sheet_extra(self) -> JSON:
        """The game's own keys of the sheet (a running Radl, a pot; none by default)."""
        return {}

    # ------------------------------------------------------------------ the sheet

    def row_json(self, row: Any) -> JSON:
        """One row of the sheet's JSON."""
        return {
            "number": row.number,
            "dealer": row.dealer,
            "sitting_out": row.sitting_out,
            "contract": row.contract,
            "declarer": row.declarer,
            "values": dict(row.values),
            "points": dict(row.values),
            "totals": dict(row.totals),
            **self.row_extra(row),
            "note": row.note,
            "obligatory": False,
        }

    def to_json(self) -> JSON:
        """The score sheet and settlement as JSON (``docs/api.md``, "The score sheet")."""
        total = self.total_deals
        return self.with_ledger(
            {
                "game": self.game,
                "kind": self.kind,
                "better": self.better,
                "players": list(self.players),
                "columns": self.sheet_columns(),
                "start": self.sheet_start(),
                **self.sheet_head(),
                **self.sheet_terms(),
                "rows": self.sheet_rows(self.row_json),
                "totals": self.sheet_totals(),
                "progress": {"done": len(self.rows), "of": total},
                "lines": self.sheet_lines(),
                "pots": self.pots(),
                **self.sheet_extra(),
                "finished": self.finished,
            }
        )
