"""SQLAlchemy 2 typed models.

Every table here has an Alembic revision in ``migrations/versions/`` that creates it;
``tests/test_migrations.py`` checks that the two agree.

* accounts: ``users`` (registered or guest) and ``sessions`` (a hash of the cookie token);
* rooms: ``rooms`` (game, options, stake, invite token, the computer players' pace) and
  ``room_members`` (players with their seat order, people or computer players without an
  account; spectators);
* play: ``matches`` (one Partie/evening of a room), ``deals`` (the deal record: options,
  seats, dealer, dealt cards; the outcome once finished), ``actions`` (the append-only log,
  primary key deal + sequence number; rows are never updated; each row keeps the id the
  client gave its message, so that a resent action is applied at most once),
  ``score_entries`` (points and money per player and deal, from the deal's ledger, which
  ``deals.ledger`` holds whole), ``pot_movements`` (Pagatkasse, Haferl, Depot; with no
  deal: the pots closed when a match was stopped early), ``matches.settlement`` (the final
  settlement) and ``chat_messages`` (the table's chat, kept with the match);
* preferences: ``game_preferences`` (per account and game: how the hand is sorted).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Identity,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Deterministic constraint names, so that Alembic revisions (and SQLite batch
# migrations, which recreate tables) can refer to constraints by name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The declarative base of every Stammtisch table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class AppMeta(Base):
    """Small key/value facts about the installation itself (created by ``0001_initial``)."""

    __tablename__ = "app_meta"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[str] = mapped_column(Text)


def _now() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), server_default=func.now())


class User(Base):
    """A person: registered (login name + argon2 hash) or a guest (display name only)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    login: Mapped[str | None] = mapped_column(String(40), unique=True)  # None for guests
    display_name: Mapped[str] = mapped_column(String(40))
    password_hash: Mapped[str | None] = mapped_column(Text)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    language: Mapped[str] = mapped_column(String(2), default="de")
    created_at: Mapped[datetime] = _now()
    #: the e-mail address for the daily digest (verified once ``email_verified_at`` is set)
    email: Mapped[str | None] = mapped_column(String(254))
    email_verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: wants the daily digest of the tables waiting for him (at most one a day)
    email_digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    digest_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class UserSession(Base):
    """A login session; the cookie holds the token, the database only its SHA-256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = _now()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Room(Base):
    """A private room: one game with fixed house rules, reachable by its invite token."""

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    invite_token: Mapped[str] = mapped_column(String(64), unique=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    stake_cents: Mapped[int] = mapped_column(Integer, default=10)
    rounds: Mapped[int] = mapped_column(Integer, default=4)  # or deals; 0 = open (GameInfo)
    allow_spectators: Mapped[bool] = mapped_column(Boolean, default=False)
    timer_seconds: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open, playing, finished
    created_at: Mapped[datetime] = _now()
    #: the game's match options the room chose (None: the defaults)
    match_options: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: seconds between two deals before the next is dealt (0: wait for everybody's "Weiter")
    next_deal_pause_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the open Revanche offer: ``{"by": user id, "accepted": [user ids]}`` (None: none)
    rematch: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: players who agreed to end the running match early (None: nobody)
    end_votes: Mapped[list[int] | None] = mapped_column(JSON)
    #: how long a computer player waits before its move: a random time in this range
    computer_pause_min_ms: Mapped[int] = mapped_column(Integer, default=800, server_default="800")
    computer_pause_max_ms: Mapped[int] = mapped_column(Integer, default=1500, server_default="1500")
    #: the stand-in ("Vertretung"): a computer player of ``standin_level`` plays for a
    #: person who is away (offline for ``standin_delay_seconds``, out of time, or asked)
    standin: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    standin_level: Mapped[str] = mapped_column(
        String(16), default="einsteiger", server_default="einsteiger"
    )
    standin_delay_seconds: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    #: the secret ``s_N`` (64 hex digits) of the fair shuffling of the room's next match;
    #: its commitment is shown in the room, the secret goes to nobody
    fair_secret: Mapped[str | None] = mapped_column(String(64))
    #: None: a live table; else a correspondence match (Fernpartie) with this many seconds
    #: per move (12 h, 1, 2, 3 or 7 days)
    tempo_seconds: Mapped[int | None] = mapped_column(Integer)
    #: holiday days a person may take per calendar year in this room's correspondence matches
    holiday_days: Mapped[int] = mapped_column(Integer, default=14, server_default="14")


class RoomMember(Base):
    """A member of a room: a player (with a place in the seat order) or a spectator.

    A person's row names the person's account (``user_id``, unique per room); a computer
    player's row (``kind`` ``computer``) has no account: it is a player with a ``level``
    and a ``name`` of its own."""

    __tablename__ = "room_members"
    __table_args__ = (UniqueConstraint("room_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, Identity(), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    #: the person's account (None: a computer player)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    role: Mapped[str] = mapped_column(String(16))  # player, spectator
    seat_order: Mapped[int | None] = mapped_column(Integer)
    joined_at: Mapped[datetime] = _now()
    #: ``person`` or ``computer``
    kind: Mapped[str] = mapped_column(String(16), default="person", server_default="person")
    #: a computer player's level (``einsteiger``, ``stark``; None for a person)
    level: Mapped[str | None] = mapped_column(String(16))
    #: a computer player's name in the room (None for a person: the account's name)
    name: Mapped[str | None] = mapped_column(String(40))
    #: the seed (64 hex digits) the person's browser gave for the room's next match
    fair_seed: Mapped[str | None] = mapped_column(String(64))


class Match(Base):
    """A match (Partie, evening) of a room, with the players fixed at its start."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[list[str]] = mapped_column(JSON)  # display names in seat order
    player_ids: Mapped[list[int]] = mapped_column(JSON)  # user ids in the same order
    config: Mapped[dict[str, Any]] = mapped_column(JSON)  # options, stake, rounds, first dealer
    #: running, finished, or ended (early, by agreement of all players)
    status: Mapped[str] = mapped_column(String(16), default="running")
    started_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: the final settlement from the match's ledger once it is over (None: running)
    settlement: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: since when the players have paused the table by agreement (None: not paused)
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: the stand-ins people asked for and when each ends (``{"<user id>": "<ISO time>"}``)
    standin_asked: Mapped[dict[str, str] | None] = mapped_column(JSON)
    #: several processes: raised by each takeover of the table, checked by every write
    owner_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the process that took the table over last (for operators)
    owner_node: Mapped[str | None] = mapped_column(String(128))
    #: the fair shuffling fixed at the start (``FairMatch.stored()``, with the secret;
    #: None: a match dealt before it)
    fair: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class DealRow(Base):
    """One deal of a match: the chance part of its record, and its outcome when finished."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)  # record without actions/outcome
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: the deal's ledger (one entry per person of the match) once it is finished
    ledger: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = _now()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    """One action of a deal, in canonical text; the log is append-only."""

    __tablename__ = "actions"

    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = _now()
    #: the ``id`` of the client's action message (JSON text), if it gave one
    client_id: Mapped[str | None] = mapped_column(String(80))


class ScoreEntry(Base):
    """Points and money of one person in one deal, as the deal's ledger says (``points``:
    the sheet's entry, ``cents``: the money between the players), for sums in SQL."""

    __tablename__ = "score_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id"))
    player: Mapped[str] = mapped_column(String(40))
    points: Mapped[int] = mapped_column(Integer)
    cents: Mapped[int] = mapped_column(Integer)


class PotMovement(Base):
    """Money or points into (positive) or out of (negative) a pot for one player, moved by
    one deal: the pot's name, the amount in ``unit`` (the column ``cents`` holds the amount
    also when ``unit`` is ``"points"``), the reason as a code and its parameters."""

    __tablename__ = "pot_movements"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    deal_id: Mapped[int | None] = mapped_column(ForeignKey("deals.id"))
    pot: Mapped[str] = mapped_column(String(24))
    player: Mapped[str] = mapped_column(String(40))
    cents: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(80))
    unit: Mapped[str] = mapped_column(String(8), default="cents", server_default="cents")
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class ChatMessage(Base):
    """A chat line at a match's table, stored before anyone sees it."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(60))  # the name shown at the table then
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GamePreference(Base):
    """What a person chose for one game, kept with the account so that it follows them to
    another device: how the hand is sorted (``sort_trumps`` ``left``/``right``,
    ``sort_order`` ``desc`` strongest first or ``asc``, ``sort_suits`` ``pack`` or
    ``alternate`` colours). A missing row means the defaults
    (:mod:`server.store.preferences`)."""

    __tablename__ = "game_preferences"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    sort_trumps: Mapped[str] = mapped_column(String(8))
    sort_order: Mapped[str] = mapped_column(String(8))
    sort_suits: Mapped[str] = mapped_column(String(12))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Turn(Base):
    """Whose move a running match waits for, since when and until when (one row per match
    whose deal waits for a person; kept by the match's table)."""

    __tablename__ = "turns"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: the table's version at which the turn began
    version: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: the correspondence deadline (None: a live table); holidays and pauses move it
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    #: the last reminder sent for this turn: 0 (none), 75 or 90 (per cent of the time)
    reminded: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: whether the person was told that it is his move (push)
    notified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Holiday(Base):
    """Holiday days a person took in a room: his correspondence deadlines stand still."""

    __tablename__ = "holidays"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = _now()


class PushSubscription(Base):
    """One browser (device) that asked for Web Push notifications."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(Text, unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    #: what the person calls the device (or its browser's name)
    label: Mapped[str | None] = mapped_column(String(120))
    created_at: Mapped[datetime] = _now()
    last_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class EmailToken(Base):
    """An open verification of an e-mail address (the link holds the token, the database
    only its SHA-256)."""

    __tablename__ = "email_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
