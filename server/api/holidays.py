"""Holidays in correspondence rooms over HTTP (rules and refusals: :mod:`server.store.holidays`).

* ``GET /api/rooms/{room_id}/holidays`` (members only, else 404 ``room_not_found``):
  ``{"allowed", "year", "used", "holidays"}``: the room's days per person and year, the
  year (``?year=``, default the current one, UTC), the days the caller took in it, and
  every holiday taken in the room that has not ended before that year
  (``{"id", "user_id", "name", "starts_at", "ends_at", "days"}``).
* ``POST /api/rooms/{room_id}/holidays`` ``{"start": "YYYY-MM-DD", "days": n}``: 201 with
  the holiday.
* ``DELETE /api/rooms/{room_id}/holidays/{id}``: 204; one that has not begun is gone, one
  under way ends at the end of today (UTC).

Taking or taking back a holiday moves the stored deadline of the caller's open turn in the
room's running match in the same transaction, and the room's table (when this process
serves it) tells everybody the new deadline. Like the other room writes these routes have
no throttle of their own beyond the body limit; the yearly allowance bounds how many days
anybody can take.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, StrictInt

from server.api.deps import CurrentUser, Db
from server.api.rooms import RowId
from server.api.runtime import get_runtime
from server.store import holidays as store
from server.store import rooms
from server.store.models import Holiday, Room
from server.store.turns import aware

router = APIRouter(prefix="/api", tags=["holidays"])


class HolidayIn(BaseModel):
    """A holiday to take: the first day (UTC) and how many whole days."""

    model_config = ConfigDict(extra="forbid")

    start: dt.date
    days: StrictInt


class HolidayOut(BaseModel):
    """A holiday taken in a room."""

    id: int
    user_id: int
    name: str
    starts_at: str
    ends_at: str
    days: int


class HolidaysOut(BaseModel):
    """The room's holidays and the caller's allowance."""

    allowed: int
    year: int
    used: int
    holidays: list[HolidayOut]


def _iso(moment: dt.datetime) -> str:
    return aware(moment).isoformat().replace("+00:00", "Z")


def _out(holiday: Holiday, names: dict[int, str]) -> HolidayOut:
    starts, ends = aware(holiday.starts_at), aware(holiday.ends_at)
    return HolidayOut(
        id=holiday.id,
        user_id=holiday.user_id,
        name=names.get(holiday.user_id, ""),
        starts_at=_iso(starts),
        ends_at=_iso(ends),
        days=(ends - starts).days,
    )


async def _names(db: Db, room_id: int) -> dict[int, str]:
    return {
        user.id: rooms.member_name(user, member)
        for user, member in await rooms.members(db, room_id)
        if user is not None
    }


async def _moved(request: Request, room: Room, user_id: int) -> None:
    """Tell the room's table (if served here) that ``user_id``'s holidays changed."""
    tables: Any = getattr(request.app.state, "tables", None)
    changed = getattr(tables, "holidays_changed", None)
    if changed is not None:
        await changed(room.id, user_id)


@router.get("/rooms/{room_id}/holidays", response_model=HolidaysOut)
async def list_holidays(
    room_id: RowId,
    request: Request,
    db: Db,
    user: CurrentUser,
    year: Annotated[int | None, Query(ge=2000, le=9999)] = None,
) -> HolidaysOut:
    """The room's holidays and what the caller has taken of his allowance in ``year``."""
    room = await rooms.room_for_member(db, room_id, user.id)
    year = year or get_runtime(request).clock.now().year
    taken = await store.room_holidays(db, room.id)
    names = await _names(db, room.id)
    start_of_year = store.midnight(dt.date(year, 1, 1))
    return HolidaysOut(
        allowed=room.holiday_days,
        year=year,
        used=store.used_days(taken, user.id, year),
        holidays=[_out(h, names) for h in taken if aware(h.ends_at) > start_of_year],
    )


@router.post("/rooms/{room_id}/holidays", response_model=HolidayOut, status_code=201)
async def take_holiday(
    room_id: RowId, body: HolidayIn, request: Request, db: Db, user: CurrentUser
) -> HolidayOut:
    """Take ``days`` whole days from ``start`` off in this room (refusals: see
    :mod:`server.store.holidays`; nothing changes then)."""
    room = await rooms.room_for_member(db, room_id, user.id)
    today = get_runtime(request).clock.now().date()
    before = await store.spans_of(db, room.id, user.id)
    holiday = await store.take_holiday(db, room, user.id, body.start, body.days, today)
    await store.move_deadlines(
        db, room, user.id, before, await store.spans_of(db, room.id, user.id)
    )
    out = _out(holiday, await _names(db, room.id))
    await db.commit()
    await _moved(request, room, user.id)
    return out


@router.delete("/rooms/{room_id}/holidays/{holiday_id}", status_code=204)
async def take_back_holiday(
    room_id: RowId, holiday_id: RowId, request: Request, db: Db, user: CurrentUser
) -> Response:
    """Take one's own holiday back: not begun, it is gone; under way, it ends today."""
    room = await rooms.room_for_member(db, room_id, user.id)
    before = await store.spans_of(db, room.id, user.id)
    await store.take_back(db, room, user.id, holiday_id, get_runtime(request).clock.now())
    await store.move_deadlines(
        db, room, user.id, before, await store.spans_of(db, room.id, user.id)
    )
    await db.commit()
    await _moved(request, room, user.id)
    return Response(status_code=204)
