"""The request head's limit and the deadline per request, against the server as
``python -m server`` starts it (``server/api/http_protocol.py``, passed as ``--http``).

uvicorn's httptools parser alone takes a header line of any length (ten 32 MiB lines grew
the server by 460 MB) and waits for a request's head or declared body without end.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.api.http_protocol import MAX_HEAD_BYTES
from tests.support import server_process, sqlite_url, upgrade
from tests.table_client import Client

pytestmark = pytest.mark.live_server

#: The deadline the test server runs with (the default is 20 s).
TIMEOUT = 1.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The server (SQLite) with a short request deadline; its URL and its log."""
    workdir = tmp_path_factory.mktemp("http-limits")
    database_url = sqlite_url(workdir / "db.sqlite3")
    upgrade(database_url)
    log = workdir / "uvicorn.log"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STAMMTISCH_REQUEST_TIMEOUT", str(TIMEOUT))
        with server_process(database_url, log) as (url, _process):
            yield url, log


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def connect(url: str) -> socket.socket:
    sock = socket.create_connection(address(url), timeout=10)
    sock.settimeout(10)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def answers_others(url: str) -> None:
    """Another client's request is answered at once."""
    started = time.monotonic()
    assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    assert time.monotonic() - started < 2


def test_a_head_over_the_limit_is_refused_with_431_and_closed(server: tuple[str, Path]) -> None:
    url, log = server
    filler = "a" * (MAX_HEAD_BYTES + 100)
    with connect(url) as sock:
        sock.sendall(f"GET /api/me HTTP/1.1\r\nHost: x\r\nX-Filler: {filler}\r\n\r\n".encode())
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"connection: close" in answer.lower()
    # many headers, each small, count together
    headers = "".join(f"X-H{i}: {'b' * 100}\r\n" for i in range(200))
    with connect(url) as sock:
        sock.sendall(f"GET /api/me HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())
        assert read_all(sock).startswith(b"HTTP/1.1 431 ")
    # and so does a long request line
    with connect(url) as sock:
        sock.sendall(f"GET /api/me?{filler} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert read_all(sock).startswith(b"HTTP/1.1 431 ")
    answers_others(url)
    assert "sent a request head over 16384 bytes" in log.read_text()


def test_a_head_within_the_limit_is_served(server: tuple[str, Path]) -> None:
    url, _log = server
    response = httpx.get(f"{url}/healthz", headers={"X-Filler": "a" * (MAX_HEAD_BYTES - 1024)})
    assert response.status_code == 200


def test_a_header_that_never_ends_is_cut_off_early(server: tuple[str, Path]) -> None:
    """32 MiB of one header line: the server closes the connection after the limit (and
    what one read may bring), long before the line is over, and stays small."""
    url, _log = server
    sent = 0
    with connect(url) as sock:
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: x\r\nX-Filler: ")
        chunk = b"a" * 65536
        with pytest.raises(OSError):  # reset or broken pipe once the server has closed
            for _ in range(512):
                sock.sendall(chunk)
                sent += len(chunk)
    assert sent < 4 * 1024 * 1024
    answers_others(url)


def test_a_head_that_does_not_arrive_in_time_gets_408(server: tuple[str, Path]) -> None:
    url, log = server
    with connect(url) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        answers_others(url)
        answer = read_all(sock)
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert TIMEOUT - 0.2 < waited < TIMEOUT + 3
    assert "did not send its request within 1.5 s" in log.read_text()


def test_a_connection_that_sends_nothing_is_closed(server: tuple[str, Path]) -> None:
    url, _log = server
    with connect(url) as sock:
        started = time.monotonic()
        assert read_all(sock).startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - started < TIMEOUT + 3


def test_a_declared_body_that_does_not_arrive_in_time_gets_408(
    server: tuple[str, Path],
) -> None:
    url, _log = server
    with connect(url) as sock:
        started = time.monotonic()
        sock.sendall(
            b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n" + b'{"login": "a'
        )
        answers_others(url)
        answer = read_all(sock)
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert waited < TIMEOUT + 3
    answers_others(url)


def test_the_deadline_is_per_request_not_per_connection(server: tuple[str, Path]) -> None:
    """A keep-alive connection may carry requests for longer than the deadline."""
    url, _log = server
    with httpx.Client(base_url=url, timeout=10) as client:
        started = time.monotonic()
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
            time.sleep(TIMEOUT * 0.7)
        assert client.get("/healthz").status_code == 200
        assert time.monotonic() - started > TIMEOUT * 2


def test_a_websocket_outlives_the_deadline(server: tuple[str, Path]) -> None:
    url, _log = server

    async def scenario() -> None:
        anna = Client(url, "Anna")
        await anna.register()
        await anna.open_socket()
        await asyncio.sleep(TIMEOUT + 1)
        await anna.send({"type": "ping"})
        await anna.expect("pong")
        await anna.aclose()

    asyncio.run(scenario())


def test_a_body_is_no_head(server: tuple[str, Path]) -> None:
    """Body bytes after a complete head do not count against the head's limit, whether
    they come with the head or in reads of their own."""
    url, _log = server
    body = b'{"login": "niemand", "password": "' + b"x" * 15000 + b'"}'
    head = (
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    for writes in ([head + body], [head, body], [head, body[:9000], body[9000:]]):
        with connect(url) as sock:
            for data in writes:
                sock.sendall(data)
                time.sleep(0.05)
            answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 4") and not answer.startswith(b"HTTP/1.1 431")
