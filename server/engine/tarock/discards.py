"""Discard rules as data: which cards a declarer may lay away, and which are shown.

A :class:`DiscardRule` names the cards that may **never** be discarded (the honours:
Könige and Trull in the 54-card games) and the cards that may be discarded **only when
forced** (too few other cards are left to discard) and are then shown face up (the
tarocks in a positive game; the suit cards in a Farbenspiel, TZ-A5). Everything else may
be discarded face down.

Dreierles (DL-A4) and Doppen (DP-A5): honours never, tarocks only when forced:

>>> from server.engine.cards import TAROCK
>>> rule = tarock_discards(TAROCK)
>>> TAROCK.codes(rule.discardable(TAROCK.mask("HK HD P7 T5 SK"), 1))
['HD', 'P7']
>>> TAROCK.codes(rule.discardable(TAROCK.mask("HK HD T5 T1 SK"), 2))
['T5', 'HD']
>>> rule.face_up(TAROCK.parse("T5")), rule.face_up(TAROCK.parse("HD"))
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.cards import Pack


@dataclass(frozen=True, slots=True)
class DiscardRule:
    """Cards never discarded, and cards discarded only when forced (then face up)."""

    never: int
    forced_only: int

    def discardable(self, hand: int, left: int) -> int:
        """The cards of ``hand`` that may be discarded now, with ``left`` still to discard
        (counting this one): the free cards, and the forced-only ones if too few free
        cards are left."""
        free = hand & ~self.never & ~self.forced_only
        if free.bit_count() >= left:
            return free
        return free | (hand & self.forced_only)

    def face_up(self, card: int) -> bool:
        """Whether a discard of ``card`` is shown to everybody."""
        return bool((self.forced_only >> card) & 1)

    def explain(self, hand: int, left: int, card: int) -> str | None:
        """Why ``card`` may not be discarded: ``not_held``, ``never`` (an honour) or
        ``forced_only`` (free cards are left); ``None`` if it may.

        >>> from server.engine.cards import TAROCK
        >>> rule, m, t = tarock_discards(TAROCK), TAROCK.mask, TAROCK.parse
        >>> [rule.explain(m("HK P7 T5"), 1, t(c)) for c in ("HD", "HK", "T5", "P7")]
        ['not_held', 'never', 'forced_only', None]
        """
        if not (hand >> card) & 1:
            return "not_held"
        if (self.discardable(hand, left) >> card) & 1:
            return None
        return "never" if (self.never >> card) & 1 else "forced_only"


def honours(pack: Pack) -> int:
    """The honours of a 54-card pack: the four kings and the Trull (Sküs, Mond, Pagat).

    >>> from server.engine.cards import TAROCK
    >>> TAROCK.codes(honours(TAROCK))
    ['T1', 'T21', 'SK', 'HK', 'KaK', 'PK', 'KrK']
    """
    kings = 0
    for card in pack.cards:
        if card.rank == "K" and card.suit != "T":
            kings |= 1 << card.index
    return kings | pack.mask("SK T21 T1")


def tarock_discards(pack: Pack) -> DiscardRule:
    """Positive games: honours never; tarocks only when forced, face up."""
    never = honours(pack)
    return DiscardRule(never, pack.suit_mask["T"] & ~never)


def farbenspiel_discards(pack: Pack) -> DiscardRule:
    """Farbenspiele (TZ-A5): honours never; tarocks face down; suit cards only when forced,
    face up.

    >>> from server.engine.cards import TAROCK
    >>> rule = farbenspiel_discards(TAROCK)
    >>> TAROCK.codes(rule.discardable(TAROCK.mask("HK HD T5 T1"), 1))
    ['T5']
    """
    never = honours(pack)
    return DiscardRule(never, pack.full & ~pack.suit_mask["T"] & ~never)
