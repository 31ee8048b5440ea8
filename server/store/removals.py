"""Who removed a friend from a room: so that the friend is told why, not "not found".

When the host removes a member (:func:`server.store.rooms.remove_member`), the removal is
noted as a small fact in ``app_meta`` under ``removed:<room id>:<user id>`` with the host's
user id (no new table is needed). The room's page, its table page and ``GET
/api/rooms/{id}`` ask :func:`removed_by` for a non-member and, for a removed friend, say
"Du wurdest von <host> aus dem Raum entfernt" instead of the plain 404. Joining the room
again through its invite link forgets the note (:func:`forget_removal`).

Like :mod:`server.store.rooms`, every function flushes and leaves the commit to the caller.
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.errors import NotFoundError
from server.store.models import AppMeta, Room, User

#: The prefix of the notes' keys in ``app_meta``.
PREFIX = "removed"


def removal_key(room_id: int, user_id: int) -> str:
    """The ``app_meta`` key that notes ``user_id``'s removal from ``room_id``."""
    return f"{PREFIX}:{room_id}:{user_id}"


async def note_removal(session: AsyncSession, room_id: int, user_id: int, by: int) -> None:
    """Note that ``by`` (the host) removed ``user_id`` from ``room_id`` (a later removal
    replaces an earlier note)."""
    key = removal_key(room_id, user_id)
    row = await session.get(AppMeta, key)
    if row is None:
        session.add(AppMeta(key=key, value=str(by)))
    else:
        row.value = str(by)
    await session.flush()


async def forget_removal(session: AsyncSession, room_id: int, user_id: int) -> None:
    """Drop the note of ``user_id``'s removal from ``room_id`` (they joined again)."""
    await session.execute(delete(AppMeta).where(AppMeta.key == removal_key(room_id, user_id)))
    await session.flush()


async def removed_by(session: AsyncSession, room_id: int, user_id: int) -> str | None:
    """The display name of whoever removed ``user_id`` from the existing room ``room_id``,
    or None when they were not removed from it."""
    value = await session.scalar(
        select(AppMeta.value).where(AppMeta.key == removal_key(room_id, user_id))
    )
    if value is None or not value.isdigit() or await session.get(Room, room_id) is None:
        return None
    host = await session.get(User, int(value))
    return host.display_name if host is not None else None


def removed_error(host_name: str) -> NotFoundError:
    """The refusal a removed friend gets for the room (404 ``removed_from_room``)."""
    return NotFoundError(
        "removed_from_room",
        f"{host_name} removed you from this room.",
        f"Du wurdest von {host_name} aus dem Raum entfernt.",
    )
