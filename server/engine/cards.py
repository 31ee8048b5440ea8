"""The three packs and their short notation.

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

from collections.abc import Callable
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


def _tarock() -> Pack:
    cards: list[Card] = []
    for n in range(1, 22):
        cards.append(Card(n - 1, f"T{n}", "T", str(n), 5 if n in (1, 21) else 1, f"T{n}"))
    cards.append(Card(21, "SK", "T", "SK", 5, "SK"))
    honours = {"K": 5, "D": 4, "C": 3, "B": 2}
    for suit, pips in (
        ("H", "A234"),
        ("Ka", "A234"),
        ("P", ("10", "9", "8", "7")),
        ("Kr", ("10", "9", "8", "7")),
    ):
        for rank in [*honours, *pips]:
            code = suit + rank
            cards.append(Card(len(cards), code, suit, rank, honours.get(rank, 1), code))
    roman = [
        "I",
        "II",
        "III",
        "IIII",
        "V",
        "VI",
        "VII",
        "VIII",
        "IX",
        "X",
        "XI",
        "XII",
        "XIII",
        "XIV",
        "XV",
        "XVI",
        "XVII",
        "XVIII",
        "XIX",
        "XX",
        "XXI",
    ]
    aliases = {r: i for i, r in enumerate(roman)}
    aliases.update(
        {
            "IV": 3,
            "SKÜS": 21,
            "SKUS": 21,
            "SKIS": 21,
            "GSTIESS": 21,
            "GSTIEß": 21,
            "STIESS": 21,
            "PAGAT": 0,
            "PFEIFE": 0,
            "MOND": 20,
        }
    )
    return Pack("Tarock", tuple(cards), ("T", "H", "Ka", "P", "Kr"), aliases)


def _doppelkopf() -> Pack:
    cards: list[Card] = []
    points = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    for copy in (1, 2):
        for suit in "CSHD":
            for rank, pts in points.items():
                kind = suit + rank
                cards.append(Card(len(cards), f"{kind}.{copy}", suit, rank, pts, kind))
    return Pack("French 48", tuple(cards), ("C", "S", "H", "D"))


def _german() -> Pack:
    cards: list[Card] = []
    points = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0, "6": 0}
    for suit in "EGHS":
        for rank, pts in points.items():
            cards.append(Card(len(cards), suit + rank, suit, rank, pts, suit + rank))
    return Pack("German", tuple(cards), ("E", "G", "H", "S"))


TAROCK = _tarock()
DOPPELKOPF = _doppelkopf()
#: The 48-card French pack by the name the registry and the client use (``"french48"``).
FRENCH48 = DOPPELKOPF
GERMAN = _german()

#: The packs by their names in the game description (``GameInfo.pack``) and ``cards.js``.
PACKS: dict[str, Pack] = {"tarock": TAROCK, "french48": FRENCH48, "german": GERMAN}
