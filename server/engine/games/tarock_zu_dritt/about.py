"""How Tarock zu dritt describes itself to the outside world (found by the registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine.gameinfo import GameInfo, SheetInfo, rule_list, verb_groups

if TYPE_CHECKING:
    from server.engine.base import Rules
    from server.engine.match import Match


def _load() -> tuple[type[Rules[Any]], type[Match[Any]]]:
    from server.engine.games.tarock_zu_dritt.deal import TarockZuDritt
    from server.engine.games.tarock_zu_dritt.match import TarockZuDrittMatch

    return TarockZuDritt, TarockZuDrittMatch


GAME = GameInfo(
    "tarock-zu-dritt",
    "Tarock zu dritt",
    (3,),  # the rules text: "wird zu dritt mit 54 Karten gespielt"
    "tarock",
    "Österreichisches Dreiertarock nach Hausregeln.",
    "Austrian three-handed Tarock, house rules.",
    40,
    load=_load,
    dealer_sits_out=False,
    action_groups=verb_groups(
        "packet",
        "vorhand",
        "bid",
        "bei",
        "pass",
        "take",
        "discard",
        "announce",
        "liege",
        "gut",
        "kontra",
        "rekontra",
        "subkontra",
        "play",
        "takeback",
    ),
    sheet=SheetInfo(
        notes=("sheet.note.tarock-zu-dritt.radl", "sheet.note.tarock-zu-dritt.schlussradl")
    ),
    rules=rule_list(
        "tarock-zu-dritt",
        ("rounds", None),
        ("radl", "skoty"),
        ("schlussradl", "schlussradl"),
        ("settlement", None),
        ("take_back", "take_back"),
    ),
)
