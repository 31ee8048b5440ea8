"""The Doppelkopf evening: the count-down sheet, Pflichtsolo, Vorführung, Kurzer and Depot.

From ``doppelkopf.txt`` (sections on scoring, "Pflichtsolo", "Verschärfte Spielregeln",
"Das Depot") with DK-A21 … DK-A24 and DK-A28:

* Four people, listed clockwise. The dealer passes to the left, except that after a
  declared solo (Pflichtsoli included) the same dealer deals again (DK-A21), and a deal
  that was thrown in (Schmeißen, Armut nobody took) is dealt again by the same dealer.
* Everybody starts at ``start_points`` (30). Points won are subtracted from the winner's
  counter: the soloist loses three times the value from his counter when he wins, each
  opponent the value when they win (DK-A22, DK-A23).
* **Pflichtsolo** (DK-A24): a voluntary solo that is won obliges each other player to play
  the same solo later; declaring an owed solo discharges it when it is won. A lost solo
  must be played again at once by the same player (``max_solo_replays`` caps this; 0 = no
  cap). A solo that was owed or replayed creates no new obligations. The match options
  ``pflichtsolo_rule`` (no obligations at all when off) and ``solo_replay`` (a lost solo
  is not replayed when off; an owed one then counts as played) switch both off.
* **Vorführung**: as soon as a counter falls below 6, the owed solos are played one after
  the other, the first obliged player from the dealer's left first; P1 leads them.
* **End**: when a counter reaches 0 or after ``max_deals`` deals (0 = no limit). Owed solos
  are played first (a Vorführung), so that nobody leaves with an open obligation.
* **Kurzer!**: a deal in which somebody scores more than ``kurzer_limit`` points (7) is
  marked on the sheet (the host pours a round).
* **Depot**: at the end each player pays his placing times ``depot_cents`` (0.50 €) — the
  lowest counter is first; equal counters share the better placing. The Depot is the
  evening's pot: :meth:`DoppelkopfEvening.pots_of_last_deal` reports the payments after
  the deal that ends the evening (reason ``placing`` with the placing as parameter).

The evening is a :class:`server.engine.sheet.SheetMatch` with a ``"counters"`` sheet
(lower is better): the sheet's totals are the counters, which start at ``start_points``;
its rows (:class:`SheetRow`) add the deal's value and the Kurzer mark, and the sheet the
obligations, the Vorführung and the Depot. Sheet notes are codes (catalogue
``sheet.note.doppelkopf.<code>``): ``lustsolo``, ``pflichtsolo``, ``replay`` (a lost solo
played again), ``vorfuehrung``; a row is ``obligatory`` when its solo was owed
(``pflichtsolo``, ``vorfuehrung``). The stake does not apply: the evening's money is the
Depot. Its match options (:attr:`DoppelkopfEvening.match_options`) come from the stored
config; ``rounds`` is ``max_deals`` (0: until a counter reaches 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from server.engine.base import JSON, Option
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppelkopf.contracts import SOLOS
from server.engine.games.doppelkopf.deal import Doppelkopf, DoppelkopfDeal
from server.engine.ledger import Ledger
from server.engine.match import DealSetup, PotMove, finished_outcome
from server.engine.sheet import SheetMatch
from server.engine.sheet import SheetRow as PlainRow

COLUMNS = ("number", "dealer", "contract", "declarer", "values", "totals", "note")
#: Notes of a solo that was owed.
OBLIGATORY_NOTES = ("pflichtsolo", "vorfuehrung")


@dataclass(frozen=True, slots=True)
class SheetRow(PlainRow):
    """One line of the evening's sheet: the deal's value and whether it was a Kurzer (its
    ``totals`` are the counters after it)."""

    value: int = 0
    kurzer: bool = False

    @property
    def counters(self) -> dict[str, int]:
        """Each player's counter after the deal (the row's totals)."""
        return self.totals


class DoppelkopfEvening(SheetMatch[DoppelkopfDeal]):
    """A Doppelkopf evening, computed purely from the outcomes of its deals."""

    game = "doppelkopf"
    kind = "counters"
    better = "lower"
    column_keys = COLUMNS
    row_type = SheetRow
    match_options: ClassVar[tuple[Option, ...]] = (
        Option(
            "start_points",
            30,
            (30, 20, 40, 50),
            "Startwert jedes Zählers.",
            "Every counter's start value.",
        ),
        Option(
            "kurzer_limit",
            7,
            (7, 5, 10, 0),
            "Kurzer!, wenn jemand in einem Spiel mehr Punkte macht (0: nie).",
            "Kurzer! when somebody scores more points in one deal (0: never).",
        ),
        Option(
            "depot_cents",
            50,
            (50, 0, 20, 100),
            "Depot: Platz mal so viele Cent am Ende (0: kein Depot).",
            "Depot: placing times this many cents at the end (0: no Depot).",
        ),
        Option(
            "vorfuehrung_below",
            6,
            (6, 0, 10),
            "Vorführung, sobald ein Zähler darunter fällt.",
            "Vorführung as soon as a counter falls below this.",
        ),
        Option(
            "max_solo_replays",
            0,
            (0, 1, 2, 3),
            "Wie oft ein verlorenes Solo wiederholt wird (0: bis es gewonnen ist).",
            "How often a lost solo is played again (0: until it is won).",
        ),
        Option(
            "pflichtsolo_rule",
            True,
            (True, False),
            "Pflichtsolo: ein gewonnenes Lustsolo müssen alle anderen auch spielen.",
            "Pflichtsolo: a won voluntary solo must be played by everybody else too.",
        ),
        Option(
            "solo_replay",
            True,
            (True, False),
            "Ein verlorenes Solo wird sofort wiederholt.",
            "A lost solo is played again at once.",
        ),
    )

    def __init__(
        self,
        players: Sequence[str],
        *,
        start_points: int = 30,
        max_deals: int = 0,
        first_dealer: int = 0,
        options: Mapping[str, object] | None = None,
        kurzer_limit: int | None = 7,
        depot_cents: int | None = 50,
        vorfuehrung_below: int = 6,
        max_solo_replays: int = 0,
        pflichtsolo_rule: bool = True,
        solo_replay: bool = True,
    ) -> None:
        self.rules = Doppelkopf()
        if len(players) != 4 or len(set(players)) != 4:
            raise MalformedError(
                "bad_players",
                "Doppelkopf is played by four people",
                "Doppelkopf spielen vier Personen",
            )
        if start_points < 1 or max_deals < 0 or not 0 <= first_dealer < 4:
            raise MalformedError(
                "bad_match",
                "start points ≥ 1, deals ≥ 0, a seated dealer",
                "Startpunkte ≥ 1, Spiele ≥ 0, ein Geber am Tisch",
            )
        self.players = tuple(players)
        self.options = self.rules.resolve_options(options)
        self.start_points = start_points
        self.max_deals = max_deals
        self.kurzer_limit = kurzer_limit
        self.depot_cents = depot_cents
        self.vorfuehrung_below = vorfuehrung_below
        self.max_solo_replays = max_solo_replays
        self.pflichtsolo_rule = pflichtsolo_rule
        self.solo_replay = solo_replay
        self.dealer = first_dealer
        self._set_up_sheet(start_points)  # the counters
        self.obligations: dict[str, list[str]] = {p: [] for p in self.players}
        self.replay: tuple[str, str, bool] | None = None  # player, solo, was it voluntary
        self.replays_in_a_row = 0
        self.vorfuehrung = False
        self.end_requested = False
        self.ledger = Ledger(self.players)

    @classmethod
    def from_config(cls, players: Sequence[str], config: Mapping[str, Any]) -> Self:
        """The evening from a stored config (see :meth:`Match.from_config`)."""
        extra = cls.read_match_options(config)
        return cls(
            players,
            start_points=int(extra["start_points"]),
            max_deals=int(config["rounds"]),
            first_dealer=int(config["first_dealer"]),
            options=config.get("options"),
            kurzer_limit=int(extra["kurzer_limit"]) or None,
            depot_cents=int(extra["depot_cents"]) or None,
            vorfuehrung_below=int(extra["vorfuehrung_below"]),
            max_solo_replays=int(extra["max_solo_replays"]),
            pflichtsolo_rule=bool(extra["pflichtsolo_rule"]),
            solo_replay=bool(extra["solo_replay"]),
        )

    @property
    def counters(self) -> dict[str, int]:
        """Each player's counter (the sheet's totals)."""
        return self.totals

    @counters.setter
    def counters(self, counters: dict[str, int]) -> None:
        self.totals = counters

    # ------------------------------------------------------------------ progress

    @property
    def total_deals(self) -> int | None:
        """The deals of the evening as far as they are known: ``max_deals`` until they are
        played (owed solos may follow), then none, and once it is over the deals it had."""
        done = len(self.rows)
        if self.finished:
            return done
        return self.max_deals if done < self.max_deals else None

    @property
    def finished(self) -> bool:
        """The evening is over: the end was reached and no solo is owed or to be replayed."""
        return self.end_requested and self.replay is None and not self._owed()

    def _owed(self) -> list[tuple[str, str]]:
        return [(p, s) for p, solos in self.obligations.items() for s in solos]

    def _seats(self) -> tuple[str, str, str, str]:
        p, d = self.players, self.dealer
        return (p[(d + 1) % 4], p[(d + 2) % 4], p[(d + 3) % 4], p[d])

    def next_setup(self) -> DealSetup:
        """Who deals, who sits where, and whether the deal is an obligatory solo."""
        if self.finished:
            raise IllegalActionError(
                "evening_finished", "the evening is over", "der Abend ist vorbei"
            )
        seats = self._seats()
        options = dict(self.options, pflichtsolo="", pflichtsolo_lead="soloist")
        lead = "p1" if self.vorfuehrung or self.end_requested else "soloist"
        note = None
        params: dict[str, str | int] = {}
        if self.replay is not None:
            player, solo, _ = self.replay
            options.update(pflichtsolo=f"{seats.index(player)}:{solo}", pflichtsolo_lead=lead)
            note, params = "replay", {"player": player, "contract": solo}
        elif self.vorfuehrung or self.end_requested:
            for player in seats:  # the first obliged player from the dealer's left
                if self.obligations[player]:
                    solo = self.obligations[player][0]
                    options.update(
                        pflichtsolo=f"{seats.index(player)}:{solo}", pflichtsolo_lead="p1"
                    )
                    note, params = "vorfuehrung", {"player": player, "contract": solo}
                    break
        dealer = self.players[self.dealer]
        return DealSetup(len(self.rows) + 1, dealer, seats, None, options, note, params)

    # ------------------------------------------------------------------ recording

    def record(self, deal: DoppelkopfDeal) -> SheetRow:
        """Write a finished deal on the sheet and work out what the evening owes next."""
        setup = self.next_setup()
        outcome = finished_outcome(deal, setup.seats, setup.dealer, setup.options)
        points = {setup.seats[s]: pts for s, pts in enumerate(outcome["settlement"])}
        for name, pts in points.items():
            if pts > 0:
                self.counters[name] -= pts
        contract = outcome["contract"]
        declarer = outcome["declarer"]
        soloist = setup.seats[declarer] if declarer is not None else None
        note = setup.note
        if contract in SOLOS:
            assert soloist is not None
            note = self._after_solo(soloist, contract, outcome["winner"] == "re", setup) or note
        else:
            self.replay = None
            if not outcome.get("thrown_in"):
                self.dealer = (self.dealer + 1) % 4
        # the declarer: the soloist, Hochzeiter or poor player (none in a normal game)
        row: SheetRow = self.write_row(
            setup,
            outcome,
            points,
            note=note,
            value=int(outcome.get("value", 0)),
            kurzer=self.kurzer_limit is not None
            and max(abs(p) for p in points.values()) > self.kurzer_limit,
        )
        self._check_end()
        reasons = {name: [{"code": "counter", "points": pts, "counter": self.counters[name]}]
                   for name, pts in points.items() if pts > 0}  # fmt: skip
        self.write_ledger(
            setup,
            points,
            {},  # the stake does not apply: the evening's money is the Depot
            self.counters,
            reasons=reasons,
            closing=self.closing_moves() if self.finished else [],
        )
        return row

    def closing_moves(self) -> list[PotMove]:
        """The Depot: each player pays his placing times ``depot_cents`` into it (at the
        end of the evening, or now when the players stop early)."""
        placings = self.placings()
        return [
            PotMove("depot", name, cents, "placing", params=(("placing", placings[name]),))
            for name, cents in self.depot().items()
        ]

    def _after_solo(self, soloist: str, solo: str, won: bool, setup: DealSetup) -> str | None:
        """Pflichtsolo bookkeeping after a solo; returns the sheet note."""
        if self.replay is not None:
            voluntary = self.replay[2]
        else:
            voluntary = solo not in self.obligations[soloist]
        if won:
            self.replay = None
            self.replays_in_a_row = 0
            if not voluntary:
                self.obligations[soloist].remove(solo)
            elif self.pflichtsolo_rule:
                for other in self.players:
                    if other != soloist:
                        self.obligations[other].append(solo)
        elif not self.solo_replay or (
            self.max_solo_replays and self.replays_in_a_row >= self.max_solo_replays
        ):
            self.replay = None
            self.replays_in_a_row = 0
            if not voluntary:
                self.obligations[soloist].remove(solo)
        else:
            self.replay = (soloist, solo, voluntary)
            self.replays_in_a_row += 1
        return setup.note or ("lustsolo" if voluntary else "pflichtsolo")

    def _check_end(self) -> None:
        if min(self.counters.values()) <= 0 or (
            self.max_deals and len(self.rows) >= self.max_deals
        ):
            self.end_requested = True
        if min(self.counters.values()) < self.vorfuehrung_below:
            self.vorfuehrung = True

    # ------------------------------------------------------------------ results

    def depot(self) -> dict[str, int]:
        """What each player pays into the Depot (cents): placing × ``depot_cents``."""
        if self.depot_cents is None:
            return {}
        return {name: place * self.depot_cents for name, place in self.placings().items()}

    # ------------------------------------------------------------------ the sheet

    def sheet_start(self) -> dict[str, int]:
        """Every counter starts at ``start_points``."""
        return dict.fromkeys(self.players, self.start_points)

    def sheet_head(self) -> JSON:
        """The counters' start (``start_points``, as before) instead of rounds."""
        return {"start_points": self.start_points}

    def sheet_terms(self) -> JSON:
        """Neither a number of deals (owed solos lengthen the evening) nor a stake (the
        evening's money is the Depot)."""
        return {}

    def row_json(self, row: Any) -> JSON:
        """A row with the deal's value, its points and the counters after it (``values``
        and ``totals`` as every sheet, ``points`` and ``counters`` as before), the Kurzer
        mark, and ``obligatory`` when its solo was owed."""
        return {
            "number": row.number,
            "dealer": row.dealer,
            "contract": row.contract,
            "declarer": row.declarer,
            "value": row.value,
            "values": dict(row.values),
            "points": dict(row.values),
            "totals": dict(row.totals),
            "counters": dict(row.totals),
            "kurzer": row.kurzer,
            "note": row.note,
            "obligatory": row.note in OBLIGATORY_NOTES,
        }

    def sheet_lines(self) -> list[JSON]:
        """The stake does not apply (``no_stake``), and each solo still owed
        (``owes_solo``)."""
        return [{"code": "no_stake"}] + [
            {"code": "owes_solo", "player": p, "solo": s}
            for p, solos in self.obligations.items()
            for s in solos
        ]

    def sheet_extra(self) -> JSON:
        """The counters, the obligations, whether the Vorführung runs and the counter below
        which it starts (0: only at the end), and once the evening is over the Depot."""
        return {
            "counters": dict(self.counters),
            "obligations": {p: list(s) for p, s in self.obligations.items()},
            "vorfuehrung": self.vorfuehrung and not self.finished,
            "vorfuehrung_below": self.vorfuehrung_below,
            "depot_cents": self.depot() if self.finished else None,
        }
