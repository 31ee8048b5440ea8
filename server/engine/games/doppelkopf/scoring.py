"""Doppelkopf scoring: winner, levels, extra points, knocks (``doppelkopf.txt``, DK-A7 … A12).

The worked examples of the rules text add one point per announced level, so we follow
them (DK-A7, "Model A"):

* Levels, in order: ``120`` (winning), ``90``, ``60``, ``30``, ``schwarz``. Announcing a level
  ("unter 90" …) also announces every lower level, ``120`` included. A knock alone
  announces nothing; it doubles.
* Who wins: a party that announced must reach its announcement (the other party under
  90/60/30 Augen, or without a trick for schwarz), else it loses — the other party then
  wins even with fewer Augen (DK-A9). Without announcements Re needs 121 Augen, Kontra
  120. If both parties announced and both failed, nobody wins and the game is worth 0
  (option ``both_fail``: ``"augen"`` decides by Augen instead).
* Value: every level announced by anyone counts 2 for the winner; every level not
  announced that the winner reached counts 1 (the loser under 90, 60, 30 Augen; schwarz =
  the loser took no trick, DK-A10). Plus the winner's extra points, minus the loser's
  (never in a solo, DK-A15); a negative total is not written down (0); then doubled for
  every knock. A soloist wins or loses three times the value (DK-A22).

The result lines leave the engine as codes with parameters (the catalogues say them as
``result.doppelkopf.<code>``): ``won`` (``announced``, ``points``), ``below`` (``level``
90/60/30, ``announced``, ``points``), ``schwarz`` (``announced``, ``points``),
``gegen_die_alten``, ``extras`` (``party``, ``points``: the loser's are negative),
``not_written`` (``points``: what a negative total was raised by), ``knocked``
(``factor``, ``points``: what the doubling added) and ``both_failed`` (``points`` 0).
:func:`legacy_lines` reads the German text lines that records stored before.

>>> score(re_augen=131, re_tricks=7, kontra_tricks=5, knocks=1, extras={"re": 2}).value
6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine.base import JSON
from server.engine.cards import DOPPELKOPF
from server.engine.counting import PointCounter

LEVELS = ("120", "90", "60", "30", "schwarz")
DA = DOPPELKOPF.kind_mask["DA"]
H10 = DOPPELKOPF.kind_mask["H10"]
CJ = DOPPELKOPF.kind_mask["CJ"]
AUGEN = PointCounter(DOPPELKOPF)
Trick = tuple[int, Sequence[int], int]  # leader, cards in playing order, winner
THRESHOLDS = (None, 90, 60, 30, None)
#: The result code of each level of :data:`LEVELS`.
LEVEL_CODES = ("won", "below", "below", "below", "schwarz")


@dataclass(frozen=True, slots=True)
class GameScore:
    """The result of a game: winning party (``None`` if nobody), value and its parts."""

    winner: str | None
    value: int
    lines: list[JSON] = field(default_factory=list)


def _reached(level: int, loser_augen: int, loser_tricks: int) -> bool:
    if level == 0:
        return True
    if level == 4:
        return loser_tricks == 0
    threshold = THRESHOLDS[level]
    assert threshold is not None
    return loser_augen < threshold


def winner_of(
    re_augen: int,
    re_tricks: int,
    kontra_tricks: int,
    announced: Mapping[str, int],
    *,
    both_fail: str = "nobody",
) -> str | None:
    """Which party wins; ``announced`` maps a party to its highest announced level (1–4)."""
    augen = {"re": re_augen, "kontra": 240 - re_augen}
    tricks = {"re": re_tricks, "kontra": kontra_tricks}
    other = {"re": "kontra", "kontra": "re"}
    made = {}
    for party, level in announced.items():
        if level:
            them = other[party]
            made[party] = augen[party] >= (121 if party == "re" else 120) and _reached(
                level, augen[them], tricks[them]
            )
    if any(made.values()):
        return next(p for p, ok in made.items() if ok)
    if len(made) == 2 and both_fail == "nobody":
        return None
    if len(made) == 1:
        return other[next(iter(made))]
    return "re" if re_augen >= 121 else "kontra"


def score(
    re_augen: int,
    re_tricks: int,
    kontra_tricks: int,
    knocks: int = 0,
    announced: Mapping[str, int] | None = None,
    extras: Mapping[str, int] | None = None,
    *,
    both_fail: str = "nobody",
    gegen_die_alten: bool = False,
) -> GameScore:
    """Score one game from the parties' Augen and tricks, announcements, extras and knocks.

    ``announced`` maps ``"re"``/``"kontra"`` to the highest level index announced (1 = unter
    90 … 4 = schwarz); ``extras`` maps a party to its number of extra points.
    """
    announced = dict(announced or {})
    extras = dict(extras or {})
    winner = winner_of(re_augen, re_tricks, kontra_tricks, announced, both_fail=both_fail)
    if winner is None:
        return GameScore(None, 0, [{"code": "both_failed", "points": 0}])
    loser = "kontra" if winner == "re" else "re"
    loser_augen = 240 - re_augen if loser == "kontra" else re_augen
    loser_tricks = kontra_tricks if loser == "kontra" else re_tricks
    highest_announced = max(announced.values(), default=0)
    lines: list[JSON] = []
    total = 0
    for i in range(len(LEVELS)):
        announced_here = highest_announced >= i and highest_announced > 0
        if announced_here:
            points = 2
        elif _reached(i, loser_augen, loser_tricks):
            points = 1
        else:
            continue
        total += points
        line: JSON = {"code": LEVEL_CODES[i], "announced": announced_here, "points": points}
        if THRESHOLDS[i] is not None:
            line["level"] = THRESHOLDS[i]
        lines.append(line)
    if gegen_die_alten and winner == "kontra":
        total += 1
        lines.append({"code": "gegen_die_alten", "points": 1})
    for party, sign in ((winner, 1), (loser, -1)):
        if extras.get(party):
            total += sign * extras[party]
            lines.append({"code": "extras", "party": party, "points": sign * extras[party]})
    if total < 0:
        lines.append({"code": "not_written", "points": -total})
        total = 0
    if knocks:
        factor = 1 << knocks
        lines.append({"code": "knocked", "factor": factor, "points": total * (factor - 1)})
        total <<= knocks
    return GameScore(winner, total, lines)


def extra_points(
    tricks: Sequence[Trick],
    re: set[int],
    schweinchen: int | None = None,
    doppelkopf_augen: int = 31,
) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """Extra points per party from the tricks of a game that is not a solo (DK-A12).

    * ``fuchs_gefangen``: a trick won by one party holds a Karo Ass of the other;
    * ``doppelkopf``: a trick of ``doppelkopf_augen`` (31) Augen or more;
    * ``herz10_gefangen``: a trick won by one party holds a Herz 10 of the other; when the
      Schweinchen takes both Herz 10 of the other party the catch is 4 in all
      (``herz10_schweinchen``);
    * ``karlchen``: the Kreuz Bube wins the last trick; ``karlchen_killer``: the last
      trick, won by one party, holds the Kreuz Bube of the other.
    """
    points = {"re": 0, "kontra": 0}
    found: list[dict[str, Any]] = []
    for number, (leader, cards, winner) in enumerate(tricks, start=1):
        side = "re" if winner in re else "kontra"
        seats = [(leader + i) % 4 for i in range(4)]
        foreign = [
            c for c, p in zip(cards, seats, strict=True) if ("re" if p in re else "kontra") != side
        ]
        best = cards[(winner - leader) % 4]
        earned: list[tuple[str, int]] = [("fuchs_gefangen", 1) for c in foreign if (DA >> c) & 1]
        if AUGEN.raw(sum(1 << c for c in cards)) >= doppelkopf_augen:
            earned.append(("doppelkopf", 1))
        caught = sum(1 for c in foreign if (H10 >> c) & 1)
        if caught == 2 and schweinchen == winner and (DA >> best) & 1:
            earned.append(("herz10_schweinchen", 4))
        else:
            earned += [("herz10_gefangen", 1)] * caught
        if number == len(tricks) == 12:
            if (CJ >> best) & 1:
                earned.append(("karlchen", 1))
            if any((CJ >> c) & 1 for c in foreign):
                earned.append(("karlchen_killer", 1))
        for name, n in earned:
            points[side] += n
            found.append({"name": name, "party": side, "trick": number, "points": n})
    return points, found


_LEGACY_FIXED = {
    "gewonnen": "won",
    "schwarz": "schwarz",
    "gegen die Alten": "gegen_die_alten",
    "nicht aufgeschrieben": "not_written",
    "beide Ansagen verfehlt": "both_failed",
}


def legacy_lines(lines: Sequence[object]) -> list[JSON] | None:
    """The coded form of result lines stored as German text ``[label, points]`` (records
    written before results became codes); ``None`` if a line is neither form.

    >>> old = [["unter 90 (angesagt)", 2], ["Extrapunkte kontra", -1], ["geklopft ×4", 6]]
    >>> for line in legacy_lines(old) or []:
    ...     print(line)
    {'code': 'below', 'announced': True, 'points': 2, 'level': 90}
    {'code': 'extras', 'party': 'kontra', 'points': -1}
    {'code': 'knocked', 'factor': 4, 'points': 6}
    """
    coded: list[JSON] = []
    for line in lines:
        if isinstance(line, dict):
            coded.append(line)
            continue
        if not (isinstance(line, list) and len(line) == 2 and isinstance(line[0], str)):
            return None
        label, points = line
        if not isinstance(points, int):
            return None
        announced = label.endswith(" (angesagt)")
        bare = label.removesuffix(" (angesagt)")
        if bare in ("gewonnen", "schwarz"):
            coded.append({"code": _LEGACY_FIXED[bare], "announced": announced, "points": points})
        elif bare.startswith("unter ") and bare[6:] in LEVELS[1:4]:
            coded.append(
                {"code": "below", "announced": announced, "points": points, "level": int(bare[6:])}
            )
        elif announced:
            return None
        elif label in _LEGACY_FIXED:
            coded.append({"code": _LEGACY_FIXED[label], "points": points})
        elif label.startswith("Extrapunkte ") and label[12:] in ("re", "kontra"):
            coded.append({"code": "extras", "party": label[12:], "points": points})
        elif label.startswith("geklopft ×") and label[10:].isdigit():
            coded.append({"code": "knocked", "factor": int(label[10:]), "points": points})
        else:
            return None
    return coded
