"""One live table: the single writer of a running match, and its connections.

Every command that changes the table runs under the table's lock, one at a time and in
arrival order (an asyncio lock is FIFO): the action is checked (seat, version, engine),
**stored and committed**, and only then published. Each connection gets the event the way
its seat sees it: the action as that seat may see it, and that seat's view. Spectators and
a sitting-out dealer get the spectator view.

The action is applied to the engine's deal in memory before it is stored, because a deal's
last action is stored in one transaction with everything it ends (outcome, scores, pots,
the next deal or the end of the match, :func:`server.store.log.end_deal`), which only the
applied deal can tell; if it cannot be stored, the deal is replayed to where it was and
nobody has been told anything. A write that fails is tried again with growing pauses for
up to :data:`SAVE_PATIENCE` seconds, idempotently; while a write takes long every
connection is told ``saving`` (and ``saving`` with ``active: false`` once it is through).

Each action message's ``id`` is stored with the action: the same message sent again (a
client that reconnected without knowing whether its action arrived resends it, with the
same ``id`` and version) is answered with an ``ack`` and applied at most once, across a
restart too.

**Only what changed** (``docs/protocol.md``): the snapshot after ``hello`` carries the whole
view and score sheet; after it an event carries only the keys of each seat's view that the
action changed (against what the table told that seat at the version before, kept per
seat), and a snapshot sent to everybody only the sheet's new rows. Nothing about a deal's
end grows with the match: the match is copied at a constant cost
(:meth:`server.engine.match.Match.__deepcopy__`) and its sheet built once per deal.

A message is written to each socket at once, on the table's own stack; only a socket that
cannot take more right now gets a bounded backlog of its own (``server/tables/connection.py``),
so a slow phone never holds up the others; a connection whose backlog overflows is closed
and resyncs with a snapshot when it comes back.

**The turn timer** (a room's ``timer_seconds``) is a task of the table, not of any
connection: it runs whether or not anybody has the table open (a table stays loaded for
as long as its match runs), and after a restart recovery arms it again with a full period
for the seat to move (the time that had passed is not stored). Every ``snapshot`` and
``event`` carries ``turn``, the seat to move and the seconds left on its timer when the
message was made. An action the timer played is stored with the client id
:data:`server.store.log.AUTO_ACTION`, so the snapshot's ``auto_actions`` (the indexes of
the current deal's actions the timer played) survive a restart.

**Forced moves**: after every action the table asks the match whether the game lets it
play the next move itself (:meth:`server.engine.match.Match.forced_move`: a game's only
possible move that its room option lets the table say for the player, a lone "Gut"). If so,
the action's event says ``turn.forced`` and the table plays that move at once, announced
like a move of the turn timer (``auto``) but stored with :data:`server.store.log.FORCED_ACTION`
and left out of ``auto_actions``: nobody's timer ran out, so no seat is marked for it, not
even after a reload. The runtime knows nothing of the move but that the game named it.

**Between deals** the table waits (:class:`BetweenDeals`): a finished deal's end and the
next deal are stored at once, in one transaction, but the next deal is shown only once
every player who sat in the finished deal has sent ``next`` ("Weiter") or the pause ran
out (the room's ``next_deal_pause_seconds``; 0 means: wait for everybody, or with a turn
timer for the timer's seconds). Until then snapshots show the finished deal with its
outcome and ``between_deals``; one such snapshot goes to everybody right after the first
``deal_end``, so that every client has the sheet with the finished deal on it. The taps
are not stored: after a restart in that state (the current deal has no action yet and
follows a finished one) everybody is asked again and the pause starts afresh. After the
match's last deal nothing waits: the final sheet goes out at once.

**Computer players** (the match config's ``computers``: each player's level, None for a
person) move through the same path as a person: whenever the turn changes
(:meth:`arm_timer`) and a computer player is to move, a task of the table builds the seat's
information set (:func:`server.bots.info.info_for`) under the lock, lets the
:class:`~server.tables.computers.Thinker` decide with a fresh seed (off the loop for the
searching level), waits out the rest of the room's pace (``computer_pause_ms``: a random
time in that range from when the turn began, and after a finished trick at least
:data:`TRICK_SHOWN` seconds, while the browsers show it), and then, under the lock and
only if nothing happened meanwhile, checks, stores and publishes the move like a person's.
The move is stored with the client id ``computer:<level>:<seed>``
(:func:`server.store.log.computer_tag`): the seed in the log reproduces the decision. A
player that fails (a bug) gets the turn timer's move instead, marked ``:default``. Computer
players are never waited for between deals (a table of computer players only goes on after
their pace), and they do not decide on a pause. The table knows no game: it calls
:mod:`server.bots` with the information set only.

**The stand-in** ("Vertretung", the match config's ``standin``; state in
:mod:`server.tables.standins`) is such a player of the room's level that moves for a
*person*: once all his connections have been closed for the room's delay (an offline
watch per person, started whenever he has no connection, also after a restart), when his
turn timer runs out (instead of the passive move) and while he asked for it
(:meth:`ask_standin`). Its moves are stored with :func:`server.store.log.standin_tag`,
their events say ``standin``, and they are kept for the person until his next own move,
which gives him the seat back; meanwhile his seat is marked (``standin`` messages). A
person it plays for is not waited for between deals.

**Stored turns and correspondence** (``docs/correspondence.md``): whenever the deal waits
for a person, the table keeps the turn (:class:`~server.store.turns.TurnState`: who, since
when on the server's wall clock, at which version) and writes it to ``turns`` through the
writer, after the action's event and coalesced (only the latest turn of the table is
written, :meth:`_turn_changed`; a live table's after :data:`LIVE_TURN_DELAY`). A
correspondence table (the match config's ``tempo_seconds``) gives the turn a deadline
(:func:`~server.store.turns.effective_deadline`, moved by the person's holidays and by a
pause by agreement), which ``turn.deadline`` of snapshots and events carries; when it
passes, :mod:`server.tables.deadlines` calls :meth:`deadline_passed`, which moves for the
seat as the turn timer would. Such a table has no turn timer, no offline watch (nobody is
"away" and the match never ends because everybody left), and between deals it waits for
nobody's "Weiter".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from server import metrics
from server.bots.info import info_for
from server.clock import Clock, SystemClock
from server.engine.base import JSON, Deal
from server.engine.errors import EngineError
from server.engine.match import Match
from server.store import log, turns
from server.store.errors import FencedError
from server.store.names import clean_chat_text
from server.tables.computers import Thinker
from server.tables.connection import Connection
from server.tables.matches import ClosedDeal, LiveMatch, undo_last
from server.tables.protocol import (
    MsgId,
    ProtocolError,
    encode,
    encoded_object,
    event_changes_text,
    event_prefix,
    event_text,
    join_arrays,
    join_objects,
    with_id,
)
from server.tables.standins import ASKED_SECONDS, StandIns
from server.tables.writer import StorageError, Writer

logger = logging.getLogger(__name__)

CHAT_KEEP = log.CHAT_KEEP
CHAT_MAX = 500
#: Chat lines per second one user may send at one table (all devices together), and burst.
CHAT_RATE, CHAT_BURST = 1.0, 5.0
#: Open connections one user may have at one table; a further one replaces the oldest.
SOCKETS_PER_USER = 4
#: Seconds a write may take before the table says ``saving``.
SAVING_NOTICE = 0.5
#: Seconds a failed write is tried again for, and the pauses between tries.
SAVE_PATIENCE = 60.0
RETRY_FIRST, RETRY_LONGEST = 0.2, 5.0
#: Resent actions remembered (client id, version) -> version of its event.
REMEMBERED_IDS = 2000
#: A computer player's pause before its move, in seconds (least, most), unless the room
#: chose another (the match config's ``computer_pause_ms``).
COMPUTER_PAUSE = (0.8, 1.5)
#: Seconds a computer player waits at least after a trick was completed (the browsers show
#: the finished trick for 0.9 s and then let it slide to its winner), unless the room's pace
#: is 0 (no pause at all: tests).
TRICK_SHOWN = 1.4
#: Seconds before a computer player's move is tried again after it could not be stored.
COMPUTER_RETRY = 2.0

T = TypeVar("T")

#: The ``turn`` of a table where nobody is to move (between deals, the match over).
NO_TURN: JSON = {"seat": None, "ends_in": None}
#: The stored turn is not known yet (the table writes it at its first turn).
_UNKNOWN = object()
#: Seconds before a turn that could not be stored is tried again.
TURN_RETRY = 1.0
#: Seconds a live table waits before it stores its turn, so that a table playing at the
#: speed of the live game stores about one turn a second, not one per action (a
#: correspondence table stores each turn at once: its deadline must not be lost).
LIVE_TURN_DELAY = 1.0
#: The ``requests`` of a table nobody has asked anything at.
NO_REQUESTS: JSON = {"rematch": None, "end_votes": []}

NOT_BETWEEN_DEALS = ProtocolError(
    "not_between_deals",
    "'next' is only for the pause between two deals; the deal is still on",
    "„Weiter“ gibt es nur zwischen zwei Spielen; das Spiel läuft noch",
)
#: The table was taken over by another server process: the client greets it again.
TAKEN_OVER = ProtocolError(
    "table_moved",
    "this table is now served by another server process; reconnect",
    "dieser Tisch läuft jetzt auf einem anderen Serverprozess; bitte neu verbinden",
)
PAUSED = ProtocolError(
    "paused",
    "the table is paused; it goes on once every player has asked to go on",
    "der Tisch macht Pause; es geht weiter, sobald alle Spieler weiterspielen wollen",
)
BETWEEN_DEALS = ProtocolError(
    "between_deals",
    "the deal is over; the next one starts once everybody has sent 'next'",
    "das Spiel ist aus; das nächste beginnt, sobald alle „Weiter“ getippt haben",
)


def auto_seen(deal: Deal | None, indexes: list[int], viewer: int | None) -> list[JSON]:
    """The actions of ``deal`` the turn timer played (``indexes`` into its history) as
    ``viewer`` sees them: ``{"index", "seat", "action"}`` each, the action masked like the
    event that announced it (a discard stays hidden), so a reloaded page marks them again."""
    if deal is None:
        return []
    return [
        {"index": i, "seat": deal.history[i][0], "action": deal.action_seen_by(i, viewer)}
        for i in indexes
        if i < len(deal.history)
    ]


#: A part of a view as a viewer was told it: in which deal, at which version, and the part.
Told = tuple[Deal, int, JSON]
#: Stands for a key a view did not have.
_ABSENT = object()


@dataclass
class BetweenDeals:
    """The pause after a finished deal: what is shown meanwhile and who is still reading.

    The next deal is stored and is the match's current deal already; ``deal`` is the
    finished one, shown with its outcome until the pause ends.
    """

    deal: Deal
    number: int
    seats: dict[int, int]  # user id -> seat in the finished deal (who sat in it)
    setup: JSON
    auto_actions: list[int]
    waiting: list[int]  # user ids of the players who have not sent ``next`` yet
    deadline: float | None = None  # the loop's time when the pause runs out
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Table:
    """A running match and everybody connected to it."""

    def __init__(
        self,
        room_id: int,
        live: LiveMatch,
        writer: Writer,
        rng: random.Random,
        names: dict[int, str],
        thinker: Thinker | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.room_id = room_id
        #: the wall clock of the stored turns and correspondence deadlines
        self.clock: Clock = clock or SystemClock()
        tempo = live.config.get("tempo_seconds")
        #: a correspondence match's seconds per move (None: a live table)
        self.tempo_seconds: int | None = int(tempo) if tempo else None
        #: each person's holidays in the room (correspondence: they stop his deadlines)
        self.holidays: dict[int, list[turns.Span]] = {}
        #: the turn the table waits for (None: nobody, or a computer player), and the one
        #: last stored (``_UNKNOWN`` until the first write or what recovery found)
        self.current_turn: turns.TurnState | None = None
        self._turn_stored: turns.TurnState | object | None = _UNKNOWN
        self._turn_writer: asyncio.Task[None] | None = None
        self.live = live
        self.writer = writer
        self.rng = rng
        self.names = names  # user id -> display name of every member we know
        self.version = 0
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.chat: deque[JSON] = deque(maxlen=CHAT_KEEP)
        self._chat_limits: dict[int, RateLimit] = {}
        #: (user id, client message id, version it was sent at) -> version of the action's
        #: event: a message id is the sender's own, so another user's same id is no repeat
        self.applied: dict[tuple[int, str, int], int] = {}
        self._saving = False
        self._background: set[asyncio.Task[None]] = set()
        self.finished = live.engine.finished
        #: The players ended the match by agreement before it was over (:meth:`end_early`).
        self.ended_early = False
        timer = None if self.tempo_seconds else live.config.get("timer_seconds")
        self.timer_seconds: float | None = float(timer) if timer else None
        self._timer: asyncio.Task[None] | None = None
        self._turn_deadline: float | None = None  # the loop's time when the turn times out
        pause = live.config.get("next_deal_pause_seconds")
        #: Seconds the table waits between deals for those who have not sent ``next``
        #: (``None``: until everybody has).
        self.pause_seconds: float | None = float(pause) if pause else self.timer_seconds
        #: Indexes of the current deal's actions that the timer played.
        self.auto_actions: list[int] = []
        self.between: BetweenDeals | None = None
        #: What each viewer (a seat; ``None``: spectators and the sitting-out dealer) was
        #: told last: the deal, the version and the seat's own part of the view; and the
        #: part every seat sees alike. An event carries only what changed against these.
        self._told: dict[int | None, Told] = {}
        self._told_shared: Told | None = None
        #: Rows of the score sheet every connection has (from the last snapshot made): a
        #: snapshot sent to everybody carries only the rows after them.
        self._rows_told = 0
        self._sheet_of: tuple[Match[Any], JSON] | None = None  # the engine's sheet, once
        #: The players paused the table by agreement (:meth:`ask_pause`; stored): nobody
        #: can act and the timers stand still until all of them ask to go on.
        self.paused = False
        #: User ids of the players asking to change that: to pause, or (paused) to go on.
        self.pause_asks: set[int] = set()
        #: Seconds the turn timer or the pause between deals had left when the table paused.
        self._left_when_paused: float | None = None
        #: The room's open requests around the match, as the rooms API stored them
        #: (:meth:`show_requests`): the Revanche offer and who agrees to end the match.
        self.requests: JSON = dict(NO_REQUESTS)
        #: The computer players: player id -> level (from the match config's ``computers``).
        self.levels: dict[int, str] = {
            player: level
            for player, level in zip(live.player_ids, live.config.get("computers") or [],
                                     strict=False)
            if level
        }  # fmt: skip
        pace = live.config.get("computer_pause_ms")
        #: A computer player's pause before its move, in seconds (least, most).
        self.computer_pause: tuple[float, float] = (
            COMPUTER_PAUSE if not pace else (pace[0] / 1000, pace[1] / 1000)
        )
        self.thinker = thinker or Thinker()
        #: The task of the computer player to move, and the version it moves at.
        self._computer: asyncio.Task[None] | None = None
        self._computer_version = -1
        #: The room's stand-in ("Vertretung"; None: off) and whom it plays for.
        self.standins = StandIns.from_config(live.config)
        #: Indexes of the current deal's actions that a stand-in played.
        self.standin_actions: list[int] = []
        #: Checks, inside each write's transaction, that this process still owns the
        #: table (several processes: :mod:`server.tables.cluster`; None: one process).
        self.fence: log.Fence | None = None
        #: Told once when the table was taken over by another process (its writes are
        #: fenced off): the runtime drops it.
        self.on_lost: Callable[[], None] | None = None
        self.lost = False
        #: Ends the match early when everybody left for good (set by the runtime, called
        #: under the table's lock; whether it ended): see :mod:`server.tables.standins`.
        self.on_everybody_gone: Callable[[], Awaitable[bool]] | None = None

    # ------------------------------------------------------------------ who is who

    def role_of(self, user_id: int) -> str:
        """``player`` for a player of the match, else ``spectator``."""
        return "player" if user_id in self.live.player_ids else "spectator"

    def online(self) -> list[int]:
        """User ids with at least one open connection."""
        return sorted({c.user_id for c in self.connections})

    def user_at(self, seat: int) -> int:
        """The player id of whoever sits at ``seat`` of the current deal."""
        deal = self.live.deal
        assert deal is not None
        live = self.live
        return live.player_ids[live.players.index(deal.seat_names[seat])]

    def computer_at(self, seat: int) -> str | None:
        """The level of the computer player at ``seat`` of the current deal (None: a
        person)."""
        deal = self.live.deal
        if not self.levels or deal is None:
            return None
        name = deal.seat_names[seat]
        live = self.live
        return self.levels.get(live.player_ids[live.players.index(name)])

    # ------------------------------------------------------------------ messages

    def snapshot(self, conn: Connection) -> str:
        """The full state for one connection (on hello and resync): the whole score sheet."""
        return self._snapshots(full=True)(conn)

    def _sheet(self) -> JSON:
        """The match's score sheet (built once per deal end; not to be changed)."""
        engine = self.live.engine
        if self._sheet_of is None or self._sheet_of[0] is not engine:
            self._sheet_of = (engine, engine.to_json())
        return self._sheet_of[1]

    def _snapshots(self, *, full: bool = False) -> Callable[[Connection], str]:
        """Snapshots of the table as it is now, for any number of connections: the match,
        who is online and the chat are encoded once, the view once per seat.

        The score sheet grows with every deal: a ``full`` snapshot (on hello) carries all
        of it, one sent to everybody (a deal's end, the next deal) only the rows added
        since the last snapshot, with ``match.sheet_from`` the index of the first row it
        carries (the client keeps the rows before it; 0: the whole sheet)."""
        live = self.live
        between = self.between
        deal: Deal | None
        if between is not None:  # the finished deal, until the next one is shown
            deal, number, setup = between.deal, between.number, between.setup
            seat_of: Callable[[int], int | None] = between.seats.get
            auto_actions = between.auto_actions
            waiting: JSON | None = {"waiting": list(between.waiting),
                                    "pause_ends_in": self._left(between.deadline)}  # fmt: skip
        else:
            deal, number, setup = live.deal, live.deal_number, live.setup()
            seat_of, auto_actions, waiting = live.seat_of, self.auto_actions, None
        sheet = self._sheet()
        rows = sheet["rows"]
        sheet_from = 0 if full else min(self._rows_told, len(rows))
        self._rows_told = len(rows)
        if sheet_from:
            sheet = {**sheet, "rows": rows[sheet_from:]}
        if self.ended_early and not live.engine.finished:  # stopped: the pots closed now
            sheet = {**sheet, "settlement": live.engine.final_settlement(ended_early=True)}
        match = {
            "id": live.match_id,
            "game": live.game,
            "players": live.players,
            "player_ids": live.player_ids,
            "deal_number": number,
            "sheet": sheet,
            "sheet_from": sheet_from,
            # the finished deal's ledger, shown with its result
            "ledger": live.ledger() if between is not None or live.engine.finished else None,
            "finished": live.engine.finished or self.ended_early,
            "ended_early": self.ended_early,
            "timer_seconds": self.timer_seconds,
            # a correspondence match's seconds per move (None: live)
            "tempo_seconds": self.tempo_seconds,
            "next_deal_pause_seconds": self.pause_seconds,
            "setup": setup,
            # each player's computer level in the order of ``players`` (None: a person)
            "computers": [self.levels.get(player) for player in live.player_ids],
            # the room's stand-in ({"level", "delay_seconds"}; None: off)
            "standin": live.config.get("standin"),
            # fair shuffling: the commitment, the players' seeds, the last seed revealed
            "fair": live.fair_json(),
        }
        shared = {
            "room": encode(self.room_id),
            "v": encode(self.version),
            "match": encode(match),
            "online": encode(self.online()),
            "chat": encode(list(self.chat)),
            "turn": encode(self.turn()),
            "between_deals": encode(waiting),
            "pause": encode(self._pause_state()),
            "requests": encode(self.requests),
            "standins": encode(self._standin_state()),
        }
        standin_actions = [] if between is not None else self.standin_actions
        views: dict[int | None, tuple[str, str, str]] = {}

        def make(conn: Connection) -> str:
            seat = seat_of(conn.user_id)
            seen = views.get(seat)
            if seen is None:
                view = "null"
                if deal is not None:
                    common, own = deal.view_parts(seat)
                    self._told[seat] = (deal, self.version, own)
                    self._told_shared = (deal, self.version, common)
                    view = join_objects(encode(common), encode(own))
                seen = views[seat] = (view, encode(auto_seen(deal, auto_actions, seat)),
                                      encode(auto_seen(deal, standin_actions, seat)))  # fmt: skip
            view, autos, standins = seen
            you = {"user_id": conn.user_id, "role": conn.role, "seat": seat,
                   "standin_moves": self._played_for(conn.user_id)}  # fmt: skip
            return encoded_object(
                {"type": '"snapshot"', "room": shared["room"], "v": shared["v"],
                 "you": encode(you), "match": shared["match"], "view": view,
                 "turn": shared["turn"], "auto_actions": autos,
                 "standin_actions": standins, "standins": shared["standins"],
                 "between_deals": shared["between_deals"], "pause": shared["pause"],
                 "requests": shared["requests"],
                 "online": shared["online"], "chat": shared["chat"]}
            )  # fmt: skip

        return make

    def turn(self) -> JSON:
        """Whose turn it is and the seconds left on the turn timer (``None``: no timer); at
        a correspondence table also the deadline (ISO 8601 UTC; ``None`` while paused)."""
        deal = self.live.deal
        if self.between is not None or self.finished or deal is None or deal.finished:
            return {**NO_TURN, "deadline": None} if self.tempo_seconds else NO_TURN
        if self.tempo_seconds:  # correspondence: the deadline (none while paused)
            current = self.current_turn
            deadline = None if self.paused or current is None else current.deadline
            return {"seat": deal.to_move, "ends_in": None,
                    "deadline": None if deadline is None else _iso(deadline)}  # fmt: skip
        if self.paused:  # the seat to move, without a timer running
            return {"seat": deal.to_move, "ends_in": None}
        return {"seat": deal.to_move, "ends_in": self._left(self._turn_deadline)}

    @staticmethod
    def _left(deadline: float | None) -> float | None:
        """Seconds until ``deadline`` (the loop's time), never below 0; ``None`` stays."""
        if deadline is None:
            return None
        return round(max(0.0, deadline - asyncio.get_running_loop().time()), 3)

    def _deal_end_message(self) -> str:
        between = self.between
        assert between is not None
        return encode({"type": "deal_end", "v": self.version, "waiting": list(between.waiting),
                       "pause_ends_in": self._left(between.deadline)})  # fmt: skip

    def _broadcast(self, make: Callable[[Connection], str]) -> None:
        for conn in list(self.connections):
            if not conn.push(make(conn)):
                logger.info("dropping a connection of user %s: too far behind", conn.user_id)
                self.connections.discard(conn)
                self._spawn(self._drop(conn))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def drop_where(self, doomed: Callable[[Connection], bool]) -> int:
        """Close every connection for which ``doomed`` holds (a logged-out session);
        return how many."""
        dropped = [conn for conn in self.connections if doomed(conn)]
        for conn in dropped:
            self.connections.discard(conn)
            self._spawn(self._drop(conn))
        if dropped:
            self._presence()
        return len(dropped)

    @staticmethod
    async def _drop(conn: Connection) -> None:
        await conn.stop()
        with contextlib.suppress(Exception):
            await conn.close()

    def _publish_event(
        self,
        index: int,
        seat: int,
        auto: bool,
        origin: Connection | None,
        msg_id: MsgId,
        forced: bool = False,
        standin: bool = False,
    ) -> None:
        """Send every connection the event of action ``index`` as its seat sees it.

        The message depends only on the viewer's seat, so it is rendered and encoded once
        per seat: spectators (and the sitting-out dealer) share one copy, as do several
        devices of one player; the part of the view that every seat sees alike is encoded
        once for all (``Deal.view_parts``). The connection the action came from
        (``origin``) gets its copy with the action message's ``id``: that is its
        acknowledgement, one frame instead of two. ``forced``: the table plays the next
        move itself right after this one (``turn.forced``, see :meth:`_perform`).
        ``standin``: a stand-in made the move for the person at ``seat`` (``standin``).
        """
        deal = self.live.deal
        assert deal is not None
        seat_of = self.live.seat_of
        version = self.version
        turn = self.turn()
        if forced:  # nobody needs to act: the table's own move follows at once
            turn = {**turn, "forced": True}
        prefix = event_prefix(version, seat, auto, turn, standin)
        # what changed in the shared part of the view, worked out once (None: not known)
        public: list[tuple[str, str] | None] = []
        encoded: dict[int | None, str] = {}

        def make(conn: Connection) -> str:
            viewer = seat_of(conn.user_id)
            text = encoded.get(viewer)
            if text is None:
                shared, own = deal.view_parts(viewer)
                if not public:
                    public.append(self._changes(self._told_shared, shared))
                    self._told_shared = (deal, version, shared)
                own_changes = self._changes(self._told.get(viewer), own)
                self._told[viewer] = (deal, version, own)
                shared_changes = public[0]
                action = deal.action_seen_by(index, viewer)
                if shared_changes is None or own_changes is None:  # no earlier view of it
                    text = event_text(prefix, action, join_objects(encode(shared), encode(own)))
                else:
                    changed = join_objects(shared_changes[0], own_changes[0])
                    gone = join_arrays(shared_changes[1], own_changes[1])
                    text = event_changes_text(prefix, action, changed, gone)
                encoded[viewer] = text
            return with_id(text, msg_id) if conn is origin else text

        self._broadcast(make)

    def _changes(self, told: Told | None, now: JSON) -> tuple[str, str] | None:
        """What changed in a part of a view since the viewer was last told it (one version
        before this event, in this deal), encoded: the keys whose values changed (an
        object) and the keys no longer there (an array); ``None`` when the viewer was not
        told the previous version (then the event carries the whole view)."""
        if told is None or told[0] is not self.live.deal or told[1] != self.version - 1:
            return None
        before = told[2]
        changed = {key: value for key, value in now.items()
                   if before.get(key, _ABSENT) != value}  # fmt: skip
        if before.keys() <= now.keys():
            return encode(changed), "[]"
        return encode(changed), encode([key for key in before if key not in now])

    def _presence(self) -> None:
        message = encode({"type": "presence", "online": self.online()})
        self._broadcast(lambda _conn: message)
        self._watch_away()

    # ------------------------------------------------------------------ commands

    async def attach(self, conn: Connection, last_version: int | None) -> None:
        """Add a connection; it gets a snapshot (a resync is always a fresh snapshot)."""
        async with self.lock:
            conn.role = self.role_of(conn.user_id)
            own = sorted((c for c in self.connections if c.user_id == conn.user_id),
                         key=lambda c: c.opened)  # fmt: skip
            for old in own[: max(0, len(own) - SOCKETS_PER_USER + 1)]:
                old.push(encode({"type": "error", "id": None, **REPLACED.to_json()}))
                self.connections.discard(old)
                self._spawn(self._drop(old))
            self.connections.add(conn)
            conn.push(self.snapshot(conn))
            self._presence()

    async def detach(self, conn: Connection) -> None:
        """Remove a connection (the player shows as offline once no device is left)."""
        async with self.lock:
            self.connections.discard(conn)
            self._presence()
        await conn.stop()

    async def act(
        self, conn: Connection, text: str, version: int | None, msg_id: MsgId = None
    ) -> int:
        """Check, store, apply and publish an action; return the version of its event.

        ``conn``'s copy of the event carries ``msg_id``, the id of the action message: its
        acknowledgement.

        Raises :class:`ProtocolError` or :class:`EngineError`; nothing changes then.
        """
        async with self.lock:
            # the same message again (the client reconnected without knowing whether it
            # had arrived): answered, not applied twice, even after the deal or match ended
            client_id = None if msg_id is None else encode(msg_id)
            if client_id is not None and version is not None:
                done = self.applied.get((conn.user_id, client_id, version))
                if done is not None:  # sent again after a reconnect: it is in already
                    conn.push(encode({"type": "ack", "id": msg_id, "v": done,
                                      "duplicate": True}))  # fmt: skip
                    return done
            live = self.live
            deal = live.deal
            if self.finished or deal is None:
                raise ProtocolError("match_finished", "the match is over", "die Partie ist aus")
            if self.paused:
                raise PAUSED
            if self.between is not None:
                raise BETWEEN_DEALS
            seat = live.seat_of(conn.user_id)
            if seat is None:
                raise ProtocolError(
                    "not_seated",
                    "you have no seat in this deal (spectator or sitting out)",
                    "du sitzt in diesem Spiel nicht mit (Zuschauer oder aussetzend)",
                )
            if version is not None and version != self.version:
                raise ProtocolError(
                    "stale_version",
                    f"the table is at version {self.version}, not {version}; "
                    "you were shown an older state",
                    f"der Tisch ist bei Version {self.version}, nicht {version}; "
                    "du hast einen älteren Stand gesehen",
                )
            move = deal.parse(text)  # _perform checks it before anything is stored
            acted = await self._perform(move, seat, auto=False, origin=conn, msg_id=msg_id)
            standins = self.standins
            if standins is not None:
                had_asked = conn.user_id in standins.asked
                if standins.moved_himself(conn.user_id):
                    self._say_standins()  # his own move: the seat is his again
                if had_asked:  # what he asked for is over: a restart must not bring it back
                    try:
                        await self._store_asked(standins.asked)
                    except StorageError:
                        logger.warning("room %s: the end of a stand-in could not be stored",
                                       self.room_id)  # fmt: skip
            return acted

    async def _perform(
        self,
        move: int,
        seat: int,
        *,
        auto: bool,
        forced: bool = False,
        origin: Connection | None = None,
        msg_id: MsgId = None,
        tag: str | None = None,
    ) -> int:
        """Store, apply and publish a checked move (under the lock); return its version.

        ``tag``: the client id stored with a move the table made for a computer player
        (:func:`server.store.log.computer_tag`) or a stand-in
        (:func:`server.store.log.standin_tag`: the move is marked and kept for the person).

        Raises :class:`StorageError` when it could not be stored: then the table is as it
        was and nobody was told anything.
        """
        live = self.live
        deal = live.deal
        assert deal is not None
        actor = deal.check(move, seat)
        seq = len(deal.history)
        if auto:
            client_id: str | None = log.FORCED_ACTION if forced else log.AUTO_ACTION
        elif tag is not None:
            client_id = tag
        else:
            client_id = None if msg_id is None else encode(msg_id)
        entry: log.ActionEntry = (live.deal_id, seq, actor, deal.move_text(move), client_id)
        deal.apply(move, seat)  # in memory only, until it is stored
        ended = deal.finished
        try:
            if ended:
                closed, next_id = await self._store_deal_end(entry)
            else:
                fence = self.fence  # several processes: only while the table is ours
                await self._durably(
                    lambda: self.writer.append_action(*entry, fence=fence),
                    lambda: self._write(lambda c: log.ensure_action(c, entry)),
                )
        except BaseException:
            live.deal = undo_last(deal)
            raise
        self.version += 1
        acted = self.version
        metrics.action_done()
        if client_id is not None and origin is not None and not auto:
            self._remember(origin.user_id, client_id, acted)
        if auto and not forced:
            self.auto_actions.append(seq)
        standin = log.is_standin_action(client_id)
        if standin and self.standins is not None:
            self.standin_actions.append(seq)
            user = self.user_at(actor)
            self.standins.record(user, {"deal": live.deal_number, "index": seq, "seat": actor,
                                        "action": deal.action_seen_by(seq, actor)})  # fmt: skip
            if self.standins.timed_out_at == self.version - 1:
                self.standins.timed_out_at = None
        # a move the game lets the table play by itself follows at once: the event says so
        follows = None if ended or self.paused else live.engine.forced_move(deal)
        self.arm_timer()  # before the event, which says how long the next turn has
        self._publish_event(seq, actor, auto, origin, msg_id, follows is not None, standin)
        if standin:
            self._say_standins()
        if follows is not None:
            to_move = deal.to_move
            assert to_move is not None
            try:
                await self._perform(follows, to_move, auto=True, forced=True)
            except StorageError:  # the player (or the timer) makes it instead
                logger.warning("room %s: a forced move could not be stored", self.room_id)
            return acted
        if ended:  # the pause before the next deal, or the final sheet
            shown = BetweenDeals(deal, live.deal_number, self._seats_in(deal), live.setup(),
                                 self.auto_actions, [])  # fmt: skip
            live.take(closed, next_id)
            self.finished = live.engine.finished
            self.version += 1
            self.auto_actions = []
            self.standin_actions = []
            if self.finished:
                self._broadcast(self._snapshots())
            elif not await self._ended_as_everybody_left():
                self._pause(shown)
        return acted

    async def _ended_as_everybody_left(self) -> bool:
        """After a deal (under the lock): when every person of the match has left for good
        (the stand-in played on for them all), the match ends by itself
        (:attr:`on_everybody_gone`; :mod:`server.tables.standins`); return whether it did."""
        standins, ending = self.standins, self.on_everybody_gone
        if standins is None or ending is None or self.finished or self.tempo_seconds:
            return False
        people = [user for user in self.live.player_ids if user not in self.levels]
        if not standins.everybody_gone(people, asyncio.get_running_loop().time()):
            return False
        return await ending()

    async def play_forced(self) -> None:
        """Play the move the game lets the table play by itself for the seat to move, if
        there is one (under the lock; after a restart, in case the server stopped between
        an action and the forced move that follows it)."""
        deal = self.live.deal
        if (self.finished or self.between is not None or self.paused or deal is None
                or deal.finished):  # fmt: skip
            return
        forced = self.live.engine.forced_move(deal)
        if forced is not None and deal.to_move is not None:
            await self._perform(forced, deal.to_move, auto=True, forced=True)

    def broadcast_snapshots(self) -> None:
        """Send everybody a snapshot of the table as it is now (under the lock)."""
        self._broadcast(self._snapshots())

    def _seats_in(self, deal: Deal) -> dict[int, int]:
        """User id -> seat in ``deal`` of every match player who sat in it."""
        names = deal.seat_names
        players = zip(self.live.player_ids, self.live.players, strict=True)
        return {user: names.index(name) for user, name in players if name in names}

    def _pause(self, between: BetweenDeals) -> None:
        """Wait between deals (under the lock): show ``between`` (the finished deal) and
        tell everybody who the table waits for (``deal_end``)."""
        # computer players are never waited for, nor a person a stand-in plays for;
        # without people, their pace
        between.waiting = sorted(
            user for user in between.seats if user not in self.levels and not self._stood_in(user)
        )
        if self.tempo_seconds:  # correspondence: nobody is waited for ("Weiter")
            between.waiting = []
        self.between = between
        if not self.paused and not between.waiting:
            # a correspondence table shows the next deal after the room's pause, if any
            fern = self.pause_seconds if self.tempo_seconds else None
            self._wait_between(fern or self._computer_delay(None))
        elif self.pause_seconds and not self.paused:
            self._wait_between(self.pause_seconds)
        self.arm_timer()  # no turn timer while nobody is to move
        message = self._deal_end_message()
        self._broadcast(lambda _conn: message)
        # and the state of the pause: the sheet with the finished deal on it
        self._broadcast(self._snapshots())

    def _wait_between(self, seconds: float) -> None:
        """Show the next deal after ``seconds`` even if not everybody sent ``next``."""
        between = self.between
        assert between is not None
        between.deadline = asyncio.get_running_loop().time() + seconds
        between.task = asyncio.create_task(self._pause_over(between, seconds))

    async def _pause_over(self, between: BetweenDeals, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.between is between and not self.paused:
                between.task = None  # this task; do not cancel it from inside
                self._deal_on()

    def _deal_on(self) -> None:
        """End the pause between deals (under the lock): the next deal, which is stored
        already, is shown to everybody and its turn timer starts."""
        between = self.between
        if between is None:
            return
        if between.task is not None:
            between.task.cancel()
        self.between = None
        self.arm_timer()
        self._broadcast(self._snapshots())

    def resume_between(self, deal: Deal, number: int, auto_actions: list[int]) -> None:
        """After a restart: the current deal has no action yet and follows the finished
        ``deal`` (number ``number``): wait for everybody again (under the lock)."""
        self.between = None
        between = BetweenDeals(deal, number, self._seats_in(deal), {"note": None, "params": {}},
                               auto_actions, [])  # fmt: skip
        self._pause(between)

    async def next_deal_please(self, conn: Connection, msg_id: MsgId = None) -> None:
        """``next`` ("Weiter") from ``conn``'s user: no longer waited for; the next deal is
        shown once nobody is. Everybody is told the shorter ``waiting`` list (the sender's
        copy with the message's ``id``). Raises :class:`ProtocolError`
        (``not_between_deals``, ``not_seated``); nothing changes then."""
        async with self.lock:
            between = self.between
            if between is None:
                raise NOT_BETWEEN_DEALS
            if self.paused:
                raise PAUSED
            if conn.user_id not in between.seats:
                raise ProtocolError(
                    "not_seated",
                    "only the players of the finished deal are waited for",
                    "gewartet wird nur auf die Spieler des beendeten Spiels",
                )
            if conn.user_id in between.waiting:
                between.waiting.remove(conn.user_id)
            message = self._deal_end_message()
            own = with_id(message, msg_id)
            self._broadcast(lambda c: own if c is conn else message)
            if not between.waiting:
                self._deal_on()

    def _pause_state(self) -> JSON:
        """Whether the table is paused and who asks to change that."""
        return {"paused": self.paused, "asking": sorted(self.pause_asks)}

    def _deciding(self) -> set[int]:
        """The players who decide on a pause: those of the deal in play (of the finished
        deal shown between two deals); a sitting-out dealer and spectators do not."""
        if self.between is not None:
            return set(self.between.seats) - set(self.levels)
        return {user for user in self.live.player_ids
                if self.live.seat_of(user) is not None and user not in self.levels}  # fmt: skip

    async def ask_pause(self, conn: Connection, pause: bool, msg_id: MsgId = None) -> None:
        """``conn``'s player asks for a pause (``pause``) or to go on; asking for what the
        table does already withdraws the player's ask. Once every player of the deal asks
        the same, the table pauses (the timers stand still) or goes on (they run on with
        the time they had left), stored first, and everybody gets a snapshot; otherwise
        everybody is told who asks (``pause``, the sender's copy with the message's id).
        Raises :class:`ProtocolError` (``not_a_player``, ``match_finished``)."""
        async with self.lock:
            if conn.user_id not in self.live.player_ids:
                raise ProtocolError(
                    "not_a_player",
                    "only the players of the match decide on a pause",
                    "über eine Pause entscheiden nur die Spieler der Partie",
                )
            if self.finished:
                raise ProtocolError("match_finished", "the match is over", "die Partie ist aus")
            if pause == self.paused:
                self.pause_asks.discard(conn.user_id)
            else:
                self.pause_asks.add(conn.user_id)
            if self._deciding() <= self.pause_asks:
                await self._set_paused(not self.paused)
                self._broadcast(self._snapshots())
                return
            message = encode({"type": "pause", **self._pause_state()})
            own = with_id(message, msg_id)
            self._broadcast(lambda c: own if c is conn else message)

    async def _set_paused(self, paused: bool) -> None:
        """Pause the table or let it go on (under the lock), once stored."""
        now = self.clock.now()
        at = now if paused else None
        match_id = self.live.match_id

        def store() -> Awaitable[datetime | None]:
            if paused:
                return self._write(lambda c: log.set_paused(c, match_id, at))
            # going on: the stored deadline moves on by the pause's length, at once
            return self._write(lambda c: turns.resume_shift(c, match_id, now))

        began = await self._durably(store, store)
        current = self.current_turn
        if began is not None and current is not None and current.deadline is not None:
            current.deadline += max(timedelta(0), now - began)
        self.paused = paused
        self.pause_asks.clear()
        between = self.between
        loop = asyncio.get_running_loop()
        if paused:  # what the running timer had left stands still
            deadline = between.deadline if between is not None else self._turn_deadline
            left = None if deadline is None else max(0.0, deadline - loop.time())
            self._left_when_paused = left
            if between is not None and between.task is not None:
                between.task.cancel()
                between.task, between.deadline = None, None
            self.arm_timer()  # stops the turn timer
            return
        left, self._left_when_paused = self._left_when_paused, None
        if between is not None:
            if not between.waiting:
                self._wait_between(self._computer_delay(None) if left is None else left)
            elif self.pause_seconds:
                self._wait_between(self.pause_seconds if left is None else left)
        else:
            self.arm_timer(left)

    def _remember(self, user_id: int, client_id: str, acted: int) -> None:
        """Remember that ``user_id``'s message ``client_id`` sent at version ``acted - 1``
        is in."""
        self.applied[(user_id, client_id, acted - 1)] = acted
        if len(self.applied) > REMEMBERED_IDS:
            del self.applied[next(iter(self.applied))]

    def deal_end(self, action: log.ActionEntry | None) -> tuple[ClosedDeal, log.DealEnd]:
        """What the end of the current, finished deal changes (see
        :meth:`LiveMatch.close_deal`) and the one write that stores it (``action``: the
        deal's last action, ``None`` when it is stored already)."""
        live = self.live
        deal = live.deal
        assert deal is not None
        outcome = deal.outcome()
        assert outcome is not None
        closed = live.close_deal(deal, self.rng)
        following = closed.following
        end = log.DealEnd(
            match_id=live.match_id,
            room_id=self.room_id,
            deal_id=live.deal_id,
            action=action,
            outcome=outcome,
            ledger=closed.ledger,
            settlement=closed.settlement,
            next_deal=None if following is None else (live.deal_number + 1, following[1]),
        )
        return closed, end

    async def _store_deal_end(self, entry: log.ActionEntry) -> tuple[ClosedDeal, int | None]:
        """Store the deal's last action with everything its end changes, in one
        transaction; return what the table takes over once it has published the action
        (:meth:`LiveMatch.take`) and the next deal's id."""
        closed, end = self.deal_end(entry)

        def store() -> Awaitable[int | None]:
            return self._write(lambda connection: log.end_deal(connection, end))

        return closed, await self._durably(store, store)

    def _write(self, work: Callable[[Any], T]) -> Awaitable[T]:
        """Queue ``work`` (a function of a synchronous connection) with the writer, behind
        the ownership check when several processes share the tables."""
        fence = self.fence
        if fence is None:
            return self.writer.execute(work)

        def fenced(connection: Any) -> T:
            fence(connection)
            return work(connection)

        return self.writer.execute(fenced)

    def _taken_over(self) -> ProtocolError:
        """Another process owns the table now (a write was fenced off): stop here, and let
        the runtime drop it; the answer for whoever asked."""
        if not self.lost:
            self.lost = True
            self.finished = True  # nothing more happens here: no timer, no computer move
            self.arm_timer()
            if self.on_lost is not None:
                self.on_lost()
        return TAKEN_OVER

    async def _durably(
        self, first: Callable[[], Awaitable[T]], again: Callable[[], Awaitable[T]]
    ) -> T:
        """Run the write ``first``; if it fails, run ``again`` (which must be idempotent:
        the failure may have come after the commit) with growing pauses until it works or
        :data:`SAVE_PATIENCE` seconds have passed. While it takes longer than
        :data:`SAVING_NOTICE` seconds, every connection is told that the table is saving.
        """
        loop = asyncio.get_running_loop()
        notice = loop.call_later(SAVING_NOTICE, self._say_saving, True)
        deadline = loop.time() + SAVE_PATIENCE
        pause = RETRY_FIRST
        attempt = first
        try:
            while True:
                try:
                    return await attempt()
                except FencedError:
                    raise self._taken_over() from None
                except StorageError:
                    if loop.time() + pause > deadline:
                        raise
                    logger.warning("room %s: a write failed; trying again in %.1f s",
                                   self.room_id, pause)  # fmt: skip
                    self._say_saving(True)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_LONGEST)
                    attempt = again
        finally:
            notice.cancel()
            if self._saving:
                self._say_saving(False)

    def _say_saving(self, active: bool) -> None:
        """Tell every connection that the table is (no longer) waiting for the database."""
        if self._saving == active:
            return
        self._saving = active
        message = encode({"type": "saving", "active": active})
        self._broadcast(lambda _conn: message)

    def arm_timer(self, seconds: float | None = None) -> None:
        """With a turn timer, play the engine's default move for the seat to move when it
        lets the time run out (a pass, "gut", "fertig" where one is open, else the first
        legal action: the lowest card …; never a bid, an announcement or a doubling), after
        ``seconds`` (by default the room's whole period). A paused table has no timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._turn_deadline = None
        deal = self.live.deal
        if (self.timer_seconds and not self.finished and self.between is None
                and not self.paused and deal is not None and not deal.finished):  # fmt: skip
            delay = self.timer_seconds if seconds is None else seconds
            self._turn_deadline = asyncio.get_running_loop().time() + delay
            self._timer = asyncio.create_task(self._expire(self.version, delay))
        self._turn_changed()
        self._watch_away()
        self._drive()

    # ------------------------------------------------------------------ stand-ins

    def _standin_state(self) -> JSON | None:
        """Whose seat a stand-in plays for (``standins`` of snapshots; None: off)."""
        standins = self.standins
        if standins is None:
            return None
        return standins.state(asyncio.get_running_loop().time())

    def _played_for(self, user: int) -> list[JSON]:
        """The moves a stand-in made for ``user`` since his last own move."""
        return [] if self.standins is None else list(self.standins.played.get(user, []))

    def _stood_in(self, user: int) -> bool:
        """Whether a stand-in plays for ``user`` now (away, or asked for), so that the
        table does not wait for his "Weiter" between deals."""
        standins = self.standins
        return standins is not None and (user in standins.away or user in standins.asked)

    def _not_waiting_for(self, user: int) -> None:
        """Between deals, stop waiting for ``user``, whom a stand-in plays for now."""
        between = self.between
        if between is None or self.paused or user not in between.waiting:
            return
        between.waiting.remove(user)
        message = self._deal_end_message()
        self._broadcast(lambda _conn: message)
        if not between.waiting:
            self._deal_on()

    def _say_standins(self) -> None:
        """Tell everybody whose seat is marked "vertreten" (``standin``); the person a
        stand-in plays for gets the moves it made for him with it."""
        state = self._standin_state()
        if state is None:
            return
        message = encode({"type": "standin", **state})
        played = self.standins.played if self.standins is not None else {}

        def make(conn: Connection) -> str:
            if conn.user_id in played:
                return encode({"type": "standin", **state, "moves": played[conn.user_id]})
            return message

        self._broadcast(make)

    def _watch_away(self) -> None:
        """Start the offline watch of every person of the match with no connection (he is
        away once it runs out), and forget it for everybody who is back (under the lock)."""
        standins = self.standins
        if standins is None or self.finished or self.tempo_seconds:
            return  # correspondence: being offline is normal, nobody is "away"
        online = {conn.user_id for conn in self.connections}
        for user in self.live.player_ids:
            if user in self.levels:
                continue
            if user in online:
                if user in standins.away or user in standins.watches:
                    standins.returned(user)
                    self._drive()  # a stand-in about to move for him stands back
            elif user not in standins.away and user not in standins.watches:
                standins.offline_since.setdefault(user, asyncio.get_running_loop().time())
                standins.watches[user] = asyncio.create_task(self._away_after(user))

    async def _away_after(self, user: int) -> None:
        """``user`` has been offline for the room's delay: the stand-in plays for him."""
        standins = self.standins
        assert standins is not None
        await asyncio.sleep(standins.delay)
        async with self.lock:
            if standins.watches.get(user) is not asyncio.current_task():
                return
            del standins.watches[user]
            if any(conn.user_id == user for conn in self.connections) or self.finished:
                return
            standins.away.add(user)
            standins.marked.add(user)
            self._say_standins()
            self._not_waiting_for(user)
            self._drive()

    async def ask_standin(self, conn: Connection, on: bool, msg_id: MsgId = None) -> None:
        """``conn``'s player asks for a stand-in for :data:`ASKED_SECONDS` ("Vertretung
        für 5 Minuten", ``on``) or ends it early (``on`` false: the seat is his again).
        Everybody is told (``standin``; the sender's copy with the message's id). Raises
        :class:`ProtocolError` (``standin_off``, ``not_a_player``, ``match_finished``);
        nothing changes then."""
        async with self.lock:
            standins = self.standins
            if standins is None:
                raise ProtocolError(
                    "standin_off",
                    "this room has no stand-in",
                    "in diesem Raum gibt es keine Vertretung",
                )
            user = conn.user_id
            if user not in self.live.player_ids or user in self.levels:
                raise ProtocolError(
                    "not_a_player",
                    "only a player of the match may ask for a stand-in",
                    "eine Vertretung kann nur ein Spieler der Partie bekommen",
                )
            if self.finished:
                raise ProtocolError("match_finished", "the match is over", "die Partie ist aus")
            loop = asyncio.get_running_loop()
            asked = {**standins.asked}
            asked.pop(user, None)
            if on:
                asked[user] = loop.time() + ASKED_SECONDS
            await self._store_asked(asked)  # stored first: a restart keeps it
            if on:
                self._stand_in_until(user, asked[user])
            else:
                standins.end_asked(user)
                if user not in standins.away:
                    standins.marked.discard(user)
            state = self._standin_state()
            message = encode({"type": "standin", **(state or {})})
            own = with_id(message, msg_id)
            self._broadcast(lambda c: own if c is conn else message)
            if on:
                self._not_waiting_for(user)
            self._drive()

    def _stand_in_until(self, user: int, end: float) -> None:
        """The stand-in plays for ``user`` until the loop's time ``end`` (he asked for it)."""
        standins = self.standins
        assert standins is not None
        standins.end_asked(user)
        standins.asked[user] = end
        standins.marked.add(user)
        left = max(0.0, end - asyncio.get_running_loop().time())
        standins.endings[user] = asyncio.create_task(self._asked_over(user, left))

    async def _store_asked(self, asked: dict[int, float]) -> None:
        """Store the stand-ins people asked for (user id -> the loop's time when it ends)
        as times of day, so that a restarted server knows them (under the lock)."""
        now, wall = asyncio.get_running_loop().time(), datetime.now(UTC)
        ends = {user: wall + timedelta(seconds=end - now) for user, end in asked.items()}
        match_id = self.live.match_id

        def store() -> Awaitable[None]:
            return self._write(lambda c: log.set_standin_asked(c, match_id, ends))

        await self._durably(store, store)

    def resume_asked(self, asked: dict[int, datetime]) -> None:
        """After a restart: the stand-ins people asked for play on for the time that is
        left (under the lock; those already over are dropped)."""
        if self.standins is None or self.finished:
            return
        now, wall = asyncio.get_running_loop().time(), datetime.now(UTC)
        for user, end in asked.items():
            left = (end - wall).total_seconds()
            if left > 0 and user in self.live.player_ids and user not in self.levels:
                self._stand_in_until(user, now + left)

    async def _asked_over(self, user: int, seconds: float = ASKED_SECONDS) -> None:
        """The stand-in ``user`` asked for has played its time."""
        await asyncio.sleep(seconds)
        async with self.lock:
            standins = self.standins
            if standins is None or standins.endings.get(user) is not asyncio.current_task():
                return
            standins.end_asked(user)
            if user not in standins.away:
                standins.marked.discard(user)
            self._say_standins()
            self._drive()

    # ------------------------------------------------------------------ computer players

    def _computer_to_move(self, version: int | None = None) -> tuple[int, str, bool] | None:
        """The seat and level of the computer player to move now (at ``version``, if
        given), and whether it is a stand-in for the person at that seat; or None."""
        deal = self.live.deal
        if ((not self.levels and self.standins is None) or self.finished
                or self.between is not None or self.paused
                or deal is None or deal.finished or deal.to_move is None
                or (version is not None and version != self.version)):  # fmt: skip
            return None
        seat = deal.to_move
        level = self.computer_at(seat)
        if level is not None:
            return seat, level, False
        standins = self.standins
        if standins is not None and standins.plays_for(self.user_at(seat), self.version):
            return seat, standins.level, True
        return None

    def _drive(self) -> None:
        """The turn changed (under the lock): if a computer player is to move, its task
        starts (one per version; a task of an earlier version is dropped)."""
        task = self._computer
        if task is not None and not task.done():
            if self._computer_version == self.version:
                return
            task.cancel()
        self._computer = None
        turn = self._computer_to_move()
        if turn is None:
            return
        self._computer_version = self.version
        self._computer = asyncio.create_task(self._computer_moves(self.version, *turn))

    def _computer_delay(self, view: JSON | None) -> float:
        """How long the computer player waits (from when its turn began): a random time
        in the room's pace, and after a completed trick at least :data:`TRICK_SHOWN`."""
        least, most = self.computer_pause
        delay = self.rng.uniform(least, most)
        if most > 0 and view is not None and view.get("last_trick") \
                and not (view.get("trick") or {}).get("cards"):  # fmt: skip
            delay = max(delay, TRICK_SHOWN)
        return delay

    async def _computer_moves(self, version: int, seat: int, level: str, standin: bool) -> None:
        """A computer player's turn (``standin``: a stand-in's for the person at ``seat``):
        decide (outside the lock), wait out the pace, then make the move like a person's,
        if the table is still where it was (and, for a stand-in, he is still away)."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        async with self.lock:
            deal = self.live.deal
            if self._computer_to_move(version) != (seat, level, standin) or deal is None:
                return
            info = info_for(deal, seat)
            seed = self.rng.getrandbits(48)
            delay = self._computer_delay(info["view"])
        text: str | None
        try:
            text = await self.thinker.decide(info, level, seed)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug of the player: said loudly, the default move is made
            logger.exception("room %s: the computer player (%s) at seat %s failed",
                             self.room_id, level, seat)  # fmt: skip
            text = None
        wait = delay - (loop.time() - began)
        if wait > 0:
            await asyncio.sleep(wait)
        async with self.lock:
            deal = self.live.deal
            if self._computer_to_move(version) != (seat, level, standin) or deal is None:
                return
            self._computer = None  # this task; the move below starts the next one
            try:
                try:
                    move = deal.parse(text) if text is not None else None
                    if move is not None:
                        deal.check(move, seat)
                except EngineError:
                    logger.exception("room %s: the computer player (%s) chose %r, which the "
                                     "game refuses", self.room_id, level, text)  # fmt: skip
                    move = None
                if standin:
                    tag = log.standin_tag(level, seed) + (":default" if move is None else "")
                else:
                    tag = log.computer_tag(level, seed, fallback=move is None)
                if move is None:
                    move = deal.default_move()
                await self._perform(move, seat, auto=False, tag=tag)
            except StorageError:
                logger.warning("room %s: a computer player's move could not be stored; "
                               "trying again", self.room_id)  # fmt: skip
                self._spawn(self._computer_again(version))

    async def _computer_again(self, version: int) -> None:
        """Try a computer player's turn again after :data:`COMPUTER_RETRY` seconds."""
        await asyncio.sleep(COMPUTER_RETRY)
        async with self.lock:
            if version == self.version:
                self._drive()

    async def _expire(self, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            deal = self.live.deal
            if (version != self.version or self.finished or self.between is not None
                    or self.paused or deal is None or deal.finished):  # fmt: skip
                return
            seat = deal.to_move
            assert seat is not None
            self._timer = None  # this task is the timer; do not cancel it from inside
            try:
                await self._out_of_time(deal, seat)
            except StorageError:
                self.arm_timer()  # try again after another period
            except Exception:  # a bug: said loudly, and the timer tries again
                logger.exception("room %s: the turn timer could not act", self.room_id)
                self.arm_timer()

    async def _out_of_time(self, deal: Deal, seat: int) -> None:
        """The person at ``seat`` let his time run out (under the lock): the stand-in makes
        this move, marked, or without one the engine's default move is played (``auto``).
        Raises :class:`StorageError` when the default move could not be stored."""
        standins = self.standins
        if standins is not None and self.computer_at(seat) is None:
            # the stand-in makes this move instead of the passive one, and is marked
            standins.timed_out_at = self.version
            standins.marked.add(self.user_at(seat))
            self._say_standins()
            self._drive()
            return
        await self._perform(deal.default_move(), seat, auto=True)

    async def deadline_passed(self, version: int, seat: int) -> bool:
        """A correspondence deadline of the turn that began at ``version`` for ``seat``
        has passed (:mod:`server.tables.deadlines`): move for the seat as the turn timer
        would (:meth:`_out_of_time`), unless a move came meanwhile, the table is paused
        or the stand-in is on it already. Return whether it acted."""
        async with self.lock:
            deal = self.live.deal
            if (version != self.version or self.finished or self.between is not None
                    or self.paused or deal is None or deal.finished
                    or deal.to_move != seat or self.computer_at(seat) is not None):  # fmt: skip
                return False
            standins = self.standins
            if standins is not None and standins.timed_out_at == version:
                return False  # the stand-in is on it
            try:
                await self._out_of_time(deal, seat)
            except StorageError:
                logger.warning("room %s: the move at the deadline could not be stored; "
                               "the next look tries again", self.room_id)  # fmt: skip
                return False
            return True

    # ------------------------------------------------------------------ stored turns

    def _turn_changed(self) -> None:
        """The table may wait for somebody else now (under the lock): keep the turn, with
        its correspondence deadline, and have it stored (coalesced, off the action's path:
        :meth:`_store_turns` writes whatever the latest turn is when it gets to it)."""
        turn = self._turn_now()
        current = self.current_turn
        if turn is not None and turn.same_turn(current):
            return
        self.current_turn = turn
        if turn is None and self._turn_stored is None:
            return
        if self._turn_writer is None or self._turn_writer.done():
            self._turn_writer = asyncio.create_task(self._store_turns())

    def _turn_now(self) -> turns.TurnState | None:
        """The turn the table waits for now, a fresh one (None: nobody, or a computer)."""
        deal = self.live.deal
        if (self.finished or self.between is not None or deal is None or deal.finished
                or deal.to_move is None):  # fmt: skip
            return None
        seat = deal.to_move
        if self.computer_at(seat) is not None:
            return None
        user = self.user_at(seat)
        current = self.current_turn
        if current is not None and (current.version, current.seat) == (self.version, seat):
            return current
        since = self.clock.now()
        deadline = None
        if self.tempo_seconds:
            deadline = turns.effective_deadline(since, self.tempo_seconds,
                                                self.holidays.get(user, ()))  # fmt: skip
        return turns.TurnState(user, seat, self.version, since, deadline)

    def adopt_turn(self, stored: turns.TurnState | None) -> None:
        """After a restart or a takeover (before the turn is worked out): the stored turn
        is the table's if it began at the table's version (it keeps its start, deadline and
        reminders); otherwise a fresh one replaces it."""
        self._turn_stored = stored
        if stored is not None and stored.version == self.version:
            self.current_turn = stored

    def refresh_deadline(self, user: int, holidays: list[turns.Span]) -> bool:
        """``user``'s holidays in the room changed (under the lock): his open turn's
        deadline is worked out again (keeping what a pause added) and stored; return
        whether it changed (then the caller tells everybody)."""
        before = self.holidays.get(user, [])
        self.holidays[user] = list(holidays)
        current = self.current_turn
        if (not self.tempo_seconds or current is None or current.user_id != user
                or current.deadline is None):  # fmt: skip
            return False
        paused_for = current.deadline - turns.effective_deadline(
            current.since, self.tempo_seconds, before
        )
        deadline = turns.effective_deadline(current.since, self.tempo_seconds, holidays)
        deadline += paused_for
        if deadline == current.deadline:
            return False
        self.current_turn = turns.TurnState(current.user_id, current.seat, current.version,
                                            current.since, deadline)  # fmt: skip
        if self._turn_writer is None or self._turn_writer.done():
            self._turn_writer = asyncio.create_task(self._store_turns())
        return True

    async def _store_turns(self) -> None:
        """Store the table's latest turn until what is stored is what the table keeps
        (one write at a time; turns that came and went meanwhile are never written)."""
        match_id, room_id = self.live.match_id, self.room_id
        while True:
            if not self.tempo_seconds:  # the latest turn after a moment: coalesced
                await asyncio.sleep(LIVE_TURN_DELAY)
            turn = self.current_turn
            stored = self._turn_stored
            if turn is stored and stored is not _UNKNOWN:
                return
            wanted = (
                None
                if turn is None
                else turns.TurnState(
                    turn.user_id, turn.seat, turn.version, turn.since, turn.deadline
                )
            )
            try:
                await self._write(
                    partial(turns.store_turn, match_id=match_id, room_id=room_id, turn=wanted)
                )
            except FencedError:
                return  # another process serves the table now
            except StorageError:
                logger.warning("room %s: the turn could not be stored; trying again",
                               self.room_id)  # fmt: skip
                await asyncio.sleep(TURN_RETRY)
                continue
            self._turn_stored = turn

    async def start_next_deal(self) -> None:
        """Deal the next deal of the match and store it (called under the lock)."""
        live = self.live
        deal, record = live.next_deal(self.rng)
        number = live.deal_number + 1
        match_id = live.match_id
        live.deal_id = await self._write(
            lambda connection: log.create_deal(connection, match_id, number, record)
        )
        live.deal, live.deal_number = deal, number

    async def say(self, conn: Connection, text: str) -> None:
        """Store and publish a chat message (plain text; the client shows it as text, never
        as HTML). One user may send :data:`CHAT_RATE` lines a second (all devices
        together). Bidi overrides, zero-width and other invisible characters are taken out
        (:func:`~server.store.names.clean_chat_text`), as display names refuse them."""
        text = clean_chat_text(text).strip()
        if not text or len(text) > CHAT_MAX:
            raise ProtocolError(
                "bad_chat",
                f"a chat message has 1 to {CHAT_MAX} characters",
                f"eine Chatnachricht hat 1 bis {CHAT_MAX} Zeichen",
            )
        limit = self._chat_limits.setdefault(conn.user_id, RateLimit(CHAT_RATE, CHAT_BURST))
        if not limit.allow():
            raise ProtocolError(
                "chat_too_fast",
                "too many chat messages; wait a moment",
                "zu viele Chatnachrichten; bitte kurz warten",
            )
        name = self.names.get(conn.user_id, conn.name)
        at = datetime.now(UTC)
        message = log.StoredChat(conn.user_id, name, text, at).to_json()
        match_id = self.live.match_id

        def store() -> Awaitable[None]:
            return self._write(lambda c: log.add_chat(c, match_id, conn.user_id, name, text, at))

        async with self.lock:
            await self._durably(store, store)
            self.chat.append(message)
            encoded = encode(message)
            self._broadcast(lambda _conn: encoded)

    async def show_requests(
        self, rematch: JSON | None, end_votes: list[int], declined_by: int | None = None
    ) -> None:
        """The room's requests changed (stored by the rooms API): the Revanche offer
        (``{"by", "accepted"}`` or ``None``) and the players who agree to end the match
        early. Everybody at the table is told (``requests``; ``declined_by``: the player
        whose "no" just withdrew every agreement to end), and later snapshots carry them."""
        async with self.lock:
            self.requests = {"rematch": rematch, "end_votes": sorted(end_votes)}
            message = encode({"type": "requests", **self.requests, "declined_by": declined_by})
            self._broadcast(lambda _conn: message)

    def succeeded_by(self, match_id: int) -> None:
        """A Revanche started match ``match_id`` in this room at a new table: everybody
        still here is told (``new_match``) and greets the room again on the same socket."""
        message = encode({"type": "new_match", "match_id": match_id})
        self._broadcast(lambda _conn: message)

    def end_early(self) -> None:
        """The players ended the match by agreement (under the lock, after it is stored):
        no more actions, no timer, no pause; everybody gets the final snapshot, which says
        ``ended_early`` (the deal in play stays as it was, unfinished, in the archive)."""
        self.finished = True
        self.ended_early = True
        self.requests = {**self.requests, "end_votes": []}
        if self.between is not None and self.between.task is not None:
            self.between.task.cancel()
        self.between = None
        self.arm_timer()  # a finished table arms no timer: this stops the running one
        self.version += 1
        self._broadcast(self._snapshots())

    async def close(self) -> None:
        """Stop the timer and close every connection (server shutdown)."""
        if self._timer is not None:
            self._timer.cancel()
        writing = self._turn_writer
        if writing is not None and not writing.done():
            if self.tempo_seconds:  # a correspondence turn (with its deadline), if quick
                with contextlib.suppress(asyncio.TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(writing), 2.0)
            else:  # a live turn: recovery writes a fresh one where it is not stored
                writing.cancel()
        if self._computer is not None:
            self._computer.cancel()
        if self.standins is not None:
            self.standins.cancel()
        if self.between is not None and self.between.task is not None:
            self.between.task.cancel()
        for conn in list(self.connections):
            await conn.stop()
            await conn.close()
        self.connections.clear()


def _iso(moment: datetime) -> str:
    """A wall-clock time as ISO 8601 UTC text (``2026-12-01T12:00:00Z``)."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


class RateLimit:
    """A token bucket per connection: ``rate`` messages per second, bursts up to ``burst``."""

    def __init__(self, rate: float = 50.0, burst: float = 100.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take a token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


#: What a connection is told when a newer one of the same user at the table replaces it.
REPLACED = ProtocolError(
    "replaced",
    f"you opened this table on more than {SOCKETS_PER_USER} devices or tabs; this one was closed",
    f"du hast diesen Tisch auf mehr als {SOCKETS_PER_USER} Geräten oder Tabs geöffnet; "
    "dieser wurde geschlossen",
)


def error_json(exc: EngineError | ProtocolError | StorageError, msg_id: Any = None) -> str:
    """An error message for the client: stable code, English and German text."""
    if isinstance(exc, StorageError):
        body = {
            "code": "storage_failed",
            "message": "the action could not be stored; nothing changed, please try again",
            "message_de": "die Aktion konnte nicht gespeichert werden; nichts hat sich geändert",
        }
    else:
        body = exc.to_json()
    return encode({"type": "error", "id": msg_id, **body})
