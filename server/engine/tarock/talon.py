"""Talon choices as data: which cards of the talon a declarer may take.

The talon is an ordered tuple of cards (top first, as dealt). A :class:`TalonRule` says
how many cards the declarer takes and how he may choose them:

* ``"top"`` — the top ``size`` cards, no choice (Dreierles, DL-A3);
* ``"groups"`` — one of the consecutive groups of ``size``: the upper or lower half
  (size 3), one of three pairs (size 2) (Doppen DP-A2, Tarock zu dritt TZ-A4);
* ``"any"`` — any ``size`` cards (the Einer's single card; TZ-A4's "any 2" option);
* ``"hidden"`` — the whole talon, unseen (Sechserdreier, TZ-A5);
* ``"none"`` — nothing (Solo games).

:meth:`TalonRule.choices` lists the masks the declarer may choose from; the rest of the
talon (:meth:`TalonRule.rest`) goes to the opponents as the game says.

>>> talon = (0, 1, 2, 3, 4, 5)
>>> TalonRule("groups", 3).choices(talon)
[7, 56]
>>> TalonRule("groups", 2).choices(talon)
[3, 12, 48]
>>> TalonRule("top", 2).choices(talon), TalonRule("none").choices(talon)
([3], [0])
>>> len(TalonRule("any", 1).choices(talon)), TalonRule("hidden").choices(talon)
(6, [63])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

KINDS = ("top", "groups", "any", "hidden", "none")


def mask_of(cards: Sequence[int]) -> int:
    """The mask of ``cards``.

    >>> mask_of((0, 3))
    9
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


@dataclass(frozen=True, slots=True)
class TalonRule:
    """How a declarer takes from the talon (see the module text)."""

    kind: str
    size: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown talon rule {self.kind!r}")
        if self.kind in ("top", "groups", "any") and self.size <= 0:
            raise ValueError(f"a {self.kind!r} talon rule needs a size")

    def choices(self, talon: Sequence[int]) -> list[int]:
        """The masks the declarer may take, in talon order (one mask when there is no
        choice; ``[0]`` for ``"none"``)."""
        kind, size = self.kind, self.size
        if kind == "none":
            return [0]
        if kind == "hidden":
            return [mask_of(talon)]
        if kind == "top":
            return [mask_of(talon[:size])]
        if kind == "groups":
            if len(talon) % size:
                raise ValueError("the talon does not split into groups of this size")
            return [mask_of(talon[i : i + size]) for i in range(0, len(talon), size)]
        return [mask_of(group) for group in combinations(talon, size)]

    def takes(self) -> int:
        """How many cards the declarer takes (the whole talon for ``"hidden"``: -1).

        >>> TalonRule("groups", 3).takes(), TalonRule("hidden").takes()
        (3, -1)
        """
        if self.kind == "hidden":
            return -1
        return 0 if self.kind == "none" else self.size

    def seen(self) -> bool:
        """Whether the talon is shown before the choice (all but ``"hidden"``).

        >>> TalonRule("groups", 2).seen(), TalonRule("hidden").seen()
        (True, False)
        """
        return self.kind != "hidden"

    @staticmethod
    def rest(talon: Sequence[int], taken: int) -> int:
        """The talon cards not taken (a mask).

        >>> TalonRule.rest((0, 1, 2, 3), 0b0101)
        10
        """
        return mask_of(talon) & ~taken
