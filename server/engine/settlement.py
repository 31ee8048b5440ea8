"""Turning a match's final totals into who pays whom.

>>> settle_debts({"Anna": 90, "Bernd": -30, "Catrin": -60})
[Payment(payer='Catrin', payee='Anna', cents=60), Payment(payer='Bernd', payee='Anna', cents=30)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
