"""The one trick core every game uses: who wins a trick and which cards may be played.

A contract describes its tricks with a :class:`TrickRules` value built once from data:

* **follow groups** — the cards that follow each other (a suit, or all trumps). A player
  holding a card of the led card's group must play one (Farbzwang; with trumps led this is
  the Trumpf-/Tarockzwang).
* **void_must** — what a player void in the led group must play if he can (the trumps for
  Trumpfzwang, the tarocks in an Austrian Farbenspiel, nothing in Doppelkopf).
* **ranking** — trumps (cards with trick power) highest first, then every plain group
  highest first; cards in one tier are equal, and of two equal cards the first played wins
  unless the card is listed in ``later_equal_wins`` (the Doppelkopf "second Dulle" rule).
* **stichzwang** — after the rules above, a player who can beat the current winner must.

Everything is precomputed into per-card tables so that the hot path is a few mask
operations: ``beats[w]`` is the mask of cards that take the trick from the current
winning card ``w``. Game modules add their own extra restrictions (Pagat rules, the
Räuber's Pfeife) on top of :meth:`TrickRules.legal`, and special winners (Kaiserstich)
on top of :meth:`TrickRules.winner`.

>>> from server.engine.cards import TAROCK
>>> rules = tarock_rules(TAROCK)
>>> t = TAROCK.parse
>>> rules.winner([t("HD"), t("HK"), t("T2")])
2
>>> TAROCK.codes(rules.legal(TAROCK.mask("HA P7 T5"), t("HK"), t("HK")))
['HA']
>>> TAROCK.codes(rules.legal(TAROCK.mask("Ka4 P7 T5"), t("HK"), t("HK")))
['T5']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from server.engine.bits import cards_of
from server.engine.cards import Pack


@dataclass(frozen=True, slots=True)
class TrickRules:
    """Precomputed follow and ranking tables for one contract (see the module text)."""

    group_of: tuple[int, ...]
    beats: tuple[int, ...]
    trumps: int
    void_must: int
    stichzwang: bool
    #: Per card: its place in :meth:`hand_order` (filled in after construction).
    order: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        def key(card: int) -> tuple[int, int, int, int]:
            if (self.trumps >> card) & 1:
                return (0, 0, self.beats[card].bit_count(), card)
            group = self.group_of[card]
            return (1, (group & -group).bit_length(), self.beats[card].bit_count(), card)

        ranked = sorted(range(len(self.beats)), key=key)
        order = [0] * len(ranked)
        for place, card in enumerate(ranked):
            order[card] = place
        object.__setattr__(self, "order", tuple(order))

    @classmethod
    def build(
        cls,
        size: int,
        groups: Sequence[int],
        trump_ranking: Sequence[int],
        plain_rankings: Sequence[Sequence[int]],
        *,
        void_must: int = -1,
        stichzwang: bool = False,
        later_equal_wins: int = 0,
    ) -> TrickRules:
        """Build the tables.

        ``groups`` are the follow-group masks (covering every card once);
        ``trump_ranking`` is a list of tiers (masks), highest first, of the cards with
        trump power; ``plain_rankings`` gives for every non-trump group its tiers, highest
        first. ``void_must`` defaults to the trumps (Trumpfzwang); pass 0 for none.
        """
        group_of = [0] * size
        for g in groups:
            for c in cards_of(g):
                if group_of[c]:
                    raise ValueError(f"card {c} is in two follow groups")
                group_of[c] = g
        if 0 in group_of:
            raise ValueError("every card needs a follow group")
        strength = [0] * size
        trumps = 0
        for tier_no, tier in enumerate(reversed(trump_ranking)):
            trumps |= tier
            for c in cards_of(tier):
                strength[c] = 1000 + tier_no
        ranked = trumps
        for ranking in plain_rankings:
            for tier_no, tier in enumerate(reversed(ranking)):
                ranked |= tier
                for c in cards_of(tier):
                    strength[c] = tier_no
        if ranked != (1 << size) - 1:
            raise ValueError("every card needs a rank")
        beats = []
        for w in range(size):
            if (trumps >> w) & 1:
                pool = trumps
            else:
                pool = trumps | group_of[w]
            mask = 0
            for c in cards_of(pool):
                higher = strength[c] > strength[w] or ((trumps >> c) & 1 and not (trumps >> w) & 1)
                equal_later = strength[c] == strength[w] and c != w and (later_equal_wins >> c) & 1
                if higher or equal_later:
                    mask |= 1 << c
            beats.append(mask)
        return cls(
            tuple(group_of),
            tuple(beats),
            trumps,
            trumps if void_must == -1 else void_must,
            stichzwang,
        )

    def legal(self, hand: int, lead: int, best: int) -> int:
        """Return the mask of cards of ``hand`` that may be played.

        ``lead`` is the first card of the trick (-1 when leading) and ``best`` the card
        currently winning the trick.
        """
        if lead < 0:
            return hand
        allowed = self.group_of[lead] & hand
        if not allowed:
            allowed = self.void_must & hand or hand
        if self.stichzwang:
            winning = allowed & self.beats[best]
            if winning:
                allowed = winning
        return allowed

    def hand_order(self, hand: int) -> list[int]:
        """The cards of ``hand`` in the order players hold them: the trumps strongest first,
        then every plain group (in pack order) strongest first; equal cards by index.

        >>> from server.engine.cards import TAROCK
        >>> rules = tarock_rules(TAROCK)
        >>> [TAROCK.code(c) for c in rules.hand_order(TAROCK.mask("HK T1 SK HA T21 PK"))]
        ['SK', 'T21', 'T1', 'HK', 'HA', 'PK']
        """

        return sorted(cards_of(hand), key=self.order.__getitem__)

    def winner(self, cards: Sequence[int]) -> int:
        """Return the position (0-based, in playing order) of the card that takes the trick."""
        beats = self.beats
        best = 0
        for pos in range(1, len(cards)):
            if (beats[cards[best]] >> cards[pos]) & 1:
                best = pos
        return best


def tarock_rules(pack: Pack, *, stichzwang: bool = False) -> TrickRules:
    """Return the usual Tarock trick rules: the 22 tarocks are trumps, Farb- and Tarockzwang."""
    trumps = pack.suit_mask["T"]
    groups = [pack.suit_mask[s] for s in pack.suits]
    trump_ranking = [1 << c for c in reversed(cards_of(trumps))]
    plain = [[1 << c for c in cards_of(pack.suit_mask[s])] for s in pack.suits if s != "T"]
    return TrickRules.build(len(pack), groups, trump_ranking, plain, stichzwang=stichzwang)
