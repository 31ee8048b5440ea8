"""The match's ledger: for every deal one entry per person, the one truth of points and money.

A match (:class:`server.engine.match.Match`) writes its ledger as it records deals: for
each deal and each person at the table (by person, the sitting-out fourth included)

* ``points``: what the sheet writes in the person's column for the deal, every factor
  applied (the contract, the Kontra chain, a Radl, the solo factor; on a counting-down
  sheet the deal's result for the person, by which his counter falls when it is
  positive);
* ``cents``: the money that changes hands between the players for the deal;
* ``pots``: what the person puts into a pot (positive) or takes out of it (negative),
  with the pot, the amount and why;
* ``total_points`` (the sheet's total after the deal) and ``total_cents`` (the person's
  money after the deal: the ``cents`` so far, minus what went into pots, plus what came
  out of them);
* ``reasons``: how the numbers came about, as codes with parameters that the catalogues
  word (``ledger.<code>``), e.g. ``{"code": "factor", "what": "radl", "factor": 2}`` or
  ``{"code": "pot_in", "pot": "pagatkasse", "cents": 3200, "why": "pagat_lost"}``.

At every moment the money and the pots add up to nothing: ``Σ total_cents + Σ pot
balances == 0``. The match's end (the last deal, or the players' agreement to stop early)
closes the pots that are shared out and produces the final settlement
(:meth:`Ledger.settlement`): each person's points and money, what each pot held and who
got what, and who pays whom.

The store keeps exactly these entries; the table, the archive, the statistics, the replay
and the client only read them.

>>> ledger = Ledger(("Anna", "Bernd", "Carl"))
>>> moves = [PotMove("haferl", p, 100, "einsatz") for p in ("Anna", "Bernd", "Carl")]
>>> deal = ledger.write(1, {"Anna": 4, "Bernd": -2, "Carl": -2},
...                     {"Anna": 40, "Bernd": -20, "Carl": -20}, moves,
...                     {"Anna": 4, "Bernd": -2, "Carl": -2})
>>> [(e.player, e.cents, e.total_cents) for e in deal.entries]
[('Anna', 40, -60), ('Bernd', -20, -120), ('Carl', -20, -120)]
>>> deal.pots, sum(ledger.money.values()) + sum(ledger.pot_balances.values())
({'haferl': 300}, 0)
>>> deal.entries[0].reasons[-1]
{'code': 'pot_in', 'pot': 'haferl', 'cents': 100, 'why': 'einsatz'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from server.engine.base import JSON


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer at the end of a match."""

    payer: str
    payee: str
    cents: int


def settle_debts(balances: Mapping[str, int]) -> list[Payment]:
    """Return transfers that settle ``balances`` (cents, summing to zero).

    The largest debtor pays the largest creditor first, which needs at most one transfer
    fewer than there are players; ties are broken by name so the result is deterministic.

    >>> for payment in settle_debts({"Anna": 90, "Bernd": -30, "Catrin": -60}):
    ...     print(payment)
    Payment(payer='Catrin', payee='Anna', cents=60)
    Payment(payer='Bernd', payee='Anna', cents=30)
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


@dataclass(frozen=True, slots=True)
class PotMove:
    """Money a person moves into a pot (positive ``amount``, cents) or takes out of it
    (negative), with the reason as a code and its parameters (catalogue key
    ``pot.reason.<reason>``)."""

    pot: str
    player: str
    amount: int
    reason: str
    unit: str = "cents"
    params: tuple[tuple[str, int | str | bool], ...] = ()

    def to_json(self) -> JSON:
        """``{"pot", "player", "cents", "reason", ...params}``."""
        return {
            "pot": self.pot,
            "player": self.player,
            self.unit: self.amount,
            "reason": self.reason,
            **dict(self.params),
        }

    def reason_json(self) -> JSON:
        """The movement from the person's side: ``{"code": "pot_in"|"pot_out", "pot",
        "cents" (≥ 0), "why", ...params}``."""
        code = "pot_in" if self.amount > 0 else "pot_out"
        return {"code": code, "pot": self.pot, "cents": abs(self.amount), "why": self.reason,
                **dict(self.params)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Entry:
    """One person's line of one deal in the ledger (see the module text)."""

    player: str
    points: int
    cents: int
    pots: tuple[PotMove, ...]
    total_points: int
    total_cents: int
    reasons: tuple[JSON, ...] = ()
    sitting_out: bool = False

    @property
    def into_pots(self) -> int:
        """What the person put into pots in this deal, net (cents; negative: took out)."""
        return sum(m.amount for m in self.pots)

    @property
    def net_cents(self) -> int:
        """What the deal changed in the person's money: ``cents`` minus :attr:`into_pots`."""
        return self.cents - self.into_pots

    def to_json(self) -> JSON:
        """``{"player", "points", "cents", "pot_cents", "net_cents", "pots",
        "total_points", "total_cents", "reasons", "sitting_out"}``."""
        return {
            "player": self.player,
            "points": self.points,
            "cents": self.cents,
            "pot_cents": self.into_pots,
            "net_cents": self.net_cents,
            "pots": [m.to_json() for m in self.pots],
            "total_points": self.total_points,
            "total_cents": self.total_cents,
            "reasons": [dict(r) for r in self.reasons],
            "sitting_out": self.sitting_out,
        }


@dataclass(frozen=True, slots=True)
class DealLedger:
    """The ledger of one deal: an entry per person, the pots' balances after it and the
    deal-wide reasons (a Radl, the stake not applying)."""

    number: int
    entries: tuple[Entry, ...]
    pots: dict[str, int]
    reasons: tuple[JSON, ...] = ()
    factor: int = 1
    #: The deal's pot movements in the order they happened.
    moved: tuple[PotMove, ...] = ()
    #: Those of them that closed the pots at the match's end (a share, the Depot).
    closing: tuple[PotMove, ...] = ()

    def entry(self, player: str) -> Entry:
        """The entry of ``player``."""
        return next(e for e in self.entries if e.player == player)

    def moves(self) -> list[PotMove]:
        """Every pot movement of the deal, in the order they happened."""
        return list(self.moved)

    def to_json(self) -> JSON:
        """``{"number", "factor", "reasons", "pots", "entries": [Entry…]}``."""
        return {
            "number": self.number,
            "factor": self.factor,
            "reasons": [dict(r) for r in self.reasons],
            "pots": dict(self.pots),
            "entries": [e.to_json() for e in self.entries],
        }


@dataclass
class Ledger:
    """The running ledger of a match: the deals written so far, each person's money and
    each pot's balance (cents)."""

    players: tuple[str, ...]
    deals: list[DealLedger] = field(default_factory=list)
    money: dict[str, int] = field(default_factory=dict)
    pot_balances: dict[str, int] = field(default_factory=dict)
    #: What each person put into each pot, net (cents): ``{pot: {person: cents}}``.
    pot_shares: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        if not self.money:
            self.money = dict.fromkeys(self.players, 0)

    def __deepcopy__(self, memo: dict[int, object]) -> Ledger:
        """A copy whose running figures are its own; the written deals are shared, since
        a :class:`DealLedger` is never changed once written (the runtime copies the
        match at every deal's end: this keeps that copy from growing with the match)."""
        return Ledger(
            self.players,
            list(self.deals),
            dict(self.money),
            dict(self.pot_balances),
            {pot: dict(by) for pot, by in self.pot_shares.items()},
        )

    def _move(self, moves: Iterable[PotMove]) -> dict[str, list[PotMove]]:
        by_person: dict[str, list[PotMove]] = {p: [] for p in self.players}
        for move in moves:
            if move.unit != "cents" or move.player not in by_person:
                raise ValueError(f"a pot movement in cents of a player: {move}")
            if not move.amount:
                continue
            by_person[move.player].append(move)
            self.money[move.player] -= move.amount
            self.pot_balances[move.pot] = self.pot_balances.get(move.pot, 0) + move.amount
            shares = self.pot_shares.setdefault(move.pot, dict.fromkeys(self.players, 0))
            shares[move.player] += move.amount
        return by_person

    def write(
        self,
        number: int,
        points: Mapping[str, int],
        cents: Mapping[str, int],
        moves: Iterable[PotMove],
        totals: Mapping[str, int],
        *,
        reasons: Mapping[str, Sequence[JSON]] | None = None,
        deal_reasons: Sequence[JSON] = (),
        factor: int = 1,
        sitting_out: str | None = None,
        closing: Sequence[PotMove] = (),
    ) -> DealLedger:
        """Write deal ``number``: each person's sheet ``points`` and money ``cents`` (a
        person not named: 0), the pot ``moves``, the sheet's ``totals`` after it, the
        reasons per person and for the whole deal, and the movements that close the pots
        when the deal ends the match (``closing``, after ``moves``). The money between
        players must add up to nothing. Returns the deal's ledger (also appended to
        :attr:`deals`)."""
        unknown = (set(points) | set(cents)) - set(self.players)
        if unknown:
            raise ValueError(f"not at this table: {sorted(unknown)}")
        if sum(cents.values()):
            raise ValueError(f"the money of deal {number} does not add up: {dict(cents)}")
        for name in self.players:
            self.money[name] += cents.get(name, 0)
        closing = [m for m in closing if m.amount]
        moves = [m for m in moves if m.amount] + closing
        by_person = self._move(moves)
        entries = tuple(
            Entry(
                player=name,
                points=points.get(name, 0),
                cents=cents.get(name, 0),
                pots=tuple(by_person[name]),
                total_points=totals[name],
                total_cents=self.money[name],
                reasons=tuple(reasons.get(name, ()) if reasons else ())
                + tuple(m.reason_json() for m in by_person[name]),
                sitting_out=name == sitting_out,
            )
            for name in self.players
        )
        deal = DealLedger(number, entries, dict(self.pot_balances), tuple(deal_reasons), factor,
                          tuple(moves), tuple(closing))  # fmt: skip
        self.deals.append(deal)
        return deal

    def settlement(
        self,
        closing: Iterable[PotMove],
        totals: Mapping[str, int],
        placings: Mapping[str, int],
        *,
        ended_early: bool = False,
    ) -> JSON:
        """The final settlement once the match is over: ``closing`` are the movements that
        close the pots now (shared out, paid in; when the last deal closed them they were
        written with it, and the settlement lists those). Returns ``{"totals",
        "money_cents", "placings", "pots": {pot: {"held", "shares"}}, "closing":
        [movements], "payments": [{payer, payee, cents}],
        "ended_early"}``: every pot's ``held`` is what stays in it (a Depot), ``shares``
        what each person put in, net; ``payments`` settle what the players owe each other
        (what went into a pot that keeps it is paid to the pot, not to a player)."""
        money = dict(self.money)
        balances = dict(self.pot_balances)
        shares = {pot: dict(by) for pot, by in self.pot_shares.items()}
        closing_moves = list(closing)
        for move in closing_moves:
            money[move.player] -= move.amount
            balances[move.pot] = balances.get(move.pot, 0) + move.amount
            shares.setdefault(move.pot, dict.fromkeys(self.players, 0))[move.player] += move.amount
        between = dict(money)
        for pot, held in balances.items():
            if held:  # what is kept in the pot is paid to the pot, not between players
                for name, cents in shares[pot].items():
                    between[name] += cents
        payments = settle_debts(between)
        listed = closing_moves or (list(self.deals[-1].closing) if self.deals else [])
        return {
            "totals": dict(totals),
            "money_cents": money,
            "placings": dict(placings),
            "pots": {
                pot: {"held": balances.get(pot, 0), "shares": shares[pot]} for pot in sorted(shares)
            },
            "closing": [m.to_json() for m in listed if m.amount],
            "payments": [{"payer": p.payer, "payee": p.payee, "cents": p.cents} for p in payments],
            "ended_early": ended_early,
        }


def scaled(points: Mapping[str, int], cents_per_point: int) -> dict[str, int]:
    """Points turned into money at ``cents_per_point``.

    >>> scaled({"A": 3, "B": -3}, 10)
    {'A': 30, 'B': -30}
    """
    return {name: pts * cents_per_point for name, pts in points.items()}
