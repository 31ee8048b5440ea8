"""Alembic migrations on real databases: SQLite always, PostgreSQL when reachable."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

from server.store.db import check_database, head_revision, make_engine
from server.store.models import Base
from tests.support import (
    REPO_ROOT,
    database_status,
    downgrade,
    quiet_alembic_config,
    sqlite_url,
    upgrade,
)


def sqlite_tables(url: str) -> set[str]:
    path = url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


MODEL_TABLES = {"alembic_version", *Base.metadata.tables}


def test_head_is_the_play_schema() -> None:
    assert head_revision() == "0007_deal_points"
    assert {"users", "sessions", "rooms", "room_members", "matches", "deals", "actions",
            "score_entries", "pot_movements", "app_meta"} <= MODEL_TABLES  # fmt: skip


def test_upgrade_head_on_fresh_sqlite_reports_ok(sqlite_db_url: str) -> None:
    before = database_status(sqlite_db_url)
    assert before.reachable
    assert before.revision is None
    assert not before.ok
    assert "make migrate" in (before.problem() or "")

    upgrade(sqlite_db_url)

    status = database_status(sqlite_db_url)
    assert status.ok, status.problem()
    assert status.revision == status.head == head_revision()
    assert status.url_scheme == "sqlite"
    assert status.problem() is None
    assert sqlite_tables(sqlite_db_url) == MODEL_TABLES


def test_downgrade_base_removes_the_schema(migrated_db_url: str) -> None:
    downgrade(migrated_db_url, "base")
    status = database_status(migrated_db_url)
    assert status.reachable
    assert status.revision is None
    assert not status.ok
    assert sqlite_tables(migrated_db_url) == {"alembic_version"}
    # and back up again
    upgrade(migrated_db_url)
    assert database_status(migrated_db_url).ok


def test_every_revision_upgrades_and_downgrades_one_step_at_a_time(sqlite_db_url: str) -> None:
    config = quiet_alembic_config(sqlite_db_url)
    revisions = list(reversed(list(ScriptDirectory.from_config(config).walk_revisions())))
    assert revisions, "migrations/versions is empty"
    # The history is linear (one head, no merges), so each step has one predecessor.
    assert all(not isinstance(r.down_revision, (list, tuple)) for r in revisions)
    for revision in revisions:
        command.upgrade(config, revision.revision)
        assert database_status(sqlite_db_url).revision == revision.revision
    for revision in reversed(revisions):
        previous = revision.down_revision
        assert previous is None or isinstance(previous, str)
        command.downgrade(config, previous or "base")
        assert database_status(sqlite_db_url).revision == previous


def _schema_diff(connection: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


def test_models_match_the_migrated_schema(migrated_db_url: str) -> None:
    async def diff() -> list[object]:
        engine = make_engine(migrated_db_url)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(_schema_diff)
        finally:
            await engine.dispose()

    assert asyncio.run(diff()) == []


def test_sqlite_connections_use_wal_and_foreign_keys(migrated_db_url: str) -> None:
    async def pragmas() -> tuple[str, int]:
        engine = make_engine(migrated_db_url)
        try:
            async with engine.connect() as connection:
                journal = (await connection.execute(text("PRAGMA journal_mode"))).scalar_one()
                fks = (await connection.execute(text("PRAGMA foreign_keys"))).scalar_one()
                return str(journal), int(fks)
        finally:
            await engine.dispose()

    assert asyncio.run(pragmas()) == ("wal", 1)


def test_alembic_command_line_uses_database_url_and_creates_the_directory(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path / "not-yet" / "there.sqlite3")
    env = {**os.environ, "DATABASE_URL": url}
    result = subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert database_status(url).ok


@pytest.mark.postgres
def test_postgres_upgrade_check_and_downgrade(postgres_url: str) -> None:
    """Runs in a throw-away schema of the test database and drops it afterwards."""
    schema = f"stammtisch_test_{secrets.token_hex(4)}"

    async def scenario() -> None:
        admin = make_engine(postgres_url, poolclass=NullPool)
        async with admin.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine = make_engine(
            postgres_url, connect_args={"server_settings": {"search_path": schema}}
        )
        config = quiet_alembic_config(postgres_url)

        def run(connection: Connection, action: str) -> None:
            config.attributes["connection"] = connection
            if action == "upgrade":
                command.upgrade(config, "head")
            else:
                command.downgrade(config, "base")

        async def tables() -> set[str]:
            async with admin.connect() as connection:
                rows = await connection.execute(
                    text(
                        "SELECT table_name FROM information_schema.tables WHERE table_schema = :s"
                    ),
                    {"s": schema},
                )
                return {name for (name,) in rows}

        try:
            before = await check_database(engine, head=head_revision())
            assert before.reachable and before.revision is None and not before.ok

            async with engine.connect() as connection:
                await connection.run_sync(run, "upgrade")
                await connection.commit()
            status = await check_database(engine, head=head_revision())
            assert status.ok, status.problem()
            assert status.url_scheme == "postgresql"
            assert await tables() == MODEL_TABLES
            async with engine.connect() as connection:
                assert await connection.run_sync(_schema_diff) == []

            async with engine.connect() as connection:
                await connection.run_sync(run, "downgrade")
                await connection.commit()
            after = await check_database(engine, head=head_revision())
            assert after.reachable and after.revision is None
            assert await tables() == {"alembic_version"}
        finally:
            await engine.dispose()
            async with admin.begin() as connection:
                await connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            await admin.dispose()

    asyncio.run(scenario())


OLD_POTS = [(1, "depot", "Anna", 50, "1. Platz"), (2, "depot", "Bernd", 200, "4. Platz"),
            (3, "haferl", "Anna", 30, "Einsatz")]  # fmt: skip


def _old_pot_rows_become_codes(connection: Connection, config: Any) -> None:
    """Upgrade to 0003, store pot movements as 0003 wrote them (reason as German text),
    upgrade to head: the placings are codes with parameters, other texts stay; and back."""
    config.attributes["connection"] = connection
    command.upgrade(config, "0003_chat_and_message_ids")
    for row in OLD_POTS:
        connection.execute(
            text(
                "INSERT INTO pot_movements (id, match_id, deal_id, pot, player, cents, reason) "
                "VALUES (:id, 1, NULL, :pot, :player, :cents, :reason)"
            ),
            dict(zip(("id", "pot", "player", "cents", "reason"), row, strict=True)),
        )
    command.upgrade(config, "head")
    rows = connection.execute(
        text("SELECT id, reason, unit, params FROM pot_movements ORDER BY id")
    ).all()
    params = [p if p is None or isinstance(p, dict) else json.loads(p) for *_, p in rows]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (1, "placing", "cents"), (2, "placing", "cents"), (3, "Einsatz", "cents")
    ]  # fmt: skip
    assert params == [{"placing": 1}, {"placing": 4}, None]
    command.downgrade(config, "0003_chat_and_message_ids")
    back = connection.execute(text("SELECT reason FROM pot_movements ORDER BY id")).all()
    assert [r[0] for r in back] == [r[4] for r in OLD_POTS]


def on_sqlite(url: str, body: Callable[[Connection, Any], None]) -> None:
    """Run ``body(connection, alembic config)`` on the SQLite database ``url``, foreign
    keys off (the rows a data migration is tested on need no rooms or users)."""

    async def scenario() -> None:
        engine = make_engine(url, poolclass=NullPool)
        try:
            async with engine.connect() as connection:
                await connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
                await connection.run_sync(body, quiet_alembic_config(url))
                await connection.commit()
        finally:
            await engine.dispose()

    asyncio.run(scenario())


def on_postgres(url: str, body: Callable[[Connection, Any], None]) -> None:
    """Run ``body(connection, alembic config)`` in a fresh schema of the PostgreSQL
    database ``url`` (dropped afterwards), foreign keys not checked."""
    schema = f"stammtisch_test_{secrets.token_hex(4)}"

    async def scenario() -> None:
        admin = make_engine(url, poolclass=NullPool)
        async with admin.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine = make_engine(
            url, poolclass=NullPool, connect_args={"server_settings": {"search_path": schema}}
        )
        try:
            async with engine.connect() as connection:
                await connection.execute(text("SET session_replication_role = replica"))
                await connection.run_sync(body, quiet_alembic_config(url))
                await connection.commit()
        finally:
            await engine.dispose()
            async with admin.begin() as connection:
                await connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            await admin.dispose()

    asyncio.run(scenario())


def test_old_pot_reasons_become_codes_on_sqlite(sqlite_db_url: str) -> None:
    on_sqlite(sqlite_db_url, _old_pot_rows_become_codes)


@pytest.mark.postgres
def test_old_pot_reasons_become_codes_on_postgres(postgres_url: str) -> None:
    on_postgres(postgres_url, _old_pot_rows_become_codes)


# A four-person Doppen match whose dealer (Anna) sat out a deal Cora won by 15 per
# opponent, stored as 0006 wrote it (the seats' settlement; nothing for Anna), and a
# Dreierles match whose sitting-out dealer pays nothing either way. Stake: 10 cents.
OLD_ENTRIES = {("doppen", "Anna"): 0, ("doppen", "Bert"): -15, ("doppen", "Cora"): 30,
               ("doppen", "Dora"): -15, ("dreierles", "Anna"): 0, ("dreierles", "Bert"): -8,
               ("dreierles", "Cora"): 16, ("dreierles", "Dora"): -8}  # fmt: skip


OLD_TABLES = {
    "matches": "id room_id game status started_at players* player_ids* config*",
    "deals": "id match_id number started_at record* outcome*",
    "score_entries": "id match_id deal_id player points cents",
}


def _table(name: str, columns: str) -> sa.TableClause:
    """A lightweight table of ``columns`` (a ``*`` marks a JSON column)."""
    return sa.table(
        name,
        *(
            sa.column(c.rstrip("*"), sa.JSON() if c.endswith("*") else None)
            for c in columns.split()
        ),
    )


def _doppen_dealer_pays_on_upgrade(connection: Connection, config: Any) -> None:
    """Upgrade to 0006, store the score entries as 0006 wrote them, upgrade to head: the
    sitting-out Doppen dealer pays like an opponent (DP-A20), Dreierles is unchanged; and
    back."""
    config.attributes["connection"] = connection
    command.upgrade(config, "0006_rooms")
    matches, deals, scores = (_table(name, columns) for name, columns in OLD_TABLES.items())
    people = ["Anna", "Bert", "Cora", "Dora"]
    now = datetime.now(UTC)
    record = {"seats": people[1:], "dealer": "Anna"}
    outcomes = {
        "doppen": {"declarer": 1, "per_opponent": 15, "settlement": [-15, 30, -15]},
        "dreierles": {"declarer": 1, "settlement": [-8, 16, -8]},
    }
    for number, game in enumerate(outcomes, start=1):
        connection.execute(matches.insert().values(
            id=number, room_id=1, game=game, status="finished", started_at=now,
            players=people, player_ids=[1, 2, 3, 4], config={"stake_cents": 10}))  # fmt: skip
        connection.execute(deals.insert().values(
            id=number, match_id=number, number=1, started_at=now, record=record,
            outcome=outcomes[game]))  # fmt: skip
        for player in people:
            points = OLD_ENTRIES[(game, player)]
            connection.execute(scores.insert().values(
                match_id=number, deal_id=number, player=player, points=points,
                cents=points * 10))  # fmt: skip
    # a running deal has no entries and gets none
    connection.execute(deals.insert().values(id=3, match_id=1, number=2, started_at=now,
                                             record=record, outcome=None))  # fmt: skip

    def entries() -> dict[tuple[str, str], tuple[int, int]]:
        rows = connection.execute(text(
            "SELECT m.game, s.player, s.points, s.cents FROM score_entries s "
            "JOIN matches m ON m.id = s.match_id"))  # fmt: skip
        return {(game, player): (points, cents) for game, player, points, cents in rows}

    command.upgrade(config, "head")
    new = {**OLD_ENTRIES, ("doppen", "Anna"): -15, ("doppen", "Cora"): 45}
    assert entries() == {key: (points, points * 10) for key, points in new.items()}
    command.downgrade(config, "0006_rooms")
    assert entries() == {key: (points, points * 10) for key, points in OLD_ENTRIES.items()}


def test_doppen_dealer_pays_on_upgrade_on_sqlite(sqlite_db_url: str) -> None:
    on_sqlite(sqlite_db_url, _doppen_dealer_pays_on_upgrade)


@pytest.mark.postgres
def test_doppen_dealer_pays_on_upgrade_on_postgres(postgres_url: str) -> None:
    on_postgres(postgres_url, _doppen_dealer_pays_on_upgrade)
