"""The table manager's index of open sockets, by user and by login session, with the table
each socket greeted: the per-user limit, a logout that closes exactly its session's sockets
and connections (and looks at no other table), and over a real server a socket that
greeted two tables in turn, closed by the logout of its session."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, cast

from websockets.asyncio.client import connect

from server.store.db import make_engine, make_session_factory
from server.tables.connection import Connection
from server.tables.manager import SOCKETS_PER_USER, Socket, TableManager
from server.tables.table import Table
from tests.table_client import COOKIE, make_room, start


class FakeTable:
    """What the manager asks of a table: attach a connection, drop connections by a test."""

    def __init__(self, room_id: int) -> None:
        self.room_id = room_id
        self.connections: list[Connection] = []
        self.drops = 0  # how often the manager asked it to drop connections

    async def attach(self, conn: Connection, last_version: int | None) -> None:
        self.connections.append(conn)

    def drop_where(self, doomed: Callable[[Connection], bool]) -> int:
        self.drops += 1
        dropped = [conn for conn in self.connections if doomed(conn)]
        self.connections = [conn for conn in self.connections if not doomed(conn)]
        return len(dropped)


def manager() -> TableManager:
    """A manager on an in-memory database it never touches (only sockets are counted)."""
    return TableManager(make_session_factory(make_engine("sqlite+aiosqlite://")))


class Closed:
    """Close callbacks that record which sockets were closed."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def of(self, name: str) -> Callable[[], Any]:
        async def close() -> None:
            self.names.append(name)

        return close


async def noop_send(text: str) -> None:
    """A send that goes nowhere."""


async def noop_close() -> None:
    """A close that closes nothing."""


def connection(socket: Socket) -> Connection:
    """A connection made for ``socket``, as the endpoint makes one on ``hello``."""
    return Connection(socket.user_id, "X", noop_send, noop_close, session=socket.session)


def test_a_user_gets_a_bounded_number_of_sockets_and_a_closed_one_frees_its_place() -> None:
    tables = manager()
    closed = Closed()
    mine = [Socket(1, "s1", closed.of(f"a{i}")) for i in range(SOCKETS_PER_USER)]
    assert all(tables.open_socket(socket) for socket in mine)
    assert tables.sockets_of(1) == mine  # the oldest first
    one_more = Socket(1, "s2", closed.of("late"))
    assert not tables.open_socket(one_more)  # over the limit, whichever session
    assert tables.open_socket(Socket(2, "s3", closed.of("b")))  # others are not counted
    tables.close_socket(mine[3])
    tables.close_socket(mine[3])  # twice is harmless
    assert tables.open_socket(one_more)
    assert tables.sockets_of(1) == [*mine[:3], *mine[4:], one_more]
    assert closed.names == []
    for socket in tables.sockets_of(1):
        tables.close_socket(socket)
    assert tables.sockets_of(1) == []
    assert [s.user_id for s in tables.sockets_of(2)] == [2]


def test_logout_closes_its_sessions_sockets_and_connections_and_no_others() -> None:
    async def scenario() -> None:
        tables = manager()
        closed = Closed()
        at_a, at_b, elsewhere = FakeTable(10), FakeTable(20), FakeTable(30)
        phone = Socket(1, "phone", closed.of("phone at A"))
        laptop = Socket(1, "phone", closed.of("laptop at B"))
        quiet = Socket(1, "phone", closed.of("no hello yet"))
        tablet = Socket(1, "tablet", closed.of("tablet at A"))  # her other session
        bernd = Socket(2, "bernd", closed.of("Bernd at A"))
        for socket in (phone, laptop, quiet, tablet, bernd):
            assert tables.open_socket(socket)
        await tables.attach(phone, cast(Table, elsewhere), connection(phone), None)
        await tables.attach(phone, cast(Table, at_a), connection(phone), None)  # greets again
        elsewhere.connections.clear()  # (the endpoint detached it before greeting A)
        await tables.attach(laptop, cast(Table, at_b), connection(laptop), None)
        await tables.attach(tablet, cast(Table, at_a), connection(tablet), None)
        await tables.attach(bernd, cast(Table, at_a), connection(bernd), None)

        assert await tables.end_session("phone") == 3
        assert sorted(closed.names) == ["laptop at B", "no hello yet", "phone at A"]
        assert phone.ended and laptop.ended and quiet.ended
        assert not tablet.ended and not bernd.ended
        assert [c.session for c in at_a.connections] == ["tablet", "bernd"]
        assert at_b.connections == []
        assert (at_a.drops, at_b.drops, elsewhere.drops) == (1, 1, 0)  # only where they were
        assert tables.sockets_of(1) == [tablet]
        assert await tables.end_session("phone") == 0  # nothing left of it
        # her places are free again
        assert all(tables.open_socket(Socket(1, "new", closed.of("x")))
                   for _ in range(SOCKETS_PER_USER - 1))  # fmt: skip

    asyncio.run(scenario())


def test_a_socket_that_greeted_two_tables_is_closed_by_its_sessions_logout(
    module_server: Any,
) -> None:
    async def scenario() -> None:
        base = module_server.base_url
        first, room_a, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(first[0], room_a)
        anna = first[0]
        # Anna also plays at a second table, with other people
        second, room_b, token_b = await make_room(base, "dreierles", ["Dora", "Emil"])
        joined = await anna.http.post(f"/api/invite/{token_b}/join", json={"role": "player"})
        joined.raise_for_status()
        await start(second[0], room_b)
        await anna.connect(room_a)
        await anna.send({"type": "hello", "room": room_b, "last_version": -1})  # moves over
        assert (await anna.expect("snapshot"))["room"] == room_b
        for client in second:
            await client.connect(room_b)
        url = base.replace("http://", "ws://") + "/ws"
        headers = {"Cookie": f"{COOKIE}={anna.cookie}"}
        async with connect(url, additional_headers=headers) as idle:  # no hello yet
            assert (await anna.http.post("/api/logout")).status_code == 204
            async with asyncio.timeout(10):
                assert json.loads(await idle.recv())["code"] == "logged_out"
                await idle.wait_closed()
            assert idle.close_code == 4401
        assert anna.reader is not None
        await asyncio.wait_for(anna.reader, 10)  # closed by the server
        assert anna.messages[-1]["code"] == "logged_out"
        presence = await second[0].expect("presence")
        async with asyncio.timeout(10):
            while anna.user_id in presence["online"]:
                presence = await second[0].expect("presence")
        for client in [*first, *second]:
            await client.aclose()

    asyncio.run(scenario())
