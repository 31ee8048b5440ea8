"""The views every trick game shares: :class:`TrickDeal`, a card-play deal with default
:meth:`~TrickDeal.view`, :meth:`~TrickDeal.view_parts`, :meth:`~TrickDeal.replay_state`
and :meth:`~TrickDeal.hidden_from`.

A trick game's view has the same frame everywhere (its keys in ``docs/protocol.md``):

* every seat alike: ``game``, ``seats``, ``dealer``, ``phase``, ``to_move``, then the
  game's own keys (:meth:`~TrickDeal._view_public`: its auction, contract, talon…), then
  ``hand_sizes``, ``trick``, ``last_trick``, ``tricks_won`` and ``take_back``; built once
  per position and shared by every seat (:meth:`CardPlayDeal._cached`);
* the seat's own: ``seat``, ``hand``, ``hand_groups`` (sorted by
  :meth:`~TrickDeal._sort_rules`), the game's own keys (:meth:`~TrickDeal._view_own`:
  its discards, a blind share…), ``legal_actions`` (the seat to move only, or every seat
  with :attr:`~TrickDeal.view_off_turn`) and, once the deal is finished, ``outcome``.

The replay state is the hands, the blind still lying (:meth:`~TrickDeal._talon_left`),
the discards, each seat's card points (:meth:`~TrickDeal._count`) and the parties'
(:meth:`~TrickDeal._party_points`). The cards a seat may not see are the other hands and
what :meth:`~TrickDeal._hidden_extra` adds, but those :meth:`~TrickDeal._public_cards`
shows to everybody; nothing once the deal is finished.

The deal keeps ``hands`` (a mask per seat) and ``discards`` (a mask), and its ``finished``
phase is the one :class:`~server.engine.base.Deal` found.
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

    def _talon_left(self) -> list[int]:
        """The cards still lying in the blind, in order (the replay's ``talon``)."""
        return []

    def _count(self, mask: int) -> str:
        """The card points of ``mask`` as the game writes them (``"36"``, ``"35⅔"``)."""
        return str(self.rules.pack.points_of(mask))

    def _party_points(self) -> JSON | None:
        """The running count per party (``None`` while the parties are not set)."""
        return None

    def _hidden_extra(self, seat: int | None) -> int:
        """The cards besides the other hands that ``seat`` may not see (an unseen talon,
        face-down discards)."""
        return 0

    def _public_cards(self) -> int:
        """Cards everybody may see wherever they lie (an open talon, open discards)."""
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
            pack = self.rules.pack
            hand = self.hands[seat]
            if finished:
                legal = []
            elif self.view_off_turn:
                legal = self.legal_texts(seat)
            else:
                legal = self.legal_texts() if seat == self._to_move else []
            own = {
                "seat": seat,
                "hand": pack.codes(hand),
                "hand_groups": self._sort_rules().hand_groups(pack, hand),
                **self._view_own(seat),
                "legal_actions": legal,
            }
        if finished:
            own["outcome"] = self.outcome()
        return public, own

    def _shared_view(self) -> JSON:
        """The part of the view that is the same for every seat."""
        play = self.play
        code = self.rules.pack.code
        return {
            "game": self.rules.name,
            "seats": list(self.seat_names),
            "dealer": self.dealer,
            "phase": str(self._phase),
            "to_move": self._to_move,
            **self._view_public(),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trick": trick_json(code, 0, (), None) if play is None else play.trick_json(code),
            "last_trick": trick_json(code, *play.tricks[-1])
            if play is not None and play.tricks
            else None,
            "tricks_won": [0] * len(self.seat_names) if play is None else list(play.tricks_won),
            # who may take back the last card now (the room option ``take_back``)
            "take_back": self.take_back_seat(),
        }

    def replay_state(self) -> JSON:
        """Every hand (pack order), the blind still lying, the discards, each seat's card
        points and the parties' count, every card open (never sent to a seat of a running
        deal)."""
        pack = self.rules.pack
        won = self.won
        return {
            "hands": [pack.codes(h) for h in self.hands],
            "talon": [pack.code(c) for c in self._talon_left()],
            "discards": pack.codes(self.discards),
            "card_points": [self._count(w) for w in won],
            "party_points": self._party_points(),
        }

    def hidden_from(self, seat: int | None) -> int:
        """Cards ``seat`` may not see: the other hands and :meth:`_hidden_extra`, but not
        :meth:`_public_cards`; nothing once the deal is finished."""
        if self._phase is self._finished_phase:
            return 0
        hidden = 0
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden |= hand
        return (hidden | self._hidden_extra(seat)) & ~self._public_cards()

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
