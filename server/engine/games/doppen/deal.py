"""Doppen: the rules value and the deal state machine.

Implements ``shared/rules/doppen.txt`` with the DP rows of ``DECISIONS.md``. Seats are
numbered in playing order, anticlockwise: 0 = Vorhand (the dealer's right), 1 = Mittelhand,
2 = Hinterhand (the dealer when three play; with four the dealer sits out and is not a
seat of the deal, DP-A20).

Phases and their moves (canonical text in quotes):

``auction``
    From Vorhand: ``"pass"`` (Weiter, final), ``"hold"`` (only a seat earlier in order than
    the high bidder, DP-A4) or ``"bid dreier|unterer|zweier|einer|solo"`` above the high
    bid; the Unterer only over a Dreier (DP-A3). The bidding goes round until one bidder
    is left. Everybody passes: the deal is thrown in (each pays half the stake into the
    Pagatkasse, the match's business) and the next dealer deals.
``talon``
    The talon is turned up (Solo: skipped, the talon stays unseen). The declarer takes
    ``"take upper|lower"`` (Dreier, Unterer), ``"take upper|middle|lower"`` (Zweier) or
    ``"take <card>"`` (Einer), DP-A2.
``discard``
    As many cards as taken, one at a time (``"discard P7"``): never a König or Trull
    card; trumps only when no other card is left to discard, and then face up (DP-A5).
    The discards are the declarer's if he takes a trick, else the opponents' (DP-A6). The
    rest of the talon goes to the opponents' pile (DP-A7).
``announce``
    From the declarer, in turn (DP-A13, DP-A14): ``"announce pagat"`` / ``"announce uhu"``
    (the holder of T1 / T2), ``"announce valat"`` (the declarer), ``"kontra <item>"`` on
    the game, Valat, Pagat or Uhu of the other side, ``"re <item>"`` on a kontriertes item
    of one's own side, and so on without limit (:mod:`server.engine.doubling`);
    ``"gut"`` passes. A full round of "gut" after the last call ends the phase.
``play``
    ``"play HK"``; Vorhand leads trick 1 (DP-A1). Farbzwang, Trumpfzwang, no Stichzwang,
    no Kaiserstich (DP-A21, DP-A22). An announced Pagat (Uhu) may not be played before
    the last (second-last) trick unless nothing else is legal; the announced Uhu must be
    played in the second-last trick when the rules allow (``bird_announced``). After a
    declarer's announced Valat play stops once the opponents have a trick and no
    announced bird is still in its announcer's hand (DP-A16).

    The table signal: when the declarer leads, the second opponent (the seat playing
    third), able to win the trick, may put his card face down at once:
    ``"cover <card>"``, a call out of turn while his partner is to play. The card must be
    legal for him and beat the lead. Everybody sees that a card lies face down, nobody
    but its owner which; it is played by itself when the partner has played. The option
    ``table_signal`` (default on) allows it.
``finished``
    The outcome is available (:mod:`.outcome`).

Decisions where the text and DECISIONS.md are silent (tested in
``tests/engine/test_doppen_scenarios.py``):

* The whole talon is public once turned up: the cards the opponents get are the ones
  everybody saw (DP-A7 "unseen" only says they are not looked at again). In a Solo the
  talon stays unseen by everybody until the deal is over.
* The face-down card of the table signal counts as played in its place (third); only a
  card that beats the declarer's lead may be covered ("in der Lage den Stich zu
  gewinnen"); it cannot be taken back.
* A player forced to play an announced bird early may choose which (no "highest first").
* A kontriertes game also doubles a silent Valat, which takes the game's place (DP-A15).

Taking back a card (room option ``take_back``, **off** by default: the rules text has no
such rule): with it on, only the last card played, by its player, while its trick is open
and before anyone acted after it (:mod:`server.engine.tricks`, "Taking back a card"); a
card put face down by the table signal and the card it brought after it stay.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import ClassVar

from server.engine.auction import HOLD as HOLD_CALL
from server.engine.auction import PASS as PASS_CALL
from server.engine.auction import Auction
from server.engine.base import (
    JSON,
    TAKE_BACK_VERB,
    TALON,
    Move,
    Option,
    Rules,
    take_back_option,
)
from server.engine.bits import cards_of, nth_card
from server.engine.cards import TAROCK
from server.engine.counting import PointCounter
from server.engine.doubling import Doubling, codec_verbs
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppen.contracts import (
    ANNOUNCEABLE,
    BIDS,
    BIRDS,
    CONTRACTS,
    DISCARDS,
    DOUBLING,
    ITEMS,
    LADDER,
    TAKE_WORDS,
    TRICK_RULES,
    DoppenContract,
)
from server.engine.games.doppen.errors import play_error, refusal
from server.engine.games.doppen.outcome import score
from server.engine.moves import MoveCodec, Verb
from server.engine.tarock.premiums import bird_play_mask
from server.engine.tarock.talon import TalonRule, mask_of
from server.engine.trickdeal import TrickDeal
from server.engine.tricks import TrickPlay, TrickRules


class Phase(StrEnum):
    """The phases of a deal (see the module text)."""

    AUCTION = "auction"
    TALON = "talon"
    DISCARD = "discard"
    ANNOUNCE = "announce"
    PLAY = "play"
    FINISHED = "finished"


#: The phases the hot paths compare with, as plain names (an enum's members are looked up
#: through its metaclass, the slow way, every time).
AUCTION, ANNOUNCING = Phase.AUCTION, Phase.ANNOUNCE
COUNTER = PointCounter(TAROCK)
CARD_CODES = tuple(TAROCK.code(c) for c in range(len(TAROCK)))
TAKE_ARGS = (*TAKE_WORDS, *CARD_CODES)


def _read_take(text: str) -> int:
    word = text.strip().lower()
    if word in TAKE_WORDS:
        return TAKE_WORDS.index(word)
    return len(TAKE_WORDS) + TAROCK.parse(text)


def _unknown_contract(word: str) -> MalformedError:
    games = ", ".join(BIDS)
    return MalformedError(
        "unknown_contract",
        f"'{word}' is not a Doppen game ({games})",
        f"'{word}' ist kein Doppen-Spiel ({games})",
    )


#: The moves: ``play <card>`` is move ``card``; the rest follow in this order.
CODEC = MoveCodec(
    [
        Verb("play", CARD_CODES, what="card", read=TAROCK.parse),
        Verb("discard", CARD_CODES, what="card", read=TAROCK.parse),
        Verb("cover", CARD_CODES, what="card", read=TAROCK.parse, aliases=("verdeckt",)),
        Verb("pass", aliases=("weiter",)),
        Verb("hold", aliases=("halten", "halte")),
        Verb("bid", BIDS, what="contract", bad=_unknown_contract),
        Verb("take", TAKE_ARGS, what="talon choice", read=_read_take),
        Verb("announce", ANNOUNCEABLE, what="premium"),
        *codec_verbs(DOUBLING, ITEMS),
        TAKE_BACK_VERB,
    ]
)
DISCARD = CODEC.base["discard"]
COVER = CODEC.base["cover"]
TAKE = CODEC.base["take"]
PASS = CODEC.move("pass")
HOLD = CODEC.move("hold")
#: The move of every auction call.
CALL_MOVES = {PASS_CALL: PASS, HOLD_CALL: HOLD, **{b: CODEC.move("bid", b) for b in BIDS}}
#: The call of every auction move.
AUCTION_CALLS = {move: call for call, move in CALL_MOVES.items()}
#: The sorted moves of each list of legal calls met so far (a few dozen at most).
AUCTION_MOVES: dict[tuple[str, ...], list[Move]] = {}
ANNOUNCE = {code: CODEC.move("announce", code) for code in ANNOUNCEABLE}
ANNOUNCED = {move: code for code, move in ANNOUNCE.items()}
#: The move raising a chain (item, against, level) by one, and each doubling move read
#: (filled as they are met: the moves are kept read instead of written and parsed again).
RAISES: dict[tuple[str, int | None, int], Move] = {}
CALLS: dict[Move, tuple[str, str | None, int | None]] = {}
DOUBLING_VERBS = ("gut", *DOUBLING.words)
GUT = CODEC.move("gut")


class Doppen(Rules["DoppenDeal"]):
    """The game Doppen (Kirchberg am Wechsel): three active seats, the 54-card Tarock pack."""

    name = "doppen"
    title = "Doppen"
    pack = TAROCK
    seats = 3
    hand_size = 16
    talon_size = 6
    default_seat_names = ("V", "M", "H")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "table_signal",
            True,
            (True, False),
            "Der zweite Gegenspieler darf auf das Ausspiel des Alleinspielers seine "
            "stechende Karte sogleich verdeckt hinlegen.",
            "The second opponent may put his winning card face down at once when the "
            "declarer leads.",
        ),
        take_back_option(
            False,
            "Der Regeltext des Doppen kennt es nicht: gelegt ist gelegt.",
            "The Doppen rules text has no such rule: a card laid is laid.",
        ),
    )

    #: Talon first (six cards in order), then twice eight to V, M, H (DP-A1).
    dealing = ((TALON, 6), (0, 8), (1, 8), (2, 8), (0, 8), (1, 8), (2, 8))

    def deal_type(self) -> type[DoppenDeal]:
        """Deals of Doppen start in the auction."""
        return DoppenDeal

    def summarize(self, outcome: JSON) -> JSON:
        """Contract, declarer and result of a stored outcome; each seat's card points are
        its party's (``None`` for a thrown-in deal or a Valat)."""
        declarer = outcome["declarer"]
        if declarer is None:
            return {"contract": None, "declarer": None, "declarer_won": None,
                    "solo": False, "card_points": None}  # fmt: skip
        points = outcome["card_points"]
        card_points = (
            None
            if points is None
            else [points["declarer" if s == declarer else "opponents"] for s in range(3)]
        )
        return {
            "contract": outcome["contract"],
            "declarer": declarer,
            "declarer_won": outcome["per_opponent"] > 0,
            "solo": CONTRACTS[outcome["contract"]].solo,
            "card_points": card_points,
        }


class DoppenDeal(TrickDeal):
    """One deal of Doppen (see the module text for the phases)."""

    Phase = Phase
    codec = CODEC
    passive_moves = ("pass", "gut")  # the turn timer's choice where one is legal
    play_error = play_error
    # The deal's own state lives in slots: with the base's attributes, an instance dict of
    # more than 30 keys would lose CPython's key sharing, and with it the fast attribute
    # lookups of every action (tests/engine/test_deal_memory.py keeps the count down).
    __slots__ = ("_bird_cards", "_birds", "_choices", "announced",
                 "auction", "covered", "declarer", "discards", "discards_left", "doubling",
                 "open_discards", "rest", "row", "signal", "start_hands", "taken", "talon",
                 "talon_open")  # fmt: skip

    def _start(self) -> None:
        """Check the dealer's seat and set up the deal's state."""
        if self.dealer in self.seat_names[:2]:
            raise MalformedError(
                "bad_dealer",
                "the dealer is Hinterhand (seat 2) or sits out, never seat 0 or 1",
                "Der Geber ist Hinterhand (Sitz 2) oder setzt aus, nie Sitz 0 oder 1",
            )
        self.hands = list(self.dealt.hands)
        self.talon = self.dealt.talon
        self._phase = Phase.AUCTION
        self._to_move: int | None = 0
        self.auction = Auction(LADDER, 3)
        self.row: DoppenContract | None = None
        self.declarer: int | None = None
        self.talon_open = False
        self._choices: dict[Move, int] = {}  # the talon choices, once the talon is up
        self.taken = 0
        self.rest = 0
        self.discards = 0
        self.open_discards = 0
        self.discards_left = 0
        self.doubling: Doubling | None = None
        self.announced: dict[str, int] = {}
        self.start_hands: tuple[int, ...] = ()
        self.play: TrickPlay | None = None
        self.covered: tuple[int, int] | None = None
        # no covered card waits: a card needs no more than the trick core's bookkeeping
        self._plain_after_card = True
        self.signal = bool(self.options["table_signal"])
        #: the announced birds (card, trick) of each seat, fixed when play begins
        self._birds: tuple[list[tuple[int, int]], ...] = ([], [], [])
        self._bird_cards = [0, 0, 0]  # the same as masks

    # ------------------------------------------------------------------ state

    @property
    def contract(self) -> str:
        """The contract's code (``""`` while there is none)."""
        return "" if self.row is None else self.row.name

    @property
    def parties(self) -> tuple[int, ...]:
        """Each seat's side: 0 the declarer, 1 the opponents."""
        declarer = self.declarer
        return (int(declarer != 0), int(declarer != 1), int(declarer != 2))

    @property
    def ended_early(self) -> bool:
        """Whether play stopped before the last trick (a lost announced Valat, DP-A16)."""
        return self.play is not None and self.play.finished and len(self.play.tricks) < 16

    def chain_factors(self) -> dict[str, int]:
        """The doubling factor of every item (1 when not doubled)."""
        levels = {} if self.doubling is None else self.doubling.levels()
        return {item: 1 << levels.get(item, 0) for item in ITEMS}

    def piles(self) -> tuple[int, int]:
        """The declarer's pile (tricks, and the discards if he took a trick, DP-A6) and the
        opponents' (tricks, the rest of the talon, DP-A7)."""
        declarer = self.declarer
        assert declarer is not None
        won = self.won
        tricks = 0 if self.play is None else self.play.tricks_won[declarer]
        mine = won[declarer] | (self.discards if tricks else 0)
        theirs = won[(declarer + 1) % 3] | won[(declarer + 2) % 3] | self.rest
        return mine, theirs | (0 if tricks else self.discards)

    # ------------------------------------------------------------------ fast path

    def random_action(self, rng: random.Random) -> tuple[int | None, Move]:
        """A random legal action; now and then the table signal, when it is open."""
        play = self.play
        if play is not None and not play.finished:
            # now and then (30 %) the second opponent covers on the declarer's lead, if he can
            if (
                len(play.trick) == 1
                and play.leader == self.declarer
                and self.signal
                and rng.random() < 0.3
                and self.covered is None
            ):
                second = (play.leader + 2) % 3
                covers = self._covers(play, second)
                if covers:
                    return second, COVER + nth_card(covers, int(rng.random() * covers.bit_count()))
            legal = play.legal()
            return None, nth_card(legal, int(rng.random() * legal.bit_count()))
        phase = self._phase
        if phase is ANNOUNCING and rng.random() < 0.6:
            return None, GUT  # keeps random doubling chains short
        if phase is AUCTION and rng.random() < 0.5:
            return None, PASS  # thrown-in deals now and then
        return None, rng.choice(self.legal_moves())

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now; "weiter" in the auction and "gut" in the
        announcements are open to every seat on turn, without a list of the others."""
        phase = self._phase
        if phase is AUCTION:
            return move == PASS or move in self.legal_moves()
        if phase is ANNOUNCING:
            return move == GUT or move in self.legal_moves()
        return super().is_legal(move)

    # ------------------------------------------------------------------ auction

    def _legal_in_auction(self) -> list[Move]:
        calls = self.auction.legal()
        moves = AUCTION_MOVES.get(calls)
        if moves is None:
            moves = AUCTION_MOVES[calls] = sorted(CALL_MOVES[c] for c in calls)
        return moves

    def _apply_in_auction(self, seat: int, move: Move) -> None:
        auction = self.auction
        auction.call(AUCTION_CALLS[move])
        self.declarer = auction.winner
        if not auction.finished:
            assert auction.to_move is not None
            self._to_move = auction.to_move
            return
        if auction.high is None:  # everybody passed: thrown in
            self._phase = Phase.FINISHED
            self._to_move = None
            return
        row = self.row = CONTRACTS[auction.high]
        self._to_move = self.declarer
        if row.talon_rule.kind == "none":
            self.rest = mask_of(self.talon)
            self._begin_announce()
        else:
            self.talon_open = True
            self._phase = Phase.TALON
            self._choices = self._talon_choices()

    def _explain_in_auction(self, seat: int, move: Move) -> IllegalActionError:
        if move == HOLD:
            return refusal("auction", "no_holding")
        if not CODEC.is_verb(move, "bid"):
            return self.wrong_phase(move)
        reason = self.auction.explain(CODEC.arg_of(move)) or "bid_too_low"
        return refusal("auction", reason if reason == "not_after" else "bid_too_low")

    # ------------------------------------------------------------------ talon

    def _talon_choices(self) -> dict[Move, int]:
        """Each legal take move and the cards it takes."""
        row = self.row
        assert row is not None
        rule = row.talon_rule
        masks = rule.choices(self.talon)
        if rule.kind == "groups":
            words = row.talon_words
            return {TAKE + TAKE_WORDS.index(w): m for w, m in zip(words, masks, strict=True)}
        return {TAKE + len(TAKE_WORDS) + (m.bit_length() - 1): m for m in masks}

    def _legal_in_talon(self) -> list[Move]:
        return list(self._choices)

    def _apply_in_talon(self, seat: int, move: Move) -> None:
        taken = self._choices[move]
        self.taken = taken
        self.rest = TalonRule.rest(self.talon, taken)
        self.hands[seat] |= taken
        self.discards_left = taken.bit_count()
        self._phase = Phase.DISCARD

    def _explain_in_talon(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "take"):
            return self.wrong_phase(move)
        return refusal("talon", "choice", card=CODEC.arg_of(move))

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
            self._begin_announce()

    def _explain_in_discard(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "discard"):
            return self.wrong_phase(move)
        card = move - DISCARD
        reason = DISCARDS.explain(self.hands[seat], self.discards_left, card) or "not_held"
        return refusal("discard", reason, card=TAROCK.code(card))

    # ------------------------------------------------------------------ announce

    def _begin_announce(self) -> None:
        assert self.declarer is not None
        self._phase = Phase.ANNOUNCE
        self.doubling = Doubling(DOUBLING, self.parties, self.declarer, {"game": 0})
        self._to_move = self.doubling.to_move

    def _may_announce(self, seat: int, code: str) -> str | None:
        """Why ``seat`` may not announce ``code`` now (``None``: it may)."""
        if code in self.announced:
            return "twice"
        if code in BIRDS:
            return None if (self.hands[seat] >> BIRDS[code][0]) & 1 else code
        return None if seat == self.declarer else code

    def _legal_in_announce(self) -> list[Move]:
        doubling = self.doubling
        seat = self._to_move
        assert doubling is not None and seat is not None
        moves = [GUT]
        for chain in doubling.chains.values():
            if doubling.may_call(seat, chain):
                key = (chain.item, chain.against, chain.level)
                move = RAISES.get(key)
                if move is None:
                    move = RAISES[key] = CODEC.by_text[doubling.text(chain)]
                moves.append(move)
        moves += [ANNOUNCE[c] for c in ANNOUNCEABLE if self._may_announce(seat, c) is None]
        return moves

    def _apply_in_announce(self, seat: int, move: Move) -> None:
        doubling = self.doubling
        assert doubling is not None
        if move in ANNOUNCED:
            code = ANNOUNCED[move]
            doubling.announce(seat, code)
            self.announced[code] = seat
        else:
            call = CALLS.get(move)
            if call is None:
                call = CALLS[move] = doubling.parse(self.move_text(move))
            doubling.call(seat, *call)
        if doubling.finished:
            self._begin_play()
        else:
            self._to_move = doubling.to_move

    def _explain_in_announce(self, seat: int, move: Move) -> IllegalActionError:
        doubling = self.doubling
        assert doubling is not None
        if CODEC.is_verb(move, "announce"):
            reason = self._may_announce(seat, CODEC.arg_of(move)) or "twice"
            return refusal("announce", reason)
        if CODEC.verb_of(move)[0] not in DOUBLING_VERBS:
            return self.wrong_phase(move)
        try:  # an illegal call changes nothing: the round raises before it moves
            doubling.act(seat, self.move_text(move))
        except IllegalActionError as error:
            return error
        raise AssertionError("explained a legal doubling call")  # pragma: no cover

    # ------------------------------------------------------------------ play

    def _begin_play(self) -> None:
        self._phase = Phase.PLAY
        self.start_hands = tuple(self.hands)
        # the announced birds of each seat, fixed from now on (a rule only where one is)
        birds: tuple[list[tuple[int, int]], ...] = ([], [], [])
        for code, bird in BIRDS.items():
            seat = self.announced.get(code)
            if seat is not None:
                birds[seat].append(bird)
                self._bird_cards[seat] |= 1 << bird[0]
        self._birds = birds
        # a covered card needs no rule: it is played by itself before its owner's turn
        restrictions = [("bird_announced", self._bird_rule)] if any(birds) else []
        self.play = TrickPlay(
            TRICK_RULES,
            self.hands,
            leader=0,
            tricks=16,
            restrictions=restrictions,
            restricted=[seat for seat in range(3) if birds[seat]],
            ends_early=self._ends_early if "valat" in self.announced else None,
        )
        self._to_move = 0

    def _bird_rule(self, play: TrickPlay, seat: int, legal: int) -> int:
        """An announced bird stays for its trick (``bird_play_mask``)."""
        if not legal & self._bird_cards[seat]:
            return legal  # no announced bird among the cards it may play
        # a bird already played is in no legal mask, so all announced ones may be passed
        return bird_play_mask(
            legal, self._birds[seat], len(play.tricks), must_play_due=True, highest_first=False
        )

    def _ends_early(self, play: TrickPlay) -> bool:
        """DP-A16: an announced Valat is lost and no announced bird is still open."""
        declarer = self.declarer
        assert declarer is not None
        if play.tricks_won[declarer] == len(play.tricks):
            return False
        for code, (card, _trick) in BIRDS.items():
            who = self.announced.get(code)
            if who is not None and (self.hands[who] >> card) & 1:
                return False
        return True

    def _after_card(self, play: TrickPlay) -> None:
        """After a card: play a covered card once its turn has come, then move on."""
        covered = self.covered
        if covered is not None and not play.finished and play.to_move == covered[0]:
            self.covered = None
            self._plain_after_card = True
            play.play(covered[1])
        self._follow_tricks(play)

    def _explain_in_play(self, seat: int, move: Move) -> IllegalActionError:
        if CODEC.is_verb(move, "cover"):
            return refusal("play", "cover")
        return super()._explain_in_play(seat, move)

    def _cover_cards(self, seat: int) -> int:
        """The cards ``seat`` may put face down now (0: the signal is not open to it)."""
        play = self.play
        declarer = self.declarer
        if (
            not self.signal
            or play is None
            or play.finished
            or self.covered is not None
            or declarer is None
            or len(play.trick) != 1
            or play.leader != declarer
            or seat != (declarer + 2) % 3
        ):
            return 0
        return self._covers(play, seat)

    def _covers(self, play: TrickPlay, seat: int) -> int:
        """The cards of ``seat`` that follow the declarer's lead and beat it."""
        lead = play.trick[0]
        legal = TRICK_RULES.legal(self.hands[seat], lead, lead)
        if legal & self._bird_cards[seat]:
            legal = self._bird_rule(play, seat, legal)
        return legal & TRICK_RULES.beats[lead]  # no Kaiserstich: the higher card wins

    def _legal_off_turn_in_play(self, seat: int) -> list[Move]:
        return [COVER + c for c in cards_of(self._cover_cards(seat))]

    def _apply_off_turn_in_play(self, seat: int, move: Move) -> None:
        self.covered = (seat, move - COVER)
        self._plain_after_card = False  # the next card brings the covered one after it

    def explain_off_turn(self, seat: int, move: Move) -> IllegalActionError:
        """A refused table signal says why, and so does a card played beside a covered
        one; anything else is out of turn."""
        if CODEC.is_verb(move, "cover"):
            return refusal("play", "cover")
        covered = self.covered
        if covered is not None and covered[0] == seat and 0 <= move < self._cards:
            return play_error("covered", suit=None, card=TAROCK.code(covered[1]))
        return super().explain_off_turn(seat, move)

    # ------------------------------------------------------------------ views

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """Discards are face down (a trump is shown); a covered card stays hidden from the
        others until it is played."""
        seat, move = self.history[index]
        if viewer == seat or self._phase is Phase.FINISHED:
            return self.move_text(move)
        if CODEC.is_verb(move, "discard") and not DISCARDS.face_up(move - DISCARD):
            return "discard"
        if CODEC.is_verb(move, "cover") and (self.hands[seat] >> (move - COVER)) & 1:
            return "cover"
        return self.move_text(move)

    view_off_turn = True  # the table signal is a call out of turn

    def _sort_rules(self) -> TrickRules:
        return TRICK_RULES

    def _view_own(self, seat: int | None) -> JSON:
        """The seat's discards (the declarer's) and its covered card."""
        finished = self._phase is Phase.FINISHED
        covered = self.covered
        return {
            "discards": TAROCK.codes(self.discards)
            if finished or (seat is not None and seat == self.declarer)
            else None,
            "covered": TAROCK.code(covered[1])
            if covered is not None and seat == covered[0]
            else None,
        }

    def _view_public(self) -> JSON:
        """The auction, the contract, the talon, the discards, the announcements and the
        doubling, who covered a card."""
        finished = self._phase is Phase.FINISHED
        covered = self.covered
        row = self.row
        return {
            "calls": [{"seat": s, "call": c} for s, c in self.auction.calls],
            "high_bid": self.auction.high,
            "contract": self.contract or None,
            "declarer": self.declarer,
            "factor": None if row is None else row.value,
            "premium_factor": None if row is None else row.premium_factor,
            "talon": [TAROCK.code(c) for c in self.talon] if self.talon_open or finished else None,
            "talon_taken": TAROCK.codes(self.taken),
            "discard_count": self.discards.bit_count(),
            "open_discards": TAROCK.codes(self.open_discards),
            "announced": dict(self.announced),
            "doubling": None if self.doubling is None else self.doubling.view(),
            "covered_by": None if covered is None else covered[0],
        }

    def _hidden_extra(self, seat: int | None) -> int:
        """The talon until it is turned up (in a Solo: to the end), the discards laid face
        down (a covered card is in its owner's hand)."""
        hidden = 0 if self.talon_open else mask_of(self.talon)
        if seat is None or seat != self.declarer:
            hidden |= self.discards
        return hidden

    def _public_cards(self) -> int:
        return self.open_discards | (mask_of(self.talon) if self.talon_open else 0)

    def _talon_left(self) -> list[int]:
        return [c for c in self.talon if not (self.taken >> c) & 1]

    def _count(self, mask: int) -> str:
        return str(COUNTER.whole(mask))

    def _party_points(self) -> JSON | None:
        """The declarer's and the opponents' count once there is a declarer."""
        if self.row is None:
            return None
        mine, theirs = self.piles()
        return {"declarer": str(COUNTER.whole(mine)), "opponents": str(COUNTER.whole(theirs))}

    def invariant_errors(self) -> list[str]:
        """Every card ends in exactly one place; the two parties count 70 (full deals)."""
        errors: list[str] = []
        if self._phase is not Phase.FINISHED or self.row is None:
            return errors
        mine, theirs = self.piles()
        places = [mine, theirs, *self.hands]
        if self._place_errors(places, errors) != TAROCK.full:
            errors.append("not every card ended in a pile")
        if not self.ended_early:
            if any(self.hands):
                errors.append("cards are left in a hand")
            counted = COUNTER.whole(mine) + COUNTER.whole(theirs)
            if counted != 70:
                errors.append(f"card points add up to {counted}, not 70")
        return errors

    # ------------------------------------------------------------------ outcome

    def outcome(self) -> JSON | None:
        """The result of the finished deal, or ``None`` while it runs."""
        if self._phase is not Phase.FINISHED:
            return None
        outcome: JSON = self._cached("outcome", lambda: score(self))  # every view shows it
        return outcome
