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
* **lead_first** — the cards a leader must lead while he holds any (Farbausspielzwang in
  an Austrian Farbenspiel: a suit card before a tarock); every card by default.

Everything is precomputed into per-card tables so that the hot path is a few mask
operations: ``beats[w]`` is the mask of cards that take the trick from the current
winning card ``w``. :meth:`TrickRules.explain` names the rule that forbids a card from
the same masks :meth:`TrickRules.legal` uses, so the two cannot drift apart.

:class:`TrickPlay` plays the tricks of a deal: the running trick, its leader and winning
card, each seat's won cards and tricks, the end of play. Games never read ``beats``; they
give :class:`TrickPlay` hooks instead: their own restrictions (Pagat, the Räuber's Pfeife),
rules that change per trick, a winner override (Kaiserstich), a callback after each trick
(a Hochzeit's partner, the Trischaken talon) and an early end (a lost announced Valat).

**Taking back a card** (:meth:`TrickPlay.take_back`, the move :data:`TAKE_BACK`, a room
option of every trick game): at a real table a mis-tapped card "kann korrigiert werden,
solange der Stich noch nicht umgedreht ist" (tarock-zu-dritt.txt). What a table accepts,
and what the engine allows, is the narrow form of that rule: **only the last card played,
only by the player who played it, only while its trick is still open, and only before
anything else has happened** — before the next player has played (nor has anyone called,
announced or signalled since). The card that completes a trick is never taken back: the
trick is turned and taken at once. One take-back per card: a take-back is itself the
last action, so the player can only play again. The player whose card went back is to
move again; the card is back in the hand, the trick as it was before it. A game may
forbid taking back cards whose play told the table more than the card (a Kreuz-Dame that
revealed a Doppelkopf party): what was seen cannot be unseen.

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

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

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
    #: The cards a leader must lead while he holds any (``-1``: every card).
    lead_first: int = -1
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
        lead_first: int = -1,
    ) -> TrickRules:
        """Build the tables.

        ``groups`` are the follow-group masks (covering every card once);
        ``trump_ranking`` is a list of tiers (masks), highest first, of the cards with
        trump power; ``plain_rankings`` gives for every non-trump group its tiers, highest
        first. ``void_must`` defaults to the trumps (Trumpfzwang); pass 0 for none.
        ``lead_first`` restricts the lead (see the module text).
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
        # the cards of each strength, and of every strength above it
        of_strength: dict[int, int] = {}
        for c, s in enumerate(strength):
            of_strength[s] = of_strength.get(s, 0) | 1 << c
        above: dict[int, int] = {}
        higher = 0
        for s in sorted(of_strength, reverse=True):
            above[s] = higher
            higher |= of_strength[s]
        beats = []
        for w in range(size):
            # a card beats w if it is in w's pool (the trumps, and w's own group for a plain
            # card), and stronger, or equal and one of ``later_equal_wins`` (trumps rank
            # above every plain card: their strengths start at 1000)
            pool = trumps if (trumps >> w) & 1 else trumps | group_of[w]
            s = strength[w]
            equal_later = of_strength[s] & later_equal_wins & ~(1 << w)
            beats.append((above[s] | equal_later) & pool)
        return cls(
            tuple(group_of),
            tuple(beats),
            trumps,
            trumps if void_must == -1 else void_must,
            stichzwang,
            lead_first,
        )

    def legal(self, hand: int, lead: int, best: int) -> int:
        """Return the mask of cards of ``hand`` that may be played.

        ``lead`` is the first card of the trick (-1 when leading) and ``best`` the card
        currently winning the trick.
        """
        if lead < 0:
            return hand & self.lead_first or hand
        allowed = self.group_of[lead] & hand
        if not allowed:
            allowed = self.void_must & hand or hand
        if self.stichzwang:
            winning = allowed & self.beats[best]
            if winning:
                allowed = winning
        return allowed

    def explain(self, hand: int, lead: int, best: int, card: int) -> str | None:
        """The rule that forbids ``card`` (held in ``hand``), or ``None`` if it is legal.

        The codes: ``follow_suit`` (Farbzwang), ``follow_trump`` (trumps were led:
        Trumpf-/Tarockzwang), ``must_trump`` (void in the led group, must play a trump),
        ``must_beat`` (Stichzwang), ``lead_first`` (Farbausspielzwang). Computed from the
        same masks as :meth:`legal`:

        >>> from server.engine.cards import TAROCK
        >>> rules, t, m = tarock_rules(TAROCK, stichzwang=True), TAROCK.parse, TAROCK.mask
        >>> rules.explain(m("HA HK T5"), t("HD"), t("HD"), t("T5"))
        'follow_suit'
        >>> rules.explain(m("HK HA"), t("HD"), t("HD"), t("HK")) is None
        True
        >>> rules.explain(m("P7 T5 T9"), t("HD"), t("T7"), t("T5"))
        'must_beat'
        >>> rules.explain(m("P7 T5"), t("T2"), t("T2"), t("P7"))
        'follow_trump'
        >>> rules.explain(m("P7 T5"), t("HK"), t("HK"), t("P7"))
        'must_trump'
        """
        if (self.legal(hand, lead, best) >> card) & 1:
            return None
        if lead < 0:
            return "lead_first"
        follow = self.group_of[lead] & hand
        if follow and not (follow >> card) & 1:
            return "follow_trump" if (self.trumps >> lead) & 1 else "follow_suit"
        if not follow and not (self.void_must >> card) & 1:
            return "must_trump"
        return "must_beat"

    def hand_order(self, hand: int) -> list[int]:
        """The cards of ``hand`` in the order players hold them: the trumps strongest first,
        then every plain group (in pack order) strongest first; equal cards by index.

        >>> from server.engine.cards import TAROCK
        >>> rules = tarock_rules(TAROCK)
        >>> [TAROCK.code(c) for c in rules.hand_order(TAROCK.mask("HK T1 SK HA T21 PK"))]
        ['SK', 'T21', 'T1', 'HK', 'HA', 'PK']
        """

        return sorted(cards_of(hand), key=self.order.__getitem__)

    def hand_groups(
        self, pack: Pack, hand: int, shown: Callable[[list[int]], list[str]] | None = None
    ) -> list[dict[str, Any]]:
        """The cards of ``hand`` in the groups a player sorts by, for the view's
        ``hand_groups`` (the client orders them as the player chose, docs/protocol.md):
        ``{"group": "trump", "cards": [...]}`` for the cards with trick power of these
        rules (none in a trumpless game), then one group per plain suit, named by the suit,
        in pack order; every group strongest card first. ``shown`` turns the ordered cards
        into the codes the view shows (default: the pack's codes).

        >>> from server.engine.cards import TAROCK
        >>> rules = tarock_rules(TAROCK)
        >>> groups = rules.hand_groups(TAROCK, TAROCK.mask("HK T1 SK HA T21 PK"))
        >>> [(g["group"], g["cards"]) for g in groups]
        [('trump', ['SK', 'T21', 'T1']), ('H', ['HK', 'HA']), ('P', ['PK'])]
        """
        order = self.hand_order(hand)
        codes = shown(order) if shown is not None else [pack.cards[c].code for c in order]
        groups: list[dict[str, Any]] = []
        for card, code in zip(order, codes, strict=True):
            key = "trump" if (self.trumps >> card) & 1 else pack.cards[card].suit
            if groups and groups[-1]["group"] == key:
                groups[-1]["cards"].append(code)
            else:
                groups.append({"group": key, "cards": [code]})
        return groups

    def winner(self, cards: Sequence[int]) -> int:
        """Return the position (0-based, in playing order) of the card that takes the trick."""
        beats = self.beats
        best = 0
        for pos in range(1, len(cards)):
            if (beats[cards[best]] >> cards[pos]) & 1:
                best = pos
        return best


def tarock_rules(pack: Pack, *, stichzwang: bool = False, farbenspiel: bool = False) -> TrickRules:
    """Return the usual Tarock trick rules: the 22 tarocks are trumps, Farb- and Tarockzwang.

    With ``farbenspiel`` (an Austrian Farbenspiel) the tarocks lose their trick power: a
    tarock wins only a trick of tarocks; a player void in the led suit must still play a
    tarock if he holds one, and must lead a suit card while he holds one
    (Farbausspielzwang).

    >>> from server.engine.cards import TAROCK
    >>> rules, t = tarock_rules(TAROCK, farbenspiel=True), TAROCK.parse
    >>> rules.winner([t("HD"), t("T21"), t("HK")])
    2
    >>> TAROCK.codes(rules.legal(TAROCK.mask("T5 P7"), -1, -1))
    ['P7']
    """
    trumps = pack.suit_mask["T"]
    groups = [pack.suit_mask[s] for s in pack.suits]
    tarocks = [1 << c for c in reversed(cards_of(trumps))]
    plain = [[1 << c for c in cards_of(pack.suit_mask[s])] for s in pack.suits if s != "T"]
    if farbenspiel:
        return TrickRules.build(
            len(pack), groups, [], [*plain, tarocks],
            void_must=trumps, stichzwang=stichzwang, lead_first=pack.full & ~trumps,
        )  # fmt: skip
    return TrickRules.build(len(pack), groups, tarocks, plain, stichzwang=stichzwang)


def suit_trump_rules(
    pack: Pack,
    trump_suit: str | None,
    rank_order: Sequence[str],
    *,
    top_trumps: Sequence[int] = (),
    stichzwang: bool = False,
    void_must_trump: bool = True,
) -> TrickRules:
    """Trick rules for a pack of suits with a trump chosen at play time (German pack).

    ``top_trumps`` (masks, highest first) are permanent trumps above the trump suit (the
    Ober and Unter of some games); ``trump_suit`` ranks next, then every other suit on its
    own; ``None`` plays without a trump suit (only ``top_trumps``, if any, are trumps).
    ``rank_order`` gives the ranks from highest to lowest.

    >>> from server.engine.cards import GERMAN
    >>> rules, g = suit_trump_rules(GERMAN, "H", "A 10 K O U 9 8 7 6".split()), GERMAN.parse
    >>> rules.winner([g("EA"), g("H6"), g("E10")])
    1
    >>> GERMAN.codes(rules.legal(GERMAN.mask("H7 S7"), g("EA"), g("EA")))
    ['H7']
    """
    top = sum(top_trumps)
    groups, plain = [], []
    trump_tiers = [*top_trumps]
    for suit in pack.suits:
        ranking = [pack.kind_mask[f"{suit}{r}"] & ~top for r in rank_order]
        ranking = [tier for tier in ranking if tier]
        if suit == trump_suit:
            trump_tiers.extend(ranking)
        else:
            plain.append(ranking)
            groups.append(sum(ranking))
    if trump_tiers:
        groups.append(sum(trump_tiers))
    return TrickRules.build(
        len(pack), groups, trump_tiers, plain,
        void_must=-1 if void_must_trump else 0, stichzwang=stichzwang,
    )  # fmt: skip


def trumpless_rules(
    pack: Pack, rank_order: Sequence[str], *, stichzwang: bool = False
) -> TrickRules:
    """Trick rules without trumps (Bettel, Fleischloser): every suit ranked by ``rank_order``.

    >>> from server.engine.cards import GERMAN
    >>> rules, g = trumpless_rules(GERMAN, "A K O U 10 9 8 7 6".split()), GERMAN.parse
    >>> rules.winner([g("E10"), g("EU"), g("HA")])
    1
    """
    return suit_trump_rules(pack, None, rank_order, stichzwang=stichzwang)


class TrickPlay:
    """The tricks of one deal: who is to play, the running trick, the won piles.

    ``hands`` is the deal's own list of hand masks; playing a card removes it there.
    Seats play in order ``leader, leader + 1, …`` (mod the number of hands). The hooks:

    * ``restrict(seat, legal)``: the game's own limits on top of the follow rules;
    * ``restrictions``: named limits ``(code, rule)`` with ``rule(play, seat, legal)``
      returning the allowed part of ``legal``, applied in order after ``restrict``;
      :meth:`explain` names the first one that forbids a card (the Räuber's Pfeife);
      ``restricted`` the seats they concern (default: every seat; the others are not
      asked, which saves a call per card where one player announced a bird);
    * ``rules_for(number)``: the rules of trick ``number`` (0-based), when they change;
    * ``winner_of(cards, best)``: the position that takes the trick ``cards`` (default
      ``best``, the highest card by the ranking; a Kaiserstich overrides it); asked of
      full tricks, and under Stichzwang of the trick as it would stand after a card:
      the cards that must be played are those that would become its winner;
    * ``after_trick(play)``: called after each trick is taken (``play.tricks[-1]``);
    * ``ends_early(play)``: whether play stops after the trick just taken.

    The legal mask of the seat to move is cached and dropped in one place, :meth:`play`
    (and :meth:`set_rules`, for a change of rules inside a trick).

    >>> from server.engine.cards import TAROCK
    >>> hands = [TAROCK.mask("HK T1"), TAROCK.mask("HD T2"), TAROCK.mask("P7 T3")]
    >>> play = TrickPlay(tarock_rules(TAROCK), hands, leader=0, tricks=2)
    >>> TAROCK.codes(play.legal())
    ['T1', 'HK']
    >>> play.play(TAROCK.parse("HK")); TAROCK.codes(play.legal())
    ['HD']
    >>> play.play(TAROCK.parse("HD")); play.play(TAROCK.parse("T3")); play.tricks[-1]
    (0, (22, 23, 2), 2)
    >>> play.to_move, play.tricks_won, play.finished
    (2, [0, 0, 1], False)
    """

    __slots__ = (
        "_follow",
        "_legal",
        "_limits",
        "_next",
        "_pile",
        "_top",
        "after_trick",
        "best",
        "ends_early",
        "finished",
        "hands",
        "leader",
        "n",
        "number",
        "restrict",
        "restrictions",
        "rules",
        "rules_for",
        "to_move",
        "total",
        "trick",
        "tricks",
        "tricks_won",
        "winner_of",
        "won",
    )

    def __init__(
        self,
        rules: TrickRules,
        hands: list[int],
        *,
        leader: int,
        tricks: int,
        restrict: Callable[[int, int], int] | None = None,
        rules_for: Callable[[int], TrickRules] | None = None,
        winner_of: Callable[[Sequence[int], int], int] | None = None,
        after_trick: Callable[[TrickPlay], None] | None = None,
        ends_early: Callable[[TrickPlay], bool] | None = None,
        restrictions: Sequence[Restriction] = (),
        restricted: Collection[int] | None = None,
    ) -> None:
        self.rules = rules_for(0) if rules_for is not None else rules
        self.hands = hands
        self.n = len(hands)
        self._next = _NEXT_SEAT[self.n]  # who plays next
        self.leader = self.to_move = leader
        self.total = tricks
        #: The number (0-based) of the trick being played (the count of tricks taken).
        self.number = 0
        self.trick: list[int] = []
        self.best = 0  # position in the trick of the card winning it so far
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.won = [0] * self.n
        self.tricks_won = [0] * self.n
        self.finished = False
        self.restrict = restrict
        self.rules_for = rules_for
        self.winner_of = winner_of
        self.after_trick = after_trick
        self.ends_early = ends_early
        self.restrictions = tuple(restrictions)
        # the limits of each seat on top of the follow rules, in order: the ``restrict``
        # hook (named "restricted"), then the restrictions that concern the seat
        hook: tuple[Restriction, ...] = ()
        if restrict is not None:
            hook = (("restricted", lambda play, seat, legal: restrict(seat, legal)),)
        every = hook + self.restrictions
        self._limits = (
            (every,) * self.n
            if restricted is None
            else tuple(every if s in restricted else hook for s in range(self.n))
        )
        self._legal = -1
        self._pile = 0  # the cards of the running trick
        # while a trick runs: the follow group of its lead and the cards that beat its best
        # card by the ranking (``rules.group_of[trick[0]]``, ``rules.beats[trick[best]]``)
        self._follow = self._top = 0

    def legal(self) -> int:
        """The mask of cards the seat to move may play (cached until the next card).

        The follow rules are :meth:`TrickRules.legal`, written out here because this is
        the engine's hottest line (the tests check that both agree on every position)."""
        legal = self._legal
        if legal >= 0:
            return legal
        seat = self.to_move
        hand = self.hands[seat]
        rules = self.rules
        if self.trick:
            legal = self._follow & hand or rules.void_must & hand or hand
            if rules.stichzwang:
                beating = legal & self._top
                if beating and self.winner_of is not None:
                    beating = self._winning(beating)
                legal = beating or legal
        else:
            legal = hand & rules.lead_first or hand
        limits = self._limits[seat]  # the restrict hook among them
        if limits:
            for _code, rule in limits:
                legal = rule(self, seat, legal)
        self._legal = legal
        return legal

    def _winning(self, cards: int) -> int:
        """Of ``cards``, each higher than the running trick's best by the ranking, those
        that would become its winner by :attr:`winner_of` (Stichzwang asks for these: the
        Sküs beside Mond and Pagat completes the Kaiserstich and takes nothing)."""
        trick = self.trick
        size = len(trick)
        assert self.winner_of is not None
        winning = 0
        for card in cards_of(cards):
            if self.winner_of([*trick, card], size) == size:
                winning |= 1 << card
        return winning

    def explain(self, card: int) -> str | None:
        """Why the seat to move may not play ``card``: ``not_held``, a code of
        :meth:`TrickRules.explain`, the code of the first of ``restrictions`` that forbids
        it, or ``restricted`` (the ``restrict`` hook); ``None`` if legal. Computed from the
        same masks and rules as :meth:`legal`."""
        seat = self.to_move
        hand = self.hands[seat]
        if not (hand >> card) & 1:
            return "not_held"
        if (self.legal() >> card) & 1:
            return None
        trick = self.trick
        lead, best = (trick[0], trick[self.best]) if trick else (-1, -1)
        code = self.rules.explain(hand, lead, best, card)
        if code is not None:
            return code
        legal = self.rules.legal(hand, lead, best)
        for name, rule in self._limits[seat]:  # the restrict hook first, as "restricted"
            legal = rule(self, seat, legal)
            if not (legal >> card) & 1:
                return name
        return "restricted"  # pragma: no cover - legal() and the loop above agree

    def set_rules(self, rules: TrickRules) -> None:
        """Change the rules in the middle of play (a Schweinchen knock)."""
        self.rules = rules
        self._legal = -1
        trick = self.trick
        if trick:
            self._follow = rules.group_of[trick[0]]
            self._top = rules.beats[trick[self.best]]

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to move (raises ``ValueError`` if it is not legal)."""
        if self.try_play(card) < 0:
            raise ValueError(f"card {card} may not be played now")

    def try_play(self, card: int, seat: int | None = None) -> int:
        """The hot path of a game's ``apply``: if ``card`` is legal for the seat to move (and
        ``seat`` is that seat or ``None``), play it and return the seat; else change
        nothing and return -1 (the game then explains, from :meth:`explain`)."""
        to_move = self.to_move
        if self.finished or not 0 <= card < _CARDS or (seat is not None and seat != to_move):
            return -1
        legal = self._legal
        if legal < 0:
            legal = self.legal()
        bit = _BIT[card]
        if not legal & bit:
            return -1
        self.hands[to_move] &= _ALL_BUT[card]
        self._legal = -1
        self._pile |= bit
        trick = self.trick
        trick.append(card)
        size = len(trick)
        if size == 1:
            rules = self.rules
            self._follow = rules.group_of[card]
            self._top = rules.beats[card]
        elif self._top & bit:  # the new best card
            self.best = size - 1
            self._top = self.rules.beats[card]
        if size < self.n:
            self.to_move = self._next[to_move]
            return to_move
        # the full trick goes to its winner; then the hooks, the end, the next rules (each
        # hook read into a name first: Python 3.11 looks a method up on a slot's value the
        # slow way)
        winner_of = self.winner_of
        best = self.best if winner_of is None else winner_of(trick, self.best)
        leader = self.leader
        winner = (leader + best) % self.n
        self.won[winner] |= self._pile
        self._pile = 0
        self.tricks_won[winner] += 1
        tricks = self.tricks
        tricks.append((leader, tuple(trick), winner))
        self.number = number = len(tricks)
        self.trick = []
        self.best = 0
        self.leader = self.to_move = winner
        after_trick = self.after_trick
        if after_trick is not None:
            after_trick(self)
        ends_early = self.ends_early
        if number == self.total or (ends_early is not None and ends_early(self)):
            self.finished = True
        else:
            rules_for = self.rules_for
            if rules_for is not None:
                self.rules = rules_for(number)
        return to_move

    def last_played(self) -> tuple[int, int] | None:
        """The seat and card of the last card of the running trick, or ``None`` when no
        trick is open (play over, or the trick just taken): the only card that
        :meth:`take_back` may take back."""
        trick = self.trick
        if self.finished or not trick:
            return None
        return (self.leader + len(trick) - 1) % self.n, trick[-1]

    def take_back(self) -> tuple[int, int]:
        """Take the last card of the running trick back into its player's hand; that
        player is to move again and the trick is as it was before the card (its best card,
        follow group and the cards that beat it recomputed). Returns ``(seat, card)``.
        Raises ``ValueError`` when no trick is open (see the module text for when a game
        allows it).

        >>> from server.engine.cards import TAROCK
        >>> hands = [TAROCK.mask("HK T1"), TAROCK.mask("HD T2"), TAROCK.mask("P7 T3")]
        >>> play = TrickPlay(tarock_rules(TAROCK), hands, leader=0, tricks=2)
        >>> play.play(TAROCK.parse("HK")); play.play(TAROCK.parse("HD"))
        >>> play.take_back() == (1, TAROCK.parse("HD")), play.to_move, TAROCK.codes(play.legal())
        (True, 1, ['HD'])
        """
        last = self.last_played()
        if last is None:
            raise ValueError("no open trick: nothing to take back")
        seat, card = last
        trick = self.trick
        trick.pop()
        bit = _BIT[card]
        self.hands[seat] |= bit
        self._pile &= _ALL_BUT[card]
        self.to_move = seat
        self._legal = -1
        rules = self.rules
        if trick:
            self.best = best = rules.winner(trick)
            self._follow = rules.group_of[trick[0]]
            self._top = rules.beats[trick[best]]
        else:
            self.best = 0
            self._follow = self._top = 0
        return seat, card

    def release(self) -> None:
        """Drop the hooks once play is over: they are often the deal's own methods, and
        a deal that holds its trick core which holds the deal would wait for the cycle
        collector instead of going when its last reference does."""
        self.restrict = self.rules_for = self.winner_of = None
        self.after_trick = self.ends_early = None
        self.restrictions = ()
        self._limits = ((),) * self.n
        self._legal = -1  # a cached mask may have been limited by them

    def seat_of(self, number: int, position: int) -> int:
        """The seat that played card ``position`` of trick ``number``."""
        return (self.tricks[number][0] + position) % self.n

    def trick_json(self, code: Callable[[int], str]) -> dict[str, Any]:
        """The running trick as JSON (see :func:`trick_json`), no winner yet."""
        return trick_json(code, self.leader, self.trick, None)

    def tricks_json(self, code: Callable[[int], str]) -> list[dict[str, Any]]:
        """Every trick taken, as JSON (see :func:`trick_json`)."""
        # trick_json written out: an outcome writes every trick. A pack's ``code`` is the
        # ``__getitem__`` of its tuple of codes: that tuple is indexed directly (a call per
        # card, as ``map`` makes it, costs several times as much)
        codes = getattr(code, "__self__", None)
        if type(codes) is not tuple:
            return [
                {"leader": leader, "cards": [*map(code, cards)], "winner": winner}
                for leader, cards, winner in self.tricks
            ]
        out = []
        for leader, cards, winner in self.tricks:
            written = []
            for card in cards:
                written.append(codes[card])
            out.append({"leader": leader, "cards": written, "winner": winner})
        return out


def trick_json(
    code: Callable[[int], str], leader: int, cards: Sequence[int], winner: int | None
) -> dict[str, Any]:
    """A trick as views and outcomes show it: ``{"leader", "cards", "winner"}`` with the
    cards written by ``code`` (a game may write cards its own way).

    >>> from server.engine.cards import TAROCK
    >>> trick_json(TAROCK.code, 2, [0, 21], None)
    {'leader': 2, 'cards': ['T1', 'SK'], 'winner': None}
    """
    return {"leader": leader, "cards": [*map(code, cards)], "winner": winner}


#: The word of the take-back move (:meth:`TrickPlay.take_back`) in every game's codec.
TAKE_BACK = "takeback"

#: The most cards a pack has room for, each card's mask and every card but it: looked up
#: (where ``1 << card`` and ``~(1 << card)`` would each make a new int for every card).
_CARDS = 64
_BIT = tuple(1 << card for card in range(_CARDS))
_ALL_BUT = tuple(~(1 << card) for card in range(_CARDS))

#: For every number of seats (fewer than a pack's cards), the seat after each seat.
_NEXT_SEAT = tuple(tuple((seat + 1) % n for seat in range(n)) for n in range(_CARDS))

#: A named restriction of :class:`TrickPlay`: its code and ``rule(play, seat, legal)``.
Restriction = tuple[str, Callable[[TrickPlay, int, int], int]]
