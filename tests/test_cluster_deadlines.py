"""Correspondence deadlines with several server processes: two real processes on one
PostgreSQL database and Redis, both looking for due deadlines five times a second on the
same fake wall clock (a file moves it ahead). While the table's owner lives, a passed
deadline is acted on once, by the owner, though both processes see it due; once the owner
is killed, the other process takes the table over at the next deadline and moves for the
late player there (the stand-in, marked), and the turn after that is stored with its own
full day."""

from __future__ import annotations

import asyncio
import signal
from contextlib import ExitStack
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.pool import NullPool

from server.store.db import make_engine
from server.store.models import Match
from tests.table_client import make_room, start
from tests.test_cluster import start_nodes
from tests.test_correspondence import last_client_id, stored_turn
from tests.test_notifications import eventually, move_clock

pytestmark = [pytest.mark.live_server, pytest.mark.postgres]

DAY = 86400


async def owner_of(db_url: str, match_id: int) -> tuple[str | None, int]:
    """The process that owns the match and its epoch."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            row = (
                await db.execute(
                    select(Match.owner_node, Match.owner_epoch).where(Match.id == match_id)
                )
            ).one()
            return row[0], int(row[1])
    finally:
        await engine.dispose()


def test_deadlines_are_kept_once_and_survive_the_owners_death(
    cluster_db: str, redis_url: str, tmp_path: Path
) -> None:
    clock = tmp_path / "clock"
    clock.write_text("0")
    extra = {"STAMMTISCH_CLOCK_FILE": str(clock), "STAMMTISCH_DEADLINE_POLL_SECONDS": "0.2"}
    with ExitStack() as stack:
        nodes = start_nodes(stack, cluster_db, redis_url, tmp_path / "server.log", 2, extra)
        asyncio.run(scenario(cluster_db, [n.base for n in nodes], nodes[0].process, clock))


async def scenario(db_url: str, bases: list[str], owner: object, clock: Path) -> None:
    clients, room, _ = await make_room(
        bases[0], "dreierles", ["Anna", "Bernd", "Clara"], tempo_seconds=DAY,
        computer_pause_ms=[0, 0],
    )  # fmt: skip
    match_id = await start(clients[0], room)  # at n0, which owns the table

    async def first_turn() -> bool:
        return await stored_turn(db_url) is not None

    await eventually(first_turn)
    turn = await stored_turn(db_url)
    assert turn is not None and turn.deadline is not None
    node, epoch = await owner_of(db_url, match_id)
    assert node is not None and node.startswith("n0-") and epoch == 1
    count, _ = await last_client_id(db_url)

    # the first deadline, both processes alive: one stand-in move, made by the owner
    move_clock(clock, DAY + 60)

    async def moved_past(before: int) -> bool:
        return (await last_client_id(db_url))[0] > before

    await eventually(lambda: moved_past(count))
    await asyncio.sleep(1.0)  # five polls of each process: nothing more for that turn
    second = await stored_turn(db_url)
    assert second is not None and second.version > turn.version
    after_first, tag = await last_client_id(db_url)
    assert tag is not None and tag.startswith("standin:"), tag
    assert after_first == count + 1 + (second.version - turn.version - 1)  # forced moves only
    assert await owner_of(db_url, match_id) == (node, 1)

    # the owner dies; at the next deadline the other process takes the table and moves
    assert hasattr(owner, "send_signal")
    owner.send_signal(signal.SIGKILL)
    await asyncio.to_thread(owner.wait)  # type: ignore[attr-defined]
    assert second.deadline is not None
    move_clock(clock, 2 * DAY + 120)
    await eventually(lambda: moved_past(after_first), timeout=30)
    _, tag = await last_client_id(db_url)
    assert tag is not None and tag.startswith("standin:"), tag
    node, epoch = await owner_of(db_url, match_id)
    assert node is not None and node.startswith("n1-") and epoch == 2

    async def third_turn() -> bool:
        new = await stored_turn(db_url)
        return new is not None and new.version > second.version

    await eventually(third_turn)
    third = await stored_turn(db_url)
    assert third is not None and third.deadline is not None
    assert (third.deadline - third.since).total_seconds() == DAY
    for client in clients:
        await client.aclose()
