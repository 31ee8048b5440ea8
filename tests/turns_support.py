"""Waiting turns written straight into a live server's SQLite file, as the match tables
write them: a running match of a room (the room then plays) and its ``turns`` row."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path


def stored(moment: datetime) -> str:
    """``moment`` as SQLAlchemy stores a UTC time in SQLite (naive, microseconds)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def add_turn(
    database: Path,
    room_id: int,
    user_id: int,
    *,
    seat: int = 0,
    since: datetime,
    deadline: datetime | None,
    status: str = "running",
    config: dict[str, object] | None = None,
) -> int:
    """Insert a match of ``room_id`` with ``status`` whose deal waits for ``user_id`` at
    ``seat`` since ``since`` until ``deadline``; return the match's id."""
    with sqlite3.connect(database) as conn:
        game = conn.execute("SELECT game FROM rooms WHERE id = ?", (room_id,)).fetchone()[0]
        conn.execute("UPDATE rooms SET status = 'playing' WHERE id = ?", (room_id,))
        cursor = conn.execute(
            "INSERT INTO matches (room_id, game, players, player_ids, config, status, started_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (room_id, game, json.dumps(["X"]), json.dumps([user_id]),
             json.dumps(config or {}), status, stored(since)),
        )  # fmt: skip
        match_id = cursor.lastrowid
        assert match_id is not None
        conn.execute(
            "INSERT INTO turns (match_id, room_id, user_id, seat, version, since, deadline)"
            " VALUES (?, ?, ?, ?, 1, ?, ?)",
            (match_id, room_id, user_id, seat, stored(since),
             None if deadline is None else stored(deadline)),
        )  # fmt: skip
    return match_id


def remove_turn(database: Path, match_id: int) -> None:
    """Delete the ``turns`` row of ``match_id`` (the move was made)."""
    with sqlite3.connect(database) as conn:
        conn.execute("DELETE FROM turns WHERE match_id = ?", (match_id,))
