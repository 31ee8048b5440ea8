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

>>> settle_debts({"Anna": 90, "Bernd": -30, "Catrin": -60})
[Payment(payer='Catrin', payee='Anna', cents=60), Payment(payer='Bernd', payee='Anna', cents=30)]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self

from server.engine.base import JSON, Deal, DealT, Dealt, Option, OptionValue, Rules
from server.engine.errors import IllegalActionError, MalformedError


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
class Payment:
    """One transfer at the end of a match."""

    payer: str
    payee: str
    cents: int


@dataclass(frozen=True, slots=True)
class PotMove:
    """Money (``unit="cents"``) or points a player moves into a pot (positive ``amount``)
    or takes out of it (negative), with the reason as a code and its parameters
    (catalogue key ``pot.reason.<reason>``)."""

    pot: str
    player: str
    amount: int
    reason: str
    unit: str = "cents"
    params: tuple[tuple[str, int | str | bool], ...] = ()

    def to_json(self) -> JSON:
        """``{"pot", "player", "cents"|"points", "reason", ...params}``."""
        return {
            "pot": self.pot,
            "player": self.player,
            self.unit: self.amount,
            "reason": self.reason,
            **dict(self.params),
        }


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


def settle_debts(balances: Mapping[str, int]) -> list[Payment]:
    """Return transfers that settle ``balances`` (cents, summing to zero).

    The largest debtor pays the largest creditor first, which needs at most one transfer
    fewer than there are players; ties are broken by name so the result is deterministic.
    """
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    debtors = sorted(((-v, k) for k, v in balances.items() if v < 0), reverse=True)
    creditors = sorted(((v, k) for k, v in balances.items() if v > 0), reverse=True)
    owes = [amount for amount, _ in debtors]
    due = [amount for amount, _ in creditors]
    payments: list[Payment] = []
    i = j = 0
    while i < len(owes) and j < len(due):
        amount = min(owes[i], due[j])
        payments.append(Payment(debtors[i][1], creditors[j][1], amount))
        owes[i] -= amount
        due[j] -= amount
        if not owes[i]:
            i += 1
        if not due[j]:
            j += 1
    return payments


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

    #: The constructor's name for the stored ``rounds`` (Doppen counts deals).
    rounds_param: ClassVar[str] = "rounds"

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

    @property
    @abstractmethod
    def finished(self) -> bool:
        """Whether the match is over."""

    @abstractmethod
    def next_setup(self) -> DealSetup:
        """Dealer, seats and options of the next deal; raise when the match is over."""

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
        after every deal, from ``first_dealer`` (an index into :attr:`players`): the three
        after the dealer play, in that order; with four people the dealer sits out. Raise
        ``match_finished`` when the match is over.

        >>> from types import SimpleNamespace
        >>> four = SimpleNamespace(players=("A", "B", "C", "D"), finished=False)
        >>> setup = Match.round_the_table(four, 1, 3, {})  # type: ignore[arg-type]
        >>> setup.number, setup.dealer, setup.seats, setup.sitting_out
        (2, 'A', ('B', 'C', 'D'), 'A')
        """
        if self.finished:
            raise match_over()
        n = len(self.players)
        dealer = (first_dealer + number) % n
        seats = tuple(self.players[(dealer + k) % n] for k in range(1, 4))
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

    @classmethod
    def deal_points(cls, outcome: JSON, seats: Sequence[str], dealer: str) -> dict[str, int]:
        """Points per person of a finished deal, from its stored outcome, seats and dealer:
        what the runtime stores as the deal's score entries and the archive adds up. By
        default each seat's ``settlement``; whoever sat out is not named (nothing). A game
        in which a sitting-out dealer pays or receives too overrides this.

        >>> Match.deal_points({"settlement": [4, -2, -2]}, ("A", "B", "C"), "D")
        {'A': 4, 'B': -2, 'C': -2}
        """
        return {name: int(points) for name, points in zip(seats, outcome["settlement"],
                                                           strict=True)}  # fmt: skip

    def pots_of_last_deal(self) -> list[PotMove]:
        """What the deal recorded last moved into or out of the pots (none by default)."""
        return []

    def pots(self) -> dict[str, dict[str, int]]:
        """Each pot's contents per player so far (empty for a game without pots)."""
        return {}

    @abstractmethod
    def standing(self) -> dict[str, int]:
        """Each player's current total (points or counter)."""

    def placings(self) -> dict[str, int]:
        """Placing per player by :meth:`standing` (1 = best; ties share)."""
        return placings_of(self.standing(), higher_is_better=self.better == "higher")

    @abstractmethod
    def balances_cents(self) -> dict[str, int]:
        """Each player's balance in cents (summing to zero)."""

    def settlement(self) -> list[Payment]:
        """Who pays whom (in cents) on the current balances."""
        return settle_debts(self.balances_cents())

    @abstractmethod
    def to_json(self) -> JSON:
        """The sheet (see the module text and ``docs/api.md``)."""


def match_over() -> IllegalActionError:
    """The refusal of a deal after the match's last one."""
    return IllegalActionError("match_finished", "the match is over", "die Partie ist aus")


def bad_config(message: str, message_de: str) -> MalformedError:
    """The error for a match config the game cannot play."""
    return MalformedError("bad_match", message, message_de)
