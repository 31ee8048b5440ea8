"""How Doppelkopf describes itself to the outside world (found by the registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.engine.gameinfo import (
    FigureInfo,
    GameInfo,
    RoundsInfo,
    SheetInfo,
    WarningInfo,
    rule_list,
    verb_groups,
)
from server.engine.games.doppelkopf.figures import pflichtsoli

if TYPE_CHECKING:
    from server.engine.base import Rules
    from server.engine.match import Match

VERBS = ("gesund", "solo", "schmeissen", "armut", "hochzeit", "push", "take",
         "pass", "return", "play", "knock", "announce", "takeback")  # fmt: skip


def _load() -> tuple[type[Rules[Any]], type[Match[Any]]]:
    from server.engine.games.doppelkopf.deal import Doppelkopf
    from server.engine.games.doppelkopf.evening import DoppelkopfEvening

    return Doppelkopf, DoppelkopfEvening


GAME = GameInfo(
    "doppelkopf",
    "Doppelkopf",
    (4,),
    "french48",
    "Vier Spieler, Re gegen Kontra, mit Hochzeit, Armut und Soli.",
    "Four players, Re against Kontra, with Hochzeit, Armut and solos.",
    10,
    load=_load,
    seats=4,
    dealer_sits_out=False,
    direction="clockwise",
    seat_labels=(),
    action_groups=verb_groups(*VERBS),
    rounds=RoundsInfo(0, 200, 0, open_allowed=True, unit="deals"),
    sheet=SheetInfo(
        "counters",
        "lower",
        tuple(
            f"sheet.note.doppelkopf.{note}"
            for note in ("lustsolo", "pflichtsolo", "replay", "vorfuehrung", "kurzer")
        ),
        stake=False,
    ),
    pots=("depot",),
    rules=rule_list(
        "doppelkopf",
        ("countdown", "start_points"),
        ("solo_dealer", None),
        ("solo_replay", "solo_replay"),
        ("max_solo_replays", "max_solo_replays"),
        ("pflichtsolo", "pflichtsolo_rule"),
        ("vorfuehrung", "vorfuehrung_below"),
        ("end", None),
        ("kurzer", "kurzer_limit"),
        ("depot", "depot_cents"),
        ("take_back", "take_back"),
    ),
    # DK-A24: a lost solo is replayed at once, by default without a cap
    warnings=(
        WarningInfo(
            "warning.doppelkopf.endless_replays",
            (("solo_replay", True), ("max_solo_replays", 0)),
        ),
    ),
    # the solos a player's evening owed him (the sheet's rows mark them)
    figures=(
        FigureInfo("pflichtsoli", "archive.stats.doppelkopf.pflichtsoli", pflichtsoli, sheet=True),
    ),
)
