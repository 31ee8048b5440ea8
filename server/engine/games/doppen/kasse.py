"""The Pagatkasse as the Kirchberg sheet keeps it (``doppen.txt`` "Zahlungen und
Pagatkasse", "Aufschreibsystem"; DP-A17).

Nobody pays cash into the Kasse during the Partie: the sheet *records* what each player
owes it. The Kasse column on the right holds what everybody owes alike (the base amount
when the Kasse is filled, half the stake after an all-pass deal); the individual entries
below a player's column hold what he alone owes (a lost announced Pagat). The Kasse's
effective content is the sum of all that.

* Empty (nothing recorded): every player records the base amount.
* Everybody passes: every player records half the base amount.
* A lost announced Pagat: the announcer records the effective content (doubled per
  Kontra level: "wird die Zahlung an oder von der Kasse entsprechend verdoppelt").
* A won announced Pagat: every other player pays his recorded total (doubled per Kontra
  level) to the announcer at once; everything recorded is struck out.
* At the end of the Partie the recorded amounts are paid in and the content is split
  equally (:meth:`PagatKasse.split`).

The worked example of the rules text (Anne, Bert, Clara; base 1 Euro):

>>> kasse = PagatKasse(("Anne", "Bert", "Clara"), base=100)
>>> kasse.fill(); kasse.column
100
>>> kasse.all_pass(); kasse.column
150
>>> kasse.pagat_lost("Bert")
450
>>> kasse.individual["Bert"], kasse.content()
(450, 900)
>>> kasse.payout("Anne")
{'Bert': 600, 'Clara': 150}
>>> kasse.payout("Anne", factor=2)
{'Bert': 1200, 'Clara': 300}
>>> kasse.pagat_won("Anne")
{'Bert': 600, 'Clara': 150}
>>> kasse.content(), kasse.empty
(0, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine.base import JSON


class PagatKasse:
    """The recorded obligations of every player to the Pagatkasse (cents)."""

    __slots__ = ("base", "column", "individual", "players")

    def __init__(self, players: Sequence[str], base: int) -> None:
        self.players = tuple(players)
        self.base = base
        #: What every player owes alike (the Kasse column on the right of the sheet).
        self.column = 0
        #: What each player alone owes (the entries at the foot of his column).
        self.individual: dict[str, int] = dict.fromkeys(self.players, 0)

    @property
    def empty(self) -> bool:
        """Whether nothing is recorded."""
        return self.content() == 0

    def owed(self, player: str) -> int:
        """What ``player`` has recorded in all."""
        return self.column + self.individual[player]

    def content(self) -> int:
        """The effective content: everything recorded."""
        return sum(self.owed(p) for p in self.players)

    def fill(self) -> None:
        """Every player records the base amount (the Kasse was empty)."""
        self.column += self.base

    def all_pass(self) -> None:
        """Every player records half the base amount (everybody passed)."""
        self.column += self.base // 2

    def pagat_lost(self, player: str, factor: int = 1) -> int:
        """``player`` lost an announced Pagat: he records the effective content (times the
        Kontra factor); returns the amount."""
        amount = self.content() * factor
        self.individual[player] += amount
        return amount

    def payout(self, player: str, factor: int = 1) -> dict[str, int]:
        """What every other player pays ``player`` for a won announced Pagat."""
        return {p: self.owed(p) * factor for p in self.players if p != player}

    def pagat_won(self, player: str, factor: int = 1) -> dict[str, int]:
        """``player`` won an announced Pagat: the payments (see :meth:`payout`); then
        everything recorded is struck out."""
        payments = self.payout(player, factor)
        self.clear()
        return payments

    def clear(self) -> None:
        """Strike out everything recorded."""
        self.column = 0
        self.individual = dict.fromkeys(self.players, 0)

    def split(self) -> dict[str, int]:
        """The end of the Partie: each player's net from paying in what he recorded and
        taking an equal share of the content (cents; a remainder goes one cent each to
        the first players in seating order, so the nets sum to zero).

        >>> kasse = PagatKasse(("A", "B", "C"), base=100)
        >>> kasse.fill(); _ = kasse.pagat_lost("B"); kasse.split()
        {'A': 100, 'B': -200, 'C': 100}
        >>> kasse = PagatKasse(("A", "B", "C"), base=100)
        >>> kasse.fill(); kasse.individual["C"] = 100; kasse.split()
        {'A': 34, 'B': 33, 'C': -67}
        """
        share, rest = divmod(self.content(), len(self.players))
        return {
            p: share + (1 if i < rest else 0) - self.owed(p) for i, p in enumerate(self.players)
        }

    def to_json(self) -> JSON:
        """The Kasse as the sheet shows it."""
        return {
            "base_cents": self.base,
            "column_cents": self.column,
            "individual_cents": dict(self.individual),
            "content_cents": self.content(),
        }
