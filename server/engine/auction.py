"""Auctions as data: who plays which game, from a ladder of bids and a few rules.

Any family's games bid with one :class:`Ladder` and one :class:`Auction` state; the Tarock
games bid in these ways:

* **one pass without holding** (Dreierles, DL-A2): every seat speaks once, in order,
  passing or bidding strictly higher; everybody passes → no declarer (a Räuber);
* **holding by priority** (Doppen, DP-A4): the bidding goes round until one bidder is
  left; a seat earlier in priority than the high bidder may *hold* (take the same bid);
  a pass is final;
* **Vorhand's opening and Vorhandspiele** (Tarock zu dritt, TZ-A1): the first seat may
  open with a word of its own (``"vorhand"``) below every bid; if nobody bids over it,
  it names one of the Vorhandspiele afterwards (the game's next phase);
* **point steps** (Bayerisches Tarock, BT-A1/BT-A9): the ladder is built by
  :func:`point_steps` (``"ich_spiele" < "hand" < "66" < … < "116" < "durch"``);
* **joining an equal bid** (Tarock zu dritt's "-bei", TZ-A3): a bid listed in
  ``joinable`` may be joined by another seat with the call ``"bei"`` ("Piccolo bei");
  the joiners hold the bid together with its first bidder (:attr:`Auction.holders`);
  an overbid drops them all, and each may then raise or pass.

Seats are numbered in the order they speak (0 = Vorhand), which is also their priority.
Bids are the ladder's words; ``"pass"`` and ``"hold"`` are the two other calls.

>>> dreierles = Ladder(("dreier", "zweier", "einer", "solo"), rounds=1)
>>> a = Auction(dreierles, 3)
>>> a.legal()
('pass', 'dreier', 'zweier', 'einer', 'solo')
>>> a.call("zweier"); a.legal()
('pass', 'einer', 'solo')
>>> a.call("pass"); a.call("pass"); a.finished, a.winner, a.high
(True, 0, 'zweier')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

PASS = "pass"
HOLD = "hold"
JOIN = "bei"


@dataclass(frozen=True, slots=True)
class Ladder:
    """The rules of an auction (see the module text).

    ``bids`` lowest first; ``rounds=1`` lets every seat speak once (no holding then),
    ``rounds=0`` goes round until one bidder is left. ``holding``: a seat earlier in
    priority than the high bidder may hold. ``jumps``: a bid may skip steps (else only
    the next bid up). ``after`` names bids allowed only over one particular bid (Doppen's
    Unterer only over a Dreier, never as the first bid). ``opening``: the first seat's own
    first word, below every bid (Tarock zu dritt's "Vorhand!"); ``first_bids`` the bids
    allowed as the first bid of the auction (empty: all). ``joinable``: bids another seat
    may join with ``"bei"`` (at most ``joins`` joiners per bid).
    """

    bids: tuple[str, ...]
    rounds: int = 0
    holding: bool = False
    jumps: bool = True
    after: Mapping[str, str] = field(default_factory=dict)
    opening: str | None = None
    first_bids: tuple[str, ...] = ()
    joinable: tuple[str, ...] = ()
    joins: int = 1

    #: Whether the legal calls are just pass and every higher bid (filled in after
    #: construction), and those calls for every place on the ladder.
    plain: bool = field(default=False, init=False, compare=False, repr=False)
    tails: tuple[tuple[str, ...], ...] = field(default=(), init=False, compare=False, repr=False)
    #: The bids that may follow each high bid (``None``: nobody bid yet), lowest first.
    bids_over: Mapping[str | None, tuple[str, ...]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        plain = self.jumps and not (
            self.holding or self.after or self.opening or self.first_bids or self.joinable
        )
        object.__setattr__(self, "plain", plain)
        tails = tuple((PASS, *self.bids[floor:]) for floor in range(len(self.bids) + 1))
        object.__setattr__(self, "tails", tails)
        words = [*self.bids, *(() if self.opening is None else (self.opening,))]
        if len(set(words)) != len(words) or {PASS, HOLD, JOIN} & set(words):
            raise ValueError("the words of a ladder must be unique and not pass/hold/bei")
        if not set(self.joinable) <= set(self.bids) or (self.joinable and self.rounds == 1):
            raise ValueError("'joinable' must name bids of a ladder that goes round")
        if self.rounds == 1 and self.holding:
            raise ValueError("holding needs more than one round")
        if not set(self.after) <= set(self.bids) or not set(self.after.values()) <= set(self.bids):
            raise ValueError("'after' must name bids of the ladder")
        highs = (None, *(() if self.opening is None else (self.opening,)), *self.bids)
        object.__setattr__(self, "bids_over", {high: self._bids_over(high) for high in highs})

    def _bids_over(self, high: str | None) -> tuple[str, ...]:
        floor = self.rank(high)
        first_bid = high is None or high == self.opening
        bids = []
        for place, bid in enumerate(self.bids, start=1):
            if place <= floor:
                continue
            if not self.jumps and place > floor + 1:
                break
            needs = self.after.get(bid)
            if needs is not None and needs != high:
                continue
            if first_bid and self.first_bids and bid not in self.first_bids:
                continue
            bids.append(bid)
        return tuple(bids)

    def rank(self, bid: str | None) -> int:
        """The place of ``bid`` on the ladder: 0 for no bid or the opening, then 1, 2, …

        >>> Ladder(("dreier", "zweier")).rank("zweier")
        2
        """
        if bid is None or bid == self.opening:
            return 0
        return self.bids.index(bid) + 1

    def only(self, *bids: str) -> Ladder:
        """The same ladder with only ``bids`` allowed (ranks among them kept in order), e.g.
        Dreierles' final round where only a Solo may be bid.

        >>> Ladder(("dreier", "zweier", "solo"), rounds=1).only("solo").bids
        ('solo',)
        """
        kept = tuple(b for b in self.bids if b in bids)
        after = {b: o for b, o in self.after.items() if b in kept and o in kept}
        first = tuple(b for b in self.first_bids if b in kept)
        joinable = tuple(b for b in self.joinable if b in kept)
        return Ladder(kept, self.rounds, self.holding, self.jumps, after, self.opening, first,
                      joinable, self.joins)  # fmt: skip


def point_steps(first: int, last: int, step: int = 5) -> tuple[str, ...]:
    """The words of a point ladder ``first, first + step, …, last`` (Bayerisches Tarock).

    >>> point_steps(66, 81)
    ('66', '71', '76', '81')
    """
    return tuple(str(p) for p in range(first, last + 1, step))


class Auction:
    """The running auction of one deal over a :class:`Ladder` (see the module text).

    ``to_move`` is the seat to speak (``None`` once finished), ``high`` the highest bid
    (or the opening; ``None`` while nobody bid), ``winner`` the seat holding it, ``calls``
    every ``(seat, call)`` in order. When everybody passed, ``winner`` stays ``None``.
    ``joined`` lists the seats that joined the high bid with ``"bei"`` (first bidder
    first in :attr:`holders`).

    Joining a negative game (Tarock zu dritt, TZ-A3: "Piccolo bei"):

    >>> tzd = Ladder(("dreier", "piccolo", "zweier"), opening="vorhand", joinable=("piccolo",))
    >>> a = Auction(tzd, 3)
    >>> for call in ("vorhand", "piccolo"): a.call(call)
    >>> a.legal()
    ('pass', 'bei', 'zweier')
    >>> a.call("bei"); a.legal()
    ('pass', 'zweier')
    >>> a.call("pass"); a.finished, a.holders, a.high
    (True, [1, 2], 'piccolo')

    Holding by priority (Doppen: V holds M's Zweier, M must go higher or pass):

    >>> doppen = Ladder(("dreier", "zweier", "einer", "solo"), holding=True)
    >>> a = Auction(doppen, 3)
    >>> for call in ("dreier", "zweier", "pass"): a.call(call)
    >>> a.to_move, a.legal()
    (0, ('pass', 'hold', 'einer', 'solo'))
    >>> a.call("hold"); a.to_move, a.legal()
    (1, ('pass', 'einer', 'solo'))
    >>> a.call("pass"); a.finished, a.winner, a.high
    (True, 0, 'zweier')
    """

    __slots__ = (
        "_legal",
        "calls",
        "finished",
        "high",
        "joined",
        "ladder",
        "n",
        "passed",
        "spoken",
        "to_move",
        "winner",
    )

    def __init__(self, ladder: Ladder, seats: int) -> None:
        self.ladder = ladder
        self.n = seats
        self.to_move: int | None = 0
        self.high: str | None = None
        self.winner: int | None = None
        self.passed = [False] * seats
        self.spoken = [0] * seats
        self.calls: list[tuple[int, str]] = []
        self.joined: list[int] = []
        self.finished = False
        self._legal: tuple[str, ...] | None = None  # until the next call

    @property
    def holders(self) -> list[int]:
        """The seats holding the high bid: its first bidder, then the joiners (empty while
        nobody bid)."""
        return [] if self.winner is None else [self.winner, *self.joined]

    def legal(self) -> tuple[str, ...]:
        """The calls the seat to move may make: ``"pass"``, maybe ``"hold"`` or the
        opening, then the bids it may name, lowest first (empty once finished; kept until
        the next call)."""
        known = self._legal
        if known is None:
            known = self._legal = self._find_legal()
        return known

    def _find_legal(self) -> tuple[str, ...]:
        seat = self.to_move
        if seat is None:
            return ()
        ladder = self.ladder
        if ladder.plain:  # no holding, opening or conditions: pass and every higher bid
            return ladder.tails[ladder.rank(self.high)]
        calls = [PASS]
        high = self.high
        winner = self.winner
        if ladder.holding and high is not None and high != ladder.opening:
            assert winner is not None
            if seat < winner:
                calls.append(HOLD)
        if high in ladder.joinable and seat not in self.holders and len(self.joined) < ladder.joins:
            calls.append(JOIN)
        if ladder.opening is not None and not self.calls and seat == 0:
            calls.append(ladder.opening)
        calls.extend(ladder.bids_over[high])
        return tuple(calls)

    def explain(self, call: str) -> str | None:
        """Why the seat to move may not make ``call``: ``finished``, ``no_holding``
        (holding is not allowed to it), ``no_join`` (the high bid cannot be joined by it),
        ``bid_too_low``, ``not_after`` (a bid only over
        another), ``not_first`` or ``unknown_bid``; ``None`` if it is legal.

        >>> a = Auction(Ladder(("dreier", "zweier"), rounds=1), 3)
        >>> a.call("zweier"); a.explain("dreier"), a.explain("hold"), a.explain("pass")
        ('bid_too_low', 'no_holding', None)
        """
        if self.to_move is None:
            return "finished"
        if call in self.legal():
            return None
        ladder = self.ladder
        if call == HOLD:
            return "no_holding"
        if call == JOIN:
            return "no_join"
        if call not in ladder.bids:
            return "unknown_bid"
        if ladder.rank(call) <= ladder.rank(self.high):
            return "bid_too_low"
        if call in ladder.after:
            return "not_after"
        if ladder.first_bids and call not in ladder.first_bids:
            return "not_first"
        return "bid_too_low"  # a jump where the ladder allows none

    def call(self, call: str) -> None:
        """Make ``call`` for the seat to move (raises ``ValueError`` if it is not legal)."""
        seat = self.to_move
        if seat is None or call not in self.legal():
            raise ValueError(f"'{call}' is not a legal call now")
        self._legal = None
        self.calls.append((seat, call))
        self.spoken[seat] += 1
        if call == PASS:
            self.passed[seat] = True
        elif call == JOIN:
            self.joined.append(seat)
        else:
            if call != HOLD:
                self.high = call
                self.joined = []
            self.winner = seat
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        n = self.n
        if self.ladder.rounds == 1:
            self.to_move = seat + 1 if seat + 1 < n else None
        else:
            passed, winner, joined = self.passed, self.winner, self.joined
            # over once everybody has spoken and each seat has passed or holds the bid
            over = 0 not in self.spoken
            if over:
                for s in range(n):
                    if not passed[s] and s != winner and s not in joined:
                        over = False
                        break
            if over:
                self.to_move = None
            else:
                nxt = (seat + 1) % n
                while self.passed[nxt]:
                    nxt = (nxt + 1) % n
                self.to_move = nxt
        if self.to_move is None:
            self.finished = True

    @classmethod
    def replay(cls, ladder: Ladder, seats: int, calls: Sequence[str]) -> Auction:
        """An auction after ``calls`` (each checked).

        >>> tzd = Ladder(("dreier", "solodreier"), opening="vorhand")
        >>> a = Auction.replay(tzd, 3, ["vorhand", "pass", "pass"])
        >>> a.finished, a.winner, a.high
        (True, 0, 'vorhand')
        """
        auction = cls(ladder, seats)
        for call in calls:
            auction.call(call)
        return auction
