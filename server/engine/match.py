"""The match (Partie, evening) of every game: one protocol the runtime and the archive use.

A game's match module (``games/<game>/match.py`` or ``evening.py``) subclasses
:class:`Match`; :func:`server.engine.registry.new_match` is the runtime's only way to one.
A match is computed purely from the outcomes of its deals: the runtime asks
:meth:`Match.next_setup` who deals and sits where, creates the deal with
:meth:`Match.start_deal`, and hands the finished deal back to :meth:`Match.record`; right
after, :meth:`Match.pots_of_last_deal` says what that deal moved into or out of the pots
(the runtime stores these movements with the deal). Replaying the stored deals through
:meth:`Match.record` rebuilds the same match, sheet and pots.

The sheet (:meth:`Match.to_json`) states its own kind and columns, so that the archive and
the client render it without knowing the game (``docs/api.md``, "The score sheet").

The ledger (:mod:`server.engine.ledger`) is written by :meth:`Match.record` as it goes:
one entry per person and deal with the sheet's points, the money and the pot movements;
it is the one source of every number the table, the archive and the statistics show.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self

from server.engine.base import JSON, Deal, DealT, Dealt, Move, Option, OptionValue, Rules
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.ledger import DealLedger, Ledger, Payment, PotMove, settle_debts

__all__ = [
    "DealSetup", "Match", "Payment", "PotMove", "Radl", "settle_debts", "stake_reasons",
]  # fmt: skip


def finished_outcome(
    deal: Deal, seats: Sequence[str], dealer: str, options: Mapping[str, object]
) -> JSON:
    """The outcome of ``deal`` if it is finished and is the deal the match set up next."""
    outcome = deal.outcome()
    if outcome is None:
        raise IllegalActionError(
            "deal_not_finished",
            "only finished deals are written down",
            "nur beendete Spiele werden aufgeschrieben",
        )
    if deal.seat_names != tuple(seats) or deal.dealer != dealer or deal.options != dict(options):
        raise IllegalActionError(
            "wrong_deal",
            "this deal is not the next deal of the match",
            "dieses Spiel ist nicht das nächste der Partie",
        )
    return outcome


@dataclass(frozen=True, slots=True)
class DealSetup:
    """Who deals and who sits where in the next deal, its options and a sheet note code."""

    number: int
    dealer: str
    seats: tuple[str, ...]
    sitting_out: str | None
    options: dict[str, OptionValue]
    note: str | None = None
    #: What the table says with the note (catalogue ``setup.<game>.<note>``), e.g. the
    #: player who must play a solo again and the solo's contract code.
    note_params: dict[str, str | int] = field(default_factory=dict)
    #: What the deal's points count on the sheet (a Radl doubles them; see :class:`Radl`).
    factor: int = 1


class Radl:
    """Multipliers for following deals: a Radl makes the next ``deals`` deals count
    ``factor`` times (Tarock zu dritt, TZ-A24: the next round of three deals ×2 after a
    Trischaken or a Fensterbankl; a final Schlussradl, TZ-A25). Radls that overlap multiply
    (TZ-A24 "stack multiplicatively"); with ``stack=False`` (Skoty-Trophy: "keine doppelten
    Radln") a deal counts at most one Radl's factor. Pure bookkeeping: the match asks
    :meth:`factor` when it sets a deal up and calls :meth:`next_deal` once it is written.

    >>> radl = Radl()
    >>> radl.add(3); radl.factor()
    2
    >>> radl.next_deal(); radl.add(3); radl.factor()   # two Radls overlap: ×4
    4
    >>> radl.next_deal(); radl.next_deal(); radl.factor(), radl.pending
    (2, [1])
    >>> single = Radl(stack=False); single.add(3); single.add(3); single.factor()
    2
    """

    __slots__ = ("factor_each", "pending", "stack")

    def __init__(self, factor: int = 2, *, stack: bool = True) -> None:
        self.factor_each = factor
        self.stack = stack
        #: The deals each open Radl still covers (the next deal first).
        self.pending: list[int] = []

    def add(self, deals: int) -> None:
        """Open a Radl over the next ``deals`` deals."""
        if deals <= 0:
            raise ValueError("a Radl covers at least one deal")
        self.pending.append(deals)

    def factor(self) -> int:
        """What the next deal counts (1 without a Radl)."""
        if not self.pending:
            return 1
        factor: int = self.factor_each ** (len(self.pending) if self.stack else 1)
        return factor

    def next_deal(self) -> None:
        """A deal was written: every open Radl covers one deal fewer."""
        self.pending = [left - 1 for left in self.pending if left > 1]

    def to_json(self) -> JSON:
        """``{"factor": next deal's factor, "pending": [deals left per Radl]}``."""
        return {"factor": self.factor(), "pending": list(self.pending)}


def placings_of(totals: Mapping[str, int], *, higher_is_better: bool) -> dict[str, int]:
    """Placing per player (1 = best); equal totals share the better placing."""
    ordered = sorted(totals.values(), reverse=higher_is_better)
    return {name: ordered.index(value) + 1 for name, value in totals.items()}


class Match(ABC, Generic[DealT]):
    """A match of one game: its deals' setup, the sheet, the pots and the settlement
    (``DealT``: the game's deal class)."""

    #: The game's name (as in the registry).
    game: ClassVar[str]
    #: ``"points"`` (totals add up from 0) or ``"counters"`` (count down from a start).
    kind: ClassVar[str]
    #: Which end of the totals wins: ``"higher"`` or ``"lower"``.
    better: ClassVar[str]
    #: What the match reads from its config besides the common keys.
    match_options: ClassVar[tuple[Option, ...]] = ()

    players: tuple[str, ...]
    #: The game's rules value (it creates the deals).
    rules: Rules[DealT]

    #: The ledger of points and money, written deal by deal (:mod:`server.engine.ledger`).
    ledger: Ledger

    #: The constructor's name for the stored ``rounds`` (Doppen counts deals).
    rounds_param: ClassVar[str] = "rounds"

    #: The sheet's rows, one per recorded deal (each game's own row type); never changed
    #: once written.
    rows: list[Any]

    #: Attributes that :meth:`record` only appends to and whose items never change once in
    #: (the sheet's rows, and their JSON built by :meth:`sheet_rows`): a copy of the match
    #: shares the items.
    append_only: ClassVar[tuple[str, ...]] = ("rows", "_rows_json")
    #: Attributes a copy shares with the original because nothing changes them after the
    #: match is set up (the rules value, the players).
    shared_by_copies: ClassVar[tuple[str, ...]] = ("rules", "players")

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A copy that can record deals without changing this match, at a cost that does
        not grow with the match: the runtime works out every deal's end on a copy (and
        keeps it only once it is stored). The items of :attr:`append_only` lists and the
        written deals of the ledger (:meth:`Ledger.__deepcopy__`) are shared, everything
        else (counters, pots, Radl, obligations: a few small values) is copied.

        >>> from server.engine.registry import new_match
        >>> match = new_match("dreierles", ["A", "B", "C"], {"rounds": 1,
        ...     "first_dealer": 0, "stake_cents": 10})
        >>> twin = copy.deepcopy(match)
        >>> twin.rows is match.rows, twin.ledger is match.ledger, twin.rules is match.rules
        (False, False, True)
        """
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        state = twin.__dict__
        for name, value in vars(self).items():
            if name in self.shared_by_copies:
                state[name] = value
            elif name in self.append_only:
                state[name] = list(value)
            else:
                state[name] = copy.deepcopy(value, memo)
        return twin

    @classmethod
    def from_config(cls, players: Sequence[str], config: Mapping[str, Any]) -> Self:
        """The match from a stored config: ``rounds``, ``first_dealer``, ``stake_cents``,
        ``options`` and the game's :attr:`match_options` (missing ones: their defaults),
        passed to the constructor as keyword arguments named like them (``rounds`` as
        :attr:`rounds_param`). A game whose constructor reads them otherwise overrides this."""
        make: Any = cls  # the constructor's keywords are the game's own
        return make(  # type: ignore[no-any-return]
            players,
            **{cls.rounds_param: int(config["rounds"])},
            first_dealer=int(config["first_dealer"]),
            stake_cents=int(config["stake_cents"]),
            options=config.get("options"),
            **cls.read_match_options(config),
        )

    @classmethod
    def read_match_options(cls, config: Mapping[str, Any]) -> dict[str, OptionValue]:
        """The game's match options from ``config``, defaults filled in, each checked."""
        return {o.name: o.check(config.get(o.name, o.default)) for o in cls.match_options}

    def _set_up(
        self,
        rules: Rules[DealT],
        players: Sequence[str],
        rounds: int,
        first_dealer: int,
        stake_cents: int,
        options: Mapping[str, object] | None,
        *,
        sizes: tuple[int, ...] = (3, 4),
        unit: tuple[str, str] = ("rounds", "Runden"),
    ) -> None:
        """Check and keep what every match has: ``players`` (as many as ``sizes`` allows,
        no name twice), ``rounds`` ≥ 1 (``unit``: what they count, English and German), a
        seated ``first_dealer``, ``stake_cents`` ≥ 0 and the deals' house-rule ``options``.
        Raises ``bad_players`` or ``bad_match``."""
        self.rules = rules
        if len(players) not in sizes or len(set(players)) != len(players):
            words = {3: ("three", "drei"), 4: ("four", "vier")}
            en = " or ".join(words[n][0] for n in sizes)
            de = " oder ".join(words[n][1] for n in sizes)
            raise MalformedError(
                "bad_players",
                f"{rules.title} is played by {en} people",
                f"{rules.title} spielen {de} Personen",
            )
        if rounds < 1 or not 0 <= first_dealer < len(players) or stake_cents < 0:
            raise bad_config(
                f"{unit[0]} ≥ 1, a seated first dealer and a stake ≥ 0",
                f"{unit[1]} ≥ 1, ein Geber am Tisch und ein Einsatz ≥ 0",
            )
        self.players = tuple(players)
        self.first_dealer = first_dealer
        self.stake_cents = stake_cents
        self.options = rules.resolve_options(options)
        self.ledger = Ledger(self.players)

    @property
    @abstractmethod
    def finished(self) -> bool:
        """Whether the match is over."""

    @abstractmethod
    def next_setup(self) -> DealSetup:
        """Dealer, seats and options of the next deal; raise when the match is over."""

    def forced_move(self, deal: DealT) -> Move | None:
        """The move the table plays by itself for the seat to move of ``deal`` (the
        match's current deal), marked like a move of the turn timer: the deal's
        :meth:`~server.engine.base.Deal.forced_move` where the match's options let the
        table play it. By default the table never plays for a player."""
        return None

    def start_deal(self, dealt: Dealt) -> DealT:
        """Create the next deal from the dealt cards, as :meth:`next_setup` sets it up."""
        setup = self.next_setup()
        return self.rules.new_deal(dealt, setup.options, setup.seats, setup.dealer)

    def round_the_table(
        self,
        number: int,
        first_dealer: int,
        options: Mapping[str, OptionValue],
        note: str | None = None,
        *,
        factor: int = 1,
    ) -> DealSetup:
        """Deal ``number`` (0-based) of a match in which the deal passes on by one seat
        after every deal, from ``first_dealer`` (an index into :attr:`players`): the game's
        active seats (``rules.seats``) are taken by the people after the dealer, in that
        order; with more people than seats the dealer sits out (and with as many, the
        dealer plays last). Raise ``match_finished`` when the match is over.

        >>> from types import SimpleNamespace
        >>> three = SimpleNamespace(seats=3)
        >>> four = SimpleNamespace(players=("A", "B", "C", "D"), finished=False, rules=three)
        >>> setup = Match.round_the_table(four, 1, 3, {})  # type: ignore[arg-type]
        >>> setup.number, setup.dealer, setup.seats, setup.sitting_out
        (2, 'A', ('B', 'C', 'D'), 'A')
        >>> four.rules = SimpleNamespace(seats=4)  # a four-handed game: nobody sits out
        >>> setup = Match.round_the_table(four, 1, 3, {})  # type: ignore[arg-type]
        >>> setup.dealer, setup.seats, setup.sitting_out
        ('A', ('B', 'C', 'D', 'A'), None)
        """
        if self.finished:
            raise match_over()
        n = len(self.players)
        dealer = (first_dealer + number) % n
        active = min(self.rules.seats, n)
        seats = tuple(self.players[(dealer + k) % n] for k in range(1, active + 1))
        return DealSetup(
            number + 1,
            self.players[dealer],
            seats,
            self.players[dealer] if n > len(seats) else None,
            dict(options),
            note,
            factor=factor,
        )

    @abstractmethod
    def record(self, deal: Any) -> Any:
        """Write a finished deal (the one :meth:`next_setup` set up) on the sheet."""

    # ------------------------------------------------------------------ the ledger

    def write_ledger(
        self,
        setup: DealSetup,
        points: Mapping[str, int],
        cents: Mapping[str, int],
        totals: Mapping[str, int],
        moves: Sequence[PotMove] = (),
        *,
        reasons: Mapping[str, Sequence[JSON]] | None = None,
        deal_reasons: Sequence[JSON] = (),
        closing: Sequence[PotMove] = (),
    ) -> DealLedger:
        """Write the deal ``setup`` set up into the ledger (:meth:`Ledger.write`): each
        person's sheet points, money and pot movements, the sheet's totals after it; the
        last deal also the movements that close the pots (``closing``)."""
        return self.ledger.write(
            setup.number,
            points,
            cents,
            moves,
            totals,
            reasons=reasons,
            deal_reasons=deal_reasons,
            factor=setup.factor,
            sitting_out=setup.sitting_out,
            closing=closing,
        )

    def last_ledger(self) -> DealLedger:
        """The ledger of the deal recorded last."""
        return self.ledger.deals[-1]

    def pots_of_last_deal(self) -> list[PotMove]:
        """What the deal recorded last moved into or out of the pots (from its ledger)."""
        return self.last_ledger().moves() if self.ledger.deals else []

    def pots(self) -> dict[str, dict[str, int]]:
        """Each pot's contents per player so far (empty for a game without pots)."""
        return {pot: dict(by) for pot, by in self.ledger.pot_shares.items()}

    def closing_moves(self) -> list[PotMove]:
        """What the pots pay out (or take in) if the match ends now, before its last deal
        (the players agreed to stop): a shared pot is shared, a Depot is paid. None by
        default; the last deal writes these moves with itself."""
        return []

    @abstractmethod
    def standing(self) -> dict[str, int]:
        """Each player's current total (points or counter)."""

    def placings(self) -> dict[str, int]:
        """Placing per player by :meth:`standing` (1 = best; ties share)."""
        return placings_of(self.standing(), higher_is_better=self.better == "higher")

    def balances_cents(self) -> dict[str, int]:
        """Each person's money if the match ended now: the ledger's running money (what
        the deals moved between the players, minus what went into pots, plus what came
        out) with the pots closed (:meth:`closing_moves`). At the end: the ledger's."""
        money = dict(self.ledger.money)
        for move in self.closing_now():
            money[move.player] -= move.amount
        return money

    def closing_now(self) -> list[PotMove]:
        """The movements that would close the pots now: none once the match is over (its
        last deal closed them) or before its first deal is written (nothing was played)."""
        return [] if self.finished or not self.ledger.deals else self.closing_moves()

    def sheet_totals(self) -> dict[str, int]:
        """The sheet's totals now (by default :meth:`standing`)."""
        return self.standing()

    def final_settlement(self, *, ended_early: bool = False) -> JSON:
        """The settlement of the match as it stands (:meth:`Ledger.settlement`); before
        its natural end the pots are closed with :meth:`closing_moves`."""
        closing = self.closing_now()
        return self.ledger.settlement(
            closing, self.sheet_totals(), self.placings(),
            ended_early=ended_early and not self.finished,
        )  # fmt: skip

    def settlement(self) -> list[Payment]:
        """Who pays whom (in cents) if the match ended now."""
        return [Payment(p["payer"], p["payee"], p["cents"])
                for p in self.final_settlement()["payments"]]  # fmt: skip

    def sheet_rows(self, build: Callable[[Any], JSON]) -> list[JSON]:
        """The sheet's rows as JSON (for :meth:`to_json`): ``build`` makes one from a row
        of :attr:`rows`, and each gets the pot balances after its deal from the ledger
        (``pot_balances``; the whole deal ledger travels on its own, :meth:`last_ledger`,
        and in the archive). A row never changes once written, so each is built once: the
        sheet costs the same at deal 50 as at deal 1 but for the list. The rows returned
        are shared with later calls: not to be changed."""
        built: list[JSON] = self.__dict__.setdefault("_rows_json", [])
        deals = self.ledger.deals
        for index in range(len(built), len(self.rows)):
            row = build(self.rows[index])
            row["pot_balances"] = dict(deals[index].pots)
            built.append(row)
        return list(built)

    def with_ledger(self, sheet: JSON) -> JSON:
        """``sheet`` (a game's :meth:`to_json`, its rows from :meth:`sheet_rows`) with the
        ledger's figures: the money (``balances_cents``), the placings, the pots' balances
        now (``pot_balances``) and the settlement (``payments``; ``settlement`` once the
        match is over). Rows and ledger deals are one to one."""
        if len(sheet["rows"]) != len(self.ledger.deals):
            raise ValueError("the sheet's rows and the ledger's deals are not one to one")
        settlement = self.final_settlement()
        sheet["balances_cents"] = self.balances_cents()
        sheet["money_cents"] = dict(self.ledger.money)
        sheet["placings"] = self.placings()
        sheet["pot_balances"] = dict(self.ledger.pot_balances)
        sheet["payments"] = settlement["payments"]
        sheet["settlement"] = settlement if self.finished else None
        return sheet

    def ledger_json(self) -> list[JSON]:
        """Every deal's ledger so far (``docs/api.md``, "The ledger")."""
        return [deal.to_json() for deal in self.ledger.deals]

    @abstractmethod
    def to_json(self) -> JSON:
        """The sheet (see the module text and ``docs/api.md``)."""


def stake_reasons(
    points: Mapping[str, int],
    stake_cents: int,
    *,
    raw: Mapping[str, int] | None = None,
    factor: int = 1,
    what: str = "radl",
) -> dict[str, list[JSON]]:
    """Each person's reasons for points paid at the stake: the deal's own points times a
    ``factor`` (a Radl: ``what``) when it is not 1, then the points times the stake.

    >>> for line in stake_reasons({"A": 8, "B": -8}, 10, raw={"A": 4, "B": -4}, factor=2)["A"]:
    ...     print(line)
    {'code': 'factor', 'what': 'radl', 'points': 4, 'factor': 2, 'result': 8}
    {'code': 'stake', 'points': 8, 'stake_cents': 10, 'cents': 80}
    """
    reasons: dict[str, list[JSON]] = {}
    for name, pts in points.items():
        lines: list[JSON] = []
        if factor != 1 and raw is not None and raw.get(name):
            lines.append({"code": "factor", "what": what, "points": raw[name],
                          "factor": factor, "result": pts})  # fmt: skip
        if pts and stake_cents:
            lines.append({"code": "stake", "points": pts, "stake_cents": stake_cents,
                          "cents": pts * stake_cents})  # fmt: skip
        reasons[name] = lines
    return reasons


def match_over() -> IllegalActionError:
    """The refusal of a deal after the match's last one."""
    return IllegalActionError("match_finished", "the match is over", "die Partie ist aus")


def bad_config(message: str, message_de: str) -> MalformedError:
    """The error for a match config the game cannot play."""
    return MalformedError("bad_match", message, message_de)
