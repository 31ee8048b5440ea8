"""What every match (Partie, evening) shares: checking the next deal, and who pays whom.

Each game's match module (``games/<game>/match.py`` or ``evening.py``) owns its sheet.

>>> settle_debts({"Anna": 90, "Bernd": -30, "Catrin": -60})
[Payment(payer='Catrin', payee='Anna', cents=60), Payment(payer='Bernd', payee='Anna', cents=30)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.engine.base import JSON, Deal
from server.engine.errors import IllegalActionError


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
