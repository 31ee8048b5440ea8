"""What every game module provides: a rules value with options, and a deal state machine.

A **game is a value** (:class:`Rules`): its name, pack, number of active seats and the
house-rule options it offers. Given options, seat names, a dealer and the dealt cards it
creates a **deal** (:class:`Deal`), a state machine that knows its phase, whose turn it is,
its legal moves, applies a move after checking it, shows one seat's view and, once
finished, its outcome.

Moves are small ints inside the engine (cheap to generate and compare); every move has
one canonical text (``"bid zweier"``, ``"discard HK"``, ``"play T21"``) used at the edges:
in records, on the wire and in the logs. A game numbers its moves with a
:class:`~server.engine.moves.MoveCodec` built from its verbs. :meth:`Deal.parse` turns
text into a move and raises :class:`MalformedError`; :meth:`Deal.apply` raises
:class:`IllegalActionError`.

**Phases are an enum per game** (``Phase``, a :class:`~enum.StrEnum` whose values are the
phase names views show), and each phase has one handler of each kind, found by name when
the deal class is created (OpenSpiel's ``LegalActionsIn<Phase>`` shape):
``_legal_in_<phase>(self) -> list[Move]``, ``_apply_in_<phase>(self, seat, move)`` and
optionally ``_explain_in_<phase>(self, seat, move) -> IllegalActionError`` (default: the
move is not possible in this phase). Calls out of turn (Doppelkopf's Klopfen) have
``_legal_off_turn_in_<phase>(self, seat)`` and ``_apply_off_turn_in_<phase>``. A phase
without moves (``finished``) has no handlers.

**Contracts are data**: one frozen :class:`Contract` record per row of a game's contract
table; a game extends the record with its own fields.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from server.engine import fair
from server.engine.bits import cards_of
from server.engine.cards import Pack
from server.engine.errors import IllegalActionError, MalformedError, PlayErrors, take_back_error
from server.engine.moves import MoveCodec, Verb
from server.engine.moves import malformed_action as malformed_action

if TYPE_CHECKING:
    from server.engine.tricks import TrickPlay

#: The room option that allows taking back the last card (:mod:`server.engine.tricks`,
#: "Taking back a card"); each game declares it with its own default (:func:`take_back_option`).
TAKE_BACK_OPTION = "take_back"
#: The verb of the take-back move, the last of a card game's codec (its text: "takeback").
TAKE_BACK_VERB = Verb("takeback", aliases=("zurueck", "zurück"))

Move = int
OptionValue = bool | int | str
JSON = dict[str, Any]
DealT = TypeVar("DealT", bound="Deal")
ContractT = TypeVar("ContractT", bound="Contract")


@dataclass(frozen=True, slots=True)
class Option:
    """A house-rule option of a game: name, default, allowed values, one-line help."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    help_de: str
    help_en: str
    per_room: bool = True

    def check(self, value: object) -> OptionValue:
        """Return ``value`` if it is allowed for this option; raise :class:`MalformedError`."""
        if type(value) is not type(self.default) or value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise MalformedError(
                "bad_option",
                f"option '{self.name}' must be one of {allowed}, not {value!r}",
                f"Option '{self.name}' muss einer der Werte {allowed} sein, nicht {value!r}",
            )
        return value


def take_back_option(default: bool, why_de: str, why_en: str) -> Option:
    """The room option ``take_back`` with a game's default and the reason for it (the
    game's own knowledge: whether its table lets a mis-played card be corrected)."""
    return Option(
        TAKE_BACK_OPTION,
        default,
        (default, not default),
        "Zurücknehmen: die zuletzt gespielte Karte darf zurückgenommen werden, solange der "
        f"Stich offen ist und noch niemand danach gespielt hat. {why_de}",
        "Take back: the last card played may be taken back while the trick is open and "
        f"nobody has played after it. {why_en}",
    )


@dataclass(frozen=True, slots=True)
class Contract:
    """One row of a game's contract table (a game subclasses this with its own fields).

    ``name`` is the code (``"zweier"``, ``"damen"``, ``"raeuber"``; the catalogues say it
    in German or English); ``rank`` orders the bidding (higher beats lower); ``value`` is
    what the game is worth (its factor or base value); ``talon`` how many cards of the
    talon the declarer takes; ``leader`` who leads the first trick (``"declarer"`` or
    ``"vorhand"``); ``positive`` whether the declarer wants tricks; ``solo`` whether it is
    played alone against all; ``premiums`` whether premiums count in it.
    """

    name: str
    rank: int = 0
    value: int = 1
    talon: int = 0
    leader: str = "declarer"
    positive: bool = True
    solo: bool = False
    premiums: bool = True


def contract_table(*rows: ContractT) -> dict[str, ContractT]:
    """The contracts by name, checking that names and ranks are unique.

    >>> table = contract_table(Contract("dreier", rank=1), Contract("zweier", rank=2))
    >>> table["zweier"].rank
    2
    """
    table = {row.name: row for row in rows}
    ranks = [row.rank for row in rows if row.rank]
    if len(table) != len(rows) or len(set(ranks)) != len(ranks):
        raise ValueError("contract names and ranks must be unique")
    return table


@dataclass(frozen=True, slots=True)
class PhaseHandlers:
    """The handlers of one phase (see the module text)."""

    legal: Callable[[Any], list[int]]
    apply: Callable[[Any, int, int], None]
    explain: Callable[[Any, int, int], IllegalActionError] | None
    legal_off_turn: Callable[[Any, int], list[int]] | None
    apply_off_turn: Callable[[Any, int, int], None] | None


@dataclass(frozen=True, slots=True)
class Dealt:
    """The chance part of a deal: each active seat's hand (a mask) and the ordered talon."""

    hands: tuple[int, ...]
    talon: tuple[int, ...] = ()


#: The talon as the receiver of a packet (:func:`deal_packets`).
TALON = -1


def deal_packets(pack: Pack, order: Sequence[int], packets: Sequence[tuple[int, int]]) -> Dealt:
    """Deal the shuffled ``order`` packet by packet: ``(seat, count)`` gives the next
    ``count`` cards to ``seat`` (:data:`TALON`: to the talon, which keeps their order).

    >>> from server.engine.cards import TAROCK
    >>> dealt = deal_packets(TAROCK, list(range(54)), [(TALON, 6), (0, 16), (1, 16), (2, 16)])
    >>> dealt.talon, TAROCK.codes(dealt.hands[0])[:3]
    ((0, 1, 2, 3, 4, 5), ['T7', 'T8', 'T9'])
    >>> deal_packets(TAROCK, [0] * 54, [(0, 54)])
    Traceback (most recent call last):
    ...
    ValueError: order must be a permutation of the pack
    """
    try:
        bits = [_BITS[card] for card in order]
    except (TypeError, IndexError):  # not a card's index
        bits = []
    # powers of two add up to the full pack only if they are its cards, each once (a card
    # twice carries into the next bit and leaves its own bit empty)
    if len(bits) != len(pack) or sum(bits) != pack.full or min(order) < 0:
        raise ValueError("order must be a permutation of the pack")
    hands: list[int] = []
    talon: list[int] = []
    at = 0
    for seat, count in packets:
        end = at + count
        if seat == TALON:
            talon.extend(order[at:end])
        else:
            if seat >= len(hands):
                hands += [0] * (seat + 1 - len(hands))
            hands[seat] |= sum(bits[at:end])  # distinct bits: the sum is their union
        at = end
    if at != len(order):
        raise ValueError("the packets must hand out the whole pack")
    return Dealt(tuple(hands), tuple(talon))


#: Every card play ``(seat, card)`` of up to six seats, built once: a deal's history keeps
#: these instead of a new pair for every card.
_CARD_ACTIONS = tuple(tuple((seat, card) for card in range(64)) for seat in range(6))

#: The mask of each card that a pack can have (``1 << card``), looked up instead of shifted.
_BITS = tuple(1 << card for card in range(64))


class Rules(ABC, Generic[DealT]):
    """A game: a value with a name, a pack and options, that creates deals.

    How the cards are dealt is data: ``dealing``, the packets in the order they are dealt
    (:func:`deal_packets`); a game with a dealing that packets cannot describe overrides
    :meth:`deal_cards`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    pack: ClassVar[Pack]
    seats: ClassVar[int]
    hand_size: ClassVar[int]
    talon_size: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    default_seat_names: ClassVar[tuple[str, ...]]

    def resolve_options(self, given: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """Return the full option set: defaults overridden by ``given``, each value checked."""
        resolved: dict[str, OptionValue] = {o.name: o.default for o in self.options}
        if not given:
            return resolved
        known = {o.name: o for o in self.options}
        for name, value in given.items():
            if name not in known:
                raise MalformedError(
                    "unknown_option",
                    f"{self.title} has no option '{name}'",
                    f"{self.title} kennt keine Option '{name}'",
                )
            resolved[name] = known[name].check(value)
        return resolved

    #: ``(seat, count)`` per packet in dealing order (:data:`TALON` for the talon).
    dealing: ClassVar[tuple[tuple[int, int], ...]] = ()
    #: One game's rules serve all its deals: a deal's snapshot shares them
    #: (:mod:`server.engine.snapshot`).
    snapshot_shared: ClassVar[bool] = True

    def deal_cards(self, order: Sequence[int]) -> Dealt:
        """Distribute a shuffled pack (``order``, a permutation of card indices) as the
        game's ``dealing`` says; ValueError for anything but a permutation of the pack."""
        return deal_packets(self.pack, order, self.dealing)

    def stored_outcome(self, outcome: JSON) -> JSON:
        """A stored ``outcome`` in today's form, for comparing it with a replayed one (a game
        whose outcome changed form, such as result lines that became codes, reads its older
        records here). By default unchanged."""
        return outcome

    def summarize(self, outcome: JSON) -> JSON:
        """What the archive's statistics read from a stored ``outcome``, the same for every game:
        ``contract``; ``declarer`` (a seat, or ``None`` when nobody played alone or the deal
        was thrown in); ``declarer_won`` (``None`` without a declarer); ``solo`` (a solo
        game); ``card_points``: per seat the card points of that seat's party as the game
        counts them (``None`` when the deal was thrown in).
        """
        raise NotImplementedError(f"{self.title} has no summary of its outcomes")

    def shuffle_and_deal(self, rng: random.Random) -> Dealt:
        """Shuffle with ``rng`` (seeded in tests, ``SystemRandom`` in play) and deal."""
        order = list(range(len(self.pack)))
        rng.shuffle(order)
        return self.deal_cards(order)

    def fair_deal(self, deal_seed: bytes, player_seeds: Sequence[bytes]) -> Dealt:
        """Deal the pack in the order of the fair shuffle (:func:`server.engine.fair.deal_order`
        with the deal's seed and the players' seeds), as the game's dealing says."""
        return self.deal_cards(fair.deal_order(len(self.pack), deal_seed, player_seeds))

    @abstractmethod
    def deal_type(self) -> type[DealT]:
        """The deal class of this game."""

    def new_deal(
        self,
        dealt: Dealt,
        options: Mapping[str, object] | None = None,
        seats: Sequence[str] | None = None,
        dealer: str | None = None,
    ) -> DealT:
        """Create a deal in its first phase (options are checked and completed first)."""
        return self.deal_type()(self, dealt, self.resolve_options(options), seats, dealer)


class Deal(ABC):
    """One deal of a game: a checked state machine over moves."""

    #: The game's phases; the deal class finds one handler set per phase by name.
    Phase: ClassVar[type[StrEnum]]
    #: The game's moves.
    codec: ClassVar[MoveCodec]
    #: The game's moves that commit its player to nothing (a pass, "gut", "fertig"…), in
    #: canonical text and in order of preference: what :meth:`default_move` plays first.
    passive_moves: ClassVar[tuple[str, ...]] = ()
    _handlers: ClassVar[dict[str, PhaseHandlers]] = {}
    #: The game's ``finished`` phase (looked up once per class).
    _finished_phase: ClassVar[StrEnum]

    rules: Rules[Any]
    options: dict[str, OptionValue]
    seat_names: tuple[str, ...]
    dealer: str
    dealt: Dealt
    history: list[tuple[int, Move]]
    _phase: StrEnum
    _to_move: int | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Collect the handlers of every phase of a game's ``Phase`` enum."""
        super().__init_subclass__(**kwargs)
        phases = cls.__dict__.get("Phase")
        if phases is None:
            return
        handlers: dict[str, PhaseHandlers] = {}
        for phase in phases:
            legal = getattr(cls, f"_legal_in_{phase.value}", None)
            apply = getattr(cls, f"_apply_in_{phase.value}", None)
            if legal is None and apply is None:
                continue  # a phase without moves
            if legal is None or apply is None:
                raise TypeError(f"{cls.__name__}: phase {phase.value} needs legal and apply")
            # keyed by the member itself (equal to its value): a lookup with the member
            # the deal holds finds its key by identity, without comparing text
            handlers[phase] = PhaseHandlers(
                legal,
                apply,
                getattr(cls, f"_explain_in_{phase.value}", None),
                getattr(cls, f"_legal_off_turn_in_{phase.value}", None),
                getattr(cls, f"_apply_off_turn_in_{phase.value}", None),
            )
        cls._handlers = handlers
        for phase in phases:
            if phase.value == "finished":
                cls._finished_phase = phase

    def __init__(
        self,
        rules: Rules[Any],
        dealt: Dealt,
        options: dict[str, OptionValue],
        seats: Sequence[str] | None,
        dealer: str | None,
    ) -> None:
        """Check the seat names and the dealt cards; the game sets up its own state after."""
        self.rules = rules
        self.options = options
        names = tuple(seats) if seats is not None else rules.default_seat_names
        if len(names) != rules.seats or len(set(names)) != rules.seats:
            raise MalformedError(
                "bad_seats",
                f"{rules.title} needs {rules.seats} different seat names",
                f"{rules.title} braucht {rules.seats} verschiedene Sitznamen",
            )
        self.seat_names = names
        self.dealer = dealer if dealer is not None else names[-1]
        check_dealt(rules, dealt)
        self.dealt = dealt
        self.history = []
        #: the number of cards of the pack: the moves below it are card plays (CardPlayDeal)
        self._cards = len(rules.pack)
        self._start()

    @abstractmethod
    def _start(self) -> None:
        """Set up the game's own state (called once the seats and cards are checked)."""

    @property
    def phase(self) -> str:
        """The current phase's name (``"auction"``, ``"play"``, ``"finished"``…)."""
        return str(self._phase)

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the deal is finished."""
        return self._to_move

    @property
    def finished(self) -> bool:
        """Whether the deal is over (its outcome is available)."""
        return self._to_move is None

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, sorted (the phase's ``_legal_in_``)."""
        if self._to_move is None:
            return []
        return self._handlers[self._phase].legal(self)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the seat to move (games may make this faster)."""
        return move in self.legal_moves()

    def default_move(self) -> Move:
        """The move the turn timer makes for the seat to move: the first of
        :attr:`passive_moves` that is legal now, else the first legal move (the lowest card,
        the first talon choice…). A player who lets the time run out never bids, holds,
        announces or doubles by it."""
        legal = self.legal_moves()
        if not legal:
            raise IllegalActionError(
                "deal_finished", "the deal is finished", "das Spiel ist zu Ende"
            )
        if self.passive_moves:
            by_text = {self.move_text(move): move for move in legal}
            for text in self.passive_moves:
                move = by_text.get(text)
                if move is not None:
                    return move
        return legal[0]

    def forced_move(self) -> Move | None:
        """The move the table may play by itself for the seat to move: its only legal move,
        where the game says that a player loses nothing by it being played for him (a lone
        "gut"); ``None`` (the default) where the player chooses. The runtime asks the
        match (:meth:`server.engine.match.Match.forced_move`), which decides by its options
        whether the table plays it."""
        return None

    def legal_moves_for(self, seat: int) -> list[Move]:
        """The legal moves of any seat: the seat to move has its turn's moves; in games with
        calls out of turn (Doppelkopf's Klopfen) the others may have some too."""
        if seat == self._to_move:
            return self.legal_moves()
        handlers = self._handlers.get(self._phase)
        if handlers is None or handlers.legal_off_turn is None:
            return []
        return handlers.legal_off_turn(self, seat)

    def _apply_off_turn(self, seat: int, move: Move) -> None:
        """Apply a legal call made out of turn (the phase's ``_apply_off_turn_in_``)."""
        handler = self._handlers[self._phase].apply_off_turn
        assert handler is not None
        handler(self, seat, move)

    def explain_off_turn(self, seat: int, move: Move) -> IllegalActionError:
        """Say why ``seat`` may not make ``move`` now although it is not its turn."""
        actor = self._to_move
        assert actor is not None
        return IllegalActionError(
            "not_your_turn",
            f"it is {self.seat_names[actor]}'s turn, not {self.seat_names[seat]}'s",
            f"{self.seat_names[actor]} ist am Zug, nicht {self.seat_names[seat]}",
        )

    def _apply(self, move: Move) -> None:
        """Apply a move already known to be legal for :attr:`to_move` (the phase's
        ``_apply_in_``)."""
        seat = self._to_move
        assert seat is not None
        self._handlers[self._phase].apply(self, seat, move)

    def _follow_tricks(self, play: TrickPlay) -> None:
        """After a card went through the deal's trick core: the next seat to move, or the
        end of the deal (the phase ``finished``, which every game's ``Phase`` has)."""
        if play.finished:
            self._to_move = None
            self._phase = self._finished_phase
            play.release()
        else:
            self._to_move = play.to_move

    def explain_illegal(self, move: Move) -> IllegalActionError:
        """Say which rule forbids ``move`` for the seat to move (the phase's
        ``_explain_in_``, or: not possible in this phase)."""
        seat = self._to_move
        if seat is None:
            return IllegalActionError(
                "deal_finished", "the deal is finished", "das Spiel ist zu Ende"
            )
        handlers = self._handlers.get(self._phase)
        if handlers is not None and handlers.explain is not None:
            return handlers.explain(self, seat, move)
        return self.wrong_phase(move)

    def wrong_phase(self, move: Move) -> IllegalActionError:
        """The error for a move that the current phase does not have."""
        text = self.move_text(move) if 0 <= move < len(self.codec) else str(move)
        phase = str(self._phase)
        return IllegalActionError(
            "wrong_phase",
            f"'{text}' is not possible in the {phase} phase",
            f"'{text}' ist in der Phase {phase} nicht möglich",
        )

    def move_text(self, move: Move) -> str:
        """The canonical text of ``move``."""
        return self.codec.text(move)

    def parse(self, text: str) -> Move:
        """Read a move in canonical text (lenient about case and spacing)."""
        return self.codec.parse(text)

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see now (``None``: a spectator or the sitting-out dealer)."""

    def view_parts(self, seat: int | None) -> tuple[JSON, JSON]:
        """:meth:`view` in two parts: what every seat sees alike at this position (the same
        object for every seat until the next action; the caller must not change it) and
        what only ``seat`` sees. Their keys do not overlap; merged they are the view.

        The server encodes the shared part once per action instead of once per seat. This
        default shares nothing; a game whose view splits cheaply overrides it.
        """
        return {}, self.view(seat)

    @abstractmethod
    def outcome(self) -> JSON | None:
        """The result of a finished deal (tricks, card points, premiums, settlement)."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> int:
        """The mask of cards ``seat`` must not see now (other hands, unseen talon…).

        Derived from the state independently of :meth:`view`, so that tests and playouts
        can check every view against it.
        """

    def unplaced_for(self, seat: int | None) -> int:
        """The cards of :meth:`hidden_from` whose place ``seat`` cannot tell either.

        Usually all of them. A game overrides this where the table learns where a card lies
        without seeing it (a declared Hochzeit names the holder of both Kreuz Damen). The
        information-set oracle (:mod:`server.engine.infoset`) only moves such cards.
        """
        return self.hidden_from(seat)

    def replay_state(self) -> JSON:
        """What a replay shows beyond the spectator view, with every card open: ``hands``
        (each seat's cards as players hold them), ``talon`` (the cards still in the blind),
        ``card_points`` (per seat, the card points won in tricks so far as the game counts
        them, as strings) and ``party_points`` (the running count per party in the form of
        the outcome's card points, ``None`` while the parties are not set). A game whose
        views rename cards may add ``trick`` and ``last_trick`` with the cards' own codes.

        Never sent to a seat of a running deal: it shows hidden cards.
        """
        raise NotImplementedError(f"{self.rules.title} has no replay state")

    def invariant_errors(self) -> list[str]:
        """Game-specific checks of a finished deal (card points add up…); empty when fine."""
        return []

    def check(self, move: Move, seat: int | None = None) -> int:
        """Raise the error that :meth:`apply` would raise, change nothing; return the actor.

        The server checks an action, stores it, and only then applies it.
        """
        actor = self._to_move
        if actor is None:
            raise IllegalActionError(
                "deal_finished", "the deal is finished", "das Spiel ist zu Ende"
            )
        if seat is not None and seat != actor:
            if not 0 <= seat < len(self.seat_names):
                raise IllegalActionError(
                    "bad_seat", f"there is no seat {seat}", f"es gibt keinen Sitz {seat}"
                )
            if move not in self.legal_moves_for(seat):
                raise self.explain_off_turn(seat, move)
            return seat
        if not self.is_legal(move):
            raise self.explain_illegal(move)
        return actor

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Apply ``move`` for ``seat`` (default: the seat to move) after checking it."""
        actor = self.check(move, seat)
        self.history.append((actor, move))
        if actor == self._to_move:  # the phase's ``_apply_in_`` (:meth:`_apply`, written out)
            self._handlers[self._phase].apply(self, actor, move)
        else:
            self._apply_off_turn(actor, move)

    def replay_checked(self, actions: Iterable[tuple[int, Move]]) -> None:
        """Apply ``actions`` (``(seat, move)``, as in :attr:`history`) that were already
        checked in this order on a deal of the same cards and options: a copy of a deal
        replayed from its history (a computer player's sampled worlds) skips the checks
        of its calls; cards still go through the trick core's own short check. The state
        is exactly that of :meth:`apply` (a test replays both ways); actions that were not
        checked so give no error, but a state no rule allows."""
        for seat, move in actions:
            self._apply_checked(move, seat)

    def _apply_checked(self, move: Move, seat: int) -> None:
        """Apply one action of :meth:`replay_checked` without its check."""
        self.history.append((seat, move))
        if seat == self._to_move:
            self._handlers[self._phase].apply(self, seat, move)
        else:
            self._apply_off_turn(seat, move)

    def trick_core(self) -> TrickPlay | None:
        """The running tricks of a deal played in tricks (the hands, the running trick, the
        won piles), or ``None`` outside the play phase and in a deal without tricks. For
        reading only (a computer player's playouts read it in their own sampled worlds):
        the deal changes through :meth:`apply` alone."""
        return self._trick_core()

    def _trick_core(self) -> TrickPlay | None:
        """The running tricks, or ``None`` outside the play phase (the default: no tricks)."""
        return None

    def action_seen_by(self, index: int, viewer: int | None) -> str:
        """How action ``index`` of :attr:`history` looks to ``viewer`` (``None``: spectator).

        Most actions are public; a game masks what the table does not see (a discard,
        a reservation before it is resolved) by overriding this.
        """
        return self.move_text(self.history[index][1])

    def act(self, seat: int | None, text: str) -> Move:
        """Parse ``text`` and apply it for ``seat``; return the move."""
        move = self.parse(text)
        self.apply(move, seat)
        return move

    def take_back_action(self) -> tuple[int, Move] | None:
        """The take-back of the last card as ``(seat, move)`` where one is legal now (see
        :class:`CardPlayDeal`); ``None`` in a game without it."""
        return None

    def random_move(self, rng: random.Random) -> Move:
        """A uniformly random legal move of the seat to move (games may make this faster)."""
        return rng.choice(self.legal_moves())

    def random_action(self, rng: random.Random) -> tuple[int | None, Move]:
        """A random legal action as ``(seat, move)``; ``None`` means the seat to move.

        Games with calls out of turn override this to give other seats a chance too.
        """
        return None, self.random_move(rng)

    def legal_texts(self, seat: int | None = None) -> list[str]:
        """The legal moves of ``seat`` (default: the seat to move), in canonical text."""
        moves = self.legal_moves() if seat is None else self.legal_moves_for(seat)
        return [self.move_text(m) for m in moves]

    def actions(self) -> list[tuple[int, str]]:
        """The canonical action list so far: ``(seat, text)`` pairs."""
        return [(seat, self.move_text(m)) for seat, m in self.history]

    def position(self) -> JSON:
        """Phase, whose turn it is and that seat's legal actions (for unfinished deals)."""
        actor = self.to_move
        return {
            "phase": str(self._phase),
            "to_move": actor,
            "to_move_name": None if actor is None else self.seat_names[actor],
            "legal_actions": self.legal_texts() if actor is not None else [],
        }


def check_dealt(rules: Rules[Any], dealt: Dealt) -> None:
    """Refuse dealt cards that do not split the whole pack into the game's hands and talon."""
    if len(dealt.hands) != rules.seats or len(dealt.talon) != rules.talon_size:
        raise MalformedError(
            "bad_deal",
            f"{rules.title} deals {rules.seats} hands and a talon of {rules.talon_size}",
            f"{rules.title} gibt {rules.seats} Blätter und einen Talon von {rules.talon_size}",
        )
    seen = 0
    hand_size = rules.hand_size
    for seat, hand in enumerate(dealt.hands):
        if hand.bit_count() != hand_size or seen & hand:
            raise MalformedError(
                "bad_deal",
                f"hand {seat} must hold {rules.hand_size} cards dealt to nobody else",
                f"Blatt {seat} muss {rules.hand_size} Karten haben, die sonst keiner hat",
            )
        seen |= hand
    for card in dealt.talon:
        if (seen >> card) & 1:
            raise MalformedError(
                "duplicate_card", "a card was dealt twice", "eine Karte wurde doppelt gegeben"
            )
        seen |= 1 << card
    if seen != rules.pack.full:
        raise MalformedError(
            "missing_card",
            "the deal does not use the whole pack",
            "das Spiel verwendet nicht das ganze Blatt",
        )


class TakeBackDeal(Deal):
    """A deal whose cards may be taken back (:mod:`server.engine.tricks`, "Taking back a
    card"): the move ``takeback`` (:data:`TAKE_BACK_VERB`, the last verb of the game's
    codec), made by the seat that played the last card, out of turn, and legal only with
    the room option ``take_back`` on. The card goes back through the trick core
    (:meth:`TrickPlay.take_back`); a game sets back its own state in
    :meth:`_after_take_back` or keeps a card on the table with :meth:`_take_back_veto`.
    """

    #: The take-back move of the game's codec (-1: the game has none).
    _take_back: ClassVar[int] = -1
    #: The game's own reasons for refusing a take-back (rule code → code, English, German).
    take_back_errors: ClassVar[dict[str, tuple[str, str, str]]] = {}
    #: The cards taken back in this deal: the table saw them, so their place is known
    #: (:meth:`unplaced_for`); a class default until the first take-back.
    shown_back: int = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        codec = cls.__dict__.get("codec")
        if codec is not None:
            cls._take_back = codec.base.get(TAKE_BACK_VERB.word, -1)

    def apply(self, move: Move, seat: int | None = None) -> None:
        """:meth:`Deal.apply`; the take-back through :meth:`_apply_take_back`."""
        if move == self._take_back >= 0:
            actor = self._check_take_back(seat)
            self.history.append((actor, move))
            self._apply_take_back(actor)
        else:
            Deal.apply(self, move, seat)

    def check(self, move: Move, seat: int | None = None) -> int:
        """:meth:`Deal.check`, and the take-back move's own check."""
        if move == self._take_back >= 0:
            return self._check_take_back(seat)
        return Deal.check(self, move, seat)

    def _apply_checked(self, move: Move, seat: int) -> None:
        if move == self._take_back >= 0:  # rare: the full path
            self.apply(move, seat)
        else:
            Deal._apply_checked(self, move, seat)

    def legal_moves_for(self, seat: int) -> list[Move]:
        """:meth:`Deal.legal_moves_for`, with the take-back for the seat that may take
        back its last card now (never the seat to move)."""
        moves = Deal.legal_moves_for(self, seat)
        if self._take_back >= 0 and self.take_back_seat() == seat:
            return [*moves, self._take_back]
        return moves

    def take_back_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back a card now (a key of the shared take-back errors
        or of :attr:`take_back_errors`), or ``None`` if it may: the option is on, the last
        action of the deal is ``seat``'s card and that card is the last of the open trick
        (:mod:`server.engine.tricks`, "Taking back a card"), and the game does not
        forbid it (:meth:`_take_back_veto`)."""
        if not self.options.get(TAKE_BACK_OPTION):
            return "off"
        play = self._trick_core()
        history = self.history
        if play is None or self._to_move is None or not history:
            return "no_open_trick"
        who, move = history[-1]
        if not 0 <= move < self._cards:
            return "not_last_card" if play.trick else "no_open_trick"
        if not play.trick:
            return "trick_complete" if who == seat else "no_open_trick"
        if who != seat or play.last_played() != (seat, move):
            return "not_last_card"
        return self._take_back_veto(seat, move)

    def take_back_seat(self) -> int | None:
        """The seat that may take back its last card now, or ``None`` (what views show
        as ``take_back``: every seat may know it)."""
        if self._take_back < 0 or not self.options.get(TAKE_BACK_OPTION) or not self.history:
            return None
        seat = self.history[-1][0]
        return seat if self.take_back_refusal(seat) is None else None

    def take_back_action(self) -> tuple[int, Move] | None:
        """The take-back as an action ``(seat, move)`` when one is legal now (for random
        playouts: :func:`server.engine.playout.play_random` draws it now and then)."""
        seat = self.take_back_seat()
        return None if seat is None else (seat, self._take_back)

    def _take_back_veto(self, seat: int, card: int) -> str | None:
        """A game's reason to keep ``card`` on the table (its play told the table more than
        the card), a key of :attr:`take_back_errors`; ``None`` by default."""
        return None

    def _check_take_back(self, seat: int | None) -> int:
        if self._to_move is None:
            raise IllegalActionError(
                "deal_finished", "the deal is finished", "das Spiel ist zu Ende"
            )
        who = self._to_move if seat is None else seat
        if not 0 <= who < len(self.seat_names):
            raise IllegalActionError(
                "bad_seat", f"there is no seat {who}", f"es gibt keinen Sitz {who}"
            )
        rule = self.take_back_refusal(who)
        if rule is not None:
            raise take_back_error(rule, self.take_back_errors)
        return who

    def _apply_take_back(self, seat: int) -> None:
        """Take ``seat``'s last card back through the trick core; that seat is to move."""
        play = self._trick_core()
        assert play is not None
        _, card = play.take_back()
        self.shown_back |= _BITS[card]
        self._to_move = play.to_move
        self._after_take_back(seat, card)

    def _after_take_back(self, seat: int, card: int) -> None:
        """A game's own state to set back after ``card`` went back to ``seat`` (nothing by
        default: the trick core holds everything a card's play changed)."""

    def unplaced_for(self, seat: int | None) -> int:
        """Hidden cards but those taken back: the table saw where they are."""
        return self.hidden_from(seat) & ~self.shown_back


class CardPlayDeal(TakeBackDeal):
    """A deal whose play phase (``play``) sends every card through one
    :class:`~server.engine.tricks.TrickPlay`, ``self.play``: the legal cards are its legal
    ones, a card goes through it and then :meth:`_after_card`, and a refused card is
    explained by the game's :attr:`play_error` from the rule code the trick core gives
    (:meth:`_refusal_rule` lets a game name it more exactly).

    It also gives the deal its fast path: one cache of values derived from the position
    (:meth:`_cached`, the legal moves among them), card plays checked straight against the
    trick core's mask and applied through :meth:`TrickPlay.try_play`. The moves
    ``0 … len(pack) - 1`` must be the card plays (``play`` the codec's first verb), and
    the play phase must be the deal's last before ``finished``.
    """

    #: The game's texts for refused cards.
    play_error: ClassVar[PlayErrors]
    #: The running tricks (None before the play phase).
    play: TrickPlay | None
    # The one cache of the deal: class defaults that the first :meth:`_cached` replaces
    # (no deal position is -1, so the shared empty dict is never written to).
    _cache_at: int = -1
    _cache: dict[str, Any] = {}  # noqa: RUF012 - replaced per deal before any write
    # Whether a card needs no more than the default :meth:`_after_card`: per class (set
    # below) and per deal, in a slot (a deal whose hook has nothing to do for a while may
    # set it on itself). A slot, not the instance dict: :meth:`apply` reads it for every
    # card, Python 3.11 reads an attribute only the class has the slow way, and a key more
    # in the instance dict can cost the dict its shared keys (see test_deal_memory.py).
    __slots__ = ("_plain_after_card",)
    _after_card_is_plain: ClassVar[bool] = True
    #: Whether :meth:`legal_moves` sorts what the phase handler lists (a game whose
    #: handlers list their moves in an order of their own, such as cards by kind, says
    #: ``False`` and keeps that order).
    sort_legal_moves: ClassVar[bool] = True

    def __init__(
        self,
        rules: Rules[Any],
        dealt: Dealt,
        options: dict[str, OptionValue],
        seats: Sequence[str] | None,
        dealer: str | None,
    ) -> None:
        self._plain_after_card = self._after_card_is_plain  # before _start, which may change it
        super().__init__(rules, dealt, options, seats, dealer)

    def _trick_core(self) -> TrickPlay | None:
        return self.play

    def _position_cache(self) -> dict[str, Any]:
        """The cache of the present position (emptied when the number of actions changes)."""
        position = len(self.history)
        if self._cache_at != position:
            self._cache_at = position
            self._cache = {}
        return self._cache

    def _cached(self, key: str, build: Callable[[], Any]) -> Any:
        """Values derived from the state, dropped when the position changes."""
        cache = self._position_cache()
        value = cache.get(key)
        if value is None:
            value = cache[key] = build()
        return value

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, sorted (unless :attr:`sort_legal_moves`
        says otherwise; cached until the next action; the caller must not change the list)."""
        if self._to_move is None:
            return []
        # the cache of the position (:meth:`_position_cache`, written out: every action asks)
        position = len(self.history)
        if self._cache_at != position:
            self._cache_at = position
            self._cache = cache = {}
        else:
            cache = self._cache
        moves: list[Move] | None = cache.get("legal")
        if moves is None:
            moves = self._handlers[self._phase].legal(self)
            if self.sort_legal_moves:
                moves = sorted(moves)
            cache["legal"] = moves
        return moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now (card plays straight from the trick core's mask)."""
        play = self.play
        if play is not None and 0 <= move < self._cards:
            return not play.finished and bool((play.legal() >> move) & 1)
        return move in self.legal_moves()

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Apply ``move`` after checking it; card plays take the trick core's short path
        (the same checks; an illegal card falls through to the full check and its
        explanation)."""
        play = self.play
        if play is not None and 0 <= move < self._cards:
            actor = play.try_play(move, seat)
            if actor >= 0:
                self.history.append(_CARD_ACTIONS[actor][move])
                if self._plain_after_card and not play.finished:
                    self._to_move = play.to_move  # _after_card's common case, written out
                else:
                    self._after_card(play)
                return
        TakeBackDeal.apply(self, move, seat)  # super().apply, without the super object
        self._cache_at = -1  # nothing derived while the move was applied is kept

    def _apply_checked(self, move: Move, seat: int) -> None:
        if self.play is not None and 0 <= move < self._cards:
            self.apply(move, seat)  # the trick core's check is the fast path itself
            return
        TakeBackDeal._apply_checked(self, move, seat)
        self._cache_at = -1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # whether the game keeps the default :meth:`_after_card` (then ``apply`` writes
        # its common case out: this runs for every card)
        cls._after_card_is_plain = cls._after_card is CardPlayDeal._after_card

    def _after_card(self, play: TrickPlay) -> None:
        """After a card went through the trick core (by default the next seat to move or
        the end of the deal, :meth:`Deal._follow_tricks`)."""
        self._follow_tricks(play)

    def _legal_in_play(self) -> list[Move]:
        assert self.play is not None
        return cards_of(self.play.legal())

    def _apply_in_play(self, seat: int, move: Move) -> None:
        assert self.play is not None
        self.play.play(move)
        self._after_card(self.play)

    def _explain_in_play(self, seat: int, move: Move) -> IllegalActionError:
        play = self.play
        pack = self.rules.pack
        if not 0 <= move < len(pack) or play is None:
            return self.wrong_phase(move)
        rule = self._refusal_rule(seat, move, play.explain(move) or "illegal_card")
        suit = pack.cards[play.trick[0]].suit if play.trick else None
        return self.play_error(rule, suit=suit, card=pack.code(move))

    def _refusal_rule(self, seat: int, move: Move, rule: str) -> str:
        """The rule code a refused card is explained with (by default the trick core's)."""
        return rule
