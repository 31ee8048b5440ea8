"""The views every trick game shares: :class:`TrickDeal`, a card-play deal with default
:meth:`~TrickDeal.view`, :meth:`~TrickDeal.view_parts`, :meth:`~TrickDeal.replay_state`
and :meth:`~TrickDeal.hidden_from`.

A trick game's view has the same frame everywhere (its keys in ``docs/protocol.md``):

* every seat alike: ``game``, ``seats``, ``dealer``, ``phase``, ``to_move``, then the
  game's own keys (:meth:`~TrickDeal._view_public`: its auction, contract, talon…), then
  ``hand_sizes``, ``trick``, ``last_trick``, ``tricks_won`` and ``take_back``; built once
  per position and shared by every seat (:meth:`CardPlayDeal._cached`);
* the seat's own: ``seat``, ``hand``, ``hand_groups`` (by default in pack order and
  grouped by :meth:`~TrickDeal._sort_rules`; :meth:`~TrickDeal._hand_json` where a game
  shows its hand otherwise), the game's own keys (:meth:`~TrickDeal._view_own`: its
  discards, a blind share, whatever depends on who looks…), ``legal_actions`` (the seat to
  move only, or every seat with :attr:`~TrickDeal.view_off_turn`) and, once the deal is
  finished, ``outcome``.

The tricks show the cards by their pack codes (:meth:`~TrickDeal._view_trick` where a game
writes them otherwise: Doppelkopf numbers the copies of a kind in the order the table saw
them while the deal runs).

The replay state is the hands (:meth:`~TrickDeal._replay_hand`), the blind still lying
(:meth:`~TrickDeal._talon_left`), the discards (a game without any says so with
:attr:`~TrickDeal.has_discards`), each seat's card points (:meth:`~TrickDeal._count`), the
parties' (:meth:`~TrickDeal._party_points`) and the game's own keys
(:meth:`~TrickDeal._replay_extra`). The cards a seat may not see are the other hands and
what :meth:`~TrickDeal._hidden_extra` adds, but those :meth:`~TrickDeal._public_cards`
shows to everybody and those :meth:`~TrickDeal._shown_to` showed that seat; nothing once
the deal is finished.

The deal keeps ``hands`` (a mask per seat) and ``discards`` (a mask, unless
:attr:`~TrickDeal.has_discards` is false), and its ``finished`` phase is the one
:class:`~server.engine.base.Deal` found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from server.engine.base import JSON, CardPlayDeal
from server.engine.tricks import TrickRules, trick_json


class TrickDeal(CardPlayDeal):
    """A card-play deal with the views every trick game shares (see the module text); a
    game gives its own keys through the hooks and overrides a method only where it
    differs."""

    __slots__ = ()

    #: Whether ``legal_actions`` lists the moves of a seat not to move (calls out of turn,
    #: the take-back) too; else only the seat to move has legal actions in its view.
    view_off_turn: ClassVar[bool] = False
    #: Whether the game lays cards aside (``discards``, in the replay state); a game
    #: without discards has no such key there.
    has_discards: ClassVar[bool] = True

    hands: list[int]
    discards: int

    @property
    def tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """The tricks taken: ``(leader, cards, winner)``."""
        return [] if self.play is None else self.play.tricks

    @property
    def won(self) -> list[int]:
        """Each seat's won cards (a mask per seat)."""
        return [0] * len(self.seat_names) if self.play is None else self.play.won

    # ------------------------------------------------------------------ hooks

    def _sort_rules(self) -> TrickRules:
        """The trick rules a hand is sorted by now (``hand_groups``)."""
        raise NotImplementedError

    def _view_public(self) -> JSON:
        """The game's own keys of the part every seat sees alike."""
        return {}

    def _view_own(self, seat: int | None) -> JSON:
        """The game's own keys of the part only ``seat`` sees."""
        return {}

    def _hand_json(self, seat: int) -> tuple[list[str], list[JSON]]:
        """``seat``'s ``hand`` and ``hand_groups`` as its view shows them: by default the
        pack's codes in pack order, and grouped by :meth:`_sort_rules`."""
        pack = self.rules.pack
        hand = self.hands[seat]
        return pack.codes(hand), self._sort_rules().hand_groups(pack, hand)

    def _view_trick(self, leader: int, cards: Sequence[int], winner: int | None) -> JSON:
        """A trick as the view shows it (``trick``, ``last_trick``): by default
        :func:`~server.engine.tricks.trick_json` with the pack's codes."""
        return trick_json(self.rules.pack.code, leader, cards, winner)

    def _talon_left(self) -> list[int]:
        """The cards still lying in the blind, in order (the replay's ``talon``)."""
        return []

    def _count(self, mask: int) -> str:
        """The card points of ``mask`` as the game writes them (``"36"``, ``"35⅔"``)."""
        return str(self.rules.pack.points_of(mask))

    def _party_points(self) -> JSON | None:
        """The running count per party (``None`` while the parties are not set)."""
        return None

    def _replay_hand(self, seat: int) -> list[str]:
        """``seat``'s cards in the replay state (by default the pack's codes, pack order)."""
        return self.rules.pack.codes(self.hands[seat])

    def _replay_extra(self) -> JSON:
        """The game's own keys of the replay state, after the frame's."""
        return {}

    def _hidden_extra(self, seat: int | None) -> int:
        """The cards besides the other hands that ``seat`` may not see (an unseen talon,
        face-down discards)."""
        return 0

    def _public_cards(self) -> int:
        """Cards everybody may see wherever they lie (an open talon, open discards)."""
        return 0

    def _shown_to(self, seat: int | None) -> int:
        """Cards ``seat`` alone was shown and may see wherever they lie now (cards it
        exchanged face down with another seat); none by default."""
        return 0

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator or the sitting-out dealer).

        What every seat sees alike is built once per position (the table asks for every
        seat's view after each action) and shared; each call returns a fresh top-level
        dict, whose nested values the caller must not change.
        """
        public, own = self.view_parts(seat)
        return {**public, **own}

    def view_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        """The part of :meth:`view` every seat sees alike (built once per position and
        shared; the caller must not change it) and the part only ``seat`` sees: its hand,
        the game's own keys, its legal actions, the outcome."""
        finished = self._phase is self._finished_phase
        # the cache of the position (:meth:`_position_cache`, written out: every view asks)
        position = len(self.history)
        if self._cache_at != position:
            self._cache_at = position
            self._cache = cache = {}
        else:
            cache = self._cache
        public: JSON | None = cache.get("public")
        if public is None:
            public = cache["public"] = self._shared_view()
        if seat is None:
            own: JSON = {"seat": None, "hand": None, "hand_groups": None,
                         **self._view_own(None), "legal_actions": []}  # fmt: skip
        else:
            hand, groups = self._hand_json(seat)
            if finished:
                legal = []
            elif self.view_off_turn:
                legal = self.legal_texts(seat)
            else:
                legal = self.legal_texts() if seat == self._to_move else []
            own = {
                "seat": seat,
                "hand": hand,
                "hand_groups": groups,
                **self._view_own(seat),
                "legal_actions": legal,
            }
        if finished:
            own["outcome"] = self.outcome()
        return public, own

    def _shared_view(self) -> JSON:
        """The part of the view that is the same for every seat."""
        play = self.play
        trick = self._view_trick
        return {
            "game": self.rules.name,
            "seats": list(self.seat_names),
            "dealer": self.dealer,
            "phase": str(self._phase),
            "to_move": self._to_move,
            **self._view_public(),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trick": trick(0, (), None) if play is None else trick(play.leader, play.trick, None),
            "last_trick": trick(*play.tricks[-1]) if play is not None and play.tricks else None,
            "tricks_won": [0] * len(self.seat_names) if play is None else list(play.tricks_won),
            # who may take back the last card now (the room option ``take_back``)
            "take_back": self.take_back_seat(),
        }

    def replay_state(self) -> JSON:
        """Every hand, the blind still lying, the discards, each seat's card points, the
        parties' count and the game's own keys, every card open (never sent to a seat of a
        running deal)."""
        pack = self.rules.pack
        state: JSON = {
            "hands": [self._replay_hand(s) for s in range(len(self.hands))],
            "talon": [pack.code(c) for c in self._talon_left()],
        }
        if self.has_discards:
            state["discards"] = pack.codes(self.discards)
        state["card_points"] = [self._count(w) for w in self.won]
        state["party_points"] = self._party_points()
        state.update(self._replay_extra())
        return state

    def hidden_from(self, seat: int | None) -> int:
        """Cards ``seat`` may not see: the other hands and :meth:`_hidden_extra`, but not
        :meth:`_public_cards` nor what :meth:`_shown_to` ``seat``; nothing once the deal
        is finished."""
        if self._phase is self._finished_phase:
            return 0
        hidden = 0
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden |= hand
        return (hidden | self._hidden_extra(seat)) & ~(self._public_cards() | self._shown_to(seat))

    @staticmethod
    def _place_errors(
        places: Sequence[int], errors: list[str], twice: str = "a card lies in two places"
    ) -> int:
        """For :meth:`invariant_errors`: append ``twice`` to ``errors`` for every one of
        ``places`` (masks) that holds a card of an earlier one; return their union.

        >>> errors: list[str] = []
        >>> TrickDeal._place_errors([0b011, 0b100, 0b110], errors), errors
        (7, ['a card lies in two places'])
        """
        union = 0
        for place in places:
            if union & place:
                errors.append(twice)
            union |= place
        return union
