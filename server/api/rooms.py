"""Games and private rooms over HTTP: create, list, invite preview, join, seats, start,
and around the table: Revanche, leaving, ending a match by agreement.

A room is visible to its members only; anyone else (and an unknown id) gets 404
``room_not_found``. The invite link ``/r/{invite_token}`` is the way in: ``GET
/api/invite/{token}`` previews the room for anyone holding it, ``POST
/api/invite/{token}/join`` joins it. Starting the match is handed to the table runtime
(``app.state.tables.start_match``).

Around the table (decisions):

* ``POST /rooms/{id}/rematch``: after a finished (or ended) match the first player's tap
  offers a Revanche and counts as accepting; every player taps once; the last tap sets
  the room open again and starts the new match at once through the runtime (same
  players, seat order, options, match options, stake, rounds, timer, pause; a new first
  dealer is drawn). Spectators neither offer nor accept.
* ``POST /rooms/{id}/leave``: spectators always; players while the room is open (a
  leaving host hands the room to the next player in seat order) or after the match;
  during a match only by ending it by agreement (``end_by_agreement``).
* ``POST``/``DELETE /rooms/{id}/end``: a player agrees (or no longer agrees) to end the
  running match; when all players agree the match is stored with status ``ended`` (the
  archive shows "ended early"; its pots are closed and it is settled) and the room
  is finished. The runtime's ``end_match(room_id)`` stores it under the table's lock and
  sends everybody at the table the final snapshot (``match.ended_early``).
  ``POST /rooms/{id}/end/decline``: a player says no (the table's "Ablehnen"): every
  agreement so far is withdrawn.
* Every change of a Revanche offer or of the agreements to end is pushed to the room's
  live table (``show_requests``), which tells everybody at it and keeps them for its
  snapshots, so that they are shown and answered at the table too.
* ``GET /rooms`` ("Meine Räume") lists open and running rooms, and finished ones only
  while a Revanche is offered; ``your_turn`` marks rooms whose running deal waits for the
  caller (read from the ``turns`` table, :mod:`server.store.waiting`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Annotated, Any, Literal, Protocol

from fastapi import APIRouter, Path, Request
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
)

from server.api.deps import MAX_ID, CurrentUser, Db, OptionalUser
from server.api.errors import ApiError
from server.engine.base import OptionValue
from server.engine.registry import GAMES, describe, get_rules, list_games
from server.store import removals, rooms
from server.store import waiting as turns_store
from server.store.errors import NotFoundError
from server.store.models import Room, RoomMember, User

router = APIRouter(prefix="/api", tags=["rooms"])


def _plain_number(value: object) -> object:
    """A path id as plain digits only (not ``+1``, ``1_0``, ``1e3`` or other digits)."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit() and len(value) <= 10):
        raise ValueError(f"an id is a whole number from 1 to {MAX_ID}")
    return value


#: A room or user id in a path: one that no row can have (beyond 32 bits, 0, negative,
#: not plain digits) is refused (422 ``invalid_request``) before the database is asked.
RowId = Annotated[int, BeforeValidator(_plain_number), Path(ge=1, le=MAX_ID)]
UserId = Annotated[StrictInt, Field(ge=1, le=MAX_ID)]


def _not_zero(value: int) -> int:
    """Refuse 0, which no person's nor computer player's id is."""
    if value == 0:
        raise ValueError("no player has the id 0")
    return value


#: A player in the seat order: a person's user id, or a computer player's negative id
#: (never 0).
PlayerId = Annotated[StrictInt, Field(ge=-MAX_ID, le=MAX_ID), AfterValidator(_not_zero)]
#: An option's name or text value (the longest is far shorter). The bound also makes
#: pydantic refuse text that is not valid Unicode (an unpaired surrogate), which the
#: store's refusal would otherwise quote in a message that cannot be sent.
OptionText = Annotated[StrictStr, StringConstraints(max_length=64)]


# --------------------------------------------------------------------------- models


class OptionOut(BaseModel):
    """A per-room house-rule option of a game (``label``, ``help``: catalogue keys)."""

    name: str
    default: OptionValue
    choices: list[OptionValue]
    label: str
    help: str
    help_de: str
    help_en: str


class RoundsOut(BaseModel):
    """The allowed range of ``rounds``: its unit (``rounds`` or ``deals``), and whether 0
    means "until the match ends by itself" (``open_allowed``)."""

    min: int
    max: int
    default: int
    open_allowed: bool
    unit: str


class GameOut(BaseModel):
    """A game of the registry: its description (:func:`server.engine.registry.describe`,
    ``docs/api.md`` "Games") with the summaries in both languages; playable games list
    their per-room options."""

    model_config = ConfigDict(extra="allow")

    name: str
    title: str
    players: list[int]
    implemented: bool
    summary_de: str
    summary_en: str
    rounds: RoundsOut
    options: list[OptionOut]


class CreateRoomRequest(BaseModel):
    """A new room. ``rounds`` defaults per game; ``options`` may set per-room options."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)
    game: str = Field(max_length=40)
    options: dict[OptionText, StrictBool | StrictInt | OptionText] = Field(default_factory=dict)
    stake_cents: StrictInt = rooms.DEFAULT_STAKE_CENTS
    #: The stake as the form's field has it, in euros: ``"0,20"`` or ``"0.20"`` (see
    #: :func:`parse_stake`); given instead of ``stake_cents``.
    stake: Annotated[StrictStr, StringConstraints(max_length=32)] | None = None
    rounds: StrictInt | None = None
    allow_spectators: StrictBool = False
    timer_seconds: StrictInt | None = None
    match_options: dict[OptionText, StrictBool | StrictInt | OptionText] = Field(
        default_factory=dict
    )
    next_deal_pause_seconds: StrictInt = 0
    #: how long a computer player waits before its move: the least and the most, in ms
    computer_pause_ms: list[StrictInt] = Field(
        default_factory=lambda: list(rooms.DEFAULT_COMPUTER_PAUSE_MS), max_length=2
    )
    #: the stand-in ("Vertretung"): on or off, its level, the seconds offline before it plays
    standin: StrictBool = True
    standin_level: Annotated[StrictStr, StringConstraints(max_length=40)] = (
        rooms.DEFAULT_STANDIN_LEVEL
    )
    standin_delay_seconds: StrictInt = rooms.DEFAULT_STANDIN_DELAY
    #: None: a live table; else a correspondence match with this many seconds per move
    #: (43200, 86400, 172800, 259200 or 604800), and the holiday days per person and year
    tempo_seconds: StrictInt | None = None
    holiday_days: StrictInt = rooms.DEFAULT_HOLIDAY_DAYS


class PracticeRequest(BaseModel):
    """A practice room: the game, and the level of its computer players."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=40)
    level: Annotated[StrictStr, StringConstraints(max_length=40)] = "einsteiger"


class JoinRequest(BaseModel):
    """How to join a room."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["player", "spectator"] = "player"


class SeatsRequest(BaseModel):
    """The new seat order: every player's id (a computer player's is negative), once."""

    model_config = ConfigDict(extra="forbid")

    order: list[PlayerId] = Field(max_length=16)


class ComputerRequest(BaseModel):
    """A computer player to seat: its level (``einsteiger`` or ``stark``)."""

    model_config = ConfigDict(extra="forbid")

    level: Annotated[StrictStr, StringConstraints(max_length=40)]


class MemberOut(BaseModel):
    """A member of a room: a person (``kind`` ``person``, ``user_id`` the account) or a
    computer player (``kind`` ``computer``, its ``level``; ``user_id`` negative: it has no
    account, and ``computer_id``, its id for removing it)."""

    user_id: int
    display_name: str
    role: str
    seat_order: int | None
    is_host: bool
    kind: str = rooms.PERSON
    level: str | None = None
    computer_id: int | None = None


class RematchOut(BaseModel):
    """An open Revanche offer: who offered it and who has accepted (user ids)."""

    by: int
    accepted: list[int]


class RoomOut(BaseModel):
    """A room as its members see it. ``rematch``: the open Revanche offer (after a finished
    match); ``end_votes``: the players who agreed to end the running match early;
    ``your_turn``: the running match waits for the caller."""

    id: int
    name: str
    game: str
    game_title: str
    options: dict[str, OptionValue]
    stake_cents: int
    rounds: int
    allow_spectators: bool
    timer_seconds: int | None
    match_options: dict[str, OptionValue]
    next_deal_pause_seconds: int
    computer_pause_ms: list[int]
    standin: bool
    standin_level: str
    standin_delay_seconds: int
    #: None: a live table; else a correspondence match's seconds per move
    tempo_seconds: int | None = None
    holiday_days: int = rooms.DEFAULT_HOLIDAY_DAYS
    status: str
    host_id: int
    invite_url: str
    seats: int
    seats_free: int
    members: list[MemberOut]
    rematch: RematchOut | None = None
    end_votes: list[int] = Field(default_factory=list)
    your_turn: bool = False
    #: the fair shuffling of the room's next match: ``version``, ``length``,
    #: ``commitment`` and ``seeded`` (user ids whose browser gave a seed); see
    #: docs/record-format.md, "Fair shuffling"
    fair: dict[str, Any] | None = None


class FairSeedRequest(BaseModel):
    """A player's own seed for the room's next match, with the commitment it was drawn
    after (both 64 lowercase hex digits)."""

    model_config = ConfigDict(extra="forbid")

    commitment: Annotated[StrictStr, StringConstraints(min_length=64, max_length=64)]
    seed: Annotated[StrictStr, StringConstraints(min_length=64, max_length=64)]


class RoomList(BaseModel):
    """The rooms of the logged-in user, newest first: open and running ones, and finished
    ones with an open Revanche offer (the others are in the archive)."""

    rooms: list[RoomOut]


class PreviewOption(BaseModel):
    """An option of the room with its value and one-line help."""

    name: str
    value: OptionValue
    help_de: str
    help_en: str


class PreviewMember(BaseModel):
    """A member as the invite preview shows them (``kind``: ``person`` or ``computer``,
    with its ``level``)."""

    display_name: str
    role: str
    is_host: bool
    kind: str = rooms.PERSON
    level: str | None = None


class InvitePreview(BaseModel):
    """What the holder of an invite link may see before joining."""

    name: str
    game: str
    game_title: str
    options: list[PreviewOption]
    match_options: dict[str, OptionValue]
    next_deal_pause_seconds: int
    stake_cents: int
    rounds: int
    timer_seconds: int | None
    #: None: a live table; else the correspondence time per move
    tempo_seconds: int | None = None
    holiday_days: int = 0
    status: str
    host_name: str
    members: list[PreviewMember]
    allow_spectators: bool
    seats: int
    seats_free: int
    your_role: str | None


class StartOut(BaseModel):
    """The match that was started."""

    match_id: int


class PracticeOut(BaseModel):
    """A practice room and its running match."""

    room: RoomOut
    match_id: int


class RematchResult(BaseModel):
    """After a Revanche tap: the room, and the new match once everybody accepted."""

    room: RoomOut
    match_id: int | None


class EndVoteResult(BaseModel):
    """After a vote to end the match: the room, and whether the match has ended."""

    room: RoomOut
    ended: bool


class LiveDeal(Protocol):
    """What the room list reads of a running deal."""

    @property
    def finished(self) -> bool:
        """Whether the deal is over."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None."""
        ...


class LiveMatchView(Protocol):
    """What the room list reads of a live match."""

    @property
    def deal(self) -> LiveDeal | None:
        """The current deal."""
        ...

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` in the current deal."""
        ...


class LiveTable(Protocol):
    """What this router reads of a live table."""

    finished: bool
    live: LiveMatchView


class Tables(Protocol):
    """What this router needs of the table runtime (``app.state.tables``)."""

    async def start_match(self, room_id: int) -> int:
        """Start the match of ``room_id`` and return the match id."""
        ...

    def table(self, room_id: int) -> LiveTable | None:
        """The live table of a room, if any."""
        ...

    async def end_match(self, room_id: int) -> int | None:
        """End the room's running match early (stored, then everybody at the table told)."""
        ...

    def left_room(self, room_id: int, user_id: int) -> int:
        """Close the table connections of a user who left the room; return how many."""
        ...

    async def show_requests(
        self,
        room_id: int,
        rematch: dict[str, Any] | None,
        end_votes: list[int],
        declined_by: int | None = None,
    ) -> None:
        """Tell everybody at the room's live table its open requests (stored already)."""
        ...


# --------------------------------------------------------------------------- helpers


def invite_url(room: Room) -> str:
    """The path of the room's invite page."""
    return f"/r/{room.invite_token}"


def _tables(request: Request) -> Tables | None:
    tables: Tables | None = getattr(request.app.state, "tables", None)
    return tables


async def your_turns(
    db: Db, tables: Tables | None, chosen: Sequence[Room], user_id: int | None
) -> set[int]:
    """The ids of those of ``chosen`` whose running match waits for ``user_id``: from the
    ``turns`` table, which the tables of every process keep, and this process's own live
    tables (which know a move is due before its row is written)."""
    if user_id is None:
        return set()
    playing = [room for room in chosen if room.status == "playing"]
    waiting = await turns_store.rooms_waiting_for(db, user_id, [room.id for room in playing])
    return waiting | {room.id for room in playing if your_turn(tables, room, user_id)}


def your_turn(tables: Tables | None, room: Room, user_id: int) -> bool:
    """Whether this process's live table of ``room`` waits for ``user_id`` (its seat to
    move); :func:`your_turns` also reads the ``turns`` table."""
    if tables is None or room.status != "playing":
        return False
    table = tables.table(room.id)
    if table is None or table.finished:
        return False
    deal = table.live.deal
    if deal is None or deal.finished or deal.to_move is None:
        return False
    return table.live.seat_of(user_id) == deal.to_move


def _room_out(
    room: Room,
    members: Sequence[tuple[User | None, RoomMember]],
    waiting: Collection[int] = (),
) -> RoomOut:
    limit = rooms.seat_limit(room.game)
    players = sum(1 for _user, member in members if member.role == rooms.PLAYER)
    return RoomOut(
        id=room.id,
        name=room.name,
        game=room.game,
        game_title=GAMES[room.game].title,
        options=room.options,
        stake_cents=room.stake_cents,
        rounds=room.rounds,
        allow_spectators=room.allow_spectators,
        timer_seconds=room.timer_seconds,
        match_options=rooms.resolve_match_options(room.game, room.match_options or {}),
        next_deal_pause_seconds=room.next_deal_pause_seconds,
        computer_pause_ms=[room.computer_pause_min_ms, room.computer_pause_max_ms],
        standin=room.standin,
        standin_level=room.standin_level,
        standin_delay_seconds=room.standin_delay_seconds,
        tempo_seconds=room.tempo_seconds,
        holiday_days=room.holiday_days,
        status=room.status,
        host_id=room.host_id,
        invite_url=invite_url(room),
        seats=limit,
        seats_free=max(0, limit - players) if room.status == "open" else 0,
        members=[
            MemberOut(
                user_id=rooms.member_key(user, member),
                display_name=rooms.member_name(user, member),
                role=member.role,
                seat_order=member.seat_order,
                is_host=user is not None and user.id == room.host_id,
                kind=member.kind,
                level=member.level,
                computer_id=None if user is not None else member.id,
            )
            for user, member in members
        ],
        rematch=RematchOut.model_validate(room.rematch) if room.rematch else None,
        end_votes=list(room.end_votes or []),
        your_turn=room.id in waiting,
        fair=rooms.room_fair(room, members),
    )


async def _load_room_out(
    db: Db, room: Room, tables: Tables | None = None, user_id: int | None = None
) -> RoomOut:
    waiting = await your_turns(db, tables, [room], user_id)
    return _room_out(room, await rooms.members(db, room.id), waiting)


async def _room_now(
    db: Db, room_id: int, user_id: int, tables: Tables | None = None, *, fresh: bool = False
) -> RoomOut:
    """The room as its member ``user_id`` sees it after a change (``fresh``: read again
    from the database, after a commit another session made), and the transaction ended."""
    room = await rooms.room_for_member(db, room_id, user_id)
    if fresh:
        await db.refresh(room)
    out = await _load_room_out(db, room, tables, user_id if tables is not None else None)
    await db.commit()
    return out


def _invite_not_found() -> NotFoundError:
    return NotFoundError(
        "invite_not_found",
        "This invite link is not valid.",
        "Dieser Einladungslink ist ungültig.",
    )


async def _room_by_invite(db: Db, token: str) -> Room:
    room = await rooms.room_by_invite(db, token)  # None for what is no token, unasked
    if room is None:
        raise _invite_not_found()
    return room


#: A stake in euros as people type it: digits, then a comma or a point and one
#: or two digits ("0,20", "0.2", "5", ",50"), optionally with the euro sign.
_STAKE = re.compile(r"\s*€?\s*([0-9]{0,6})(?:[.,]([0-9]{1,2}))?\s*€?\s*")


def parse_stake(text: str) -> int:
    """The stake ``text`` (euros, as typed in the form) in cents; ``"0,20"`` and ``"0.20"``
    are both 20. Anything else is refused (422 ``bad_stake``) rather than guessed: a third
    decimal ("0,205", also "1.000", where the point may be a thousands separator), two
    separators, a sign, letters, more than 100 €.

    >>> [parse_stake(t) for t in ("0,20", "0.20", "0,2", "5", ",5", "100", " 1,50 € ")]
    [20, 20, 20, 500, 50, 10000, 150]
    """
    found = _STAKE.fullmatch(text)
    if found is None or not (found.group(1) or found.group(2)):
        raise ApiError(
            422,
            "bad_stake",
            f"The stake {text.strip()!r} is not an amount in euros with at most two decimals,"
            " like 0.20 or 0,20.",
            f"Der Einsatz {text.strip()!r} ist kein Betrag in Euro mit höchstens zwei"
            " Nachkommastellen wie 0,20 oder 0.20.",
        )
    euros, decimals = found.group(1) or "0", found.group(2) or "0"
    cents = int(euros) * 100 + int(decimals.ljust(2, "0"))
    if cents > rooms.MAX_STAKE_CENTS:
        most = rooms.MAX_STAKE_CENTS // 100
        raise ApiError(
            422,
            "bad_stake",
            f"The stake is at most {most} euros per point.",
            f"Der Einsatz beträgt höchstens {most} € pro Punkt.",
        )
    return cents


# --------------------------------------------------------------------------- routes


def game_out(name: str) -> GameOut:
    """The description of the game ``name`` with both summaries (raises ``unknown_game``)."""
    info = rooms.game_info(name)
    extra: dict[str, Any] = {}
    if info.implemented:  # what a client needs to shuffle and deal again (fair shuffling)
        rules = get_rules(name)
        extra["shuffle"] = {"pack": [card.code for card in rules.pack.cards],
                            "dealing": [list(packet) for packet in rules.dealing]}  # fmt: skip
    summaries = {"summary_de": info.summary_de, "summary_en": info.summary_en}
    return GameOut.model_validate({**describe(name), **summaries, **extra})


@router.get("/games", response_model=list[GameOut])
async def games() -> list[GameOut]:
    """Every game of the registry with its description; playable games with their per-room
    options."""
    return [game_out(info.name) for info in list_games()]


@router.get("/games/{name}", response_model=GameOut)
async def game(name: Annotated[str, Path(max_length=40)]) -> GameOut:
    """One game's description; 404 ``unknown_game`` for a name the registry does not know."""
    if name not in GAMES:
        raise ApiError(
            404, "unknown_game", f"There is no game '{name}'.", f"Es gibt kein Spiel '{name}'."
        )
    return game_out(name)


@router.post("/rooms", response_model=RoomOut, status_code=201)
async def create_room(body: CreateRoomRequest, db: Db, user: CurrentUser) -> RoomOut:
    """Create a room; the creator hosts it and takes the first seat. The stake is given
    in cents (``stake_cents``) or as the form's text in euros (``stake``), not both."""
    stake_cents = body.stake_cents
    if body.stake is not None:
        if "stake_cents" in body.model_fields_set:
            raise ApiError(
                422,
                "bad_stake",
                "Give the stake either in cents (stake_cents) or in euros (stake), not both.",
                "Den Einsatz entweder in Cent (stake_cents) oder in Euro (stake) angeben,"
                " nicht beides.",
            )
        stake_cents = parse_stake(body.stake)
    room = await rooms.create_room(
        db,
        user,
        name=body.name,
        game=body.game,
        options=body.options,
        stake_cents=stake_cents,
        rounds=body.rounds,
        allow_spectators=body.allow_spectators,
        timer_seconds=body.timer_seconds,
        match_options=body.match_options,
        next_deal_pause_seconds=body.next_deal_pause_seconds,
        computer_pause_ms=body.computer_pause_ms,
        standin=body.standin,
        standin_level=body.standin_level,
        standin_delay_seconds=body.standin_delay_seconds,
        tempo_seconds=body.tempo_seconds,
        holiday_days=body.holiday_days,
    )
    out = await _load_room_out(db, room)
    await db.commit()
    return out


def in_room_list(room: Room) -> bool:
    """Whether "Meine Räume" lists ``room``: open or running, or finished with an open
    Revanche offer; other finished rooms are found in the archive."""
    return room.status in ("open", "playing") or room.rematch is not None


@router.get("/rooms", response_model=RoomList)
async def my_rooms(request: Request, db: Db, user: CurrentUser) -> RoomList:
    """The rooms the logged-in user is a member of, newest first (finished ones only with
    an open Revanche offer), each with ``your_turn``."""
    mine = [room for room in await rooms.rooms_of_user(db, user.id) if in_room_list(room)]
    members = await rooms.members_of_rooms(db, [room.id for room in mine])
    waiting = await your_turns(db, _tables(request), mine, user.id)
    return RoomList(rooms=[_room_out(room, members.get(room.id, []), waiting) for room in mine])


@router.get("/rooms/{room_id}", response_model=RoomOut)
async def get_room(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> RoomOut:
    """One room, for its members only (404 ``room_not_found`` for everyone else; 404
    ``removed_from_room``, naming the host, for a friend the host removed)."""
    try:
        room = await rooms.room_for_member(db, room_id, user.id)
    except NotFoundError:
        host_name = await removals.removed_by(db, room_id, user.id)
        if host_name is not None:
            raise removals.removed_error(host_name) from None
        raise
    return await _load_room_out(db, room, _tables(request), user.id)


@router.get("/invite/{token}", response_model=InvitePreview)
async def invite_preview(token: str, db: Db, user: OptionalUser) -> InvitePreview:
    """Preview the room behind an invite link (no login needed)."""
    room = await _room_by_invite(db, token)
    members = await rooms.members(db, room.id)
    out = _room_out(room, members)
    helps = {o.name: o for o in rooms.per_room_options(room.game)}
    host_name = next((u.display_name for u, _m in members if u and u.id == room.host_id), "")
    mine = next((m.role for u, m in members if u and user is not None and u.id == user.id), None)
    return InvitePreview(
        name=room.name,
        game=room.game,
        game_title=out.game_title,
        options=[
            PreviewOption(
                name=name,
                value=value,
                help_de=helps[name].help_de if name in helps else "",
                help_en=helps[name].help_en if name in helps else "",
            )
            for name, value in room.options.items()
        ],
        match_options=out.match_options,
        next_deal_pause_seconds=room.next_deal_pause_seconds,
        stake_cents=room.stake_cents,
        rounds=room.rounds,
        timer_seconds=room.timer_seconds,
        tempo_seconds=room.tempo_seconds,
        holiday_days=room.holiday_days,
        status=room.status,
        host_name=host_name,
        members=[
            PreviewMember(
                display_name=m.display_name,
                role=m.role,
                is_host=m.is_host,
                kind=m.kind,
                level=m.level,
            )
            for m in out.members
        ],
        allow_spectators=room.allow_spectators,
        seats=out.seats,
        seats_free=out.seats_free,
        your_role=mine,
    )


@router.post("/invite/{token}/join", response_model=RoomOut)
async def join(token: str, body: JoinRequest, db: Db, user: CurrentUser) -> RoomOut:
    """Join the room behind an invite link as a player or a spectator."""
    room = await _room_by_invite(db, token)
    await rooms.join_room(db, room, user, body.role)
    out = await _load_room_out(db, room)
    await db.commit()
    return out


@router.put("/rooms/{room_id}/fair-seed", status_code=204)
async def give_fair_seed(room_id: RowId, body: FairSeedRequest, db: Db, user: CurrentUser) -> None:
    """A player's own seed for the fair shuffling of the room's next match (docs/api.md):
    taken only for the commitment the room shows now (409 ``fair_commitment_changed``)."""
    await rooms.give_fair_seed(db, room_id, user.id, body.commitment, body.seed)
    await db.commit()


@router.put("/rooms/{room_id}/seats", response_model=RoomOut)
async def reorder_seats(room_id: RowId, body: SeatsRequest, db: Db, user: CurrentUser) -> RoomOut:
    """Set the seat order (host only, while the room is open)."""
    await rooms.reorder_seats(db, room_id, user.id, body.order)
    return await _room_now(db, room_id, user.id)


@router.delete("/rooms/{room_id}/members/{member_id}", response_model=RoomOut)
async def remove_member(room_id: RowId, member_id: RowId, db: Db, user: CurrentUser) -> RoomOut:
    """Remove a member (host only, never the host, while the room is open)."""
    await rooms.remove_member(db, room_id, user.id, member_id)
    return await _room_now(db, room_id, user.id)


@router.post("/rooms/{room_id}/computers", response_model=RoomOut, status_code=201)
async def add_computer(room_id: RowId, body: ComputerRequest, db: Db, user: CurrentUser) -> RoomOut:
    """Seat a computer player of ``level`` (``einsteiger``, ``stark``) on the next free
    seat (host only, while the room is open and has a free seat)."""
    await rooms.add_computer(db, room_id, user.id, body.level)
    return await _room_now(db, room_id, user.id)


@router.delete("/rooms/{room_id}/computers/{computer_id}", response_model=RoomOut)
async def remove_computer(room_id: RowId, computer_id: RowId, db: Db, user: CurrentUser) -> RoomOut:
    """Take a computer player out of the room (host only, while the room is open)."""
    await rooms.remove_computer(db, room_id, user.id, computer_id)
    return await _room_now(db, room_id, user.id)


@router.post("/rooms/{room_id}/start", response_model=StartOut)
async def start(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> StartOut:
    """Start the match (host only, room open, a playable number of players)."""
    await rooms.check_can_start(db, room_id, user.id)
    await db.commit()  # end the read transaction before the runtime writes
    return StartOut(match_id=await _runtime(request).start_match(room_id))


#: The practice room's name, by the language of the person who practises.
PRACTICE_NAMES = {"de": "Übung: {game}", "en": "Practice: {game}"}


@router.post("/practice", response_model=PracticeOut, status_code=201)
async def practice(
    body: PracticeRequest, request: Request, db: Db, user: CurrentUser
) -> PracticeOut:
    """A practice room, started at once: the caller and computer players of ``level`` on
    the other seats (as many as the game's smallest table needs), with the game's default
    rules; the answer is the room and its running match. Raises ``unknown_game``,
    ``game_not_playable``, ``unknown_level`` or ``too_many_matches``; nothing is stored
    then."""
    tables = _runtime(request)
    info = rooms.game_info(body.game)
    if body.level not in rooms.COMPUTER_LEVELS:
        raise rooms.unknown_level(body.level)
    await rooms.check_running_hosted(db, user.id)
    name = PRACTICE_NAMES.get(user.language, PRACTICE_NAMES["de"]).format(game=info.title)
    room = await rooms.create_room(db, user, name=name, game=body.game)
    for _ in range(min(rooms.players_to_start(body.game)) - 1):
        await rooms.add_computer(db, room.id, user.id, body.level)
    await db.commit()
    match_id = await tables.start_match(room.id)
    out = await _room_now(db, room.id, user.id, tables, fresh=True)
    return PracticeOut(room=out, match_id=match_id)


def _runtime(request: Request) -> Tables:
    tables = _tables(request)
    if tables is None:
        raise ApiError(
            503,
            "tables_unavailable",
            "Matches cannot be started on this server yet.",
            "Auf diesem Server können noch keine Partien beginnen.",
        )
    return tables


@router.post("/rooms/{room_id}/rematch", response_model=RematchResult)
async def rematch(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> RematchResult:
    """Revanche: the first tap after a finished match offers it, each player's tap accepts
    it; when every player accepted, the new match starts in the same room (same people,
    same options) and its id is returned."""
    tables = _runtime(request)
    everybody = await rooms.rematch_vote(db, room_id, user.id)
    await db.commit()
    match_id = await tables.start_match(room_id) if everybody else None
    out = await _room_now(db, room_id, user.id, tables, fresh=True)
    if not everybody:  # the finished match's table shows the offer (a new one greets anew)
        await push_requests(tables, out)
    return RematchResult(room=out, match_id=match_id)


async def push_requests(
    tables: Tables | None, room: RoomOut, declined_by: int | None = None
) -> None:
    """Tell the room's live table its open requests as stored now: the Revanche offer and
    who agrees to end the match (the table shows and answers them, ``docs/protocol.md``)."""
    if tables is None:
        return
    rematch = None if room.rematch is None else room.rematch.model_dump()
    await tables.show_requests(room.id, rematch, room.end_votes, declined_by)


@router.post("/rooms/{room_id}/leave", status_code=204)
async def leave(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> None:
    """Leave the room (a player of a running match only by ending it by agreement); a
    spectator's open connections to its table close, so that nothing more reaches him."""
    before = await rooms.room_for_member(db, room_id, user.id)
    offered = before.rematch is not None
    await rooms.leave_room(db, room_id, user.id)
    await db.commit()
    tables = _tables(request)
    if tables is not None:
        tables.left_room(room_id, user.id)
        if offered:  # the offer went with him: the table no longer shows it
            await tables.show_requests(room_id, None, [])


async def _end_vote(
    request: Request, db: Db, room_id: int, user_id: int, agree: bool
) -> EndVoteResult:
    everybody = await rooms.end_vote(db, room_id, user_id, agree)
    await db.commit()
    tables = _tables(request)
    if everybody:
        await end_match(tables, db, room_id)
    out = await _room_now(db, room_id, user_id, tables, fresh=True)
    if not everybody:  # an ended match's table got its final snapshot instead
        await push_requests(tables, out)
    return EndVoteResult(room=out, ended=everybody)


async def end_match(tables: Tables | None, db: Db, room_id: int) -> None:
    """End the room's running match early: the runtime stores it as ``ended`` (the room as
    finished) under the table's lock and tells everybody at the table; without a runtime
    (a server that hosts no tables) it is only stored."""
    if tables is not None:
        await tables.end_match(room_id)
        return
    await rooms.end_early(db, room_id)
    await db.commit()


@router.post("/rooms/{room_id}/end", response_model=EndVoteResult)
async def vote_end(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> EndVoteResult:
    """Agree to end the running match early; when every player agreed it ends (stored as
    ``ended``: the archive shows it as ended early)."""
    return await _end_vote(request, db, room_id, user.id, True)


@router.delete("/rooms/{room_id}/end", response_model=EndVoteResult)
async def unvote_end(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> EndVoteResult:
    """Withdraw one's agreement to end the match early."""
    return await _end_vote(request, db, room_id, user.id, False)


@router.post("/rooms/{room_id}/end/decline", response_model=EndVoteResult)
async def decline_end(room_id: RowId, request: Request, db: Db, user: CurrentUser) -> EndVoteResult:
    """Say no to ending the match early (the table's "Ablehnen"): every agreement so far is
    withdrawn, and everybody at the table is told who said no."""
    withdrawn = await rooms.decline_end(db, room_id, user.id)
    await db.commit()
    tables = _tables(request)
    out = await _room_now(db, room_id, user.id, tables, fresh=True)
    await push_requests(tables, out, user.id if withdrawn else None)
    return EndVoteResult(room=out, ended=False)
