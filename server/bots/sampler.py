"""Sampling a world: a full deal consistent with everything one seat has seen.

A *world* is a deal of the same game, options, seats and dealer whose hidden cards are
dealt at random, consistently with the information set (:mod:`server.bots.info`), and on
which the actions the seat saw are replayed by the engine. It is what a searching player
evaluates its moves in ("determinization"). A sampled world

* gives the seat exactly its own dealt hand (``hand_dealt``);
* gives every card another seat's action named (played, covered, taken, laid face up) to
  that seat, or to the talon (a declarer may have taken it from there), and a card an
  action shows to be held (an announced bird) to its holder;
* respects what the tricks showed: a seat that did not follow a group holds none of it
  (voids are learned from the trick core's rules at each card another seat played), and
  a card kept for the last trick left the hand early only when nothing else was legal;
* replaces each action the seat saw masked (a face-down discard, an unresolved
  reservation) by a legal action of the same player that the seat would see alike and
  that names none of the seat's own cards nor a card played;
* replays every seen action without refusal and gives the seat the identical view.

The places are the dealt hands ``0 … n-1`` (a seat holds its own, or the packet it chose
where the game says so) and the talon's slots ``n … n+t-1``. Cards are dealt to places by
constraint-aware random assignment (the most constrained card first, each to a random
allowed place weighted by the room left there, Kuhn's augmenting paths where a greedy deal
gets stuck); a world the engine refuses or that shows the seat another view is rejected,
and what the refusal proves is learned for the next tries: a card played cannot lie where
it lay (the player did not hold it; a talon slot the player did not take), a void seen in
a trick, the cards a view lists under a key (a talon shown, an open hand) lie where the
cards listed there lay. What a game's player module adds is read from it (``HOLDS``,
``LAST_RESORT``, ``PLACES``: :func:`_game_hints`). Everything is a pure function of the
information set and the ``random.Random`` given.
"""

from __future__ import annotations

import importlib
import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.bots.cardnames import kinds_in, kinds_named, kinds_of
from server.bots.infoformat import check_info
from server.bots.players import game_module_name
from server.engine.base import JSON, Deal, Dealt
from server.engine.bits import cards_of
from server.engine.errors import EngineError
from server.engine.registry import get_rules
from server.engine.tricks import TrickPlay

#: The verb of a card play in every game's canonical text (``"play T21"``).
PLAY = "play"
#: View keys that are the seat's own hand or derived from it (never learned from).
OWN_KEYS = frozenset({"hand", "hand_groups", "legal_actions", "seat"})
#: View keys that show played cards (known already).
PLAYED_KEYS = frozenset({"trick", "last_trick", "outcome"})


class SamplingError(RuntimeError):
    """No world consistent with the information set was found in the tries allowed, or
    the sampler cannot read this kind of information set yet."""


@dataclass(frozen=True, slots=True)
class Item:
    """One card of the pack whose place is to be dealt: its kind, the places allowed to
    it (a mask over places) and why (``"played"`` by a seat, ``"shown"`` in the view,
    ``"taken"`` from the talon by the seat itself, ``"unseen"``)."""

    kind: str
    card: int
    allowed: int
    why: str
    by: int = -1


@dataclass(frozen=True, slots=True)
class World:
    """A sampled world: the dealt cards and the deal replayed to the seat's position."""

    dealt: Dealt
    deal: Deal
    tries: int


class Sampler:
    """Samples worlds for one information set; what it learns carries over to later
    samples of the same set (see the module text)."""

    def __init__(self, info: Mapping[str, Any], tries: int = 400) -> None:
        """Read the information set: own cards, cards played by others, cards shown."""
        check_info(info)
        self.info = info
        self.rules = rules = get_rules(info["game"])
        self.pack = pack = rules.pack
        self.seats = n = rules.seats
        self.places = n + rules.talon_size
        self.viewer: int = info["seat"]
        self.tries = tries
        self.actions: list[tuple[int, str]] = [(int(s), str(t)) for s, t in info["actions"]]
        self.view: JSON = info["view"]
        talon_bits = ((1 << self.places) - 1) & ~((1 << n) - 1)
        copies = {kind: cards_of(mask) for kind, mask in pack.kind_mask.items()}
        hints = _game_hints(info["game"])
        own = kinds_of(pack, info["hand_dealt"])
        #: the dealt hand each seat holds (a game whose seats choose their packets says)
        places_hint = hints.get("PLACES")
        self.home_of: list[int] = list(range(n))
        if places_hint is not None:
            self.home_of = places_hint(info) or self.home_of
        self.home = self.home_of[self.viewer]
        if sum(own.values()) != rules.hand_size:
            # cards handed out by a later choice that the seat has not made yet: where its
            # own cards were dealt is not known
            raise SamplingError(
                f"seat {self.viewer} was dealt {sum(own.values())} cards, not "
                f"{rules.hand_size}: its hand is chosen later"
            )
        self.own_mask = 0
        for kind, count in own.items():
            for _ in range(count):
                self.own_mask |= 1 << copies[kind].pop(0)
        # the cards other seats' actions name (played, covered, taken, laid face up): held
        # by that seat then (a card of one copy counts once: its first naming)
        played: list[tuple[int, str]] = []
        named_once: set[str] = set()
        for seat, text in self.actions:
            if seat == self.viewer:
                continue
            for kind in kinds_named(pack, text):
                if pack.kind_mask[kind].bit_count() == 1:
                    if kind not in named_once and kind not in own:
                        named_once.add(kind)
                        played.append((seat, kind))
                elif text.split()[0] == PLAY:
                    played.append((seat, kind))
        mentioned = kinds_in(pack, {k: v for k, v in self.view.items() if k not in OWN_KEYS})
        for _, text in self.actions:
            mentioned.update(kinds_named(pack, text))
        self.items: list[Item] = []
        others = ((1 << n) - 1) & ~(1 << self.home)
        home = self.home_of
        holds: dict[str, tuple[str, ...]] = hints.get("HOLDS", {})
        #: refusal codes of cards a player may play only when nothing else is legal
        self.last_resort: frozenset[str] = frozenset(hints.get("LAST_RESORT", ()))
        held: dict[str, int] = {}  # kinds an action shows its player holds
        for seat, text in self.actions:
            for code in holds.get(text, ()) if seat != self.viewer else ():
                held[pack.cards[pack.parse(code)].kind] = seat
        for seat, kind in played:
            if copies[kind]:
                card = copies[kind].pop(0)
                allowed = (1 << home[seat]) | talon_bits
                self.items.append(Item(kind, card, allowed, "played", seat))
        for kind, seat in held.items():
            if copies[kind] and kind not in {k for _, k in played}:
                card = copies[kind].pop(0)
                self.items.append(Item(kind, card, (1 << home[seat]) | talon_bits, "shown", seat))
        # cards the seat holds or held that it was not dealt: they came from the talon
        # (a Sechserdreier's whole talon, taken unseen by the others)
        taken = self._taken_from_talon(own) if talon_bits else set()
        for kind in pack.kind_mask:
            for card in copies[kind]:
                if kind in taken:
                    self.items.append(Item(kind, card, talon_bits, "taken"))
                    continue
                why = (
                    "shown"
                    if pack.kind_mask[kind].bit_count() == 1 and (kind in mentioned)
                    else "unseen"
                )
                self.items.append(Item(kind, card, others | talon_bits, why))
        #: kinds a hidden choice never names: the seat's own and those played (one copy)
        single = {k for k, mask in pack.kind_mask.items() if mask.bit_count() == 1}
        self.seen_kinds = (set(own) | taken | {kind for _, kind in played}) & single
        self.learned: dict[int, int] = {}  # item index -> allowed mask learned
        self.voids_at: set[int] = set()  # action indices whose voids are learned
        self.masked_seats: set[int] = set()
        self.seen_as: dict[tuple[int, str], str] = {}
        #: why worlds were rejected so far (``"dead end"``, ``"refused <index> <code>"``,
        #: ``"hidden <index>"``, ``"view <keys>"``), for reports and tuning
        self.rejections: Counter[str] = Counter()
        self.by_card = {item.card: i for i, item in enumerate(self.items)}
        self.target = json.loads(json.dumps(self.view))

    def _taken_from_talon(self, own: Mapping[str, int]) -> set[str]:
        """The kinds (of one copy) the seat holds or has played, covered or laid away
        that it was not dealt: it took them from the talon."""
        pack = self.pack
        kinds = set(kinds_of(pack, [str(code) for code in self.view.get("hand") or []]))
        for seat, text in self.actions:
            if seat == self.viewer:
                kinds.update(kinds_named(pack, text))
        return {k for k in kinds - set(own) if pack.kind_mask[k].bit_count() == 1}

    # ------------------------------------------------------------------ dealing

    def allowed(self, index: int) -> int:
        """The places item ``index`` may be dealt to now (what was learned included)."""
        mask = self.items[index].allowed & self.learned.get(index, -1)
        return mask or self.items[index].allowed

    def deal(self, rng: random.Random) -> tuple[Dealt, list[int]] | None:
        """A random assignment of the items to places (``None``: a dead end); also the
        place of every card."""
        rules = self.rules
        room = [rules.hand_size] * self.seats + [1] * rules.talon_size
        room[self.home] = 0
        order = list(range(len(self.items)))
        rng.shuffle(order)
        allowed = [self.allowed(i) for i in range(len(self.items))]
        order.sort(key=lambda i: allowed[i].bit_count())
        place_of = [self.home] * len(self.pack)
        holding: list[list[int]] = [[] for _ in range(self.places)]  # items per place

        def seat(i: int, seen: set[int]) -> bool:
            """Find ``i`` a place, moving items already placed along (Kuhn's augmenting
            path): a greedy random deal can end where only a rearrangement fits."""
            choices = [p for p in range(self.places) if (allowed[i] >> p) & 1 and p not in seen]
            rng.shuffle(choices)
            for p in choices:
                seen.add(p)
                if room[p]:
                    room[p] -= 1
                    holding[p].append(i)
                    return True
                for j, other in enumerate(holding[p]):
                    if seat(other, seen):
                        holding[p][j] = i
                        return True
            return False

        for i in order:
            mask = allowed[i]
            choices = [p for p in range(self.places) if (mask >> p) & 1 and room[p]]
            if choices:
                place = rng.choices(choices, [room[p] for p in choices])[0]
                room[place] -= 1
                holding[place].append(i)
            elif not seat(i, set()):
                return None
        for place, items in enumerate(holding):
            for i in items:
                place_of[self.items[i].card] = place
        hands = [0] * self.seats
        talon = [0] * rules.talon_size
        for card, place in enumerate(place_of):
            if place < self.seats:
                hands[place] |= 1 << card
            else:
                talon[place - self.seats] = card
        return Dealt(tuple(hands), tuple(talon)), place_of

    # ------------------------------------------------------------------ replaying

    def sample(self, rng: random.Random) -> World:
        """One world (see the module text); :class:`SamplingError` after ``tries`` tries."""
        dead_ends = 0
        for attempt in range(1, self.tries + 1):
            dealt = self.deal(rng)
            if dealt is None:
                self.rejections["dead end"] += 1
                dead_ends += 1
                if dead_ends % 8 == 0:  # what was learned contradicts itself: start over
                    self.learned.clear()
                continue
            deal = self._replay(dealt[0], dealt[1], rng)
            if deal is not None:
                return World(dealt[0], deal, attempt)
        raise SamplingError(f"no world found in {self.tries} tries")

    def _new_deal(self, dealt: Dealt) -> Deal:
        info = self.info
        deal: Deal = self.rules.new_deal(dealt, info["options"], info["seats"], info["dealer"])
        return deal

    def _replay(self, dealt: Dealt, place_of: list[int], rng: random.Random) -> Deal | None:
        deal = self._new_deal(dealt)
        done: list[tuple[int, str]] = []
        for index, (seat, seen) in enumerate(self.actions):
            words = seen.split()
            if seat != self.viewer and len(words) == 2 and words[0] == PLAY:
                self._learn_voids(deal, index, seat, words[1])
            try:
                move = deal.parse(seen)
            except EngineError:
                text = self._hidden_choice(deal, index, seat, seen, done, rng)
                if text is None:
                    self.rejections[f"hidden {index}"] += 1
                    return None
                deal.act(seat, text)
                done.append((seat, text))
                continue
            try:
                deal.apply(move, seat)
            except EngineError as refusal:
                self.rejections[f"refused {index} {refusal.code}"] += 1
                if refusal.code in self.last_resort:
                    self._learn_last_resort(deal, seat, move)
                else:
                    self._learn_refusal(deal, seat, move, place_of)
                return None
            done.append((seat, seen))
        view = json.loads(json.dumps(deal.view(self.viewer)))
        if view != self.target:
            keys = [k for k in self.target if view.get(k) != self.target[k]]
            self.rejections[f"view {' '.join(keys)}"] += 1
            self._learn_view(view, place_of)
            return None
        return deal

    def _hidden_choice(
        self,
        deal: Deal,
        index: int,
        seat: int,
        seen: str,
        done: list[tuple[int, str]],
        rng: random.Random,
    ) -> str | None:
        """A legal action of ``seat`` that the viewer would see as ``seen`` and that names
        no card the viewer has seen elsewhere (``None``: there is none)."""
        texts = [
            t
            for t in deal.legal_texts(seat)
            if not any(k in self.seen_kinds for k in kinds_named(self.pack, t))
        ]
        rng.shuffle(texts)
        for text in texts:
            key = (index, text)
            looks = self.seen_as.get(key)
            if looks is None:
                probe = self._new_deal(deal.dealt)
                for actor, done_text in done:
                    probe.act(actor, done_text)
                probe.act(seat, text)
                looks = self.seen_as[key] = probe.action_seen_by(index, self.viewer)
            if looks == seen:
                if kinds_named(self.pack, text):  # its cards left the hand unseen
                    self.masked_seats.add(seat)
                return text
        return None

    # ------------------------------------------------------------------ learning

    def _learn_voids(self, deal: Deal, index: int, seat: int, code: str) -> None:
        """At a card ``seat`` played: the unseen cards it cannot hold (holding one, the
        trick core would have refused the card)."""
        if index in self.voids_at or seat in self.masked_seats:
            return
        play = trick_core(deal)
        if play is None:
            return
        self.voids_at.add(index)
        try:
            card = self.pack.parse(code)
        except EngineError:
            card = cards_of(self.pack.kind_mask[code])[0]
        trick = play.trick
        lead = trick[0] if trick else -1
        best = trick[play.best] if trick else 0
        legal = play.rules.legal
        bit = 1 << card
        for i, item in enumerate(self.items):
            if item.why == "played":
                continue
            if not (legal(bit | (1 << item.card), lead, best) >> card) & 1:
                self.learned[i] = self.learned.get(i, -1) & ~(1 << self.home_of[seat])

    def _learn_refusal(self, deal: Deal, seat: int, move: int, place_of: list[int]) -> None:
        """An action of ``seat`` was refused in this world. A card it played that it did
        not hold cannot have been dealt where it lay (and if that was a talon card, the
        seat did not take it: no card it played lay there); a card another refused action
        names (a talon card taken) cannot lie where it lay either."""
        pack = self.pack
        play = trick_core(deal)
        if 0 <= move < len(pack) and play is not None:
            if (play.hands[seat] >> move) & 1:
                return  # held: a void, learned at the card
            index = self._item_of(move, seat)
            if index is None:
                return
            place = place_of[self.items[index].card]
            self._restrict(index, ~(1 << place))
            if place >= self.seats:  # the seat did not take that talon card
                for i, item in enumerate(self.items):
                    if item.by == seat and i != index:
                        self._restrict(i, ~(1 << place))
            return
        for kind in kinds_named(pack, deal.move_text(move)):
            if pack.kind_mask[kind].bit_count() == 1:
                card = pack.parse(kind)
                index = self.by_card.get(card)
                if index is not None:
                    self._restrict(index, ~(1 << place_of[card]))

    def _learn_last_resort(self, deal: Deal, seat: int, move: int) -> None:
        """A card that may be played only as the last resort was played: its player held
        no other card the follow rules allowed then."""
        play = trick_core(deal)
        if play is None or not 0 <= move < len(self.pack):
            return
        trick = play.trick
        lead = trick[0] if trick else -1
        best = trick[play.best] if trick else 0
        legal = play.rules.legal
        for i, item in enumerate(self.items):
            if item.why != "played" and (legal((1 << move) | (1 << item.card), lead, best)
                                         >> item.card) & 1:  # fmt: skip
                self._restrict(i, ~(1 << self.home_of[seat]))

    def _item_of(self, card: int, seat: int) -> int | None:
        """The item of ``card``, or of another copy of its kind that ``seat`` played."""
        index = self.by_card.get(card)
        if index is not None:
            return index
        kind = self.pack.cards[card].kind
        for i, item in enumerate(self.items):
            if item.kind == kind and item.by == seat:
                return i
        return None

    def _learn_view(self, view: JSON, place_of: list[int]) -> None:
        """The view differs: the cards the real view lists under a key (or under a key of
        an object there, such as one seat's open hand) lie where the cards this world
        lists there lay."""
        for key, value in self.target.items():
            if key in OWN_KEYS or key in PLAYED_KEYS or view.get(key) == value:
                continue
            theirs = view.get(key)
            if isinstance(value, dict) and isinstance(theirs, dict):
                for sub, part in value.items():
                    if theirs.get(sub) != part:
                        self._learn_list(part, theirs.get(sub), place_of)
            else:
                self._learn_list(value, theirs, place_of)

    def _learn_list(self, value: object, theirs: object, place_of: list[int]) -> None:
        """Learn from one listing of cards that differs (see :meth:`_learn_view`)."""
        pack = self.pack
        ours_kinds = kinds_in(pack, value)
        their_kinds = kinds_in(pack, theirs)
        kinds = ours_kinds | their_kinds
        if not ours_kinds or any(pack.kind_mask[k].bit_count() != 1 for k in kinds):
            return
        if (
            isinstance(value, list)
            and isinstance(theirs, list)
            and their_kinds == ours_kinds
            and all(isinstance(code, str) for code in value)
        ):  # the same cards in another order: the list follows the places
            for mine, other in zip(value, theirs, strict=True):
                index = self.by_card.get(pack.parse(mine))
                if index is not None:
                    self._restrict(index, 1 << place_of[pack.parse(other)])
            return
        places = 0
        for kind in their_kinds:
            places |= 1 << place_of[pack.parse(kind)]
        for kind in ours_kinds:
            index = self.by_card.get(pack.parse(kind))
            if index is not None and places:
                self._restrict(index, places)

    def _restrict(self, index: int, mask: int) -> None:
        learned = self.learned.get(index, -1) & mask
        if learned & self.items[index].allowed:
            self.learned[index] = learned
        else:  # a contradiction: what was learned does not hold, start over for this card
            self.learned.pop(index, None)


def _game_hints(game: str) -> dict[str, Any]:
    """What a game's player module tells the sampler, or nothing: ``HOLDS``, action texts
    that show their player holds cards (an announced bird); ``LAST_RESORT``, the refusal
    codes of a card that may be played only when nothing else is legal (an announced
    Pfeife kept for the last trick); ``PLACES``, a function of the information set giving
    the dealt hand each seat holds (packets chosen after the deal), or ``None``."""
    try:
        module = importlib.import_module(game_module_name(game))
    except ModuleNotFoundError:
        return {}
    names = ("HOLDS", "LAST_RESORT", "PLACES")
    return {name: getattr(module, name) for name in names if hasattr(module, name)}


def trick_core(deal: Deal) -> TrickPlay | None:
    """The running tricks of a sampled world (:meth:`Deal.trick_core`)."""
    return deal.trick_core()


def sample_world(info: Mapping[str, Any], rng: random.Random) -> World:
    """One world for the information set ``info`` (a fresh :class:`Sampler`)."""
    return Sampler(info).sample(rng)
