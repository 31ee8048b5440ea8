"""Rules of thumb for trick play, shared by the rule-based players of the trick games.

A :class:`Trick` is what a seat knows about the running trick (read from its view by the
game's module): the cards on the table, who leads, which seats play on its side, its
legal cards and the trick rules of the contract (:class:`~server.engine.tricks.TrickRules`:
who beats whom, the trumps). :func:`choose_card` applies the rules of thumb:

* **positive play** (the side wants tricks and card points): a leader who plays alone
  pulls trumps with a master trump, then cashes masters; the others lead their master
  cards, then the top card of a group that has not gone round yet (the others still
  follow), else a low card of their longest plain group. A follower smears points onto a
  trick its partner wins safely, wins a trick from the other side as cheaply as it can
  (with a master when a player of the other side still follows), and otherwise plays
  its cheapest card;
* **negative play** (the Räuber, a Bettel: fewer points or tricks are better): duck under
  the winning card with the highest card that still loses, dump points onto tricks others
  take, lead low;
* **protected cards** (a Pfeife or a Pagat kept for the last trick) are played only when
  nothing else is legal.

A :class:`CardPlan` is what a seat's choice of card depends on beyond its hand and the
running trick, fixed from the first card of the play to the last (its side, the trick
rules, the cards seen set aside, the cards to keep): a game's module makes it from the
information set once (its ``card_plan``), and the plan makes the :class:`Trick` of every
later position from the hand, the legal cards, the running trick and the cards played
since. The rule-based player reads those from its view; the searching player's playouts
read them from the cards alone (:mod:`server.bots.search`), and both choose alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.bits import cards_of
from server.engine.cards import Pack
from server.engine.tricks import TrickRules


@dataclass(frozen=True, slots=True)
class Trick:
    """What a seat knows when it chooses a card (see the module text).

    ``cards`` are the cards of the running trick in playing order, led by ``leader``;
    ``seats`` the number of players; ``partners`` the seats on the player's side;
    ``hand`` and ``legal`` masks; ``gone`` the cards already played or seen set aside
    (a master is a card no unseen card beats); ``points`` per card;
    ``protect`` the cards to keep; ``negative`` for a contract where points hurt.
    """

    seat: int
    seats: int
    leader: int
    cards: tuple[int, ...]
    partners: frozenset[int]
    hand: int
    legal: int
    gone: int
    rules: TrickRules
    points: Sequence[int]
    full: int
    protect: int = 0
    negative: bool = False
    alone: bool = False

    @property
    def unseen(self) -> int:
        """The cards other seats may still hold."""
        return self.full & ~self.hand & ~self.gone & ~self._on_table()

    def _on_table(self) -> int:
        mask = 0
        for card in self.cards:
            mask |= 1 << card
        return mask

    def strength(self, card: int) -> int:
        """Higher is stronger: the fewer cards beat it, the stronger it is."""
        return -self.rules.beats[card].bit_count()

    def is_master(self, card: int) -> bool:
        """Whether no card still unseen beats ``card``."""
        return not self.rules.beats[card] & self.unseen

    def still_to_play(self) -> list[int]:
        """The seats after this one in the running trick."""
        after = self.seats - 1 - len(self.cards)
        return [(self.seat + i) % self.seats for i in range(1, after + 1)]


@dataclass(frozen=True, slots=True)
class CardPlan:
    """What a seat's card play depends on beyond its hand and the running trick (see the
    module text).

    ``gone`` are the cards out of play when the plan was made (played, or seen set aside);
    ``keep`` the cards kept for the last trick while the hand is longer in ``long_in``
    (the trumps) than the other hands together may be; ``parse`` reads a card code of the
    views (the pack's own parse, remembered).
    """

    seat: int
    seats: int
    partners: frozenset[int]
    gone: int
    rules: TrickRules
    pack: Pack
    parse: Callable[[str], int]
    keep: int = 0
    long_in: int = 0
    negative: bool = False
    alone: bool = False

    def trick(
        self, hand: int, legal: int, leader: int, cards: tuple[int, ...], played: int = 0
    ) -> Trick:
        """The :class:`Trick` of a position: ``played`` are the cards played since the plan
        was made (those of the running trick among them)."""
        gone = self.gone | played
        protect = 0
        if self.keep & hand:
            on_table = 0
            for card in cards:
                on_table |= 1 << card
            others = (self.long_in & ~hand & ~gone & ~on_table).bit_count()
            if (hand & self.long_in).bit_count() > others:
                protect = self.keep & hand
        return Trick(
            seat=self.seat,
            seats=self.seats,
            leader=leader,
            cards=cards,
            partners=self.partners,
            hand=hand,
            legal=legal,
            gone=gone,
            rules=self.rules,
            points=self.pack.points,
            full=self.pack.full,
            protect=protect,
            negative=self.negative,
            alone=self.alone,
        )

    def play(self, view: Mapping[str, Any], legal: list[str]) -> str:
        """The card to play in ``view`` (its hand and running trick; the plan made from the
        same information set), as an action text."""
        parse = self.parse
        hand = 0
        for code in view["hand"]:
            hand |= 1 << parse(code)
        legal_mask = 0
        for text in legal:
            legal_mask |= 1 << parse(text.split()[1])
        trick = view["trick"]
        cards = tuple(parse(code) for code in trick["cards"])
        chosen = choose_card(self.trick(hand, legal_mask, int(trick["leader"]), cards))
        return f"play {self.pack.code(chosen)}"


def plan_sides(seat: int, seats: int, declarer: int | None) -> tuple[frozenset[int], bool]:
    """The partners of ``seat`` and whether it plays alone as the declarer: a declarer
    (or everybody, where ``declarer`` is ``None``) has none; the others are partners.

    >>> plan_sides(1, 3, 0), plan_sides(0, 3, 0), plan_sides(2, 3, None)
    ((frozenset({2}), False), (frozenset(), True), (frozenset(), False))
    """
    if declarer is None or seat == declarer:
        return frozenset(), declarer is not None
    return frozenset(set(range(seats)) - {seat, declarer}), False


def own_moves(view: Mapping[str, Any]) -> list[str]:
    """The seat's legal actions in ``view`` without the take-back (a computer player never
    takes back its own card)."""
    return [str(t) for t in view["legal_actions"] if t != "takeback"]


def _cheapest(t: Trick, cards: list[int]) -> int:
    """The card that gives away least: fewest points, then weakest."""
    return min(cards, key=lambda c: (t.points[c], t.strength(c), c))


def _weakest(t: Trick, cards: list[int]) -> int:
    return min(cards, key=lambda c: (t.strength(c), t.points[c], c))


def _richest(t: Trick, cards: list[int]) -> int:
    """The card with most points (the weaker of equals: keep the strong ones)."""
    return max(cards, key=lambda c: (t.points[c], -t.strength(c), -c))


def choose_card(t: Trick) -> int:
    """The card to play by the rules of thumb (see the module text)."""
    legal = cards_of(t.legal)
    if len(legal) == 1:
        return legal[0]
    free = [c for c in legal if not (t.protect >> c) & 1] or legal
    if t.negative:
        return _negative(t, free)
    if not t.cards:
        return _lead(t, free)
    return _follow(t, free)


def _lead(t: Trick, cards: list[int]) -> int:
    trumps = [c for c in cards if (t.rules.trumps >> c) & 1]
    plain = [c for c in cards if not (t.rules.trumps >> c) & 1]
    others_trumps = t.rules.trumps & t.unseen
    if t.alone and trumps and others_trumps:
        best = max(trumps, key=t.strength)
        if t.is_master(best):
            return best
        if len(trumps) * 2 > others_trumps.bit_count():
            return _weakest(t, trumps)
    masters = [c for c in plain if t.is_master(c)]
    if masters:
        return _richest(t, masters)
    # the top card of a group not yet gone round: the others still follow, it wins
    unseen_plain = t.unseen & ~t.rules.trumps
    tops = [
        c
        for c in plain
        if not t.rules.beats[c] & unseen_plain
        and (t.rules.group_of[c] & t.gone).bit_count() < t.seats
    ]
    if tops:
        return _richest(t, tops)
    if t.alone and trumps and not others_trumps:
        return _weakest(t, trumps)
    if plain:
        groups: dict[int, list[int]] = {}
        for card in plain:
            groups.setdefault(t.rules.group_of[card], []).append(card)
        longest = max(groups.values(), key=lambda g: (len(g), -min(t.points[c] for c in g)))
        return _cheapest(t, longest)
    return _weakest(t, cards)


def _follow(t: Trick, cards: list[int]) -> int:
    rules = t.rules
    position = rules.winner(t.cards)
    winner = (t.leader + position) % t.seats
    best = t.cards[position]
    later = t.still_to_play()
    enemies_later = [s for s in later if s not in t.partners]
    beaters = [c for c in cards if (rules.beats[best] >> c) & 1]
    if winner in t.partners:
        safe = not enemies_later or t.is_master(best)
        if safe:
            return _richest(t, cards)
        masters = [c for c in beaters if t.is_master(c)]
        if masters:
            return _weakest(t, masters)
        return _cheapest(t, cards)
    if beaters:
        if not enemies_later:
            return _weakest(t, beaters)
        masters = [c for c in beaters if t.is_master(c)]
        if masters:
            return _weakest(t, masters)
        trick_points = sum(t.points[c] for c in t.cards)
        if trick_points >= 5 or len(beaters) > 2:
            return max(beaters, key=t.strength)
        return _weakest(t, beaters)
    return _cheapest(t, cards)


def _negative(t: Trick, cards: list[int]) -> int:
    rules = t.rules
    if not t.cards:
        return min(cards, key=lambda c: (t.strength(c), t.points[c], c))
    best = t.cards[rules.winner(t.cards)]
    ducking = [c for c in cards if not (rules.beats[best] >> c) & 1]
    if ducking:
        return max(ducking, key=lambda c: (t.points[c], t.strength(c)))
    if not t.still_to_play():
        return max(cards, key=t.strength)
    return min(cards, key=lambda c: (t.points[c], -t.strength(c)))
