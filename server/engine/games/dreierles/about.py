"""How Dreierles describes itself to the outside world (found by the registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine.gameinfo import GameInfo, rule_list, verb_groups

if TYPE_CHECKING:
    from server.engine.base import Rules
    from server.engine.match import Match


def _load() -> tuple[type[Rules[Any]], type[Match[Any]]]:
    from server.engine.games.dreierles.deal import Dreierles
    from server.engine.games.dreierles.match import DreierlesMatch

    return Dreierles, DreierlesMatch


GAME = GameInfo(
    "dreierles",
    "Dreierles",
    (3, 4),
    "tarock",
    "Badisches Tarock: Dreier, Zweier, Einer, Solo und der Räuber.",
    "Tarock from Baden: Dreier, Zweier, Einer, Solo and the Räuber.",
    30,
    load=_load,
    action_groups=verb_groups(
        "bid", "pass", "discard", "announce", "fertig", "knock", "play", "takeback"
    ),
    rules=rule_list(
        "dreierles",
        ("rounds", None),
        ("dealer", None),
        ("final_round", "final_round_special"),
        ("settlement", None),
        ("take_back", "take_back"),
    ),
)
