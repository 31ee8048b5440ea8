"""How a game describes itself to the outside world: :class:`GameInfo` and its parts.

Each game declares its description in its own package (``games/<game>/about.py``, a
module-level ``GAME``); :mod:`server.engine.registry` finds them by scanning
``server/engine/games/``. The phases are not part of the description: they are read from
the game's ``Phase`` enum, so they are never typed twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from server.engine.base import Rules
    from server.engine.match import Match

#: The seat labels of the three-handed Tarock games.
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


@dataclass(frozen=True, slots=True)
class WarningInfo:
    """A warning the room form shows while the options (per room or of the match) have
    all the values of ``when``: ``key`` is the catalogue key of its text
    (``warning.<game>.<name>``), saying what those values mean for the evening."""

    key: str
    when: tuple[tuple[str, bool | int | str], ...]


#: What one finished deal adds to a figure of the statistics, per seat of the deal: from
#: the game's summary of the deal's outcome (:meth:`Rules.summarize`) and the deal's row of
#: the match's score sheet (its JSON, ``docs/api.md``; None for a figure that reads no
#: sheet). Seats the deal adds nothing for may be left out.
FigureCount = Callable[[Mapping[str, Any], Mapping[str, Any] | None], Mapping[int, int]]


@dataclass(frozen=True, slots=True)
class FigureInfo:
    """A figure of the statistics of a circle (``GET /api/history/stats``) that the game
    counts besides the ones every game has: ``key`` names it in each player's ``extra``,
    ``label`` is the catalogue key of its name (``archive.stats.<game>.<key>``, in the
    game's own catalogue), ``count`` what a finished deal adds per seat
    (:data:`FigureCount`); ``sheet``: whether ``count`` reads the deal's row of the score
    sheet (the sheet is rebuilt from the stored actions for it)."""

    key: str
    label: str
    count: FigureCount = field(compare=False, repr=False)
    sheet: bool = False


def rule_list(game: str, *rules: tuple[str, str | None]) -> tuple[RuleInfo, ...]:
    """The rules of ``game`` from ``(name, option)`` pairs, with their catalogue keys.

    >>> rule_list("dreierles", ("rounds", None))
    (RuleInfo(key='rule.dreierles.rounds', option=None),)
    """
    return tuple(RuleInfo(f"rule.{game}.{name}", option) for name, option in rules)


def verb_groups(*verbs: str) -> tuple[tuple[str, str], ...]:
    """Action groups named after their verbs (``group.<verb>``).

    >>> verb_groups("bid", "pass")
    (('bid', 'group.bid'), ('pass', 'group.pass'))
    """
    return tuple((verb, f"group.{verb}") for verb in verbs)


#: What loads a playable game's rules class and match class (imported only when needed).
Loader = Callable[[], "tuple[type[Rules[Any]], type[Match[Any]]]"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the outside world may know about a game.

    ``players``: the numbers of people that can play; ``seats``: active seats per deal;
    ``dealer_sits_out``: with more people than seats the dealer sits out; ``direction``:
    ``"anticlockwise"`` or ``"clockwise"``; ``pack``: the name of its pack in
    :data:`server.engine.cards.PACKS`; ``seat_labels``, ``action_groups`` (verb → key),
    ``summary``: catalogue keys; ``pots``: the pots the game's match moves; ``rules``:
    every rule of the evening in the order the room form and the room page list them
    (:class:`RuleInfo`); ``warnings``: what the room form warns of for some choices of
    the options (:class:`WarningInfo`); ``figures``: the game's own figures of the
    statistics (:class:`FigureInfo`, none for most games); ``position``: where the start
    page lists it (lower first);
    ``load``: the rules and match classes of a playable game (``None``: not playable yet,
    listed as "coming"); ``js_module``: ``web/static/js/games/<js_module>.js``.
    """

    name: str
    title: str
    players: tuple[int, ...]
    pack: str
    summary_de: str
    summary_en: str
    position: int
    load: Loader | None = field(default=None, compare=False, repr=False)
    seats: int = 3
    dealer_sits_out: bool = True
    direction: str = "anticlockwise"
    seat_labels: tuple[str, ...] = TAROCK_SEATS
    action_groups: tuple[tuple[str, str], ...] = ()
    rounds: RoundsInfo = field(default_factory=lambda: RoundsInfo(1, 50, 4))
    sheet: SheetInfo = field(default_factory=SheetInfo)
    pots: tuple[str, ...] = ()
    rules: tuple[RuleInfo, ...] = ()
    warnings: tuple[WarningInfo, ...] = ()
    figures: tuple[FigureInfo, ...] = ()

    @property
    def implemented(self) -> bool:
        """Whether the game can be played (its rules are written)."""
        return self.load is not None

    @property
    def js_module(self) -> str:
        """The name of the game's client module (``web/static/js/games/<name>.js``)."""
        return self.name

    @property
    def summary(self) -> str:
        """The catalogue key of the one-line summary."""
        return f"game.{self.name}.summary"
