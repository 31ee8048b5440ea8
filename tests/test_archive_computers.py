"""The archive and the statistics of matches with computer players and stand-ins, against a
real server on SQLite and PostgreSQL.

The matches are written through the store's own writes (``server.store.log``: the match,
its deals, every action with its client id, each deal's end with the engine's ledger), as
a table would write them; the deals are played with random legal moves by the engine.
Computer players sit at their own seats (negative ids, ``computer:`` moves); in one deal a
stand-in (``standin:`` moves) makes some of Anna's moves.

Checked with exact values: the archive list names the computer players with their level
(also as fellows), the match page says which deals were stood in and for whom, and the
statistics count computer players as nobody and leave out the stood-in deals of the person
they were made for, unless asked to include them.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.pool import NullPool

from server.engine.registry import new_match
from server.store import log
from server.store.db import make_engine
from server.store.log import computer_tag, standin_tag
from server.tables.matches import LiveMatch
from tests.table_client import Client, make_room


@dataclass
class Stored:
    """A match as the test wrote it: per deal its seats, the ledger's entries and who a
    stand-in moved for (name -> number of moves)."""

    match_id: int
    players: list[str]
    deals: list[dict[str, Any]] = field(default_factory=list)
    settlement: dict[str, Any] | None = None


async def store_match(
    db_url: str,
    room_id: int,
    players: list[str],
    ids: list[int],
    levels: list[str | None],
    standins: dict[int, tuple[str, int]],
    seed: int,
) -> Stored:
    """Write a whole Dreierles match of ``players`` (``levels``: each one's computer level,
    None for a person) through the store, as the table would; ``standins``: deal number ->
    (the person a stand-in moved for, how many of his last moves it made)."""
    config: dict[str, Any] = {"options": {}, "stake_cents": 10, "rounds": 1, "timer_seconds": 0,
                              "first_dealer": 0, "computers": levels}  # fmt: skip
    rng = random.Random(seed)
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.begin() as conn, AsyncSession(bind=conn) as session:
            match_id = await log.create_match(session, room_id, "dreierles", players, ids,
                                              config)  # fmt: skip
            await session.flush()
        live = LiveMatch(match_id, "dreierles", players, ids, config,
                         new_match("dreierles", players, config))  # fmt: skip
        deal, record = live.next_deal(rng)
        async with engine.begin() as conn:
            deal_id = await conn.run_sync(log.create_deal, match_id, 1, record)
        stored = Stored(match_id, players)
        number = 1
        while True:
            while deal._to_move is not None:
                seat, move = deal.random_action(rng)
                deal.apply(move, seat)
            actions = deal.actions()
            seats = list(deal.seat_names)
            tags: list[str | None] = []
            stood_in = standins.get(number)
            mine = [i for i, (s, _) in enumerate(actions)
                    if stood_in and seats[s] == stood_in[0]]  # fmt: skip
            taken = set(mine[-stood_in[1] :]) if stood_in else set()
            for i, (s, _) in enumerate(actions):
                level = levels[players.index(seats[s])]
                if i in taken:
                    tags.append(standin_tag("stark", 100 + i))
                elif level is not None:
                    tags.append(computer_tag(level, i))
                else:
                    tags.append(f"m{i}")
            closed = live.close_deal(deal, rng)
            entries = [(deal_id, i, s, text, tags[i]) for i, (s, text) in enumerate(actions)]
            outcome = deal.outcome()
            assert outcome is not None
            end = log.DealEnd(
                match_id=match_id,
                room_id=room_id,
                deal_id=deal_id,
                action=entries[-1],
                outcome=outcome,
                ledger=closed.ledger,
                settlement=closed.settlement,
                next_deal=None if closed.following is None else (number + 1, closed.following[1]),
            )
            async with engine.begin() as conn:
                for entry in entries[:-1]:
                    await conn.run_sync(log.ensure_action, entry)
                next_id = await conn.run_sync(log.end_deal, end)
            stored.deals.append(
                {
                    "number": number,
                    "seats": seats,
                    "entries": closed.ledger.to_json()["entries"],
                    "stood_in": {stood_in[0]: stood_in[1]} if stood_in else {},
                    "stood_in_indexes": sorted(taken),
                }
            )
            live.take(closed, next_id)
            if closed.following is None:
                stored.settlement = closed.settlement
                return stored
            deal, number, deal_id = closed.following[0], number + 1, next_id or 0
    finally:
        await engine.dispose()


async def computer(host: Client, room: int, level: str) -> int:
    """Seat a computer player of ``level`` in ``room``; return its (negative) user id."""
    response = await host.http.post(f"/api/rooms/{room}/computers", json={"level": level})
    assert response.status_code == 201, response.text
    members = [m for m in response.json()["members"] if m["kind"] == "computer"]
    user_id: int = members[-1]["user_id"]
    return user_id


def expected(
    stored: list[Stored], ids: dict[str, int], with_standins: bool
) -> dict[int, dict[str, int]]:
    """Per person: deals, points and stood-in deals, from what the test stored."""
    result: dict[int, dict[str, int]] = defaultdict(
        lambda: {"deals": 0, "points": 0, "standin_deals": 0}
    )
    for match in stored:
        for deal in match.deals:
            for entry in deal["entries"]:
                uid = ids[entry["player"]]
                if uid < 0:
                    continue
                stood_in = entry["player"] in deal["stood_in"]
                result[uid]["standin_deals"] += stood_in
                if stood_in and not with_standins:
                    continue
                result[uid]["points"] += entry["points"]
                result[uid]["deals"] += entry["player"] in deal["seats"]
    return result


def test_computer_players_and_stand_ins_in_the_archive(play_server: tuple[str, str]) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        (anna, bernd), room, _ = await make_room(base, "dreierles", ["Anna", "Bernd"])
        strong = await computer(anna, room, "stark")
        body = {"name": "Übung", "game": "dreierles", "stake_cents": 10, "rounds": 1}
        second = await anna.http.post("/api/rooms", json=body)
        assert second.status_code == 201, second.text
        practice = second.json()["id"]
        helpers = [await computer(anna, practice, "einsteiger") for _ in range(2)]
        ids = {"Anna": anna.user_id, "Bernd": bernd.user_id, "Computer 1": strong}
        # the evening: a stand-in makes Anna's last 3 moves in deal 2
        evening = await store_match(
            db_url, room, ["Anna", "Bernd", "Computer 1"], list(ids.values()),
            [None, None, "stark"], {2: ("Anna", 3)}, seed=5,
        )  # fmt: skip
        # practice: Anna and two computer players (no stand-in)
        alone = await store_match(
            db_url, practice, ["Anna", "Computer 1", "Computer 2"], [anna.user_id, *helpers],
            [None, "einsteiger", "einsteiger"], {}, seed=6,
        )  # fmt: skip
        assert len(evening.deals) == len(alone.deals) == 3

        # the archive list: the computer players by name, with their level
        listing = (await anna.http.get("/api/history/matches")).json()
        by_id = {m["id"]: m for m in listing["matches"]}
        assert by_id[evening.match_id]["players"] == [
            {"user_id": anna.user_id, "name": "Anna", "computer": None},
            {"user_id": bernd.user_id, "name": "Bernd", "computer": None},
            {"user_id": strong, "name": "Computer 1", "computer": {"level": "stark"}},
        ]
        assert [p["computer"] for p in by_id[alone.match_id]["players"]] == [
            None, {"level": "einsteiger"}, {"level": "einsteiger"},
        ]  # fmt: skip
        # fellows: the persons, then the computer players by room and name
        assert listing["fellows"] == [
            {"user_id": bernd.user_id, "name": "Bernd", "computer": None},
            {"user_id": strong, "name": "Computer 1",
             "computer": {"level": "stark", "room_id": room, "room_name": "dreierles test"}},
            {"user_id": helpers[0], "name": "Computer 1",
             "computer": {"level": "einsteiger", "room_id": practice, "room_name": "Übung"}},
            {"user_id": helpers[1], "name": "Computer 2",
             "computer": {"level": "einsteiger", "room_id": practice, "room_name": "Übung"}},
        ]  # fmt: skip
        # a computer player filters like a fellow
        only = (await anna.http.get(f"/api/history/matches?with={strong}")).json()
        assert [m["id"] for m in only["matches"]] == [evening.match_id]
        assert (await bernd.http.get("/api/history/matches")).json()["fellows"] == [
            {"user_id": anna.user_id, "name": "Anna", "computer": None},
            {"user_id": strong, "name": "Computer 1",
             "computer": {"level": "stark", "room_id": room, "room_name": "dreierles test"}},
        ]  # fmt: skip

        # the match page: which deals were stood in, and for whom
        detail = (await bernd.http.get(f"/api/history/matches/{evening.match_id}")).json()
        assert detail["match"]["players"] == by_id[evening.match_id]["players"]
        stood = [(d["number"], d["stood_in"]) for d in detail["deals"]]
        anna_seat = evening.deals[1]["seats"].index("Anna")
        assert stood == [
            (1, []),
            (2, [{"seat": anna_seat, "user_id": anna.user_id, "name": "Anna",
                  "level": "stark", "actions": 3}]),
            (3, []),
        ]  # fmt: skip
        # the downloads mark the stand-in's moves (indexes into the actions), the replay its
        # steps; a record without them has no such field
        marked = evening.deals[1]["stood_in_indexes"]
        assert len(marked) == 3
        ids_of = {d["number"]: d["id"] for d in detail["deals"]}
        record = (await bernd.http.get(f"/api/history/deals/{ids_of[2]}/record")).json()
        assert record["stood_in"] == marked
        plain = (await bernd.http.get(f"/api/history/deals/{ids_of[1]}/record")).json()
        assert "stood_in" not in plain
        replay = (await bernd.http.get(f"/api/history/deals/{ids_of[2]}/replay")).json()
        assert replay["stood_in"] == [i + 1 for i in marked]
        whole = (await bernd.http.get(f"/api/history/matches/{evening.match_id}/record")).json()
        assert [d.get("stood_in") for d in whole["deals"]] == [None, marked, None]
        assert whole["config"]["computers"] == [None, None, "stark"]
        # and a record read back (the replay of an uploaded file) marks the same steps
        upload = await bernd.http.post("/api/records/replay", json=record)
        assert upload.status_code == 200, upload.text
        assert upload.json()["stood_in"] == [i + 1 for i in marked]
        practice_page = (await anna.http.get(f"/api/history/matches/{alone.match_id}")).json()
        assert all(d["stood_in"] == [] for d in practice_page["deals"])

        # the statistics: no computer player in the circle, Anna's stood-in deal left out
        names = {**ids, "Computer 2": helpers[1]}
        names["Computer 1"] = strong
        for switch, query in ((False, ""), (True, "?with_standins=1")):
            stats = (await anna.http.get(f"/api/history/stats{query}")).json()
            assert [p["user_id"] for p in stats["players"]] == [anna.user_id, bernd.user_id]
            want = expected([evening], ids, switch)
            practice_ids = {"Anna": anna.user_id, "Computer 1": helpers[0],
                            "Computer 2": helpers[1]}  # fmt: skip
            for uid, figures in expected([alone], practice_ids, switch).items():
                for key, value in figures.items():
                    want[uid][key] += value
            got = {p["user_id"]: p for p in stats["players"]}
            for uid, figures in want.items():
                assert {k: got[uid][k] for k in figures} == figures, (switch, uid)
            # every match a person played, his money as the ledgers have it
            assert got[anna.user_id]["matches"] == 2 and got[bernd.user_id]["matches"] == 1
            for person in ("Anna", "Bernd"):
                money = sum((m.settlement or {})["money_cents"][person]
                            for m in (evening, alone) if person in m.players)  # fmt: skip
                assert got[ids[person]]["money_cents"] == money
            # head-to-head between the persons only
            assert [(h["a"], h["b"], h["matches"]) for h in stats["head_to_head"]] == [
                (*sorted((anna.user_id, bernd.user_id)), 1)
            ]
        plain = {
            p["user_id"]: p for p in (await anna.http.get("/api/history/stats")).json()["players"]
        }
        full = (await anna.http.get("/api/history/stats?with_standins=1")).json()["players"]
        full_by = {p["user_id"]: p for p in full}
        assert plain[anna.user_id]["deals"] == 5 and full_by[anna.user_id]["deals"] == 6
        assert plain[anna.user_id]["standin_deals"] == full_by[anna.user_id]["standin_deals"] == 1
        assert plain[bernd.user_id] == full_by[bernd.user_id]  # nobody stood in for Bernd
        await anna.aclose()
        await bernd.aclose()

    asyncio.run(scenario())
