"""Alembic migrations on real databases: SQLite always, PostgreSQL when reachable."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
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

from server.engine.record import dump_record
from server.engine.registry import get_rules, new_match
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
    assert head_revision() == "0016_correspondence"
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


OLD_TABLES = {
    "matches": "id room_id game status started_at players* player_ids* config*",
    "deals": "id match_id number started_at finished_at record* outcome*",
    "actions": "deal_id seq seat text",
    "score_entries": "id match_id deal_id player points cents",
    "pot_movements": "id match_id deal_id pot player cents reason unit params*",
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


def _played(game: str, players: list[str], config: dict[str, Any], seed: int) -> list[Any]:
    """The finished deals of a match played at random to its end."""
    rules = get_rules(game)
    match = new_match(game, players, config)
    rng = random.Random(seed)
    deals = []
    while not match.finished:
        deal = match.start_deal(rules.shuffle_and_deal(rng))
        while not deal.finished:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        match.record(deal)
        deals.append(deal)
    return deals


def _radl_seed() -> int:
    """A seed whose Tarock zu dritt Partie has a deal with points that counts double."""
    for seed in range(200):
        deals = _played("tarock-zu-dritt", ["Anna", "Bert", "Cora"], TZ_CONFIG, seed)
        replay = new_match("tarock-zu-dritt", ["Anna", "Bert", "Cora"], TZ_CONFIG)
        for deal in deals:
            factor = replay.next_setup().factor
            replay.record(deal)
            if factor > 1 and any(deal.outcome()["settlement"]):
                return seed
    raise AssertionError("no Radl in 200 Partien")


BASE_CONFIG = {"rounds": 1, "first_dealer": 0, "stake_cents": 10, "options": {}}
TZ_CONFIG = {**BASE_CONFIG, "rounds": 2}
BT_CONFIG = {**BASE_CONFIG, "haferl": True}


def _the_ledger_is_rebuilt_on_upgrade(connection: Connection, config: Any) -> None:
    """Upgrade to 0007, store matches as the code before the ledger did (score entries: the
    seats' settlement times the stake, no Radl; the Haferl's movements without its share at
    the end), upgrade to head: every deal has its ledger, the entries and pots are the
    ledger's, the finished matches their settlement; a match that cannot be replayed stays
    as it was. And back: the two columns go, the rows stay."""
    config.attributes["connection"] = connection
    command.upgrade(config, "0007_deal_points")
    tables = {name: _table(name, columns) for name, columns in OLD_TABLES.items()}
    now = datetime.now(UTC)
    people = ["Anna", "Bert", "Cora"]
    stored = [
        ("dreierles", BASE_CONFIG, _played("dreierles", people, BASE_CONFIG, 1)),
        ("tarock-zu-dritt", TZ_CONFIG, _played("tarock-zu-dritt", people, TZ_CONFIG, _radl_seed())),
        ("bayerisches-tarock", BT_CONFIG, _played("bayerisches-tarock", people, BT_CONFIG, 2)),
    ]  # fmt: skip
    deal_id = 0
    for match_id, (game, match_config, deals) in enumerate(stored, start=1):
        connection.execute(tables["matches"].insert().values(
            id=match_id, room_id=1, game=game, status="finished", started_at=now,
            players=people, player_ids=[1, 2, 3], config=match_config))  # fmt: skip
        engine = new_match(game, people, match_config)
        for number, deal in enumerate(deals, start=1):
            deal_id += 1
            record = dump_record(deal, stake_cents=10)
            actions = record.pop("actions")
            outcome = record.pop("outcome")
            connection.execute(tables["deals"].insert().values(
                id=deal_id, match_id=match_id, number=number, started_at=now,
                finished_at=now, record=record, outcome=outcome))  # fmt: skip
            for seq, (seat, action) in enumerate(actions):
                connection.execute(tables["actions"].insert().values(
                    deal_id=deal_id, seq=seq, seat=seat, text=action))  # fmt: skip
            for seat, name in enumerate(deal.seat_names):  # as the code before stored them
                points = outcome["settlement"][seat]
                connection.execute(tables["score_entries"].insert().values(
                    match_id=match_id, deal_id=deal_id, player=name, points=points,
                    cents=points * 10))  # fmt: skip
            engine.record(deal)
            for move in engine.pots_of_last_deal():
                if move.reason != "haferl_shared":  # the share at the end was not a row
                    connection.execute(tables["pot_movements"].insert().values(
                        match_id=match_id, deal_id=deal_id, pot=move.pot, player=move.player,
                        cents=move.amount, reason=move.reason, unit="cents",
                        params=dict(move.params) or None))  # fmt: skip
    # a match whose record does not replay (a game this server does not know)
    connection.execute(tables["matches"].insert().values(
        id=9, room_id=1, game="unknown-game", status="finished", started_at=now,
        players=people, player_ids=[1, 2, 3], config=BASE_CONFIG))  # fmt: skip
    connection.execute(tables["score_entries"].insert().values(
        match_id=9, deal_id=999, player="Anna", points=3, cents=30))  # fmt: skip

    said: list[str] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("alembic.runtime.migration")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        command.upgrade(config, "head")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    # Dreierles counted the same before; the Radl and the Haferl's share did not
    assert (
        "0008_ledger: the ledger rebuilt, 2 of 4 matches changed, 1 could not be replayed" in said
    )

    for match_id, (game, match_config, deals) in enumerate(stored, start=1):
        engine = new_match(game, people, match_config)
        rows = connection.execute(sa.text(
            "SELECT id, ledger FROM deals WHERE match_id = :m ORDER BY number"), {"m": match_id}
        ).all()  # fmt: skip
        for deal, (row_id, ledger) in zip(deals, rows, strict=True):
            engine.record(deal)
            expected = engine.last_ledger()
            assert _json(ledger) == expected.to_json()
            entries = connection.execute(sa.text(
                "SELECT player, points, cents FROM score_entries WHERE deal_id = :d"),
                {"d": row_id}).all()  # fmt: skip
            assert sorted(entries) == sorted(
                (e.player, e.points, e.cents) for e in expected.entries
            )
            moves = connection.execute(sa.text(
                "SELECT pot, player, cents, reason FROM pot_movements WHERE deal_id = :d "
                "ORDER BY id"), {"d": row_id}).all()  # fmt: skip
            assert [tuple(m) for m in moves] == [
                (m.pot, m.player, m.amount, m.reason) for m in expected.moves()
            ]
        settlement = connection.execute(
            sa.text("SELECT settlement FROM matches WHERE id = :m"), {"m": match_id}
        ).scalar_one()
        assert _json(settlement) == engine.final_settlement()
    # the Radl now counts on the entries: the Tarock zu dritt totals are the sheet's
    tz_total = connection.execute(
        sa.text("SELECT player, SUM(points) FROM score_entries WHERE match_id = 2 GROUP BY player")
    ).all()
    assert dict(tz_total) == dict(engine_totals("tarock-zu-dritt", people, TZ_CONFIG, stored[1][2]))
    untouched = connection.execute(sa.text(
        "SELECT player, points FROM score_entries WHERE match_id = 9")).all()  # fmt: skip
    assert [tuple(r) for r in untouched] == [("Anna", 3)]
    command.downgrade(config, "0007_deal_points")
    columns = {c["name"] for c in sa.inspect(connection).get_columns("deals")}
    assert "ledger" not in columns


def engine_totals(game: str, people: list[str], config: dict[str, Any], deals: list[Any]) -> Any:
    match = new_match(game, people, config)
    for deal in deals:
        match.record(deal)
    return match.to_json()["totals"]


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def test_the_ledger_is_rebuilt_on_upgrade_on_sqlite(sqlite_db_url: str) -> None:
    on_sqlite(sqlite_db_url, _the_ledger_is_rebuilt_on_upgrade)


@pytest.mark.postgres
def test_the_ledger_is_rebuilt_on_upgrade_on_postgres(postgres_url: str) -> None:
    on_postgres(postgres_url, _the_ledger_is_rebuilt_on_upgrade)


def _members_get_their_own_key(connection: Connection, config: Any) -> None:
    """Upgrade to 0010, store two rooms' members, upgrade to head: every person's row has
    an id of its own and ``kind`` person; a computer player's row (no account) can be
    stored; downgrading removes the computer players and keeps the people."""
    config.attributes["connection"] = connection
    command.upgrade(config, "0010_game_preferences")
    for room, user, role, seat in (
        (1, 1, "player", 0),
        (1, 2, "player", 1),
        (2, 1, "spectator", None),
    ):
        connection.execute(
            text(
                "INSERT INTO room_members (room_id, user_id, role, seat_order) "
                "VALUES (:room, :user, :role, :seat)"
            ),
            {"room": room, "user": user, "role": role, "seat": seat},
        )  # fmt: skip
    command.upgrade(config, "head")
    rows = connection.execute(
        text("SELECT id, room_id, user_id, kind, level FROM room_members ORDER BY room_id, user_id")
    ).all()
    assert len({r[0] for r in rows}) == 3 and all(r[0] is not None for r in rows)
    assert [(r[1], r[2], r[3], r[4]) for r in rows] == [
        (1, 1, "person", None), (1, 2, "person", None), (2, 1, "person", None)
    ]  # fmt: skip
    connection.execute(
        text(
            "INSERT INTO room_members (room_id, user_id, role, seat_order, kind, level, name) "
            "VALUES (1, NULL, 'player', 2, 'computer', 'stark', 'Computer 1')"
        )
    )
    # a person is a member of a room once
    with pytest.raises(sa.exc.IntegrityError), connection.begin_nested():
        connection.execute(
            text("INSERT INTO room_members (room_id, user_id, role) VALUES (1, 1, 'player')")
        )
    command.downgrade(config, "0010_game_preferences")
    back = connection.execute(
        text("SELECT room_id, user_id FROM room_members ORDER BY room_id, user_id")
    ).all()
    assert [tuple(r) for r in back] == [(1, 1), (1, 2), (2, 1)]


def test_members_get_their_own_key_on_sqlite(sqlite_db_url: str) -> None:
    on_sqlite(sqlite_db_url, _members_get_their_own_key)


@pytest.mark.postgres
def test_members_get_their_own_key_on_postgres(postgres_url: str) -> None:
    on_postgres(postgres_url, _members_get_their_own_key)


def _rooms_get_the_standin(connection: Connection, config: Any) -> None:
    """Upgrade to 0011, store a room, upgrade to head: the room has the stand-in on, of
    level einsteiger, after 60 s offline; a new room may turn it off; downgrading keeps
    the rooms."""
    config.attributes["connection"] = connection
    command.upgrade(config, "0011_computer_players")
    connection.execute(
        text(
            "INSERT INTO rooms (id, invite_token, host_id, name, game, options, stake_cents, "
            "rounds, allow_spectators, status, created_at) VALUES (1, 'tok', 1, 'Stube', "
            "'doppelkopf', '{}', 10, 4, false, 'open', CURRENT_TIMESTAMP)"
        )
    )
    command.upgrade(config, "head")
    rows = connection.execute(
        text("SELECT id, standin, standin_level, standin_delay_seconds FROM rooms")
    ).all()
    assert [(r[0], bool(r[1]), r[2], r[3]) for r in rows] == [(1, True, "einsteiger", 60)]
    connection.execute(
        text(
            "INSERT INTO rooms (id, invite_token, host_id, name, game, options, stake_cents, "
            "rounds, allow_spectators, status, created_at, standin, standin_level, "
            "standin_delay_seconds) VALUES (2, 'tok2', 1, 'Stube 2', 'doppelkopf', '{}', 10, "
            "4, false, 'open', CURRENT_TIMESTAMP, false, 'stark', 5)"
        )
    )
    command.downgrade(config, "0011_computer_players")
    back = connection.execute(text("SELECT id, name FROM rooms ORDER BY id")).all()
    assert [tuple(r) for r in back] == [(1, "Stube"), (2, "Stube 2")]


def test_rooms_get_the_standin_on_sqlite(sqlite_db_url: str) -> None:
    on_sqlite(sqlite_db_url, _rooms_get_the_standin)


@pytest.mark.postgres
def test_rooms_get_the_standin_on_postgres(postgres_url: str) -> None:
    on_postgres(postgres_url, _rooms_get_the_standin)
