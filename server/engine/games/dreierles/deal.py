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
    the lead, DL-A17); T21 may not go onto a trick holding the Sküs unless the player
    has no other trump.
``finished``
    The outcome is available.

Decisions where DECISIONS.md is silent (players of Mittelbaden would expect these):

* No bonuses in the Räuber: nobody is Alleinspieler and the text names only the payment
  of the player with the most points.
* The sitting-out dealer sees what a spectator sees and settles nothing (DL-A18).
* Bonuses held "zu Beginn" are judged on the 16 cards held at the first lead (DL-A11):
  for the declarer after the exchange.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar

from server.engine.base import JSON, Deal, Dealt, Move, Option, Rules, malformed_action
from server.engine.bits import cards_of, nth_card
from server.engine.cards import TAROCK
from server.engine.counting import PointCounter, format_thirds
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.dreierles.scoring import (
    FACTORS,
    Pfeife,
    declarer_wins,
    game_points,
    score_declarer_game,
    score_rauber,
)
from server.engine.tricks import tarock_rules


class Phase(StrEnum):
    """The phases of a deal (see the module text)."""

    AUCTION = "auction"
    DISCARD = "discard"
    DECLARE = "declare"
    KNOCK = "knock"
    PLAY = "play"
    FINISHED = "finished"


CONTRACTS = ("dreier", "zweier", "einer", "solo")
TITLES = {
    "dreier": "Dreier",
    "zweier": "Zweier",
    "einer": "Einer",
    "solo": "Solo",
    "raeuber": "Räuber",
}
TALON_TAKEN = {"dreier": 3, "zweier": 2, "einer": 1, "solo": 0}
SEAT_LETTERS = ("V", "M", "H")

# Move encoding: 0..53 play a card, 64+c discard c, 128 pass, 129..132 bids, then the rest.
DISCARD = 64
PASS = 128
BID = 128  # BID + 1 = dreier … BID + 4 = solo
KNOCK = 140
ANNOUNCE_PFEIFE = 141
FERTIG = 142


def _move_text(move: Move) -> str:
    if move < 54:
        return f"play {TAROCK.code(move)}"
    if DISCARD <= move < DISCARD + 54:
        return f"discard {TAROCK.code(move - DISCARD)}"
    if move == PASS:
        return "pass"
    if BID < move <= BID + 4:
        return f"bid {CONTRACTS[move - BID - 1]}"
    if move == KNOCK:
        return "knock"
    if move == ANNOUNCE_PFEIFE:
        return "announce pfeife"
    return "fertig"


#: The canonical text of every move, and the move of every canonical text.
MOVE_TEXTS: dict[Move, str] = {
    move: _move_text(move)
    for move in (*range(54), *range(DISCARD, DISCARD + 54), PASS, *range(BID + 1, BID + 5),
                 KNOCK, ANNOUNCE_PFEIFE, FERTIG)
}  # fmt: skip
MOVES_BY_TEXT: dict[str, Move] = {text: move for move, text in MOVE_TEXTS.items()}

PFEIFE = TAROCK.parse("T1")
MOND = TAROCK.parse("T21")
SKUS = TAROCK.parse("SK")
TRUMPS = TAROCK.suit_mask["T"]
KINGS = TAROCK.mask("HK KaK PK KrK")
TRULL = TAROCK.mask("SK T21 T1")
BIT_PFEIFE = 1 << PFEIFE
BIT_MOND = 1 << MOND
BIT_SKUS = 1 << SKUS
TRICK_RULES = tarock_rules(TAROCK)
COUNTER = PointCounter(TAROCK)
SUIT_NAMES = {"T": "Tarock", "H": "Herz", "Ka": "Karo", "P": "Pik", "Kr": "Kreuz"}


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
    )

    def deal_cards(self, order: Sequence[int]) -> Dealt:
        """Blind first (six cards, top first), then twice eight to V, M, H."""
        if sorted(order) != list(range(len(self.pack))):
            raise ValueError("order must be a permutation of the pack")
        talon = tuple(order[:6])
        hands = [0, 0, 0]
        pos = 6
        for _ in range(2):
            for seat in range(3):
                for c in order[pos : pos + 8]:
                    hands[seat] |= 1 << c
                pos += 8
        return Dealt(tuple(hands), talon)

    def deal_type(self) -> type[DreierlesDeal]:
        """Deals of Dreierles start in the auction."""
        return DreierlesDeal

    def contract_title(self, contract: str) -> str:
        """``"Dreier"`` … ``"Solo"``, ``"Räuber"``."""
        return TITLES.get(contract, super().contract_title(contract))

    def summarize(self, outcome: JSON) -> JSON:
        """Contract, declarer and result of a stored outcome; each seat's card points are
        those of its party (the declarer's with the discards, the opponents' with the rest
        of the blind; in the Räuber each player's own pile)."""
        contract = outcome["contract"]
        points = outcome["card_points"]
        if contract == "raeuber":
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
            "solo": contract == "solo",
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


class DreierlesDeal(Deal):
    """One deal of Dreierles (see the module text for the phases)."""

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
        self.calls: list[tuple[int, str]] = []
        self.bids = [0, 0, 0]  # 0 = passed / not spoken, 1..4 = the bid made
        self.high = 0
        self.contract = ""
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
        self.won = [0, 0, 0]
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.trick: list[int] = []
        self.leader = 0
        self._best = 0  # position in the current trick of the card winning it so far
        self._legal_mask = -1  # cache for the play phase
        self._outcome: JSON | None = None

    # ------------------------------------------------------------------ state

    @property
    def is_rauber(self) -> bool:
        """Whether everybody passed and the Räuber is played."""
        return self.contract == "raeuber"

    def _play_mask(self) -> int:
        """Legal cards for the seat to move in the play phase (cached until the next move)."""
        if self._legal_mask >= 0:
            return self._legal_mask
        seat = self._to_move
        assert seat is not None
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            legal = TRICK_RULES.legal(hand, trick[0], trick[self._best])
        else:
            legal = hand
        if self.contract == "raeuber":
            if len(self.tricks) == 2 and legal & BIT_PFEIFE:
                legal = BIT_PFEIFE
            elif legal & BIT_MOND and legal & TRUMPS & ~BIT_MOND:
                for c in trick:
                    if c == SKUS:
                        legal &= ~BIT_MOND
        elif (
            self.pfeife_announced
            and seat == self.declarer
            and legal & BIT_PFEIFE
            and legal != BIT_PFEIFE
            and len(self.tricks) < 15
        ):
            legal &= ~BIT_PFEIFE
        self._legal_mask = legal
        return legal

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, sorted."""
        phase = self._phase
        seat = self._to_move
        if seat is None:
            return []
        if phase == "play":
            return cards_of(self._play_mask())
        if phase == "auction":
            lowest = 4 if self.final_round else self.high + 1
            return [PASS, *range(BID + max(lowest, self.high + 1), BID + 5)]
        if phase == "discard":
            return [DISCARD + c for c in cards_of(self._discardable())]
        if phase == "declare":
            if not self.pfeife_announced and self.hands[seat] & BIT_PFEIFE:
                return [ANNOUNCE_PFEIFE, FERTIG]
            return [FERTIG]
        return [PASS, KNOCK]  # knock phase

    def random_action(self, rng: random.Random) -> tuple[int | None, Move]:
        """A uniformly random legal move; card plays are drawn straight from the legal mask."""
        if self._phase == "play":
            legal = self._legal_mask
            if legal < 0:
                legal = self._play_mask()
            return None, nth_card(legal, int(rng.random() * legal.bit_count()))
        return None, rng.choice(self.legal_moves())

    def random_move(self, rng: random.Random) -> Move:
        """A uniformly random legal move of the seat to move."""
        return self.random_action(rng)[1]

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Apply ``move`` after checking it; card plays take a short path (same checks)."""
        actor = self._to_move
        if (
            self._phase == "play"
            and 0 <= move < 54
            and (seat is None or seat == actor)
            and (self._play_mask() >> move) & 1
        ):
            assert actor is not None
            self.history.append((actor, move))
            self._play(actor, move)
            return
        super().apply(move, seat)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now (fast path for card plays)."""
        if self._phase == "play" and 0 <= move < 54:
            return bool((self._play_mask() >> move) & 1)
        return move in self.legal_moves()

    def _discardable(self) -> int:
        assert self.declarer is not None
        hand = self.hands[self.declarer]
        plain = hand & ~TRUMPS & ~KINGS
        if plain.bit_count() >= self.discards_left:
            return plain
        return plain | (hand & TRUMPS & ~TRULL)

    # ------------------------------------------------------------------ moves

    def _apply(self, move: Move) -> None:
        phase = self._phase
        seat = self._to_move
        assert seat is not None
        if phase == "play":
            self._play(seat, move)
        elif phase == "auction":
            self._call(seat, move)
        elif phase == "discard":
            card = move - DISCARD
            self.hands[seat] &= ~(1 << card)
            self.discards |= 1 << card
            if (TRUMPS >> card) & 1:
                self.open_discards |= 1 << card
            self.discards_left -= 1
            if not self.discards_left:
                self._phase = Phase.DECLARE
        elif phase == "declare":
            if move == ANNOUNCE_PFEIFE:
                self.pfeife_announced = True
            else:
                self._start_knocks()
        else:
            self._knock(seat, move)

    def _call(self, seat: int, move: Move) -> None:
        if move == PASS:
            self.calls.append((seat, "pass"))
        else:
            level = move - BID
            self.bids[seat] = level
            self.high = level
            self.declarer = seat
            self.calls.append((seat, CONTRACTS[level - 1]))
        if seat < 2:
            self._to_move = seat + 1
            return
        if self.declarer is None:
            self.contract = "raeuber"
            self._knock_queue = [0, 1, 2]
            self._next_knocker()
            return
        self.contract = CONTRACTS[self.high - 1]
        n = TALON_TAKEN[self.contract]
        for c in self.talon[:n]:
            self.taken |= 1 << c
        for c in self.talon[n:]:
            self.rest |= 1 << c
        self.hands[self.declarer] |= self.taken
        self._to_move = self.declarer
        self.discards_left = n
        self._phase = Phase.DISCARD if n else Phase.DECLARE

    def _start_knocks(self) -> None:
        declarer = self.declarer
        assert declarer is not None
        opponents = [(declarer + 1) % 3, (declarer + 2) % 3]
        if self.final_round:
            self._knock_queue = [o for o in opponents if not self.bids[o]]
        else:
            self._knock_queue = [o for o in opponents if self.bids[o]]
        self._next_knocker()

    def _next_knocker(self) -> None:
        if self._knock_queue:
            self._phase = Phase.KNOCK
            self._to_move = self._knock_queue.pop(0)
        else:
            self._begin_play()

    def _knock(self, seat: int, move: Move) -> None:
        if move == KNOCK:
            self.knocks.append(seat)
            if not self.is_rauber and seat != self.declarer:
                # one opponent knock at most; then the declarer may knock back
                assert self.declarer is not None
                self._knock_queue = [self.declarer]
        elif not self.is_rauber and seat == self.declarer:
            self._knock_queue = []
        self._next_knocker()

    def _begin_play(self) -> None:
        self._phase = Phase.PLAY
        self.start_hands = tuple(self.hands)
        self.leader = 0 if self.declarer is None else self.declarer
        self._to_move = self.leader
        self._legal_mask = -1

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        self._legal_mask = -1
        if len(trick) > 1 and (TRICK_RULES.beats[trick[self._best]] >> card) & 1:
            self._best = len(trick) - 1
        if len(trick) < 3:
            self._to_move = (seat + 1) % 3
            return
        winner = (self.leader + self._best) % 3
        self.won[winner] |= (1 << trick[0]) | (1 << trick[1]) | (1 << card)
        self.tricks.append((self.leader, (trick[0], trick[1], card), winner))
        self.trick = []
        self._best = 0
        self.leader = winner
        self._to_move = winner
        if len(self.tricks) == 16:
            self._to_move = None
            self._phase = Phase.FINISHED

    # ------------------------------------------------------------------ text

    def move_text(self, move: Move) -> str:
        """The canonical text of ``move``."""
        text = MOVE_TEXTS.get(move)
        if text is None:
            raise ValueError(f"no such move {move}")
        return text

    def parse(self, text: str) -> Move:
        """Read a move: ``pass``, ``bid <contract>``, ``discard <card>``, ``announce pfeife``,
        ``fertig``, ``knock``, ``play <card>`` (case and spacing are forgiven)."""
        move = MOVES_BY_TEXT.get(text)  # the canonical text, as the legal actions give it
        if move is not None:
            return move
        words = text.strip().lower().split()
        if not words:
            raise malformed_action(text)
        head, args = words[0], words[1:]
        if head in ("pass", "weiter") and not args:
            return PASS
        if head in ("knock", "klopfen") and not args:
            return KNOCK
        if head == "fertig" and not args:
            return FERTIG
        if head == "announce" and args == ["pfeife"]:
            return ANNOUNCE_PFEIFE
        if head == "bid" and len(args) == 1:
            if args[0] not in CONTRACTS:
                raise MalformedError(
                    "unknown_contract",
                    f"'{args[0]}' is not a Dreierles game (dreier, zweier, einer, solo)",
                    f"'{args[0]}' ist kein Dreierles-Spiel (dreier, zweier, einer, solo)",
                )
            return BID + 1 + CONTRACTS.index(args[0])
        if head in ("play", "discard") and len(args) == 1:
            card = TAROCK.parse(args[0])
            return card if head == "play" else DISCARD + card
        raise malformed_action(text)

    def explain_illegal(self, move: Move) -> IllegalActionError:
        """Say which rule forbids ``move`` for the seat to move."""
        seat = self._to_move
        text = self.move_text(move) if self._known(move) else str(move)
        wrong_phase = IllegalActionError(
            "wrong_phase",
            f"'{text}' is not possible in the {self._phase} phase",
            f"'{text}' ist in der Phase {self._phase} nicht möglich",
        )
        if seat is None:
            return IllegalActionError(
                "deal_finished", "the deal is finished", "das Spiel ist zu Ende"
            )
        if self._phase == "auction" and BID < move <= BID + 4:
            if self.final_round:
                return IllegalActionError(
                    "final_round_solo",
                    "in the final round only a Solo may be bid",
                    "in der Schlussrunde darf nur Solo geboten werden",
                )
            return IllegalActionError(
                "bid_too_low",
                f"you must bid higher than {TITLES[CONTRACTS[self.high - 1]]}; nobody holds",
                f"du musst höher bieten als {TITLES[CONTRACTS[self.high - 1]]}; "
                "es gibt kein Halten",
            )
        if self._phase == "discard" and DISCARD <= move < DISCARD + 54:
            card = move - DISCARD
            if not (self.hands[seat] >> card) & 1:
                return self._not_held(card)
            if (KINGS >> card) & 1:
                return IllegalActionError(
                    "discard_king",
                    "kings may not be discarded",
                    "Könige dürfen nicht abgelegt werden",
                )
            return IllegalActionError(
                "discard_trump",
                "trumps may not be discarded",
                "Trümpfe dürfen nicht abgelegt werden",
            )
        if self._phase == "declare" and move == ANNOUNCE_PFEIFE:
            return IllegalActionError(
                "no_pfeife",
                "only the declarer holding the Pfeife (T1) can lay it open",
                "nur der Alleinspieler mit der Pfeife (T1) kann sie offen ablegen",
            )
        if self._phase != "play" or move >= 54:
            return wrong_phase
        return self._explain_play(seat, move)

    @staticmethod
    def _known(move: Move) -> bool:
        return move < 54 or DISCARD <= move < DISCARD + 54 or PASS <= move <= FERTIG

    def _not_held(self, card: int) -> IllegalActionError:
        code = TAROCK.code(card)
        return IllegalActionError(
            "card_not_in_hand", f"you do not hold {code}", f"du hast {code} nicht"
        )

    def _explain_play(self, seat: int, card: int) -> IllegalActionError:
        hand = self.hands[seat]
        if not (hand >> card) & 1:
            return self._not_held(card)
        code = TAROCK.code(card)
        if self.trick:
            lead_suit = TAROCK.cards[self.trick[0]].suit
            name = SUIT_NAMES[lead_suit]
            follow = TAROCK.suit_mask[lead_suit] & hand
            if follow and not (follow >> card) & 1:
                rule = "Tarockzwang" if lead_suit == "T" else "Farbzwang"
                return IllegalActionError(
                    rule.lower(),
                    f"{rule}: {name} was led and you hold {name}",
                    f"{rule}: {name} ist ausgespielt und du hast {name}",
                )
            if not follow and hand & TRUMPS and not (TRUMPS >> card) & 1:
                return IllegalActionError(
                    "trumpfzwang",
                    f"Trumpfzwang: you cannot follow {name} and must play a trump",
                    f"Trumpfzwang: du kannst {name} nicht bedienen und musst stechen",
                )
        if self.is_rauber and card != PFEIFE and len(self.tricks) == 2:
            return IllegalActionError(
                "pfeife_third_trick",
                "Räuber: the Pfeife (T1) must be played to the third trick",
                "Räuber: die Pfeife (T1) muss zum dritten Stich gespielt werden",
            )
        if self.is_rauber and card == MOND:
            return IllegalActionError(
                "mond_on_skus",
                "Räuber: the Mond (T21) may not go onto the Sküs while you hold another trump",
                "Räuber: der Mond (T21) darf nicht auf den Sküs, solange du anderen Trumpf hast",
            )
        if card == PFEIFE:
            return IllegalActionError(
                "pfeife_announced",
                "the announced Pfeife may be played before the last trick "
                "only when it is your only legal card",
                "die angesagte Pfeife darf vor dem letzten Stich nur gespielt werden, "
                "wenn keine andere Karte erlaubt ist",
            )
        return IllegalActionError(
            "illegal_card",
            f"{code} may not be played now",
            f"{code} darf jetzt nicht gespielt werden",
        )

    # ------------------------------------------------------------------ views

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """Discards are face down: only the declarer sees which card (a trump is face up)."""
        seat, move = self.history[index]
        face_down = DISCARD <= move < DISCARD + 54 and not (TRUMPS >> (move - DISCARD)) & 1
        if face_down and viewer != seat and self._phase != "finished":
            return "discard"
        return self.move_text(move)

    def _trick_json(self, leader: int, cards: Sequence[int], winner: int | None) -> JSON:
        return {"leader": leader, "cards": [TAROCK.code(c) for c in cards], "winner": winner}

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: spectator or the sitting-out dealer).

        What every seat sees alike is built once per position (the table asks for every
        seat's view after each action) and shared; each call returns a fresh top-level
        dict, whose nested values the caller must not change.
        """
        public, own = self.view_parts(seat)
        return {**public, **own}

    def view_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        """The part of :meth:`view` every seat sees alike (built once per position) and the
        part only ``seat`` sees: its hand, its share of the blind, its legal actions."""
        finished = self._phase == "finished"
        declarer = self.declarer
        is_declarer = seat is not None and seat == declarer
        is_opponent = seat is not None and declarer is not None and seat != declarer
        view: JSON = {}
        view["seat"] = seat
        view["hand"] = TAROCK.codes(self.hands[seat]) if seat is not None else None
        view["talon_rest"] = TAROCK.codes(self.rest) if is_opponent or finished else None
        view["discards"] = TAROCK.codes(self.discards) if is_declarer or finished else None
        view["legal_actions"] = (
            self.legal_texts() if seat is not None and seat == self._to_move else []
        )
        if finished:
            view["outcome"] = self.outcome()
        return self._public_view(), view

    def _public_view(self) -> JSON:
        """The part of the view that is the same for every seat (cached per position)."""
        position = len(self.history)
        cached: tuple[int, JSON] | None = getattr(self, "_public_cache", None)
        if cached is not None and cached[0] == position:
            return cached[1]
        declarer = self.declarer
        won = [0, 0, 0]
        for _, _, winner in self.tricks:
            won[winner] += 1
        public: JSON = {
            "game": self.rules.name,
            "seats": list(self.seat_names),
            "dealer": self.dealer,
            "phase": self._phase,
            "to_move": self._to_move,
            "calls": [{"seat": s, "call": c} for s, c in self.calls],
            "contract": self.contract or None,
            "declarer": declarer,
            "factor": FACTORS.get(self.contract),
            "knocks": list(self.knocks),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "talon_taken": TAROCK.codes(self.taken),
            "talon_size": len(self.talon),
            "discard_count": self.discards.bit_count(),
            "open_discards": TAROCK.codes(self.open_discards),
            "pfeife_announced": self.pfeife_announced,
            "exposed": ["T1"]
            if self.pfeife_announced and declarer is not None and self.hands[declarer] & BIT_PFEIFE
            else [],
            "trick": self._trick_json(self.leader, self.trick, None),
            "last_trick": self._trick_json(*self.tricks[-1]) if self.tricks else None,
            "tricks_won": won,
        }
        self._public_cache = (position, public)
        return public

    def replay_state(self) -> JSON:
        """Every hand (in pack order, as the table shows them), the blind not taken by the
        declarer (top first), the discards, each seat's trick points and the party count
        (declarer with the discards, opponents with the rest of the blind; in the Räuber
        every pile and the blind), as the deal's counting method writes them."""
        declarer = self.declarer
        party: JSON | None = None
        if self.is_rauber:
            blind = sum(1 << c for c in self.talon)
            party = {
                "seats": [self._fmt(self.card_points(w)) for w in self.won],
                "blind": self._fmt(self.card_points(blind)),
            }
        elif declarer is not None and self.contract:
            opponents = 0
            for s in range(3):
                if s != declarer:
                    opponents |= self.won[s]
            party = {
                "declarer": self._fmt(self.card_points(self.won[declarer] | self.discards)),
                "opponents": self._fmt(self.card_points(opponents | self.rest)),
            }
        return {
            "hands": [TAROCK.codes(h) for h in self.hands],
            "talon": [TAROCK.code(c) for c in self.talon if not (self.taken >> c) & 1],
            "discards": TAROCK.codes(self.discards),
            "card_points": [self._fmt(self.card_points(w)) for w in self.won],
            "party_points": party,
        }

    def hidden_from(self, seat: int | None) -> int:
        """Cards ``seat`` may not see: other hands, the unseen blind, the declarer's discards."""
        if self._phase == "finished":
            return 0
        hidden = 0
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden |= hand
        blind = sum(1 << c for c in self.talon) & ~self.taken
        declarer = self.declarer
        if declarer is None or seat is None or seat == declarer:
            hidden |= blind
        if seat != declarer:
            hidden |= self.discards
        public = self.taken | self.open_discards
        if self.pfeife_announced:
            public |= BIT_PFEIFE
        return hidden & ~public

    def invariant_errors(self) -> list[str]:
        """Every card ends in exactly one pile; card points add up to 70 (210 thirds)."""
        errors: list[str] = []
        if self._phase != "finished":
            return errors
        piles = [*self.won, self.discards, self.rest]
        if self.is_rauber:
            piles.append(sum(1 << c for c in self.talon))
        union = 0
        for pile in piles:
            if union & pile:
                errors.append("a card lies in two piles")
            union |= pile
        if union != TAROCK.full or any(self.hands):
            errors.append("not every card ended in a pile")
        total = 210 if self.thirds else 70
        if self.is_rauber:
            counted = sum(self.card_points(p) for p in piles)
        else:
            declarer = self.declarer
            assert declarer is not None
            decl = self.won[declarer] | self.discards
            counted = self.card_points(decl) + self.card_points(union & ~decl)
        if counted != total:
            errors.append(f"card points add up to {counted}, not {total}")
        return errors

    # ------------------------------------------------------------------ outcome

    def card_points(self, mask: int) -> int:
        """Count a pile with the deal's counting method (whole points or thirds)."""
        return COUNTER.thirds(mask) if self.thirds else COUNTER.whole(mask)

    def _fmt(self, points: int) -> str:
        return format_thirds(points) if self.thirds else str(points)

    def outcome(self) -> JSON | None:
        """The result of the finished deal, or ``None`` while it runs."""
        if self._phase != "finished":
            return None
        if self._outcome is None:
            self._outcome = self._score()
        return self._outcome

    def _hand_bonuses(self) -> list[tuple[str, int]]:
        bonuses: list[tuple[str, int]] = []
        restrict = bool(self.options["hand_bonus_declarer_only"])
        for seat, hand in enumerate(self.start_hands):
            if (hand & TRUMPS).bit_count() >= 10 and (not restrict or seat == self.declarer):
                bonuses.append(("zehn_trumpf", seat))
            if hand & TRULL == TRULL and (not restrict or seat == self.declarer):
                bonuses.append(("drull", seat))
            if hand & KINGS == KINGS:
                bonuses.append(("vier_koenige", seat))
        return bonuses

    def _pfeife(self) -> Pfeife | None:
        """The Pfeife bonus: decided by trick 16 (an announced one is lost if played earlier)."""
        declarer = self.declarer
        assert declarer is not None
        leader, cards, winner = self.tricks[15]
        owner = (leader + cards.index(PFEIFE)) % 3 if PFEIFE in cards else None
        if self.pfeife_announced:
            return Pfeife("declarer", announced=True, won=owner == declarer == winner)
        if owner is None:
            return None
        side = "declarer" if owner == declarer else "opponents"
        return Pfeife(side, announced=False, won=owner == winner)

    def _score(self) -> JSON:
        tricks = [self._trick_json(*t) for t in self.tricks]
        if self.is_rauber:
            piles = [self.card_points(w) for w in self.won]
            value = int(self.options["final_rauber_points"]) if self.final_round else 2
            settlement, losers = score_rauber(piles, len(self.knocks), value)
            return {
                "contract": "raeuber",
                "declarer": None,
                "knocks": len(self.knocks),
                "tricks": tricks,
                "card_points": {
                    "seats": [self._fmt(p) for p in piles],
                    "blind": self._fmt(self.card_points(sum(1 << c for c in self.talon))),
                },
                "losers": losers,
                "premiums": [],
                "settlement": settlement,
            }
        declarer = self.declarer
        assert declarer is not None
        opponents = [s for s in range(3) if s != declarer]
        decl_pile = self.won[declarer] | self.discards
        opp_pile = self.won[opponents[0]] | self.won[opponents[1]] | self.rest
        d_points = self.card_points(decl_pile)
        o_points = self.card_points(opp_pile)
        game = game_points(
            self.contract,
            d_points,
            len(self.knocks),
            thirds=self.thirds,
            minimum=int(self.options["minimum_game_points"]),
        )
        bonuses = self._hand_bonuses()
        pfeife = self._pfeife()
        settlement = score_declarer_game(3, declarer, game, bonuses, pfeife)
        premiums: list[JSON] = [{"name": n, "seat": s, "points": 1} for n, s in bonuses]
        if pfeife is not None:
            premiums.append(
                {
                    "name": pfeife.name,
                    "side": pfeife.side,
                    "won": pfeife.won,
                    "points": pfeife.points,
                }
            )
        return {
            "contract": self.contract,
            "declarer": declarer,
            "knocks": len(self.knocks),
            "tricks": tricks,
            "card_points": {"declarer": self._fmt(d_points), "opponents": self._fmt(o_points)},
            "declarer_won": declarer_wins(d_points, self.thirds),
            "game_points": game,
            "premiums": premiums,
            "settlement": settlement,
        }
