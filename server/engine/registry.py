"""The game registry: every game Stammtisch knows, by its canonical name, and its description.

The registry is the single place where the server, the command-line tool and the web
client learn which games exist and how they look from outside (:class:`GameInfo`,
:func:`describe`): the pack, the seating direction, the seat labels, the phases, the
action groups, the rounds a room may play, the sheet's layout, the pots its match moves,
the options with their catalogue keys. The runtime, the store, the API and the core
JavaScript read these fields and never a game's name.

It holds no game itself: each game describes itself in its own package
(``games/<game>/about.py``, a module-level ``GAME``), and the registry finds them by
scanning ``server/engine/games/``. A game whose rules are not written yet has no
``load`` (the start page shows it as "coming"). :func:`describe` reads a playable game's
phases from its deal's ``Phase`` enum and its options from its rules value, so the
description cannot drift from them.

:func:`new_match` is the runtime's only way to a game's match (Partie, evening).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from server.engine.base import JSON, Option, Rules
from server.engine.errors import MalformedError
from server.engine.gameinfo import GameInfo, RoundsInfo, RuleInfo, SheetInfo

__all__ = [
    "GAMES",
    "GameInfo",
    "RoundsInfo",
    "RuleInfo",
    "SheetInfo",
    "describe",
    "extra_game",
    "get_rules",
    "list_games",
    "match_type",
    "new_match",
    "playable",
]

if TYPE_CHECKING:
    from server.engine.match import Match


class _Games(Mapping[str, GameInfo]):
    """Every game whose package under ``server/engine/games/`` declares its ``GAME`` in an
    ``about`` module, by name, in the start page's order; found on first use (the games'
    packages import the core, which may import this module)."""

    def __init__(self) -> None:
        self._found: dict[str, GameInfo] | None = None

    def _games(self) -> dict[str, GameInfo]:
        if self._found is None:
            found = [_about(name) for name in _packages()]
            described = sorted((g for g in found if g is not None), key=lambda g: g.position)
            self._found = {game.name: game for game in described}
        return self._found

    def __getitem__(self, name: str) -> GameInfo:
        return self._games()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())


def _packages() -> list[str]:
    """The names of the packages under ``server/engine/games/``."""
    from server.engine import games

    return sorted(m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg)


def _about(package: str) -> GameInfo | None:
    """The ``GAME`` of ``games/<package>/about.py`` (None: the package describes no game)."""
    try:
        module = importlib.import_module(f"server.engine.games.{package}.about")
    except ModuleNotFoundError as exc:
        if exc.name != f"server.engine.games.{package}.about":
            raise  # the module exists but imports something missing: a bug, not "no game"
        return None
    game = getattr(module, "GAME", None)
    if not isinstance(game, GameInfo):
        raise TypeError(f"server/engine/games/{package}/about.py: GAME is not a GameInfo")
    return game


#: Every game, by its canonical name (see :class:`_Games`).
GAMES = _Games()


@contextmanager
def extra_game(game: GameInfo) -> Iterator[GameInfo]:
    """List ``game`` beside the games found while the ``with`` block runs (a test's
    throw-away game, or one whose rules are not written yet); then forget it."""
    games = GAMES._games()
    if game.name in games:
        raise ValueError(f"a game named {game.name!r} is listed already")
    games[game.name] = game
    try:
        yield game
    finally:
        del games[game.name]


def playable() -> list[str]:
    """The names of the games that can be played, in the start page's order."""
    return [name for name, game in GAMES.items() if game.implemented]


def list_games() -> list[GameInfo]:
    """Return every known game, in the order the start page shows them."""
    return list(GAMES.values())


def _unknown_game(name: str, known: Sequence[str]) -> MalformedError:
    listed = ", ".join(sorted(known))
    return MalformedError(
        "unknown_game",
        f"'{name}' is not a playable game here (playable: {listed})",
        f"'{name}' ist hier kein spielbares Spiel (spielbar: {listed})",
    )


def _implemented() -> dict[str, tuple[type[Rules[Any]], type[Match[Any]]]]:
    return {name: game.load() for name, game in GAMES.items() if game.load is not None}


def get_rules(name: str) -> Rules[Any]:
    """Return the rules value of the game ``name``; raise :class:`MalformedError` if unknown."""
    implemented = _implemented()
    if name not in implemented:
        raise _unknown_game(name, list(implemented))
    return implemented[name][0]()


def match_type(name: str) -> type[Match[Any]]:
    """The match class of the game ``name``; raise :class:`MalformedError` if unknown."""
    implemented = _implemented()
    if name not in implemented:
        raise _unknown_game(name, list(implemented))
    return implemented[name][1]


def new_match(game: str, players: Sequence[str], config: Mapping[str, Any]) -> Match[Any]:
    """The match (Partie, evening) of ``game`` from a stored config (``rounds``,
    ``first_dealer``, ``stake_cents``, ``options`` and the game's match options): the
    runtime's only entry to a game's match."""
    return match_type(game).from_config(players, config)


def _option_json(game: str, option: Option) -> JSON:
    return {
        "name": option.name,
        "default": option.default,
        "choices": list(option.choices),
        "label": f"option.{game}.{option.name}",
        "help": f"option.{game}.{option.name}.help",
        "help_de": option.help_de,
        "help_en": option.help_en,
    }


def describe(name: str) -> JSON:
    """The JSON description of the game ``name`` (see ``docs/api.md``, "Games"); raise
    :class:`MalformedError` ``unknown_game`` for a name the registry does not know.

    ``options`` are the house rules a room may set, ``match_options`` what the match
    reads from its config besides ``rounds``, ``first_dealer``, ``stake_cents``; ``rules``
    every rule of the evening with the option that sets it (or None); ``figures`` the
    game's own figures of the statistics (:class:`FigureInfo`) by key and label.
    """
    info = GAMES.get(name)
    if info is None:
        raise _unknown_game(name, list(GAMES))
    phases: Sequence[str] = ()
    options: list[JSON] = []
    match_options: list[JSON] = []
    if info.implemented:
        rules = get_rules(name)
        phases = [phase.value for phase in rules.deal_type().Phase]
        options = [_option_json(name, o) for o in rules.options if o.per_room]
        match_options = [_option_json(name, o) for o in match_type(name).match_options]
    return {
        "name": info.name,
        "title": info.title,
        "implemented": info.implemented,
        "players": list(info.players),
        "seats": info.seats,
        "dealer_sits_out": info.dealer_sits_out,
        "direction": info.direction,
        "pack": info.pack,
        "seat_labels": list(info.seat_labels),
        "phases": list(phases),
        "action_groups": dict(info.action_groups),
        "rounds": {
            "min": info.rounds.min,
            "max": info.rounds.max,
            "default": info.rounds.default,
            "open_allowed": info.rounds.open_allowed,
            "unit": info.rounds.unit,
        },
        "sheet": {
            "kind": info.sheet.kind,
            "better": info.sheet.better,
            "notes": list(info.sheet.notes),
            "stake": info.sheet.stake,
            "unit": info.sheet.unit,
        },
        "pots": list(info.pots),
        "js_module": info.js_module,
        "options": options,
        "match_options": match_options,
        "summary": info.summary,
        "rules": [{"key": rule.key, "option": rule.option} for rule in info.rules],
        "warnings": [{"key": w.key, "when": dict(w.when)} for w in info.warnings],
        "figures": [{"key": f.key, "label": f.label} for f in info.figures],
    }
