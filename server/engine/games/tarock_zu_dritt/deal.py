"""Tarock zu dritt: the rules value and the deal state machine.

Implements ``shared/rules/tarock-zu-dritt.txt`` with the TZ rows of ``DECISIONS.md``.
Seats are numbered in playing order, anticlockwise: 0 = Vorhand (the dealer's right),
1 = Mittelhand, 2 = Hinterhand (the dealer).

The deal: eight cards each to V, M, H, then the talon (two halves of three), then eight
each again. After a knock (the room option ``geklopft``: every deal) the talon is
dealt first and then three packets of 16; Vorhand chooses a packet first, then
Mittelhand, Hinterhand keeps the last (phase ``packet``, ``"packet 1|2|3"``).

Phases and their moves (canonical text in quotes):

``auction`` (Phase I, TZ-A1, TZ-A3)
    Vorhand opens with ``"vorhand"`` ("Vorhand!") or a game (``"bid dreier"``); she may
    not pass. Then in turn: a strictly higher game or ``"pass"`` ("weiter", final). No
    holding; one's own bid is raised only after being overbid (the turn comes back only
    then). The same negative game may be joined once with ``"bei"`` ("Piccolo bei"): both
    play it, each against each other player, the first announcer leads.
``choose``
    Vorhand's "Vorhand!" stood (both others passed): she chooses ``"bid trischaken"`` or
    ``"bid sechserdreier"``.
``talon`` (Phase II)
    Dreier and Farbdreier: the talon is laid open, ``"take 1|2"`` (upper or lower half);
    Zweier and Farbenzweier: ``"take 1|2|3"`` (one of three pairs; with the option
    ``zweier_frei``, TZ-A4's alternative, two single cards ``"take 1"`` … ``"take 6"``, one
    action each); Einer and Farbeneiner:
    ``"take 1"`` … ``"take 6"`` (any one card, in talon order) (TZ-A4). The cards left go
    to the opponents' pile. Sechserdreier: the whole talon, unseen by the others, no
    choice. Solo and negative games: no talon (Solo: it counts for the opponents).
``discard``
    As many discards as cards taken: never Könige or Trullstücke; in positive games
    tarock only when forced (face up); in Farbenspiele tarock face down and suit cards
    only when forced (face up) (TZ-A5). Discards count for the declarer.
``announce``
    The declarer announces premiums (``"announce pagat"`` … ``"announce valat"``; birds
    only with the bird in hand; Doppelsack after the own side's Sack) and ends with
    ``"liege"`` ("ich liege"). Negative games and Trischaken have none.
``kontra`` (Phase III, TZ-A9)
    From the declarer's right, in turn: ``"gut"``, ``"kontra game"``, ``"rekontra
    game"``, ``"subkontra game"`` and the same on each announced premium, or a further
    announcement; the phase ends after three ``"gut"`` in a row. In negative games each
    opponent doubles for himself (``"kontra game@1"``). Trischaken has no Phase III.
``play``
    ``"play HK"``. Farb- and Tarockzwang always; Stichzwang in negative games and
    Trischaken; Farbausspielzwang and no trick power of tarock in Farbenspiele; the
    Kaiserstich (Sküs, Mond and Pagat in one trick: the Pagat wins) in any order, in
    Farbenspiele only when tarock was led; the Pagat as the last tarock in negative games
    and Trischaken unless it makes the Kaiserstich (then Stichzwang forces it); the Sküs
    that would complete a Kaiserstich takes nothing, so Stichzwang never forces it there
    (TZ-A18: only a card that would become the winner must be played); announced
    birds kept for their trick, forced out the highest first. The declarer leads in
    negative games, Vorhand otherwise (TZ-A7). Ouvert: every hand lies open after trick
    1, semi-ouvert the declarer's. Trischaken: the talon cards go one by one to the
    winners of the first six tricks. A negative game ends as soon as its result is fixed.

The game's own play rules are hooks of the trick core in :mod:`.play`; the outcome comes
from :mod:`.outcome`, the refusals' texts from :mod:`.errors`.

Decisions where the text and DECISIONS.md are silent (players of the region would expect
these):

* The regular deal gives the talon between the two rounds of eight ("dazwischen").
* At most one "bei" per game (two declarers); a third player overbids or passes.
* In a "bei" game every player is his own side: the first declarer's game is the item
  ``game``, the joiner's ``bei``, each doubled per other player.
* Phase III starts with the seat after the declarer (the first declarer in a "bei"
  game, Vorhand in a Vorhandspiel) and ends after three "gut" in a row.
* The Doppelsack can be announced only after the same side announced the Sack.
* The talon of a negative game lies aside unseen and counts for nobody; the cards given
  to the first six Trischaken tricks are not shown before the end of the deal.
* Vorhand leads in Trischaken and in the Sechserdreier.

Taking back a card (room option ``take_back``, **on** by default): the rules text allows
it — a card "kann korrigiert werden, solange der Stich noch nicht umgedreht ist". A table
accepts the narrow form (:mod:`server.engine.tricks`, "Taking back a card"): only the last
card played, by its player, while its trick is open and before the next player has played;
never the card that completes the trick. No card is kept back: a Pagat or Sküs taken back
has decided nothing yet (the Kaiserstich and the birds are counted when the trick is
taken), and the card itself is known to the table from then on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from math import floor
from typing import ClassVar

from server.engine.auction import JOIN, Auction
from server.engine.auction import PASS as PASS_CALL
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
from server.engine.doubling import (
    GUT,
    Doubling,
    DoublingRules,
    token,
    word_not_played,
)
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.tarock_zu_dritt.contracts import (
    ANNOUNCEABLE,
    BIDS,
    BIRD_CARDS,
    CONTRACTS,
    DOUBLING,
    DOUBLING_NEGATIVE,
    LADDER,
    POSITIVE_TRICKS,
    SKOTY_TROPHY,
    VORHANDSPIELE,
    TzdContract,
)
from server.engine.games.tarock_zu_dritt.errors import (
    auction_error,
    other_error,
    play_error,
)
from server.engine.games.tarock_zu_dritt.outcome import score, summarize
from server.engine.games.tarock_zu_dritt.play import trick_play
from server.engine.moves import MoveCodec, Verb
from server.engine.tarock.discards import honours
from server.engine.tarock.premiums import PAGAT
from server.engine.tarock.talon import TalonRule, mask_of
from server.engine.trickdeal import TrickDeal
from server.engine.tricks import TrickPlay, TrickRules


class Phase(StrEnum):
    """The phases of a deal (see the module text)."""

    PACKET = "packet"
    AUCTION = "auction"
    CHOOSE = "choose"
    TALON = "talon"
    DISCARD = "discard"
    ANNOUNCE = "announce"
    KONTRA = "kontra"
    PLAY = "play"
    FINISHED = "finished"


# The phases by module names: in Python 3.11 a member looked up on its enum class goes
# through the metaclass's ``__getattr__`` hook, some thousand instructions every time.
PACKET_PHASE, AUCTION_PHASE, CHOOSE_PHASE = Phase.PACKET, Phase.AUCTION, Phase.CHOOSE
TALON_PHASE, DISCARD_PHASE, ANNOUNCE_PHASE = Phase.TALON, Phase.DISCARD, Phase.ANNOUNCE
KONTRA_PHASE, PLAY_PHASE, FINISHED_PHASE = Phase.KONTRA, Phase.PLAY, Phase.FINISHED

COUNTER = PointCounter(TAROCK)
CARD_CODES = tuple(TAROCK.code(c) for c in range(len(TAROCK)))
HONOURS = honours(TAROCK)
#: One talon card at a time (the option ``zweier_frei``).
ONE_CARD = TalonRule("any", 1)
#: The items that may be doubled: the game (the first declarer's), the second declarer's
#: game in a "bei" game, every premium that can be announced.
ITEMS = ("game", "bei", *ANNOUNCEABLE)
DOUBLING_WORDS = ("kontra", "rekontra", "subkontra")
ITEM_ARGS = tuple(token(i, s) for i in ITEMS for s in (None, 0, 1, 2))
ALL_GAMES = tuple(CONTRACTS)


def _unknown_contract(word: str) -> MalformedError:
    games = ", ".join(ALL_GAMES)
    return MalformedError(
        "unknown_contract",
        f"'{word}' is not a game of Tarock zu dritt ({games})",
        f"'{word}' ist kein Spiel des Tarock zu dritt ({games})",
    )


#: The moves: ``play <card>`` is move ``card``; the rest follow in this order.
CODEC = MoveCodec(
    [
        Verb("play", CARD_CODES, what="card", read=TAROCK.parse),
        Verb("discard", CARD_CODES, what="card", read=TAROCK.parse),
        Verb("pass", aliases=("weiter",)),
        Verb("vorhand"),
        Verb("bid", ALL_GAMES, what="contract", bad=_unknown_contract),
        Verb(JOIN),
        Verb("packet", ("1", "2", "3"), what="packet"),
        Verb("take", ("1", "2", "3", "4", "5", "6"), what="talon part"),
        Verb("announce", ANNOUNCEABLE, bad=lambda arg: malformed_action(f"announce {arg}")),
        Verb("liege", aliases=("fertig",)),
        Verb(GUT),
        *(Verb(word, ITEM_ARGS, what="item") for word in DOUBLING_WORDS),
        TAKE_BACK_VERB,
    ]
)
DISCARD = CODEC.base["discard"]
PASS = CODEC.move("pass")
VORHAND = CODEC.move("vorhand")
BID = CODEC.base["bid"]
BEI = CODEC.move(JOIN)
PACKET = CODEC.base["packet"]
TAKE = CODEC.base["take"]
ANNOUNCE = CODEC.base["announce"]
LIEGE = CODEC.move("liege")
GUT_MOVE = CODEC.move(GUT)
#: The move of every auction call.
CALL_MOVES = {
    PASS_CALL: PASS,
    "vorhand": VORHAND,
    JOIN: BEI,
    **{bid: CODEC.move("bid", bid) for bid in BIDS},
}
CALL_OF = {move: call for call, move in CALL_MOVES.items()}
#: The Kontra round's raising calls as moves: per word, per chain (item, the opponent's
#: seat in a per-opponent chain); and what every call of the round calls, as
#: :meth:`Doubling.call` takes it (the moves are read and written without their text).
RAISE_MOVES: dict[str, dict[tuple[str, int | None], Move]] = {
    word: {(item, seat): CODEC.move(word, token(item, seat)) for item in ITEMS
           for seat in (None, 0, 1, 2)}
    for word in DOUBLING_WORDS
}  # fmt: skip
DOUBLING_CALL_OF: dict[Move, tuple[str, str | None, int | None]] = {
    GUT_MOVE: (GUT, None, None),
    **{move: (word, item, seat) for word, moves in RAISE_MOVES.items()
       for (item, seat), move in moves.items()},
}  # fmt: skip


@cache
def _auction_moves(calls: tuple[str, ...], first: bool) -> tuple[Move, ...]:
    """The moves of the auction's legal ``calls``, without the pass at the ``first`` call
    (the same few tuples of calls come back deal after deal)."""
    return tuple(CALL_MOVES[c] for c in calls if not (first and c == PASS_CALL))


class TarockZuDritt(Rules["TarockZuDrittDeal"]):
    """The game Tarock zu dritt (house rules "Speisezettel de luxe"), three seats, 54 cards."""

    name = "tarock-zu-dritt"
    title = "Tarock zu dritt"
    pack = TAROCK
    seats = 3
    hand_size = 16
    talon_size = 6
    default_seat_names = ("V", "M", "H")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "stille_saecke",
            False,
            (False, True),
            "Stille Säcke: Sack und Doppelsack zählen auch unangesagt (je 1).",
            "Silent Säcke: Sack and Doppelsack count unannounced too (1 each).",
        ),
        Option(
            "honneurs",
            False,
            (False, True),
            "Honneurs: fünf der sieben Fünferzähler (Könige und Trullstücke) in einer Hand "
            "beim ersten Ausspiel zählen still 1 für deren Partei.",
            "Honneurs: five of the seven Fünferzähler (Könige and Trull cards) in one hand at "
            "the first lead count 1, silently, for its party.",
        ),
        Option(
            "trischaken_stichzwang",
            True,
            (True, False),
            "Trischaken mit Stichzwang (ohne: nur Farb- und Tarockzwang).",
            "Trischaken with Stichzwang (without: only Farb- and Tarockzwang).",
        ),
        Option(
            "skoty",
            False,
            (False, True),
            "Skoty-Trophy: nur einfaches Kontra, keine stillen Säcke, keine doppelten Radln.",
            "Skoty-Trophy: a single Kontra only, no silent Säcke, no stacked Radln.",
        ),
        Option(
            "zweier_frei",
            False,
            (False, True),
            "Zweier und Farbenzweier: zwei beliebige Karten aus dem Talon, eine nach der "
            "anderen, statt eines der drei Paare.",
            "Zweier and Farbenzweier: any two talon cards, one after the other, instead "
            "of one of the three pairs.",
        ),
        Option(
            "geklopft",
            False,
            (False, True),
            "Geklopft: Talon zuerst, dann 16 Karten am Stück; die Vorhand wählt zuerst.",
            "Knocked: the talon first, then 16 cards at once; Vorhand chooses first.",
        ),
        take_back_option(
            True,
            "Der Regeltext erlaubt es: „kann korrigiert werden, solange der Stich noch nicht "
            "umgedreht ist“.",
            "The rules text allows it: a card “can be corrected as long as the trick is not "
            "yet turned”.",
        ),
    )

    #: Eight cards each to V, M, H, the talon (top first), eight each again. After a
    #: knock the same cards are three blind packets of 16 (see the module text).
    dealing = ((0, 8), (1, 8), (2, 8), (TALON, 6), (0, 8), (1, 8), (2, 8))

    def deal_type(self) -> type[TarockZuDrittDeal]:
        """Deals start in the auction (after a knock: the choice of packets)."""
        return TarockZuDrittDeal

    def summarize(self, outcome: JSON) -> JSON:
        """Contract, declarer and result of a stored outcome (see :mod:`.outcome`)."""
        return summarize(outcome)


class TarockZuDrittDeal(TrickDeal):
    """One deal of Tarock zu dritt (see the module text for the phases)."""

    Phase = Phase
    codec = CODEC
    passive_moves = ("pass", "gut", "liege")  # the turn timer's choice where one is legal
    play_error = play_error
    # The deal's own state lives in slots: with the base's attributes an instance dict
    # nears CPython's limit for shared keys, and every attribute lookup of every action
    # would take the slow way beyond it (tests/engine/test_deal_memory.py).
    __slots__ = ("_announceable", "_announcing", "_parties", "announced", "auction",
                 "declarers", "discards", "discards_left", "doubling", "hands", "open_discards",
                 "packet_of", "packets", "play", "rest", "row", "start_hands", "taken", "talon",
                 "talon_open")  # fmt: skip

    def _start(self) -> None:
        """Check the dealer's seat and set up the deal's state."""
        if self.dealer != self.seat_names[2]:
            raise MalformedError(
                "bad_dealer",
                "the dealer is Hinterhand (seat 2)",
                "Der Geber ist die Hinterhand (Sitz 2)",
            )
        self.talon = self.dealt.talon
        self.packets = list(self.dealt.hands)
        self.packet_of = [-1, -1, -1]
        self.auction = Auction(LADDER, 3)
        self.row: TzdContract | None = None
        self.declarers: list[int] = []
        self._parties: tuple[int, ...] = (0, 1, 2)  # parties(), fixed with the contract
        #: the premiums the contract lets a seat announce: (move, premium, bird card or
        #: -1), fixed with the contract
        self._announceable: tuple[tuple[Move, str, int], ...] = ()
        self._announcing: dict[tuple[int, int], list[Move]] = {}  # see _announcements
        self.taken = 0  # talon cards the declarer took
        self.rest = 0  # talon cards for the opponents
        self.talon_open = False  # the talon lies open (Dreier, Zweier, Einer games)
        self.discards = 0
        self.open_discards = 0
        self.discards_left = 0
        self.announced: dict[str, int] = {}
        self.doubling: Doubling | None = None
        self.start_hands: tuple[int, ...] = ()
        self.play: TrickPlay | None = None
        if self.options["geklopft"]:
            self.hands = [0, 0, 0]
            self._phase = PACKET_PHASE
        else:
            self.hands = list(self.dealt.hands)
            self._phase = AUCTION_PHASE
        self._to_move: int | None = 0

    # ------------------------------------------------------------------ state

    @property
    def contract(self) -> str:
        """The contract's code (``""`` until it is known)."""
        return "" if self.row is None else self.row.name

    @property
    def declarer(self) -> int | None:
        """The (first) declarer, or the high bidder during the auction."""
        if self.declarers:
            return self.declarers[0]
        return self.auction.winner

    def parties(self) -> tuple[int, ...]:
        """Each seat's side: the declarer 0 and the opponents 1; in a "bei" game every
        seat its own; in Trischaken every seat its own."""
        return self._parties

    @property
    def thirds_to_win(self) -> int:
        """35 Punkte 2 Blatt, in thirds (TZ-A6)."""
        return 107

    # ------------------------------------------------------------------ the fast path

    def random_action(self, rng: random.Random) -> tuple[int | None, Move]:
        """A random legal move; card plays are drawn straight from the legal mask. In the
        Kontra round "gut" is taken more often than the rest (as at a real table: a
        uniform choice among a dozen doublings and announcements makes every round long)."""
        play = self.play
        if self._phase is PLAY_PHASE and play is not None:
            legal = play.legal()
            n = floor(rng.random() * legal.bit_count())  # int(): floor is a cheaper call
            while n:  # nth_card(legal, n), written out
                legal &= legal - 1
                n -= 1
            return None, (legal & -legal).bit_length() - 1
        moves = self.legal_moves()
        if self._phase is KONTRA_PHASE and GUT_MOVE in moves and rng.random() < 0.6:
            return None, GUT_MOVE
        return None, rng.choice(moves)

    def random_move(self, rng: random.Random) -> Move:
        """A uniformly random legal move of the seat to move."""
        return self.random_action(rng)[1]

    # ------------------------------------------------------------------ packet

    def _legal_in_packet(self) -> list[Move]:
        return [PACKET + p for p in range(3) if p not in self.packet_of]

    def _apply_in_packet(self, seat: int, move: Move) -> None:
        self.packet_of[seat] = move - PACKET
        self.hands[seat] = self.packets[move - PACKET]
        if seat == 1:  # Hinterhand keeps the last packet
            (last,) = (p for p in range(3) if p not in self.packet_of)
            self.packet_of[2] = last
            self.hands[2] = self.packets[last]
            self._phase = AUCTION_PHASE
            self._to_move = 0
        else:
            self._to_move = seat + 1

    # ------------------------------------------------------------------ auction

    def _legal_in_auction(self) -> list[Move]:
        # Vorhand's first call is "Vorhand!" or a game, never a pass
        return [*_auction_moves(self.auction.legal(), not self.auction.calls)]

    def _apply_in_auction(self, seat: int, move: Move) -> None:
        auction = self.auction
        auction.call(CALL_OF[move])
        if not auction.finished:
            assert auction.to_move is not None
            self._to_move = auction.to_move
            return
        if auction.high == LADDER.opening:
            self._phase = CHOOSE_PHASE
            self._to_move = 0
            return
        assert auction.high is not None
        self._set_contract(CONTRACTS[auction.high], auction.holders)

    def _explain_in_auction(self, seat: int, move: Move) -> IllegalActionError:
        high = self.auction.high or ""
        if move == PASS:
            return auction_error("vorhand_must_speak", high=high)
        if move == VORHAND:
            code = "vorhand_first_call" if seat == 0 else "not_vorhand"
            return auction_error(code, high=high)
        if move in CALL_OF:
            code = self.auction.explain(CALL_OF[move]) or "unknown_bid"
            return auction_error(code, high=high)
        if CODEC.is_verb(move, "bid"):
            return auction_error("vorhandspiel_only", high=high)
        return self.wrong_phase(move)

    # ------------------------------------------------------------------ choose

    def _legal_in_choose(self) -> list[Move]:
        return [CODEC.move("bid", name) for name in VORHANDSPIELE]

    def _explain_in_choose(self, seat: int, move: Move) -> IllegalActionError:
        if CODEC.is_verb(move, "bid"):  # another game: only a Vorhandspiel now
            return auction_error("choose_vorhandspiel", high=self.auction.high or "")
        return self.wrong_phase(move)

    def _apply_in_choose(self, seat: int, move: Move) -> None:
        self._set_contract(CONTRACTS[CODEC.arg_of(move)], [0])

    def _set_contract(self, row: TzdContract, declarers: Sequence[int]) -> None:
        self.row = row
        self.declarers = list(declarers)
        declarer = self.declarers[0]
        if not row.trischaken and len(self.declarers) == 1:
            self._parties = tuple(0 if s == declarer else 1 for s in range(3))
        codes = row.premium_codes
        self._announceable = tuple(
            (ANNOUNCE + i, code, BIRD_CARDS.get(code, -1))
            for i, code in enumerate(ANNOUNCEABLE)
            if code in codes
        )
        if row.trischaken:
            self._begin_play()
        elif row.negative:
            self._begin_kontra()
        elif row.talon_rule.kind == "none":
            self._phase = ANNOUNCE_PHASE
            self._to_move = declarer
        elif row.talon_rule.kind == "hidden":
            (self.taken,) = row.talon_rule.choices(self.talon)
            self.hands[declarer] |= self.taken
            self._to_discard(row)
        else:
            self.talon_open = True
            self._phase = TALON_PHASE
            self._to_move = declarer

    # ------------------------------------------------------------------ talon

    @property
    def picking(self) -> bool:
        """Whether the declarer takes his talon cards one by one (the option
        ``zweier_frei``: a Zweier's two cards from anywhere in the talon, TZ-A4)."""
        row = self.row
        return (
            row is not None
            and bool(self.options["zweier_frei"])
            and row.talon_rule.kind == "groups"
            and row.talon_rule.size == 2
        )

    def talon_choices(self) -> list[int]:
        """The masks the declarer may take, in talon order (``"take 1"`` is the first);
        when :attr:`picking`, each single card (one of them at a time)."""
        assert self.row is not None
        rule = ONE_CARD if self.picking else self.row.talon_rule
        return rule.choices(self.talon)

    def _legal_in_talon(self) -> list[Move]:
        taken = self.taken  # a card already picked is not offered again
        return [TAKE + i for i, mask in enumerate(self.talon_choices()) if not mask & taken]

    def _apply_in_talon(self, seat: int, move: Move) -> None:
        row = self.row
        assert row is not None
        choice = self.talon_choices()[move - TAKE]
        self.taken |= choice
        self.hands[seat] |= choice
        if self.picking and self.taken.bit_count() < row.talon_rule.size:
            return  # the next card
        self.rest = mask_of(self.talon) & ~self.taken
        self._to_discard(row)

    def _explain_in_talon(self, seat: int, move: Move) -> IllegalActionError:
        if CODEC.is_verb(move, "take"):
            return other_error("bad_talon_choice")
        return self.wrong_phase(move)

    def _to_discard(self, row: TzdContract) -> None:
        self.discards_left = self.taken.bit_count()
        self._phase = DISCARD_PHASE
        self._to_move = self.declarers[0]

    # ------------------------------------------------------------------ discard

    def _legal_in_discard(self) -> list[Move]:
        assert self.row is not None
        hand = self.hands[self.declarers[0]]
        rule = self.row.discard_rule
        return [DISCARD + c for c in cards_of(rule.discardable(hand, self.discards_left))]

    def _apply_in_discard(self, seat: int, move: Move) -> None:
        assert self.row is not None
        card = move - DISCARD
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.discards |= bit
        if self.row.discard_rule.face_up(card):
            self.open_discards |= bit
        self.discards_left -= 1
        if not self.discards_left:
            self._phase = ANNOUNCE_PHASE

    def _explain_in_discard(self, seat: int, move: Move) -> IllegalActionError:
        if not CODEC.is_verb(move, "discard"):
            return self.wrong_phase(move)
        assert self.row is not None
        card = move - DISCARD
        code = self.row.discard_rule.explain(self.hands[seat], self.discards_left, card)
        if code == "not_held":
            return other_error("not_held")
        if code == "never":
            return other_error("discard_honour")
        return other_error("discard_suit" if self.row.farben else "discard_tarock")

    # ------------------------------------------------------------------ announce

    def may_announce(self, seat: int, code: str) -> str | None:
        """Why ``seat`` may not announce premium ``code`` now (an error code), or ``None``."""
        row = self.row
        if row is None or code not in row.premium_codes or code not in ANNOUNCEABLE:
            return "premium_not_allowed"
        if code in self.announced:
            return "premium_twice"
        card = BIRD_CARDS.get(code)
        if card is not None and not (self.hands[seat] >> card) & 1:
            return "bird_not_held"
        parties = self.parties()
        if code == "doppelsack":
            sack = self.announced.get("sack")
            if sack is None or parties[sack] != parties[seat]:
                return "sack_first"
        return None

    def _announcements(self, seat: int) -> list[Move]:
        """The premiums ``seat`` may announce now: :meth:`may_announce` written out over the
        contract's announceable premiums. Kept per seat until the next announcement (the
        Kontra round asks for them at every call); the caller must not change the list."""
        key = (seat, len(self.announced))  # announcements are only ever added
        moves = self._announcing.get(key)
        if moves is None:
            moves = self._announcing[key] = self._find_announcements(seat)
        return moves

    def _find_announcements(self, seat: int) -> list[Move]:
        announced = self.announced
        hand = self.hands[seat]
        moves = []
        for move, code, card in self._announceable:
            if code in announced or (card >= 0 and not (hand >> card) & 1):
                continue
            if code == "doppelsack":
                sack = announced.get("sack")
                if sack is None or self._parties[sack] != self._parties[seat]:
                    continue
            moves.append(move)
        return moves

    def _legal_in_announce(self) -> list[Move]:
        assert self._to_move is not None
        return [*self._announcements(self._to_move), LIEGE]

    def _apply_in_announce(self, seat: int, move: Move) -> None:
        if move == LIEGE:
            self._begin_kontra()
            return
        self.announced[CODEC.arg_of(move)] = seat

    def _explain_in_announce(self, seat: int, move: Move) -> IllegalActionError:
        if CODEC.is_verb(move, "announce"):
            return other_error(self.may_announce(seat, CODEC.arg_of(move)) or "premium_not_allowed")
        return self.wrong_phase(move)

    # ------------------------------------------------------------------ kontra

    def doubling_rules(self) -> DoublingRules:
        """Kontra ×2, Rekontra ×4, Subkontra ×8; per opponent in negative games; Kontra
        alone with the Skoty-Trophy (TZ-A9)."""
        assert self.row is not None
        per_opponent = self.row.negative
        if self.options["skoty"]:
            return DoublingRules(words=SKOTY_TROPHY.words, cap=1, per_opponent=per_opponent)
        return DOUBLING_NEGATIVE if per_opponent else DOUBLING

    def _begin_kontra(self) -> None:
        parties = self.parties()
        items = {"game": parties[self.declarers[0]]}
        if len(self.declarers) > 1:
            items["bei"] = parties[self.declarers[1]]
        for code, seat in self.announced.items():
            items[code] = parties[seat]
        first = (self.declarers[0] + 1) % 3
        self.doubling = Doubling(self.doubling_rules(), parties, first, items)
        self._phase = KONTRA_PHASE
        self._to_move = self.doubling.to_move

    def parse(self, text: str) -> Move:
        """Read a move; in a negative game's Kontra round an opponent may leave out his
        own seat (``"kontra game"`` for ``"kontra game@1"``) where only one chain is open
        to him."""
        move = super().parse(text)
        doubling = self.doubling
        if (
            self._phase is KONTRA_PHASE
            and doubling is not None
            and doubling.rules.per_opponent
            and CODEC.verb_of(move)[0] in DOUBLING_WORDS
            and "@" not in CODEC.arg_of(move)
        ):
            prefix = f"{CODEC.text(move)}@"
            open_ = [m for m in self.legal_moves() if CODEC.text(m).startswith(prefix)]
            if len(open_) == 1:
                return open_[0]
        return move

    def _legal_in_kontra(self) -> list[Move]:
        doubling = self.doubling
        seat = self._to_move
        assert doubling is not None and seat is not None
        # the moves of doubling.legal_texts(), found without writing their text (the word
        # of a level is rules.word(level): the chains are capped within the words here)
        words = doubling.rules.words
        moves = [GUT_MOVE]
        for key, chain in doubling.chains.items():
            if doubling.may_call(seat, chain):
                moves.append(RAISE_MOVES[words[chain.level]][key])
        return [*moves, *self._announcements(seat)]

    def _apply_in_kontra(self, seat: int, move: Move) -> None:
        doubling = self.doubling
        assert doubling is not None
        call = DOUBLING_CALL_OF.get(move)
        if call is not None:
            doubling.call(seat, *call)  # doubling.act(seat, CODEC.text(move)), text unread
        else:  # an announcement
            code = CODEC.arg_of(move)
            self.announced[code] = seat
            doubling.announce(seat, code)
        if doubling.to_move is None:  # doubling.finished
            self._begin_play()
        else:
            self._to_move = doubling.to_move

    def _explain_in_kontra(self, seat: int, move: Move) -> IllegalActionError:
        doubling = self.doubling
        assert doubling is not None
        if CODEC.is_verb(move, "announce"):
            return other_error(self.may_announce(seat, CODEC.arg_of(move)) or "premium_not_allowed")
        word = CODEC.verb_of(move)[0]
        if word in DOUBLING_WORDS and word not in doubling.rules.words:
            return word_not_played(word, doubling.rules.words)  # the Skoty-Trophy
        if word in DOUBLING_WORDS:
            error = doubling.refusal(seat, CODEC.text(move))
            if error is not None:
                return error
        return self.wrong_phase(move)

    # ------------------------------------------------------------------ play

    def _begin_play(self) -> None:
        row = self.row
        assert row is not None
        self._phase = PLAY_PHASE
        self.start_hands = tuple(self.hands)
        leader = 0 if row.leader == "vorhand" else self.declarers[0]
        self.play = trick_play(
            row,
            self.hands,
            leader,
            declarers=self.declarers,
            announced=self.announced,
            talon=self.talon,
            trischaken_stichzwang=bool(self.options["trischaken_stichzwang"]),
        )
        self._to_move = leader

    def _refusal_rule(self, seat: int, move: Move, rule: str) -> str:
        """A card other than the Pagat refused because the Pagat must come last is
        refused for the Kaiserstich (the Pagat may go only to make it)."""
        if rule == "pagat_last" and (self.hands[seat] >> move) & 1 and move != PAGAT:
            return "kaiserstich"
        return rule

    # ------------------------------------------------------------------ views

    def open_hands(self) -> int:
        """The hands lying open: after trick 1 the declarer's (semi-ouvert) or all (ouvert)."""
        row = self.row
        if row is None or not row.ouvert or not self.tricks or self._phase is not PLAY_PHASE:
            return 0
        seats = self.declarers if row.ouvert == "semi" else [0, 1, 2]
        return sum(self.hands[s] for s in seats)

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """Face-down discards show only to the declarer (until the end)."""
        seat, move = self.history[index]
        if (
            CODEC.is_verb(move, "discard")
            and not (self.open_discards >> (move - DISCARD)) & 1
            and viewer != seat
            and self._phase is not FINISHED_PHASE
        ):
            return "discard"
        return self.move_text(move)

    def _sort_rules(self) -> TrickRules:
        """The trick rules a hand is sorted by: those of the tricks being played, else of
        the game bid (a Farbenspiel's tarocks are a plain group), else a positive game's."""
        if self.play is not None:
            return self.play.rules
        return POSITIVE_TRICKS if self.row is None else self.row.trick_rules

    def _view_own(self, seat: int | None) -> JSON:
        """The seat's discards (a declarer's, until play begins)."""
        finished = self._phase is FINISHED_PHASE
        return {
            "discards": TAROCK.codes(self.discards)
            if finished
            or (seat is not None and seat in self.declarers and self._phase is not PLAY_PHASE)
            else None,
        }

    def _view_public(self) -> JSON:
        """The packets, the auction, the contract, the talon, the discards, the
        announcements and the doubling, the open hands."""
        row = self.row
        open_hands = self.open_hands()
        talon_shown = self.talon_open and self._phase is not PLAY_PHASE
        return {
            "packets_chosen": [p for p in self.packet_of if p >= 0],
            "calls": [{"seat": s, "call": c} for s, c in self.auction.calls],
            "contract": self.contract or None,
            "value": None if row is None else row.value,
            "declarers": list(self.declarers) if self.declarers else [],
            # who plays alone (the first of a "bei" game), as every game's view names it
            "declarer": self.declarers[0]
            if self.declarers and row is not None and not row.trischaken
            else None,
            "high_bidder": self.auction.winner,
            # "der Talon ist tabu" during the play: shown up to the first card, and after
            "talon": [TAROCK.code(c) for c in self.talon] if talon_shown else None,
            "talon_taken": TAROCK.codes(self.taken) if talon_shown else [],
            "talon_pick": self._phase is TALON_PHASE and self.picking,
            "discard_count": self.discards.bit_count(),
            "open_discards": TAROCK.codes(self.open_discards),
            "announced": [{"premium": c, "seat": s} for c, s in self.announced.items()],
            "doubling": None if self.doubling is None else self.doubling.view(),
            "open_hands": {
                str(s): TAROCK.codes(self.hands[s] & open_hands)
                for s in range(3)
                if self.hands[s] & open_hands
            },
        }

    def hidden_from(self, seat: int | None) -> int:
        """Cards ``seat`` may not see: before the packets are chosen every packet but its
        own and the talon; then as every trick game (:meth:`TrickDeal.hidden_from`)."""
        if self._phase is PACKET_PHASE:
            hidden = sum(self.packets) - (self.hands[seat] if seat is not None else 0)
            return hidden | mask_of(self.talon)
        return super().hidden_from(seat)

    def _hidden_extra(self, seat: int | None) -> int:
        """The talon while unseen, the declarer's face-down discards."""
        hidden = 0
        if not self.talon_open:  # taken unseen (Sechserdreier): a hand's cards from then on
            hidden |= mask_of(self.talon) & ~self.taken
        if seat is None or seat not in self.declarers:
            hidden |= self.discards
        return hidden

    def _public_cards(self) -> int:
        """The open discards and open hands, the talon once turned up."""
        public = self.open_discards | self.open_hands()
        if self.talon_open:
            public |= mask_of(self.talon)
        return public

    def _talon_left(self) -> list[int]:
        return [c for c in self.talon if not (self.taken >> c) & 1]

    def _count(self, mask: int) -> str:
        return format_thirds(COUNTER.thirds(mask))

    def _party_points(self) -> JSON | None:
        """The positive games' count (:meth:`piles`)."""
        piles = self.piles()
        if piles is None:
            return None
        return {"declarer": self._count(piles[0]), "opponents": self._count(piles[1])}

    def piles(self) -> tuple[int, int] | None:
        """Positive games: the declarer's pile (tricks and discards) and the opponents'
        (tricks and the talon not taken; the whole talon in the Solospiele); ``None``
        otherwise."""
        row = self.row
        if row is None or row.kind != "positive" or self.play is None:
            return None
        declarer = self.declarers[0]
        won = self.won
        opponents = won[(declarer + 1) % 3] | won[(declarer + 2) % 3]
        rest = mask_of(self.talon) & ~self.taken
        return won[declarer] | self.discards, opponents | rest

    def invariant_errors(self) -> list[str]:
        """Every card ends in exactly one pile (full deals); card points add up to 70."""
        errors: list[str] = []
        if self._phase is not FINISHED_PHASE:
            return errors
        assert self.row is not None
        played = sum(1 << c for _l, cards, _w in self.tricks for c in cards)
        if any(self.hands) and len(self.tricks) == 16:
            errors.append("cards left in a hand after 16 tricks")
        if played & self.discards:
            errors.append("a discarded card was played")
        rest = mask_of(self.talon) & ~self.taken
        union = played | self.discards | rest | sum(self.hands)
        if union != TAROCK.full:
            errors.append("not every card is accounted for")
        piles = self.piles()
        if piles is not None:
            if piles[0] & piles[1] or piles[0] | piles[1] != TAROCK.full:
                errors.append("the two piles do not split the pack")
            if COUNTER.thirds(piles[0]) + COUNTER.thirds(piles[1]) != 210:
                errors.append("card points do not add up to 70")
        full = len(self.tricks) == 16
        if self.row.trischaken and full and sum(self.won) != TAROCK.full:
            errors.append("the Trischaken piles do not hold every card")
        return errors

    # ------------------------------------------------------------------ outcome

    def outcome(self) -> JSON | None:
        """The result of the finished deal, or ``None`` while it runs."""
        if self._phase is not FINISHED_PHASE:
            return None
        outcome: JSON = self._cached("outcome", lambda: score(self))
        return outcome
