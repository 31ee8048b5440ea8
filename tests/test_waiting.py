"""'Du bist dran': the tables that wait for a person (server/store/waiting.py) on SQLite
and PostgreSQL, ``GET /api/turns`` and the room list's ``your_turn`` from the ``turns``
table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store import accounts, log, rooms
from server.store.models import Match, Room, Turn, User
from server.store.waiting import Waiting, rooms_waiting_for, waiting_for
from tests.support import Guest, LiveServer, TestDatabase, api_error, run_with_sessions
from tests.turns_support import add_turn

Sessions = async_sessionmaker[AsyncSession]
T0 = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
Ids = tuple[int, int]


async def running(
    db: AsyncSession, host: User, name: str, game: str, config: dict[str, Any]
) -> Ids:
    """A room of ``game`` named ``name`` with a running match: (room id, match id)."""
    room = await rooms.create_room(db, host, name=name, game=game)
    return room.id, await log.create_match(db, room.id, game, ["Ute"], [host.id], config)


def turn(ids: Ids, user: int, deadline: datetime | None, seat: int = 0) -> Turn:
    return Turn(match_id=ids[1], room_id=ids[0], user_id=user, seat=seat, version=3,
                since=T0, deadline=deadline)  # fmt: skip


def test_the_waiting_tables_live_first_then_by_deadline(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            ute = await accounts.create_guest(db, "Ute")
            paul = await accounts.create_guest(db, "Paul")
            late = await running(db, ute, "Spät", "doppelkopf", {})
            soon = await running(db, ute, "Bald", "dreierles", {"tempo_seconds": 43200})
            live = await running(db, ute, "Live", "doppen", {})
            others = await running(db, ute, "Pauls Zug", "doppelkopf", {})
            over = await running(db, ute, "Vorbei", "doppelkopf", {})
            late_room = await db.get(Room, late[0])
            assert late_room is not None
            late_room.tempo_seconds = 172800  # the match's config names no tempo
            db.add_all([
                turn(late, ute.id, T0 + timedelta(days=2), seat=2),
                turn(soon, ute.id, T0 + timedelta(hours=12), seat=1),
                turn(live, ute.id, None),
                turn(others, paul.id, T0 + timedelta(hours=1)),
                turn(over, ute.id, T0 + timedelta(hours=2)),
            ])  # fmt: skip
            await db.flush()
            finished = await db.get(Match, over[1])
            assert finished is not None
            finished.status = "finished"
            await db.commit()
        async with sessions() as db:
            found = await waiting_for(db, ute.id)
            assert found == [
                Waiting(live[0], "Live", "doppen", live[1], 0, T0, None, None),
                Waiting(soon[0], "Bald", "dreierles", soon[1], 1, T0,
                        T0 + timedelta(hours=12), 43200),
                Waiting(late[0], "Spät", "doppelkopf", late[1], 2, T0,
                        T0 + timedelta(days=2), 172800),
            ]  # fmt: skip
            assert [w.match_id for w in await waiting_for(db, paul.id)] == [others[1]]
            every_room = [ids[0] for ids in (late, soon, live, others, over)]
            assert await rooms_waiting_for(db, ute.id, every_room) == {live[0], soon[0], late[0]}
            assert await rooms_waiting_for(db, ute.id, [soon[0], others[0]]) == {soon[0]}
            assert await rooms_waiting_for(db, ute.id, []) == set()
            assert await waiting_for(db, ute.id + paul.id + 100) == []

    run_with_sessions(store_db, scenario)


# --------------------------------------------------------------------------- the API


def new_room(client: httpx.Client, name: str, game: str = "doppelkopf") -> int:
    response = client.post("/api/rooms", json={"name": name, "game": game})
    assert response.status_code == 201, response.text
    room_id: int = response.json()["id"]
    return room_id


def me(client: httpx.Client) -> int:
    user_id: int = client.get("/api/me").json()["id"]
    return user_id


def test_the_turns_api_lists_exactly_the_callers_waiting_tables(
    module_server: LiveServer, guest: Guest
) -> None:
    db = module_server.database_path
    anna, bernd = guest("Anna"), guest("Bernd")
    a, b = me(anna), me(bernd)
    empty = anna.get("/api/turns")
    assert empty.status_code == 200
    assert empty.json()["count"] == 0 and empty.json()["turns"] == []

    room_week = new_room(anna, "Wochenrunde")
    room_live = new_room(anna, "Live am Freitag", "dreierles")
    room_bernd = new_room(bernd, "Bernds Runde")
    room_done = new_room(anna, "Vorbei")
    since = datetime(2026, 11, 27, 8, 30, tzinfo=UTC)
    week = add_turn(db, room_week, a, seat=3, since=since,
                    deadline=datetime(2099, 11, 28, 13, 5, tzinfo=UTC),
                    config={"tempo_seconds": 86400})  # fmt: skip
    live = add_turn(db, room_live, a, seat=1, since=since, deadline=None)
    add_turn(db, room_bernd, b, since=since, deadline=datetime(2099, 11, 27, 20, 0, tzinfo=UTC))
    add_turn(db, room_done, a, since=since, deadline=datetime(2099, 11, 27, 10, 0, tzinfo=UTC),
             status="finished")  # fmt: skip

    answer = anna.get("/api/turns")
    assert answer.status_code == 200
    body = answer.json()
    now = datetime.fromisoformat(body.pop("now"))
    assert abs((now - datetime.now(UTC)).total_seconds()) < 60
    assert body == {
        "count": 2,
        "turns": [
            {"room_id": room_live, "room_name": "Live am Freitag", "game": "dreierles",
             "game_title": "Dreierles", "match_id": live, "seat": 1,
             "since": "2026-11-27T08:30:00+00:00", "deadline": None, "tempo_seconds": None,
             "url": f"/rooms/{room_live}/table"},
            {"room_id": room_week, "room_name": "Wochenrunde", "game": "doppelkopf",
             "game_title": "Doppelkopf", "match_id": week, "seat": 3,
             "since": "2026-11-27T08:30:00+00:00", "deadline": "2099-11-28T13:05:00+00:00",
             "tempo_seconds": 86400, "url": f"/rooms/{room_week}/table"},
        ],
    }  # fmt: skip
    assert [t["room_name"] for t in bernd.get("/api/turns").json()["turns"]] == ["Bernds Runde"]

    # the room list's marker reads the same table (no live table runs these matches)
    flags = {r["id"]: r["your_turn"] for r in anna.get("/api/rooms").json()["rooms"]}
    assert flags == {room_week: True, room_live: True, room_done: False}
    assert anna.get(f"/api/rooms/{room_week}").json()["your_turn"] is True
    assert bernd.get("/api/rooms").json()["rooms"][0]["your_turn"] is True


def test_the_turns_api_needs_a_session(module_server: LiveServer) -> None:
    with httpx.Client(base_url=module_server.base_url, timeout=15) as anonymous:
        api_error(anonymous.get("/api/turns"), 401, "login_required")
