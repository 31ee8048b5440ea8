"""The commit batcher on SQLite and PostgreSQL: many tables' actions share a transaction,
a deal's writes run in the batch and give back their results, a failing unit fails alone,
and on PostgreSQL a writer whose connection was killed connects afresh and loses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store import log
from server.store.errors import FencedError
from server.store.log import Fence
from server.store.models import ActionRow, DealRow
from server.tables.cluster import fence_for
from server.tables.writer import StorageError, Writer
from tests.support import TestDatabase, run_with_sessions

# Explicit ids far from where PostgreSQL's sequences start, so that rows the writer adds
# (a new deal) do not collide with them.
SETUP = (
    "INSERT INTO users (id, display_name, is_guest, language, created_at) "
    "VALUES (1000, 'Anna', false, 'de', CURRENT_TIMESTAMP)",
    "INSERT INTO rooms (id, invite_token, host_id, name, game, options, stake_cents, rounds, "
    "allow_spectators, status, created_at) "
    "VALUES (1000, 't', 1000, 'r', 'dreierles', '{}', 10, 1, true, 'playing', CURRENT_TIMESTAMP)",
    "INSERT INTO matches (id, room_id, game, players, player_ids, config, status, started_at) "
    "VALUES (1000, 1000, 'dreierles', '[]', '[]', '{}', 'running', CURRENT_TIMESTAMP)",
    "INSERT INTO deals (id, match_id, number, record, started_at) "
    "VALUES (1000, 1000, 1, '{}', CURRENT_TIMESTAMP)",
)

MATCH = DEAL = 1000


async def prepare(sessions: async_sessionmaker[AsyncSession]) -> Writer:
    async with sessions() as session:
        for statement in SETUP:
            await session.execute(text(statement))
        await session.commit()
    writer = Writer(sessions, sqlite=log.sqlite_writer(sessions))
    writer.start()
    return writer


async def stored_actions(sessions: async_sessionmaker[AsyncSession]) -> list[tuple[int, int]]:
    async with sessions() as session:
        rows = await session.execute(select(ActionRow.deal_id, ActionRow.seq))
        return sorted((deal, seq) for deal, seq in rows)


def test_actions_and_deal_writes_share_batches(store_db: TestDatabase) -> None:
    async def scenario(sessions: async_sessionmaker[AsyncSession]) -> None:
        writer = await prepare(sessions)
        record = {"game": "dreierles", "hands": [["T1"], ["T2"], ["T3"]]}
        results = await asyncio.gather(
            *(writer.append_action(DEAL, seq, seq % 3, "pass") for seq in range(10)),
            writer.execute(lambda connection: log.create_deal(connection, MATCH, 2, record)),
        )
        new_deal = results[-1]
        assert isinstance(new_deal, int) and new_deal != DEAL
        assert writer.batches < 11  # committed together, not one transaction each
        assert await stored_actions(sessions) == [(DEAL, seq) for seq in range(10)]
        async with sessions() as session:
            stored = await session.get(DealRow, new_deal)
            assert stored is not None and stored.record == record and stored.number == 2

        # a row that breaks the key fails alone; the others of its batch are stored
        outcome = await asyncio.gather(
            writer.append_action(DEAL, 10, 1, "pass"),
            writer.append_action(DEAL, 3, 0, "pass"),  # seq 3 again
            writer.append_action(new_deal, 0, 0, "pass"),
            return_exceptions=True,
        )
        assert outcome[0] is None and outcome[2] is None
        assert isinstance(outcome[1], StorageError)
        assert (DEAL, 10) in await stored_actions(sessions)
        await writer.stop()

    run_with_sessions(store_db, scenario)


@pytest.mark.postgres
def test_a_killed_connection_is_replaced_and_nothing_is_lost(postgres_url: str) -> None:
    from tests.support import postgres_schema

    async def scenario(sessions: async_sessionmaker[AsyncSession]) -> None:
        writer = await prepare(sessions)
        await writer.append_action(DEAL, 0, 0, "pass")
        held = writer._held_autocommit  # rows only: one INSERT in autocommit mode
        assert held is not None  # the writer keeps its connection between batches
        pid = (await held.exec_driver_sql("SELECT pg_backend_pid()")).scalar_one()
        await held.rollback()
        async with sessions() as session:
            await session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        await asyncio.gather(*(writer.append_action(DEAL, seq, 0, "pass") for seq in range(1, 6)))
        assert writer._held_autocommit is not None and writer._held_autocommit is not held
        assert await stored_actions(sessions) == [(DEAL, seq) for seq in range(6)]
        await writer.stop()

    with postgres_schema(postgres_url) as database:
        run_with_sessions(database, scenario)


def test_a_fenced_write_is_refused_once_another_process_took_the_table_over(
    store_db: TestDatabase,
) -> None:
    """The ownership check of several processes (server.tables.cluster.fence_for): a write
    of the owner with epoch 1 is stored while the match is at epoch 1; once a takeover
    raised the epoch, the same owner's next write is refused inside its own transaction
    (FencedError, code table_moved) and nothing of it is stored, also when it shares a
    batch with another table's writes, which are stored; rows appended behind the fence
    alike (one check per match and batch), while the new owner's epoch writes."""

    async def scenario(sessions: async_sessionmaker[AsyncSession]) -> None:
        writer = await prepare(sessions)
        async with sessions() as session:
            await session.execute(text(f"UPDATE matches SET owner_epoch = 1 WHERE id = {MATCH}"))
            await session.commit()
        fence = fence_for(MATCH, 1)

        def fenced(seq: int) -> Callable[[Any], None]:
            def work(connection: Any) -> None:
                fence(connection)
                log.ensure_action(connection, (DEAL, seq, seq % 3, "pass", f"m{seq}"))

            return work

        try:
            await writer.execute(fenced(0))
            # rows behind the fence share one check and one INSERT per batch
            await asyncio.gather(
                *(writer.append_action(DEAL, seq, seq % 3, "pass", fence=Fence(MATCH, 1))
                  for seq in (10, 11, 12))
            )  # fmt: skip
            async with sessions() as session:  # another process takes the table over
                await session.execute(
                    text(f"UPDATE matches SET owner_epoch = owner_epoch + 1 WHERE id = {MATCH}")
                )
                await session.commit()
            refused, row, other = await asyncio.gather(
                writer.execute(fenced(1)),
                writer.append_action(DEAL, 13, 1, "pass", fence=Fence(MATCH, 1)),
                writer.append_action(DEAL, 2, 2, "pass"),  # not fenced: another table's
                return_exceptions=True,
            )
            assert isinstance(refused, FencedError) and refused.code == "table_moved"
            assert isinstance(row, FencedError)
            assert other is None
            kept = [(DEAL, 0), (DEAL, 2), (DEAL, 10), (DEAL, 11), (DEAL, 12)]
            assert await stored_actions(sessions) == kept
            with pytest.raises(FencedError):  # and again: the epoch does not come back
                await writer.execute(fenced(3))
            with pytest.raises(FencedError):
                await writer.append_action(DEAL, 3, 0, "pass", fence=Fence(MATCH, 1))
            await writer.append_action(DEAL, 4, 1, "pass", fence=Fence(MATCH, 2))  # the new owner
            assert await stored_actions(sessions) == sorted([*kept, (DEAL, 4)])
        finally:
            await writer.stop()

    run_with_sessions(store_db, scenario)
