"""Card sets as int bitmasks: bit ``i`` set means the card with index ``i`` is in the set.

These helpers are the only place that knows how to walk a mask; everything else in the
engine combines masks with ``&``, ``|`` and ``~``.

>>> cards_of(0b10110)
[1, 2, 4]
>>> mask_of([1, 2, 4]) == 0b10110
True
>>> nth_card(0b10110, 2)
4
"""

from __future__ import annotations

from collections.abc import Iterable

# For every 8-bit value, the bit positions set in it. Walking a mask a byte at a time
# with this table is several times faster than testing bit by bit in CPython.
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(8) if (b >> i) & 1) for b in range(256)
)


def cards_of(mask: int) -> list[int]:
    """Return the indices of the cards in ``mask``, lowest first."""
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out.extend(base + i for i in _BYTE_BITS[byte])
        mask >>= 8
        base += 8
    return out


def mask_of(cards: Iterable[int]) -> int:
    """Return the mask holding exactly ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def lowest_card(mask: int) -> int:
    """Return the lowest card index in a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def nth_card(mask: int, n: int) -> int:
    """Return the ``n``-th lowest card (0-based) of ``mask``; ``n`` must be < popcount."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def count(mask: int) -> int:
    """Return the number of cards in ``mask``."""
    return mask.bit_count()
