"""A person's choices per game over HTTP: how the hand is sorted at the table.

``GET /api/me/hand-sort/{game}`` reads it (the defaults when never chosen), ``PUT`` sets it
(every choice given; ``bad_hand_sort`` or ``unknown_game`` otherwise, and nothing changes).
Guests have accounts, so theirs are kept too. The words and their meaning are in
:mod:`server.store.preferences`; the table page also embeds the player's choice.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.api.deps import CurrentUser, Db
from server.store import preferences

router = APIRouter(prefix="/api/me", tags=["preferences"])


@router.get("/hand-sort/{game}")
async def get_hand_sort(game: str, db: Db, user: CurrentUser) -> dict[str, str]:
    """``{"game", "trumps", "order", "suits"}``: how the logged-in person sorts ``game``'s
    hand (404 ``unknown_game``, 401 ``login_required``)."""
    sort = await preferences.get_hand_sort(db, user.id, game)
    return {"game": game, **sort.to_json()}


@router.put("/hand-sort/{game}")
async def put_hand_sort(
    game: str, body: dict[str, Any], db: Db, user: CurrentUser
) -> dict[str, str]:
    """Keep ``{"trumps", "order", "suits"}`` as the logged-in person's hand sort of
    ``game``; answers as :func:`get_hand_sort`. Refuses 422 ``bad_hand_sort`` (a choice
    missing, unknown or not one of its words) and 404 ``unknown_game``; nothing changes."""
    preferences.check_game(game)
    sort = preferences.check_hand_sort(body)
    await preferences.set_hand_sort(db, user.id, game, sort)
    await db.commit()
    return {"game": game, **sort.to_json()}
