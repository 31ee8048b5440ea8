"""A person's choices per game, kept with the account (``game_preferences``): how the hand
is sorted at the table. Guests have accounts too, so theirs are kept the same way.

A hand sort is three choices, each a fixed word (what they mean for a game's cards is the
game's: its view groups the hand, ``docs/protocol.md``):

=========== ======================================================================
``trumps``  ``left`` or ``right``: where the group of trumps goes
``order``   ``desc`` (strongest card first in every group) or ``asc``
``suits``   ``pack`` (the pack's order of the suits) or ``alternate`` (colours
            alternating, where the game's pack has two colours)
=========== ======================================================================

Without a stored row a person has the defaults (:data:`DEFAULT_HAND_SORT`). Every
function takes an :class:`AsyncSession` and leaves the transaction to the caller.
Refusals (:class:`StoreError` subclasses with a stable code):

================= ===============================================================
``unknown_game``  no game of that name (:class:`NotFoundError`)
``bad_hand_sort`` a choice missing, unknown or not a word (:class:`InvalidError`;
                  the message names the choice and its words)
================= ===============================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.engine.registry import GAMES
from server.store.errors import InvalidError, NotFoundError
from server.store.models import GamePreference

#: Every choice of a hand sort and its words, the default first.
HAND_SORT_CHOICES: dict[str, tuple[str, ...]] = {
    "trumps": ("left", "right"),
    "order": ("desc", "asc"),
    "suits": ("pack", "alternate"),
}


@dataclass(frozen=True, slots=True)
class HandSort:
    """How one person sorts the hand of one game."""

    trumps: str
    order: str
    suits: str

    def to_json(self) -> dict[str, str]:
        """The API's form: ``{"trumps": …, "order": …, "suits": …}``."""
        return {"trumps": self.trumps, "order": self.order, "suits": self.suits}


#: The order of a person who never chose: trumps left, strongest first, the pack's suits.
DEFAULT_HAND_SORT = HandSort(*(words[0] for words in HAND_SORT_CHOICES.values()))


def check_game(game: str) -> str:
    """``game`` if the registry knows it; else ``unknown_game``."""
    if game not in GAMES:
        raise NotFoundError(
            "unknown_game", f"There is no game '{game}'.", f"Es gibt kein Spiel '{game}'."
        )
    return game


def check_hand_sort(values: Mapping[str, object]) -> HandSort:
    """The hand sort of ``values`` (every choice given, nothing else); else
    ``bad_hand_sort`` naming the first choice that is wrong.

    >>> check_hand_sort({"trumps": "right", "order": "asc", "suits": "pack"})
    HandSort(trumps='right', order='asc', suits='pack')
    """
    unknown = sorted(set(values) - set(HAND_SORT_CHOICES))
    if unknown:
        raise InvalidError(
            "bad_hand_sort",
            f"A hand sort has no choice '{unknown[0]}' (only trumps, order, suits).",
            f"Eine Sortierung hat keine Wahl '{unknown[0]}' (nur trumps, order, suits).",
        )
    chosen = []
    for name, words in HAND_SORT_CHOICES.items():
        value = values.get(name)
        if not isinstance(value, str) or value not in words:
            listed = ", ".join(words)
            raise InvalidError(
                "bad_hand_sort",
                f"The hand sort's '{name}' is one of: {listed}.",
                f"Die Wahl '{name}' der Sortierung ist eine von: {listed}.",
            )
        chosen.append(value)
    return HandSort(*chosen)


async def get_hand_sort(session: AsyncSession, user_id: int, game: str) -> HandSort:
    """How ``user_id`` sorts the hand of ``game`` (the defaults if never chosen)."""
    row = await session.get(GamePreference, (user_id, check_game(game)))
    if row is None:
        return DEFAULT_HAND_SORT
    return HandSort(row.sort_trumps, row.sort_order, row.sort_suits)


async def set_hand_sort(session: AsyncSession, user_id: int, game: str, sort: HandSort) -> HandSort:
    """Keep ``sort`` as ``user_id``'s hand sort of ``game`` (flushed, not committed). Two
    devices setting it at once both succeed; the later write stays."""
    check_game(game)
    now = datetime.now(UTC)
    row = await session.get(GamePreference, (user_id, game))
    if row is None:
        try:
            async with session.begin_nested():
                session.add(
                    GamePreference(
                        user_id=user_id,
                        game=game,
                        sort_trumps=sort.trumps,
                        sort_order=sort.order,
                        sort_suits=sort.suits,
                        updated_at=now,
                    )
                )
            return sort
        except IntegrityError:  # another device inserted it meanwhile: update that row
            row = await session.get(GamePreference, (user_id, game), populate_existing=True)
            assert row is not None
    row.sort_trumps, row.sort_order, row.sort_suits = sort.trumps, sort.order, sort.suits
    row.updated_at = now
    await session.flush()
    return sort
