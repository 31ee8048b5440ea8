"""The card table page (``/rooms/{id}/table``): the HTML shell the table client runs in.

The page itself holds no game state: ``web/static/js/table.js`` opens the WebSocket
(``docs/protocol.md``) and renders what the server sends. Only members of the room see the
page; everybody else gets the same 404 page as for a room that does not exist. The page
carries the player's hand sort for the game (``data-hand-sort``, :mod:`server.store.preferences`).
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from server.api.deps import Db, OptionalUser, parse_id
from server.api.pages import game_info_json, login_first, not_a_member, not_found, render
from server.engine.registry import GAMES
from server.store import preferences, rooms

router = APIRouter(tags=["pages"])


@router.get("/rooms/{room_id}/table", response_class=HTMLResponse)
async def table_page(room_id: str, request: Request, db: Db, user: OptionalUser) -> Response:
    """The table of a room's match; logged-out visitors are sent to log in first."""
    if user is None:
        return login_first(request)
    number = parse_id(room_id)
    room = await rooms.get_room(db, number) if number is not None else None
    if room is None:
        return not_found(request, user)
    if await rooms.membership(db, room.id, user.id) is None:
        return await not_a_member(db, request, user, room.id)
    info = GAMES[room.game]
    hand_sort = await preferences.get_hand_sort(db, user.id, room.game)
    return render(
        request,
        "table.html",
        {
            "room": room,
            "game_title": info.title,
            "pack": info.pack,
            "game_info_json": game_info_json(room.game),
            "hand_sort_json": json.dumps(hand_sort.to_json()),
        },
        user=user,
    )
