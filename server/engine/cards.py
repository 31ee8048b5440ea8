"""The packs and their short notation; a pack is data (:class:`PackSpec`, :func:`build_pack`).

Every card of a pack has an index (its bit in a card mask), a canonical code and its
card points. The notation follows ``shared/rules/DECISIONS.md``:

* **Tarock** (54 cards; Doppen, Tarock zu dritt, Dreierles): trumps ``T1`` … ``T21`` and
  ``SK`` (Sküs, highest). Suits ``H`` (Herz), ``Ka`` (Karo), ``P`` (Pik), ``Kr`` (Kreuz);
  ranks ``K`` (König), ``D`` (Dame), ``C`` (Cavall/Reiter), ``B`` (Bube), then the pip
  cards ``A 2 3 4`` in the red suits and ``10 9 8 7`` in the black suits, each list
  highest first. Card points 5/4/3/2/1; ``SK``, ``T21`` and ``T1`` count 5.
* **French 48** (``"french48"``, 48 cards; Doppelkopf): suits ``C`` (♣ Kreuz), ``S``
  (♠ Pik), ``H`` (♥ Herz), ``D`` (♦ Karo); ranks ``A 10 K Q J 9`` (Q = Dame, J = Bube).
  Every card exists twice; the copies are told apart by a suffix: ``H10.1`` and
  ``H10.2``. Augen 11/10/4/3/2/0.
* **German pack** (36 cards; Bayerisches Tarock): suits ``E`` (Eichel), ``G`` (Gras),
  ``H`` (Herz), ``S`` (Schellen); ranks ``A 10 K O U 9 8 7 6``. Augen 11/10/4/3/2/0.

A game with a pack of its own (a German 32-card pack, a 36-card Jass pack …) describes it
with a :class:`PackSpec` in its own package and builds it with :func:`build_pack`: suits,
ranks, copies, card points and aliases are all the core needs.

Parsing is case-insensitive for letters, accepts the suit symbols ♣♠♥♦ in the
Doppelkopf pack and a few spoken aliases (``Sküs``, ``Gstieß``, ``XXI``…), and always
returns the canonical code on the way out.

>>> TAROCK.parse("sküs"), TAROCK.code(TAROCK.parse("Ka4")), TAROCK.points[TAROCK.parse("KrK")]
(21, 'Ka4', 5)
>>> DOPPELKOPF.code(DOPPELKOPF.parse("♥10.2"))
'H10.2'
>>> GERMAN.code(GERMAN.parse("eo"))
'EO'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from server.engine.bits import cards_of
from server.engine.errors import MalformedError


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a pack: its index (bit), canonical code, suit, rank and card points.

    ``suit`` is ``"T"`` for the Tarock trumps (and the Sküs); ``kind`` is the code
    without a copy suffix (equal for the two copies of a Doppelkopf card).
    """

    index: int
    code: str
    suit: str
    rank: str
    points: int
    kind: str


#: How many listed masks a pack remembers (a few hundred bytes each) before it starts over.
LISTED_MASKS = 4096


@dataclass(frozen=True)
class Pack:
    """An ordered pack of cards with lookup tables built once."""

    name: str
    cards: tuple[Card, ...]
    suits: tuple[str, ...]
    aliases: dict[str, int] = field(default_factory=dict)
    _by_code: dict[str, int] = field(init=False, repr=False)
    points: tuple[int, ...] = field(init=False, repr=False)
    full: int = field(init=False, repr=False)
    suit_mask: dict[str, int] = field(init=False, repr=False)
    kind_mask: dict[str, int] = field(init=False, repr=False)
    #: ``code(index)``: the canonical code of card ``index`` (the tuple's own lookup: this
    #: runs for every card a view, a record or an outcome writes).
    code: Callable[[int], str] = field(init=False, repr=False, compare=False)
    # The last few thousand masks listed: most views list hands that did not change.
    _listed: dict[int, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_code: dict[str, int] = {}
        suit_mask: dict[str, int] = {}
        kind_mask: dict[str, int] = {}
        for card in self.cards:
            by_code[card.code.upper()] = card.index
            suit_mask[card.suit] = suit_mask.get(card.suit, 0) | (1 << card.index)
            kind_mask[card.kind] = kind_mask.get(card.kind, 0) | (1 << card.index)
        for alias, index in self.aliases.items():
            by_code[alias.upper()] = index
        object.__setattr__(self, "_by_code", by_code)
        object.__setattr__(self, "points", tuple(c.points for c in self.cards))
        object.__setattr__(self, "full", (1 << len(self.cards)) - 1)
        object.__setattr__(self, "suit_mask", suit_mask)
        object.__setattr__(self, "kind_mask", kind_mask)
        object.__setattr__(self, "_listed", {})
        object.__setattr__(self, "code", tuple(c.code for c in self.cards).__getitem__)

    def __len__(self) -> int:
        return len(self.cards)

    def parse(self, text: str) -> int:
        """Return the index of the card written ``text``; raise :class:`MalformedError`."""
        index = self._by_code.get(text)  # a code as written: the common case, straight
        if index is not None:
            return index
        key = text.strip().upper()
        for symbol, letter in _SYMBOLS.items():
            key = key.replace(symbol, letter)
        try:
            return self._by_code[key]
        except KeyError:
            raise MalformedError(
                "unknown_card",
                f"'{text}' is not a card of the {self.name} pack",
                f"'{text}' ist keine Karte des Blatts {self.name}",
            ) from None

    def codes(self, mask: int) -> list[str]:
        """Return the canonical codes of the cards in ``mask``, in pack order.

        Every view of every seat lists hands this way, most of them unchanged since the
        last action: a mask seen lately is looked up instead of listed again.
        """
        listed = self._listed.get(mask)
        if listed is None:
            if mask < 0 or mask >> len(self.cards):
                raise ValueError(f"mask {mask:#x} has cards beyond the {self.name} pack")
            cards = self.cards
            out = [cards[i].code for i in cards_of(mask)]
            if len(self._listed) >= LISTED_MASKS:
                self._listed.clear()
            listed = self._listed[mask] = tuple(out)
        return list(listed)

    def mask(self, codes: list[str] | str) -> int:
        """Return the mask of the cards written in ``codes`` (a list or a spaced string)."""
        if isinstance(codes, str):
            codes = codes.split()
        mask = 0
        for text in codes:
            mask |= 1 << self.parse(text)
        return mask

    def points_of(self, mask: int) -> int:
        """Return the raw sum of card points in ``mask``."""
        pts = self.points
        return sum(pts[i] for i in cards_of(mask))


_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}


@dataclass(frozen=True, slots=True)
class SuitSpec:
    """One suit of a pack described as data: its letter(s), its ranks in pack order and
    their card points (``points``: by rank, ``other_points`` for a rank not listed).

    A card's code is the suit and the rank (``"HK"``) unless ``codes`` names it otherwise
    (the Tarock Sküs: rank ``"SK"`` of suit ``"T"`` is ``"SK"``).
    """

    suit: str
    ranks: tuple[str, ...]
    points: Mapping[str, int] = field(default_factory=dict)
    other_points: int = 0
    codes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PackSpec:
    """A pack described as data (:func:`build_pack` makes the :class:`Pack`): its name,
    its suits in pack order, how many ``copies`` of each card (the copies are told apart
    by a suffix ``.1``, ``.2``; the pack holds every card of the first copy first) and
    spoken ``aliases`` (alias → canonical code).

    >>> spec = PackSpec("Mini", (SuitSpec("E", ("A", "10"), {"A": 11, "10": 10}),), copies=2)
    >>> pack = build_pack(spec)
    >>> pack.codes(pack.full), pack.points, pack.cards[2].kind
    (['EA.1', 'E10.1', 'EA.2', 'E10.2'], (11, 10, 11, 10), 'EA')
    """

    name: str
    suits: tuple[SuitSpec, ...]
    copies: int = 1
    aliases: Mapping[str, str] = field(default_factory=dict)


def build_pack(spec: PackSpec) -> Pack:
    """The :class:`Pack` of a :class:`PackSpec`: card ``i`` is bit ``i``, in the order the
    spec lists copies, then suits, then ranks. ValueError for a code or alias twice, an
    alias of no card, or more than 64 cards."""
    cards: list[Card] = []
    for copy in range(1, spec.copies + 1):
        for suit in spec.suits:
            for rank in suit.ranks:
                kind = suit.codes.get(rank, suit.suit + rank)
                code = kind if spec.copies == 1 else f"{kind}.{copy}"
                points = suit.points.get(rank, suit.other_points)
                cards.append(Card(len(cards), code, suit.suit, rank, points, kind))
    by_code = {card.code.upper(): card.index for card in cards}
    if len(by_code) != len(cards) or len(cards) > 64:
        raise ValueError(f"the {spec.name} pack needs at most 64 cards, each code once")
    aliases: dict[str, int] = {}
    for alias, code in spec.aliases.items():
        if code.upper() not in by_code or alias.upper() in by_code:
            raise ValueError(f"alias {alias!r} of the {spec.name} pack names no card or one")
        aliases[alias] = by_code[code.upper()]
    return Pack(spec.name, tuple(cards), tuple(s.suit for s in spec.suits), aliases)


#: The Tarock trumps I … XXI (spoken aliases of ``T1`` … ``T21``).
_ROMAN = ("I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
          "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI")  # fmt: skip
_HONOURS = {"K": 5, "D": 4, "C": 3, "B": 2}
_RED_TAROCK = ("K", "D", "C", "B", "A", "2", "3", "4")
_BLACK_TAROCK = ("K", "D", "C", "B", "10", "9", "8", "7")
#: The 54-card Tarock pack: 22 trumps (T1 … T21, the Sküs), four suits of eight.
TAROCK_SPEC = PackSpec(
    "Tarock",
    (
        SuitSpec(
            "T",
            (*(str(n) for n in range(1, 22)), "SK"),
            {"1": 5, "21": 5, "SK": 5},
            1,
            codes={"SK": "SK"},
        ),
        SuitSpec("H", _RED_TAROCK, _HONOURS, 1),
        SuitSpec("Ka", _RED_TAROCK, _HONOURS, 1),
        SuitSpec("P", _BLACK_TAROCK, _HONOURS, 1),
        SuitSpec("Kr", _BLACK_TAROCK, _HONOURS, 1),
    ),
    aliases={
        **{roman: f"T{n}" for n, roman in enumerate(_ROMAN, 1)},
        "IV": "T4",
        "SKÜS": "SK",
        "SKUS": "SK",
        "SKIS": "SK",
        "GSTIESS": "SK",
        "GSTIEß": "SK",
        "STIESS": "SK",
        "PAGAT": "T1",
        "PFEIFE": "T1",
        "MOND": "T21",
    },
)
_FRENCH_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
#: The 48-card French pack: A 10 K Q J 9 in four suits, twice.
FRENCH48_SPEC = PackSpec(
    "French 48",
    tuple(SuitSpec(suit, tuple(_FRENCH_POINTS), _FRENCH_POINTS) for suit in "CSHD"),
    copies=2,
)
_GERMAN_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2}
#: The 36-card German pack: A 10 K O U 9 8 7 6 in four suits.
GERMAN_SPEC = PackSpec(
    "German",
    tuple(
        SuitSpec(suit, ("A", "10", "K", "O", "U", "9", "8", "7", "6"), _GERMAN_POINTS)
        for suit in "EGHS"
    ),
)


TAROCK = build_pack(TAROCK_SPEC)
DOPPELKOPF = build_pack(FRENCH48_SPEC)
#: The 48-card French pack by the name the registry and the client use (``"french48"``).
FRENCH48 = DOPPELKOPF
GERMAN = build_pack(GERMAN_SPEC)

#: The packs by their names in the game description (``GameInfo.pack``) and ``cards.js``.
PACKS: dict[str, Pack] = {"tarock": TAROCK, "french48": FRENCH48, "german": GERMAN}
