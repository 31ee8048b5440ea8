"""Dreierles: the rules value and the deal state machine.

Implements ``shared/rules/dreierles.txt`` with the DL rows of ``DECISIONS.md``. Seats are
numbered in playing order, anticlockwise: 0 = Vorhand (the dealer's right), 1 = Mittelhand,
2 = Hinterhand (the dealer when three play; with four the dealer sits out and is not a seat).

Phases and their moves (canonical text in quotes):

``auction``
    V, M, H speak once each: ``"pass"`` or ``"bid dreier|zweier|einer|solo"`` strictly
    above the current bid, no holding (DL-A2). In the final round of a Partie only
    ``"bid solo"`` is allowed. Everybody passes → Räuber.
``discard``
    The declarer has received the top 3/2/1 cards of the blind (talon list order, top
    first; they are shown to everybody); the rest of the blind goes to the opponents, who
    look at it, and counts for them (DL-A3). The declarer discards one card at a time
    (``"discard P7"``): no kings, no trumps; only if too few other cards remain may
    trumps other than the Trull be discarded, face up (DL-A4, practically unreachable).
    Discards count for the declarer.
``declare``
    ``"announce pfeife"`` (declarer holding T1: the Pfeife is laid open, DL-A13) and
    ``"fertig"``.
``knock``
    Declarer games: an opponent who made a bid may ``"knock"`` (or ``"pass"``); at most one
    opponent knocks, then the declarer may knock back (Gegenklopfen). In the final round's
    Solo only an opponent who has not bid may knock (DL-A8). Räuber: V, M, H may each knock
    once (DL-A16). Every knock doubles the game value, never the bonuses (DL-A9).
``play``
    ``"play HK"``. The declarer leads trick 1, in the Räuber Vorhand (DL-A14, DL-A16).
    Farbzwang, Trumpfzwang, no overtrump duty (DL-A15). An announced Pfeife may be played
    before the last trick only when it is the only legal card (and is then lost). Räuber:
    the Pfeife must be played to the third trick when the follow rules allow it (also as
    the lead, DL-A17), and in tricks 1 and 2 it may be played only when it is the only
    legal card (DL-A17 as sharpened); T21 may not go onto a trick holding the Sküs unless
    the player has no other trump. The tricks are played by the trick core
    (:class:`~server.engine.tricks.TrickPlay`); the contract's own rules are named
    restrictions listed in its row (:mod:`.contracts`), so an illegal card is explained
    by the same rule that removed it.
``finished``
    The outcome is available.

The auction, the blind and the discards come from the Tarock family layer
(:mod:`server.engine.tarock`); the contracts are rows of a table (:mod:`.contracts`);
the outcome is computed in :mod:`.outcome`, the texts of refused cards come from
:mod:`.errors`.
Views and outcomes carry codes only (contract and premium names); ``game-dreierles.po``
says them in German and English.

Decisions where DECISIONS.md is silent (players of Mittelbaden would expect these):

* No bonuses in the Räuber: nobody is Alleinspieler and the text names only the payment
  of the player with the most points.
* The sitting-out dealer sees what a spectator sees and settles nothing (DL-A18).
* Bonuses held "zu Beginn" are judged on the 16 cards held at the first lead (DL-A11):
  for the declarer after the exchange.

Taking back a card (room option ``take_back``, **off** by default: the rules text has no
such rule): with it on, only the last card played, by its player, while its trick is open
and before anyone acted after it (:mod:`server.engine.tricks`, "Taking back a card").
"""

from __future__ import annotations

import random
from enum import StrEnum
from functools import cache
from math import floor
from typing import ClassVar

from server.engine.auction import PASS as PASS_CALL
from server.engine.auction import Auction
from server.engine.base import (
    JSON,
    TAKE_BACK_VERB,
    TALON,
    Move,
    Option,
    Rules,
    malformed_action,
    take_back_option,
)
from server.engine.bits import cards_of
from server.engine.cards import TAROCK
from server.engine.counting import PointCounter, format_thirds
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.dreierles.contracts import (
    ALL_PASS,
    BIDS,
    BIT_PFEIFE,
    CONTRACTS,
    DISCARDS,
    FINAL_LADDER,
    KINGS,
    LADDER,
    PLAY_RULES,
    TRICK_RULES,
    DreierlesContract,
    announced_pfeife,
)
from server.engine.games.dreierles.errors import play_error
from server.engine.games.dreierles.outcome import score
from server.engine.moves import MoveCodec, Verb
from server.engine.tarock.talon import TalonRule, mask_of
from server.engine.trickdeal import TrickDeal
from server.engine.tricks import TrickPlay, TrickRules


class Phase(StrEnum):
    """The phases of a deal (see the module text)."""

    AUCTION = "auction"
    DISCARD = "discard"
    DECLARE = "declare"
    KNOCK = "knock"
    PLAY = "play"
    FINISHED = "finished"


COUNTER = PointCounter(TAROCK)
CARD_CODES = tuple(TAROCK.code(c) for c in range(len(TAROCK)))


def _unknown_contract(word: str) -> MalformedError:
    games = ", ".join(BIDS)
    return MalformedError(
        "unknown_contract",
        f"'{word}' is not a Dreierles game ({games})",
        f"'{word}' ist kein Dreierles-Spiel ({games})",
    )


#: The moves: ``play <card>`` is move ``card``; the rest follow in this order.
CODEC = MoveCodec(
    [
        Verb("play", CARD_CODES, what="card", read=TAROCK.parse),
        Verb("discard", CARD_CODES, what="card", read=TAROCK.parse),
        Verb("pass", aliases=("weiter",)),
        Verb("bid", BIDS, what="contract", bad=_unknown_contract),
        Verb("knock", aliases=("klopfen",)),
        Verb("announce", ("pfeife",), bad=lambda arg: malformed_action(f"announce {arg}")),
        Verb("fertig"),
        TAKE_BACK_VERB,
    ]
)
DISCARD = CODEC.base["discard"]
PASS = CODEC.move("pass")
BID = CODEC.base["bid"]
KNOCK = CODEC.move("knock")
ANNOUNCE_PFEIFE = CODEC.move("announce", "pfeife")
FERTIG = CODEC.move("fertig")
#: The move of every auction call.
CALL_MOVES = {PASS_CALL: PASS, **{bid: CODEC.move("bid", bid) for bid in BIDS}}


@cache
def _auction_moves(calls: tuple[str, ...]) -> tuple[Move, ...]:
    """The moves of the auction's legal ``calls`` (the same few tuples come back)."""
    return tuple(CALL_MOVES[c] for c in calls)


class Dreierles(Rules["DreierlesDeal"]):
    """The game Dreierles (Mittelbaden), three active seats with the 54-card Tarock pack."""

    name = "dreierles"
    title = "Dreierles"
    pack = TAROCK
    seats = 3
    hand_size = 16
    talon_size = 6
    default_seat_names = ("V", "M", "H")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "counting",
            "whole",
            ("whole", "thirds"),
            "Zählweise: ganze Punkte (Rest −1, Sieg ab 36) oder genaue Drittel (Sieg ab 35⅔).",
            "Counting: whole points (remainder −1, win from 36) or exact thirds (35⅔).",
        ),
        Option(
            "minimum_game_points",
            1,
            (1, 0),
            "Mindestwert eines gewonnenen Spiels, wenn nichts über 35 liegt (35:35).",
            "Least value of a won game when nothing lies above 35 (35:35).",
        ),
        Option(
            "hand_bonus_declarer_only",
            False,
            (False, True),
            "Zehn Trumpf und Drull nur für den Alleinspieler (Vier Könige für jeden).",
            "Zehn Trumpf and Drull count only for the declarer (Vier Könige for anyone).",
        ),
        Option(
            "final_rauber_points",
            4,
            (4, 2),
            "Wert des Räubers in der Schlussrunde (sonst 2).",
            "Value of a Räuber in the final round (otherwise 2).",
        ),
        Option(
            "final_round",
            False,
            (False, True),
            "Schlussrunde: nur Solo oder Räuber (setzt die Partie).",
            "Final round: only Solo or Räuber (set by the match).",
            per_room=False,
        ),
        take_back_option(
            False,
            "Der Regeltext des Dreierles kennt es nicht: gelegt ist gelegt.",
            "The Dreierles rules text has no such rule: a card laid is laid.",
        ),
    )

    #: Blind first (six cards, top first), then twice eight to V, M, H.
    dealing = ((TALON, 6), (0, 8), (1, 8), (2, 8), (0, 8), (1, 8), (2, 8))

    def deal_type(self) -> type[DreierlesDeal]:
        """Deals of Dreierles start in the auction."""
        return DreierlesDeal

    def summarize(self, outcome: JSON) -> JSON:
        """Contract, declarer and result of a stored outcome; each seat's card points are
        those of its party (the declarer's with the discards, the opponents' with the rest
        of the blind; in the Räuber each player's own pile)."""
        contract = outcome["contract"]
        points = outcome["card_points"]
        if not CONTRACTS[contract].declared:
            card_points = [points_value(p) for p in points["seats"]]
            return {"contract": contract, "declarer": None, "declarer_won": None,
                    "solo": False, "card_points": card_points}  # fmt: skip
        declarer = outcome["declarer"]
        card_points = [
            points_value(points["declarer" if s == declarer else "opponents"]) for s in range(3)
        ]
        return {
            "contract": contract,
            "declarer": declarer,
            "declarer_won": bool(outcome["declarer_won"]),
            "solo": CONTRACTS[contract].solo,
            "card_points": card_points,
        }


def points_value(text: str) -> float:
    """Card points as written in an outcome (``"35⅔"``, ``"36"``) as a number.

    >>> points_value("35⅔"), points_value("36"), points_value("0⅓")
    (35.666666666666664, 36.0, 0.3333333333333333)
    """
    thirds = {"⅓": 1, "⅔": 2}.get(text[-1:], 0)
    whole = text[:-1] if thirds else text
    return int(whole) + thirds / 3


class DreierlesDeal(TrickDeal):
    """One deal of Dreierles (see the module text for the phases).

    State: the :class:`Auction` (``calls``), the contract row, the blind's parts
    (``taken`` by the declarer, ``rest`` for the opponents), the discards, the knocks,
    and from the first lead on the :class:`TrickPlay` (``tricks``, the running trick, the
    won piles). Whatever is derived from the state is cached in one place
    (:meth:`_cached`), keyed by the position.
    """

    Phase = Phase
    codec = CODEC
    passive_moves = ("pass", "fertig")  # the turn timer's choice where one is legal
    play_error = play_error

    def _start(self) -> None:
        """Check the dealer's seat and set up the deal's state."""
        if self.dealer in self.seat_names[:2]:
            raise MalformedError(
                "bad_dealer",
                "the dealer is Hinterhand (seat 2) or sits out, never seat 0 or 1",
                "Der Geber ist Hinterhand (Sitz 2) oder setzt aus, nie Sitz 0 oder 1",
            )
        self.thirds = self.options["counting"] == "thirds"
        self.final_round = bool(self.options["final_round"])
        self.hands = list(self.dealt.hands)
        self.talon = self.dealt.talon
        self._phase = Phase.AUCTION
        self._to_move: int | None = 0
        self.auction = Auction(FINAL_LADDER if self.final_round else LADDER, 3)
        self.row: DreierlesContract | None = None
        self.declarer: int | None = None
        self.taken = 0  # blind cards given to the declarer (public)
        self.rest = 0  # blind cards for the opponents (seen by them)
        self.discards = 0
        self.open_discards = 0
        self.discards_left = 0
        self.pfeife_announced = False
        self.knocks: list[int] = []
        self._knock_queue: list[int] = []
        self.start_hands: tuple[int, ...] = ()
        self.play: TrickPlay | None = None

    # ------------------------------------------------------------------ state

    @property
    def contract(self) -> str:
        """The contract's code (``""`` during the auction)."""
        return "" if self.row is None else self.row.name

    @property
    def calls(self) -> list[tuple[int, str]]:
        """The auction's calls: ``(seat, "pass" | bid)``."""
        return self.auction.calls

    @property
    def is_rauber(self) -> bool:
        """Whether everybody passed and the Räuber is played."""
        return self.row is ALL_PASS

    @property
    def trick(self) -> list[int]:
        """The cards of the running trick, in playing order."""
        return [] if self.play is None else self.play.trick

    @property
    def bids(self) -> list[int]:
        """Per seat the place of its bid on the ladder (1 = Dreier … 4 = Solo; 0: passed
        or not spoken)."""
        bids = [0, 0, 0]
        for seat, call in self.auction.calls:
            if call != PASS_CALL:
                bids[seat] = BIDS.index(call) + 1
        return bids

    # ------------------------------------------------------------------ the fast path

    def random_action(self, rng: random.Random) -> tuple[int | None, Move]:
        """A uniformly random legal move; card plays are drawn straight from the legal mask."""
        play = self.play
        if play is not None and not play.finished:
            legal = play.legal()
            n = floor(rng.random() * legal.bit_count())  # int(): floor is a cheaper call
            while n:  # nth_card(legal, n), written out
                legal &= legal - 1
                n -= 1
            return None, (legal & -legal).bit_length() - 1
        return None, rng.choice(self.legal_moves())

    def random_move(self, rng: random.Random) -> Move:
        """A uniformly random legal move of the seat to move."""
        return self.random_action(rng)[1]

    # ------------------------------------------------------------------ auction

    def _legal_in_auction(self) -> list[Move]:
        return [*_auction_moves(self.auction.legal())]

    def _apply_in_auction(self, seat: int, move: Move) -> None:
        auction = self.auction
        auction.call(PASS_CALL if move == PASS else CODEC.arg_of(move))
        self.declarer = auction.winner  # the high bidder so far (views show him)
        if not auction.finished:
            assert auction.to_move is not None
            self._to_move = auction.to_move
            return
        if auction.high is None:
            self.row = ALL_PASS
            self._knock_queue = [0, 1, 2]
            self._next_knocker()
            return
        row = self.row = CONTRACTS[auction.high]
        self._take_blind(row.talon_rule)
        self._to_move = self.declarer
        self.discards_left = row.talon
        self._phase = Phase.DISCARD if row.talon else Phase.DECLARE

    def _take_blind(self, rule: TalonRule) -> None:
        (self.taken,) = rule.choices(self.talon)
        self.rest = TalonRule.rest(self.talon, self.taken)
        assert self.declarer is not None
        self.hands[self.declarer] |= self.taken

    def _explain_in_auction(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "bid"):
            return self.wrong_phase(move)
        if self.final_round:
            return IllegalActionError(
                "final_round_solo",
                "in the final round only a Solo may be bid",
                "in der Schlussrunde darf nur Solo geboten werden",
            )
        high = self.auction.high
        title = CONTRACTS[high].title if high is not None else ""
        return IllegalActionError(
            "bid_too_low",
            f"you must bid higher than {title}; nobody holds",
            f"du musst höher bieten als {title}; es gibt kein Halten",
        )

    # ------------------------------------------------------------------ discard

    def _legal_in_discard(self) -> list[Move]:
        assert self.declarer is not None
        hand = self.hands[self.declarer]
        return [DISCARD + c for c in cards_of(DISCARDS.discardable(hand, self.discards_left))]

    def _apply_in_discard(self, seat: int, move: Move) -> None:
        card = move - DISCARD
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.discards |= bit
        if DISCARDS.face_up(card):
            self.open_discards |= bit
        self.discards_left -= 1
        if not self.discards_left:
            self._phase = Phase.DECLARE

    def _explain_in_discard(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "discard"):
            return self.wrong_phase(move)
        card = move - DISCARD
        code = DISCARDS.explain(self.hands[seat], self.discards_left, card)
        if code == "not_held":
            return self._not_held(card)
        if (KINGS >> card) & 1:
            return IllegalActionError(
                "discard_king", "kings may not be discarded", "Könige dürfen nicht abgelegt werden"
            )
        return IllegalActionError(
            "discard_trump", "trumps may not be discarded", "Trümpfe dürfen nicht abgelegt werden"
        )

    # ------------------------------------------------------------------ declare

    def _legal_in_declare(self) -> list[Move]:
        seat = self._to_move
        assert seat is not None
        if not self.pfeife_announced and self.hands[seat] & BIT_PFEIFE:
            return [ANNOUNCE_PFEIFE, FERTIG]
        return [FERTIG]

    def _apply_in_declare(self, seat: int, move: Move) -> None:
        if move == ANNOUNCE_PFEIFE:
            self.pfeife_announced = True
            return
        declarer = self.declarer
        assert declarer is not None
        opponents = [(declarer + 1) % 3, (declarer + 2) % 3]
        # in the final round's Solo only an opponent who has not bid may knock (DL-A8)
        bids = self.bids
        self._knock_queue = [o for o in opponents if bool(bids[o]) != self.final_round]
        self._next_knocker()

    def _explain_in_declare(self, seat: int, move: Move) -> IllegalActionError:
        if move != ANNOUNCE_PFEIFE:
            return self.wrong_phase(move)
        return IllegalActionError(
            "no_pfeife",
            "only the declarer holding the Pfeife (T1) can lay it open",
            "nur der Alleinspieler mit der Pfeife (T1) kann sie offen ablegen",
        )

    # ------------------------------------------------------------------ knock

    def _legal_in_knock(self) -> list[Move]:
        return [PASS, KNOCK]

    def _apply_in_knock(self, seat: int, move: Move) -> None:
        row = self.row
        assert row is not None
        opponents_knock = row.knock == "opponents"
        if move == KNOCK:
            self.knocks.append(seat)
            if opponents_knock and seat != self.declarer:
                # one opponent knock at most; then the declarer may knock back
                assert self.declarer is not None
                self._knock_queue = [self.declarer]
        elif opponents_knock and seat == self.declarer:
            self._knock_queue = []
        self._next_knocker()

    def _next_knocker(self) -> None:
        if self._knock_queue:
            self._phase = Phase.KNOCK
            self._to_move = self._knock_queue.pop(0)
        else:
            self._begin_play()

    # ------------------------------------------------------------------ play

    def _begin_play(self) -> None:
        row = self.row
        assert row is not None
        self._phase = Phase.PLAY
        self.start_hands = tuple(self.hands)
        leader = 0 if row.leader == "vorhand" else self.declarer
        assert leader is not None
        restrictions = [PLAY_RULES[name] for name in row.play_rules]
        if self.pfeife_announced:
            restrictions.append(announced_pfeife(leader))
        self.play = TrickPlay(
            row.trick_rules, self.hands, leader=leader, tricks=16, restrictions=restrictions
        )
        self._to_move = leader

    def _not_held(self, card: int) -> IllegalActionError:
        return play_error("not_held", suit=None, card=TAROCK.code(card))

    # ------------------------------------------------------------------ views

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """Discards are face down: only the declarer sees which card (a trump is face up)."""
        seat, move = self.history[index]
        face_down = CODEC.is_verb(move, "discard") and not DISCARDS.face_up(move - DISCARD)
        if face_down and viewer != seat and self._phase is not Phase.FINISHED:
            return "discard"
        return self.move_text(move)

    def _sort_rules(self) -> TrickRules:
        return TRICK_RULES if self.row is None else self.row.trick_rules

    def _view_own(self, seat: int | None) -> JSON:
        """The seat's share of the blind (the opponents') and its discards (the declarer's)."""
        finished = self._phase is Phase.FINISHED
        declarer = self.declarer
        is_declarer = seat is not None and seat == declarer
        is_opponent = seat is not None and declarer is not None and seat != declarer
        return {
            "talon_rest": TAROCK.codes(self.rest) if is_opponent or finished else None,
            "discards": TAROCK.codes(self.discards) if is_declarer or finished else None,
        }

    def _view_public(self) -> JSON:
        """The auction, the contract and its knocks, the blind, the discards, the Pfeife."""
        declarer = self.declarer
        row = self.row
        return {
            "calls": [{"seat": s, "call": c} for s, c in self.auction.calls],
            "contract": self.contract or None,
            "declarer": declarer,
            "factor": None if row is None else row.factor,
            "knocks": list(self.knocks),
            "talon_taken": TAROCK.codes(self.taken),
            "talon_size": len(self.talon),
            "discard_count": self.discards.bit_count(),
            "open_discards": TAROCK.codes(self.open_discards),
            "pfeife_announced": self.pfeife_announced,
            "exposed": ["T1"]
            if self.pfeife_announced and declarer is not None and self.hands[declarer] & BIT_PFEIFE
            else [],
        }

    def parties(self) -> tuple[int, int] | None:
        """The declarer's pile (tricks and discards) and the opponents' (tricks and the
        rest of the blind); ``None`` without a declarer."""
        declarer = self.declarer
        if declarer is None:
            return None
        won = self.won
        opponents = won[(declarer + 1) % 3] | won[(declarer + 2) % 3]
        return won[declarer] | self.discards, opponents | self.rest

    def _talon_left(self) -> list[int]:
        """The blind not taken by the declarer (top first)."""
        return [c for c in self.talon if not (self.taken >> c) & 1]

    def _count(self, mask: int) -> str:
        """Card points as the deal's counting method writes them."""
        return self.fmt(self.card_points(mask))

    def _party_points(self) -> JSON | None:
        """Declarer with the discards, opponents with the rest of the blind; in the Räuber
        every pile and the blind."""
        if self.is_rauber:
            return {
                "seats": [self._count(w) for w in self.won],
                "blind": self._count(mask_of(self.talon)),
            }
        parties = self.parties() if self.row is not None else None
        if parties is None:
            return None
        return {"declarer": self._count(parties[0]), "opponents": self._count(parties[1])}

    def _hidden_extra(self, seat: int | None) -> int:
        """The unseen blind (to all but the opponents once there is a declarer), the
        declarer's discards."""
        hidden = 0
        declarer = self.declarer
        if declarer is None or seat is None or seat == declarer:
            hidden |= mask_of(self.talon) & ~self.taken
        if seat != declarer:
            hidden |= self.discards
        return hidden

    def _public_cards(self) -> int:
        """The blind taken, the open discards, an announced Pfeife."""
        public = self.taken | self.open_discards
        if self.pfeife_announced:
            public |= BIT_PFEIFE
        return public

    def invariant_errors(self) -> list[str]:
        """Every card ends in exactly one pile; card points add up to 70 (210 thirds)."""
        errors: list[str] = []
        if self._phase is not Phase.FINISHED:
            return errors
        piles = [*self.won, self.discards, self.rest]
        if self.is_rauber:
            piles.append(mask_of(self.talon))
        union = self._place_errors(piles, errors, "a card lies in two piles")
        if union != TAROCK.full or any(self.hands):
            errors.append("not every card ended in a pile")
        total = 210 if self.thirds else 70
        parties = self.parties()
        if parties is None:
            counted = sum(self.card_points(p) for p in piles)
        else:
            counted = self.card_points(parties[0]) + self.card_points(union & ~parties[0])
        if counted != total:
            errors.append(f"card points add up to {counted}, not {total}")
        return errors

    # ------------------------------------------------------------------ outcome

    def card_points(self, mask: int) -> int:
        """Count a pile with the deal's counting method (whole points or thirds)."""
        return COUNTER.thirds(mask) if self.thirds else COUNTER.whole(mask)

    def fmt(self, points: int) -> str:
        """Card points as the deal's counting method writes them (``"36"``, ``"35⅔"``)."""
        return format_thirds(points) if self.thirds else str(points)

    def outcome(self) -> JSON | None:
        """The result of the finished deal, or ``None`` while it runs."""
        if self._phase is not Phase.FINISHED:
            return None
        outcome: JSON = self._cached("outcome", lambda: score(self))
        return outcome
