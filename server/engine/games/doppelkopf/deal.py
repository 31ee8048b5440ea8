"""Doppelkopf: the rules value and the deal state machine (``doppelkopf.txt``, DK rows).

Seats clockwise: 0 = P1 (the dealer's left, leads), 1 = P2, 2 = P3, 3 = P4 = the dealer.
Twelve cards each, dealt three at a time from P1 (DK-A27). Card plays name the card's kind
(``"play H10"``); the engine takes the holder's lower copy, so equal copies never make
two moves. Which copy that was stays the engine's business: while the deal runs, views
number the copies of a kind in the order the table saw them (the first Herz 10 played is
``H10.1`` whoever held which), and so do the hands and the Armut cards they show.

Phases and moves:

``vorbehalt``
    P1 … P4 answer once each: ``"gesund"`` or a reservation — ``"solo trumpf|kreuz|pik|
    herz|karo|damen|buben|international|fleischlos"``, ``"schmeissen"`` (with the trigger
    of the option ``schmeissen``, DK-A17), ``"armut"`` (three trumps or fewer, DK-A18) or
    ``"hochzeit erster|herz|pik|kreuz|trumpf"`` (both Kreuz Damen; the kind of the first
    foreign trick that finds the partner, DK-A19). The table sees only "Vorbehalt"; the
    winning reservation is decided by Solo > Schmeißen > Armut > Hochzeit, then by seat
    from P1 (DK-A16), and only it is revealed. A player holding both Kreuz Damen who says
    "gesund" plays a stille Hochzeit, scored as a solo (DK-A20).
``armut``
    The poor player pushes three cards (``"push D9"``), all his trumps among them; the
    others, from his left, ``"take"`` or ``"pass"``; the taker ``"return"``\\ s three cards.
    Poor player and taker are Re. Nobody takes: the deal is thrown in.
``play``
    ``"play CQ"``. P1 leads; a declared solo is led by the soloist (during the Vorführung by
    P1, see the match). Until the fifth card of the deal lies, every player may
    ``"knock"`` once, out of turn too; a player who knocked may add ``"announce 90|60|30|
    schwarz"`` (the rules text: "zu seinem Klopfen" — his own knock; this also keeps the
    legal actions from revealing a partner). The holder of both Karo Assen who knocks
    makes them the Schweinchen, the highest trumps (DK-A4, DK-A5).

Parties are secret until the table can know them: a Kreuz Dame played, both Kreuz Damen
played, a solo, Armut or Hochzeit resolved. Views never show more. A stille Hochzeit is a
normal game to everybody but its holder until he plays his second Kreuz Dame (or the deal
ends); the winning reservation is announced as said once the reservations are resolved.

Inside, each phase of :class:`Phase` has its ``_legal_in_``/``_apply_in_``/``_explain_in_``
handlers (found by name, see :mod:`server.engine.base`); the moves are numbered by
:data:`CODEC` (one canonical text each); every fact about the contract comes from its row
in :data:`~server.engine.games.doppelkopf.contracts.CONTRACTS`. The deal is a
:class:`~server.engine.base.CardPlayDeal` (through ``TrickDeal``): every card goes through one
:class:`~server.engine.tricks.TrickPlay` (``play``), whose restriction ``same_kind`` makes
the two copies of a kind one move; the legal moves are cached per position (in the
handlers' order: cards by kind); a card's own consequences (the copy's name, a Kreuz Dame's
player, the Schweinchen shown) follow in :meth:`DoppelkopfDeal._after_card`; an illegal
card is explained from the trick core's rule code (:mod:`.errors`). The knocks and
announcements are moves of the play phase like the cards, on turn and out of turn. The
second Herz 10 and the Schweinchen are the contract's trick rules (``rules_for`` when the
last trick differs), a Hochzeit's partner the ``after_trick`` hook; the extra points are
read from the trick core's tricks when the deal is scored (only then are the parties
settled). The outcome, computed once at the end, is the deal's other cache.

The views, the replay state and the hidden cards are those of every trick game
(:class:`~server.engine.trickdeal.TrickDeal`, of which the deal is one); Doppelkopf gives
its own through the hooks: the hand in playing order and the copies numbered as the table
saw them (``_hand_json``, ``_view_trick``), its keys for everybody (``_view_public``: the
Hochzeit, the partner, knocks and announcements) and those that depend on who looks
(``_view_own``: reservations, the contract of a stille Hochzeit, the Armut cards, the
Schweinchen, the parties as far as the seat knows them), the Armut cards lying face down
(``_hidden_extra``) and shown to the poor player and the taker (``_shown_to``).

Taking back a card (room option ``take_back``, **off** by default: the rules text has no
such rule): with it on, only the last card played, by its player, while its trick is open
and before anyone acted after it — a knock or an announcement after the card ends it too
(:mod:`server.engine.tricks`, "Taking back a card"). A Kreuz-Dame is never taken back: in a
normal game it told the table who is Re (in a stille Hochzeit the second one tells that),
and what the table saw cannot be unseen; one rule for every contract. Nor is a Karo Ass of
the Schweinchen once shown.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar

from server.engine.base import (
    JSON,
    TAKE_BACK_VERB,
    Move,
    Option,
    Rules,
    take_back_option,
)
from server.engine.bits import cards_of
from server.engine.cards import DOPPELKOPF
from server.engine.counting import PointCounter
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppelkopf.contracts import (
    CONTRACTS,
    NORMAL,
    NORMAL_TRUMPS,
    RESERVATIONS,
    SOLOS,
    DokoContract,
    trick_rules,
)
from server.engine.games.doppelkopf.errors import play_error
from server.engine.games.doppelkopf.scoring import LEVELS, extra_points, legacy_lines, score
from server.engine.moves import MoveCodec, Verb, malformed_action
from server.engine.trickdeal import TrickDeal
from server.engine.tricks import Restriction, TrickPlay, TrickRules, trick_json


class Phase(StrEnum):
    """The phases of a deal (see the module text)."""

    VORBEHALT = "vorbehalt"
    PUSH = "push"
    OFFER = "offer"
    RETURN = "return"
    PLAY = "play"
    FINISHED = "finished"


# The phases by module names: in Python 3.11 a member looked up on its enum class goes
# through the metaclass's ``__getattr__`` hook, some thousand instructions every time.
VORBEHALT, PUSHING, OFFERING, RETURNING = Phase.VORBEHALT, Phase.PUSH, Phase.OFFER, Phase.RETURN
PLAYING, FINISHED = Phase.PLAY, Phase.FINISHED

PACK = DOPPELKOPF
KIND = DOPPELKOPF.kind_mask
COUNTER = PointCounter(DOPPELKOPF)
HOCHZEIT_KINDS = ("erster", "herz", "pik", "kreuz", "trumpf")
#: The suit whose first foreign trick finds a Hochzeit's partner (``None``: any trick /
#: a trump trick).
HOCHZEIT_SUIT = {"herz": "H", "pik": "S", "kreuz": "C"}
#: The hand order before the contract is known: that of the normal game.
_NORMAL_ORDER = trick_rules(NORMAL)
CQ = KIND["CQ"]
DA = KIND["DA"]
#: Per card: the mask of both copies of its kind, and its own mask.
COPIES_OF = tuple(KIND[card.kind] for card in PACK.cards)
BIT = tuple(1 << card for card in range(len(PACK)))
#: The two Kreuz Damen (both copies).
CQ_CARDS = (PACK.parse("CQ.1"), PACK.parse("CQ.2"))
#: The code of copy n (0, 1) of the kind of card c: ``CODES[c % 24 + 24 * n]``.
CODES = tuple(card.code for card in PACK.cards)
NINES = sum(KIND[s + "9"] for s in "CSHD")
KINGS = sum(KIND[s + "K"] for s in "CSHD")


def _read_card(text: str) -> int:
    """A card named by kind (``h10``: its first copy) or by copy (``h10.2``)."""
    return PACK.parse(text if "." in text else text + ".1")


def _malformed(verb: str) -> MalformedError:
    return malformed_action(verb)


def _unknown_solo(arg: str) -> MalformedError:
    return MalformedError(
        "unknown_solo",
        f"'{arg}' is not a solo ({', '.join(SOLOS)})",
        f"'{arg}' ist kein Solo ({', '.join(SOLOS)})",
    )


_KINDS = tuple(card.kind for card in PACK.cards)


def _card_verb(word: str) -> Verb:
    """A verb whose argument is a card, written by its kind (both copies alike)."""
    return Verb(word, CODES, what="card", read=_read_card, shown=_KINDS)


#: The moves, in the order legal moves are listed: cards, the Armut exchange, the
#: reservations by priority, the Armut answers, the calls.
CODEC = MoveCodec(
    [
        _card_verb("play"),
        _card_verb("push"),
        _card_verb("return"),
        Verb("gesund"),
        Verb("solo", SOLOS, what="solo", bad=_unknown_solo),
        Verb("schmeissen", aliases=("schmeißen",)),
        Verb("armut"),
        Verb("hochzeit", HOCHZEIT_KINDS, bad=lambda arg: _malformed(f"hochzeit {arg}")),
        Verb("take"),
        Verb("pass"),
        Verb("knock", aliases=("klopfen",)),
        Verb("announce", LEVELS[1:], bad=lambda arg: _malformed(f"announce {arg}")),
        TAKE_BACK_VERB,
    ]
)
PUSH = CODEC.base["push"]
RETURN = CODEC.base["return"]
GESUND = CODEC.move("gesund")
SOLO = CODEC.base["solo"]
SCHMEISSEN = CODEC.move("schmeissen")
ARMUT = CODEC.move("armut")
HOCHZEIT = CODEC.base["hochzeit"]
TAKE = CODEC.move("take")
DECLINE = CODEC.move("pass")
KNOCK = CODEC.move("knock")
ANNOUNCE = CODEC.base["announce"]  # ANNOUNCE + 0..3 = 90, 60, 30, schwarz
CALLS = range(KNOCK, ANNOUNCE + 4)
RESERVATION_MOVES = range(SOLO, HOCHZEIT + len(HOCHZEIT_KINDS))
ARMUT_CARDS = range(PUSH, RETURN + 48)
CARD_MOVES = range(RETURN + 48)


KINDS = (1 << 24) - 1  # the first copy of every kind


def _lower_copies(mask: int) -> int:
    """One card per kind: drop the second copy where both are in ``mask``."""
    return mask & ~((mask & ((1 << 24) - 1)) << 24)


def _one_copy(play: TrickPlay, seat: int, legal: int) -> int:
    """The trick core's restriction ``same_kind``: of a kind held twice only the lower copy
    is a move (the two copies are one card to the table; ``"play H10"`` takes the lower)."""
    return legal & ~((legal & KINDS) << 24)  # _lower_copies(legal)


#: The restrictions of every contract's trick core.
ONE_MOVE_PER_KIND: tuple[Restriction, ...] = (("same_kind", _one_copy),)


def _by_kind(mask: int) -> list[int]:
    """One card per kind in ``mask``, in pack order of the kinds (as players sort): the
    lower copy held of each kind.

    >>> [PACK.code(c) for c in _by_kind(PACK.mask("H10.2 CQ.1 CQ.2 DA.2"))]
    ['CQ.1', 'H10.2', 'DA.2']
    """
    low = _lower_copies(mask)
    kinds = (low | low >> 24) & KINDS
    out = []
    while kinds:
        bit = kinds & -kinds
        kind = bit.bit_length() - 1
        out.append(kind if low & bit else kind + 24)
        kinds ^= bit
    return out


class Doppelkopf(Rules["DoppelkopfDeal"]):
    """Doppelkopf with the house rules of ``doppelkopf.txt``: four seats, 48 cards."""

    name = "doppelkopf"
    title = "Doppelkopf"
    pack = DOPPELKOPF
    seats = 4
    hand_size = 12
    talon_size = 0
    default_seat_names = ("P1", "P2", "P3", "P4")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "dulle",
            "second",
            ("second", "second_except_last", "first"),
            "Zwei Herz 10: die zweite sticht die erste (Hausregel), außer im letzten Stich, "
            "oder die erste gewinnt (Turnierregel).",
            "Two Herz 10: the second beats the first (house rule), except in the last "
            "trick, or the first wins (tournament rule).",
        ),
        Option(
            "farbsolo_keeps_dulle",
            False,
            (False, True),
            "Im Farbsolo bleibt die Herz 10 höchster Trumpf (DDV).",
            "In a Farbsolo the Herz 10 stays the highest trump (DDV).",
        ),
        Option(
            "doppelkopf_augen",
            31,
            (31, 40),
            "Ein Stich mit so vielen Augen ist ein Doppelkopf (Extrapunkt).",
            "A trick with this many Augen is a Doppelkopf (extra point).",
        ),
        Option(
            "schmeissen",
            "neunen_oder_koenige",
            ("neunen_oder_koenige", "neunen", "koenige", "aus"),
            "Schmeißen erlaubt bei fünf Neunen und/oder fünf Königen, oder gar nicht.",
            "Throwing in allowed with five nines and/or five kings, or not at all.",
        ),
        Option(
            "both_fail",
            "nobody",
            ("nobody", "augen"),
            "Verfehlen beide Parteien ihre Ansage: niemand gewinnt, oder die Augen zählen.",
            "If both parties miss their announcement: nobody wins, or the Augen decide.",
        ),
        Option(
            "gegen_die_alten",
            False,
            (False, True),
            "Extrapunkt für einen Sieg von Kontra (gegen die Alten).",
            "Extra point when Kontra wins (gegen die Alten).",
        ),
        Option(
            "pflichtsolo",
            "",
            ("", *(f"{s}:{solo}" for s in range(4) for solo in SOLOS)),
            "Pflichtsolo dieses Spiels (setzt der Abend): Sitz und Solo.",
            "This deal's obligatory solo (set by the evening): seat and solo.",
            per_room=False,
        ),
        Option(
            "pflichtsolo_lead",
            "soloist",
            ("soloist", "p1"),
            "Wer beim Pflichtsolo ausspielt (bei der Vorführung P1).",
            "Who leads an obligatory solo (P1 during the Vorführung).",
            per_room=False,
        ),
        take_back_option(
            False,
            "Der Regeltext des Doppelkopf kennt es nicht: gelegt ist gelegt. Eine "
            "Kreuz-Dame und die Karo-Assen des Schweinchens bleiben immer liegen.",
            "The Doppelkopf rules text has no such rule: a card laid is laid. A Kreuz-Dame "
            "and the Schweinchen's Karo Aces always stay.",
        ),
    )

    #: Three cards at a time to P1, P2, P3, P4, four times round.
    dealing = tuple((i % 4, 3) for i in range(16))

    def deal_type(self) -> type[DoppelkopfDeal]:
        """Deals of Doppelkopf start with the Vorbehalt round (or an obligatory solo)."""
        return DoppelkopfDeal

    def stored_outcome(self, outcome: JSON) -> JSON:
        """A stored outcome with result lines as codes: records stored before the lines
        became codes hold them as German text ``[label, points]``."""
        lines = outcome.get("lines")
        if not isinstance(lines, list) or all(isinstance(line, dict) for line in lines):
            return outcome
        coded = legacy_lines(lines)
        return outcome if coded is None else {**outcome, "lines": coded}

    def summarize(self, outcome: JSON) -> JSON:
        """Contract, declarer (soloist, Hochzeiter, poor player; ``None`` in a normal game
        and a deal thrown in) and whether Re won; each seat's card points are its party's
        Augen (``None`` when the deal was thrown in)."""
        contract = outcome["contract"]
        if outcome.get("thrown_in"):
            return {"contract": contract, "declarer": None, "declarer_won": None,
                    "solo": False, "card_points": [None] * 4}  # fmt: skip
        re = set(outcome["re"])
        augen = outcome["augen"]
        declarer = outcome["declarer"]
        return {
            "contract": contract,
            "declarer": declarer,
            "declarer_won": None if declarer is None else outcome["winner"] == "re",
            "solo": contract in SOLOS,  # a declared solo
            "card_points": [augen["re" if s in re else "kontra"] for s in range(4)],
        }


class DoppelkopfDeal(TrickDeal):
    """One deal of Doppelkopf (see the module text)."""

    Phase = Phase
    codec = CODEC
    passive_moves = ("gesund", "pass")  # the turn timer's choice where one is legal
    # the legal moves in the order players see them: cards (and Armut cards) by kind
    sort_legal_moves = False
    play_error = play_error
    # The deal's own state lives in slots: with the base's attributes, an instance dict of
    # more than 30 keys would lose CPython's key sharing, and with it the fast attribute
    # lookups of every action (tests/engine/test_deal_memory.py keeps the count down).
    __slots__ = ("_offer", "_outcome", "_rules", "announcements", "contract", "cq_played_by",
                 "declarer", "hochzeit_kind", "knocks", "known", "partner", "play", "played",
                 "pushed", "reservations", "reserved_at", "returned", "row", "schweinchen",
                 "schweinchen_shown", "shown_as", "start_hands", "thrown_in",
                 "trick_play")  # fmt: skip

    def _start(self) -> None:
        """Check the dealer's seat and set up the deal's state."""
        if self.dealer != self.seat_names[3]:
            raise MalformedError(
                "bad_dealer", "the dealer is P4, the last seat", "der Geber ist P4, der letzte Sitz"
            )
        self.hands = list(self.dealt.hands)
        self.known = list(self.dealt.hands)  # cards each seat knows the place of
        self._phase = VORBEHALT
        self._to_move: int | None = 0
        self.reservations: list[str | None] = [None] * 4
        self.contract = ""
        self.row: DokoContract | None = None  # the contract's row, once decided
        self.declarer: int | None = None  # soloist, Hochzeiter or poor player
        self.hochzeit_kind = ""
        self.partner: int | None = None  # Hochzeit partner or Armut taker
        self.pushed = 0
        self.returned = 0
        self._offer: list[int] = []
        self.thrown_in = ""
        self.knocks: list[int] = []
        self.announcements: dict[int, int] = {}
        self.schweinchen: int | None = None
        self.schweinchen_shown = False
        self.cq_played_by: list[int] = []
        self.reserved_at: int | None = None  # the winning reservation's action index
        self.played = 0  # every card played so far
        self.shown_as: dict[int, str] = {}  # a played card as the table saw it (see _shown)
        self.start_hands: tuple[int, ...] = ()
        #: The rules of tricks 1–11 and of trick 12 (they differ with ``dulle =
        #: second_except_last``); set when play begins and on a Schweinchen knock.
        self._rules: tuple[TrickRules, TrickRules] = (_NORMAL_ORDER, _NORMAL_ORDER)
        #: The trick core of the play phase (``None`` before it: the card plays of
        #: :class:`CardPlayDeal` go through it).
        self.play: TrickPlay | None = None
        #: The tricks as views and the outcome read them: before play (and in a deal thrown
        #: in) an empty trick core in the normal game's order, from then on :attr:`play`.
        self.trick_play = TrickPlay(_NORMAL_ORDER, self.hands, leader=0, tricks=12)
        self._outcome: JSON | None = None  # the only cache: the finished deal's outcome
        forced = str(self.options["pflichtsolo"])
        if forced:
            seat_text, solo = forced.split(":")
            leader = 0 if self.options["pflichtsolo_lead"] == "p1" else None
            self._declare_solo(int(seat_text), solo, leader)

    # ------------------------------------------------------------------ trick state

    @property
    def trick(self) -> list[int]:
        """The cards of the running trick in playing order."""
        return self.trick_play.trick

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the running trick."""
        return self.trick_play.leader

    @property
    def tricks_won(self) -> list[int]:
        """Each seat's number of tricks won."""
        return self.trick_play.tricks_won

    @property
    def cards_played(self) -> int:
        """The cards played so far in this deal."""
        play = self.trick_play
        return 4 * len(play.tricks) + len(play.trick)

    # ------------------------------------------------------------------ contract

    @property
    def solo_scored(self) -> bool:
        """Whether the game is scored as a solo (×3, no extra points): a contract without
        extra points, or a Hochzeit whose partner was not found in three tricks."""
        row = self.row
        if row is None:
            return False
        if not row.premiums:
            return True
        return row.partner == "trick" and self.partner is None and len(self.tricks) >= 3

    def _decide(self, contract: str) -> None:
        self.contract = contract
        self.row = CONTRACTS[contract]

    def _declare_solo(self, seat: int, solo: str, leader: int | None = None) -> None:
        self._decide(solo)
        self.declarer = seat
        self._begin_play(seat if leader is None else leader)

    def _rules_for(self, number: int) -> TrickRules:
        """The trick rules of trick ``number`` (0-based)."""
        return self._rules[1] if number == 11 else self._rules[0]

    def _sorted_hand(self, seat: int) -> list[str]:
        """``seat``'s cards as players hold them: trumps of the contract (the normal game's
        while the Vorbehalte run) strongest first, then the plain suits."""
        return [PACK.code(c) for c in self.trick_play.rules.hand_order(self.hands[seat])]

    def _set_rules(self) -> None:
        assert self.row is not None
        dulle = str(self.options["dulle"])
        first, last = (
            trick_rules(
                self.row,
                schweinchen=self.schweinchen is not None,
                dulle_second=dulle == "second" or (dulle == "second_except_last" and not last),
                keeps_dulle=bool(self.options["farbsolo_keeps_dulle"]),
            )
            for last in (False, True)
        )
        self._rules = (first, last)

    def re_party(self) -> set[int]:
        """The seats of Re as far as the deal has decided them (the soloist alone in solos)."""
        if self.row is not None and self.row.partner:
            assert self.declarer is not None
            return {self.declarer} | ({self.partner} if self.partner is not None else set())
        if self.declarer is not None:
            return {self.declarer}
        return {s for s in range(4) if self.dealt.hands[s] & CQ}

    def _schmeissen_allowed(self, hand: int) -> bool:
        rule = self.options["schmeissen"]
        nines = (hand & NINES).bit_count()
        kings = (hand & KINGS).bit_count()
        return (rule in ("neunen_oder_koenige", "neunen") and nines >= 5) or (
            rule in ("neunen_oder_koenige", "koenige") and kings >= 5
        )

    # ------------------------------------------------------------------ vorbehalt

    def _legal_in_vorbehalt(self) -> list[Move]:
        assert self._to_move is not None
        hand = self.hands[self._to_move]
        moves = [GESUND, *CODEC.range_of("solo")]
        if self._schmeissen_allowed(hand):
            moves.append(SCHMEISSEN)
        if (hand & NORMAL_TRUMPS).bit_count() <= 3:
            moves.append(ARMUT)
        if hand & CQ == CQ:
            moves.extend(CODEC.range_of("hochzeit"))
        return moves

    def _apply_in_vorbehalt(self, seat: int, move: Move) -> None:
        self.reservations[seat] = CODEC.text(move)
        if seat < 3:
            self._to_move = seat + 1
            return
        claims: list[tuple[int, int, DokoContract, str]] = []
        for s, reservation in enumerate(self.reservations):
            assert reservation is not None
            word, _, arg = reservation.partition(" ")
            if word != "gesund":
                row = CONTRACTS[arg] if word == "solo" else RESERVATIONS[word]
                assert row.priority is not None
                claims.append((row.priority, s, row, arg))
        if not claims:
            holders = [s for s in range(4) if self.hands[s] & CQ == CQ]
            if holders:
                self._decide("stille_hochzeit")
                self.declarer = holders[0]
            else:
                self._decide("normal")
            self._begin_play(0)
            return
        _, winner, row, arg = min(claims, key=lambda claim: claim[:2])
        self.declarer = winner
        self.reserved_at = len(self.history) - 4 + winner
        self._decide(row.name)
        if row.partner == "trick":
            self.hochzeit_kind = arg
        if row.starts == "thrown_in":
            self._throw_in(row.name)
        elif row.starts == "push":
            self._phase = PUSHING
            self._to_move = winner
        else:
            self._begin_play(winner if row.leader == "declarer" else 0)

    def _explain_in_vorbehalt(self, seat: int, move: Move) -> IllegalActionError:
        if move == ARMUT:
            return IllegalActionError(
                "no_armut",
                "Armut needs three trumps or fewer",
                "Armut braucht drei Trümpfe oder weniger",
            )
        if CODEC.is_verb(move, "hochzeit"):
            return IllegalActionError(
                "no_hochzeit",
                "a Hochzeit needs both Kreuz Damen",
                "eine Hochzeit braucht beide Kreuz Damen",
            )
        if move == SCHMEISSEN:
            return IllegalActionError(
                "no_schmeissen",
                "this hand may not be thrown in",
                "dieses Blatt darf nicht geschmissen werden",
            )
        return self._not_now(seat, move)

    # ------------------------------------------------------------------ armut

    def _pushable(self) -> int:
        assert self.declarer is not None
        hand = self.hands[self.declarer]
        trumps = hand & NORMAL_TRUMPS
        left = 3 - self.pushed.bit_count()
        return trumps if trumps.bit_count() >= left else hand

    def _legal_in_push(self) -> list[Move]:
        return [PUSH + c for c in _by_kind(self._pushable())]

    def _apply_in_push(self, seat: int, move: Move) -> None:
        card = move - PUSH
        self.hands[seat] &= ~(1 << card)
        self.pushed |= 1 << card
        if self.pushed.bit_count() == 3:
            self._phase = OFFERING
            self._offer = [(seat + k) % 4 for k in (1, 2, 3)]
            self._to_move = self._offer.pop(0)

    def _explain_in_push(self, seat: int, move: Move) -> IllegalActionError:
        if CODEC.is_verb(move, "push"):
            if not (self.hands[seat] >> (move - PUSH)) & 1:
                return self._not_held(move - PUSH)
            return IllegalActionError(
                "armut_trumps",
                "all your trumps must be among the three cards",
                "alle deine Trümpfe müssen unter den drei Karten sein",
            )
        return self._not_now(seat, move)

    def _legal_in_offer(self) -> list[Move]:
        return [TAKE, DECLINE]

    def _apply_in_offer(self, seat: int, move: Move) -> None:
        if move == TAKE:
            self.partner = seat
            self.hands[seat] |= self.pushed
            self.known[seat] |= self.pushed
            assert self.declarer is not None
            self.known[self.declarer] |= self.pushed
            self._phase = RETURNING
            return
        if self._offer:
            self._to_move = self._offer.pop(0)
        else:
            self._throw_in("armut")

    def _explain_in_offer(self, seat: int, move: Move) -> IllegalActionError:
        return self._not_now(seat, move)

    def _legal_in_return(self) -> list[Move]:
        assert self._to_move is not None
        return [RETURN + c for c in _by_kind(self.hands[self._to_move])]

    def _apply_in_return(self, seat: int, move: Move) -> None:
        assert self.declarer is not None
        card = move - RETURN
        self.hands[seat] &= ~(1 << card)
        self.returned |= 1 << card
        self.known[self.declarer] |= 1 << card  # shown to him as it comes
        if self.returned.bit_count() == 3:
            self.hands[self.declarer] |= self.returned
            self._begin_play(0)

    def _explain_in_return(self, seat: int, move: Move) -> IllegalActionError:
        if CODEC.is_verb(move, "return"):
            return self._not_held(move - RETURN)
        return self._not_now(seat, move)

    def _throw_in(self, reason: str) -> None:
        self.thrown_in = reason
        self._phase = FINISHED
        self._to_move = None

    # ------------------------------------------------------------------ play

    def _begin_play(self, leader: int) -> None:
        self._set_rules()
        self._phase = PLAYING
        first, last = self._rules
        assert self.row is not None
        # the hooks only where they have something to do: the rules of the last trick
        # differ with ``dulle = second_except_last``, a partner is found by a Hochzeit
        self.play = self.trick_play = TrickPlay(
            first,
            self.hands,
            leader=leader,
            tricks=12,
            rules_for=self._rules_for if first is not last else None,
            after_trick=self._find_partner if self.row.partner == "trick" else None,
            restrictions=ONE_MOVE_PER_KIND,
            # only a seat holding both copies of a kind has a copy to drop (its hand only
            # loses cards from now on; a card taken back returns to it)
            restricted=[s for s, hand in enumerate(self.hands) if hand & hand >> 24],
        )
        self._to_move = leader
        self.start_hands = tuple(self.hands)

    def _calls(self, seat: int) -> list[Move]:
        """A seat's knock or announcements (until the fifth card of the deal lies)."""
        if self._phase is not PLAYING or self.played.bit_count() > 5:
            return []
        if seat not in self.knocks:
            return [KNOCK]
        done = self.announcements.get(seat, 0)
        return [ANNOUNCE + i for i in range(done, 4)]

    def _legal_in_play(self) -> list[Move]:
        assert self._to_move is not None and self.play is not None
        # the trick core's legal cards are one per kind already (ONE_MOVE_PER_KIND)
        return _by_kind(self.play.legal()) + self._calls(self._to_move)

    def _apply_in_play(self, seat: int, move: Move) -> None:
        if move >= 48:
            self._call(seat, move)
        else:
            super()._apply_in_play(seat, move)

    def _after_card(self, play: TrickPlay) -> None:
        """After a card went through the trick core (the last action of the history): the
        table's name for its copy, the cards played, a Kreuz Dame's player, a Karo Ass of
        the Schweinchen shown; then the next seat to move or the end."""
        seat, card = self.history[-1]
        played = self.played
        # the table numbers the copies of a kind in the order they come (see _shown)
        self.shown_as[card] = CODES[card % 24 + 24 if played & COPIES_OF[card] else card % 24]
        self.played = played | BIT[card]
        if card in CQ_CARDS:
            self.cq_played_by.append(seat)
        if seat == self.schweinchen and (DA >> card) & 1:
            self.schweinchen_shown = True
        if play.finished:
            self._follow_tricks(play)
        else:
            self._to_move = play.to_move

    def _legal_off_turn_in_play(self, seat: int) -> list[Move]:
        return self._calls(seat)

    # ------------------------------------------------------------------ taking back

    #: Why a card stays on the table although the option allows taking back.
    take_back_errors: ClassVar[dict[str, tuple[str, str, str]]] = {
        "revealed": (
            "take_back_revealed",
            "this card told the table something (a Kreuz-Dame, the Schweinchen): it stays",
            "diese Karte hat dem Tisch etwas verraten (Kreuz-Dame, Schweinchen): sie bleibt",
        )
    }

    def _take_back_veto(self, seat: int, card: int) -> str | None:
        """A Kreuz-Dame stays (in a normal game it told the table who is Re, in a stille
        Hochzeit the second one reveals it; one rule for every contract), and so does a
        Karo Ass of the Schweinchen once shown: what the table saw cannot be unseen."""
        if card in CQ_CARDS or (seat == self.schweinchen and (DA >> card) & 1):
            return "revealed"
        return None

    def _after_take_back(self, seat: int, card: int) -> None:
        """The card is unplayed again: its copy's name goes with it (the copies of a kind
        are numbered in the order the table saw them)."""
        self.played &= ~BIT[card]
        del self.shown_as[card]

    def _apply_off_turn_in_play(self, seat: int, move: Move) -> None:
        self._call(seat, move)

    def _explain_in_play(self, seat: int, move: Move) -> IllegalActionError:
        """A card: the trick core's rule (:data:`play_error`); a knock or announcement out
        of its time, or a move of another phase: :meth:`_not_now`."""
        if not 0 <= move < 48:
            return self._not_now(seat, move)
        return super()._explain_in_play(seat, move)

    def random_action(self, rng: random.Random) -> tuple[int | None, Move]:
        """Random legal action: mostly "gesund" and card plays, sometimes a knock or call."""
        phase = self._phase
        if phase is VORBEHALT and rng.random() < 0.8:
            return None, GESUND
        if phase is not PLAYING:
            return None, rng.choice(self.legal_moves())
        if self.played.bit_count() <= 5 and rng.random() < 0.08:
            callers = [s for s in range(4) if self._calls(s)]
            if callers:
                seat = rng.choice(callers)
                return seat, rng.choice(self._calls(seat))
        # a card: the choice among the cards of legal_moves() (one per kind, in kind
        # order), drawn as rng.choice draws from that list, without building it
        assert self.play is not None
        low = self.play.legal()  # one copy per kind (ONE_MOVE_PER_KIND)
        kinds = (low | low >> 24) & KINDS
        n = rng.choice(range(kinds.bit_count()))
        while n:  # nth_card(kinds, n), written out
            kinds &= kinds - 1
            n -= 1
        kind = (kinds & -kinds).bit_length() - 1
        return None, kind if (low >> kind) & 1 else kind + 24

    def _call(self, seat: int, move: Move) -> None:
        if move == KNOCK:
            self.knocks.append(seat)
            assert self.row is not None
            if self.hands[seat] & DA == DA and self.row.schweinchen and self.schweinchen is None:
                self.schweinchen = seat
                self._set_rules()  # the two Karo Assen now rank above the Herz 10
                assert self.play is not None
                self.play.set_rules(self._rules_for(len(self.tricks)))
        else:
            self.announcements[seat] = move - ANNOUNCE + 1

    def _find_partner(self, play: TrickPlay) -> None:
        """After a trick: a Hochzeit's partner is the winner of the first foreign trick of
        the announced kind among the first three."""
        assert self.row is not None
        if self.row.partner != "trick" or self.partner is not None or len(play.tricks) > 3:
            return
        _, trick, winner = play.tricks[-1]
        lead = trick[0]
        trump = bool((NORMAL_TRUMPS >> lead) & 1)
        kind = self.hochzeit_kind
        fits = (
            kind == "erster"
            or (kind == "trumpf" and trump)
            or (not trump and HOCHZEIT_SUIT.get(kind) == PACK.cards[lead].suit)
        )
        if fits and winner != self.declarer:
            self.partner = winner

    # ------------------------------------------------------------------ text

    def parse(self, text: str) -> Move:
        """Read a move; a card may be named by kind (``H10``) or copy (``H10.2``), either
        way the lower copy of that kind the mover holds."""
        move = CODEC.parse(text)
        seat = self._to_move
        if move in CARD_MOVES and seat is not None:
            word, card = CODEC.verb_of(move)
            held = COPIES_OF[card] & self.hands[seat]
            if held:
                return CODEC.base[word] + (held & -held).bit_length() - 1
        return move

    def _not_now(self, seat: int, move: Move) -> IllegalActionError:
        """A knock or announcement out of its time, or a move of another phase."""
        if move in CALLS:
            return self.explain_off_turn(seat, move)
        return IllegalActionError(
            "wrong_phase",
            f"'{self.move_text(move)}' is not possible now",
            f"'{self.move_text(move)}' ist jetzt nicht möglich",
        )

    def explain_off_turn(self, seat: int, move: Move) -> IllegalActionError:
        """Why a knock or announcement is refused; other moves out of turn: not your turn."""
        if move in CALLS:
            if self._phase is not PLAYING or self.cards_played > 5:
                return IllegalActionError(
                    "too_late",
                    "knocking and announcing end with the fifth card",
                    "Klopfen und Ansagen enden mit der fünften Karte",
                )
            if move == KNOCK:
                return IllegalActionError(
                    "knocked_already",
                    "everybody knocks once at most",
                    "jeder klopft höchstens einmal",
                )
            if seat not in self.knocks:
                return IllegalActionError(
                    "knock_first",
                    "announce together with your own knock",
                    "angesagt wird zu deinem eigenen Klopfen",
                )
            return IllegalActionError(
                "announced_already",
                "announce a higher level than before",
                "sage eine höhere Stufe an als vorher",
            )
        return super().explain_off_turn(seat, move)

    def _not_held(self, card: int) -> IllegalActionError:
        return play_error("not_held", suit=None, card=PACK.code(card))

    # ------------------------------------------------------------------ the views' hooks
    # The frame of every view, the replay state and the hidden cards are TrickDeal's; what
    # Doppelkopf has of its own comes through its hooks. Parties, the contract of a stille
    # Hochzeit, the reservations, the Armut cards and the Schweinchen depend on who looks:
    # they are the seat's own part.

    view_off_turn = True  # knocks and announcements are calls out of turn
    has_discards = False  # the Armut cards change hands, nothing is laid aside

    def _sort_rules(self) -> TrickRules:
        """The contract's trick rules (the normal game's while the Vorbehalte run)."""
        return self.trick_play.rules

    def _hand_json(self, seat: int) -> tuple[list[str], list[JSON]]:
        """``seat``'s cards as players hold them (the contract's trumps strongest first,
        then each plain suit), numbered after the copies played, and so grouped."""
        groups = self.trick_play.rules.hand_groups(
            PACK, self.hands[seat], lambda cards: self._shown(cards, True)
        )
        return [code for group in groups for code in group["cards"]], groups

    def _view_trick(self, leader: int, cards: Sequence[int], winner: int | None) -> JSON:
        """A trick with its cards as the table saw them while the deal runs (see
        :meth:`_shown`), by their own copies once it is finished."""
        if self._phase is FINISHED:
            return self._trick_json(leader, cards, winner)
        return self._shown_trick(leader, cards, winner)

    def _view_public(self) -> JSON:
        """The Hochzeit's kind, the partner found, a deal thrown in, the knocks and the
        announcements, the cards played."""
        row = self.row
        return {
            "hochzeit": self.hochzeit_kind or None,
            "partner": self.partner if row is not None and row.partner else None,
            "thrown_in": self.thrown_in or None,
            "knocks": list(self.knocks),
            "announcements": [
                {"seat": s, "level": LEVELS[lv]} for s, lv in self.announcements.items()
            ],
            "cards_played": self.cards_played,
        }

    def _view_own(self, seat: int | None) -> JSON:
        """The reservations (another seat's only as "gesund" or "vorbehalt"), the contract
        and its declarer (a stille Hochzeit is a normal game to all but its holder until
        his second Kreuz Dame), the Armut cards (counted, shown to the poor player and the
        taker), the Schweinchen (its holder knows it before he shows it) and the parties
        as far as ``seat`` knows them."""
        parties = self.public_parties()
        if seat is not None and parties[seat] is None:
            parties[seat] = self.own_party(seat)
        row = self.row
        armut = row is not None and row.partner == "exchange"
        in_armut = armut and seat is not None and seat in (self.declarer, self.partner)
        resolved = self._phase is not VORBEHALT
        contract = self.contract
        secret = (
            row is not None
            and row.secret
            and seat != self.declarer
            and len(self.cq_played_by) < 2
            and self._phase is not FINISHED
        )
        if secret:
            contract = "normal"  # a normal game to all but the holder, until his second Dame
        return {
            "reservations": [
                r if (seat == s or r is None) else ("gesund" if r == "gesund" else "vorbehalt")
                for s, r in enumerate(self.reservations)
            ],
            "contract": (contract or None) if resolved else None,
            "declarer": self.declarer if resolved and not secret else None,
            "armut": {
                "pushed": self._shown_list(self.pushed) if in_armut else self.pushed.bit_count(),
                "returned": self._shown_list(self.returned)
                if in_armut
                else self.returned.bit_count(),
            }
            if armut
            else None,
            "schweinchen": self.schweinchen
            if self.schweinchen_shown or seat == self.schweinchen
            else None,
            "parties": parties,
        }

    def _hidden_extra(self, seat: int | None) -> int:
        """The Armut cards lying face down: pushed, not yet taken; returned, not yet
        picked up."""
        if self._phase in (PUSHING, OFFERING):
            return self.pushed
        if self._phase is RETURNING:
            return self.returned
        return 0

    def _shown_to(self, seat: int | None) -> int:
        """The cards ``seat`` knows the place of: its own dealt cards, and the Armut cards
        it exchanged (the poor player and the taker are shown them)."""
        return 0 if seat is None else self.known[seat]

    def _count(self, mask: int) -> str:
        return str(COUNTER.raw(mask))

    def _party_points(self) -> JSON | None:
        """The Augen per party once the parties are set (as in the outcome)."""
        if self._phase not in (PLAYING, FINISHED) or self.thrown_in:
            return None
        re = self.re_party()
        augen = [COUNTER.raw(w) for w in self.won]
        return {
            "re": sum(a for s, a in enumerate(augen) if s in re),
            "kontra": sum(a for s, a in enumerate(augen) if s not in re),
        }

    def _replay_hand(self, seat: int) -> list[str]:
        """``seat``'s cards as players hold them, by their own copies."""
        return self._sorted_hand(seat)

    def _replay_extra(self) -> JSON:
        """Every seat's real party and reservation (the spectator view hides both until
        the table can know them), and the trick and last trick with the cards' own copies
        (as in the hands and the outcome; the views number copies in the order played)."""
        playing = self._phase in (PLAYING, FINISHED) and not self.thrown_in
        re = self.re_party() if playing else set()
        tricks = self.tricks
        return {
            "parties": [("re" if s in re else "kontra") if playing else None for s in range(4)],
            "reservations": list(self.reservations),
            "trick": self._trick_json(self.leader, self.trick, None),
            "last_trick": self._trick_json(*tricks[-1]) if tricks else None,
        }

    # ------------------------------------------------------------------ knowledge

    def public_parties(self) -> list[str | None]:
        """Each seat's party as the whole table knows it (``None``: not yet known)."""
        if self._phase is FINISHED and not self.thrown_in:
            re = self.re_party()
            return ["re" if s in re else "kontra" for s in range(4)]
        if self._phase is not PLAYING:
            return [None] * 4
        row = self.row
        assert row is not None
        decided = row.parties_known or (
            row.partner == "trick" and (self.partner is not None or len(self.tricks) >= 3)
        )
        if decided:
            re = self.re_party()
            return ["re" if s in re else "kontra" for s in range(4)]
        known: list[str | None] = [None] * 4
        if row.partner == "trick":
            assert self.declarer is not None
            known[self.declarer] = "re"
            return known
        for s in self.cq_played_by:
            known[s] = "re"
        if len(self.cq_played_by) == 2:
            known = [k or "kontra" for k in known]
        return known

    def own_party(self, seat: int) -> str | None:
        """What ``seat`` knows of its own party from its own cards."""
        if self._phase not in (PLAYING, FINISHED) or self.thrown_in:
            return None
        assert self.row is not None
        if (
            self.row.partner == "trick"
            and seat != self.declarer
            and self.partner is None
            and len(self.tricks) < 3
        ):
            return None
        return "re" if seat in self.re_party() else "kontra"

    def unplaced_for(self, seat: int | None) -> int:
        """Hidden cards but those whose place the table was told: the Kreuz Damen of a
        declared Hochzeit, the second Karo Ass of a Schweinchen once one was played."""
        placed = 0
        if self.row is not None and self.row.partner == "trick" and self.declarer is not None:
            placed |= self.hands[self.declarer] & CQ
        if self.schweinchen_shown and self.schweinchen is not None:
            placed |= self.hands[self.schweinchen] & DA
        return self.hidden_from(seat) & ~placed & ~self.shown_back

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """Reservations show as "vorbehalt" until they are resolved, the winning one as it
        was said from then on (the view names it too); the Armut cards are seen only by the
        poor player and the taker (a spectator never sees them, also while nobody has
        taken them yet)."""
        seat, move = self.history[index]
        if viewer == seat:
            return self.move_text(move)
        if move in RESERVATION_MOVES:
            return self.move_text(move) if index == self.reserved_at else "vorbehalt"
        if move in ARMUT_CARDS and (viewer is None or viewer not in (self.declarer, self.partner)):
            return CODEC.verb_of(move)[0]
        return self.move_text(move)

    def _trick_json(self, leader: int, cards: Sequence[int], winner: int | None) -> JSON:
        """A trick with the cards' own copies (the trick core's :func:`trick_json`)."""
        return trick_json(PACK.code, leader, cards, winner)

    # Which copy of a kind a player holds or plays is the engine's bookkeeping, not the
    # table's: a played "H10.2" would tell that its player held no other Herz 10. While the
    # deal runs, views number the copies of a kind in the order the table saw them: played
    # cards in the order played, then the seat's own cards, then a list's (Armut) cards.

    def _shown_trick(self, leader: int, cards: Sequence[int], winner: int | None) -> JSON:
        """A trick with the copies named as the table saw them played."""
        shown = self.shown_as
        return {"leader": leader, "cards": [shown[c] for c in cards], "winner": winner}

    def _shown(self, cards: Sequence[int], start_after_played: bool) -> list[str]:
        """``cards`` (copies of a kind next to each other), numbered by kind."""
        counts: dict[int, int] = {}
        out = []
        played = self.played if start_after_played else 0
        for card in cards:
            kind = card % 24
            n = counts.get(kind)
            if n is None:
                n = (played & COPIES_OF[card]).bit_count()
            counts[kind] = n + 1
            out.append(CODES[kind + 24 * n])
        return out

    def _shown_list(self, mask: int) -> list[str]:
        """Cards laid aside (Armut), in pack order of their kinds, numbered by kind."""
        return self._shown(sorted(cards_of(mask), key=lambda c: c % 24), False)

    # ------------------------------------------------------------------ outcome

    def outcome(self) -> JSON | None:
        """The result of the finished deal, or ``None`` while it runs."""
        if self._phase is not FINISHED:
            return None
        if self._outcome is None:
            self._outcome = self._score()
        return self._outcome

    def extras(self, re: set[int]) -> tuple[dict[str, int], list[JSON]]:
        """Extra points per party (none in a game scored as a solo, DK-A15)."""
        if self.solo_scored:
            return {"re": 0, "kontra": 0}, []
        return extra_points(
            self.tricks, re, self.schweinchen, int(self.options["doppelkopf_augen"])
        )

    def _score(self) -> JSON:
        if self.thrown_in:
            return {
                "contract": self.contract,
                "thrown_in": self.thrown_in,
                "declarer": self.declarer,
                "tricks": [],
                "settlement": [0, 0, 0, 0],
            }
        re = self.re_party()
        re_augen = sum(COUNTER.raw(self.won[s]) for s in re)
        re_tricks = sum(1 for t in self.tricks if t[2] in re)
        announced: dict[str, int] = {}
        for s, level in self.announcements.items():
            p = "re" if s in re else "kontra"
            announced[p] = max(announced.get(p, 0), level)
        extra_points, extra_list = self.extras(re)
        result = score(
            re_augen,
            re_tricks,
            12 - re_tricks,
            len(self.knocks),
            announced,
            extra_points,
            both_fail=str(self.options["both_fail"]),
            gegen_die_alten=bool(self.options["gegen_die_alten"]),
        )
        solo = self.solo_scored
        settlement = [0, 0, 0, 0]
        if result.winner is not None:
            for s in range(4):
                sign = 1 if ("re" if s in re else "kontra") == result.winner else -1
                settlement[s] = sign * result.value * (3 if solo and s in re else 1)
        return {
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self.partner,
            "solo_scored": solo,
            "re": sorted(re),
            "knocks": len(self.knocks),
            "announcements": {p: LEVELS[lv] for p, lv in sorted(announced.items())},
            "schweinchen": self.schweinchen,
            "tricks": self.trick_play.tricks_json(PACK.code),
            "augen": {"re": re_augen, "kontra": 240 - re_augen},
            "extras": extra_list,
            "winner": result.winner,
            "value": result.value,
            "lines": result.lines,
            "settlement": settlement,
        }

    def invariant_errors(self) -> list[str]:
        """Every card in one pile; 240 Augen in all."""
        if self._phase is not FINISHED or self.thrown_in:
            return []
        errors: list[str] = []
        union = self._place_errors(self.won, errors, "a card lies in two piles")
        if union != DOPPELKOPF.full:
            errors.append("not every card ended in a pile")
        total = sum(COUNTER.raw(p) for p in self.won)
        if total != 240:
            errors.append(f"Augen add up to {total}, not 240")
        return errors
