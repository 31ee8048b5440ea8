"""The form of an information set (``docs/bots.md``): its name, version and keys.

Players read this module only; building an information set from a deal is the table's
side (:mod:`server.bots.info`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FORMAT = "stammtisch-bot-info"
VERSION = 1
#: The keys every ``info`` has.
KEYS = ("format", "version", "game", "options", "seats", "dealer", "seat", "hand_dealt",
        "view", "actions", "match")  # fmt: skip


def check_info(info: Mapping[str, Any]) -> None:
    """Raise ValueError unless ``info`` has the keys and form of an information set."""
    missing = [key for key in KEYS if key not in info]
    if missing:
        raise ValueError(f"info lacks {', '.join(missing)}")
    if info["format"] != FORMAT or info["version"] != VERSION:
        raise ValueError(f"info must be {FORMAT} version {VERSION}")
    if not isinstance(info["view"], dict) or not isinstance(info["actions"], list):
        raise ValueError("info's view must be an object and its actions a list")
