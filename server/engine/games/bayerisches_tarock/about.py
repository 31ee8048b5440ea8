"""How Bayerisches Tarock describes itself to the outside world (found by the registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine.gameinfo import GameInfo, rule_list, verb_groups

if TYPE_CHECKING:
    from server.engine.base import Rules
    from server.engine.match import Match


def _load() -> tuple[type[Rules[Any]], type[Match[Any]]]:
    from server.engine.games.bayerisches_tarock.deal import BayerischesTarock
    from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch

    return BayerischesTarock, BayerischesTarockMatch


GAME = GameInfo(
    "bayerisches-tarock",
    "Bayerisches Tarock",
    (3, 4),
    "german",
    "Haferltarock mit der deutschen Karte.",
    "Bavarian Tarock with the German pack.",
    50,
    load=_load,
    direction="clockwise",
    action_groups=verb_groups(
        "bid", "pass", "hold", "game", "discard", "trump", "kontra", "play", "takeback"
    ),
    pots=("haferl",),
    rules=rule_list(
        "bayerisches-tarock",
        ("rounds", None),
        ("dealer", None),
        ("reizen", "reizen"),
        ("haferl", "haferl"),
        ("gut_automatisch", "gut_automatisch"),
        ("settlement", None),
        ("take_back", "take_back"),
    ),
)
