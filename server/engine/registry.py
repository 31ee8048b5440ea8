"""The game registry: every game Stammtisch knows, by its canonical name, and its description.

The registry is the single place where the server, the command-line tool and the web
client learn which games exist and how they look from outside (:class:`GameInfo`,
:func:`describe`): the pack, the seating direction, the seat labels, the phases, the
action groups, the rounds a room may play, the sheet's layout, the pots its match moves,
the options with their catalogue keys. The runtime, the store, the API and the core
JavaScript read these fields and never a game's name.

A game whose rules module is not yet written is listed with ``implemented=False`` (the
start page shows it as "coming"); its description holds provisional values taken from
its rules text in ``shared/rules``. For a playable game :func:`describe` reads the
phases and the options from its rules value, so the description cannot drift from it.

:func:`new_match` is the runtime's only way to a game's match (Partie, evening).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from server.engine.base import JSON, Option, Rules
from server.engine.errors import MalformedError

if TYPE_CHECKING:
    from server.engine.match import Match

TAROCK_SEATS = ("seat.vorhand", "seat.mittelhand", "seat.hinterhand")


@dataclass(frozen=True, slots=True)
class RoundsInfo:
    """How long a room of the game plays: ``unit`` (``"rounds"`` or ``"deals"``) between
    ``min`` and ``max``; ``open_allowed``: 0 means "until the match ends by itself"."""

    min: int
    max: int
    default: int
    open_allowed: bool = False
    unit: str = "rounds"


@dataclass(frozen=True, slots=True)
class SheetInfo:
    """The score sheet's kind (``"points"`` add up, ``"counters"`` count down from a
    start value), which end is better, and the catalogue keys of its notes."""

    kind: str = "points"
    better: str = "higher"
    notes: tuple[str, ...] = ()
    #: Whether the room's stake per point turns the sheet's points into money (a
    #: counting-down evening's money is its Depot: the stake does not apply).
    stake: bool = True
    #: The sheet's unit: ``"points"``, or ``"cents"`` when its columns are money.
    unit: str = "points"


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """One rule of the evening as the room form and the room page list it: ``key`` is the
    catalogue key of its text (``rule.<game>.<name>``), ``option`` the option (per room or
    of the match) that switches or sets it, or None where the text allows no choice."""

    key: str
    option: str | None = None


def _rules(game: str, *rules: tuple[str, str | None]) -> tuple[RuleInfo, ...]:
    return tuple(RuleInfo(f"rule.{game}.{name}", option) for name, option in rules)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the outside world may know about a game without loading its rules.

    ``players``: the numbers of people that can play; ``seats``: active seats per deal;
    ``dealer_sits_out``: with more people than seats the dealer sits out; ``direction``:
    ``"anticlockwise"`` or ``"clockwise"``; ``pack``: ``"tarock"``, ``"french48"`` or
    ``"german"``; ``seat_labels``, ``action_groups`` (verb → key), ``summary``: catalogue
    keys; ``phases``: the values of the deal's ``Phase`` enum; ``pots``: the pots the
    game's match moves; ``rules``: every rule of the evening in the order the room
    form and the room page list them (:class:`RuleInfo`); ``js_module``:
    ``web/static/js/games/<js_module>.js``.
    """

    name: str
    title: str
    players: tuple[int, ...]
    pack: str
    implemented: bool
    summary_de: str
    summary_en: str
    seats: int = 3
    dealer_sits_out: bool = True
    direction: str = "anticlockwise"
    seat_labels: tuple[str, ...] = TAROCK_SEATS
    phases: tuple[str, ...] = ()
    action_groups: tuple[tuple[str, str], ...] = ()
    rounds: RoundsInfo = field(default_factory=lambda: RoundsInfo(1, 50, 4))
    sheet: SheetInfo = field(default_factory=SheetInfo)
    pots: tuple[str, ...] = ()
    rules: tuple[RuleInfo, ...] = ()

    @property
    def js_module(self) -> str:
        """The name of the game's client module (``web/static/js/games/<name>.js``)."""
        return self.name

    @property
    def summary(self) -> str:
        """The catalogue key of the one-line summary."""
        return f"game.{self.name}.summary"


DOPPELKOPF_VERBS = ("gesund", "solo", "schmeissen", "armut", "hochzeit", "push", "take",
                   "pass", "return", "play", "knock", "announce")  # fmt: skip


def _groups(*verbs: str) -> tuple[tuple[str, str], ...]:
    return tuple((verb, f"group.{verb}") for verb in verbs)


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo(
            "doppelkopf",
            "Doppelkopf",
            (4,),
            "french48",
            True,
            "Vier Spieler, Re gegen Kontra, mit Hochzeit, Armut und Soli.",
            "Four players, Re against Kontra, with Hochzeit, Armut and solos.",
            seats=4,
            dealer_sits_out=False,
            direction="clockwise",
            seat_labels=(),
            phases=("vorbehalt", "push", "offer", "return", "play", "finished"),
            action_groups=_groups(*DOPPELKOPF_VERBS),
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
            rules=_rules(
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
            ),
        ),
        GameInfo(
            "doppen",
            "Doppen",
            (3, 4),
            "tarock",
            True,
            "Dreiertarock aus Kirchberg am Wechsel mit Pagatkasse.",
            "Three-handed Tarock from Kirchberg am Wechsel with the Pagatkasse.",
            phases=("auction", "talon", "discard", "announce", "play", "finished"),
            action_groups=(
                *_groups(  # holding: DP-A4; the face-down table signal: "cover"
                    "bid", "pass", "hold", "take", "discard", "announce", "kontra", "play", "cover"
                ),
                ("gut", "group.kontra"),
                ("re", "group.kontra"),
            ),
            rounds=RoundsInfo(3, 60, 12, unit="deals"),  # DP-A24: deals, a multiple of three
            sheet=SheetInfo("points", "higher", ("sheet.note.doppen.thrown_in",), unit="cents"),
            pots=("pagatkasse",),
            rules=_rules(
                "doppen",
                ("deals", None),
                ("dealer", None),
                ("holding", None),
                ("table_signal", "table_signal"),
                ("kasse", "kasse_base_cents"),
                ("settlement", None),
            ),
        ),
        GameInfo(
            "dreierles",
            "Dreierles",
            (3, 4),
            "tarock",
            True,
            "Badisches Tarock: Dreier, Zweier, Einer, Solo und der Räuber.",
            "Tarock from Baden: Dreier, Zweier, Einer, Solo and the Räuber.",
            phases=("auction", "discard", "declare", "knock", "play", "finished"),
            action_groups=_groups("bid", "pass", "discard", "announce", "fertig", "knock", "play"),
            rules=_rules(
                "dreierles",
                ("rounds", None),
                ("dealer", None),
                ("final_round", "final_round_special"),
                ("settlement", None),
            ),
        ),
        GameInfo(
            "tarock-zu-dritt",
            "Tarock zu dritt",
            (3,),  # the rules text: "wird zu dritt mit 54 Karten gespielt"
            "tarock",
            True,
            "Österreichisches Dreiertarock nach Hausregeln.",
            "Austrian three-handed Tarock, house rules.",
            dealer_sits_out=False,
            phases=(
                "packet",
                "auction",
                "choose",
                "talon",
                "discard",
                "announce",
                "kontra",
                "play",
                "finished",
            ),
            action_groups=_groups(
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
            ),
            sheet=SheetInfo(
                notes=("sheet.note.tarock-zu-dritt.radl", "sheet.note.tarock-zu-dritt.schlussradl")
            ),
            rules=_rules(
                "tarock-zu-dritt",
                ("rounds", None),
                ("radl", "skoty"),
                ("schlussradl", "schlussradl"),
                ("settlement", None),
            ),
        ),
        GameInfo(
            "bayerisches-tarock",
            "Bayerisches Tarock",
            (3, 4),
            "german",
            True,
            "Haferltarock mit der deutschen Karte.",
            "Bavarian Tarock with the German pack.",
            direction="clockwise",
            phases=("auction", "game", "discard", "trump", "kontra", "play", "finished"),
            action_groups=_groups(
                "bid", "pass", "hold", "game", "discard", "trump", "kontra", "play"
            ),
            pots=("haferl",),
            rules=_rules(
                "bayerisches-tarock",
                ("rounds", None),
                ("dealer", None),
                ("reizen", "reizen"),
                ("haferl", "haferl"),
                ("settlement", None),
            ),
        ),
    )
}


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
    # local imports: the games import the core
    from server.engine.games.bayerisches_tarock import BayerischesTarock
    from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch
    from server.engine.games.doppelkopf import Doppelkopf
    from server.engine.games.doppelkopf.evening import DoppelkopfEvening
    from server.engine.games.doppen import Doppen
    from server.engine.games.doppen.match import DoppenMatch
    from server.engine.games.dreierles import Dreierles
    from server.engine.games.dreierles.match import DreierlesMatch
    from server.engine.games.tarock_zu_dritt import TarockZuDritt
    from server.engine.games.tarock_zu_dritt.match import TarockZuDrittMatch

    return {
        "bayerisches-tarock": (BayerischesTarock, BayerischesTarockMatch),
        "doppelkopf": (Doppelkopf, DoppelkopfEvening),
        "doppen": (Doppen, DoppenMatch),
        "dreierles": (Dreierles, DreierlesMatch),
        "tarock-zu-dritt": (TarockZuDritt, TarockZuDrittMatch),
    }


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
    every rule of the evening with the option that sets it (or None).
    """
    info = GAMES.get(name)
    if info is None:
        raise _unknown_game(name, list(GAMES))
    phases: Sequence[str] = info.phases
    options: list[JSON] = []
    match_options: list[JSON] = []
    if info.implemented:
        rules = get_rules(name)
        enum = getattr(rules.deal_type(), "Phase", None)  # the deal's phases, once declared
        if enum is not None:
            phases = [phase.value for phase in enum]
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
    }
