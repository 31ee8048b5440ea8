"""Premium evaluators: what a finished Tarock deal's facts are worth beyond the card points.

The evaluators read only the facts of a finished deal (:class:`Facts`): each seat's side,
the tricks as ``(leader, cards, winner)`` (cards in playing order, seats in playing order,
so the card at position ``i`` is seat ``(leader + i) % seats``'s), the hands at the first
lead (after the exchange), and every side's pile (its tricks, its discards, its share of
the talon). Each game supplies its premiums as data (a :class:`PremiumTable` of the specs
below with their silent and announced values) and which premiums were announced by whom.

A result (:class:`Result`) leaves the engine as a code with parameters, never as text::

    {"code": "pagat", "side": 0, "seat": 0, "announced": True, "won": True, "points": 20,
     "personal": False}

``side`` is the side the premium belongs to (the bird's player's, the announcer's, the
side that collected the cards or caught the Mond); ``won`` says whether that side gains
``points`` (``True``) or pays them to the other side (``False``). ``personal`` premiums
(Dreierles' hand bonuses) are settled between the holder ``seat`` and every other player;
all others between each player of ``side`` and each player of the other side (for one
declarer against two: the declarer against each opponent). :func:`settle` does that.

The kinds of premium (the texts' names in brackets):

* :class:`Bird` (Pagat/Pfeife, Uhu, Kakadu, Quapil): the card must itself win the trick
  ``from_end`` places before the last (Pagat 0, Uhu 1, …; TZ-A13, "Die Vögel müssen
  selber stechen"; Doppen: "selbst wenn der Partner den Stich gewonnen hat"). Silent: only
  when played in that trick; won, or lost if ``silent_loss`` (Doppen DP-A12, Dreierles
  DL-A12) — in Tarock zu dritt a silent bird that fails costs nothing ("kein abhauen",
  TZ-A12). Announced: lost unless it wins its trick (played earlier, forced out, caught,
  the partner winning, or the trick never played after an early end).
* :class:`Held` (Doppen's Trull and Könige, Dreierles' Zehn Trumpf, Drull, Vier Könige):
  at least ``need`` of ``cards`` in one hand at the first lead (DP-A11, DL-A11); silent
  only; ``declarer_only`` for Dreierles' option (DL-A10).
* :class:`Collected` (Tarock zu dritt's Trull and Könige "in den Stichen"): all ``cards``
  in one side's pile, talon share included (TZ-A11).
* :class:`Fang` (Mondfang, Pagatfang): ``card`` lands in a trick won by the other side;
  not when the trick holds all of ``unless`` (a Kaiserstich is no Mondfang, TZ-A15).
  Silent only; the catching side scores.
* :class:`Valat`: one side wins every trick of a full deal (an early end after a lost
  announced Valat is no Valat).
* :class:`Sack` (Sack, Doppelsack; Bayerisches Tarock's Schneider): a side's count reaches
  ``threshold`` (Tarock zu dritt in thirds: 137 = 45⅔, 167 = 55⅔, TZ-A6; Bayerisches Tarock
  in plain Augen of the German pack: 91, BT-A14). Silent only with a value (the "stille
  Säcke" option, TZ-A26); the two are independent, so a made Doppelsack also makes the
  Sack (cumulative, TZ-A26).

One result per premium and side: an announced premium is judged for the announcer's side
only (its failure pays the announced value to the other side, whatever the other side
did); a premium nobody announced is judged silently for whichever side achieved it.
With a made Valat only the codes in ``PremiumTable.with_valat`` count (Tarock zu dritt:
the birds, TZ-A16; ``None``: all, Doppen DP-A15).

Values are multiplied by ``multiplier(code)`` (Doppen's Spiel- or Prämienfaktor, Tarock zu
dritt's Solospiele doubling all but Valat, a Kontra chain's factor). A multiplier is one
number per premium: the Kontra chains of negative games, which run per opponent, meet no
premiums (Tarock zu dritt's Negativspiele have "keine Zusätze").

:func:`bird_play_mask` is the play rule that goes with an announced bird: it may not be
played before its trick unless nothing else is legal (Doppen, Tarock zu dritt, DL-A13),
must be played in its trick when the rules allow (Doppen's Uhu; Tarock zu dritt: "dürfen
nicht freiwillig aufgegeben werden"), and when forced out early the highest goes first
(Tarock zu dritt, TZ-A14).

Decisions where the texts leave a point open (tested in ``tests/engine/test_tarock_premiums.py``):

* One result per premium: an announced premium is judged for the announcer's side alone;
  what the other side achieved of the same premium is not scored besides it.
* A failed announced premium of any kind pays its announced value to the other side (the
  texts say so for the birds; Trull, Könige and Säcke follow them).
* An announced bird whose trick is never played (an early end) is lost.
* The catching side scores a Mond- or Pagatfang; only a Kaiserstich spares the Mond.
* A Valat made by either side, silent or announced, keeps only ``with_valat``; an
  announced Valat that fails leaves every premium counting (TZ-A16).
* Forced early announced birds: "the highest" is the highest card (Quapil before Kakadu
  before Uhu before Pagat).

>>> from server.engine.cards import TAROCK
>>> table = PremiumTable((Bird("pagat", TAROCK.parse("T1"), 0, silent=1, announced=2),))
>>> t = TAROCK.parse
>>> tricks = [(0, (t("HK"), t("HD"), t("HC")), 0), (0, (t("T1"), t("P7"), t("Kr7")), 0)]
>>> facts = Facts(parties=(0, 1, 1), tricks=tricks, trick_count=2)
>>> [r.to_json() for r in evaluate(table, facts)]
[{'code': 'pagat', 'side': 0, 'seat': 0, 'announced': False, 'won': True, 'points': 1, \
'personal': False}]
>>> settle(evaluate(table, facts, {"pagat": 0}), facts.parties)
[4, -2, -2]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from server.engine.cards import TAROCK
from server.engine.counting import PointCounter

JSON = dict[str, object]
Trick = tuple[int, Sequence[int], int]

#: The Tarock cards the premiums name.
PAGAT = TAROCK.parse("T1")
UHU = TAROCK.parse("T2")
KAKADU = TAROCK.parse("T3")
QUAPIL = TAROCK.parse("T4")
MOND = TAROCK.parse("T21")
SKUS = TAROCK.parse("SK")
TRULL = TAROCK.mask("T1 T21 SK")
KINGS = TAROCK.mask("HK KaK PK KrK")
TAROCKS = TAROCK.suit_mask["T"]

COUNTER = PointCounter(TAROCK)


class Facts(NamedTuple):
    """The facts of a finished deal that premiums are judged on (see the module text).

    ``parties`` is each seat's side; ``tricks`` the tricks played; ``trick_count`` how
    many a full deal has (fewer played: the deal ended early); ``start_hands`` the hands
    at the first lead; ``piles`` every card each side counts, by side; ``declarer`` the
    declarer's seat where there is one; ``counter`` counts the pack's cards (the Tarock
    pack unless the game says otherwise).
    """

    parties: tuple[int, ...]
    tricks: Sequence[Trick]
    trick_count: int = 16
    start_hands: tuple[int, ...] = ()
    piles: Mapping[int, int] = MappingProxyType({})
    declarer: int | None = None
    counter: PointCounter = COUNTER

    @property
    def seats(self) -> int:
        """The number of seats playing."""
        return len(self.parties)

    def find(self, card: int) -> tuple[int, int] | None:
        """Where ``card`` was played: ``(trick index, seat)``, or ``None``."""
        for index, (leader, cards, _winner) in enumerate(self.tricks):
            if card in cards:
                return index, (leader + cards.index(card)) % len(self.parties)
        return None

    @property
    def sides(self) -> list[int]:
        """The sides at the table, in order."""
        return sorted(set(self.parties))


class Result(NamedTuple):
    """One premium's result (see the module text for the fields); a named tuple, like
    :class:`Facts`, because a deal makes several and a frozen dataclass is slow to build."""

    code: str
    side: int
    won: bool
    announced: bool
    points: int
    seat: int | None = None
    personal: bool = False

    def to_json(self) -> JSON:
        """The result as a code with parameters."""
        return {
            "code": self.code,
            "side": self.side,
            "seat": self.seat,
            "announced": self.announced,
            "won": self.won,
            "points": self.points,
            "personal": self.personal,
        }


@dataclass(frozen=True, slots=True)
class Bird:
    """A bird: ``card`` must win the trick ``from_end`` places before the last."""

    code: str
    card: int
    from_end: int
    silent: int | None
    announced: int | None
    silent_loss: bool = False


@dataclass(frozen=True, slots=True)
class Held:
    """At least ``need`` (0: all) of ``cards`` in one hand at the first lead; silent only."""

    code: str
    cards: int
    silent: int
    need: int = 0
    personal: bool = False
    declarer_only: bool = False


@dataclass(frozen=True, slots=True)
class Collected:
    """All of ``cards`` in one side's pile (tricks and talon share)."""

    code: str
    cards: int
    silent: int | None
    announced: int | None


@dataclass(frozen=True, slots=True)
class Fang:
    """``card`` caught by the other side, except in a trick holding all of ``unless``."""

    code: str
    card: int
    silent: int
    unless: int = 0


@dataclass(frozen=True, slots=True)
class Valat:
    """One side wins every trick of a full deal."""

    code: str
    silent: int | None
    announced: int | None


@dataclass(frozen=True, slots=True)
class Sack:
    """A side's count reaches ``threshold``, counted by ``method`` (see :func:`side_count`)."""

    code: str
    threshold: int
    silent: int | None
    announced: int | None
    method: str = "thirds"


Spec = Bird | Held | Collected | Fang | Valat | Sack


@dataclass(frozen=True)
class PremiumTable:
    """A game's premiums: the specs, and which codes still count beside a made Valat."""

    specs: tuple[Spec, ...]
    with_valat: frozenset[str] | None = None
    #: the codes of :meth:`announceable`, as a set (filled in after construction)
    announceable_codes: frozenset[str] = field(
        default=frozenset(), init=False, repr=False, compare=False
    )
    #: the codes of the Valat specs (filled in after construction)
    valat_codes: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        codes = [s.code for s in self.specs]
        if len(set(codes)) != len(codes):
            raise ValueError("premium codes must be unique")
        object.__setattr__(self, "announceable_codes", frozenset(self.announceable()))
        valats = frozenset(s.code for s in self.specs if isinstance(s, Valat))
        object.__setattr__(self, "valat_codes", valats)

    def only(self, *codes: str) -> PremiumTable:
        """The same table restricted to ``codes`` (Tarock zu dritt's Farbenspiele)."""
        return PremiumTable(tuple(s for s in self.specs if s.code in codes), self.with_valat)

    def announceable(self) -> list[str]:
        """The codes that may be announced."""
        return [s.code for s in self.specs if getattr(s, "announced", None) is not None]

    def spec(self, code: str) -> Spec:
        """The spec called ``code`` (``ValueError`` if the game has none)."""
        for s in self.specs:
            if s.code == code:
                return s
        raise ValueError(f"'{code}' is not a premium of this game")


def side_count(facts: Facts, side: int, method: str = "thirds") -> int:
    """A side's count of its pile with the facts' pack counter: ``"thirds"`` (the exact
    Tarock count in thirds), ``"whole"`` (Doppen's whole points) or ``"raw"`` (plain Augen,
    the German pack's count).

    >>> facts = Facts((0, 1, 1), [], piles={0: TAROCK.mask("HK HD HC T5"), 1: 0})
    >>> [side_count(facts, 0, m) for m in ("thirds", "whole", "raw")], side_count(facts, 1)
    ([31, 10, 13], 0)
    """
    pile = facts.piles.get(side, 0)
    counter = facts.counter
    if method == "thirds":
        return counter.thirds(pile)
    if method == "whole":
        return counter.whole(pile)
    if method == "raw":
        return counter.raw(pile)
    raise ValueError(f"unknown counting method '{method}'")


def parse_count(text: str) -> int:
    """A count as players say it (``"45⅔"``, ``"24/1"`` = 24 and 1 Blatt) in thirds.

    >>> parse_count("45⅔"), parse_count("24/1"), parse_count("35/2"), parse_count("70")
    (137, 73, 107, 210)
    """
    text = text.strip()
    if "/" in text:
        whole, blatt = text.split("/")
        return 3 * int(whole) + int(blatt)
    for sign, rest in (("⅓", 1), ("⅔", 2)):
        if text.endswith(sign):
            return 3 * int(text[: -len(sign)]) + rest
    return 3 * int(text)


def _bird(spec: Bird, facts: Facts, announcer: int | None) -> Result | None:
    # only the bird's own trick matters: played anywhere else it neither wins nor loses
    # silently, and an announced bird is lost
    target = facts.trick_count - 1 - spec.from_end
    seat = winner = None
    if target < len(facts.tricks):
        leader, cards, taken_by = facts.tricks[target]
        if spec.card in cards:
            seat = (leader + cards.index(spec.card)) % len(facts.parties)
            winner = taken_by
    if announcer is not None and spec.announced is not None:
        won = seat is not None and seat == announcer == winner
        side = facts.parties[announcer]
        return Result(spec.code, side, won, True, spec.announced, announcer)
    if spec.silent is None or seat is None:
        return None
    won = winner == seat
    if not won and not spec.silent_loss:
        return None
    return Result(spec.code, facts.parties[seat], won, False, spec.silent, seat)


def _held(spec: Held, facts: Facts) -> list[Result]:
    need = spec.need or spec.cards.bit_count()
    results = []
    for seat, hand in enumerate(facts.start_hands):
        if spec.declarer_only and seat != facts.declarer:
            continue
        if (hand & spec.cards).bit_count() >= need:
            side = facts.parties[seat]
            results.append(Result(spec.code, side, True, False, spec.silent, seat, spec.personal))
    return results


def _collected(spec: Collected, facts: Facts, announcer: int | None) -> list[Result]:
    def has(side: int) -> bool:
        return facts.piles.get(side, 0) & spec.cards == spec.cards

    if announcer is not None and spec.announced is not None:
        side = facts.parties[announcer]
        return [Result(spec.code, side, has(side), True, spec.announced, announcer)]
    if spec.silent is None:
        return []
    return [Result(spec.code, s, True, False, spec.silent) for s in facts.sides if has(s)]


def _fang(spec: Fang, facts: Facts) -> Result | None:
    where = facts.find(spec.card)
    if where is None:
        return None
    _leader, cards, winner = facts.tricks[where[0]]
    if facts.parties[winner] == facts.parties[where[1]]:
        return None
    trick_mask = sum(1 << c for c in cards)
    if spec.unless and trick_mask & spec.unless == spec.unless:
        return None
    return Result(spec.code, facts.parties[winner], True, False, spec.silent, winner)


def valat_side(facts: Facts) -> int | None:
    """The side that won every trick of a full deal, if one did."""
    tricks, parties = facts.tricks, facts.parties
    if len(tricks) != facts.trick_count or not tricks:
        return None
    side = parties[tricks[0][2]]
    for _leader, _cards, winner in tricks:
        if parties[winner] != side:
            return None
    return side


def _valat(spec: Valat, facts: Facts, announcer: int | None) -> Result | None:
    made = valat_side(facts)
    if announcer is not None and spec.announced is not None:
        side = facts.parties[announcer]
        return Result(spec.code, side, made == side, True, spec.announced, announcer)
    if spec.silent is None or made is None:
        return None
    return Result(spec.code, made, True, False, spec.silent)


def _sack(spec: Sack, facts: Facts, announcer: int | None) -> list[Result]:
    def made(side: int) -> bool:
        return side_count(facts, side, spec.method) >= spec.threshold

    if announcer is not None and spec.announced is not None:
        side = facts.parties[announcer]
        return [Result(spec.code, side, made(side), True, spec.announced, announcer)]
    if spec.silent is None:
        return []
    return [Result(spec.code, s, True, False, spec.silent) for s in facts.sides if made(s)]


def evaluate(
    table: PremiumTable,
    facts: Facts,
    announced: Mapping[str, int] | None = None,
    multiplier: Callable[[str], int] | None = None,
) -> list[Result]:
    """Judge every premium of ``table`` on ``facts``; ``announced`` maps a premium's code
    to the seat that announced it. Results come in table order.
    """
    announced = announced or {}
    for code in announced:
        if code not in table.announceable_codes:
            table.spec(code)  # a code of no premium says so
            raise ValueError(f"'{code}' cannot be announced in this game")
    results: list[Result] = []
    for spec in table.specs:
        who = announced.get(spec.code)
        if isinstance(spec, Bird):
            one = _bird(spec, facts, who)
            if one is not None:
                results.append(one)
        elif isinstance(spec, Held):
            results.extend(_held(spec, facts))
        elif isinstance(spec, Collected):
            results.extend(_collected(spec, facts, who))
        elif isinstance(spec, Fang):
            one = _fang(spec, facts)
            if one is not None:
                results.append(one)
        elif isinstance(spec, Valat):
            one = _valat(spec, facts, who)
            if one is not None:
                results.append(one)
        else:
            results.extend(_sack(spec, facts, who))
    valats = table.valat_codes
    if table.with_valat is not None and valats and valat_side(facts) is not None:
        results = [r for r in results if r.code in table.with_valat or r.code in valats]
    if multiplier is not None:
        results = [_scaled(r, multiplier(r.code)) for r in results]
    return results


def _scaled(result: Result, factor: int) -> Result:
    return Result(
        result.code,
        result.side,
        result.won,
        result.announced,
        result.points * factor,
        result.seat,
        result.personal,
    )


def settle(results: Sequence[Result], parties: Sequence[int]) -> list[int]:
    """Points per seat from ``results`` (sums to zero; see the module text).

    >>> settle([Result("trull", 1, True, False, 10, 1)], (0, 1, 1))
    [-20, 10, 10]
    >>> settle([Result("vier_koenige", 1, True, False, 1, 1, personal=True)], (0, 1, 1))
    [-1, 2, -1]
    """
    seats = len(parties)
    out = [0] * seats
    for r in results:
        gain = r.points if r.won else -r.points
        if r.personal:
            assert r.seat is not None
            for other in range(seats):
                if other != r.seat:
                    out[r.seat] += gain
                    out[other] -= gain
            continue
        # every seat of the side against every seat of the others
        side = r.side
        with_side = parties.count(side)
        against = seats - with_side
        for seat in range(seats):
            if parties[seat] == side:
                out[seat] += gain * against
            else:
                out[seat] -= gain * with_side
    return out


def bird_play_mask(
    legal: int,
    birds: Sequence[tuple[int, int]],
    trick: int,
    *,
    must_play_due: bool,
    highest_first: bool,
) -> int:
    """Restrict ``legal`` (what the trick rules allow) for a player with announced birds.

    ``birds`` lists ``(card, index of its trick)`` for the announced birds the player still
    holds; ``trick`` is the index of the trick being played. A bird not yet due is left out
    while any other card is legal; forced out, only the highest of them if
    ``highest_first``; a bird due now is the only legal card if ``must_play_due`` and it is
    legal.

    >>> t = TAROCK.parse
    >>> birds = [(t("T1"), 15), (t("T2"), 14)]
    >>> hand = TAROCK.mask("T1 T2 T9")
    >>> TAROCK.codes(bird_play_mask(hand, birds, 3, must_play_due=True, highest_first=True))
    ['T9']
    >>> TAROCK.codes(bird_play_mask(TAROCK.mask("T1 T2"), birds, 3, must_play_due=True,
    ...                             highest_first=True))
    ['T2']
    >>> TAROCK.codes(bird_play_mask(hand, birds, 14, must_play_due=True, highest_first=True))
    ['T2']
    """
    early = due = 0
    for card, target in birds:
        if target > trick:
            early |= 1 << card
        elif target == trick:
            due |= 1 << card
    if must_play_due and legal & due:
        return legal & due
    rest = legal & ~early
    if rest:
        return rest
    forced = legal & early
    if highest_first and forced:
        return 1 << (forced.bit_length() - 1)
    return legal
