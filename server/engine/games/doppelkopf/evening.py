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
  cap). A solo that was owed or replayed creates no new obligations.
* **Vorführung**: as soon as a counter falls below 6, the owed solos are played one after
  the other, the first obliged player from the dealer's left first; P1 leads them.
* **End**: when a counter reaches 0 or after ``max_deals`` deals (0 = no limit). Owed solos
  are played first (a Vorführung), so that nobody leaves with an open obligation.
* **Kurzer!**: a deal in which somebody scores more than ``kurzer_limit`` points (7) is
  marked on the sheet (the host pours a round).
* **Depot**: at the end each player pays his placing times ``depot_cents`` (0.50 €) — the
  lowest counter is first; equal counters share the better placing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from server.engine.base import JSON, Dealt, OptionValue
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppelkopf.contracts import SOLOS
from server.engine.games.doppelkopf.deal import Doppelkopf, DoppelkopfDeal
from server.engine.match import finished_outcome


@dataclass(frozen=True, slots=True)
class DealSetup:
    """Dealer, seats (P1 … P4) and options of the next deal, with why it is special."""

    number: int
    dealer: str
    seats: tuple[str, str, str, str]
    options: dict[str, OptionValue]
    note: str = ""


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the evening's sheet."""

    number: int
    dealer: str
    contract: str
    declarer: str | None
    value: int
    points: dict[str, int]
    counters: dict[str, int]
    kurzer: bool
    note: str = ""
    detail: JSON = field(default_factory=dict)


class DoppelkopfEvening:
    """A Doppelkopf evening, computed purely from the outcomes of its deals."""

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
        self.dealer = first_dealer
        self.counters = dict.fromkeys(self.players, start_points)
        self.obligations: dict[str, list[str]] = {p: [] for p in self.players}
        self.replay: tuple[str, str, bool] | None = None  # player, solo, was it voluntary
        self.replays_in_a_row = 0
        self.vorfuehrung = False
        self.end_requested = False
        self.rows: list[SheetRow] = []

    # ------------------------------------------------------------------ progress

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
        note = ""
        if self.replay is not None:
            player, solo, _ = self.replay
            options.update(pflichtsolo=f"{seats.index(player)}:{solo}", pflichtsolo_lead=lead)
            note = "Wiederholung"
        elif self.vorfuehrung or self.end_requested:
            for player in seats:  # the first obliged player from the dealer's left
                if self.obligations[player]:
                    solo = self.obligations[player][0]
                    options.update(
                        pflichtsolo=f"{seats.index(player)}:{solo}", pflichtsolo_lead="p1"
                    )
                    note = "Vorführung"
                    break
        return DealSetup(len(self.rows) + 1, self.players[self.dealer], seats, options, note)

    def start_deal(self, dealt: Dealt) -> DoppelkopfDeal:
        """Create the next deal from the dealt cards."""
        setup = self.next_setup()
        return self.rules.new_deal(dealt, setup.options, setup.seats, setup.dealer)

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
        row = SheetRow(
            number=setup.number,
            dealer=setup.dealer,
            contract=contract,
            declarer=soloist if contract != "normal" else None,
            value=int(outcome.get("value", 0)),
            points=points,
            counters=dict(self.counters),
            kurzer=self.kurzer_limit is not None
            and max(abs(p) for p in points.values()) > self.kurzer_limit,
            note=note,
            detail={k: v for k, v in outcome.items() if k != "tricks"},
        )
        self.rows.append(row)
        self._check_end()
        return row

    def _after_solo(self, soloist: str, solo: str, won: bool, setup: DealSetup) -> str:
        """Pflichtsolo bookkeeping after a solo; returns the sheet note."""
        if self.replay is not None:
            voluntary = self.replay[2]
        else:
            voluntary = solo not in self.obligations[soloist]
        if won:
            self.replay = None
            self.replays_in_a_row = 0
            if voluntary:
                for other in self.players:
                    if other != soloist:
                        self.obligations[other].append(solo)
            else:
                self.obligations[soloist].remove(solo)
        elif self.max_solo_replays and self.replays_in_a_row >= self.max_solo_replays:
            self.replay = None
            self.replays_in_a_row = 0
            if not voluntary:
                self.obligations[soloist].remove(solo)
        else:
            self.replay = (soloist, solo, voluntary)
            self.replays_in_a_row += 1
        return setup.note or ("Lustsolo" if voluntary else "Pflichtsolo")

    def _check_end(self) -> None:
        if min(self.counters.values()) <= 0 or (
            self.max_deals and len(self.rows) >= self.max_deals
        ):
            self.end_requested = True
        if min(self.counters.values()) < self.vorfuehrung_below:
            self.vorfuehrung = True

    # ------------------------------------------------------------------ results

    def placings(self) -> dict[str, int]:
        """Placing per player: lowest counter first; equal counters share a placing."""
        ordered = sorted(self.counters.values())
        return {name: ordered.index(value) + 1 for name, value in self.counters.items()}

    def depot(self) -> dict[str, int]:
        """What each player pays into the Depot (cents): placing × ``depot_cents``."""
        if self.depot_cents is None:
            return {}
        return {name: place * self.depot_cents for name, place in self.placings().items()}

    def to_json(self) -> JSON:
        """The sheet, obligations and end-of-evening figures as JSON."""
        return {
            "game": self.rules.name,
            "players": list(self.players),
            "start_points": self.start_points,
            "rows": [
                {
                    "number": r.number,
                    "dealer": r.dealer,
                    "contract": r.contract,
                    "declarer": r.declarer,
                    "value": r.value,
                    "points": r.points,
                    "counters": r.counters,
                    "kurzer": r.kurzer,
                    "note": r.note,
                }
                for r in self.rows
            ],
            "counters": dict(self.counters),
            "obligations": {p: list(s) for p, s in self.obligations.items()},
            "vorfuehrung": self.vorfuehrung,
            "finished": self.finished,
            "placings": self.placings() if self.finished else None,
            "depot_cents": self.depot() if self.finished else None,
        }
