"""The per-process metrics (``server/metrics.py``) and ``GET /metrics``: each metric by
name in the Prometheus text format, a registry per :class:`Metrics` (two never collide),
the table writer's commit latency, and the open WebSockets of a real server."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.sync.client import connect

from server import __version__, metrics
from server.api.monitoring import SocketCounter
from server.metrics import Metrics
from server.store import log
from server.tables.writer import Writer
from tests.support import TestDatabase, run_with_sessions, uvicorn_thread
from tests.table_client import make_room, start
from tests.test_writer import DEAL, SETUP

NAMES = {
    "stammtisch_tables_owned",
    "stammtisch_sockets",
    "stammtisch_actions_total",
    "stammtisch_takeovers_total",
    "stammtisch_forwarded_commands_total",
    "stammtisch_write_seconds_count",
    "stammtisch_write_seconds_sum",
    "stammtisch_write_seconds_bucket",
    "stammtisch_node_info",
}


def samples(text: str) -> dict[str, float]:
    """Every sample without labels by name; also each write bucket as ``bucket:LE`` and the
    node's info as ``node_info:NODE``."""
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "stammtisch_node_info":
                found[f"node_info:{sample.labels.get('node')}"] = sample.value
            if not sample.labels or sample.name == "stammtisch_node_info":
                found[sample.name] = sample.value
            elif sample.name == "stammtisch_write_seconds_bucket":
                found[f"bucket:{sample.labels['le']}"] = sample.value
                found[sample.name] = sample.value  # the last: le="+Inf"
    return found


def test_every_metric_is_there_by_name_and_counts() -> None:
    stats = Metrics()
    stats.set_node("app1", __version__)
    stats.action_done()
    stats.action_done(2)
    stats.takeover()
    stats.forwarded()
    stats.forwarded(4)
    stats.set_tables(7)
    stats.socket_opened()
    stats.socket_opened()
    stats.socket_closed()
    stats.write_committed(0.003)
    stats.write_committed(0.3)
    found = samples(stats.render().decode())
    assert set(found) >= NAMES
    assert found["stammtisch_actions_total"] == 3
    assert found["stammtisch_takeovers_total"] == 1
    assert found["stammtisch_forwarded_commands_total"] == 5
    assert found["stammtisch_tables_owned"] == 7
    assert found["stammtisch_sockets"] == 1
    assert found["stammtisch_write_seconds_count"] == 2
    assert found["stammtisch_write_seconds_sum"] == pytest.approx(0.303)
    assert found["bucket:0.005"] == 1 and found["bucket:0.5"] == 2
    assert found["node_info:app1"] == 1
    stats.set_node("app2", __version__)  # a new name replaces the old one
    renamed = samples(stats.render().decode())
    assert "node_info:app1" not in renamed and renamed["node_info:app2"] == 1


def test_each_metrics_object_has_a_registry_of_its_own() -> None:
    first, second = Metrics(), Metrics()  # the same names twice: no collision
    first.action_done(5)
    assert samples(second.render().decode())["stammtisch_actions_total"] == 0
    assert samples(first.render().decode())["stammtisch_actions_total"] == 5
    # and nothing goes to prometheus_client's global registry
    from prometheus_client import REGISTRY

    assert not any(name.startswith("stammtisch_") for name in REGISTRY._names_to_collectors)


def test_the_module_functions_count_for_the_process() -> None:
    calls: list[tuple[Callable[[], None], str, float]] = [
        (metrics.action_done, "stammtisch_actions_total", 1),
        (metrics.takeover, "stammtisch_takeovers_total", 1),
        (metrics.forwarded, "stammtisch_forwarded_commands_total", 1),
        (metrics.socket_opened, "stammtisch_sockets", 1),
        (metrics.socket_closed, "stammtisch_sockets", -1),
    ]
    for call, name, step in calls:
        before = samples(metrics.PROCESS.render().decode())[name]
        call()
        assert samples(metrics.PROCESS.render().decode())[name] == before + step, name
    metrics.set_tables(3)
    assert samples(metrics.PROCESS.render().decode())["stammtisch_tables_owned"] == 3
    metrics.set_tables(0)


def test_the_writer_times_each_committed_batch(store_db: TestDatabase) -> None:
    stats = Metrics()

    async def scenario(sessions: async_sessionmaker[AsyncSession]) -> None:
        async with sessions() as session:
            for statement in SETUP:
                await session.execute(text(statement))
            await session.commit()
        writer = Writer(sessions, sqlite=log.sqlite_writer(sessions), stats=stats)
        writer.start()
        try:
            await asyncio.gather(*(writer.append_action(DEAL, s, s % 3, "pass") for s in range(20)))
            await writer.append_action(DEAL, 20, 2, "pass")
        finally:
            await writer.stop()
        found = samples(stats.render().decode())
        assert writer.batches >= 2
        assert found["stammtisch_write_seconds_count"] == writer.batches
        assert found["stammtisch_write_seconds_sum"] > 0

    run_with_sessions(store_db, scenario)


def test_the_socket_counter_counts_open_websockets() -> None:
    stats = Metrics()

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.send_text(await websocket.receive_text())

    app = FastAPI()
    app.add_api_websocket_route("/ws", echo)
    app.add_middleware(SocketCounter, stats=stats)

    def open_sockets() -> float:
        return samples(stats.render().decode())["stammtisch_sockets"]

    with uvicorn_thread(app) as base_url:
        assert httpx.get(f"{base_url}/nothing", timeout=15).status_code == 404  # not counted
        assert open_sockets() == 0
        ws_url = base_url.replace("http://", "ws://") + "/ws"
        with connect(ws_url) as first, connect(ws_url) as second:
            first.send("a")
            assert first.recv(timeout=15) == "a"
            assert open_sockets() == 2  # the second is open too (its handshake is done)
            second.send("b")
            assert second.recv(timeout=15) == "b"
        wait_for(lambda: open_sockets() == 0, "the closed sockets are still counted")


def wait_for(condition: Callable[[], bool], problem: str) -> None:
    """Wait until ``condition`` holds: a closed socket's endpoint returns a moment after
    the client closed it (fail with ``problem`` if it never does)."""
    deadline = time.monotonic() + 15
    while not condition():
        assert time.monotonic() < deadline, problem
        time.sleep(0.05)


@pytest.mark.live_server
def test_metrics_of_a_real_server(live_server: str) -> None:
    """``GET /metrics`` in the Prometheus text format, with the open table sockets."""
    with httpx.Client(base_url=live_server, timeout=15) as client:
        response = client.get("/metrics")
        assert response.status_code == 200
        assert response.headers["content-type"] == metrics.CONTENT_TYPE
        assert metrics.CONTENT_TYPE.startswith("text/plain; version=")
        found = samples(response.text)
        assert set(found) >= NAMES
        assert found["stammtisch_sockets"] == 0
        assert any(name.startswith("node_info:") for name in found)
        guest = client.post("/api/guest", json={"display_name": "Zähler"})
        assert guest.status_code == 201, guest.text
        cookie = f"stammtisch_session={client.cookies['stammtisch_session']}"
        ws_url = live_server.replace("http://", "ws://") + "/ws"
        with connect(ws_url, additional_headers={"Cookie": cookie}) as socket:
            socket.send('{"type": "ping", "id": 1}')
            assert '"pong"' in str(socket.recv(timeout=15))
            assert samples(client.get("/metrics").text)["stammtisch_sockets"] == 1
        closed = lambda: samples(client.get("/metrics").text)["stammtisch_sockets"] == 0  # noqa: E731
        wait_for(closed, "the closed socket is still counted")


@pytest.mark.live_server
def test_a_started_match_is_an_owned_table_and_its_writes_are_timed(live_server: str) -> None:
    async def scenario() -> None:
        (anna, bernd, clara), room, _ = await make_room(
            live_server, "dreierles", ["Anna", "Bernd", "Clara"]
        )
        before = samples((await anna.http.get("/metrics")).text)
        assert before["stammtisch_tables_owned"] == 0
        await start(anna, room)
        await anna.connect(room)
        after = samples((await anna.http.get("/metrics")).text)
        assert after["stammtisch_tables_owned"] == 1
        assert after["stammtisch_sockets"] == 1
        # the match and its first deal were committed by the table writer
        assert after["stammtisch_write_seconds_count"] > before["stammtisch_write_seconds_count"]
        for client in (anna, bernd, clara):
            await client.aclose()

    asyncio.run(scenario())


def test_the_owned_tables_are_read_from_a_source_at_every_scrape() -> None:
    stats = Metrics()
    tables = {1: "a", 2: "b"}
    stats.follow_tables(lambda: len(tables))
    assert samples(stats.render().decode())["stammtisch_tables_owned"] == 2
    tables[3] = "c"
    assert samples(stats.render().decode())["stammtisch_tables_owned"] == 3
    stats.set_tables(7)  # set by hand: the source is no longer read
    tables[4] = "d"
    assert samples(stats.render().decode())["stammtisch_tables_owned"] == 7
    stats.follow_tables(lambda: len(tables))
    stats.follow_tables(None)
    assert samples(stats.render().decode())["stammtisch_tables_owned"] == 0
