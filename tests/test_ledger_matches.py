"""One ledger for every deal, over random complete matches through the real server.

For every game of the registry, random matches are played by scripted WebSocket clients
against a real uvicorn server, on SQLite and on PostgreSQL, with the options that change
money drawn from the game's description (every per-room option and match option, the
stake including 0, three or four people where the game allows both); some matches are
ended early by the agreement of all players, between deals or in the middle of one.

Deal by deal, the finished deal's ledger the table sends (``snapshot.match.ledger``) is
the sheet's row's ``ledger``, the archive's deal row and the replay's ``source.ledger``;
its points are the row's values, its totals the row's totals; the money between the
players adds up to nothing, and the money with the pots too. At the end the archive list,
the sheet and the final settlement agree on totals, money and placings, money and pots
add up to nothing, the payments settle what the players owe each other, and the
statistics of every member of the circle are the sums over the matches he sees.

The number of matches per game and database is ``STAMMTISCH_LEDGER_MATCHES`` (25 by
default: 50 per game in CI, which runs both databases); a failure prints the seed of the
test's plans (the server deals with its own random generator, so a failing match is found
again by its numbers in the message rather than replayed).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from server.engine.registry import GAMES, describe, playable
from tests.support import postgres_database, sqlite_url, upgrade, uvicorn_subprocess
from tests.table_client import COOKIE, Client, next_deal, settle

MATCHES_PER_GAME = int(os.environ.get("STAMMTISCH_LEDGER_MATCHES", "25"))
#: Matches played at the same time on one server.
AT_ONCE = int(os.environ.get("STAMMTISCH_LEDGER_AT_ONCE", "8"))
#: A match that has not ended by itself after this many deals is ended by agreement (a
#: Doppelkopf evening whose lost solos are played again and again).
MOST_DEALS = 14
PEOPLE = ("Anna", "Bernd", "Carl", "Dora", "Emil")
STAKES = (0, 1, 10, 25)
PLAYABLE = playable()

JSON = dict[str, Any]


# ---------------------------------------------------------------- the server and its circle


@dataclass
class Played:
    """One match as the table showed it."""

    game: str
    match_id: int
    room: int
    players: list[str]
    ids: dict[str, int]
    #: per finished deal: the snapshot's ledger, the sheet's row and how it was set up
    deals: list[JSON] = field(default_factory=list)
    sheet: JSON = field(default_factory=dict)
    ended_early: bool = False
    settlement: JSON | None = None
    config: JSON = field(default_factory=dict)


@dataclass
class Circle:
    """A server, the people who play on it (user id and session cookie) and every match
    played on it so far."""

    base_url: str
    people: dict[str, tuple[int, str]]
    played: list[Played] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def circle(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Circle]:
    """A real server on a migrated SQLite file or a throw-away PostgreSQL database, shared
    by the games' tests of this module, with five guests who play in its rooms."""
    directory = tmp_path_factory.mktemp("ledger")

    def serve(url: str) -> Iterator[Circle]:
        upgrade(url)
        with uvicorn_subprocess(url, directory / "uvicorn.log") as base_url:
            people = {}
            for name in PEOPLE:
                with httpx.Client(base_url=base_url, timeout=30) as http:
                    response = http.post("/api/guest", json={"display_name": name})
                    assert response.status_code == 201, response.text
                    people[name] = (response.json()["id"], http.cookies[COOKIE])
            found = Circle(base_url, people)
            yield found
            report = ", ".join(f"{g} {s:.1f} s" for g, s in found.seconds.items())
            print(f"\n[{request.param}] {len(found.played)} matches: {report}")

    if request.param == "sqlite":
        yield from serve(sqlite_url(directory / "stammtisch.sqlite3"))
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield from serve(url)


def client_of(circle: Circle, name: str) -> Client:
    """A new client (own HTTP session object, own socket) of the guest ``name``."""
    user_id, cookie = circle.people[name]
    client = Client(circle.base_url, name)
    client.user_id = user_id
    client.http.cookies.set(COOKIE, cookie)
    return client


# ---------------------------------------------------------------- random matches


def plan_match(game: str, index: int, rng: random.Random) -> JSON:
    """A random room of ``game``: its people, stake, options, match options and length,
    and whether (and when) the players agree to end it early. Every value of every option
    comes round (``index`` walks through the choices)."""
    description = describe(game)
    sizes = description["players"]
    count = sizes[index % len(sizes)]
    players = rng.sample(PEOPLE, count)

    def pick(option: JSON) -> Any:
        choices = option["choices"]
        return choices[(index + rng.randrange(2)) % len(choices)]

    rounds = description["rounds"]
    length = max(rounds["min"], 1) + (rng.random() < 0.2)
    end = None
    if index % 6 == 5:  # ended by agreement: after some deals, between deals or in one
        end = {"after": rng.randrange(3), "actions": rng.choice([0, 0, rng.randrange(1, 30)])}
    return {
        "players": players,
        "room": {
            "name": f"{game} {index}",
            "game": game,
            "stake_cents": STAKES[index % len(STAKES)],
            "rounds": length,
            "options": {o["name"]: pick(o) for o in description["options"]},
            "match_options": {o["name"]: pick(o) for o in description["match_options"]},
        },
        "end": end,
    }


def choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action: mostly without knocks and announcements (now and then with
    them, for Kontra chains and announced games), most Doppelkopf hands healthy."""
    if "gesund" in legal and rng.random() < 0.93:
        return "gesund"
    plain = [a for a in legal if not a.startswith(("knock", "announce"))]
    if plain and rng.random() < 0.9:
        return rng.choice(plain)
    return rng.choice(legal)


async def actor_of(clients: list[Client]) -> Client:
    """The client whose turn it is (waiting a moment for the views to arrive)."""
    async with asyncio.timeout(10):
        while True:
            broken = next((c for c in clients if c.failure is not None), None)
            if broken is not None:
                raise AssertionError(f"{broken.name} could not follow: {broken.failure!r}")
            actor = next((c for c in clients if c.my_turn()), None)
            if actor is not None:
                return actor
            await asyncio.sleep(0.002)


#: The least pause between two messages of one socket here: 40 a second, below the
#: server's limit of 50 (a declarer who calls and discards at machine speed would reach it).
PACE = 0.025


async def play_deal(clients: list[Client], rng: random.Random, limit: int = 10_000) -> int | None:
    """Random legal actions until the deal is finished (return the version of its last
    event) or ``limit`` actions were played (return None); each socket at most 40 a second."""
    loop = asyncio.get_running_loop()
    sent: dict[str, float] = {}
    for _ in range(limit):
        actor = await actor_of(clients)
        assert actor.view is not None
        text = choose(actor.view["legal_actions"], rng)
        wait = sent.get(actor.name, 0.0) + PACE - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        sent[actor.name] = loop.time()
        msg_id = f"{actor.name}-{actor.version}"
        await actor.send({"type": "action", "action": text, "v": actor.version, "id": msg_id})
        event = await actor.expect_ack(msg_id)
        await settle(clients, event["v"])
        if event["view"]["phase"] == "finished":
            return int(event["v"])
    return None


async def snapshot_after(client: Client, version: int, *, ended: bool = False) -> JSON:
    """The first snapshot ``client`` received at ``version`` or later (the pause's, or the
    final one; with ``ended`` the one that says the match ended early)."""
    async with asyncio.timeout(10):
        while True:
            for message in client.messages:
                if (
                    message["type"] == "snapshot"
                    and message["v"] >= version
                    and (not ended or message["match"]["ended_early"])
                ):
                    return message
            await asyncio.sleep(0.002)


async def end_by_agreement(played: Played, clients: list[Client]) -> JSON:
    """Every player agrees to end the match; return the final snapshot."""
    version = max(c.version for c in clients)
    for index, client in enumerate(clients):
        http = client.http
        response = await http.post(f"/api/rooms/{played.room}/end")
        assert response.status_code == 200, response.text
        assert response.json()["ended"] is (index == len(played.players) - 1)
    played.ended_early = True
    return await snapshot_after(clients[0], version + 1, ended=True)


async def play_match(circle: Circle, game: str, plan: JSON, rng: random.Random) -> Played:
    """Create the room, start the match and play it to its end (or to the agreed end)."""
    names = plan["players"]
    clients = [client_of(circle, name) for name in names]
    host = clients[0]
    response = await host.http.post("/api/rooms", json=plan["room"])
    assert response.status_code == 201, response.text
    room = response.json()
    token = room["invite_url"].rsplit("/", 1)[-1]
    for client in clients[1:]:
        joined = await client.http.post(f"/api/invite/{token}/join", json={"role": "player"})
        assert joined.status_code == 200, joined.text
    started = await host.http.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    played = Played(game, started.json()["match_id"], room["id"], names,
                    {c.name: c.user_id for c in clients}, config=plan["room"])  # fmt: skip
    circle.played.append(played)  # on the server now, whatever happens below
    for client in clients:
        await client.connect(room["id"])
    await settle(clients, 0)
    end = plan["end"]
    try:
        while True:
            assert host.snapshot is not None
            setup = host.snapshot["match"]["setup"]
            here = end is not None and end["after"] == len(played.deals)
            if here and not end["actions"]:  # before anybody acted
                final = await end_by_agreement(played, clients)
                break
            version = await play_deal(clients, rng, end["actions"] if here else 10_000)
            if version is None:  # in the middle of the deal
                assert here
                final = await end_by_agreement(played, clients)
                break
            await settle(clients, version + 1)  # everybody has the deal's end
            snapshot = await snapshot_after(host, version + 1)
            match = snapshot["match"]
            played.deals.append(
                {
                    "ledger": match["ledger"],
                    "row": match["sheet"]["rows"][-1],
                    "setup": setup,
                    "sheet": match["sheet"],
                }
            )
            if match["finished"]:
                final = snapshot
                break
            done = len(played.deals)
            if (
                end is not None
                and (end["after"] < done or (end["after"] == done and not end["actions"]))
            ) or (done >= MOST_DEALS):  # between deals
                final = await end_by_agreement(played, clients)
                break
            await next_deal(clients)
    finally:
        for client in clients:
            await client.aclose()
    played.sheet = final["match"]["sheet"]
    assert final["match"]["finished"] is True
    assert final["match"]["ended_early"] is played.ended_early
    return played


# ---------------------------------------------------------------- what the table showed


def by_player(ledger: JSON) -> dict[str, JSON]:
    return {e["player"]: e for e in ledger["entries"]}


def pot_key(move: JSON) -> tuple[Any, ...]:
    """A pot movement, comparable whether it is the ledger's (parameters flat) or the
    archive's (``params``)."""
    if "params" in move:
        params = dict(move["params"] or {})
    else:
        params = {k: v for k, v in move.items() if k not in ("pot", "player", "cents", "reason")}
    return (
        move["pot"],
        move["player"],
        move["cents"],
        move["reason"],
        tuple(sorted(params.items())),
    )


def check_deals(played: Played) -> None:
    """Every finished deal as the table showed it: the snapshot's ledger is the sheet row's,
    its points the row's values, its totals the row's totals, the money adds up."""
    info = GAMES[played.game]
    stake = played.config["stake_cents"]
    n = len(played.players)
    points: dict[str, int] = {}
    cents = dict.fromkeys(played.players, 0)
    pots: dict[str, int] = {}
    for index, deal in enumerate(played.deals):
        ledger, row, sheet = deal["ledger"], deal["row"], deal["sheet"]
        if index == 0:
            points = dict(sheet["start"])
        assert ledger is not None, (index, deal)
        # the row carries the pots' balances after its deal
        assert row["pot_balances"] == ledger["pots"]
        assert ledger["number"] == row["number"] == index + 1
        assert [e["player"] for e in ledger["entries"]] == played.players
        values = row["values"]
        assert set(values) <= set(played.players)
        entries = by_player(ledger)
        sits_out = n > info.seats and info.dealer_sits_out
        for name, entry in entries.items():
            assert entry["points"] == values.get(name, 0), (name, ledger, row)
            assert entry["total_points"] == row["totals"][name]
            assert entry["sitting_out"] is (sits_out and row["dealer"] == name)
            assert entry["pot_cents"] == sum(m["cents"] for m in entry["pots"])
            assert entry["net_cents"] == entry["cents"] - entry["pot_cents"]
            cents[name] += entry["net_cents"]
            assert entry["total_cents"] == cents[name]
            lost = entry["points"] if info.sheet.kind == "points" else -max(entry["points"], 0)
            points[name] += lost
            assert entry["total_points"] == points[name]
            moved = [r for r in entry["reasons"] if r["code"] in ("pot_in", "pot_out")]
            assert len(moved) == len(entry["pots"])
            for reason, move in zip(moved, entry["pots"], strict=True):
                assert reason["pot"] == move["pot"] and reason["why"] == move["reason"]
                assert reason["cents"] == abs(move["cents"]) and move["cents"] != 0
                assert reason["code"] == ("pot_in" if move["cents"] > 0 else "pot_out")
                pots[move["pot"]] = pots.get(move["pot"], 0) + move["cents"]
        assert set(ledger["pots"]) <= set(info.pots)
        assert {p: c for p, c in ledger["pots"].items()} == {
            p: pots.get(p, 0) for p in ledger["pots"]
        }
        assert {p for p, c in pots.items() if c} <= set(ledger["pots"])
        money = {name: e["cents"] for name, e in entries.items()}
        assert sum(money.values()) == 0, ledger  # between the players
        assert sum(e["total_cents"] for e in entries.values()) + sum(ledger["pots"].values()) == 0
        # the money from the points, as the game's description says it is made
        if stake == 0 or not info.sheet.stake:
            assert set(money.values()) == {0}, ledger
        elif info.sheet.unit == "cents":  # the columns are money, settled pairwise
            total = sum(e["points"] for e in entries.values())
            assert money == {name: n * e["points"] - total for name, e in entries.items()}
        else:
            assert money == {name: e["points"] * stake for name, e in entries.items()}
        # the factor the table announced for the deal (a Radl) is the ledger's
        announced = deal["setup"]["params"].get("factor", 1)
        assert ledger["factor"] == announced == row.get("factor", announced), (ledger, deal)
        assert all(e["points"] % ledger["factor"] == 0 for e in entries.values())


def settlement_checks(played: Played, settlement: JSON) -> None:
    """The final settlement against the table's last sheet and ledger."""
    sheet = played.sheet
    last = by_player(played.deals[-1]["ledger"]) if played.deals else {}
    totals = {p: last[p]["total_points"] if last else sheet["start"][p] for p in played.players}
    money = {p: last[p]["total_cents"] if last else 0 for p in played.players}
    assert sheet["totals"] == settlement["totals"]
    if GAMES[played.game].sheet.unit == "points":
        assert sheet["totals"] == totals
    assert sheet["money_cents"] == money
    assert sheet["placings"] == settlement["placings"]
    assert sheet["payments"] == settlement["payments"]
    assert sheet["balances_cents"] == settlement["money_cents"]
    assert settlement["ended_early"] is played.ended_early
    assert sheet["settlement"] == settlement  # ended early: with the pots closed now
    # the deal counter ends with the match
    progress = sheet["progress"]
    assert progress["done"] == len(sheet["rows"]) == len(played.deals)
    if not played.ended_early:
        assert sheet["finished"] is True and progress["of"] == progress["done"], sheet
        assert not sheet.get("vorfuehrung")
    # what the pots paid out (or took in) when the match ended early (at its natural end
    # the last deal's ledger holds these movements already)
    closed = dict(money)
    for move in settlement["closing"] if played.ended_early else []:
        closed[move["player"]] -= move["cents"]
    assert settlement["money_cents"] == closed
    # money and pots add up to nothing; what stays in a pot is what was put in
    held = {pot: p["held"] for pot, p in settlement["pots"].items()}
    assert sum(settlement["money_cents"].values()) + sum(held.values()) == 0
    for pot in settlement["pots"].values():
        assert sum(pot["shares"].values()) == pot["held"]
    # the payments settle what the players owe each other
    owed = dict(settlement["money_cents"])
    for pot in settlement["pots"].values():
        if pot["held"]:
            for name, put in pot["shares"].items():
                owed[name] += put
    payments = settlement["payments"]
    assert len(payments) <= max(len(played.players) - 1, 0)
    for payment in payments:
        assert payment["cents"] > 0 and payment["payer"] != payment["payee"]
        owed[payment["payer"]] += payment["cents"]
        owed[payment["payee"]] -= payment["cents"]
    assert set(owed.values()) <= {0}, (owed, settlement)


# ---------------------------------------------------------------- what the archive says


async def check_archive(http: httpx.AsyncClient, played: Played) -> JSON:
    """The archive's match, deal rows, pots and replays against the table; return the
    stored settlement."""
    detail = (await http.get(f"/api/history/matches/{played.match_id}")).json()
    settlement = detail["settlement"]
    assert settlement is not None
    assert detail["match"]["status"] == ("ended" if played.ended_early else "finished")
    # the archive's sheet is the table's, a match stopped early with its settlement too
    assert detail["sheet"] == played.sheet
    assert detail["sheet"]["settlement"] == settlement
    finished = [d for d in detail["deals"] if d["status"] == "finished"]
    running = [d for d in detail["deals"] if d["status"] != "finished"]
    assert len(finished) == len(played.deals) and len(running) <= int(played.ended_early)
    assert all(d["ledger"] is None and d["settlement"] is None for d in running)
    stored_pots = detail["pots"]
    for listed, deal in zip(finished, played.deals, strict=True):
        ledger = deal["ledger"]
        assert listed["number"] == ledger["number"]
        assert listed["ledger"] == ledger
        assert listed["settlement"] == {e["player"]: e["points"] for e in ledger["entries"]}
        moved = sorted(pot_key(m) for e in ledger["entries"] for m in e["pots"])
        of_deal = [p for p in stored_pots if p["deal_number"] == ledger["number"]]
        assert sorted(pot_key(p) for p in of_deal) == moved
        replay = (await http.get(f"/api/history/deals/{listed['id']}/replay")).json()
        assert replay["source"]["ledger"] == ledger
        assert replay["source"]["pots"] == of_deal
    # the movements that closed the pots: stored without a deal when the players stopped
    # early, else with the last deal (and listed by the settlement either way)
    closing = sorted(pot_key(m) for m in settlement["closing"])
    apart = sorted(pot_key(p) for p in stored_pots if p["deal_number"] is None)
    if played.ended_early:
        assert apart == closing, (stored_pots, settlement)
    else:
        assert apart == []
        last = played.deals[-1]["ledger"]
        with_last = Counter(pot_key(m) for e in last["entries"] for m in e["pots"])
        assert not Counter(closing) - with_last, (settlement, last)
    assert detail["match"]["totals"] == settlement["totals"]
    assert detail["match"]["money_cents"] == settlement["money_cents"]
    assert detail["match"]["placings"] == settlement["placings"]
    return dict(settlement)


async def check_list(http: httpx.AsyncClient, played: list[Played]) -> None:
    """The archive list's totals, money and placings are the settlement's."""
    listing = (await http.get("/api/history/matches")).json()["matches"]
    listed = {m["id"]: m for m in listing}
    for match in played:
        entry = listed[match.match_id]
        settlement = match.settlement
        assert settlement is not None
        assert entry["totals"] == match.sheet["totals"] == settlement["totals"]
        assert entry["money_cents"] == settlement["money_cents"]
        assert entry["placings"] == settlement["placings"]
        assert entry["deals_finished"] == len(match.deals)
        assert entry["status"] == ("ended" if match.ended_early else "finished")


def expected_stats(circle: Circle, viewer: str, game: str | None) -> JSON:
    """The statistics of ``viewer``'s circle, summed over the matches he played."""
    matches = [m for m in circle.played if viewer in m.players and (game is None or m.game == game)]
    ids = {name: uid for name, (uid, _) in circle.people.items()}
    players: dict[int, JSON] = defaultdict(
        lambda: {"matches": 0, "deals": 0, "points": 0, "money_cents": 0}
    )
    _ = players[ids[viewer]]  # the viewer is in his own circle
    pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for match in matches:
        assert match.settlement is not None
        for deal in match.deals:
            for entry in deal["ledger"]["entries"]:
                sums = players[ids[entry["player"]]]
                sums["points"] += entry["points"]
                sums["deals"] += not entry["sitting_out"]
        placings = match.settlement["placings"]
        for name in match.players:
            players[ids[name]]["matches"] += 1
            players[ids[name]]["money_cents"] += match.settlement["money_cents"][name]
        for i, a in enumerate(match.players):
            for b in match.players[i + 1 :]:
                (low, x), (high, y) = sorted([(ids[a], a), (ids[b], b)])
                counts = pairs[(low, high)]
                counts[0] += 1
                counts[1] += placings[x] < placings[y]
                counts[2] += placings[y] < placings[x]
    return {
        "players": {uid: dict(sums) for uid, sums in players.items()},
        "head_to_head": [
            {"a": a, "b": b, "matches": n, "a_ahead": a_ahead, "b_ahead": b_ahead}
            for (a, b), (n, a_ahead, b_ahead) in sorted(pairs.items())
        ],
    }


async def check_stats(circle: Circle, game: str) -> None:
    """Every member's statistics, of all games and of ``game``, are the sums over the
    matches he played."""
    if any(m.settlement is None for m in circle.played):
        pytest.fail("a match on this server failed before it was checked: no statistics")
    for name in circle.people:
        client = client_of(circle, name)
        try:
            for query, only in (("", None), (f"?game={game}", game)):
                got = (await client.http.get(f"/api/history/stats{query}")).json()
                expected = expected_stats(circle, name, only)
                assert got["players"][0]["user_id"] == circle.people[name][0]
                shown = {
                    p["user_id"]: {k: p[k] for k in ("matches", "deals", "points", "money_cents")}
                    for p in got["players"]
                }
                assert shown == expected["players"], (name, query)
                for p in got["players"]:
                    deals = p["deals"]
                    assert p["points_per_deal"] == (round(p["points"] / deals, 2) if deals else 0)
                assert got["head_to_head"] == expected["head_to_head"], (name, query)
        finally:
            await client.aclose()


# ---------------------------------------------------------------- the test


@pytest.mark.live_server
@pytest.mark.parametrize("game", PLAYABLE)
def test_one_ledger_for_every_deal(circle: Circle, game: str) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    plans = [plan_match(game, index, rng) for index in range(MATCHES_PER_GAME)]
    seeds = [rng.randrange(2**32) for _ in plans]
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(plan: JSON, seed: int) -> Played:
        async with gate:
            played = await play_match(circle, game, plan, random.Random(seed))
            check_deals(played)
            host = client_of(circle, played.players[0])
            try:
                played.settlement = await check_archive(host.http, played)
            finally:
                await host.aclose()
            settlement_checks(played, played.settlement)
            return played

    async def scenario() -> list[Played]:
        results = await asyncio.gather(*(one(p, s) for p, s in zip(plans, seeds, strict=True)))
        for name in circle.people:
            viewer = client_of(circle, name)
            try:
                await check_list(viewer.http, [m for m in circle.played if name in m.players])
            finally:
                await viewer.aclose()
        await check_stats(circle, game)
        return results

    began = time.monotonic()
    try:
        played = asyncio.run(scenario())
    except BaseException:
        print(f"seed {seed}")
        raise
    circle.seconds[game] = time.monotonic() - began
    deals = [d for m in played for d in m.deals]
    kinds = Counter("ended_early" if m.ended_early else f"{len(m.players)} people" for m in played)
    print(f"\n{game}: {len(played)} matches, {len(deals)} deals, {dict(kinds)}, "
          f"factor>1: {sum(d['ledger']['factor'] > 1 for d in deals)}, "
          f"no points: {sum(not any(e['points'] for e in d['ledger']['entries']) for d in deals)}, "
          f"pot moves: {sum(len(e['pots']) for d in deals for e in d['ledger']['entries'])}, "
          f"{circle.seconds[game]:.1f} s")  # fmt: skip
    assert len(played) == MATCHES_PER_GAME
