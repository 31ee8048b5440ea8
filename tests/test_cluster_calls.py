"""A call forwarded to the process that owns a table: an owner that does not answer, or
refuses, gets the HTTP API a coded answer, never a 500 (real Redis and PostgreSQL)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import create_async_engine

from server.api.errors import install_error_handlers
from server.tables import cluster as cluster_module
from server.tables.cluster import Cluster, OwnerUnavailable, RemoteError

pytestmark = pytest.mark.postgres


def test_a_call_nobody_answers_is_owner_unavailable(
    cluster_db: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "CALL_TIMEOUT", 0.3)

    async def scenario() -> None:
        engine = create_async_engine(cluster_db)
        node = Cluster(redis_url, engine, "caller")
        await node.start()
        try:
            with pytest.raises(OwnerUnavailable) as raised:
                await node.call("gone", "end_match", room=1)
            assert (raised.value.node, raised.value.op) == ("gone", "end_match")
            assert isinstance(raised.value, TimeoutError)  # callers that wait for it
            assert not node._calls  # nothing left waiting
        finally:
            await node.stop()
            await engine.dispose()

    asyncio.run(scenario())


def test_an_owner_that_answers_its_refusal_is_heard(cluster_db: str, redis_url: str) -> None:
    async def scenario() -> None:
        engine = create_async_engine(cluster_db)
        owner, caller = Cluster(redis_url, engine, "owner"), Cluster(redis_url, engine, "caller")
        await owner.start()
        await caller.start()

        async def refuse(_: dict[str, object]) -> None:
            raise RuntimeError("no such table")

        owner.on("call:end_match", refuse)
        try:
            with pytest.raises(RemoteError) as raised:
                await caller.call(owner.node, "end_match", room=1)
            assert raised.value.error["message"] == "no such table"
        finally:
            await caller.stop()
            await owner.stop()
            await engine.dispose()

    asyncio.run(scenario())


def _app() -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/silent")
    async def silent() -> None:
        raise OwnerUnavailable("owner", "end_match")

    @app.post("/refused")
    async def refused() -> None:
        coded = {"code": "match_finished", "message": "the match is over",
                 "message_de": "die Partie ist aus"}  # fmt: skip
        raise RemoteError({"type": "ProtocolError", "message": "x", "json": coded})

    @app.post("/failed")
    async def failed() -> None:
        raise RemoteError({"type": "KeyError", "message": "'room'", "json": None})

    return app


def test_the_api_answers_a_silent_or_refusing_owner_with_a_coded_error() -> None:
    async def scenario() -> None:
        transport = httpx.ASGITransport(app=_app(), raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            silent = await http.post("/silent")
            assert silent.status_code == 503 and silent.headers["retry-after"] == "3"
            assert silent.json()["error"]["code"] == "table_unavailable"
            assert "nicht rechtzeitig" in silent.json()["error"]["message_de"]
            refused = await http.post("/refused")
            assert refused.status_code == 409
            assert refused.json()["error"] == {"code": "match_finished",
                                               "message": "the match is over",
                                               "message_de": "die Partie ist aus"}  # fmt: skip
            failed = await http.post("/failed")
            assert failed.status_code == 502
            assert failed.json()["error"]["code"] == "table_failed"

    asyncio.run(scenario())
