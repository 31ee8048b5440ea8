"""The table runtime over real sockets: a real uvicorn server, real WebSocket clients.

Every test plays through the documented protocol only. Afterwards the stored deals are
read back from the database and replayed by the engine: what the clients were told must
be exactly what the engine says each seat may see, and nothing may be lost or doubled.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.pool import NullPool

from server.engine.base import Deal
from server.engine.infoset import InfosetOracle
from server.engine.playout import card_names, cards_in_view
from server.engine.record import load_record
from server.store.db import make_engine
from server.store.models import ActionRow, DealRow, Match, PotMovement, ScoreEntry
from tests.support import server_process
from tests.table_client import Client, make_room, settle, start, step

# ---------------------------------------------------------------- helpers


async def stored_deals(db_url: str) -> list[dict[str, Any]]:
    """Every stored deal (record, outcome, actions) in order, read back from the database."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            deals = (
                await db.execute(
                    select(
                        DealRow.id,
                        DealRow.match_id,
                        DealRow.number,
                        DealRow.record,
                        DealRow.outcome,
                    ).order_by(DealRow.match_id, DealRow.number)
                )
            ).all()
            result = []
            for deal_id, match_id, number, record, outcome in deals:
                rows = (
                    await db.execute(
                        select(ActionRow.seq, ActionRow.seat, ActionRow.text)
                        .where(ActionRow.deal_id == deal_id)
                        .order_by(ActionRow.seq)
                    )
                ).all()
                assert [seq for seq, _, _ in rows] == list(range(len(rows))), "gap in the log"
                result.append({"id": deal_id, "match_id": match_id, "number": number,
                               "record": record, "outcome": outcome,
                               "actions": [[seat, text] for _, seat, text in rows]})  # fmt: skip
            return result
    finally:
        await engine.dispose()


async def pot_movements(db_url: str) -> list[tuple[str, str, int]]:
    return sorted((pot, player, cents) for pot, player, cents, *_ in await pot_rows(db_url))


async def pot_rows(db_url: str) -> list[tuple[str, str, int, str, str, Any, int | None]]:
    """Every stored pot movement: pot, player, amount, unit, reason, params, deal id."""
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            rows = await db.execute(
                select(PotMovement.pot, PotMovement.player, PotMovement.cents, PotMovement.unit,
                       PotMovement.reason, PotMovement.params, PotMovement.deal_id)
                .order_by(PotMovement.id)
            )  # fmt: skip
            return [tuple(row) for row in rows.all()]
    finally:
        await engine.dispose()


async def count_matches(db_url: str) -> int:
    engine = make_engine(db_url, poolclass=NullPool)
    try:
        async with engine.connect() as db:
            return len((await db.execute(select(Match.id))).all())
    finally:
        await engine.dispose()


def replay(deal: dict[str, Any], upto: int | None = None) -> Deal:
    """The stored deal after its first ``upto`` actions (all by default)."""
    actions = deal["actions"] if upto is None else deal["actions"][:upto]
    return load_record({**deal["record"], "actions": actions})


def check_messages(client: Client, deals: list[dict[str, Any]]) -> int:
    """Every snapshot and event ``client`` received equals the engine's view for its seat at
    that step, names no card hidden from it, and is a function of what the seat may know:
    the information-set oracle finds no alternative deal (other hands, blind or masked
    actions) that the seat cannot tell from this one but that would have shown it another
    view there. Returns the number of views checked."""
    names = None
    checked = 0
    deal_index = -1
    step_no = 0
    oracles: dict[int, InfosetOracle] = {}
    for message in client.messages:
        if message["type"] == "snapshot":
            deal_index = message["match"]["deal_number"] - 1
            deal = deals[deal_index]
            step_no = len(deal["actions"]) if message["view"]["phase"] == "finished" else 0
            if message["view"]["phase"] != "finished":
                # a snapshot on (re)connect may come in the middle of a deal
                step_no = _steps_seen(message["view"], deal)
        elif message["type"] == "event":
            step_no += 1
        else:
            continue
        deal = deals[deal_index]
        engine = replay(deal, step_no)
        seat = message["view"]["seat"]
        expected = json.loads(json.dumps(engine.view(seat)))
        assert message["view"] == expected, (client.name, deal_index, step_no)
        if message["type"] == "event":
            assert message["action"] == engine.action_seen_by(step_no - 1, seat)
        names = names or card_names(engine.rules.pack)
        hidden = engine.hidden_from(seat)
        for mask in cards_in_view(message, names):
            assert mask & hidden != mask, (client.name, "was shown a hidden card", message)
        if deal_index not in oracles:
            oracles[deal_index] = InfosetOracle.of(replay(deal))
        rng = random.Random(f"{client.name}:{deal_index}:{step_no}")
        leaks = oracles[deal_index].check(rng, [seat], at=step_no)
        assert not leaks, (client.name, deal_index, step_no, [str(leak) for leak in leaks])
        checked += 1
    return checked


async def join_as_spectator(base_url: str, token: str) -> Client:
    """A new account that joins the room of invite ``token`` as a spectator."""
    watcher = Client(base_url, "Kiebitz")
    await watcher.register()
    joined = await watcher.http.post(f"/api/invite/{token}/join", json={"role": "spectator"})
    joined.raise_for_status()
    return watcher


def _steps_seen(view: dict[str, Any], deal: dict[str, Any]) -> int:
    """How many actions of ``deal`` had happened when ``view`` was made."""
    for upto in range(len(deal["actions"]) + 1):
        engine = replay(deal, upto)
        if json.loads(json.dumps(engine.view(view["seat"]))) == view:
            return upto
    raise AssertionError("a snapshot that matches no state of the deal")


async def play_to_end(clients: list[Client], seed: int, limit: int = 5000) -> int:
    """Play random legal actions until nobody is to move; return the number of actions."""
    rng = random.Random(seed)
    count = 0
    while count < limit and await step(clients, rng):
        count += 1
    return count


async def connect_all(clients: list[Client], room: int) -> None:
    for client in clients:
        await client.connect(room)
    await settle(clients, 0)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# ---------------------------------------------------------------- whole matches


def test_a_full_dreierles_match_through_the_protocol(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        players, room, token = await make_room(
            live_server, "dreierles", ["Anna", "Bernd", "Catrin"]
        )
        clients = [*players, await join_as_spectator(live_server, token)]
        await start(clients[0], room)
        await connect_all(clients, room)
        actions = await play_to_end(clients, seed=1)
        assert actions > 3 * 40
        sheet = clients[0].snapshot["match"]["sheet"]  # type: ignore[index]
        assert clients[0].snapshot["match"]["finished"]  # type: ignore[index]
        assert len(sheet["rows"]) == 3 and sum(sheet["totals"].values()) == 0
        deals = await stored_deals(db_url)
        assert len(deals) == 3 and sum(len(d["actions"]) for d in deals) == actions
        for deal in deals:  # every stored deal replays to exactly its stored outcome
            assert deal["outcome"] == json.loads(json.dumps(replay(deal).outcome()))
        for client in clients:
            assert check_messages(client, deals) > 100
            await client.aclose()

    run(scenario())


def test_a_doppelkopf_deal_through_the_protocol(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        names = ["Ute", "Paul", "Rita", "Olaf"]
        players, room, token = await make_room(live_server, "doppelkopf", names)
        clients = [*players, await join_as_spectator(live_server, token)]
        await start(clients[0], room)
        await connect_all(clients, room)
        await play_to_end(clients, seed=2)
        deals = await stored_deals(db_url)
        assert deals and all(d["outcome"] is not None for d in deals)
        sheet = clients[0].snapshot["match"]["sheet"]  # type: ignore[index]
        assert clients[0].snapshot["match"]["finished"]  # type: ignore[index]
        depot = {name: place * 50 for name, place in sheet["placings"].items()}
        assert await pot_movements(db_url) == sorted(("depot", n, c) for n, c in depot.items())
        # stored with the deal that ended the evening, the reason a code with its placing
        evening = [d for d in deals if d["record"]["game"] == "doppelkopf"]
        last = max(evening, key=lambda d: (d["match_id"], d["number"]))
        assert sorted(r[1:] for r in await pot_rows(db_url)) == sorted(
            (name, cents, "cents", "placing", {"placing": sheet["placings"][name]}, last["id"])
            for name, cents in depot.items()
        )
        assert sheet["pots"] == {"depot": depot}
        for client in clients:
            check_messages(client, deals)
            await client.aclose()

    run(scenario())


def test_four_at_a_dreierles_table_the_dealer_sits_out(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        names = ["Anna", "Bernd", "Catrin", "Dieter"]
        clients, room, _ = await make_room(live_server, "dreierles", names)
        await start(clients[0], room)
        await connect_all(clients, room)
        dealer = clients[0].view["dealer"]  # type: ignore[index]
        sitter = next(c for c in clients if c.name == dealer)
        assert sitter.seat is None and sitter.view["hand"] is None  # type: ignore[index]
        assert sitter.view["legal_actions"] == []  # type: ignore[index]
        await sitter.send({"type": "action", "action": "pass", "v": sitter.version, "id": 1})
        error = await sitter.expect("error")
        assert error["code"] == "not_seated"
        rng = random.Random(3)
        for _ in range(20):
            await step(clients, rng)
        deals = await stored_deals(db_url)
        for client in clients:
            check_messages(client, deals)
            await client.aclose()

    run(scenario())


def test_four_at_a_doppen_table_the_sitting_out_dealer_pays_like_an_opponent(
    play_server: tuple[str, str],
) -> None:
    """DP-A20: the stored score entries of a deal charge (or pay) the dealer who sat out as
    an opponent: the money of each entry is the declarer's result against each of three
    opponents, while its points are the sheet's Kirchberg column (the declarer's entry in
    cents, nothing for the others), so that the archive agrees with the sheet."""
    live_server, db_url = play_server

    async def entries(deal_id: int) -> dict[str, tuple[int, int]]:
        engine = make_engine(db_url, poolclass=NullPool)
        try:
            async with engine.connect() as db:
                rows = await db.execute(
                    select(ScoreEntry.player, ScoreEntry.points, ScoreEntry.cents).where(
                        ScoreEntry.deal_id == deal_id
                    )
                )
                return {player: (points, cents) for player, points, cents in rows.all()}
        finally:
            await engine.dispose()

    async def scenario() -> None:
        names = ["Anna", "Bernd", "Catrin", "Dieter"]
        clients, room, _ = await make_room(live_server, "doppen", names, rounds=12)
        await start(clients[0], room)
        await connect_all(clients, room)
        rng = random.Random(5)
        played: list[dict[str, Any]] = []
        for _ in range(400):  # until a deal with a declarer is over
            await step(clients, rng)
            played = [d for d in await stored_deals(db_url) if d["outcome"]]
            if any(d["outcome"]["declarer"] is not None for d in played):
                break
        deal = next(d for d in played if d["outcome"]["declarer"] is not None)
        seats, dealer = deal["record"]["seats"], deal["record"]["dealer"]
        assert dealer not in seats
        amount = deal["outcome"]["per_opponent"]
        assert amount != 0
        declarer = seats[deal["outcome"]["declarer"]]
        stake = deal["record"]["stake_cents"]
        shares = {n: (3 * amount if n == declarer else -amount) for n in names}
        column = {n: (amount * stake if n == declarer else 0) for n in names}
        assert await entries(deal["id"]) == {n: (column[n], shares[n] * stake) for n in names}
        for client in clients:
            await client.aclose()

    run(scenario())


# ---------------------------------------------------------------- disconnects and restarts


def test_reconnect_in_the_middle_of_a_trick(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(clients[0], room)
        await connect_all(clients, room)
        rng = random.Random(4)
        while not (clients[0].view and clients[0].view["phase"] == "play"
                   and len(clients[0].view["trick"]["cards"]) == 1):  # fmt: skip
            await step(clients, rng)
        leaver = next(c for c in clients if c.my_turn())
        others = [c for c in clients if c is not leaver]
        before_view, before_version = leaver.view, leaver.version
        await leaver.close_socket()
        presence = await others[0].expect("presence")
        assert leaver.user_id not in presence["online"]
        snapshot = await leaver.connect(room)  # a new device, same account
        assert snapshot["v"] == before_version and snapshot["view"] == before_view
        assert leaver.user_id in (await others[0].expect("presence"))["online"]
        await play_to_end(clients, seed=5)
        for client in clients:
            check_messages(client, await stored_deals(db_url))
            await client.aclose()

    run(scenario())


def test_restart_in_the_middle_of_a_deal_loses_nothing(play_db_url: str, tmp_path: Path) -> None:
    db_url = play_db_url
    log_path = tmp_path / "server.log"

    async def first_half(base: str) -> tuple[list[Client], int, int]:
        clients, room, _ = await make_room(base, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(clients[0], room)
        await connect_all(clients, room)
        rng = random.Random(6)
        acted = 0
        while not (clients[0].view and clients[0].view["phase"] == "play"
                   and len(clients[0].view["trick"]["cards"]) == 2):  # fmt: skip
            await step(clients, rng)
            acted += 1
        return clients, room, acted

    async def second_half(clients: list[Client], room: int, base: str, acted: int) -> None:
        before = [c.view for c in clients]
        for client in clients:
            await client.close_socket()
            client.move_to(base)
            snapshot = await client.connect(room)
            assert snapshot["view"] == before[clients.index(client)]
        # the last action message sent again (its answer was lost in the crash) is known
        # to the restarted table as its sender's, and only as his
        seat, text = (await stored_deals(db_url))[-1]["actions"][-1]
        sender = next(c for c in clients if c.seat == seat)
        message = {"type": "action", "action": text, "v": acted - 1, "id": text}
        await sender.send(message)
        assert await sender.expect("ack") == {"type": "ack", "id": text, "v": acted,
                                              "duplicate": True}  # fmt: skip
        other = next(c for c in clients if c is not sender)
        await other.send(message)
        assert (await other.expect("error"))["code"] == "stale_version"
        acted += await play_to_end(clients, seed=7)
        deals = await stored_deals(db_url)
        assert sum(len(d["actions"]) for d in deals) == acted  # nothing lost, nothing twice
        for deal in deals:
            assert deal["outcome"] == json.loads(json.dumps(replay(deal).outcome()))
        for client in clients:
            check_messages(client, deals)
        for client in clients:
            await client.aclose()

    with server_process(db_url, log_path) as (base, process):
        loop = asyncio.new_event_loop()
        clients, room, acted = loop.run_until_complete(first_half(base))
        os.kill(process.pid, signal.SIGKILL)  # no shutdown, no flush: a crash
        process.wait()
    with server_process(db_url, log_path) as (base, _):
        loop.run_until_complete(second_half(clients, room, base, acted))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    assert "recovered" in log_path.read_text()


# ---------------------------------------------------------------- bad input


def test_bad_input_gets_a_clear_error_and_changes_nothing(play_server: tuple[str, str]) -> None:
    live_server, _ = play_server

    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"])
        outsiders, other_room, _ = await make_room(live_server, "dreierles", ["Xaver"])
        outsider = outsiders[0]
        await start(clients[0], room)
        await connect_all(clients, room)
        anna = next(c for c in clients if c.my_turn())
        bernd = next(c for c in clients if not c.my_turn())
        version = anna.version

        async def refused(client: Client, message: dict[str, Any] | str, code: str) -> None:
            await client.send(message)
            error = await client.expect("error")
            assert error["code"] == code, error
            assert error["message"] and error["message_de"]
            await client.send({"type": "ping", "id": "still-there"})
            assert (await client.expect("pong"))["id"] == "still-there"

        await refused(anna, "{not json", "malformed_json")
        await refused(anna, {"type": "teleport"}, "unknown_type")
        await refused(anna, {"type": "action"}, "bad_message")
        await refused(anna, {"type": "chat", "text": "x" * 5000}, "message_too_large")
        await refused(anna, {"type": "action", "action": "bid vierer", "v": version},
                      "unknown_contract")  # fmt: skip
        await refused(anna, {"type": "action", "action": "play HK", "v": version}, "wrong_phase")
        await refused(bernd, {"type": "action", "action": "pass", "v": version}, "not_your_turn")
        await refused(anna, {"type": "action", "action": "pass", "v": version - 1},
                      "stale_version")  # fmt: skip
        await refused(anna, {"type": "action", "action": "pass", "v": version,
                             "seat": (anna.seat + 1) % 3}, "not_your_seat")  # type: ignore[operator]  # fmt: skip
        await refused(anna, {"type": "hello", "room": other_room}, "not_a_member")
        await outsider.open_socket()
        await refused(outsider, {"type": "hello", "room": room}, "not_a_member")
        await refused(outsider, {"type": "action", "action": "pass"}, "hello_first")
        # nothing changed: same version everywhere, and the table still plays
        await asyncio.sleep(0.1)
        assert all(c.version == version for c in clients)
        await anna.send({"type": "action", "action": "pass", "v": version, "id": "ok"})
        assert (await anna.expect_ack("ok"))["v"] == version + 1  # the event, with the id
        await settle(clients, version + 1)
        others = [m for c in clients if c is not anna for m in c.messages
                  if m.get("v") == version + 1]  # fmt: skip
        assert len(others) == 2 and not any("id" in m for m in others)  # only the sender's
        # a flood is rate-limited, and the connection survives it
        for i in range(250):
            await bernd.send({"type": "ping", "id": i}, paced=False)
        codes = []
        for _ in range(250):
            message = await bernd.expect_any(("pong", "error"))
            codes.append(message.get("code", "pong"))
        assert "rate_limited" in codes and codes[0] == "pong"
        await asyncio.sleep(0.5)
        await bernd.send({"type": "ping", "id": "after"})
        assert (await bernd.expect("pong"))["id"] == "after"
        for client in [*clients, outsider]:
            await client.aclose()

    run(scenario())


def test_not_logged_in_is_refused(live_server: str) -> None:
    async def scenario() -> None:
        from websockets.asyncio.client import connect

        async with connect(live_server.replace("http://", "ws://") + "/ws") as ws:
            message = json.loads(await ws.recv())
            assert message["code"] == "login_required"

    run(scenario())


def test_chat_is_relayed_as_plain_text(live_server: str) -> None:
    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(clients[0], room)
        await connect_all(clients, room)
        text = "<b>Servus</b> & <script>alert(1)</script>"
        await clients[0].send({"type": "chat", "text": text})
        for client in clients:
            message = await client.expect("chat")
            assert message["text"] == text and message["name"] == "Anna"
        for client in clients:
            await client.aclose()

    run(scenario())


def test_chat_is_cleaned_of_bidi_overrides_and_invisible_characters(live_server: str) -> None:
    """As display names refuse them: a right-to-left override would turn the rest of the
    line (and what the client shows after it) around, zero-width characters hide text."""

    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"])
        await start(clients[0], room)
        await connect_all(clients, room)
        sent = "Gut\u202egespielt\u202c \u200bBernd\u2066!\u2069\ufeff \U0001f468\u200d\U0001f469"
        await clients[0].send({"type": "chat", "text": sent})
        for client in clients:
            message = await client.expect("chat")
            assert message["text"] == "Gutgespielt Bernd! \U0001f468\u200d\U0001f469"
        await clients[0].send({"type": "chat", "text": "\u200b\u202e\u2800\u200d", "id": "c2"})
        refusal = await clients[0].expect("error")
        assert refusal["code"] == "bad_chat" and refusal.get("id") == "c2"
        for client in clients:
            await client.aclose()

    run(scenario())


def test_two_starts_at_once_make_one_match(play_server: tuple[str, str]) -> None:
    live_server, db_url = play_server

    async def scenario() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Catrin"])
        host = clients[0]
        first, second = await asyncio.gather(
            host.http.post(f"/api/rooms/{room}/start"), host.http.post(f"/api/rooms/{room}/start")
        )
        assert sorted([first.status_code, second.status_code]) == [200, 409]
        refused = first if first.status_code == 409 else second
        assert refused.json()["error"]["code"] == "room_not_open"
        assert await count_matches(db_url) == 1
        for client in clients:
            await client.aclose()

    run(scenario())


def test_turn_timer_plays_the_first_legal_action(live_server: str, migrated_db_url: str) -> None:
    async def scenario() -> None:
        names = ["Anna", "Bernd", "Catrin"]
        clients, room, _ = await make_room(
            live_server, "dreierles", names, timer_seconds=10, standin=False
        )  # the passive move, no stand-in
        await start(clients[0], room)
        await connect_all(clients, room)
        assert clients[0].snapshot["match"]["timer_seconds"] == 10  # type: ignore[index]
        waiting = next(c for c in clients if c.my_turn())
        first_legal = waiting.view["legal_actions"][0]  # type: ignore[index]
        event = await clients[1].expect("event", timeout=20)  # nobody acts: the timer does
        assert event["auto"] is True and event["seat"] == waiting.seat
        assert event["action"] == first_legal and event["v"] == 1
        deals = await stored_deals(migrated_db_url)
        assert deals[0]["actions"] == [[waiting.seat, first_legal]]
        for client in clients:
            await client.aclose()

    run(scenario())


def test_turn_timer_says_gut_where_the_first_legal_action_would_announce(
    live_server: str,
) -> None:
    """A Doppen declarer who lets the time run out in the announcements says "gut": the
    timer does not announce a Valat for him (his first legal action)."""

    async def act(clients: list[Client], choose: Any) -> None:
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        text = choose(actor.view["legal_actions"])
        await actor.send({"type": "action", "action": text, "v": actor.version, "id": text})
        event = await actor.expect_ack(text)
        await settle(clients, event["v"])

    async def scenario() -> None:
        names = ["Anna", "Bernd", "Catrin"]
        clients, room, _ = await make_room(
            live_server, "doppen", names, timer_seconds=10, rounds=3, standin=False
        )
        await start(clients[0], room)
        await connect_all(clients, room)
        await act(clients, lambda _legal: "bid dreier")
        while clients[0].view["phase"] == "auction":  # type: ignore[index]
            await act(clients, lambda _legal: "pass")
        while clients[0].view["phase"] in ("talon", "discard"):  # type: ignore[index]
            await act(clients, lambda legal: legal[0])
        declarer = next(c for c in clients if c.my_turn())
        assert declarer.view is not None and declarer.view["phase"] == "announce"
        assert declarer.view["legal_actions"][0].startswith("announce")
        event = await declarer.expect("event", timeout=20)  # nobody acts: the timer does
        assert event["auto"] is True and event["seat"] == declarer.seat
        assert event["action"] == "gut"
        for client in clients:
            await client.aclose()

    run(scenario())


def test_sqlite_action_log_commits_inline_and_waits_off_the_loop_for_the_lock(
    migrated_db_url: str,
) -> None:
    """The SQLite action log commits on the event loop only when the write lock is free; when
    another connection holds it, the batch waits on the log's thread (the loop keeps running)
    and is committed once the lock is released. A batch that breaks a rule stores nothing."""
    import sqlite3

    import pytest

    from server.store.db import sqlite_file
    from server.store.log import SqliteWriter

    path = sqlite_file(migrated_db_url)
    assert path is not None
    other = sqlite3.connect(path, isolation_level=None)
    now = "CURRENT_TIMESTAMP"
    for statement in (
        "INSERT INTO users (id, display_name, is_guest, language, created_at) "
        f"VALUES (1, 'Anna', 0, 'de', {now})",
        "INSERT INTO rooms (id, invite_token, host_id, name, game, options, stake_cents, "
        "rounds, allow_spectators, status, created_at) "
        f"VALUES (1, 't', 1, 'r', 'dreierles', '{{}}', 10, 1, 1, 'playing', {now})",
        "INSERT INTO matches (id, room_id, game, players, player_ids, config, status, "
        f"started_at) VALUES (1, 1, 'dreierles', '[]', '[]', '{{}}', 'running', {now})",
        "INSERT INTO deals (id, match_id, number, record, started_at) "
        f"VALUES (1, 1, 1, '{{}}', {now})",
    ):
        other.execute(statement)

    async def scenario() -> None:
        action_log = SqliteWriter(path)
        await action_log.commit([(1, 0, 0, "pass", None), (1, 1, 1, "pass", None)])
        assert (action_log.inline, action_log.deferred) == (1, 0)

        other.execute("BEGIN IMMEDIATE")  # somebody else is writing
        loop = asyncio.get_running_loop()
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticking = asyncio.create_task(ticker())
        loop.call_later(0.3, other.execute, "COMMIT")
        await action_log.commit([(1, 2, 2, "bid zweier", None)])
        ticking.cancel()
        assert (action_log.inline, action_log.deferred) == (1, 1)
        assert ticks >= 10  # the loop ran while the batch waited for the lock

        with pytest.raises(sqlite3.IntegrityError):  # seq 2 again: the whole batch fails
            await action_log.commit([(1, 3, 0, "pass", None), (1, 2, 0, "pass", None)])
        await action_log.close()

    run(scenario())
    rows = other.execute("SELECT seq, seat, text FROM actions ORDER BY seq").fetchall()
    assert rows == [(0, 0, "pass"), (1, 1, "pass"), (2, 2, "bid zweier")]
    other.close()
