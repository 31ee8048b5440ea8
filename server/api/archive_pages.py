"""The pages of the game archive (issue 6): the HTML shells the archive scripts run in.

- ``/archive``: my past and running matches, filtered by game and fellow player
  (``web/static/js/archive.js``);
- ``/archive/matches/{id}``: a match's score sheet, the chart of the running totals, its
  pots, settlement, deals and downloads (``match-sheet.js``, ``chart.js``);
- ``/archive/deals/{id}``: the replay of one deal, step by step (``replay.js``); the
  position is kept in the URL hash ``#step=N`` so that it can be shared;
- ``/archive/replay``: upload a deal record and view it in the same viewer (``upload.js``;
  it has no game until a record is read, so the client asks ``/api/games/{name}``);
- ``/archive/stats``: statistics of my circle (``stats.js``).

The pages hold no archive data themselves: the scripts load it from ``/api/history``
(see ``docs/api.md``), which checks every access again. Only members of a match's room see
its pages; everybody else gets the friendly 404 page, which names nothing, exactly as for a
match or deal that does not exist. Logged-out visitors are sent to log in first.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.api.deps import Db, OptionalUser, parse_id
from server.api.pages import game_info_json, login_first, not_found, render, script_json
from server.engine.registry import list_games
from server.store import log, rooms
from server.store.models import ActionRow, DealRow, Match, User

router = APIRouter(tags=["pages"])


async def _member_of_match(db: AsyncSession, match_id: int, user: User) -> Match | None:
    """The match ``match_id`` when ``user`` is a member of its room, else None."""
    match = await db.get(Match, match_id)
    if match is None or await rooms.membership(db, match.room_id, user.id) is None:
        return None
    return match


def computers_json(match: Match) -> str:
    """The match's computer players, ``{name: level}`` (``{}``: none), for the
    ``<script type="application/json" id="computers">`` element: the sheet and the replay
    mark their names (icon and text)."""
    levels = match.config.get("computers") or []
    return script_json(
        {name: level for name, level in zip(match.players, levels, strict=False) if level}
    )


async def standins_json(db: AsyncSession, deal_id: int) -> str:
    """The replay's steps (1 = the deal's first action) that a stand-in played for an
    absent person ("vertreten"), for the ``<script type="application/json"
    id="standins">`` element: the replay marks them."""
    rows = await db.execute(
        select(ActionRow.seq, ActionRow.client_id).where(ActionRow.deal_id == deal_id)
    )
    return script_json(sorted(seq + 1 for seq, client_id in rows.all()
                              if log.is_standin_action(client_id)))  # fmt: skip


def _games() -> list[dict[str, str]]:
    """The playable games for the filters (name and title)."""
    return [{"name": g.name, "title": g.title} for g in list_games() if g.implemented]


@router.get("/archive", response_class=HTMLResponse)
async def archive_page(request: Request, user: OptionalUser) -> Response:
    """My matches, newest first, with filters by game and by fellow player."""
    if user is None:
        return login_first(request)
    return render(request, "archive.html", {"games": _games()}, user=user)


@router.get("/archive/matches/{match_id}", response_class=HTMLResponse)
async def match_page(match_id: str, request: Request, db: Db, user: OptionalUser) -> Response:
    """One match's score sheet, chart, pots, settlement, deals and downloads."""
    if user is None:
        return login_first(request)
    number = parse_id(match_id)
    match = await _member_of_match(db, number, user) if number is not None else None
    if match is None:
        return not_found(request, user)
    return render(
        request,
        "archive_match.html",
        {
            "match_id": match.id,
            "game_info_json": game_info_json(match.game),
            "computers_json": computers_json(match),
        },
        user=user,
    )


@router.get("/archive/deals/{deal_id}", response_class=HTMLResponse)
async def deal_page(deal_id: str, request: Request, db: Db, user: OptionalUser) -> Response:
    """The replay viewer of one deal (``#step=N`` in the URL opens that position)."""
    if user is None:
        return login_first(request)
    number = parse_id(deal_id)
    row = None
    if number is not None:
        row = (
            await db.execute(select(DealRow.id, DealRow.match_id).where(DealRow.id == number))
        ).first()
    match = await _member_of_match(db, row.match_id, user) if row is not None else None
    if row is None or match is None:
        return not_found(request, user)
    return render(
        request,
        "archive_replay.html",
        {
            "deal_id": row.id,
            "match_id": row.match_id,
            "upload": False,
            "game_info_json": game_info_json(match.game),
            "computers_json": computers_json(match),
            "standins_json": await standins_json(db, row.id),
        },
        user=user,
    )


@router.get("/archive/replay", response_class=HTMLResponse)
async def upload_page(request: Request, user: OptionalUser) -> Response:
    """Upload a deal record (JSON) and view it in the replay viewer; nothing is stored."""
    if user is None:
        return login_first(request)
    return render(
        request,
        "archive_replay.html",
        {
            "deal_id": None,
            "match_id": None,
            "upload": True,
            "game_info_json": None,
            "computers_json": "{}",
            "standins_json": "[]",
        },
        user=user,
    )


@router.get("/archive/stats", response_class=HTMLResponse)
async def stats_page(request: Request, user: OptionalUser) -> Response:
    """Statistics per player within my circle, by game."""
    if user is None:
        return login_first(request)
    return render(request, "archive_stats.html", {"games": _games()}, user=user)
