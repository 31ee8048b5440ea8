"""Private rooms: creation with checked house rules, invites, members and the seat order.

Every function takes an :class:`AsyncSession` and leaves the transaction to the caller
(changes are flushed, never committed). Refusals raise a :class:`StoreError` subclass:

======================== ==========================================================
``bad_room_name``        room name not 1–80 printable characters
``unknown_game``         no such game
``game_not_playable``    the game is known but its rules are not written yet
``option_not_per_room``  the option is set by the match, not by a room
``unknown_option``,      (from the engine) no such option / value not allowed
``bad_option``
``bad_stake``            stake not 0–10000 cents
``bad_rounds``           rounds outside the game's range (see :func:`rounds_rule`)
``bad_timer``            timer neither None nor 10–600 seconds
``bad_pause``            pause between deals not 0–120 seconds
``not_a_match_option``   (from the match options) no such match option of the game
``bad_role``             role neither ``player`` nor ``spectator``
``room_not_found``       no such room, or the caller is not a member
``removed_from_room``    (:mod:`server.store.removals`) the host removed the caller
``member_not_found``     that user is not a member of the room
``not_host``             only the host may do this
``room_not_open``        the room's match has started (or finished)
``room_full``            no seat left
``spectators_not_allowed`` the room does not admit spectators
``host_must_play``       the host cannot become a spectator
``cannot_remove_host``   the host cannot be removed
``bad_seat_order``       the new order is not a permutation of the players
``not_enough_players``   too few (or too many) players to start
``name_taken``           a member of the room has a name alike (:func:`name_key`)
``not_a_player``         only the room's players may offer a Revanche or vote to end
``room_not_finished``    a Revanche before the match is over
``end_by_agreement``     a player leaves a running match only by ending it by agreement
``unknown_level``        no such level of computer players (``einsteiger``, ``stark``)
``computer_not_found``   no such computer player in the room
``bad_computer_pause``   the computer players' pause not 0–10000 ms, or its least above
                         its most
``bad_standin_delay``    the stand-in's offline delay not 1–600 seconds
``bad_tempo``            the time per move neither None (live) nor one of :data:`TEMPOS`
``bad_holiday_days``     the holiday days per year not 0–60
======================== ==========================================================

A member is a person (with an account) or a computer player (``kind`` ``computer``, no
account, a ``level`` and a ``name`` of its own). Where the API and the match need one id
per player, a computer player's is negative: :func:`member_key` (the row id, negated).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Literal, cast

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.engine import fair
from server.engine.base import Option, OptionValue
from server.engine.errors import MalformedError
from server.engine.ledger import PotMove
from server.engine.registry import GAMES, GameInfo, get_rules, match_type
from server.store import removals
from server.store.errors import (
    ConflictError,
    ForbiddenError,
    InvalidError,
    NotFoundError,
    clean_name,
)
from server.store.models import Match, PotMovement, Room, RoomMember, User
from server.store.names import name_key

Role = Literal["player", "spectator"]
PLAYER: Role = "player"
SPECTATOR: Role = "spectator"
#: The kinds of members.
PERSON = "person"
COMPUTER = "computer"
#: The levels of computer players a room may seat (:data:`server.bots.LEVELS` has them).
COMPUTER_LEVELS = ("einsteiger", "stark")
#: The computer players' pause before a move, in milliseconds: the allowed range and the
#: default (least, most).
COMPUTER_PAUSE_RANGE = (0, 10_000)
DEFAULT_COMPUTER_PAUSE_MS = (800, 1500)
#: The stand-in ("Vertretung"): the seconds a person is offline before it plays for him
#: (the allowed range and the default) and its default level.
STANDIN_DELAY_RANGE = (1, 600)
DEFAULT_STANDIN_DELAY = 60
DEFAULT_STANDIN_LEVEL = "einsteiger"
#: A member with the account of a person (None: a computer player) and its row.
Member = tuple[User | None, RoomMember]

MAX_ROOM_NAME = 80
MAX_STAKE_CENTS = 10_000
TIMER_RANGE = (10, 600)
#: A correspondence room's seconds per move (12 hours, 1, 2, 3 or 7 days); None: live.
TEMPOS = (43200, 86400, 172800, 259200, 604800)
#: Holiday days a person may take per calendar year in a correspondence room.
HOLIDAY_DAYS_RANGE = (0, 60)
DEFAULT_HOLIDAY_DAYS = 14
PAUSE_RANGE = (0, 120)
DEFAULT_STAKE_CENTS = 10


@dataclass(frozen=True, slots=True)
class RoundsRule:
    """How many rounds (or deals: the game description's ``rounds.unit``) a room of a game
    may play, and the default; where ``rounds.open_allowed``, 0 means "until the match
    ends by itself"."""

    minimum: int
    maximum: int
    default: int


# --------------------------------------------------------------------------- games


def game_info(game: str) -> GameInfo:
    """Return the registry entry of ``game``; raise ``unknown_game``."""
    info = GAMES.get(game)
    if info is None:
        raise InvalidError(
            "unknown_game",
            f"There is no game '{game}'.",
            f"Es gibt kein Spiel '{game}'.",
        )
    return info


def seat_limit(game: str) -> int:
    """The most players a room of ``game`` can seat (the most its description lists)."""
    return max(game_info(game).players)


def players_to_start(game: str) -> tuple[int, ...]:
    """The numbers of players with which a match of ``game`` can start."""
    return game_info(game).players


def rounds_rule(game: str) -> RoundsRule:
    """The allowed range and default of ``rounds`` for ``game`` (from its description)."""
    rounds = game_info(game).rounds
    return RoundsRule(rounds.min, rounds.max, rounds.default)


def per_room_options(game: str) -> tuple[Option, ...]:
    """The house-rule options a room of the playable ``game`` may set.

    Raises ``unknown_game`` or ``game_not_playable``.
    """
    info = game_info(game)
    if not info.implemented:
        raise InvalidError(
            "game_not_playable",
            f"{info.title} cannot be played here yet.",
            f"{info.title} kann hier noch nicht gespielt werden.",
        )
    return tuple(o for o in get_rules(game).options if o.per_room)


def resolve_room_options(game: str, given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Return every per-room option of ``game`` with its value (defaults filled in).

    Raises ``unknown_game``, ``game_not_playable``, ``option_not_per_room``,
    ``unknown_option`` or ``bad_option``.
    """
    allowed = per_room_options(game)
    names = {o.name for o in allowed}
    rules = get_rules(game)
    match_only = {o.name for o in rules.options if not o.per_room}
    for name in given:
        if name in match_only:
            raise InvalidError(
                "option_not_per_room",
                f"Option '{name}' is set by the match, not by the room.",
                f"Die Option '{name}' setzt die Partie, nicht der Raum.",
            )
    try:
        resolved = rules.resolve_options(given)
    except MalformedError as exc:
        raise InvalidError(exc.code, exc.message, exc.message_de) from None
    return {name: value for name, value in resolved.items() if name in names}


def match_options(game: str) -> tuple[Option, ...]:
    """The options of the playable ``game``'s match (the evening's rules a room may set:
    e.g. the count-down, Pflichtsolo, solo replay, Kurzer and Depot of an evening)."""
    per_room_options(game)  # unknown_game, game_not_playable
    return match_type(game).match_options


def resolve_match_options(game: str, given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Return every match option of ``game`` with its value (defaults filled in).

    Raises ``not_a_match_option`` for a name the match does not read and ``bad_option``
    for a value it does not allow.
    """
    known = {o.name: o for o in match_options(game)}
    for name in given:
        if name not in known:
            raise InvalidError(
                "not_a_match_option",
                f"'{name}' is not a rule of this game's evening.",
                f"'{name}' ist keine Regel des Abends dieses Spiels.",
            )
    resolved: dict[str, OptionValue] = {}
    for name, option in known.items():
        try:
            resolved[name] = option.check(given.get(name, option.default))
        except MalformedError as exc:
            raise InvalidError(exc.code, exc.message, exc.message_de) from None
    return resolved


def match_config(room: Room) -> dict[str, object]:
    """What the room adds to its match's stored config besides ``options``, ``stake_cents``,
    ``rounds``, ``timer_seconds``: the match options (top-level keys, as
    :meth:`server.engine.match.Match.read_match_options` reads them),
    ``next_deal_pause_seconds``, ``computer_pause_ms`` (least and most) and ``standin``
    (``{"level", "delay_seconds"}``, None when the room has no stand-in)."""
    return {
        **resolve_match_options(room.game, room.match_options or {}),
        "next_deal_pause_seconds": room.next_deal_pause_seconds,
        "computer_pause_ms": [room.computer_pause_min_ms, room.computer_pause_max_ms],
        "standin": (
            {"level": room.standin_level, "delay_seconds": room.standin_delay_seconds}
            if room.standin
            else None
        ),
        "tempo_seconds": room.tempo_seconds,
        "holiday_days": room.holiday_days,
    }


def check_tempo(tempo_seconds: object, holiday_days: object) -> tuple[int | None, int]:
    """A room's time per move (None: live, else one of :data:`TEMPOS`) and holiday days
    per year, checked; raises ``bad_tempo`` or ``bad_holiday_days``.

    >>> check_tempo(86400, 14), check_tempo(None, 0)
    ((86400, 14), (None, 0))
    >>> try:
    ...     check_tempo(3600, 14)
    ... except InvalidError as exc:
    ...     exc.code
    'bad_tempo'
    """
    if tempo_seconds is not None and (type(tempo_seconds) is not int
                                      or tempo_seconds not in TEMPOS):  # fmt: skip
        raise InvalidError(
            "bad_tempo",
            "The time per move is live (none) or 12 hours, 1, 2, 3 or 7 days.",
            "Die Zeit pro Zug ist live (keine) oder 12 Stunden, 1, 2, 3 oder 7 Tage.",
        )
    low, high = HOLIDAY_DAYS_RANGE
    if not _check_int(holiday_days, low, high):
        raise InvalidError(
            "bad_holiday_days",
            f"The holiday days per year are {low} to {high}.",
            f"Die Urlaubstage pro Jahr sind {low} bis {high}.",
        )
    return tempo_seconds, int(cast(int, holiday_days))


def check_standin(level: object, delay_seconds: object) -> tuple[str, int]:
    """The stand-in's level and offline delay, checked; raises ``unknown_level`` or
    ``bad_standin_delay``."""
    if level not in COMPUTER_LEVELS:
        raise unknown_level(str(level))
    low, high = STANDIN_DELAY_RANGE
    if not _check_int(delay_seconds, low, high):
        raise InvalidError(
            "bad_standin_delay",
            f"The stand-in plays after {low} to {high} seconds offline.",
            f"Die Vertretung spielt nach {low} bis {high} Sekunden offline.",
        )
    return str(level), int(cast(int, delay_seconds))


def check_computer_pause(pause: Sequence[object]) -> tuple[int, int]:
    """The computer players' pause ``[least, most]`` in milliseconds, checked; raises
    ``bad_computer_pause``."""
    low, high = COMPUTER_PAUSE_RANGE
    values = list(pause)
    if len(values) == 2 and all(_check_int(v, low, high) for v in values):
        least, most = (int(cast(int, v)) for v in values)
        if least <= most:
            return least, most
    raise InvalidError(
        "bad_computer_pause",
        f"The computer players' pause is two numbers of milliseconds from {low} to "
        f"{high}, the least first.",
        f"Die Bedenkzeit der Computerspieler sind zwei Zahlen in Millisekunden von {low} "
        f"bis {high}, die kleinere zuerst.",
    )


def _check_int(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _clean_room_name(name: str) -> str:
    return clean_name(
        name,
        MAX_ROOM_NAME,
        "bad_room_name",
        f"A room name has 1 to {MAX_ROOM_NAME} printable characters.",
        f"Ein Raumname hat 1 bis {MAX_ROOM_NAME} druckbare Zeichen.",
    )


# --------------------------------------------------------------------------- rooms


async def create_room(
    session: AsyncSession,
    host: User,
    *,
    name: str,
    game: str,
    options: Mapping[str, object] | None = None,
    stake_cents: int = DEFAULT_STAKE_CENTS,
    rounds: int | None = None,
    allow_spectators: bool = False,
    timer_seconds: int | None = None,
    match_options: Mapping[str, object] | None = None,
    next_deal_pause_seconds: int = 0,
    computer_pause_ms: Sequence[object] = DEFAULT_COMPUTER_PAUSE_MS,
    standin: bool = True,
    standin_level: str = DEFAULT_STANDIN_LEVEL,
    standin_delay_seconds: int = DEFAULT_STANDIN_DELAY,
    tempo_seconds: int | None = None,
    holiday_days: int = DEFAULT_HOLIDAY_DAYS,
) -> Room:
    """Create a room hosted by ``host``, who becomes its first player (seat 0).

    ``rounds=None`` takes the game's default (:func:`rounds_rule`). The stored options
    are all per-room options of the game, resolved (defaults filled in); so are the match
    options (:func:`resolve_match_options`). ``next_deal_pause_seconds`` (0–120): how
    long the table waits after a deal before dealing the next (0: until everybody tapped
    "Weiter"). ``computer_pause_ms``: how long a computer player waits before its move,
    a random time between the two numbers (:func:`check_computer_pause`). ``standin``
    ("Vertretung"): a computer player of ``standin_level`` plays for a person who is
    offline for ``standin_delay_seconds``, whose turn timer ran out, or who asked for it
    (:func:`check_standin`). ``tempo_seconds``: None for a live table, else a
    correspondence match ("Fernpartie") with that time per move (:data:`TEMPOS`) and
    ``holiday_days`` per person and year (:func:`check_tempo`); such a room has no live
    turn timer: ``timer_seconds`` is ignored (stored as None), see docs/correspondence.md.
    """
    clean_name = _clean_room_name(name)
    tempo_seconds, holiday_days = check_tempo(tempo_seconds, holiday_days)
    pause_min, pause_max = check_computer_pause(computer_pause_ms)
    standin_level, standin_delay_seconds = check_standin(standin_level, standin_delay_seconds)
    resolved = resolve_room_options(game, options or {})
    evening = resolve_match_options(game, match_options or {})
    if not _check_int(next_deal_pause_seconds, *PAUSE_RANGE):
        raise InvalidError(
            "bad_pause",
            f"The pause between deals is {PAUSE_RANGE[0]} to {PAUSE_RANGE[1]} seconds.",
            f"Die Pause zwischen zwei Spielen beträgt {PAUSE_RANGE[0]} bis {PAUSE_RANGE[1]} "
            "Sekunden.",
        )
    if not _check_int(stake_cents, 0, MAX_STAKE_CENTS):
        raise InvalidError(
            "bad_stake",
            f"The stake is 0 to {MAX_STAKE_CENTS} cents.",
            f"Der Einsatz beträgt 0 bis {MAX_STAKE_CENTS} Cent.",
        )
    rule = rounds_rule(game)
    if rounds is None:
        rounds = rule.default
    if not _check_int(rounds, rule.minimum, rule.maximum):
        raise InvalidError(
            "bad_rounds",
            f"Rounds must be {rule.minimum} to {rule.maximum} for this game.",
            f"Die Rundenzahl muss für dieses Spiel {rule.minimum} bis {rule.maximum} sein.",
        )
    low, high = TIMER_RANGE
    if tempo_seconds is not None:  # a Fernpartie has deadlines, no live turn timer
        timer_seconds = None
    if timer_seconds is not None and not _check_int(timer_seconds, low, high):
        raise InvalidError(
            "bad_timer",
            f"The timer is off or {low} to {high} seconds.",
            f"Der Zeitgeber ist aus oder steht auf {low} bis {high} Sekunden.",
        )
    room = Room(
        invite_token=secrets.token_urlsafe(24),
        host_id=host.id,
        name=clean_name,
        game=game,
        options=resolved,
        stake_cents=stake_cents,
        rounds=rounds,
        allow_spectators=bool(allow_spectators),
        timer_seconds=timer_seconds,
        status="open",
        match_options=evening,
        next_deal_pause_seconds=next_deal_pause_seconds,
        computer_pause_min_ms=pause_min,
        computer_pause_max_ms=pause_max,
        standin=bool(standin),
        standin_level=standin_level,
        standin_delay_seconds=standin_delay_seconds,
        tempo_seconds=tempo_seconds,
        holiday_days=holiday_days,
        # the fair shuffling of the room's first match: its commitment is shown at once
        fair_secret=secrets.token_hex(fair.SEED_BYTES),
    )
    session.add(room)
    await session.flush()
    session.add(RoomMember(room_id=room.id, user_id=host.id, role=PLAYER, seat_order=0))
    await session.flush()
    await session.refresh(room)
    return room


async def get_room(session: AsyncSession, room_id: int) -> Room | None:
    """Return the room with ``room_id``, or None."""
    return await session.get(Room, room_id)


#: What an invite token can look like (``secrets.token_urlsafe``: 32 characters of the
#: URL-safe alphabet); anything else is no token and is not looked up.
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_invite_token(token: str) -> bool:
    """Whether ``token`` has the form of an invite token (checked before any query: a NUL
    byte, which PostgreSQL refuses in a text, or a megabyte never reaches the database)."""
    return INVITE_TOKEN.fullmatch(token) is not None


async def room_by_invite(session: AsyncSession, token: str) -> Room | None:
    """Return the room whose invite token is ``token``, or None (also for anything that
    is not an invite token, without asking the database)."""
    if not is_invite_token(token):
        return None
    return await session.scalar(select(Room).where(Room.invite_token == token))


def _room_not_found() -> NotFoundError:
    return NotFoundError(
        "room_not_found",
        "There is no such room.",
        "Diesen Raum gibt es nicht.",
    )


async def room_for_member(session: AsyncSession, room_id: int, user_id: int) -> Room:
    """Return the room if ``user_id`` is a member; else raise ``room_not_found``.

    A non-member gets the same error as for a room that does not exist.
    """
    room = await session.scalar(
        select(Room)
        .join(RoomMember, RoomMember.room_id == Room.id)
        .where(Room.id == room_id, RoomMember.user_id == user_id)
    )
    if room is None:
        raise _room_not_found()
    return room


async def rooms_of_user(session: AsyncSession, user_id: int) -> list[Room]:
    """Return the rooms ``user_id`` is a member of, newest first."""
    result = await session.scalars(
        select(Room)
        .join(RoomMember, RoomMember.room_id == Room.id)
        .where(RoomMember.user_id == user_id)
        .order_by(Room.id.desc())
    )
    return list(result)


async def _lock_room(session: AsyncSession, room_id: int) -> Room:
    """Take the room's write lock for this transaction and return the room, fresh.

    A no-op UPDATE locks the row on PostgreSQL and, on SQLite, begins the write
    transaction before anything is read, so two joins cannot both take the last seat.
    """
    await session.execute(
        update(Room).where(Room.id == room_id).values(status=Room.status),
        execution_options={"synchronize_session": False},
    )
    room = await session.get(Room, room_id, populate_existing=True)
    if room is None:
        raise _room_not_found()
    return room


# --------------------------------------------------------------------------- members


def member_key(user: User | None, member: RoomMember) -> int:
    """The member's id as a player: a person's user id, a computer player's row id
    negated (it has no account). The seat order and the match's ``player_ids`` use it."""
    return user.id if user is not None else -member.id


def member_name(user: User | None, member: RoomMember) -> str:
    """The member's name: a person's display name, a computer player's own name."""
    return user.display_name if user is not None else member.name or "Computer"


async def membership(session: AsyncSession, room_id: int, user_id: int) -> RoomMember | None:
    """Return ``user_id``'s membership of ``room_id`` (role, seat order), or None."""
    return await session.scalar(
        select(RoomMember).where(RoomMember.room_id == room_id, RoomMember.user_id == user_id)
    )


async def members(session: AsyncSession, room_id: int) -> list[Member]:
    """Return all members: players in seat order (people and computer players), then
    spectators in joining order."""
    return (await members_of_rooms(session, [room_id])).get(room_id, [])


async def members_of_rooms(
    session: AsyncSession, room_ids: Sequence[int]
) -> dict[int, list[Member]]:
    """Return the members of each room in ``room_ids`` (ordered as in :func:`members`)."""
    if not room_ids:
        return {}
    result = await session.execute(
        select(User, RoomMember)
        .select_from(RoomMember)
        .outerjoin(User, RoomMember.user_id == User.id)
        .where(RoomMember.room_id.in_(list(room_ids)))
        .order_by(
            RoomMember.room_id,
            (RoomMember.role != PLAYER),
            RoomMember.seat_order,
            RoomMember.joined_at,
            RoomMember.id,
        )
    )
    grouped: dict[int, list[Member]] = {}
    for user, member in result:
        grouped.setdefault(member.room_id, []).append((user, member))
    return grouped


async def players_in_order(session: AsyncSession, room_id: int) -> list[Member]:
    """Return the players of ``room_id`` (with their accounts; None for a computer
    player), in seat order."""
    result = await session.execute(
        select(User, RoomMember)
        .select_from(RoomMember)
        .outerjoin(User, RoomMember.user_id == User.id)
        .where(RoomMember.room_id == room_id, RoomMember.role == PLAYER)
        .order_by(RoomMember.seat_order, RoomMember.id)
    )
    return [(user, member) for user, member in result]


async def _player_count(session: AsyncSession, room_id: int) -> int:
    count = await session.scalar(
        select(func.count())
        .select_from(RoomMember)
        .where(RoomMember.room_id == room_id, RoomMember.role == PLAYER)
    )
    return int(count or 0)


async def seats_free(session: AsyncSession, room: Room) -> int:
    """How many more players ``room`` can seat (0 once its match has started)."""
    if room.status != "open":
        return 0
    return max(0, seat_limit(room.game) - await _player_count(session, room.id))


def _not_open(room: Room) -> ConflictError:
    if room.status == "playing":
        return ConflictError(
            "room_not_open",
            "The match in this room has already started.",
            "Die Partie in diesem Raum hat schon begonnen.",
        )
    return ConflictError(
        "room_not_open",
        "This room is closed.",
        "Dieser Raum ist geschlossen.",
    )


async def _check_can_seat(session: AsyncSession, room: Room) -> None:
    if room.status != "open":
        raise _not_open(room)
    if await _player_count(session, room.id) >= seat_limit(room.game):
        raise ConflictError(
            "room_full",
            "Every seat in this room is taken.",
            "Alle Plätze in diesem Raum sind besetzt.",
        )


def _check_spectators(room: Room) -> None:
    if not room.allow_spectators:
        raise ForbiddenError(
            "spectators_not_allowed",
            "This room does not admit spectators.",
            "In diesem Raum sind keine Zuschauer erlaubt.",
        )


async def _renumber(session: AsyncSession, room_id: int) -> None:
    for index, (_user, member) in enumerate(await players_in_order(session, room_id)):
        member.seat_order = index
    await session.flush()


def _name_taken(name: str) -> ConflictError:
    return ConflictError(
        "name_taken",
        f"Someone in this room is already called “{name}”. Choose another display name "
        "(on your account page), then join again.",
        f"In diesem Raum heißt schon jemand „{name}“. Wähle einen anderen Anzeigenamen "
        "(auf deiner Kontoseite) und tritt dann bei.",
    )


async def _check_name_free(session: AsyncSession, room_id: int, user: User) -> None:
    key = name_key(user.display_name)
    for other, member in await members(session, room_id):
        name = member_name(other, member)
        if (other is None or other.id != user.id) and name_key(name) == key:
            raise _name_taken(name)


async def check_name_free_in_rooms(session: AsyncSession, user_id: int, name: str) -> None:
    """Raise ``name_taken`` when someone who shares an open or running room with
    ``user_id`` (a computer player too) has a name alike ``name`` (before the user takes
    that name)."""
    mine = select(RoomMember.room_id).where(RoomMember.user_id == user_id)
    result = await session.execute(
        select(func.coalesce(User.display_name, RoomMember.name), Room.name)
        .select_from(RoomMember)
        .outerjoin(User, RoomMember.user_id == User.id)
        .join(Room, Room.id == RoomMember.room_id)
        .where(
            RoomMember.room_id.in_(mine),
            or_(RoomMember.user_id.is_(None), RoomMember.user_id != user_id),
            Room.status.in_(("open", "playing")),
        )
    )
    key = name_key(name)
    for other_name, room_name in result:
        if name_key(other_name) == key:
            raise ConflictError(
                "name_taken",
                f"Someone in your room “{room_name}” is already called “{other_name}”; "
                "choose another display name.",
                f"In deinem Raum „{room_name}“ heißt schon jemand „{other_name}“; wähle "
                "einen anderen Anzeigenamen.",
            )


async def join_room(session: AsyncSession, room: Room, user: User, role: str) -> RoomMember:
    """Make ``user`` a player or spectator of ``room``; return the membership.

    A player joins only while the room is open and has a free seat (the new player takes
    the last seat in the order); a spectator only where spectators are allowed. Joining
    again in the same role changes nothing; a member may switch role under the same
    conditions, except the host, who always plays. Nobody joins whose display name is
    alike a member's (``name_taken``, :func:`server.store.names.name_key`): at the table
    and in the chat, names are how players tell each other apart.
    """
    if role not in (PLAYER, SPECTATOR):
        raise InvalidError(
            "bad_role",
            "The role is 'player' or 'spectator'.",
            "Die Rolle ist 'player' (Spieler) oder 'spectator' (Zuschauer).",
        )
    room = await _lock_room(session, room.id)
    existing = await membership(session, room.id, user.id)
    if existing is not None and existing.role == role:
        return existing
    seat: int | None = None
    if role == PLAYER:
        await _check_can_seat(session, room)
        seat = await _player_count(session, room.id)
    else:
        _check_spectators(room)
        if user.id == room.host_id:
            raise ConflictError(
                "host_must_play",
                "The host of a room always plays.",
                "Wer den Raum eröffnet hat, spielt immer mit.",
            )
        if existing is not None and room.status != "open":
            raise _not_open(room)
    if existing is None:
        await _check_name_free(session, room.id, user)
        existing = RoomMember(room_id=room.id, user_id=user.id, role=role)
        session.add(existing)
        await removals.forget_removal(session, room.id, user.id)
    existing.role = role
    existing.seat_order = seat
    await session.flush()
    await _renumber(session, room.id)
    return existing


def _check_host(room: Room, actor_id: int) -> None:
    if room.host_id != actor_id:
        raise ForbiddenError(
            "not_host",
            "Only the host of the room may do this.",
            "Das darf nur, wer den Raum eröffnet hat.",
        )


async def reorder_seats(
    session: AsyncSession, room_id: int, actor_id: int, order: Sequence[int]
) -> list[Member]:
    """Set the seat order to ``order`` (:func:`member_key`: user ids, a computer player's
    negative id); return the players in the new order.

    Only the host may do this, only while the room is open, and ``order`` must list
    every current player exactly once.
    """
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    _check_host(room, actor_id)
    if room.status != "open":
        raise _not_open(room)
    players = await players_in_order(session, room_id)
    current = sorted(member_key(user, member) for user, member in players)
    if len(order) != len(current) or sorted(order) != current:
        raise InvalidError(
            "bad_seat_order",
            "The seat order must list every player of the room exactly once.",
            "Die Sitzordnung muss jeden Spieler des Raums genau einmal nennen.",
        )
    by_user = {member_key(user, member): member for user, member in players}
    for index, user_id in enumerate(order):
        by_user[user_id].seat_order = index
    await session.flush()
    return await players_in_order(session, room_id)


async def remove_member(session: AsyncSession, room_id: int, actor_id: int, user_id: int) -> None:
    """Remove ``user_id`` from the room; host only, never the host, only while open."""
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    _check_host(room, actor_id)
    if user_id == room.host_id:
        raise ConflictError(
            "cannot_remove_host",
            "The host cannot be removed from the room.",
            "Wer den Raum eröffnet hat, kann nicht entfernt werden.",
        )
    if room.status != "open":
        raise _not_open(room)
    member = await membership(session, room_id, user_id)
    if member is None:
        raise NotFoundError(
            "member_not_found",
            "That user is not a member of this room.",
            "Diese Person ist nicht Mitglied dieses Raums.",
        )
    await session.delete(member)
    await session.flush()
    await _renumber(session, room_id)
    await removals.note_removal(session, room_id, user_id, actor_id)


def unknown_level(level: str) -> InvalidError:
    """The refusal ``unknown_level`` of a level no computer player has."""
    known = ", ".join(COMPUTER_LEVELS)
    return InvalidError(
        "unknown_level",
        f"There is no level '{level}' of computer players (there are: {known}).",
        f"Eine Spielstärke '{level}' gibt es für Computerspieler nicht (es gibt: {known}).",
    )


async def add_computer(
    session: AsyncSession, room_id: int, actor_id: int, level: str
) -> RoomMember:
    """Seat a computer player of ``level`` on the room's next free seat; return its row.

    Host only, while the room is open and has a free seat. The computer player is named
    ``Computer n`` with the smallest ``n`` no member's name is alike. Raises
    room_not_found, not_host, unknown_level, room_not_open or room_full.
    """
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    _check_host(room, actor_id)
    if level not in COMPUTER_LEVELS:
        raise unknown_level(level)
    await _check_can_seat(session, room)
    taken = {name_key(member_name(u, m)) for u, m in await members(session, room_id)}
    number = 1
    while name_key(f"Computer {number}") in taken:
        number += 1
    computer = RoomMember(
        room_id=room_id,
        user_id=None,
        role=PLAYER,
        seat_order=await _player_count(session, room_id),
        kind=COMPUTER,
        level=level,
        name=f"Computer {number}",
    )
    session.add(computer)
    await session.flush()
    await _renumber(session, room_id)
    return computer


async def remove_computer(
    session: AsyncSession, room_id: int, actor_id: int, computer_id: int
) -> None:
    """Take the computer player ``computer_id`` (its row id) out of the room; host only,
    while the room is open. Raises room_not_found, not_host, room_not_open or
    computer_not_found."""
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    _check_host(room, actor_id)
    if room.status != "open":
        raise _not_open(room)
    computer = await session.get(RoomMember, computer_id)
    if computer is None or computer.room_id != room_id or computer.kind != COMPUTER:
        raise NotFoundError(
            "computer_not_found",
            "There is no such computer player in this room.",
            "Diesen Computerspieler gibt es in diesem Raum nicht.",
        )
    await session.delete(computer)
    await session.flush()
    await _renumber(session, room_id)


#: How many running matches one person may host at once (started and not over). No
#: evening among friends comes near it; a script that starts practice matches without
#: end would fill the tables and the pool of computer players' thinking.
MAX_RUNNING_HOSTED = 25


async def check_running_hosted(session: AsyncSession, host_id: int) -> None:
    """Raise ``too_many_matches`` (409) if ``host_id`` hosts :data:`MAX_RUNNING_HOSTED`
    running matches already."""
    running = await session.scalar(
        select(func.count())
        .select_from(Room)
        .where(Room.host_id == host_id, Room.status == "playing")
    )
    if (running or 0) >= MAX_RUNNING_HOSTED:
        raise ConflictError(
            "too_many_matches",
            f"You host {MAX_RUNNING_HOSTED} running matches already; end one of them first.",
            f"Du leitest schon {MAX_RUNNING_HOSTED} laufende Partien; beende zuerst eine davon.",
        )


async def check_can_start(session: AsyncSession, room_id: int, actor_id: int) -> list[Member]:
    """Check that ``actor_id`` may start the match now; return the players in seat order.

    Raises room_not_found (not a member), not_host, room_not_open, too_many_matches or
    not_enough_players. Starting itself (creating the match, setting the room's status) is
    the table runtime's job.
    """
    room = await room_for_member(session, room_id, actor_id)
    _check_host(room, actor_id)
    if room.status != "open":
        raise _not_open(room)
    await check_running_hosted(session, actor_id)
    players = await players_in_order(session, room_id)
    allowed = players_to_start(room.game)
    if len(players) not in allowed:
        wanted = " or ".join(str(n) for n in allowed)
        wanted_de = " oder ".join(str(n) for n in allowed)
        raise ConflictError(
            "not_enough_players",
            f"{game_info(room.game).title} needs {wanted} players; the room has {len(players)}.",
            f"{game_info(room.game).title} braucht {wanted_de} Spieler; im Raum sind "
            f"{len(players)}.",
        )
    return players


# --------------------------------------------------------------------------- around the table


def _not_a_player() -> ForbiddenError:
    return ForbiddenError(
        "not_a_player",
        "Only the players of the room may do this.",
        "Das dürfen nur die Spieler des Raums.",
    )


async def _player_ids(session: AsyncSession, room_id: int) -> list[int]:
    """The user ids of the people among the room's players (computer players neither
    offer nor accept a Revanche, nor vote to end a match)."""
    return [user.id for user, _member in await players_in_order(session, room_id) if user]


async def rematch_vote(session: AsyncSession, room_id: int, actor_id: int) -> bool:
    """Offer a Revanche in the finished room, or accept the open offer; return whether
    every player of the room has now accepted.

    The first tap offers (and counts as accepting); the same people play again with the
    same options, in the same room. When everybody accepted, the offer is cleared and the
    room is open again for the runtime to start the new match at once (the caller does
    that in the same request). Raises room_not_found, not_a_player or ``room_not_finished``.
    """
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    players = await _player_ids(session, room_id)
    if actor_id not in players:
        raise _not_a_player()
    if room.status != "finished":
        raise ConflictError(
            "room_not_finished",
            "A rematch can be offered once the match is over.",
            "Eine Revanche gibt es erst, wenn die Partie vorbei ist.",
        )
    offer = dict(room.rematch or {"by": actor_id, "accepted": []})
    accepted = [uid for uid in offer["accepted"] if uid in players]
    if actor_id not in accepted:
        accepted.append(actor_id)
    everybody = set(accepted) == set(players)
    if everybody:
        room.rematch = None
        room.end_votes = None
        room.status = "open"
    else:
        room.rematch = {"by": offer["by"], "accepted": accepted}
    await session.flush()
    return everybody


async def leave_room(session: AsyncSession, room_id: int, actor_id: int) -> None:
    """Leave a room.

    A spectator may always leave. A player may leave while the room is open (the host's
    role passes to the next player in the seat order; the last one leaving leaves the room
    empty) or once it is finished; during a match only by ending it by agreement
    (``end_by_agreement``, :func:`end_vote`).
    """
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    member = await membership(session, room_id, actor_id)
    assert member is not None
    if member.role == PLAYER and room.status == "playing":
        raise ConflictError(
            "end_by_agreement",
            "During a match a player leaves only by ending it by agreement of all players.",
            "Während einer Partie geht ein Spieler nur, wenn alle dem Beenden zustimmen.",
        )
    await session.delete(member)
    await session.flush()
    if member.role == PLAYER and room.status == "open":
        await _renumber(session, room_id)
        if room.host_id == actor_id:
            rest = await players_in_order(session, room_id)
            people = [user for user, _member in rest if user is not None]
            if people:
                room.host_id = people[0].id
            else:  # nobody left to play with the computer players
                for _user, computer in rest:
                    await session.delete(computer)
    if room.rematch is not None:
        room.rematch = None  # the same people are no longer there
    await session.flush()


async def _playing_room(
    session: AsyncSession, room_id: int, actor_id: int
) -> tuple[Room, list[int]]:
    """The room (locked) whose match is running and its players' ids, for its player
    ``actor_id``; raises room_not_found, not_a_player or room_not_open."""
    await room_for_member(session, room_id, actor_id)
    room = await _lock_room(session, room_id)
    players = await _player_ids(session, room_id)
    if actor_id not in players:
        raise _not_a_player()
    if room.status != "playing":
        raise ConflictError(
            "room_not_open",
            "No match is running in this room.",
            "In diesem Raum läuft keine Partie.",
        )
    return room, players


async def end_vote(session: AsyncSession, room_id: int, actor_id: int, agree: bool) -> bool:
    """Agree (or no longer agree) to end the running match early; return whether every
    player of the room now agrees (the caller then ends the match: :func:`end_early`).

    Raises room_not_found, not_a_player, or room_not_open when no match is running.
    """
    room, players = await _playing_room(session, room_id, actor_id)
    votes = [uid for uid in room.end_votes or [] if uid in players and uid != actor_id]
    if agree:
        votes.append(actor_id)
    room.end_votes = votes or None
    await session.flush()
    return set(votes) == set(players)


async def decline_end(session: AsyncSession, room_id: int, actor_id: int) -> list[int]:
    """A player says no to ending the running match early: every agreement so far is
    withdrawn (ending needs all players). Return the user ids whose agreement was
    withdrawn. Raises room_not_found, not_a_player, or room_not_open when no match is
    running."""
    room, _players = await _playing_room(session, room_id, actor_id)
    withdrawn = list(room.end_votes or [])
    room.end_votes = None
    await session.flush()
    return withdrawn


async def end_early(
    session: AsyncSession,
    room_id: int,
    settlement: dict[str, Any] | None = None,
    closing: Sequence[PotMove] = (),
) -> int | None:
    """Mark the room's running match as ended early (status ``ended``) with its final
    ``settlement`` and the pot movements that ``closing`` made (no deal), and the room as
    finished; return the match id (None when no match was running)."""
    room = await _lock_room(session, room_id)
    match_id = await session.scalar(
        select(Match.id).where(Match.room_id == room_id, Match.status == "running")
    )
    if match_id is not None:
        await session.execute(
            update(Match)
            .where(Match.id == match_id)
            .values(status="ended", finished_at=datetime.now(UTC), settlement=settlement),
            execution_options={"synchronize_session": False},
        )
        for move in closing:
            session.add(
                PotMovement(match_id=match_id, deal_id=None, pot=move.pot, player=move.player,
                            cents=move.amount, reason=move.reason, unit=move.unit,
                            params=dict(move.params) or None)
            )  # fmt: skip
    room.status = "finished"
    room.end_votes = None
    await session.flush()
    return match_id


# --------------------------------------------------------------------------- fair shuffling


@lru_cache(maxsize=4096)
def fair_commitment(secret: str) -> str:
    """The commitment (``s_0``, hex) of a room's secret (hex): what the room shows."""
    return fair.FairChain(bytes.fromhex(secret), fair.CHAIN_LENGTH).commitment().hex()


def room_fair(room: Room, members: Sequence[Member]) -> dict[str, Any] | None:
    """The fair shuffling of the room's next match as its members see it: ``version``,
    ``length``, ``commitment`` and ``seeded`` (the user ids whose browser gave a seed for
    it); ``None`` for a room without a secret."""
    if not room.fair_secret:
        return None
    return {
        "version": fair.VERSION,
        "length": fair.CHAIN_LENGTH,
        "commitment": fair_commitment(room.fair_secret),
        "seeded": sorted(
            user.id for user, member in members if user is not None and member.fair_seed
        ),
    }


async def give_fair_seed(
    session: AsyncSession, room_id: int, user_id: int, commitment: str, seed: str
) -> None:
    """Store the seed a player's browser drew for the room's next match, whose commitment
    it showed (``commitment``). Raises ``bad_seed`` (not 64 lowercase hex digits),
    ``room_not_found`` (not a member), ``not_a_player`` (a spectator) and
    ``fair_commitment_changed`` (the room drew a new secret since: a match started; the
    browser asks again). A second seed for the same commitment replaces the first."""
    try:
        fair.parse_seed(seed)
        fair.parse_seed(commitment)
    except ValueError:
        raise InvalidError(
            "bad_seed",
            "A seed and a commitment are 64 lowercase hexadecimal digits.",
            "Ein Zufallsbeitrag und eine Festlegung sind 64 hexadezimale Kleinbuchstaben.",
        ) from None
    room = await _lock_room(session, room_id)
    member = await membership(session, room_id, user_id)
    if member is None:
        raise _room_not_found()
    if member.role != PLAYER:
        raise _not_a_player()
    if not room.fair_secret or fair_commitment(room.fair_secret) != commitment:
        raise ConflictError(
            "fair_commitment_changed",
            "The room has a new commitment for its next match; load the room again.",
            "Der Raum hat eine neue Festlegung für seine nächste Partie; bitte neu laden.",
        )
    member.fair_seed = seed
    await session.flush()
