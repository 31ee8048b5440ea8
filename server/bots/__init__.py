"""Computer players: one entry point, :func:`choose`, from a seat's information set.

``info`` is plain JSON, what the table sends that seat (``docs/bots.md``,
:mod:`server.bots.info`); a player never receives the deal itself. ``level`` is one of
:data:`server.bots.players.LEVELS` (``random``, ``einsteiger``, ``stark``); the same ``info``,
``level`` and ``seed`` always give the same action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server.bots.infoformat import check_info
from server.bots.players import LEVELS

__all__ = ["LEVELS", "choose"]


def choose(info: Mapping[str, Any], level: str, seed: int) -> str:
    """The action text the computer player of ``level`` makes in ``info``."""
    check_info(info)
    player = LEVELS.get(level)
    if player is None:
        known = ", ".join(sorted(LEVELS))
        raise ValueError(f"unknown level {level!r} (known: {known})")
    return player(info, random.Random(seed))
