"""Persistence of play: matches, deals, the append-only action log, scores.

The table runtime is the only writer. Actions are only ever inserted (primary key deal +
sequence number, so an action cannot be stored twice); a deal row gets its outcome once.
A deal's end is one transaction (:func:`end_deal`): its last action, outcome, scores, pot
movements and the next deal, or the end of the match and its room; it can be run again
(a retry after an unclear failure, or recovery completing a deal that an older version
left without its outcome) and then writes nothing twice. :func:`load_unfinished` gives
recovery everything it needs to replay running matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.pool import StaticPool

from server.engine.fair import SEED_BYTES, FairChain, FairMatch, parse_player_seed
from server.engine.ledger import DealLedger, PotMove
from server.store.db import configure_sqlite, sqlite_file
from server.store.errors import ConflictError, FencedError
from server.store.models import (
    ActionRow,
    ChatMessage,
    DealRow,
    Match,
    PotMovement,
    Room,
    RoomMember,
    ScoreEntry,
)

logger = logging.getLogger(__name__)

#: Chat lines a table keeps in memory and sends with a snapshot.
CHAT_KEEP = 50


async def create_match(
    session: AsyncSession,
    room_id: int,
    game: str,
    players: Sequence[str],
    player_ids: Sequence[int],
    config: dict[str, Any],
) -> int:
    """Insert a running match and mark its open room as playing; return the match id.

    Raises :class:`ConflictError` ``room_not_open`` if the room is no longer open (two of
    the host's tabs pressing "start" at once: only one match is created).
    """
    claimed = await session.execute(
        update(Room).where(Room.id == room_id, Room.status == "open").values(status="playing")
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise ConflictError(
            "room_not_open",
            "the match of this room has already started",
            "die Partie dieses Raums hat schon begonnen",
        )
    match = Match(
        room_id=room_id,
        game=game,
        players=list(players),
        player_ids=list(player_ids),
        config=config,
        status="running",
    )
    session.add(match)
    await session.flush()
    return match.id


async def fix_fair(
    session: AsyncSession,
    match_id: int,
    room_id: int,
    player_ids: Sequence[int],
    next_secret: bytes,
    fallback_secret: bytes,
) -> FairMatch:
    """Fix the fair shuffling of a match as it starts (in the transaction that creates it,
    before its first deal): the room's secret, whose commitment the room has shown, with
    the seeds the players' browsers gave for it (in the order of ``player_ids``; none for a
    computer player). The room then takes ``next_secret`` for its next match, and the
    seeds are cleared. A room without a secret (made before fair shuffling) uses
    ``fallback_secret``, without player seeds: its commitment was shown to nobody."""
    room = await session.get(Room, room_id)
    assert room is not None
    members = (await session.scalars(
        select(RoomMember).where(RoomMember.room_id == room_id))).all()  # fmt: skip
    seeds = {member.user_id: member.fair_seed for member in members if member.user_id}
    if room.fair_secret:
        secret = bytes.fromhex(room.fair_secret)
        player_seeds = tuple(parse_player_seed(seeds.get(pid) or "") for pid in player_ids)
    else:
        secret, player_seeds = fallback_secret, tuple(b"" for _ in player_ids)
    assert len(secret) == SEED_BYTES and len(next_secret) == SEED_BYTES
    fair = FairMatch(FairChain(secret), player_seeds)
    room.fair_secret = next_secret.hex()
    for member in members:
        member.fair_seed = None
    match = await session.get(Match, match_id)
    assert match is not None
    match.fair = fair.stored()
    await session.flush()
    return fair


#: The writes of a running table, built once: executed with parameters, they skip the
#: statement construction that cost more than the SQL (about 0.3 ms per finished deal).
_INSERT_DEAL = insert(DealRow)
_FINISH_DEAL = (
    update(DealRow)
    .where(DealRow.id == bindparam("b_deal"), DealRow.outcome.is_(None))
    .values(
        outcome=bindparam("outcome"),
        ledger=bindparam("ledger"),
        finished_at=bindparam("finished_at"),
    )
)
_INSERT_SCORES = insert(ScoreEntry)
_INSERT_POTS = insert(PotMovement)


def create_deal(connection: Connection, match_id: int, number: int, record: dict[str, Any]) -> int:
    """Insert a deal with the chance part of its record; return the deal id.

    This and the next two are the writes of a running table. They take a synchronous
    connection, so that the table's writer can run them inline on a SQLite file (see
    :class:`SqliteWriter`) or through an async session elsewhere
    (``AsyncSession.run_sync``), one body for both.
    """
    inserted = connection.execute(
        _INSERT_DEAL, {"match_id": match_id, "number": number, "record": record}
    )
    key = inserted.inserted_primary_key
    assert key is not None
    return int(key[0])


def finish_deal(
    connection: Connection, match_id: int, deal_id: int, outcome: dict[str, Any],
    ledger: DealLedger,
) -> None:  # fmt: skip
    """Store a deal's outcome and its ledger: whole on the deal's row, and per person as
    score entries and pot movements."""
    connection.execute(
        _FINISH_DEAL,
        {"b_deal": deal_id, "outcome": outcome, "ledger": ledger.to_json(),
         "finished_at": datetime.now(UTC)},
    )  # fmt: skip
    write_entries(connection, match_id, deal_id, ledger)


def write_entries(connection: Connection, match_id: int, deal_id: int | None,
                  ledger: DealLedger | None, moves: Sequence[PotMove] = ()) -> None:  # fmt: skip
    """Insert the score entries of ``ledger`` (one per person) and its pot movements (or
    ``moves``, e.g. the pots closed when a match stops early with ``deal_id`` None)."""
    if ledger is not None:
        scores = [
            {"match_id": match_id, "deal_id": deal_id, "player": e.player, "points": e.points,
             "cents": e.cents}
            for e in ledger.entries
        ]  # fmt: skip
        connection.execute(_INSERT_SCORES, scores)
        moves = ledger.moves()
    movements = [
        {"match_id": match_id, "deal_id": deal_id, "pot": m.pot, "player": m.player,
         "cents": m.amount, "reason": m.reason, "unit": m.unit,
         "params": dict(m.params) or None}
        for m in moves
    ]  # fmt: skip
    if movements:
        connection.execute(_INSERT_POTS, movements)


def finish_match(
    connection: Connection, match_id: int, room_id: int, settlement: dict[str, Any]
) -> None:
    """Mark a match and its room as finished, with the match's final settlement."""
    now = datetime.now(UTC)
    connection.execute(
        update(Match)
        .where(Match.id == match_id)
        .values(status="finished", finished_at=now, settlement=settlement)
    )
    connection.execute(update(Room).where(Room.id == room_id).values(status="finished"))


#: One entry of the action log: deal id, sequence number, seat, canonical text, and the
#: id of the client's message (JSON text) or ``None``.
ActionEntry = tuple[int, int, int, str, str | None]
#: A write of a running table: a function of a synchronous connection (see create_deal).
SyncWork = Callable[[Connection], Any]

#: The ``client_id`` stored with an action the turn timer played. A client's id is stored
#: as JSON text (a quoted string or a number), so this bare word is never one: the stored
#: action remembers that it was automatic without a column of its own.
AUTO_ACTION = "auto"
#: The ``client_id`` stored with a move the table played itself because the game allowed
#: no other (a forced move): automatic, but not the turn timer's, so it gets no timer mark.
FORCED_ACTION = "forced"
#: The stored client ids that no client sent.
TABLE_ACTIONS = frozenset({AUTO_ACTION, FORCED_ACTION})
#: The start of the ``client_id`` stored with a computer player's move:
#: ``computer:<level>:<seed>`` (the seed reproduces the decision from the information set,
#: :func:`server.bots.choose`); ``computer:<level>:<seed>:default`` when the player failed
#: and the table made the turn timer's move for it.
COMPUTER_ACTION = "computer:"
#: The start of the ``client_id`` stored with a move a computer player made for an absent
#: person (a stand-in, "Vertretung"): ``standin:<level>:<seed>``, as :data:`COMPUTER_ACTION`.
STANDIN_ACTION = "standin:"


def computer_tag(level: str, seed: int, fallback: bool = False) -> str:
    """The ``client_id`` stored with a computer player's move (:data:`COMPUTER_ACTION`)."""
    return f"{COMPUTER_ACTION}{level}:{seed}" + (":default" if fallback else "")


def standin_tag(level: str, seed: int) -> str:
    """The ``client_id`` stored with a stand-in's move for a person (:data:`STANDIN_ACTION`)."""
    return f"{STANDIN_ACTION}{level}:{seed}"


def is_standin_action(client_id: str | None) -> bool:
    """Whether a stored move was made by a stand-in for the person at its seat."""
    return client_id is not None and client_id.startswith(STANDIN_ACTION)


def is_table_action(client_id: str | None) -> bool:
    """Whether a stored ``client_id`` is the table's own (the turn timer's, a forced move,
    a computer player's or a stand-in's), not the id of a message some client sent."""
    return client_id is not None and (
        client_id in TABLE_ACTIONS
        or client_id.startswith(COMPUTER_ACTION)
        or client_id.startswith(STANDIN_ACTION)
    )


_ACTION_COLUMNS = ("deal_id", "seq", "seat", "text", "client_id")
_INSERT_ACTION = insert(ActionRow)


@dataclass(frozen=True, slots=True)
class Fence:
    """The ownership check of a table's writes when several processes share the tables:
    inside the write's transaction the match's ``owner_epoch`` must still be ``epoch``
    (read under a shared row lock, so that a takeover's raise of the epoch waits for the
    write, and the next owner's recovery sees it); else :class:`FencedError`."""

    match_id: int
    epoch: int

    def __call__(self, connection: Any) -> None:
        """Check the epoch on ``connection`` (a connection or an ORM session)."""
        query = (
            select(Match.owner_epoch).where(Match.id == self.match_id).with_for_update(read=True)
        )
        if connection.execute(query).scalar() != self.epoch:
            raise FencedError()


async def fenced_off(connection: AsyncConnection, fences: Sequence[Fence]) -> set[Fence]:
    """Of ``fences``, those whose match has another epoch now: one query for all (the
    matches' rows locked shared, in id order, until the transaction ends)."""
    ids = sorted({fence.match_id for fence in fences})
    rows = await connection.execute(
        select(Match.id, Match.owner_epoch)
        .where(Match.id.in_(ids))
        .order_by(Match.id)
        .with_for_update(read=True)
    )
    epochs = {int(match_id): int(epoch) for match_id, epoch in rows.all()}
    return {fence for fence in fences if epochs.get(fence.match_id) != fence.epoch}


def insert_action(connection: Connection, entry: ActionEntry) -> None:
    """Store one action (a first attempt: a retry goes through :func:`ensure_action`)."""
    connection.execute(_INSERT_ACTION, dict(zip(_ACTION_COLUMNS, entry, strict=True)))


def ensure_action(connection: Connection, entry: ActionEntry) -> None:
    """Store one action unless the very same action is stored already (a retry after a
    failure that may have come after the commit); a different action at its place is a
    :class:`ConflictError`."""
    deal_id, seq, seat, text, _ = entry
    stored = connection.execute(
        select(ActionRow.seat, ActionRow.text).where(
            ActionRow.deal_id == deal_id, ActionRow.seq == seq
        )
    ).first()
    if stored is None:
        connection.execute(_INSERT_ACTION, dict(zip(_ACTION_COLUMNS, entry, strict=True)))
    elif tuple(stored) != (seat, text):
        raise ConflictError(
            "action_conflict",
            f"deal {deal_id} already has another action at position {seq}",
            f"Spiel {deal_id} hat an Stelle {seq} schon eine andere Aktion",
        )


@dataclass(frozen=True)
class DealEnd:
    """Everything the end of a deal stores, in one transaction (:func:`end_deal`)."""

    match_id: int
    room_id: int
    deal_id: int
    #: the deal's last action; ``None`` when recovery completes a deal whose actions are
    #: all stored already
    action: ActionEntry | None
    outcome: dict[str, Any]
    #: the deal's ledger, as the match wrote it
    ledger: DealLedger
    #: the match's final settlement when this deal ends it
    settlement: dict[str, Any] | None
    #: the next deal's number and record (without actions); ``None``: the match is over
    next_deal: tuple[int, dict[str, Any]] | None


def end_deal(connection: Connection, end: DealEnd) -> int | None:
    """Store a deal's end: its last action, outcome, scores and pot movements, and the next
    deal or the end of the match and its room; return the next deal's id (``None`` when the
    match is over). Run it inside one transaction: all of it is stored, or nothing.

    Running it again after it was committed (a retry after an unclear failure) writes
    nothing twice and returns the same id.
    """
    ended = connection.execute(
        select(DealRow.outcome.is_not(None)).where(DealRow.id == end.deal_id)
    ).scalar_one()
    if ended:
        if end.next_deal is None:
            return None
        number = end.next_deal[0]
        found = connection.execute(
            select(DealRow.id).where(DealRow.match_id == end.match_id, DealRow.number == number)
        ).scalar_one()
        return int(found)
    if end.action is not None:
        ensure_action(connection, end.action)
    finish_deal(connection, end.match_id, end.deal_id, end.outcome, end.ledger)
    if end.next_deal is None:
        assert end.settlement is not None
        finish_match(connection, end.match_id, end.room_id, end.settlement)
        return None
    number, record = end.next_deal
    return create_deal(connection, end.match_id, number, record)


def add_chat(
    connection: Connection, match_id: int, user_id: int, name: str, text: str, at: datetime
) -> None:
    """Store a chat line of a match's table."""
    connection.execute(
        insert(ChatMessage).values(
            match_id=match_id, user_id=user_id, name=name, text=text, created_at=at
        )
    )


def set_paused(connection: Connection, match_id: int, at: datetime | None) -> None:
    """Store that the players paused the match's table at ``at`` (``None``: it goes on)."""
    connection.execute(update(Match).where(Match.id == match_id).values(paused_at=at))


def set_standin_asked(connection: Connection, match_id: int, asked: dict[int, datetime]) -> None:
    """Store the stand-ins people of the match asked for: user id -> when it ends."""
    value = {str(user): end.isoformat() for user, end in sorted(asked.items())}
    connection.execute(update(Match).where(Match.id == match_id).values(standin_asked=value))


def read_standin_asked(value: dict[str, str] | None) -> dict[int, datetime]:
    """The stored stand-ins people asked for (:func:`set_standin_asked`), read back.

    >>> read_standin_asked({"7": "2026-11-27T10:05:00+00:00"})
    {7: datetime.datetime(2026, 11, 27, 10, 5, tzinfo=datetime.timezone.utc)}
    >>> read_standin_asked(None)
    {}
    """
    return {int(user): datetime.fromisoformat(end) for user, end in (value or {}).items()}


@dataclass
class StoredChat:
    """A chat line as stored."""

    user_id: int
    name: str
    text: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """The line as the table and the archive send it."""
        at = self.at if self.at.tzinfo is not None else self.at.replace(tzinfo=UTC)
        return {"type": "chat", "user_id": self.user_id, "name": self.name,
                "text": self.text, "at": at.isoformat(timespec="seconds")}  # fmt: skip


async def chat_of(
    session: AsyncSession, match_ids: Sequence[int], last: int | None = None
) -> dict[int, list[StoredChat]]:
    """The chat of each match, oldest first (only the ``last`` lines of each, if given)."""
    if not match_ids:
        return {}
    rows = (
        await session.execute(
            select(
                ChatMessage.match_id,
                ChatMessage.user_id,
                ChatMessage.name,
                ChatMessage.text,
                ChatMessage.created_at,
            )
            .where(ChatMessage.match_id.in_(match_ids))
            .order_by(ChatMessage.match_id, ChatMessage.id)
        )
    ).all()
    chats: dict[int, list[StoredChat]] = {match_id: [] for match_id in match_ids}
    for match_id, user_id, name, text, at in rows:
        chats[match_id].append(StoredChat(user_id, name, text, at))
    if last is not None:
        chats = {match_id: lines[-last:] for match_id, lines in chats.items()}
    return chats


@dataclass
class StoredDeal:
    """A deal as stored: its record, outcome (if finished) and action log."""

    id: int
    number: int
    record: dict[str, Any]
    outcome: dict[str, Any] | None
    actions: list[tuple[int, str]] = field(default_factory=list)
    #: the client's message id of each action (JSON text), where it gave one
    client_ids: list[str | None] = field(default_factory=list)
    #: the deal's ledger once it is finished
    ledger: dict[str, Any] | None = None


@dataclass
class StoredMatch:
    """A running match with all its deals in order, as recovery needs it."""

    id: int
    room_id: int
    game: str
    players: list[str]
    player_ids: list[int]
    config: dict[str, Any]
    deals: list[StoredDeal]
    chat: list[StoredChat] = field(default_factory=list)
    #: the players paused the table by agreement (it stays paused after a restart)
    paused: bool = False
    #: the stand-ins people asked for: user id -> when it ends
    standin_asked: dict[int, datetime] = field(default_factory=dict)
    #: the match's fair shuffling (None: dealt before it)
    fair: FairMatch | None = None


async def load_unfinished(
    session: AsyncSession, match_ids: Sequence[int] | None = None
) -> list[StoredMatch]:
    """Every running match (of ``match_ids``, if given) with its deals and their actions
    (in sequence order), and the last :data:`CHAT_KEEP` lines of its chat."""
    query = select(Match).where(Match.status == "running")
    if match_ids is not None:
        query = query.where(Match.id.in_(match_ids))
    matches = (await session.scalars(query)).all()
    result = []
    for match in matches:
        deals = (
            await session.scalars(
                select(DealRow).where(DealRow.match_id == match.id).order_by(DealRow.number)
            )
        ).all()
        stored = []
        for deal in deals:
            rows = (
                await session.scalars(
                    select(ActionRow).where(ActionRow.deal_id == deal.id).order_by(ActionRow.seq)
                )
            ).all()
            stored.append(
                StoredDeal(
                    deal.id,
                    deal.number,
                    deal.record,
                    deal.outcome,
                    [(r.seat, r.text) for r in rows],
                    [r.client_id for r in rows],
                )
            )
        result.append(
            StoredMatch(
                match.id,
                match.room_id,
                match.game,
                list(match.players),
                list(match.player_ids),
                dict(match.config),
                stored,
                paused=match.paused_at is not None,
                standin_asked=read_standin_asked(match.standin_asked),
                fair=None if match.fair is None else FairMatch.from_stored(match.fair),
            )
        )
    chats = await chat_of(session, [running.id for running in result], last=CHAT_KEEP)
    for running in result:
        running.chat = chats[running.id]
    return result


class SqliteWriter:
    """The table writer's way into a SQLite file: a batch of action-log rows (one
    ``executemany`` INSERT) and the other writes of the batch (deals dealt and finished,
    :data:`SyncWork`) in one transaction with one ``COMMIT``, on the event loop itself.

    Through SQLAlchemy's async session and aiosqlite the same batch takes nine hand-overs
    between the event loop and aiosqlite's thread (check-out ping, cursor, execute, commit,
    reset…), each of which waits for the GIL while the loop is busy (up to the interpreter's
    5 ms switch interval); under load that was the largest cost per action, in time and in
    latency, and a finished deal (outcome, scores, the next deal: two ORM transactions) cost
    several milliseconds. Here the commit is a few hundred microseconds of SQLite's C code
    (WAL with ``synchronous=NORMAL``: appending to the WAL, no fsync) on one synchronous
    SQLAlchemy connection of our own, so it runs inline, with two guards that keep the event
    loop from ever waiting on the disk or on a lock:

    - the connection does not checkpoint by itself (``wal_autocheckpoint=0``, the step that
      fsyncs); every ``checkpoint_every`` commits a passive checkpoint runs on a thread of
      its own, with its own connection, while appends go on (the async engine's connections
      still checkpoint on aiosqlite's thread as before);
    - the inline attempt does not wait for the write lock (``BEGIN IMMEDIATE`` with
      ``busy_timeout=0``): when another connection (an HTTP request) holds it, the batch is
      committed on the thread instead, waiting there as long as the engine's connections
      would.

    Either way the batch is committed, or rolled back as a whole, before :meth:`commit`
    returns. The connection is configured like the engine's (WAL, foreign keys).
    """

    def __init__(self, path: str, checkpoint_every: int = 200) -> None:
        self._path = path
        self._checkpoint_every = checkpoint_every
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="stammtisch-writer")
        self._engine: Engine | None = None
        self._connection: Connection | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpoint: asyncio.Future[None] | None = None
        self._since_checkpoint = 0
        table = ActionRow.__tablename__
        columns = ", ".join(_ACTION_COLUMNS)
        self._insert = f"INSERT INTO {table} ({columns}) VALUES (?, ?, ?, ?, ?)"
        self.inline = 0  # batches committed on the loop
        self.deferred = 0  # batches that found the write lock taken and went to the thread

    def _connect(self) -> tuple[Connection, sqlite3.Connection]:
        connection = self._connection
        if connection is None:
            # One connection, used by the loop or (while the loop waits) by the thread;
            # no implicit BEGIN from the driver: every transaction is BEGIN IMMEDIATE.
            engine = self._engine = create_engine(
                f"sqlite:///{self._path}",
                poolclass=StaticPool,
                connect_args={"check_same_thread": False, "isolation_level": None},
            )
            event.listen(engine, "connect", _writer_on_connect)
            connection = self._connection = engine.connect()
        raw = connection.connection.driver_connection
        assert isinstance(raw, sqlite3.Connection)
        return connection, raw

    async def commit(
        self, entries: Sequence[ActionEntry], units: Sequence[SyncWork] = ()
    ) -> list[Any]:
        """Insert ``entries`` and run ``units`` in one committed transaction (all or
        nothing); return the units' results."""
        connection, raw = self._connect()
        try:
            raw.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                raise
            self.deferred += 1
            loop = asyncio.get_running_loop()
            results = await loop.run_in_executor(self._thread, self._waiting, entries, units)
        else:
            self.inline += 1
            results = self._write(connection, raw, entries, units)
        self._since_checkpoint += 1
        if self._since_checkpoint >= self._checkpoint_every and self._checkpoint is None:
            self._since_checkpoint = 0
            future = asyncio.get_running_loop().run_in_executor(self._thread, self._wal_checkpoint)
            future.add_done_callback(self._checkpoint_done)
            self._checkpoint = future
        return results

    def _write(
        self,
        connection: Connection,
        raw: sqlite3.Connection,
        entries: Sequence[ActionEntry],
        units: Sequence[SyncWork],
    ) -> list[Any]:
        """Inside ``BEGIN IMMEDIATE``: write everything and commit, or roll it all back."""
        try:
            if entries:
                raw.executemany(self._insert, entries)
            results = [unit(connection) for unit in units]
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        finally:
            if connection.in_transaction():  # SQLAlchemy's view of it; no SQL is sent
                connection.rollback()
        return results

    def _waiting(self, entries: Sequence[ActionEntry], units: Sequence[SyncWork]) -> list[Any]:
        """On the thread: wait for the write lock as long as the engine would, then commit."""
        connection, raw = self._connect()
        raw.execute("PRAGMA busy_timeout=5000")
        try:
            raw.execute("BEGIN IMMEDIATE")
            return self._write(connection, raw, entries, units)
        finally:
            raw.execute("PRAGMA busy_timeout=0")

    def _wal_checkpoint(self) -> None:
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(self._path, isolation_level=None,
                                                 check_same_thread=False)  # fmt: skip
            configure_sqlite(self._checkpointer)
        self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _checkpoint_done(self, future: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not future.cancelled() and future.exception() is not None:
            logger.warning("WAL checkpoint failed: %s", future.exception())

    async def close(self) -> None:
        """Let a running checkpoint finish, close the connections and stop the thread."""
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=True)

    def _close(self) -> None:
        if self._connection is not None:
            self._connection.close()
        if self._engine is not None:
            self._engine.dispose()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self._connection = self._engine = self._checkpointer = None


def _writer_on_connect(dbapi_connection: Any, _connection_record: Any) -> None:
    configure_sqlite(dbapi_connection)
    dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")
    dbapi_connection.execute("PRAGMA busy_timeout=0")


def sqlite_writer(sessions: async_sessionmaker[AsyncSession]) -> SqliteWriter | None:
    """The table writer's inline path when ``sessions`` are bound to a SQLite file, else
    ``None`` (PostgreSQL: asyncpg runs on the event loop itself, no thread hand-overs; an
    in-memory SQLite database is not shared between connections)."""
    bind = sessions.kw.get("bind")
    if not isinstance(bind, AsyncEngine):
        return None
    path = sqlite_file(bind.url.render_as_string(hide_password=False))
    return SqliteWriter(path) if path is not None else None
