"""The Doppen Partie: dealer rotation, the Kirchberg sheet, the Pagatkasse, the settlement.

* Three or four people sit at the table, listed in playing order (anticlockwise). The
  dealer passes to the right: the next dealer is the old Vorhand, the next person in
  that list (DP-A1); the three people after the dealer are Vorhand, Mittelhand and
  Hinterhand. With three the dealer is Hinterhand; with four the dealer sits out and
  counts to the opponents (DP-A20). A thrown-in deal is a deal too: Vorhand deals next.
* The Partie is a configured number of deals (``rounds`` in the room's config counts
  deals; the default, 12, is a multiple of three and of four), DP-A24.
* The sheet (DP-A19, "Aufschreibsystem"): one column per player in cents; a deal's
  balance against each opponent (points × the stake per point) is added to the
  declarer's column. At the end the columns are settled pairwise: player ``i`` of ``N``
  gets ``(N − 1)·col_i − Σ_{j≠i} col_j``.
* The Pagatkasse (DP-A17, :mod:`.kasse`): recorded, not paid; filled when empty at the
  start of a deal, half the base from everybody after an all-pass deal, the content
  (× Kontra) recorded by the loser of an announced Pagat, paid out by the others to the
  winner of one (× Kontra) at once; at the end the recorded amounts are paid in and the
  content is split equally. Its movements per deal come from :meth:`pots_of_last_deal`
  (pot ``"pagatkasse"``; positive: recorded into the Kasse, negative: struck out).

Match options: the stake per point (``stake_cents``, common config), the Kasse's base
amount (``kasse_base_cents``), the number of deals (``rounds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from server.engine.base import JSON, Option
from server.engine.games.doppen.deal import Doppen, DoppenDeal
from server.engine.games.doppen.kasse import PagatKasse
from server.engine.match import DealSetup, PotMove, bad_config, finished_outcome
from server.engine.sheet import SheetMatch
from server.engine.sheet import SheetRow as PlainRow

POT = "pagatkasse"


@dataclass(frozen=True, slots=True)
class SheetRow(PlainRow):
    """One line of the sheet: the column entries (cents) and what the Kasse did."""

    kasse: JSON = field(default_factory=dict)


def pairwise(columns: Mapping[str, int]) -> dict[str, int]:
    """The pairwise settlement of the sheet's columns (DP-A19).

    >>> pairwise({"Anne": 30, "Bert": -10, "Clara": 0})
    {'Anne': 70, 'Bert': -50, 'Clara': -20}
    """
    n = len(columns)
    total = sum(columns.values())
    return {p: (n - 1) * c - (total - c) for p, c in columns.items()}


class DoppenMatch(SheetMatch[DoppenDeal]):
    """A Partie of Doppen, computed purely from the outcomes of its deals."""

    game = "doppen"
    row_type = SheetRow
    rounds_param = "deals"
    match_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "kasse_base_cents",
            100,
            (50, 100, 200, 500),
            "Grundbetrag der Pagatkasse (Cent), den jeder zahlt, wenn sie leer ist.",
            "The Pagatkasse's base amount (cents) everybody pays when it is empty.",
        ),
    )

    def __init__(
        self,
        players: Sequence[str],
        *,
        deals: int = 12,
        first_dealer: int = 0,
        stake_cents: int = 2,
        kasse_base_cents: int = 100,
        options: Mapping[str, object] | None = None,
    ) -> None:
        self._set_up(
            Doppen(), players, deals, first_dealer, stake_cents, options, unit=("deals", "Spiele")
        )
        if kasse_base_cents < 0 or kasse_base_cents % 2:
            raise bad_config(
                "the Kasse's base amount is an even number of cents",
                "Der Grundbetrag der Kasse ist eine gerade Zahl von Cent",
            )
        self.deals = deals
        self.kasse = PagatKasse(self.players, kasse_base_cents)
        self._set_up_sheet()
        #: The sheet's columns (cents entered per declarer, DP-A19): its totals.
        self.columns: dict[str, int] = self.totals
        self.last_pots: list[PotMove] = []

    @property
    def total_deals(self) -> int:
        """The number of deals of the Partie."""
        return self.deals

    def next_setup(self) -> DealSetup:
        """The dealer, seats and options of the next deal."""
        return self.round_the_table(len(self.rows), self.first_dealer, self.options)

    def _move(self, player: str, cents: int, reason: str, **params: int | str | bool) -> None:
        if cents:
            self.last_pots.append(PotMove(POT, player, cents, reason, params=tuple(params.items())))

    def record(self, deal: DoppenDeal) -> SheetRow:
        """Enter a finished deal on the sheet and do the Kasse's business of it (see the
        module text; its money is written into the ledger as pot movements)."""
        setup = self.next_setup()
        outcome = finished_outcome(deal, setup.seats, setup.dealer, setup.options)
        self.last_pots = []
        kasse = self.kasse
        if kasse.empty:
            kasse.fill()
            for p in self.players:
                self._move(p, kasse.base, "kasse_fill")
        values = dict.fromkeys(self.players, 0)
        declarer = outcome["declarer"]
        declarer_name = None if declarer is None else setup.seats[declarer]
        if declarer_name is not None:
            values[declarer_name] = outcome["per_opponent"] * self.stake_cents
            self.columns[declarer_name] += values[declarer_name]
        event = outcome["kasse"] or {}
        kind = event.get("event")
        note: JSON = {}
        if kind == "all_pass":
            kasse.all_pass()
            for p in self.players:
                self._move(p, kasse.base // 2, "kasse_all_pass")
        elif kind == "pagat_lost":
            loser = setup.seats[event["seat"]]
            amount = kasse.pagat_lost(loser, event["factor"])
            self._move(loser, amount, "pagat_lost", factor=event["factor"])
            note = {"event": kind, "player": loser, "cents": amount}
        elif kind == "pagat_won":
            winner = setup.seats[event["seat"]]
            taken = self._pagat_won(winner, event["factor"])
            note = {"event": kind, "player": winner, "cents": taken}
        closing = []
        if len(self.rows) + 1 >= self.deals:
            closing = self.closing_moves()
            kasse.clear()
        row: SheetRow = self.write_row(
            setup,
            outcome,
            values,
            note="thrown_in" if outcome["contract"] is None else None,
            kasse={**note, **kasse.to_json()},
        )
        shares = pairwise(values)  # the sitting-out dealer counts to the opponents (DP-A20)
        reasons: dict[str, list[JSON]] = {p: [] for p in self.players}
        if declarer_name is not None and outcome["per_opponent"]:
            for p in self.players:
                reason = {"code": "per_opponent", "declarer": declarer_name,
                          "points": outcome["per_opponent"], "opponents": len(self.players) - 1,
                          "stake_cents": self.stake_cents, "cents": shares[p]}  # fmt: skip
                reasons[p].append(reason)
        self.write_ledger(
            setup, values, shares, self.columns, self.last_pots, reasons=reasons, closing=closing
        )
        return row

    def _pagat_won(self, winner: str, factor: int) -> int:
        """A won announced Pagat (DP-A17): every other player pays his recorded total
        (× the Kontra factor) to the winner, and everything recorded is struck out. In the
        ledger: what each recorded is in the Kasse already; with Kontra he pays the rest
        in too (``pagat_won_kontra``); the winner takes it all out (``pagat_won``). Returns
        what the winner takes."""
        kasse = self.kasse
        content = kasse.content()
        extra = {p: kasse.owed(p) * (factor - 1) for p in self.players if p != winner}
        for p, cents in extra.items():
            self._move(p, cents, "pagat_won_kontra", factor=factor, payee=winner)
        taken = content + sum(extra.values())
        self._move(winner, -taken, "pagat_won", factor=factor)
        kasse.pagat_won(winner, factor)
        return taken

    def closing_moves(self) -> list[PotMove]:
        """The end of the Partie: what is recorded is paid in and the content is split
        equally (:meth:`PagatKasse.split`); in the ledger each person takes his share out
        (``kasse_split``), what he recorded being in the Kasse already."""
        share, rest = divmod(self.kasse.content(), len(self.players))
        amounts = [(p, share + (1 if i < rest else 0)) for i, p in enumerate(self.players)]
        return [PotMove(POT, p, -cents, "kasse_split") for p, cents in amounts if cents]

    def pots(self) -> dict[str, dict[str, int]]:
        """What each player has recorded for the Pagatkasse (cents)."""
        return {POT: {p: self.kasse.owed(p) for p in self.players}}

    def standing(self) -> dict[str, int]:
        """Each player's money in cents if the Partie ended now (the pairwise settlement of
        the columns, the Kasse split)."""
        return self.balances_cents()

    def sheet_totals(self) -> dict[str, int]:
        """The sheet's columns (cents entered per declarer, DP-A19)."""
        return dict(self.columns)

    def sheet_head(self) -> JSON:
        """The Partie counts deals: no rounds."""
        return {}

    def row_extra(self, row: Any) -> JSON:
        """What the Kasse did in the deal."""
        return {"kasse": dict(row.kasse)}

    def sheet_lines(self) -> list[JSON]:
        """The columns are written in cents (``{"code": "cents"}``) and, once a deal is on
        the sheet, the Kasse's effective content (``{"code": "kasse", "cents"}``)."""
        kasse = [{"code": "kasse", "cents": self.kasse.content()}] if self.rows else []
        return [{"code": "cents"}, *kasse]

    def sheet_extra(self) -> JSON:
        """The Kasse."""
        return {"kasse": self.kasse.to_json()}
