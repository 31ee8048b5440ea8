"""Bayerisches Tarock (Haferltarock): the rules value and the deal state machine.

Implements ``shared/rules/bayerisches-tarock.txt`` with the BT rows of ``DECISIONS.md``.
Seats are numbered in playing order, clockwise: 0 = Vorhand (the dealer's left), 1 =
Mittelhand, 2 = Hinterhand (the dealer when three play; with four the dealer sits out and
is not a seat, BT-A15). The 36 German cards are dealt 4 to each, 3 to each, 3 to the
Stock, 4 to each (11 cards a hand).

Phases and their moves (canonical text in quotes):

``auction``
    With Reizen (default, BT-A1): V speaks first, ``"bid ich_spiele"`` or ``"pass"``; the
    first bid of the auction is always "Ich spiele". Then clockwise each passes or names a
    higher level (``"bid hand"``, ``"bid 66"`` … ``"bid 116"``, ``"bid durch"``; with the
    house rule ``bettel_beim_reizen`` ``"bid bettel"`` between Hand and 66, BT-A8); a seat
    before the high bidder may ``"hold"`` the same level; passes are final; the auction
    ends when one bidder is left. Without Reizen (option ``reizen`` off): V, M, H name
    their wish once each, ``"bid frage|frage_herz|hand|hand_herz|bettel"``, each higher
    than the last (the earlier seat wins a tie, BT-A14). Everybody passes: the deal is
    thrown in, the next dealer deals (BT-A16).
``game``
    With Reizen, the declarer says what he plays (``"game <word>"``): after "Ich spiele"
    the Stock game (``"game frage"``), a Hand game at 61 (``"game hand"``) or, where the
    Bettel is on the ladder, ``"game bettel"`` (the rules text's "Der Alleinspieler hat
    drei Möglichkeiten"); after a higher bid, that bid. With ``selbststeigern`` (BT-A2) he
    may raise his own target to any higher point level or Durch, only as a Hand game.
    When only one game is open to him the phase is skipped.
``discard``
    The Stock game (Frage, BT-A3): the declarer has taken the Stock and lays away any
    three cards (``"discard S7"``), face down; they count for him.
``trump``
    The declarer names the trump (``"trump E|G|H|S"``): in the Stock game after the
    exchange, in a Hand game before play (BT-A4). Only Herz with ``frage_nur_herz`` (Stock
    games, BT-A3) or the Berliner in Herz; without Reizen the Herz games are requests of
    their own, so ``frage`` and ``hand`` name Eichel, Gras or Schellen. A single choice is
    made without asking; the Bettel has no trump.
``kontra``
    Before the first card (BT-A13): from V, each seat says ``"gut"`` or the next call on
    the game, ``"kontra game"`` by an opponent (for both), ``"re game"`` by the declarer
    (with the house rule ``kontra = hirsch`` also Supp, Resupp, Hirsch). Off with
    ``kontra = off``.
``play``
    ``"play EA"``. V leads the first trick (BT-A5), whoever the declarer is. Farbzwang,
    Trumpfzwang and Stichzwang (BT-A6): follow suit; void, trump; void in both, any card;
    among the allowed cards, one that would take the trick if there is one, so a trump
    lying in a trick of another suit makes following "any card of the suit", and a player
    trumping must overtrump if he can. The trick goes to the highest card. In the Bettel
    (no trumps, ``A K O U 10 9 8 7 6``) Farbzwang always and Stichzwang unless
    ``bettel_stichzwang`` is off (BT-A7); the Bettel ends when the declarer takes a trick,
    Durch when he loses one.
``finished``
    The outcome is available (codes and numbers only; ``game-bayerisches-tarock.po`` says
    them in German and English).

Decisions where the text and DECISIONS.md are silent (what Bavarian players expect):

* "Ich spiele" won without being overcalled lets the declarer choose Stock game, Hand or
  (where the Bettel is on the ladder) Bettel: the text gives the declarer these three
  possibilities. A Hand game chosen this way has target 61 and counts the Hand unit, but
  no announced step.
* The Bettel on the ladder of the Reizen is worth 4 units, won or lost, as in the
  variant without Reizen; a lost Durch costs 14 (Durch counted as the twelfth step).
* The Berliner (BT-A17) with four players: the dealer sits out, so nobody may take the
  Stock in that deal. With Reizen and the Berliner, "Ich spiele" is the dealer's word
  only, and the others may open with "Hand".
* Without Reizen, ``frage_nur_herz`` or the Berliner in Herz remove the request ``frage``
  (a Stock game in another suit).
* The first Kontra round starts with V and ends after a full round of "gut"; one Kontra
  counts for both opponents.
* The view and the outcome show every card once the deal is finished (also the Stock of
  a Hand game and the discards).

Taking back a card (room option ``take_back``, **off** by default: the rules text has no
such rule): with it on, only the last card played, by its player, while its trick is open
and before anyone acted after it (:mod:`server.engine.tricks`, "Taking back a card").
"""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import ClassVar

from server.engine.auction import HOLD as HOLD_CALL
from server.engine.auction import PASS as PASS_CALL
from server.engine.auction import Auction, Ladder
from server.engine.base import (
    JSON,
    TAKE_BACK_VERB,
    TALON,
    Move,
    Option,
    Rules,
    take_back_option,
)
from server.engine.bits import cards_of
from server.engine.cards import GERMAN
from server.engine.counting import PointCounter
from server.engine.doubling import Doubling, DoublingRules, codec_verbs, word_not_played
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.bayerisches_tarock.contracts import (
    BETTEL,
    BETTEL_RULES,
    BID_WORDS,
    CONTRACTS,
    DURCH,
    GAME_WORDS,
    HAND,
    ICH_SPIELE,
    POINT_BIDS,
    SORT_RULES,
    SUITS,
    TRICKS,
    TRUMP_RULES,
    WISH_LADDER,
    BTContract,
    reiz_ladder,
    target_of,
)
from server.engine.games.bayerisches_tarock.errors import auction_error, play_error
from server.engine.games.bayerisches_tarock.outcome import score
from server.engine.moves import MoveCodec, Verb
from server.engine.tarock.talon import mask_of
from server.engine.trickdeal import TrickDeal
from server.engine.tricks import TrickPlay, TrickRules


class Phase(StrEnum):
    """The phases of a deal (see the module text)."""

    AUCTION = "auction"
    GAME = "game"
    DISCARD = "discard"
    TRUMP = "trump"
    KONTRA = "kontra"
    PLAY = "play"
    FINISHED = "finished"


COUNTER = PointCounter(GERMAN)
CARD_CODES = tuple(GERMAN.code(c) for c in range(len(GERMAN)))
#: Kontra ×2 and Re ×4 (BT-A13); the house rule adds Supp, Resupp and Hirsch.
KONTRA_RE = DoublingRules(words=("kontra", "re"), cap=2, doublable=frozenset({"game"}))
HIRSCH = DoublingRules(
    words=("kontra", "re", "supp", "resupp", "hirsch"), cap=5, doublable=frozenset({"game"})
)
DOUBLING = {"re": KONTRA_RE, "hirsch": HIRSCH}
#: The contract code of a deal nobody wanted to play.
THROWN_IN = "thrown_in"


def _unknown_bid(word: str) -> MalformedError:
    return MalformedError(
        "unknown_contract",
        f"'{word}' is not a bid of Bayerisches Tarock ({', '.join(BID_WORDS)})",
        f"'{word}' ist kein Gebot im Bayerischen Tarock ({', '.join(BID_WORDS)})",
    )


#: The moves: ``play <card>`` is move ``card``; the rest follow in this order.
CODEC = MoveCodec(
    [
        Verb("play", CARD_CODES, what="card", read=GERMAN.parse),
        Verb("discard", CARD_CODES, what="card", read=GERMAN.parse),
        Verb("pass", aliases=("weiter",)),
        Verb("hold", aliases=("halten",)),
        Verb("bid", BID_WORDS, what="contract", bad=_unknown_bid),
        Verb("game", GAME_WORDS, what="game"),
        Verb("trump", SUITS, what="suit"),
        *codec_verbs(HIRSCH, ["game"]),
        TAKE_BACK_VERB,
    ]
)
N_CARDS = len(GERMAN)
DISCARD = CODEC.base["discard"]
PASS = CODEC.move("pass")
GUT = CODEC.move("gut")
HOLD = CODEC.move("hold")
CALL_MOVES = {PASS_CALL: PASS, HOLD_CALL: HOLD, **{w: CODEC.move("bid", w) for w in BID_WORDS}}
STOCK_BIDS = frozenset({ICH_SPIELE, "frage", "frage_herz"})


class BayerischesTarock(Rules["BayerischesTarockDeal"]):
    """The game Bayerisches Tarock (Haferltarock), three active seats, 36 German cards."""

    name = "bayerisches-tarock"
    title = "Bayerisches Tarock"
    pack = GERMAN
    seats = 3
    hand_size = 11
    talon_size = 3
    default_seat_names = ("V", "M", "H")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "reizen",
            True,
            (True, False),
            "Reizen in Fünferschritten (sonst: Spielwünsche ohne Reizen mit festen Werten).",
            "Bidding in steps of five (else: requests without bidding, fixed values).",
        ),
        Option(
            "selbststeigern",
            False,
            (False, True),
            "Selbststeigern: der Alleinspieler darf sein Ziel selbst erhöhen (nur Hand).",
            "Selbststeigern: the declarer may raise his own target (Hand games only).",
        ),
        Option(
            "frage_nur_herz",
            False,
            (False, True),
            "Stockspiel (Frage) nur mit Herz als Trumpf.",
            "The Stock game (Frage) only with Herz as trump.",
        ),
        Option(
            "bettel_beim_reizen",
            False,
            (False, True),
            "Bettel beim Reizen, zwischen Hand und »fünf mehr«.",
            "Bettel in the bidding, between Hand and 'fünf mehr'.",
        ),
        Option(
            "bettel_stichzwang",
            True,
            (True, False),
            "Stichzwang auch im Bettel (Farbzwang gilt immer).",
            "Stichzwang in the Bettel too (Farbzwang always applies).",
        ),
        Option(
            "berliner",
            "off",
            ("off", "on", "herz"),
            "Berliner: nur der Geber darf mit dem Stock spielen (»herz«: nur in Herz).",
            "Berliner: only the dealer may play with the Stock ('herz': only in Herz).",
        ),
        Option(
            "kontra_rollentausch",
            False,
            (False, True),
            "Nach Kontra müssen die Gegenspieler das Ziel erreichen (nach Re wieder der "
            "Alleinspieler).",
            "After Kontra the opponents must reach the target (after Re the declarer again).",
        ),
        Option(
            "kontra",
            "re",
            ("re", "off", "hirsch"),
            "Kontra und Re vor dem ersten Ausspiel (»hirsch«: dazu Supp, Resupp, Hirsch).",
            "Kontra and Re before the first lead ('hirsch': Supp, Resupp, Hirsch too).",
        ),
        take_back_option(
            False,
            "Der Regeltext des Bayerischen Tarock kennt es nicht: gelegt ist gelegt.",
            "The Bavarian Tarock rules text has no such rule: a card laid is laid.",
        ),
    )

    #: Clockwise from V: four each, three each, three to the Stock, four each.
    dealing = ((0, 4), (1, 4), (2, 4), (0, 3), (1, 3), (2, 3), (TALON, 3), (0, 4), (1, 4), (2, 4))

    def deal_type(self) -> type[BayerischesTarockDeal]:
        """Deals of Bayerisches Tarock start in the auction."""
        return BayerischesTarockDeal

    def summarize(self, outcome: JSON) -> JSON:
        """Contract, declarer and result of a stored outcome; each seat's card points are
        those of its party (the declarer's with the Stock or the discards)."""
        declarer = outcome["declarer"]
        if declarer is None:
            return {"contract": outcome["contract"], "declarer": None, "declarer_won": None,
                    "solo": False, "card_points": None}  # fmt: skip
        augen = outcome["augen"]
        points = [augen["opponents"]] * 3
        points[declarer] = augen["declarer"]
        return {
            "contract": outcome["contract"],
            "declarer": declarer,
            "declarer_won": outcome["declarer_won"],
            "solo": outcome["hand"],
            "card_points": points,
        }


class BayerischesTarockDeal(TrickDeal):
    """One deal of Bayerisches Tarock (see the module text)."""

    Phase = Phase
    codec = CODEC
    passive_moves = ("pass", "gut")  # the turn timer's choice where one is legal
    play_error = play_error

    auction: Auction
    hands: list[int]
    stock: tuple[int, ...]
    declarer: int | None
    row: BTContract | None
    word: str | None
    target: int
    trump: str | None
    taken: int
    discards: int
    discards_left: int
    doubling: Doubling | None
    play: TrickPlay | None
    start_hands: tuple[int, ...]

    def _start(self) -> None:
        self.reizen = bool(self.options["reizen"])
        self.berliner = str(self.options["berliner"])
        self.dealer_seat = (
            self.seat_names.index(self.dealer) if self.dealer in self.seat_names else None
        )
        self.ladder: Ladder = (
            reiz_ladder(
                bettel=bool(self.options["bettel_beim_reizen"]),
                opening_only_ich_spiele=self.berliner == "off",
            )
            if self.reizen
            else WISH_LADDER
        )
        self.auction = Auction(self.ladder, 3)
        self.hands = list(self.dealt.hands)
        self.stock = self.dealt.talon
        self.declarer = None
        self.row = None
        self.word = None
        self.target = 61
        self.trump = None
        self.taken = 0
        self.discards = 0
        self.discards_left = 0
        self.doubling = None
        self.play = None
        self.start_hands = ()
        self._phase = Phase.AUCTION
        self._to_move = 0

    # ------------------------------------------------------------------ state

    @property
    def contract(self) -> str | None:
        """The contract's code (``None`` before it is known; ``"thrown_in"`` all passed)."""
        if self.row is not None:
            return self.row.name
        if self._phase is Phase.FINISHED:
            return THROWN_IN
        return None

    @property
    def thrown_in(self) -> bool:
        """Whether everybody passed (the deal is thrown in, BT-A16)."""
        return self._phase is Phase.FINISHED and self.row is None

    @property
    def kontra_factor(self) -> int:
        """The factor of Kontra, Re … on the game (1 without)."""
        return 1 if self.doubling is None else self.doubling.factor("game")

    @property
    def roles_switched(self) -> bool:
        """Whether a Kontra made the opponents the playing party (``kontra_rollentausch``,
        an odd number of calls on an Augen game, BT-A13)."""
        row = self.row
        if not self.options["kontra_rollentausch"] or self.doubling is None or row is None:
            return False
        return row.positive and not row.durch and self.doubling.level("game") % 2 == 1

    # ------------------------------------------------------------------ the fast path

    # ------------------------------------------------------------------ auction

    def _calls(self) -> list[str]:
        seat = self._to_move
        assert seat is not None
        return [c for c in self.auction.legal() if self._refusal(seat, c) is None]

    def _refusal(self, seat: int, call: str) -> str | None:
        """Our own limits on a call the ladder allows (the Berliner, Frage only in Herz)."""
        if call not in STOCK_BIDS:
            return None
        if self.berliner != "off" and seat != self.dealer_seat:
            return "stock_dealer_only"
        herz_only = bool(self.options["frage_nur_herz"]) or self.berliner == "herz"
        if call == "frage" and herz_only:
            return "stock_herz_only"
        return None

    def _legal_in_auction(self) -> list[Move]:
        return [CALL_MOVES[c] for c in self._calls()]

    def _apply_in_auction(self, seat: int, move: Move) -> None:
        auction = self.auction
        auction.call(CODEC.arg_of(move) if CODEC.is_verb(move, "bid") else CODEC.text(move))
        self.declarer = auction.winner
        if not auction.finished:
            assert auction.to_move is not None
            self._to_move = auction.to_move
            return
        if auction.high is None:  # everybody passed: thrown in (BT-A16)
            self.declarer = None
            self._phase = Phase.FINISHED
            self._to_move = None
            return
        if not self.reizen:
            self._start_game(CONTRACTS[auction.high], 61)
            return
        self._phase = Phase.GAME
        self._to_move = self.declarer
        choices = self._game_choices()
        if len(choices) == 1:
            self._choose_game(choices[0])

    def _explain_in_auction(self, seat: int, move: Move) -> IllegalActionError:
        if not (CODEC.is_verb(move, "bid") or move == HOLD):
            return self.wrong_phase(move)
        call = CODEC.arg_of(move) if move != HOLD else HOLD_CALL
        code = self.auction.explain(call) or self._refusal(seat, call) or "bid_too_low"
        if not self.reizen:  # wishes, not the Reizen: nobody holds
            code = {"bid_too_low": "wish_too_low", "no_holding": "no_holding_in_wishes"}.get(
                code, code
            )
        return auction_error(code)

    # ------------------------------------------------------------------ game

    def _game_choices(self) -> list[str]:
        """What the declarer may announce after the Reizen (see the module text)."""
        high = self.auction.high
        assert high is not None
        if high == ICH_SPIELE:
            choices = ["frage", HAND]
            if self.options["bettel_beim_reizen"]:
                choices.append(BETTEL)
            floor = -1
        elif high in (HAND, BETTEL, DURCH):
            choices = [high]
            floor = -1 if high == HAND else len(POINT_BIDS)
        else:
            choices = [high]
            floor = POINT_BIDS.index(high)
        if self.options["selbststeigern"] and high != BETTEL:
            choices += [*POINT_BIDS[floor + 1 :], *((DURCH,) if high != DURCH else ())]
        return choices

    def _legal_in_game(self) -> list[Move]:
        return [CODEC.move("game", w) for w in self._game_choices()]

    def _apply_in_game(self, seat: int, move: Move) -> None:
        self._choose_game(CODEC.arg_of(move))

    def _explain_in_game(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "game"):
            return self.wrong_phase(move)
        return IllegalActionError(
            "game_not_open",
            "you may play your bid, after 'Ich spiele' the Stock game, Hand or Bettel, "
            "and a higher target only with Selbststeigern",
            "du spielst dein Gebot, nach »Ich spiele« Stockspiel, Hand oder Bettel, "
            "ein höheres Ziel nur mit Selbststeigern",
        )

    def _choose_game(self, word: str) -> None:
        self.word = word
        if word == "frage":
            row = CONTRACTS["frage"]
        elif word == BETTEL:
            row = CONTRACTS[BETTEL]
        elif word == DURCH:
            row = CONTRACTS[DURCH]
        else:
            row = CONTRACTS[HAND]
        self._start_game(row, target_of(word))

    def _start_game(self, row: BTContract, target: int) -> None:
        self.row = row
        self.target = target
        assert self.declarer is not None
        if self.word is None:
            self.word = row.name
        if row.stock:
            self.taken = mask_of(self.stock)
            self.hands[self.declarer] |= self.taken
            self.discards_left = row.talon
            self._phase = Phase.DISCARD
            self._to_move = self.declarer
            return
        self._to_trump()

    # ------------------------------------------------------------------ discard

    def _legal_in_discard(self) -> list[Move]:
        assert self.declarer is not None
        return [DISCARD + c for c in cards_of(self.hands[self.declarer])]

    def _apply_in_discard(self, seat: int, move: Move) -> None:
        bit = 1 << (move - DISCARD)
        self.hands[seat] &= ~bit
        self.discards |= bit
        self.discards_left -= 1
        if not self.discards_left:
            self._to_trump()

    def _explain_in_discard(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "discard"):
            return self.wrong_phase(move)
        return play_error("not_held", suit=None, card=GERMAN.code(move - DISCARD))

    # ------------------------------------------------------------------ trump

    def _trump_choices(self) -> tuple[str, ...]:
        row = self.row
        assert row is not None
        herz_only = row.stock and (bool(self.options["frage_nur_herz"]) or self.berliner == "herz")
        return row.trump_choices(herz_only=herz_only, herz_apart=not self.reizen)

    def _to_trump(self) -> None:
        choices = self._trump_choices()
        if len(choices) > 1:
            self._phase = Phase.TRUMP
            self._to_move = self.declarer
            return
        self.trump = choices[0] if choices else None
        self._to_kontra()

    def _legal_in_trump(self) -> list[Move]:
        return [CODEC.move("trump", s) for s in self._trump_choices()]

    def _apply_in_trump(self, seat: int, move: Move) -> None:
        self.trump = CODEC.arg_of(move)
        self._to_kontra()

    def _explain_in_trump(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "trump"):
            return self.wrong_phase(move)
        return IllegalActionError(
            "trump_not_open",
            "this game is played in Eichel, Gras or Schellen (Herz is a game of its own)",
            "dieses Spiel geht in Eichel, Gras oder Schellen (Herz ist ein eigenes Spiel)",
        )

    # ------------------------------------------------------------------ kontra

    def _to_kontra(self) -> None:
        rules = DOUBLING.get(str(self.options["kontra"]))
        if rules is None:
            self._begin_play()
            return
        declarer = self.declarer
        parties = [0 if s == declarer else 1 for s in range(3)]
        self.doubling = Doubling(rules, parties, 0, {"game": 0})
        self._phase = Phase.KONTRA
        self._to_move = self.doubling.to_move

    def _legal_in_kontra(self) -> list[Move]:
        assert self.doubling is not None
        return [CODEC.by_text[t] for t in self.doubling.legal_texts()]

    def _apply_in_kontra(self, seat: int, move: Move) -> None:
        doubling = self.doubling
        assert doubling is not None
        doubling.act(seat, CODEC.text(move))
        if doubling.finished:
            self._begin_play()
        else:
            self._to_move = doubling.to_move

    def forced_move(self) -> Move | None:
        """A lone "gut" in the Kontra round: the seat to move has no call open to it (the
        declarer before any Kontra, an opponent after the Kontra that counts for both,
        everybody once the last level the table plays is called), so "gut" is its only
        move and commits it to nothing. ``None`` in every other case."""
        if self._phase is not Phase.KONTRA:
            return None
        legal = self._legal_in_kontra()
        return GUT if legal == [GUT] else None

    def _explain_in_kontra(self, seat: int, move: Move) -> IllegalActionError:
        doubling = self.doubling
        assert doubling is not None
        text = self.move_text(move) if 0 <= move < len(CODEC) else str(move)
        try:
            doubling.parse(text)
        except MalformedError:
            word = text.split()[0]
            if word in HIRSCH.words:  # a doubling word, but not one of this table's
                return word_not_played(word, doubling.rules.words)
            return self.wrong_phase(move)
        try:  # the doubling round says why, on a copy (an illegal call changes nothing)
            copy.deepcopy(doubling).act(seat, text)
        except IllegalActionError as error:
            return error
        return IllegalActionError(  # pragma: no cover - legal moves never get here
            "not_doublable", "this call is not possible now", "diese Ansage geht jetzt nicht"
        )

    # ------------------------------------------------------------------ play

    def trick_rules(self) -> TrickRules:
        """The trick rules of the game being played."""
        if self.trump is not None:
            return TRUMP_RULES[self.trump]
        return BETTEL_RULES[bool(self.options["bettel_stichzwang"])]

    def _sort_rules(self) -> TrickRules:
        """The trick rules a hand is sorted by: those of the game once its trump is named
        (or a Bettel is played), before that every suit plain (no trump is known)."""
        if self.trump is not None or (self.row is not None and not self.row.positive):
            return self.trick_rules()
        return SORT_RULES

    def _begin_play(self) -> None:
        row = self.row
        declarer = self.declarer
        assert row is not None and declarer is not None
        self._phase = Phase.PLAY
        self.start_hands = tuple(self.hands)

        def ends_early(play: TrickPlay) -> bool:
            taker = play.tricks[-1][2]
            if not row.positive:  # Bettel: the declarer's first trick loses it
                return taker == declarer
            if row.durch:  # Durch: the first trick lost loses it
                return taker != declarer
            return False

        self.play = TrickPlay(
            self.trick_rules(), self.hands, leader=0, tricks=TRICKS, ends_early=ends_early
        )
        self._to_move = 0

    # ------------------------------------------------------------------ views

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """Discards are face down: only the declarer sees which card, until the end."""
        seat, move = self.history[index]
        if CODEC.is_verb(move, "discard") and viewer != seat and self._phase is not Phase.FINISHED:
            return "discard"
        return self.move_text(move)

    def _view_own(self, seat: int | None) -> JSON:
        """The Stock the declarer took and his discards."""
        finished = self._phase is Phase.FINISHED
        is_declarer = seat is not None and seat == self.declarer
        return {
            "stock": GERMAN.codes(mask_of(self.stock))
            if finished or (is_declarer and self.taken)
            else None,
            "discards": GERMAN.codes(self.discards) if finished or is_declarer else None,
        }

    def _view_public(self) -> JSON:
        """The auction, the game, the trump, the Kontra, the Stock."""
        row = self.row
        return {
            "reizen": self.reizen,
            "calls": [{"seat": s, "call": c} for s, c in self.auction.calls],
            "high_bid": self.auction.high,
            "declarer": self.declarer,
            "contract": self.contract,
            "announced": self.word,
            "target": self.target if row is not None and row.positive and not row.durch else None,
            "hand_game": None if row is None else row.hand,
            "trump": self.trump,
            "kontra": None if self.doubling is None else self.doubling.view(),
            # the table shows "(×2)" after the contract once it is doubled, nothing before
            "factor": self.kontra_factor if self.kontra_factor > 1 else None,
            "stock_size": len(self.stock),
            "stock_taken": bool(self.taken),
            "discard_count": self.discards.bit_count(),
        }

    def parties(self) -> tuple[int, int] | None:
        """The declarer's pile (tricks and the Stock or the discards) and the opponents'
        (their tricks); ``None`` without a declarer's game."""
        declarer, row = self.declarer, self.row
        if declarer is None or row is None:
            return None
        won = self.won
        extra = self.discards if row.stock else mask_of(self.stock)
        return won[declarer] | extra, won[(declarer + 1) % 3] | won[(declarer + 2) % 3]

    def _talon_left(self) -> list[int]:
        """The Stock while nobody took it."""
        return [] if self.taken else list(self.stock)

    def _count(self, mask: int) -> str:
        """The Augen of a pile."""
        return str(COUNTER.raw(mask))

    def _party_points(self) -> JSON | None:
        parties = self.parties()
        if parties is None:
            return None
        return {"declarer": self._count(parties[0]), "opponents": self._count(parties[1])}

    def _hidden_extra(self, seat: int | None) -> int:
        """The Stock nobody took, the declarer's discards."""
        hidden = 0 if self.taken else mask_of(self.stock)
        if seat is None or seat != self.declarer:
            hidden |= self.discards
        return hidden

    def invariant_errors(self) -> list[str]:
        """Every card ends in exactly one place; a game played to the last trick counts
        120 Augen between the parties."""
        errors: list[str] = []
        if self._phase is not Phase.FINISHED:
            return errors
        places = [*self.won, *self.hands, self.discards, 0 if self.taken else mask_of(self.stock)]
        if self._place_errors(places, errors) != GERMAN.full:
            errors.append("a card got lost")
        parties = self.parties()
        if parties is not None and len(self.tricks) == TRICKS:
            total = COUNTER.raw(parties[0]) + COUNTER.raw(parties[1])
            if total != 120:
                errors.append(f"the Augen add up to {total}, not 120")
        if self.row is None and self.tricks:
            errors.append("a thrown-in deal has tricks")
        return errors

    # ------------------------------------------------------------------ outcome

    def augen(self, mask: int) -> int:
        """The Augen of a pile."""
        return COUNTER.raw(mask)

    def outcome(self) -> JSON | None:
        """The result of the finished deal, or ``None`` while it runs."""
        if self._phase is not Phase.FINISHED:
            return None
        outcome: JSON = self._cached("outcome", lambda: score(self))
        return outcome
