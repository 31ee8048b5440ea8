"""How Doppen describes itself to the outside world (found by the registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine.gameinfo import GameInfo, RoundsInfo, SheetInfo, rule_list, verb_groups

if TYPE_CHECKING:
    from server.engine.base import Rules
    from server.engine.match import Match


def _load() -> tuple[type[Rules[Any]], type[Match[Any]]]:
    from server.engine.games.doppen.deal import Doppen
    from server.engine.games.doppen.match import DoppenMatch

    return Doppen, DoppenMatch


GAME = GameInfo(
    "doppen",
    "Doppen",
    (3, 4),
    "tarock",
    "Dreiertarock aus Kirchberg am Wechsel mit Pagatkasse.",
    "Three-handed Tarock from Kirchberg am Wechsel with the Pagatkasse.",
    20,
    load=_load,
    action_groups=(
        *verb_groups(  # holding: DP-A4; the face-down table signal: "cover"
            "bid",
            "pass",
            "hold",
            "take",
            "discard",
            "announce",
            "kontra",
            "play",
            "cover",
            "takeback",
        ),
        ("gut", "group.kontra"),
        ("re", "group.kontra"),
    ),
    rounds=RoundsInfo(3, 60, 12, unit="deals"),  # DP-A24: deals, a multiple of three
    sheet=SheetInfo("points", "higher", ("sheet.note.doppen.thrown_in",), unit="cents"),
    pots=("pagatkasse",),
    rules=rule_list(
        "doppen",
        ("deals", None),
        ("dealer", None),
        ("holding", None),
        ("table_signal", "table_signal"),
        ("kasse", "kasse_base_cents"),
        ("settlement", None),
        ("take_back", "take_back"),
    ),
)
