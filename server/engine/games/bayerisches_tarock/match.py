"""The Bayerisches Tarock session: rounds of deals, the dealer going clockwise, the Haferl.

* Three or four people sit at the table, listed clockwise. The deal passes to the left,
  i.e. to the next person in that list; the three people after the dealer are Vorhand,
  Mittelhand and Hinterhand. With three the dealer is Hinterhand; with four the dealer
  sits out and pays nothing (BT-A15). The first dealer is the config's ``first_dealer``
  (the drawn card of BT-A18 is the runtime's: a random seat).
* A round is one deal by every person at the table; a thrown-in deal (everybody passed,
  BT-A16) counts as a deal and the next person deals.
* Units are paid at the stake (``stake_cents``, the Grundbetrag) per unit.
* **Pocket mode** (default, BT-A12): the declarer receives his units from, or pays them
  to, each opponent.
* **Pot mode** (match option ``haferl``, BT-A12): at the start every person at the table
  (also a fourth who deals and sits out, BT-A15) pays ``haferl_einsatz`` units into the
  Haferl. A won Stock game is paid to the declarer from the Haferl; a lost one is paid
  to the first opponent after the declarer (clockwise) from the Haferl and to the other
  opponent by the declarer. Hand games (Hand, Durch, Bettel) never touch the Haferl:
  they are settled between the players as in pocket mode. When the Haferl holds less
  than a payment out of it, everybody pays the Einsatz again first (our rule: the pot
  is refilled as at the start). What is left in the Haferl at the end is shared equally
  (the odd cents to the first people in the list).
* The sheet (``docs/api.md``): a ``"points"`` sheet in units paid between the players
  (each row adds up to zero); what the Haferl pays and takes is in ``pots`` (cents per
  player, net), each row carries the Haferl's balance after the deal (``haferl_cents``,
  ``None`` in pocket mode), and the placings go by money, the Haferl included;
  :meth:`pots_of_last_deal` lists the deal's payments into (positive) and out of
  (negative) the Haferl, with the reasons ``einsatz`` and ``stock_game`` (catalogue
  ``pot.reason.<reason>``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from server.engine.base import JSON, Move, Option
from server.engine.games.bayerisches_tarock.deal import BayerischesTarock, BayerischesTarockDeal
from server.engine.ledger import scaled
from server.engine.match import DealSetup, PotMove, finished_outcome, placings_of, stake_reasons
from server.engine.sheet import COLUMNS, SheetMatch, settled_points
from server.engine.sheet import SheetRow as PlainRow

POT = "haferl"


@dataclass(frozen=True, slots=True)
class SheetRow(PlainRow):
    """One line of the score sheet, with the Haferl's balance after the deal (pot mode)."""

    haferl_cents: int | None = None


class BayerischesTarockMatch(SheetMatch[BayerischesTarockDeal]):
    """A session of Bayerisches Tarock, computed purely from the outcomes of its deals."""

    game = "bayerisches-tarock"
    row_type = SheetRow
    match_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "haferl",
            False,
            (False, True),
            "Haferl: Stockspiele werden aus dem gemeinsamen Topf bezahlt.",
            "Haferl: Stock games are paid from the common pot.",
        ),
        Option(
            "haferl_einsatz",
            10,
            (10, 5, 20, 50),
            "Einsatz jedes Spielers in das Haferl, in Grundbeträgen.",
            "What each player puts into the Haferl, in units of the stake.",
        ),
        Option(
            "gut_automatisch",
            True,
            (True, False),
            "»Gut« automatisch, wenn nichts anderes geht: der Tisch sagt ein »Gut«, das "
            "der einzige mögliche Zug ist, selbst (markiert wie ein Zug der Zugzeit).",
            "'Gut' by itself when nothing else is possible: the table says a 'Gut' that is "
            "the only possible move itself (marked like a move of the turn timer).",
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
        haferl: bool = False,
        haferl_einsatz: int = 10,
        gut_automatisch: bool = True,
    ) -> None:
        self._set_up(BayerischesTarock(), players, rounds, first_dealer, stake_cents, options)
        self.rounds = rounds
        self.haferl = haferl
        self.haferl_einsatz = haferl_einsatz
        #: The table says a lone "gut" in the Kontra round itself (:meth:`forced_move`).
        self.gut_automatisch = gut_automatisch
        self._set_up_sheet()
        #: What each player paid into the Haferl and took out of it (cents, net).
        self.pot_totals: dict[str, int] = dict.fromkeys(self.players, 0)
        #: What was left in the Haferl at the end and shared out (cents).
        self.shared_cents = 0

    @property
    def total_deals(self) -> int:
        """Number of deals in the whole session."""
        return self.rounds * len(self.players)

    @property
    def pot_cents(self) -> int:
        """What the Haferl holds now (cents)."""
        return sum(self.pot_totals.values())

    def next_setup(self) -> DealSetup:
        """The dealer, seats and options of the next deal."""
        return self.round_the_table(len(self.rows), self.first_dealer, self.options)

    def forced_move(self, deal: BayerischesTarockDeal) -> Move | None:
        """With ``gut_automatisch`` (on by default) the table says a lone "gut" of the
        Kontra round itself (:meth:`BayerischesTarockDeal.forced_move`); else never."""
        return deal.forced_move() if self.gut_automatisch else None

    # ------------------------------------------------------------------ the Haferl

    def _pay_in(self, moves: list[PotMove]) -> None:
        """Everybody at the table pays the Einsatz into the Haferl."""
        cents = self.haferl_einsatz * self.stake_cents
        for name in self.players:
            moves.append(PotMove(POT, name, cents, "einsatz"))
            self.pot_totals[name] += cents

    def _pay_out(self, moves: list[PotMove], name: str, units: int) -> None:
        """Pay ``units`` from the Haferl to ``name``, refilling it first if it holds too
        little (a stake of 0 moves nothing)."""
        cents = units * self.stake_cents
        while cents and self.pot_cents < cents:
            self._pay_in(moves)
        moves.append(PotMove(POT, name, -cents, "stock_game", params=(("units", units),)))
        self.pot_totals[name] -= cents

    def _values(self, setup: DealSetup, outcome: JSON, moves: list[PotMove]) -> dict[str, int]:
        """Each player's units paid between the players in the deal (they add up to zero);
        what the Haferl pays goes into ``moves``."""
        values = dict.fromkeys(self.players, 0)
        declarer = outcome["declarer"]
        if not self.haferl or declarer is None or outcome["hand"]:
            return settled_points(self.players, setup.seats, outcome["settlement"])
        units = outcome["units"] * outcome["factor"]
        name = setup.seats[declarer]
        if outcome["declarer_won"]:
            self._pay_out(moves, name, units)
            return values
        first = setup.seats[(declarer + 1) % 3]
        second = setup.seats[(declarer + 2) % 3]
        values[name] -= units
        values[second] += units
        self._pay_out(moves, first, units)
        return values

    # ------------------------------------------------------------------ the sheet

    def record(self, deal: BayerischesTarockDeal) -> SheetRow:
        """Enter a finished deal on the sheet; it must be the deal :meth:`next_setup` set up."""
        setup = self.next_setup()
        outcome = finished_outcome(deal, setup.seats, setup.dealer, setup.options)
        moves: list[PotMove] = []
        if self.haferl and not self.rows:
            self._pay_in(moves)  # the Haferl is filled at the start of the session
        values = self._values(setup, outcome, moves)
        for name, amount in values.items():
            self.totals[name] += amount
        closing: list[PotMove] = []
        if len(self.rows) + 1 >= self.total_deals:  # the last deal: the Haferl is shared
            self.shared_cents = self.pot_cents
            closing = self._share()
        row: SheetRow = self.write_row(
            setup, outcome, values, haferl_cents=self.pot_cents if self.haferl else None
        )
        self.write_ledger(
            setup,
            values,
            scaled(values, self.stake_cents),
            self.totals,
            moves,
            reasons=stake_reasons(values, self.stake_cents),
            closing=closing,
        )
        return row

    def _share(self) -> list[PotMove]:
        """Share what is left in the Haferl (:meth:`closing_moves`); it is empty afterwards."""
        moves = self.closing_moves()
        for move in moves:
            self.pot_totals[move.player] += move.amount
        return moves

    def closing_moves(self) -> list[PotMove]:
        """What is left in the Haferl shared equally, the odd cents to the first people in
        the list (at the last deal, or now when the players stop before it)."""
        share, rest = divmod(self.pot_cents, len(self.players))
        amounts = [(name, share + (1 if i < rest else 0)) for i, name in enumerate(self.players)]
        return [PotMove(POT, name, -cents, "haferl_shared") for name, cents in amounts if cents]

    def placings(self) -> dict[str, int]:
        """Placing per person by money: the ledger's money with the Haferl shared as if
        the session ended now."""
        return placings_of(self.balances_cents(), higher_is_better=True)

    def sheet_columns(self) -> list[JSON]:
        """The sheet's columns; in pot mode the Haferl's balance after each deal stands
        after the contract (a ``_cents`` column: the client shows it as money)."""
        columns: list[JSON] = [{"key": key, "label": f"sheet.col.{key}"} for key in COLUMNS]
        if self.haferl:
            haferl = {"key": "haferl_cents", "label": f"sheet.col.{self.game}.haferl"}
            columns.insert(COLUMNS.index("values"), haferl)
        return columns

    def sheet_lines(self) -> list[JSON]:
        """The sheet-wide lines in pot mode: what the Haferl holds now and, once the
        session is over, that it is shared equally (``sheet.line.<game>.<code>``)."""
        if not self.haferl:
            return []
        if self.finished:
            pot = self.shared_cents
            lines: list[JSON] = [{"code": "haferl", "haferl_cents": 0}]
            if pot:
                share = pot // len(self.players)
                lines.append({"code": "haferl_shared", "haferl_cents": pot, "share_cents": share})
            return lines
        return [{"code": "haferl", "haferl_cents": self.pot_cents}]

    def row_extra(self, row: Any) -> JSON:
        """The Haferl's balance after the deal (``None`` without the Haferl)."""
        return {"haferl_cents": row.haferl_cents}

    def sheet_extra(self) -> JSON:
        """Whether the Haferl is played and what it holds now."""
        return {"haferl": self.haferl, "haferl_cents": self.pot_cents if self.haferl else None}
