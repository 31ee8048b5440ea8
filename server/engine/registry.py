"""The game registry: every game Stammtisch knows, by its canonical name.

The registry is the single place where the server, the command-line tool and the
web client learn which games exist. A game whose rules module is not yet written is
listed with ``implemented=False`` so that the start page can show it as "coming".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.engine.base import Rules
from server.engine.errors import MalformedError


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the outside world may know about a game without loading its rules."""

    name: str
    title: str
    players: tuple[int, ...]
    pack: str
    implemented: bool
    summary_de: str
    summary_en: str


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo(
            "doppelkopf",
            "Doppelkopf",
            (4,),
            "doppelkopf",
            True,
            "Vier Spieler, Re gegen Kontra, mit Hochzeit, Armut und Soli.",
            "Four players, Re against Kontra, with Hochzeit, Armut and solos.",
        ),
        GameInfo(
            "doppen",
            "Doppen",
            (3, 4),
            "tarock",
            False,
            "Tarock aus dem Hochschwarzwald mit Pagatkasse.",
            "Tarock from the high Black Forest with the Pagatkasse.",
        ),
        GameInfo(
            "dreierles",
            "Dreierles",
            (3, 4),
            "tarock",
            True,
            "Badisches Tarock: Dreier, Zweier, Einer, Solo und der Räuber.",
            "Tarock from Baden: Dreier, Zweier, Einer, Solo and the Räuber.",
        ),
        GameInfo(
            "tarock-zu-dritt",
            "Tarock zu dritt",
            (3, 4),
            "tarock",
            False,
            "Österreichisches Dreiertarock nach Hausregeln.",
            "Austrian three-handed Tarock, house rules.",
        ),
        GameInfo(
            "bayerisches-tarock",
            "Bayerisches Tarock",
            (3, 4),
            "german",
            False,
            "Haferltarock mit der deutschen Karte.",
            "Bavarian Tarock with the German pack.",
        ),
    )
}


def list_games() -> list[GameInfo]:
    """Return every known game, in the order the start page shows them."""
    return list(GAMES.values())


def get_rules(name: str) -> Rules[Any]:
    """Return the rules value of the game ``name``; raise :class:`MalformedError` if unknown."""
    from server.engine.games.doppelkopf import Doppelkopf  # local: games import the core
    from server.engine.games.dreierles import Dreierles

    implemented: dict[str, type[Rules[Any]]] = {"doppelkopf": Doppelkopf, "dreierles": Dreierles}
    if name not in implemented:
        known = ", ".join(sorted(implemented))
        raise MalformedError(
            "unknown_game",
            f"'{name}' is not a playable game here (playable: {known})",
            f"'{name}' ist hier kein spielbares Spiel (spielbar: {known})",
        )
    return implemented[name]()
