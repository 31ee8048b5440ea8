"""``GET /api/turns`` ("Du bist dran"): every table, across the caller's rooms, whose
running match waits for the caller's move, most urgent first (live tables, then by
deadline, soonest first; :mod:`server.store.waiting`).

For a logged-in person or a guest alike (401 ``login_required`` without a session). The
start page polls it (every 30 seconds and when the tab is shown again); it is one indexed
query. ``now`` is the server's wall clock, so that a page can say how much time is left
without trusting the device's clock.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request
from pydantic import BaseModel

from server.api.deps import CurrentUser, Db
from server.api.runtime import get_runtime
from server.engine.registry import GAMES
from server.store.waiting import Waiting, waiting_for

router = APIRouter(prefix="/api", tags=["turns"])


class TurnOut(BaseModel):
    """One table that waits for the caller. ``deadline`` (ISO 8601, UTC) is None for a live
    table; ``tempo_seconds`` is the time per move (None: live); ``url`` is the table."""

    room_id: int
    room_name: str
    game: str
    game_title: str
    match_id: int
    seat: int
    since: str
    deadline: str | None
    tempo_seconds: int | None
    url: str


class TurnsOut(BaseModel):
    """The caller's waiting tables (``count`` of them) and the server's time."""

    count: int
    turns: list[TurnOut]
    now: str


def iso(moment: datetime) -> str:
    """``moment`` in ISO 8601, in UTC, to the second (``2026-11-28T13:05:00+00:00``)."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def turn_out(waiting: Waiting) -> TurnOut:
    """The JSON form of one waiting table."""
    info = GAMES.get(waiting.game)
    return TurnOut(
        room_id=waiting.room_id,
        room_name=waiting.room_name,
        game=waiting.game,
        game_title=info.title if info is not None else waiting.game,
        match_id=waiting.match_id,
        seat=waiting.seat,
        since=iso(waiting.since),
        deadline=None if waiting.deadline is None else iso(waiting.deadline),
        tempo_seconds=waiting.tempo_seconds,
        url=f"/rooms/{waiting.room_id}/table",
    )


@router.get("/turns", response_model=TurnsOut)
async def my_turns(request: Request, db: Db, user: CurrentUser) -> TurnsOut:
    """The tables whose running match waits for the caller, most urgent first."""
    turns = [turn_out(waiting) for waiting in await waiting_for(db, user.id)]
    return TurnsOut(count=len(turns), turns=turns, now=iso(get_runtime(request).clock.now()))
