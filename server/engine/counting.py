"""Card counting: Augen for the French/German packs, the Tarock count in groups of three.

Tarock cards are counted in groups ("Lagen") of three, two points off per group. What
happens with one or two cards left over is a house rule; both readings of
``shared/rules/DECISIONS.md`` are here, and neither depends on how the cards are grouped:

* **exact thirds** (Austrian "Blatt"): ``3·S − 2·n`` thirds of a point for ``n`` cards with
  raw sum ``S``; the whole pack is 210 thirds = 70 points.
* **whole points** (Doppen): ``S − 2·⌊n/3⌋ − (1 if n mod 3 else 0)``; any split of the whole
  pack into two piles still totals 70.

>>> from server.engine.cards import TAROCK
>>> counter = PointCounter(TAROCK)
>>> pile = TAROCK.mask("HK HD HC T5")
>>> counter.raw(pile), counter.whole(pile), counter.thirds(pile)
(13, 10, 31)
>>> counter.whole(TAROCK.full), counter.thirds(TAROCK.full)
(70, 210)
>>> format_thirds(107)
'35⅔'
"""

from __future__ import annotations

from server.engine.cards import Pack


class PointCounter:
    """Fast card-point sums for one pack: one mask per bit of the point values (the cards
    whose points have that bit set), so a sum takes a popcount per bit, not per value (3
    for the Tarock pack's 1 to 5 points, 4 for the Augen 0 to 11)."""

    __slots__ = ("_planes",)

    def __init__(self, pack: Pack) -> None:
        planes: dict[int, int] = {}
        for card in pack.cards:
            for bit in range(card.points.bit_length()):
                if (card.points >> bit) & 1:
                    planes[1 << bit] = planes.get(1 << bit, 0) | (1 << card.index)
        self._planes = tuple(sorted(planes.items()))

    def raw(self, mask: int) -> int:
        """Return the plain sum of card points (Augen) in ``mask``."""
        total = 0
        for value, plane in self._planes:  # a loop, not a generator: this runs for every pile
            total += value * (mask & plane).bit_count()
        return total

    def whole(self, mask: int) -> int:
        """Return the Tarock count in whole points (Doppen method)."""
        n = mask.bit_count()
        return self.raw(mask) - 2 * (n // 3) - (1 if n % 3 else 0)

    def thirds(self, mask: int) -> int:
        """Return the exact Tarock count in thirds of a point."""
        return 3 * self.raw(mask) - 2 * mask.bit_count()


def format_thirds(thirds: int) -> str:
    """Write a count in thirds the way players say it: ``35⅔``, ``34⅓``, ``36``."""
    whole, rest = divmod(thirds, 3)
    return f"{whole}{['', '⅓', '⅔'][rest]}"
