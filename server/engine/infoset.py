"""The information-set oracle: a viewer's view must be a function of what it may know.

``ARCHITECTURE.md`` ("Views are information sets"), checked the strong way: a deal that
differs from the real one only in what is hidden from a viewer (a seat, the spectator or
the sitting-out dealer, ``None``) must give that viewer the identical view, key by key,
at every position. The alternative deals come from the record alone (the dealt cards and
the actions), never from game-specific code, so every game gets the check for free:

* **Swaps.** Two cards whose place the viewer cannot tell (:meth:`Deal.unplaced_for`)
  and that were dealt to different places (two other hands, a hand and the talon, two
  places in the talon) trade places in the dealt record; the same actions are replayed.
* **Shuffles.** All such cards at one position are dealt anew among their places.
* **Hidden choices.** An action the viewer sees masked (:meth:`Deal.action_seen_by`: a
  reservation, a discard, pushed cards) is replaced by another legal action of the same
  player that the viewer sees alike; the real actions follow.

An alternative replays in lockstep with the real deal, once. At each position it is
*indistinguishable* for its viewer while every action so far was legal in it, for every
card kind whose place differs (or that a replaced action names) the viewer cannot place
some copy in either deal (the two copies of a Doppelkopf card are one card to the players,
not to the engine), and a replaced action still looks alike to the viewer (a game reveals
a masked action by announcing it differently from then on). Once it is distinguishable it
is dropped: what the viewer sees after that may differ. While it is not, the viewer's view
(in its two parts, :meth:`Deal.view_parts`, where a class writes them over its view: see
:func:`compared_in_parts`) and the newest action as announced to the viewer must be
identical; the first difference is a :class:`Leak`, with the key path where the two views
part.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.engine.base import JSON, Deal, Dealt, Rules
from server.engine.bits import cards_of
from server.engine.cards import Pack
from server.engine.errors import EngineError

Viewer = int | None


def card_names(pack: Pack) -> dict[str, int]:
    """Card codes and kinds of ``pack``, each with the mask of the cards it may stand for:
    all copies of its kind (``H10.2`` in a view is a Herz 10: views number the copies of a
    Doppelkopf card in the order the table saw them, not as the engine keeps them)."""
    names = dict(pack.kind_mask)
    names.update({card.code: pack.kind_mask[card.kind] for card in pack.cards})
    return names


@dataclass(frozen=True, slots=True)
class Alternative:
    """A deal that ``viewer`` must not be able to tell from the real one.

    ``dealt`` replaces the real dealt cards; ``choice`` (``(index, text)``) replaces the
    real action ``index`` by ``text``. ``kinds`` are the masks of the card kinds whose
    place differs or that the replaced action names; ``what`` says what was changed.
    """

    viewer: Viewer
    dealt: Dealt
    kinds: tuple[int, ...]
    what: str
    choice: tuple[int, str] | None = None

    @property
    def start(self) -> int:
        """The first position at which the two deals may differ."""
        return 0 if self.choice is None else self.choice[0] + 1


@dataclass(frozen=True, slots=True)
class Leak:
    """A viewer told two indistinguishable deals apart: where, how, and the first difference."""

    game: str
    viewer: Viewer
    position: int
    phase: str
    after: str
    what: str
    key: str
    real: object
    alternative: object

    def __str__(self) -> str:
        who = "the spectator" if self.viewer is None else f"seat {self.viewer}"
        after = f" after '{self.after}'" if self.after else ""
        return (
            f"{self.game}: {who} at position {self.position} ({self.phase}{after}) tells the "
            f"deal from one where we {self.what}: {self.key} is {self.real!r} here, "
            f"{self.alternative!r} there"
        )


def first_difference(ours: object, theirs: object, path: str = "view") -> str | None:
    """The key path of the first place where two JSON-like values differ; ``None`` if equal."""
    if ours == theirs:
        return None
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in [*ours, *(k for k in theirs if k not in ours)]:
            if key not in ours or key not in theirs:
                return f"{path}.{key}"
            found = first_difference(ours[key], theirs[key], f"{path}.{key}")
            if found is not None:
                return found
        return path
    if isinstance(ours, list | tuple) and isinstance(theirs, list | tuple):
        for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return f"{path}[{min(len(ours), len(theirs))}]"
    return path


def value_at(value: object, path: str) -> object:
    """The part of ``value`` at a key path from :func:`first_difference` (``"-"``: absent)."""
    for step in path.replace("[", ".[").split(".")[1:]:
        if step.startswith("["):
            index = int(step[1:-1])
            if not isinstance(value, list | tuple) or index >= len(value):
                return "-"
            value = value[index]
        else:
            if not isinstance(value, dict) or step not in value:
                return "-"
            value = value[step]
    return value


class InfosetOracle:
    """The oracle for one deal record: samples alternatives and replays them in lockstep.

    >>> from server.engine.registry import get_rules
    >>> rules = get_rules("dreierles")
    >>> deal = rules.new_deal(rules.shuffle_and_deal(random.Random(2)))
    >>> while not deal.finished:
    ...     deal.apply(deal.random_move(random.Random(len(deal.history))))
    >>> InfosetOracle.of(deal).check(random.Random(1))
    []
    """

    def __init__(
        self,
        rules: Rules[Any],
        dealt: Dealt,
        options: Mapping[str, object],
        seats: Sequence[str],
        dealer: str,
        actions: Sequence[tuple[int, str]],
    ) -> None:
        """Replay the record once and note, per position and viewer, what it cannot place."""
        self.rules = rules
        self.dealt = dealt
        self.options = dict(options)
        self.seats = tuple(seats)
        self.dealer = dealer
        self.viewers: tuple[Viewer, ...] = (*range(rules.seats), None)
        self.names = card_names(rules.pack)
        self.place = _places(dealt)
        self.alternatives_run = 0  # alternatives replayed by :meth:`run`
        self.comparisons = 0  # views compared by :meth:`run`
        deal = self.new_deal()
        self.unplaced: list[dict[Viewer, int]] = []
        self.seen: list[dict[Viewer, str]] = []  # per action: how each viewer saw it
        self.masked: list[tuple[Viewer, ...]] = []  # per action: who saw it masked
        self.actions: list[tuple[int, str]] = []
        for seat, text in [*actions, (-1, "")]:
            self.unplaced.append({v: deal.unplaced_for(v) for v in self.viewers})
            if seat < 0:
                break
            deal.act(seat, text)
            index = len(self.actions)
            real = deal.move_text(deal.history[index][1])
            self.actions.append((seat, real))
            seen = {v: deal.action_seen_by(index, v) for v in self.viewers}
            self.seen.append(seen)
            self.masked.append(tuple(v for v in self.viewers if seen[v] != real))

    @classmethod
    def of(cls, deal: Deal) -> InfosetOracle:
        """The oracle for ``deal`` as far as it has been played."""
        return cls(deal.rules, deal.dealt, deal.options, deal.seat_names, deal.dealer,
                   deal.actions())  # fmt: skip

    def new_deal(self, dealt: Dealt | None = None) -> Deal:
        """A fresh deal of the record's game, seats and options (and ``dealt``'s cards)."""
        deal: Deal = self.rules.new_deal(dealt or self.dealt, self.options, self.seats, self.dealer)
        return deal

    # ------------------------------------------------------------------ alternatives

    def _where(self, card: int) -> str:
        place = self.place[card]
        if place < len(self.seats):
            return f"{self.seats[place]}'s hand"
        return f"talon[{place - len(self.seats)}]"

    def _kinds(self, cards: Iterable[int]) -> tuple[int, ...]:
        kind_mask = self.rules.pack.kind_mask
        pack_cards = self.rules.pack.cards
        return tuple(dict.fromkeys(kind_mask[pack_cards[c].kind] for c in cards))

    def _movable(self, position: int, viewer: Viewer) -> list[int]:
        """Cards ``viewer`` cannot place at ``position``, if they lie in two places or more."""
        unplaced = self.unplaced[position][viewer]
        if viewer is not None:
            unplaced &= ~self.dealt.hands[viewer]
        cards = cards_of(unplaced)
        if len({self.place[c] for c in cards}) < 2:
            return []
        return cards

    def _redeal(self, moves: Mapping[int, int]) -> Dealt:
        """The dealt cards with each card of ``moves`` in the place given there."""
        hands = list(self.dealt.hands)
        talon = list(self.dealt.talon)
        seats = len(hands)
        for card in moves:
            place = self.place[card]
            if place < seats:
                hands[place] &= ~(1 << card)
        for card, place in moves.items():
            if place < seats:
                hands[place] |= 1 << card
            else:
                talon[place - seats] = card
        return Dealt(tuple(hands), tuple(talon))

    def swap(self, viewer: Viewer, a: int, b: int) -> Alternative:
        """The alternative for ``viewer`` in which cards ``a`` and ``b`` trade places."""
        code = self.rules.pack.code
        dealt = self._redeal({a: self.place[b], b: self.place[a]})
        what = f"swap {code(a)} ({self._where(a)}) and {code(b)} ({self._where(b)})"
        return Alternative(viewer, dealt, self._kinds((a, b)), what)

    def alternatives(
        self,
        rng: random.Random,
        viewer: Viewer,
        *,
        at: int | None = None,
        swaps: int = 2,
        shuffles: int = 1,
        choices: int = 1,
    ) -> list[Alternative]:
        """Sample alternatives for ``viewer``: ``swaps`` card swaps and ``shuffles``
        shuffles of the cards it cannot place at random positions (at ``at`` if given), and
        ``choices`` replaced masked actions (before ``at``)."""
        found: list[Alternative] = []
        positions = range(len(self.unplaced)) if at is None else [at]
        spots = [p for p in positions if self._movable(p, viewer)]
        for _ in range(swaps if spots else 0):
            cards = self._movable(rng.choice(spots), viewer)
            a = rng.choice(cards)
            b = rng.choice([c for c in cards if self.place[c] != self.place[a]])
            found.append(self.swap(viewer, a, b))
        for _ in range(shuffles if spots else 0):
            position = rng.choice(spots)
            cards = self._movable(position, viewer)
            places = [self.place[c] for c in cards]
            rng.shuffle(places)
            moves = {c: p for c, p in zip(cards, places, strict=True) if p != self.place[c]}
            if moves:
                found.append(
                    Alternative(
                        viewer,
                        self._redeal(moves),
                        self._kinds(moves),
                        f"deal the {len(cards)} cards it cannot place at position {position} "
                        f"anew ({len(moves)} move)",
                    )
                )
        last = len(self.actions) if at is None else at
        masked = [i for i in range(last) if viewer in self.masked[i]]
        for _ in range(choices if masked else 0):
            alternative = self.choice(rng, viewer, rng.choice(masked))
            if alternative is not None:
                found.append(alternative)
        return found

    def _replay(self, upto: int, dealt: Dealt | None = None) -> Deal:
        deal = self.new_deal(dealt)
        for seat, text in self.actions[:upto]:
            deal.act(seat, text)
        return deal

    def choice(
        self, rng: random.Random, viewer: Viewer, index: int, tries: int = 6
    ) -> Alternative | None:
        """An alternative for ``viewer`` in which action ``index`` is another legal action
        of the same player that ``viewer`` sees as it saw the real one (``None``: none found
        in ``tries`` random legal actions)."""
        seat, real = self.actions[index]
        before = self._replay(index)
        seen = self.seen[index][viewer]
        texts = [t for t in before.legal_texts(seat) if t != real]
        rng.shuffle(texts)
        for text in texts[:tries]:
            deal = self._replay(index)
            deal.act(seat, text)
            if deal.action_seen_by(index, viewer) == seen:
                named = self._named(real) | self._named(text)
                kinds = self._kinds(cards_of(named))
                what = f"replace action {index} '{real}' by '{text}' (both seen as '{seen}')"
                return Alternative(viewer, self.dealt, kinds, what, (index, text))
        return None

    def _named(self, text: str) -> int:
        mask = 0
        for word in text.split():
            mask |= self.names.get(word, 0)
        return mask

    # ------------------------------------------------------------------ the check

    def check(
        self,
        rng: random.Random,
        viewers: Iterable[Viewer] | None = None,
        *,
        at: int | None = None,
        swaps: int = 2,
        shuffles: int = 1,
        choices: int = 1,
    ) -> list[Leak]:
        """Sample alternatives for each viewer (default: every seat and the spectator) and
        compare at every position (only at position ``at`` if given); return the leaks."""
        found: list[Alternative] = []
        for viewer in self.viewers if viewers is None else viewers:
            found += self.alternatives(
                rng, viewer, at=at, swaps=swaps, shuffles=shuffles, choices=choices
            )
        return self.run(found, at=at)

    def run(self, alternatives: Sequence[Alternative], *, at: int | None = None) -> list[Leak]:
        """Replay ``alternatives`` in lockstep with the real deal and compare each with it
        where its viewer cannot tell them apart (only at position ``at`` if given)."""
        end = len(self.actions) if at is None else at
        real = self.new_deal()
        split = compared_in_parts(type(real))
        live: list[tuple[Alternative, list[Deal]]] = [(alt, []) for alt in alternatives]
        self.alternatives_run += len(live)
        leaks: list[Leak] = []
        for position in range(end + 1):
            if position:
                real.act(*self.actions[position - 1])
            unplaced = self.unplaced[position]
            views: dict[Viewer, tuple[JSON, ...]] = {}
            still: list[tuple[Alternative, list[Deal]]] = []
            for alt, holder in live:
                if position < alt.start:
                    still.append((alt, holder))
                    continue
                try:
                    other = self._advance(alt, holder, position)
                except EngineError:
                    continue  # illegal there: the viewer can tell
                viewer = alt.viewer
                theirs = other.unplaced_for(viewer)
                ours = unplaced[viewer]
                if not all(k & ours and k & theirs for k in alt.kinds):
                    continue  # the viewer can place a card that differs
                if alt.choice is not None:
                    index = alt.choice[0]
                    if real.action_seen_by(index, viewer) != other.action_seen_by(index, viewer):
                        continue  # the replaced action is revealed
                if at is None or position == at:
                    self.comparisons += 1
                    leak = self._compare(real, other, alt, position, views, split)
                    if leak is not None:
                        leaks.append(leak)
                        continue
                still.append((alt, holder))
            live = still
            if not live:
                break
        return leaks

    def _advance(self, alt: Alternative, holder: list[Deal], position: int) -> Deal:
        """The alternative deal at ``position`` (built on first use, then one action on)."""
        if not holder:
            if alt.choice is None:
                holder.append(self.new_deal(alt.dealt))
            else:
                index, text = alt.choice
                deal = self._replay(index, alt.dealt)
                deal.act(self.actions[index][0], text)
                holder.append(deal)
            return holder[0]
        deal = holder[0]
        deal.act(*self.actions[position - 1])
        return deal

    def _compare(
        self,
        real: Deal,
        other: Deal,
        alt: Alternative,
        position: int,
        views: dict[Viewer, tuple[JSON, ...]],
        split: bool,
    ) -> Leak | None:
        viewer = alt.viewer
        ours = views.get(viewer)
        if ours is None:
            ours = views[viewer] = self._seen(real, viewer, position, split)
        theirs = self._seen(other, viewer, position, split)
        if ours == theirs:
            return None
        labels = ("shared", "own", "action") if split else ("view", "action")
        for label, a, b in zip(labels, ours, theirs, strict=True):
            key = first_difference(a, b, label)
            if key is not None:
                return Leak(
                    game=self.rules.name,
                    viewer=viewer,
                    position=position,
                    phase=real.phase,
                    after=self.actions[position - 1][1] if position else "",
                    what=alt.what,
                    key=key,
                    real=value_at(a, key),
                    alternative=value_at(b, key),
                )
        return None  # pragma: no cover - equal tuples were handled above

    @staticmethod
    def _seen(deal: Deal, viewer: Viewer, position: int, split: bool) -> tuple[JSON, ...]:
        """What ``viewer`` is shown at ``position``: the view (in its two parts where the
        game splits it) and the newest action as announced to it."""
        action = {"text": deal.action_seen_by(position - 1, viewer)} if position else {}
        if split:
            shared, own = deal.view_parts(viewer)
            return shared, own, action
        return deal.view(viewer), action


def compared_in_parts(deal_type: type[Deal]) -> bool:
    """Whether the oracle compares a view part by part (a leak then names its part,
    ``shared.`` or ``own.``): where a class writes :meth:`Deal.view_parts` below the
    class that writes :meth:`Deal.view`, the parts are that class's own. A view and its
    parts written by one class (:class:`~server.engine.trickdeal.TrickDeal` merges the
    parts into the view), or a view a class changed over its parts, are compared whole
    (``view.``); the two parts never share a key, so the whole view differs exactly
    where a part does.

    >>> from server.engine.trickdeal import TrickDeal
    >>> compared_in_parts(TrickDeal), compared_in_parts(Deal)
    (False, False)
    """

    def owner(name: str) -> type:
        return next(c for c in deal_type.__mro__ if name in vars(c))

    parts, view = owner("view_parts"), owner("view")
    return parts is not view and issubclass(parts, view)


def _places(dealt: Dealt) -> dict[int, int]:
    """Where each card was dealt: the seat's index for a hand, seats + i for talon place i."""
    place: dict[int, int] = {}
    for seat, hand in enumerate(dealt.hands):
        for card in cards_of(hand):
            place[card] = seat
    for i, card in enumerate(dealt.talon):
        place[card] = len(dealt.hands) + i
    return place
