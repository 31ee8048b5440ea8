"""The statistics page in a real browser (Debian's chromium through Playwright) for a circle
with a thrown-in deal in each game.

Four guests play through the real server (HTTP for the rooms, a WebSocket per person for
the table) every playable game of the registry, the first of them hosting, with as many
of them as the game seats. Everybody passes wherever the legal actions offer it (``pass``,
``gut``, ``gesund``; ``schmeissen`` and an Armut nobody takes where offered), otherwise
plays the first legal action that raises nothing, deal after deal and room after room,
until a deal of the game ends without card points (thrown in). A game whose rules play a
deal out when everybody passed (so that it has no thrown-in deal) is satisfied by such a
deal: nobody declared, somebody passed. After a game's first three deals, a deal that
comes to its cards with nobody having passed cannot be the one: its match is ended by
agreement in the middle of it. The match with the game's deal is ended by agreement right
after it for every other game; for the rest it plays on until it ends by itself (or is
ended by agreement after a few deals).

Then the host opens /archive/stats, with no filter and with each game's filter chosen in
the form: no server error, every player of the circle has a card, and each card shows the
numbers of ``GET /api/history/stats`` (deals, points, points per deal, money, average card
points), as does the head-to-head list. The API's figures in turn are the sums over the
circle's matches (``GET /api/history/matches`` and each match's stored ledger), for every
member of the circle.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from server.engine.registry import GAMES, describe, get_rules, playable
from tests.browser.conftest import DESKTOP, NewPerson, off_the_loop
from tests.support import LiveServer
from tests.table_client import COOKIE, Client, next_deal, settle

JSON = dict[str, Any]

PEOPLE = ("Agathe", "Bruno", "Cilli", "Dieter")
PLAYABLE = playable()
#: The actions that pass (or throw the deal in), in the order they are preferred.
PASSES = ("schmeissen", "armut", "pass", "gut", "gesund")
#: Actions that raise the stakes, never chosen while something else is legal.
RAISES = ("knock", "announce", "kontra", "rekontra", "subkontra")
#: Deals per game before the test gives up looking for the game's thrown-in deal (a
#: Doppelkopf deal is thrown in only when somebody holds an Armut: about one in twelve).
MOST_DEALS = 150
#: A match still running after this many deals is ended by agreement.
MATCH_DEALS = 8
#: Deals per game played out whatever they became; after these, a deal that comes to its
#: cards with nobody having passed cannot make the game's case and is not played out: its
#: match is ended by agreement in the middle of it.
PLAYED_OUT = 3
#: The page's labels (German) of the figures compared with the API.
DEALS, POINTS, PER_DEAL, MONEY, CARD_POINTS = (
    "Spiele",
    "Punkte gesamt",
    "Punkte je Spiel",
    "Geld",
    "Kartenpunkte im Schnitt",
)


# ---------------------------------------------------------------- playing through the server


@dataclass
class Found:
    """The deal that makes a game's case: where it is and what it was."""

    game: str
    match_id: int
    number: int
    #: True: thrown in (no card points); False: everybody passed and it was played out.
    thrown_in: bool


@dataclass
class Circle:
    """The guests (user id and session cookie by name), their scripted clients and what
    was played."""

    base_url: str
    people: dict[str, tuple[int, str]]
    clients: dict[str, Client] = field(default_factory=dict)
    found: dict[str, Found] = field(default_factory=dict)
    matches: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    ended_early: set[int] = field(default_factory=set)
    deals: dict[str, int] = field(default_factory=dict)


def choose(legal: list[str]) -> str:
    """A pass where one is offered, else the first legal action that raises nothing."""
    for wanted in PASSES:
        if wanted in legal:
            return wanted
    calm = [action for action in legal if not action.startswith(RAISES)]
    return (calm or legal)[0]


def without_card_points(summary: JSON) -> bool:
    """Whether a deal's summary has no card points for anybody (thrown in)."""
    points = summary["card_points"]
    return points is None or all(p is None for p in points)


async def new_guest(base_url: str, name: str) -> tuple[int, str]:
    """A guest account: its user id and session cookie."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        response = await http.post("/api/guest", json={"display_name": name})
        assert response.status_code == 201, response.text
        return int(response.json()["id"]), http.cookies[COOKIE]


def client_of(circle: Circle, name: str) -> Client:
    """The scripted client (own HTTP session, own socket) of the guest ``name``, with
    nothing of an earlier table: one per person, for every room."""
    if name not in circle.clients:
        user_id, cookie = circle.people[name]
        client = circle.clients[name] = Client(circle.base_url, name)
        client.user_id = user_id
        client.http.cookies.set(COOKIE, cookie)
    client = circle.clients[name]
    assert client.ws is None
    client.messages, client.inbox, client.version = [], asyncio.Queue(), -1
    client.view = client.snapshot = client.between = None
    return client


async def actor_of(clients: list[Client]) -> Client:
    """The client whose turn it is (waiting a moment for the views to arrive)."""
    async with asyncio.timeout(10):
        while True:
            actor = next((c for c in clients if c.my_turn()), None)
            if actor is not None:
                return actor
            await asyncio.sleep(0.002)


async def play_deal(clients: list[Client], cut_short: bool) -> tuple[JSON, list[str]] | None:
    """Play the running deal to its end with :func:`choose`; return its last event and the
    actions made. With ``cut_short``, stop (return None) when the cards are to be played
    and nobody has passed."""
    made: list[str] = []
    for _ in range(2000):
        actor = await actor_of(clients)
        assert actor.view is not None
        legal = actor.view["legal_actions"]
        if cut_short and "pass" not in made and any(a.startswith("play ") for a in legal):
            return None
        text = choose(legal)
        made.append(text)
        msg_id = f"{actor.name}-{actor.version}"
        await actor.send({"type": "action", "action": text, "v": actor.version, "id": msg_id})
        event = await actor.expect_ack(msg_id)
        await settle(clients, event["v"])
        if event["view"]["phase"] == "finished":
            return event, made
    raise AssertionError(f"the deal did not end: {made[-20:]}")


async def snapshot_after(client: Client, version: int) -> JSON:
    """The first snapshot ``client`` received at ``version`` or later (the pause's between
    deals, or the final one)."""
    async with asyncio.timeout(10):
        while True:
            for message in client.messages:
                if message["type"] == "snapshot" and message["v"] >= version:
                    return message
            await asyncio.sleep(0.002)


async def end_by_agreement(clients: list[Client], room: int) -> None:
    """Every player agrees to end the match; the last vote ends it."""
    for index, client in enumerate(clients):
        response = await client.http.post(f"/api/rooms/{room}/end")
        assert response.status_code == 200, response.text
        assert response.json()["ended"] is (index == len(clients) - 1)


async def open_match(circle: Circle, game: str, names: list[str]) -> tuple[list[Client], int, int]:
    """The first of ``names`` opens a room of ``game``, the others join by the invite link,
    the match starts and everybody sits down at the table; the clients, room and match id."""
    rounds = describe(game)["rounds"]
    clients = [client_of(circle, name) for name in names]
    host = clients[0]
    body = {
        "name": f"Runde {len(circle.matches[game]) + 1}",
        "game": game,
        "options": {},
        "stake_cents": 10,
        "rounds": max(rounds["min"], 1),
        "allow_spectators": False,
    }
    response = await host.http.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    room = response.json()
    token = room["invite_url"].rsplit("/", 1)[-1]
    for client in clients[1:]:
        joined = await client.http.post(f"/api/invite/{token}/join", json={"role": "player"})
        assert joined.status_code == 200, joined.text
    started = await host.http.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    for client in clients:
        await client.connect(room["id"])
    await settle(clients, 0)
    return clients, int(room["id"]), int(started.json()["match_id"])


async def play_game(circle: Circle, game: str, end_early: bool) -> None:
    """Matches of ``game`` until one of its deals makes the game's case (see the module's
    docstring); that match is then ended by agreement (``end_early``) or played on."""
    rules = get_rules(game)
    names = list(PEOPLE[: max(GAMES[game].players)])
    played = 0
    while game not in circle.found:
        assert played < MOST_DEALS, f"{game}: no deal thrown in or passed by all in {played}"
        clients, room, match_id = await open_match(circle, game, names)
        circle.matches[game].append(match_id)
        try:
            for in_match in range(1, MATCH_DEALS + 1):
                result = await play_deal(clients, cut_short=played >= PLAYED_OUT)
                played += 1
                if result is None:  # not the case: end the match in the middle of the deal
                    await end_by_agreement(clients, room)
                    circle.ended_early.add(match_id)
                    break
                event, made = result
                snapshot = await snapshot_after(clients[0], event["v"] + 1)
                match = snapshot["match"]
                summary = rules.summarize(event["view"]["outcome"])
                if game not in circle.found:
                    thrown_in = without_card_points(summary)
                    if thrown_in or (summary["declarer"] is None and "pass" in made):
                        number = int(match["ledger"]["number"])
                        circle.found[game] = Found(game, match_id, number, thrown_in)
                if match["finished"]:
                    break
                if in_match == MATCH_DEALS or (end_early and game in circle.found):
                    await end_by_agreement(clients, room)
                    circle.ended_early.add(match_id)
                    break
                await next_deal(clients)
        finally:
            for client in clients:
                await client.close_socket()
    circle.deals[game] = played


async def build_circle(base_url: str) -> Circle:
    """The guests, and every playable game played until its case is in the archive."""
    people = {name: await new_guest(base_url, name) for name in PEOPLE}
    circle = Circle(base_url, people)
    try:
        for index, game in enumerate(PLAYABLE):
            await play_game(circle, game, end_early=index % 2 == 1)
    finally:
        for client in circle.clients.values():
            await client.aclose()
    return circle


# ---------------------------------------------------------------- what the API says


def expected_stats(http: httpx.Client, me: int, game: str | None, cache: dict[int, JSON]) -> JSON:
    """Per user id the sums over the matches ``http``'s user sees (of ``game``): matches,
    deals at the table, points of the stored ledgers, money of the matches; and the
    head-to-head counts by the matches' placings."""
    listed = http.get("/api/history/matches", params={"game": game} if game else None)
    assert listed.status_code == 200, listed.text
    sums: dict[int, JSON] = defaultdict(lambda: {"matches": 0, "deals": 0, "points": 0,
                                                 "money_cents": 0, "name": ""})  # fmt: skip
    _ = sums[me]
    pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for match in listed.json()["matches"]:
        assert game is None or match["game"] == game
        ids = {p["name"]: p["user_id"] for p in match["players"]}
        for name, uid in ids.items():
            sums[uid]["name"] = name
            sums[uid]["matches"] += 1
            sums[uid]["money_cents"] += match["money_cents"][name]
        if match["id"] not in cache:
            detail = http.get(f"/api/history/matches/{match['id']}")
            assert detail.status_code == 200, detail.text
            cache[match["id"]] = detail.json()
        for deal in cache[match["id"]]["deals"]:
            if deal["status"] != "finished":  # dealt before the match was ended early
                assert match["status"] == "ended" and deal["ledger"] is None, (match, deal)
                continue
            assert deal["ledger"] is not None, deal
            for entry in deal["ledger"]["entries"]:
                sums[ids[entry["player"]]]["points"] += entry["points"]
                sums[ids[entry["player"]]]["deals"] += not entry["sitting_out"]
        placings = match["placings"]
        assert placings is not None, match  # every match of the circle is over
        for a_name, a in ids.items():
            for b_name, b in ids.items():
                if a < b:
                    pairs[(a, b)][0] += 1
                    pairs[(a, b)][1] += placings[a_name] < placings[b_name]
                    pairs[(a, b)][2] += placings[b_name] < placings[a_name]
    head_to_head = [
        {"a": a, "b": b, "matches": n, "a_ahead": x, "b_ahead": y}
        for (a, b), (n, x, y) in sorted(pairs.items())
    ]
    return {"players": dict(sums), "head_to_head": head_to_head}


def check_api(stats: JSON, expected: JSON, where: str) -> None:
    """The statistics equal the sums over the circle's matches."""
    got = {p["user_id"]: p for p in stats["players"]}
    assert set(got) == set(expected["players"]), where
    for uid, sums in expected["players"].items():
        player = got[uid]
        figures = {k: player[k] for k in ("matches", "deals", "points", "money_cents")}
        assert figures == {k: sums[k] for k in figures}, (where, player["name"], sums)
        if sums["name"]:
            assert player["name"] == sums["name"], where
        per_deal = round(player["points"] / player["deals"], 2) if player["deals"] else 0.0
        assert player["points_per_deal"] == per_deal, (where, player)
    assert stats["head_to_head"] == expected["head_to_head"], where


# ---------------------------------------------------------------- what the page shows


def number(text: str) -> Decimal:
    """A number as the page writes it in German ("+12", "−4", "1.234,5", "+1,20 €")."""
    plain = text.replace("€", "").replace("\u00a0", "").replace(" ", "").replace("−", "-")
    return Decimal(plain.replace("+", "").replace(".", "").replace(",", "."))


READ_CARDS = """nodes => nodes.map(card => ({
    user: Number(card.dataset.user),
    name: card.querySelector("h2").textContent,
    facts: Object.fromEntries([...card.querySelectorAll("dl.facts > div")].map(
        row => [row.querySelector("dt").textContent, row.querySelector("dd").textContent])),
}))"""


def wait_for_stats(page: Page) -> None:
    """Until the page has shown the statistics it loaded (or an error)."""
    page.wait_for_function(
        """() => { const s = document.getElementById("stats-status");
                   return s.hidden || s.classList.contains("form-error"); }"""
    )


def check_page(page: Page, stats: JSON, where: str) -> None:
    """Each player's card shows the statistics' numbers; the head-to-head its lines."""
    status = page.locator("#stats-status")
    assert status.is_hidden(), (where, status.text_content())
    cards = page.locator("#stats-players .stats-card").evaluate_all(READ_CARDS)
    players = {p["user_id"]: p for p in stats["players"]}
    assert [c["user"] for c in cards] == [p["user_id"] for p in stats["players"]], where
    for card in cards:
        player, facts = players[card["user"]], card["facts"]
        assert card["name"] == player["name"], where
        assert int(facts[DEALS]) == player["deals"], (where, card)
        assert number(facts[POINTS]) == player["points"], (where, card, player)
        assert number(facts[MONEY]) * 100 == player["money_cents"], (where, card, player)
        shown = number(facts[PER_DEAL])
        assert abs(shown - Decimal(str(player["points_per_deal"]))) <= Decimal("0.05"), where
        average = player["average_card_points"]
        if average is None:
            assert facts[CARD_POINTS] == "–", (where, card)
        else:
            shown = number(facts[CARD_POINTS])
            assert abs(shown - Decimal(str(average))) <= Decimal("0.05"), (where, card)
    names = {p["user_id"]: p["name"] for p in stats["players"]}
    lines = page.locator("#h2h li").all_text_contents()
    expected = []
    for pair in stats["head_to_head"]:
        a, b, n = names[pair["a"]], names[pair["b"]], pair["matches"]
        expected.append(
            f"{a} gegen {b}: {n} {'Partie' if n == 1 else 'Partien'}, "
            f"{a} {pair['a_ahead']}× vorn, {b} {pair['b_ahead']}× vorn"
        )
    assert lines == expected, where
    assert page.locator("#h2h-section").is_hidden() is (not expected), where


@pytest.fixture
def http_of(module_server: LiveServer) -> Iterator[dict[str, httpx.Client]]:
    """An HTTP client per cookie, opened on demand (closed afterwards)."""
    clients: dict[str, httpx.Client] = {}
    yield clients
    for client in clients.values():
        client.close()


def test_the_statistics_of_a_circle_with_a_thrown_in_deal_in_each_game(
    new_person: NewPerson, module_server: LiveServer, http_of: dict[str, httpx.Client]
) -> None:
    base = module_server.base_url
    began = time.monotonic()
    circle = off_the_loop(asyncio.run, build_circle(base))
    played = time.monotonic() - began

    # Every game has its case in the archive: the stored outcome has no card points
    # (thrown in) or nobody declared (everybody passed and the game played it out).
    assert set(circle.found) == set(PLAYABLE)
    assert any(f.thrown_in for f in circle.found.values())
    assert circle.ended_early and set().union(*circle.matches.values()) - circle.ended_early
    for name, (_uid, cookie) in circle.people.items():
        http_of[name] = httpx.Client(base_url=base, timeout=30, cookies={COOKIE: cookie})
    host = http_of[PEOPLE[0]]
    cache: dict[int, JSON] = {}
    for found in circle.found.values():
        if found.match_id not in cache:
            cache[found.match_id] = host.get(f"/api/history/matches/{found.match_id}").json()
        deal = next(d for d in cache[found.match_id]["deals"] if d["number"] == found.number)
        record = host.get(f"/api/history/deals/{deal['id']}/record")
        assert record.status_code == 200, record.text
        summary = get_rules(found.game).summarize(record.json()["outcome"])
        assert without_card_points(summary) is found.thrown_in, (found, summary)
        assert found.thrown_in or summary["declarer"] is None, (found, summary)

    # The API's statistics are the sums over the circle's matches, for every member.
    filters: list[str | None] = [None, *PLAYABLE]
    api: dict[str | None, JSON] = {}
    for name, http in http_of.items():
        me = circle.people[name][0]
        for game in filters:
            response = http.get("/api/history/stats", params={"game": game} if game else None)
            assert response.status_code == 200, (name, game, response.text)
            check_api(response.json(), expected_stats(http, me, game, cache), f"{name} {game}")
            if name == PEOPLE[0]:
                api[game] = response.json()
    assert {p["user_id"] for p in api[None]["players"]} == {
        uid for uid, _cookie in circle.people.values()
    }

    # The page shows them: no filter, then each game chosen in the form.
    page = new_person(viewport=DESKTOP)
    page.context.add_cookies([{"name": COOKIE, "value": circle.people[PEOPLE[0]][1], "url": base}])
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    with page.expect_response(lambda r: "/api/history/stats" in r.url) as loaded:
        page.goto(f"{base}/archive/stats")
    assert loaded.value.status == 200
    wait_for_stats(page)
    check_page(page, api[None], "all games")
    for game in PLAYABLE:
        with page.expect_response(lambda r: "/api/history/stats" in r.url) as loaded:
            page.locator("#stats-game").select_option(game)
        assert loaded.value.status == 200, (game, loaded.value.text())
        assert loaded.value.json() == api[game], game
        assert page.url.endswith(f"?game={game}")
        wait_for_stats(page)
        check_page(page, api[game], game)
    assert problems == []

    kinds = {g: "thrown in" if f.thrown_in else "passed, played" for g, f in circle.found.items()}
    print(f"\nplayed {circle.deals} deals in {played:.1f} s; {kinds}")
