"""A connection the database dropped is logged as one warning line, not an ERROR with a
traceback: the pool's messages when it resets or closes such a connection."""

from __future__ import annotations

import asyncio
import logging

import pytest

from server.store.db import make_engine


@pytest.mark.parametrize(
    "message", ["Exception during reset or similar", "Exception closing connection %r"]
)
def test_a_lost_connection_is_one_warning_line(
    message: str, caplog: pytest.LogCaptureFixture, sqlite_db_url: str
) -> None:
    engine = make_engine(sqlite_db_url)
    pool = engine.sync_engine.pool
    caplog.set_level(logging.WARNING)
    try:
        raise ConnectionResetError("connection was closed in the middle of operation")
    except ConnectionResetError:
        args = ("<conn>",) if "%r" in message else ()
        pool.logger.error(message, *args, exc_info=True)
    asyncio.run(engine.dispose())
    [record] = caplog.records
    assert (record.levelname, record.exc_info, record.exc_text) == ("WARNING", None, None)
    assert record.getMessage().endswith(
        "ConnectionResetError: connection was closed in the middle of operation"
    )
    assert "\n" not in caplog.text.strip()


def test_other_pool_errors_keep_their_traceback(
    caplog: pytest.LogCaptureFixture, sqlite_db_url: str
) -> None:
    engine = make_engine(sqlite_db_url)
    caplog.set_level(logging.WARNING)
    try:
        raise RuntimeError("something else")
    except RuntimeError:
        engine.sync_engine.pool.logger.error("Pool failed", exc_info=True)
    asyncio.run(engine.dispose())
    [record] = caplog.records
    assert record.levelname == "ERROR" and record.exc_info is not None
