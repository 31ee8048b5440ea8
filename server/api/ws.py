"""The WebSocket endpoint ``/ws``: translation only (docs/protocol.md).

It authenticates the session cookie, validates every message, hands it to the table and
sends back the error if there is one (the acknowledgement of an action is the action's
event, which the table sends to this connection with the message's ``id``). Every refusal
leaves the table unchanged and the connection open; only a client too slow to keep up, or
one that is not logged in, is closed.

A server holds a thousand idle sockets or more, so what one of them keeps is kept small:
the route is a plain Starlette WebSocket route (FastAPI's resolves dependencies, which this
endpoint has none of, and keeps two exit stacks per socket for them), and the database
lookups run in functions of their own, so that neither their sessions nor the rows they
loaded stay alive in the endpoint's frame for as long as the socket is open; the endpoint
keeps the user's id and name (docs/benchmarks.md, "Garbage collection and idle sockets").
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from server.api.deps import SESSION_COOKIE
from server.api.runtime import Runtime
from server.engine.errors import EngineError
from server.store.accounts import token_hash, user_for_token
from server.store.rooms import get_room, membership
from server.tables.commands import INTERNAL_ERROR, perform
from server.tables.connection import Connection
from server.tables.manager import SOCKETS_PER_USER, Socket, TableManager
from server.tables.protocol import Hello, Ping, ProtocolError, encode, read_message
from server.tables.remote import RemoteTable
from server.tables.table import RateLimit, Table, error_json
from server.tables.writer import StorageError

logger = logging.getLogger(__name__)
router = APIRouter()

TOO_MANY = ProtocolError(
    "too_many_connections",
    f"you have {SOCKETS_PER_USER} table connections open already; close some tabs",
    f"du hast schon {SOCKETS_PER_USER} Tischverbindungen offen; schließe ein paar Tabs",
)
LOGGED_OUT = ProtocolError(
    "logged_out", "you logged out; log in again to play", "du hast dich abgemeldet"
)
#: The answer to a message over the rate: it is not read, so it is the same every time.
RATE_LIMITED = error_json(
    ProtocolError(
        "rate_limited", "too many messages; slow down", "zu viele Nachrichten; bitte langsamer"
    )
)


async def _user_of(runtime: Runtime, token: str | None) -> tuple[int, str] | None:
    """The id and display name of the user whose session ``token`` is (``None``: none)."""
    async with runtime.sessions() as session:
        user = await user_for_token(session, token)
        return None if user is None else (user.id, user.display_name)


async def _table_to_greet(
    manager: TableManager, runtime: Runtime, room: int, user_id: int
) -> Table | RemoteTable:
    """The live table of ``room`` for its member ``user_id`` (with several processes it
    may be owned by another: a :class:`RemoteTable`); raises the refusal."""
    async with runtime.sessions() as session:
        member = await membership(session, room, user_id)
        finished = False
        if member is not None:
            found = await get_room(session, room)
            finished = found is not None and found.status == "finished"
    if member is None:
        raise ProtocolError("not_a_member", "you are not a member of this room",
                            "du bist kein Mitglied dieses Raums")  # fmt: skip
    table = await manager.greet(room)
    if table is None and finished:
        raise ProtocolError(
            "match_finished",
            "the match in this room is over; it is in the archive",
            "die Partie in diesem Raum ist aus; sie steht im Archiv",
        )
    if table is None:
        raise ProtocolError(
            "match_not_started",
            "the match in this room has not started yet",
            "die Partie in diesem Raum hat noch nicht begonnen",
        )
    return table


@router.websocket_route("/ws")
async def table_socket(websocket: WebSocket) -> None:
    """One client connection: hello → snapshot, then actions, chat and pings."""
    runtime: Runtime = websocket.app.state.runtime
    manager: TableManager | None = getattr(websocket.app.state, "tables", None)
    token = websocket.cookies.get(SESSION_COOKIE)
    user = await _user_of(runtime, token)
    await websocket.accept()

    async def logged_out() -> None:
        await websocket.send_text(error_json(LOGGED_OUT))
        await websocket.close(code=4401)

    refusal: ProtocolError | None = None
    socket: Socket | None = None
    if user is None:
        refusal = ProtocolError("login_required", "log in first", "bitte zuerst anmelden")
    elif manager is None:
        refusal = ProtocolError("tables_unavailable", "no tables are running here",
                                "hier laufen keine Tische")  # fmt: skip
    else:
        socket = Socket(user[0], token_hash(token or ""), logged_out)
        if not await manager.admit_socket(socket):
            refusal = TOO_MANY
    if refusal is not None:
        await websocket.send_text(error_json(refusal))
        await websocket.close(code=4401 if user is None else 1013)
        return
    assert user is not None and manager is not None and socket is not None
    user_id, user_name = user
    limiter = RateLimit()
    table: Table | RemoteTable | None = None
    conn: Connection | None = None
    remote_key = ""  # the socket's key at a table another process owns

    async def reply(text: str) -> None:
        if conn is not None:
            conn.push(text)  # keeps replies in order with the table's events
        else:
            await websocket.send_text(text)

    async def leave() -> None:
        current = table
        if isinstance(current, RemoteTable):
            if manager.remote is not None:
                await manager.remote.leave(remote_key)
        elif current is not None and conn is not None:
            await current.detach(conn)

    async def moved() -> None:  # the table's owner went or moved: the client greets again
        await websocket.close(code=1012)

    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect" or socket.ended:
                break
            if not limiter.allow():  # before the message is even looked at
                await reply(RATE_LIMITED)
                continue
            # the length first, then the JSON, read once (a binary frame has no text)
            raw = message.get("text")
            msg_id, parsed = read_message(raw)
            try:
                if isinstance(parsed, ProtocolError):
                    raise parsed
                msg = parsed
                if isinstance(msg, Hello):
                    found = await _table_to_greet(manager, runtime, msg.room, user_id)
                    await leave()
                    table = found
                    conn = Connection(user_id, user_name, websocket.send_text, websocket.close,
                                      session=socket.session)  # fmt: skip
                    if isinstance(table, RemoteTable):
                        assert manager.remote is not None
                        socket.table = None
                        remote_key = await manager.remote.attach(
                            table, conn, moved, msg.last_version
                        )
                    else:
                        await manager.attach(socket, table, conn, msg.last_version)
                elif isinstance(msg, Ping):
                    await reply(encode({"type": "pong", "id": msg.id}))
                elif table is None or conn is None:
                    raise ProtocolError("hello_first", "send hello with the room first",
                                        "zuerst hello mit dem Raum senden")  # fmt: skip
                elif isinstance(table, RemoteTable):  # the owner checks and answers it
                    assert manager.remote is not None
                    await manager.remote.forward(remote_key, raw)
                else:
                    await perform(table, conn, msg)
            except (ProtocolError, EngineError, StorageError) as exc:
                await reply(error_json(exc, msg_id))
            except WebSocketDisconnect:
                raise
            except Exception:  # a bug, not the client's fault: logged, and answered
                logger.exception("unexpected error on a %s message", type(parsed).__name__)
                await reply(error_json(INTERNAL_ERROR, msg_id))
    except WebSocketDisconnect:
        pass
    finally:
        manager.close_socket(socket)
        await leave()
