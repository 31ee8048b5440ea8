"""What a table does with a client's message once it was read: one function for the
socket endpoint (a table of this process) and for the owner of a table that another
process forwarded the message to (:mod:`server.tables.remote`)."""

from __future__ import annotations

import logging

from server.engine.errors import EngineError
from server.tables.connection import Connection
from server.tables.protocol import (
    Action,
    Chat,
    ClientMessage,
    MsgId,
    Next,
    Pause,
    ProtocolError,
    StandIn,
)
from server.tables.table import Table, error_json
from server.tables.writer import StorageError

logger = logging.getLogger(__name__)

#: The answer to a message on which the server failed (a bug: logged with its traceback).
INTERNAL_ERROR = ProtocolError(
    "internal_error", "something went wrong on the server", "auf dem Server ging etwas schief"
)


async def perform(table: Table, conn: Connection, msg: ClientMessage) -> None:
    """Hand a table command (an action, chat, "Weiter", a pause, a stand-in) to ``table``
    for ``conn``; raises the refusal (:class:`ProtocolError`, :class:`EngineError`,
    :class:`StorageError`). Greetings and pings are the endpoint's own."""
    if isinstance(msg, Action):
        seat = table.live.seat_of(conn.user_id)
        if msg.seat is not None and msg.seat != seat:
            raise ProtocolError(
                "not_your_seat",
                "you may only act for your own seat",
                "du darfst nur für deinen eigenen Platz handeln",
            )
        # the event of the action, sent to this connection, carries msg.id
        await table.act(conn, msg.action, msg.v, msg.id)
    elif isinstance(msg, Chat):
        await table.say(conn, msg.text)
    elif isinstance(msg, Next):  # "Weiter" between two deals
        await table.next_deal_please(conn, msg.id)
    elif isinstance(msg, Pause):  # a pause, or going on, by agreement
        await table.ask_pause(conn, msg.pause, msg.id)
    elif isinstance(msg, StandIn):  # "Vertretung für 5 Minuten", or its end
        await table.ask_standin(conn, msg.on, msg.id)


async def answered(table: Table, conn: Connection, msg: ClientMessage, msg_id: MsgId) -> None:
    """:func:`perform`, with a refusal sent to ``conn`` (behind the table's events, in
    order) instead of raised; a bug is logged and answered with ``internal_error``."""
    try:
        await perform(table, conn, msg)
    except (ProtocolError, EngineError, StorageError) as exc:
        conn.push(error_json(exc, msg_id))
    except Exception:  # a bug, not the client's fault: logged, and answered
        logger.exception("unexpected error on a %s message", type(msg).__name__)
        conn.push(error_json(INTERNAL_ERROR, msg_id))
