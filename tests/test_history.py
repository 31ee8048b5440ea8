"""The game archive against a real server: matches played by scripted WebSocket clients are
listed, their sheets, replays and records read back over HTTP, on SQLite and PostgreSQL.

Access: only members of a match's room see it (everybody else gets the 404 of a match that
does not exist), a running deal has no replay, and nothing answers without a login. Records
of finished deals replay to exactly the stored outcome, and a downloaded record uploaded
again gives the identical replay. The statistics are recomputed here from the stored
outcomes, independently of the server's code.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.engine.record import load_record
from server.store import accounts, history, rooms
from server.store.models import ActionRow, DealRow, Match, ScoreEntry
from tests.support import TestDatabase, api_error, run_with_sessions
from tests.table_client import Client, make_room, settle, start, step
from tests.test_tables import connect_all, play_to_end, stored_deals

GOLDEN = Path(__file__).parent / "golden"


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def points_value(text: str) -> float:
    """'35⅔' → 35.667 (independent of the engine's own helper)."""
    thirds = {"⅓": 1, "⅔": 2}.get(text[-1], 0)
    return int(text[:-1] if thirds else text) + thirds / 3


async def get(client: Client, path: str) -> httpx.Response:
    return await client.http.get(path)


async def guest(base_url: str, name: str) -> Client:
    client = Client(base_url, name)
    response = await client.http.post("/api/guest", json={"display_name": name})
    response.raise_for_status()
    client.user_id = response.json()["id"]
    return client


def expected_stats(deals: list[dict[str, Any]], ids: dict[str, int]) -> dict[int, dict[str, Any]]:
    """Per user id: deals, points, declarer games, card points, solos, from the outcomes."""
    result: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"deals": 0, "points": 0, "declarer_games": {}, "card_points": [], "solos": 0}
    )
    for deal in deals:
        outcome = deal["outcome"]
        seats = deal["record"]["seats"]
        for seat, name in enumerate(seats):
            entry = result[ids[name]]
            entry["deals"] += 1
            entry["points"] += outcome["settlement"][seat]
            points = outcome["card_points"]
            if outcome["contract"] == "raeuber":
                entry["card_points"].append(points_value(points["seats"][seat]))
                continue
            declarer = outcome["declarer"] == seat
            entry["card_points"].append(
                points_value(points["declarer" if declarer else "opponents"])
            )
            if declarer:
                games = entry["declarer_games"].setdefault(
                    outcome["contract"], {"played": 0, "won": 0}
                )
                games["played"] += 1
                games["won"] += int(outcome["declarer_won"])
                entry["solos"] += outcome["contract"] == "solo"
    return result


# ---------------------------------------------------------------- a whole Dreierles match


def test_the_archive_of_a_dreierles_match(play_server: tuple[str, str]) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        clients, room, token = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"])
        anna, bernd, catrin = clients
        sepp = await guest(base, "Sepp")  # a spectator of the room: a member too
        joined = await sepp.http.post(f"/api/invite/{token}/join", json={"role": "spectator"})
        joined.raise_for_status()
        xaver = await guest(base, "Xaver")  # in no room of theirs
        nobody = Client(base, "nobody")  # not logged in
        match_id = await start(anna, room)
        await connect_all(clients, room)

        # while the first deal runs: listed, but its replay and record are closed
        rng = random.Random(11)
        for _ in range(5):
            await step(clients, rng)
        detail = (await get(bernd, f"/api/history/matches/{match_id}")).json()
        assert detail["match"]["status"] == "running"
        running = detail["deals"][0]
        assert running["status"] == "running" and running["replay_available"] is False
        assert running["contract"] is None and running["settlement"] is None
        for path in (f"/api/history/deals/{running['id']}/replay",
                     f"/api/history/deals/{running['id']}/record"):  # fmt: skip
            for who in (anna, sepp):
                api_error(await get(who, path), 409, "deal_running")
        match_record = (await get(anna, f"/api/history/matches/{match_id}/record")).json()
        assert match_record["deals"] == []  # only finished deals

        await play_to_end(clients, seed=12)
        snapshot = anna.snapshot
        assert snapshot is not None and snapshot["match"]["finished"]
        sheet = snapshot["match"]["sheet"]
        deals = await stored_deals(db_url)
        assert len(deals) == 3

        # the list
        listing = (await get(anna, "/api/history/matches")).json()
        assert [m["id"] for m in listing["matches"]] == [match_id]
        entry = listing["matches"][0]
        assert entry["status"] == "finished" and entry["finished_at"] is not None
        assert entry["game"] == "dreierles" and entry["game_title"] == "Dreierles"
        assert entry["room_id"] == room and entry["room_name"] == "dreierles test"
        assert entry["players"] == [
            {"user_id": c.user_id, "name": c.name, "computer": None} for c in clients
        ]
        assert entry["totals"] == sheet["totals"] and entry["deals_finished"] == 3
        assert entry["started_at"] <= entry["finished_at"]
        assert listing["fellows"] == [
            {"user_id": bernd.user_id, "name": "Bernd", "computer": None},
            {"user_id": catrin.user_id, "name": "Catrin", "computer": None},
        ]
        spectated = (await get(sepp, "/api/history/matches")).json()
        assert [m["id"] for m in spectated["matches"]] == [match_id]

        # the match: the engine's sheet as the table showed it, the chart's series
        detail = (await get(catrin, f"/api/history/matches/{match_id}")).json()
        assert detail["sheet"] == sheet
        assert detail["match"] == entry
        assert detail["series"]["labels"] == ["0", "1", "2", "3"]
        for name in ("Anna", "Bernd", "Catrin"):
            assert detail["series"]["players"][name] == [0] + [
                row["totals"][name] for row in sheet["rows"]
            ]
        assert detail["pots"] == []
        assert [d["number"] for d in detail["deals"]] == [1, 2, 3]
        for listed, row, stored in zip(detail["deals"], sheet["rows"], deals, strict=True):
            assert listed["id"] == stored["id"] and listed["status"] == "finished"
            assert listed["replay_available"] is True
            assert listed["contract"] == row["contract"] == stored["outcome"]["contract"]
            assert listed["declarer"] == row["declarer"]
            assert listed["settlement"] == row["points"]
            assert "contract_title" not in listed  # a code: the client translates it

        # every finished deal: its record replays to exactly the stored outcome
        for stored, listed in zip(deals, detail["deals"], strict=True):
            response = await get(bernd, f"/api/history/deals/{stored['id']}/record")
            assert response.status_code == 200
            assert response.headers["content-disposition"] == (
                f'attachment; filename="stammtisch-dreierles-deal-{stored["id"]}.json"'
            )
            record = response.json()
            assert record["format"] == "stammtisch-deal" and record["version"] == 1
            assert record["actions"] == stored["actions"]
            assert record["outcome"] == stored["outcome"]
            replayed = load_record(record)  # checks the outcome against the replay
            assert json.loads(json.dumps(replayed.outcome())) == stored["outcome"]

            replay = (await get(sepp, f"/api/history/deals/{stored['id']}/replay")).json()
            assert replay["source"] == {"deal_id": stored["id"], "match_id": match_id,
                                        "number": stored["number"], "pots": [],
                                        "ledger": listed["ledger"]}  # fmt: skip
            assert len(replay["steps"]) == len(stored["actions"]) + 1
            assert replay["outcome"] == stored["outcome"]
            assert [t["winner"] for t in replay["tricks"]] == [
                t["winner"] for t in stored["outcome"]["tricks"]
            ]
            # export → import: the identical replay
            uploaded = await xaver.http.post("/api/records/replay", json=record)
            assert uploaded.status_code == 200, uploaded.text
            again = uploaded.json()
            assert again["source"] is None
            assert {k: v for k, v in again.items() if k != "source"} == {
                k: v for k, v in replay.items() if k != "source"
            }

        match_download = await get(anna, f"/api/history/matches/{match_id}/record")
        assert match_download.headers["content-disposition"] == (
            f'attachment; filename="stammtisch-dreierles-match-{match_id}.json"'
        )
        match_record = match_download.json()
        assert (match_record["format"], match_record["version"]) == ("stammtisch-match", 1)
        assert match_record["game"] == "dreierles"
        assert match_record["players"] == ["Anna", "Bernd", "Catrin"]
        assert match_record["config"]["stake_cents"] == 10
        assert [d["outcome"] for d in match_record["deals"]] == [d["outcome"] for d in deals]
        for record in match_record["deals"]:
            load_record(record)

        # outsiders: the same 404 as for what does not exist, and nothing else
        deal_id = deals[0]["id"]
        for template, real, code in (
            ("/api/history/matches/{}", match_id, "match_not_found"),
            ("/api/history/matches/{}/record", match_id, "match_not_found"),
            ("/api/history/deals/{}/replay", deal_id, "deal_not_found"),
            ("/api/history/deals/{}/record", deal_id, "deal_not_found"),
        ):
            refused = api_error(await get(xaver, template.format(real)), 404, code)
            for missing in ("999999", "0", "abc", "99999999999999999999"):
                other = api_error(await get(anna, template.format(missing)), 404, code)
                assert other == refused  # indistinguishable from a foreign one
            api_error(await get(nobody, template.format(real)), 401, "login_required")
        assert (await get(xaver, "/api/history/matches")).json() == {"matches": [],
                                                                     "fellows": []}  # fmt: skip
        xaver_stats = (await get(xaver, "/api/history/stats")).json()
        assert [p["user_id"] for p in xaver_stats["players"]] == [xaver.user_id]
        assert xaver_stats["players"][0]["deals"] == 0 and xaver_stats["head_to_head"] == []
        for path in ("/api/history/matches", "/api/history/stats"):
            api_error(await get(nobody, path), 401, "login_required")
        api_error(await nobody.http.post("/api/records/replay", json=deals[0]["record"]),
                  401, "login_required")  # fmt: skip

        # statistics, recomputed from the stored outcomes
        ids = {c.name: c.user_id for c in clients}
        expected = expected_stats(deals, ids)
        circle = (await get(sepp, "/api/history/stats")).json()
        by_id = {p["user_id"]: p for p in circle["players"]}
        assert set(by_id) == {sepp.user_id, *ids.values()}
        assert circle["players"][0]["user_id"] == sepp.user_id  # me first
        assert by_id[sepp.user_id]["deals"] == 0
        for uid, want in expected.items():
            got = by_id[uid]
            assert got["deals"] == want["deals"] == 3
            assert got["points"] == want["points"]
            assert got["points_per_deal"] == round(want["points"] / 3, 2)
            assert got["declarer_games"] == want["declarer_games"]
            assert got["solos"] == want["solos"]
            assert got["extra"] == {}  # Dreierles counts no figures of its own
            average = sum(want["card_points"]) / len(want["card_points"])
            assert got["average_card_points"] == round(average, 2)
        assert circle["figures"] == []  # none in the answer: the page shows no such row
        assert sum(p["points"] for p in circle["players"]) == 0
        totals = sheet["totals"]
        pairs = {(h["a"], h["b"]): h for h in circle["head_to_head"]}
        assert len(pairs) == 3
        name_of = {v: k for k, v in ids.items()}
        for (a, b), h in pairs.items():
            assert a < b and h["matches"] == 1
            assert h["a_ahead"] == int(totals[name_of[a]] > totals[name_of[b]])
            assert h["b_ahead"] == int(totals[name_of[b]] > totals[name_of[a]])
        assert (await get(anna, "/api/history/stats?game=doppelkopf")).json()["players"][0][
            "deals"
        ] == 0

        for client in [*clients, sepp, xaver, nobody]:
            await client.aclose()

    run(scenario())


# ---------------------------------------------------------------- filters, Doppelkopf


def test_filters_and_a_doppelkopf_evening(play_server: tuple[str, str]) -> None:
    base, db_url = play_server

    async def scenario() -> None:
        tarock, tarock_room, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(tarock[0], tarock_room)
        anna = tarock[0]
        dk, dk_room, token = await make_room(base, "doppelkopf", ["Dora", "Emil", "Fritz"])
        joined = await anna.http.post(f"/api/invite/{token}/join", json={"role": "player"})
        joined.raise_for_status()
        table = [*dk, anna]
        await start(dk[0], dk_room)
        await connect_all(table, dk_room)
        await play_to_end(table, seed=21)
        await settle(table, anna.version)
        snapshot = anna.snapshot
        assert snapshot is not None and snapshot["match"]["finished"]
        sheet = snapshot["match"]["sheet"]

        listing = (await get(anna, "/api/history/matches")).json()
        games = [m["game"] for m in listing["matches"]]
        assert games == ["doppelkopf", "dreierles"]  # newest first
        dk_match = listing["matches"][0]
        assert dk_match["totals"] == sheet["counters"]  # Doppelkopf counts down
        names = {c.user_id: c.name for c in [*tarock, *dk]}
        assert listing["fellows"] == [
            {"user_id": u, "name": n, "computer": None}
            for n, u in sorted((n, u) for u, n in names.items() if u != anna.user_id)
        ]
        bernd, dora = tarock[1].user_id, dk[0].user_id

        async def ids(query: str) -> list[str]:
            body = (await get(anna, f"/api/history/matches?{query}")).json()
            return [m["game"] for m in body["matches"]]

        assert await ids(f"with={bernd}") == ["dreierles"]
        assert await ids(f"with={dora}") == ["doppelkopf"]
        assert await ids("game=doppelkopf") == ["doppelkopf"]
        assert await ids(f"game=dreierles&with={dora}") == []
        assert await ids("game=tarock-zu-dritt") == []
        assert await ids(f"with={anna.user_id}") == ["doppelkopf", "dreierles"]
        api_error(await get(anna, "/api/history/matches?with=abc"), 422, "invalid_request")
        # Bernd sees only the match of his room, and only Anna and Catrin as fellows
        bernd_list = (await get(tarock[1], "/api/history/matches")).json()
        assert [m["game"] for m in bernd_list["matches"]] == ["dreierles"]
        assert {f["name"] for f in bernd_list["fellows"]} == {"Anna", "Catrin"}

        detail = (await get(dk[0], f"/api/history/matches/{dk_match['id']}")).json()
        assert detail["sheet"] == sheet
        rows = sheet["rows"]
        for name in sheet["players"]:
            assert detail["series"]["players"][name] == [30] + [r["counters"][name] for r in rows]
        depot = sorted((p["player"], p["cents"]) for p in detail["pots"])
        assert depot == sorted((n, c) for n, c in sheet["depot_cents"].items())
        # the Depot is moved by the deal that ended the evening, the reason a code
        assert all(p["pot"] == "depot" and p["deal_number"] == rows[-1]["number"]
                   for p in detail["pots"])  # fmt: skip
        assert {p["player"]: p["params"] for p in detail["pots"]} == {
            n: {"placing": place} for n, place in sheet["placings"].items()
        }
        assert {p["reason"] for p in detail["pots"]} == {"placing"}
        # the replay of that deal names what it moved, an earlier deal's nothing
        by_number = {d["number"]: d["id"] for d in detail["deals"]}
        last = await get(dk[0], f"/api/history/deals/{by_number[rows[-1]['number']]}/replay")
        assert last.json()["source"]["pots"] == detail["pots"]
        first = await get(dk[0], f"/api/history/deals/{by_number[rows[0]['number']]}/replay")
        assert first.json()["source"]["pots"] == ([] if len(rows) > 1 else detail["pots"])
        assert [d["settlement"] for d in detail["deals"]] == [r["points"] for r in rows]

        deals = [d for d in await stored_deals(db_url) if d["record"]["game"] == "doppelkopf"]
        stats = (await get(anna, "/api/history/stats?game=doppelkopf")).json()
        by_name = {p["name"]: p for p in stats["players"]}
        assert set(by_name) == {"Anna", "Dora", "Emil", "Fritz"}  # Bernd played no Doppelkopf
        for name, got in by_name.items():
            seated = [d for d in deals if name in d["record"]["seats"]]
            assert got["deals"] == len(seated) == len(rows)
            assert got["points"] == sum(
                d["outcome"]["settlement"][d["record"]["seats"].index(name)] for d in seated
            )
            solo_rows = [r for r in rows if r["declarer"] == name and r["contract"] not in (
                "normal", "hochzeit", "armut", "stille_hochzeit", "schmeissen")]  # fmt: skip
            assert got["solos"] == len(solo_rows)
            assert got["extra"] == {"pflichtsoli": sum(r["obligatory"] for r in solo_rows)}
        assert stats["figures"] == [
            {"key": "pflichtsoli", "label": "archive.stats.doppelkopf.pflichtsoli"}
        ]
        # both games together: Doppelkopf's figure, counted in Doppelkopf's deals only
        both = (await get(anna, "/api/history/stats")).json()
        assert both["figures"] == stats["figures"]
        for got in both["players"]:
            if got["name"] in by_name:
                assert got["extra"] == by_name[got["name"]]["extra"]
            else:
                assert got["extra"] == {"pflichtsoli": 0}
        pairs = stats["head_to_head"]
        assert len(pairs) == 6 and all(h["matches"] == 1 for h in pairs)
        counters = sheet["counters"]
        for h in pairs:
            a, b = names[h["a"]], names[h["b"]]
            assert h["a_ahead"] == int(counters[a] < counters[b])
            assert h["b_ahead"] == int(counters[b] < counters[a])

        for client in [*tarock, *dk]:
            await client.aclose()

    run(scenario())


# ---------------------------------------------------------------- uploads


def test_uploaded_records_are_checked_strictly(live_server: str) -> None:
    record: dict[str, Any] = json.loads((GOLDEN / "dreierles" / "einer.json").read_text())

    async def scenario() -> None:
        anna = await guest(live_server, "Anna")
        post = anna.http.post

        replay = (await post("/api/records/replay", json=record)).json()
        assert replay["source"] is None and replay["outcome"] == record["outcome"]
        assert replay["game"] == "dreierles" and replay["seats"] == record["seats"]
        assert replay["steps"][0]["hands"][0][0] == "T9"

        async def refused(body: bytes, status: int, code: str) -> dict[str, str]:
            response = await post(
                "/api/records/replay", content=body, headers={"content-type": "application/json"}
            )
            return api_error(response, status, code)

        error = await refused(b'{"format": "stammtisch-deal",', 422, "bad_record")
        assert error["message"].startswith("line 1 column") and "JSON" in error["message"]
        error = await refused(b"[1, 2]", 422, "bad_record")
        assert "object" in error["message"]
        wrong = {**record, "format": "pgn"}
        error = await refused(json.dumps(wrong).encode(), 422, "bad_record")
        assert error["message"].startswith("format:")
        tampered = copy.deepcopy(record)
        tampered["actions"][7] = [0, "play Kr10"]  # Anna holds PC and must follow Pik
        error = await refused(json.dumps(tampered).encode(), 422, "bad_record")
        assert error["message"].startswith("actions[7] (0, 'play Kr10'): Farbzwang")
        assert error["message_de"].startswith("actions[7] (0, 'play Kr10'): Farbzwang")
        changed = copy.deepcopy(record)
        changed["outcome"]["settlement"] = [0, 0, 0]
        error = await refused(json.dumps(changed).encode(), 422, "bad_record")
        assert error["message"].startswith("outcome:")
        error = await refused(json.dumps({**record, "cheat": 1}).encode(), 422, "bad_record")
        assert error["message"].startswith("cheat: unknown field")
        error = await refused(b"\xff\xfe", 422, "bad_record")
        padded = json.dumps({**record, "seats": record["seats"]}) + " " * (256 * 1024)
        error = await refused(padded.encode(), 413, "record_too_large")
        assert "256 KiB" in error["message"]
        # a running deal from an upload is fine: whoever uploads it holds all of it already
        unfinished = {k: v for k, v in record.items() if k != "outcome"}
        unfinished["actions"] = record["actions"][:10]
        partial = (await post("/api/records/replay", json=unfinished)).json()
        assert partial["outcome"] is None and len(partial["steps"]) == 11
        await anna.aclose()

    run(scenario())


# ---------------------------------------------------------------- the store's queries


def test_the_store_reads_with_one_query_per_kind_of_row(store_db: TestDatabase) -> None:
    """However many matches and deals there are, the archive's reads issue the same number of
    statements (no query per match or per deal), and a non-member sees nothing."""
    record: dict[str, Any] = json.loads((GOLDEN / "dreierles" / "einer.json").read_text())
    chance = {k: v for k, v in record.items() if k not in ("actions", "outcome")}

    async def scenario(sessions: async_sessionmaker[AsyncSession]) -> None:
        engine = sessions.kw["bind"]
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(args[2])

        async with sessions() as db:
            anna, bernd, catrin, xaver = [
                await accounts.create_guest(db, n) for n in ("Anna", "Bernd", "Catrin", "Xaver")
            ]
            room = await rooms.create_room(db, anna, name="Tarock", game="dreierles")
            await db.flush()
            for user in (bernd, catrin):
                await rooms.join_room(db, room, user, "player")
            await db.commit()
            players, ids = ["Anna", "Bernd", "Catrin"], [anna.id, bernd.id, catrin.id]

        async def add_match() -> None:
            async with sessions() as db:
                match = Match(
                    room_id=room.id,
                    game="dreierles",
                    players=players,
                    player_ids=ids,
                    config={},
                    status="finished",
                )
                db.add(match)
                await db.flush()
                for number in (1, 2, 3):
                    deal = DealRow(
                        match_id=match.id,
                        number=number,
                        record=chance,
                        outcome=record["outcome"],
                        finished_at=datetime.now(UTC),
                        ledger={"entries": [
                            {"player": p, "points": pts, "total_points": number * pts,
                             "cents": 10 * pts, "total_cents": 10 * number * pts}
                            for p, pts in zip(players, record["outcome"]["settlement"], strict=True)
                        ]},
                    )  # fmt: skip
                    db.add(deal)
                    await db.flush()
                    db.add_all(
                        ActionRow(deal_id=deal.id, seq=i, seat=s, text=t)
                        for i, (s, t) in enumerate(record["actions"])
                    )
                    db.add_all(
                        ScoreEntry(
                            match_id=match.id, deal_id=deal.id, player=p, points=pts, cents=10 * pts
                        )
                        for p, pts in zip(players, record["outcome"]["settlement"], strict=True)
                    )
                await db.commit()

        settlement = dict(zip(players, record["outcome"]["settlement"], strict=True))

        async def reads() -> tuple[int, int]:
            async with sessions() as db:
                statements.clear()
                event.listen(engine.sync_engine, "before_cursor_execute", count)
                try:
                    matches = await history.visible_matches(db, bernd.id)
                    deals = await history.deals_of_matches(db, [m.id for m in matches])
                    assert await history.visible_matches(db, xaver.id) == []
                    assert await history.match_for_member(db, xaver.id, matches[0].id) is None
                    first = deals[matches[0].id][0]
                    assert await history.deal_for_member(db, xaver.id, first.id) is None
                    found = await history.deal_for_member(db, catrin.id, first.id)
                    assert found is not None and found.deal.actions == [
                        tuple(a) for a in record["actions"]
                    ]
                finally:
                    event.remove(engine.sync_engine, "before_cursor_execute", count)
                assert all(m.deals_finished == 3 for m in matches)
                assert all(m.totals == {p: 3 * s for p, s in settlement.items()} for m in matches)
                assert all(
                    m.money_cents == {p: 30 * s for p, s in settlement.items()} for m in matches
                )
                assert all(
                    len(d) == 3 and len(d[0].actions) == len(record["actions"])
                    for d in deals.values()
                )
                return len(matches), len(statements)

        await add_match()
        await add_match()
        few = await reads()
        for _ in range(4):
            await add_match()
        many = await reads()
        assert (few[0], many[0]) == (2, 6)
        assert few[1] == many[1]  # the same statements for 2 and for 6 matches

    run_with_sessions(store_db, scenario)
