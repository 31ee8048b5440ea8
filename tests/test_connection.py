"""A table connection writes at once, and only a socket that has to wait gets a backlog:
messages arrive complete and in order either way, a client too far behind is reported, and
a broken socket stops taking messages without an exception reaching the table."""

from __future__ import annotations

import asyncio

from server.tables.connection import BACKLOG, Connection


class FakeSocket:
    """A socket whose ``send`` waits (like a full write buffer) while ``writable`` is clear."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.started: list[str] = []
        self.broken = False

    async def send(self, message: str) -> None:
        self.started.append(message)
        await self.writable.wait()
        if self.broken:
            raise ConnectionResetError("gone")
        self.sent.append(message)

    async def close(self) -> None:
        pass


def connection(socket: FakeSocket) -> Connection:
    return Connection(1, "Anna", socket.send, socket.close)


def test_a_writable_socket_is_written_at_once_without_a_task() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = connection(socket)
        for i in range(5):
            assert conn.push(f"m{i}")
            assert socket.sent[-1] == f"m{i}"  # written before push returned
        assert conn.task is None and not conn.backlog

    asyncio.run(scenario())


def test_a_socket_that_waits_gets_the_rest_in_order_once_it_drains() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = connection(socket)
        assert conn.push("a")
        socket.writable.clear()  # the client stops reading
        assert conn.push("b")  # started, now waiting inside send
        assert conn.task is not None
        for text in ("c", "d", "e"):
            assert conn.push(text)
        assert socket.sent == ["a"] and list(conn.backlog or ()) == ["c", "d", "e"]
        await asyncio.sleep(0.01)
        assert socket.sent == ["a"]  # still waiting
        socket.writable.set()
        await asyncio.wait_for(conn.task, 1)
        assert socket.sent == ["a", "b", "c", "d", "e"]
        assert conn.task is None and conn.backlog is None  # caught up: no backlog kept
        assert conn.push("f") and socket.sent[-1] == "f"  # back to writing at once

    asyncio.run(scenario())


def test_a_client_too_far_behind_is_reported() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        socket.writable.clear()
        conn = connection(socket)
        results = [conn.push(str(i)) for i in range(BACKLOG + 2)]
        assert all(results[: BACKLOG + 1])  # one waiting in send, BACKLOG behind it
        assert results[-1] is False
        await conn.stop()
        assert conn.task is None and not conn.backlog

    asyncio.run(scenario())


def test_a_broken_socket_fails_quietly_now_or_later() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        socket.broken = True
        conn = connection(socket)
        assert conn.push("x")  # raised inside send: swallowed, the connection is broken
        assert conn.broken and socket.sent == []
        assert conn.push("y") and socket.started == ["x"]  # nothing more is tried

        later = FakeSocket()
        conn = connection(later)
        later.writable.clear()
        conn.push("1")
        conn.push("2")
        later.broken = True
        later.writable.set()
        task = conn.task
        assert task is not None
        await asyncio.wait_for(task, 1)  # the waiting send fails: the task ends cleanly
        assert conn.broken and not conn.backlog and later.sent == []

    asyncio.run(scenario())


def test_stopping_cancels_a_waiting_send() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        socket.writable.clear()
        conn = connection(socket)
        conn.push("1")
        conn.push("2")
        task = conn.task
        assert task is not None
        await conn.stop()
        assert task.cancelled() and conn.broken and not conn.backlog
        socket.writable.set()
        await asyncio.sleep(0)
        assert socket.sent == []

    asyncio.run(scenario())
