"""The archive's pages against a real server: each renders for a member of the match's room
(German and English), logged-out visitors are sent to log in first, and everybody else gets
the friendly 404 page that names nothing of the match (as for ids that do not exist).

A Dreierles deal is played to its end by scripted clients first, so that the pages are those
of a real finished deal.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from server.engine.registry import describe
from tests.support import LiveServer
from tests.table_client import COOKIE, Client, make_room, start, step

pytestmark = pytest.mark.live_server

ROOM_NAME = "Stammtisch Archivprobe"


@dataclass(frozen=True)
class PlayedDeal:
    """A match with one finished deal: who played, and the ids to open."""

    room_id: int
    match_id: int
    deal_id: int
    #: Session cookies of the three players (Anna first).
    cookies: list[str]
    names: list[str]


def finished(client: Client) -> bool:
    """Whether ``client`` has seen a deal end."""
    return any(m["type"] == "event" and m["view"]["phase"] == "finished" for m in client.messages)


async def play_one_deal(
    base_url: str, names: list[str], seed: int = 3, room_name: str = ROOM_NAME
) -> tuple[int, int, list[str]]:
    """Open a Dreierles room for ``names``, start the match and play random legal moves until
    the first deal is over; return the room id, the match id and the players' cookies."""
    clients, room, _ = await make_room(base_url, "dreierles", names, name=room_name)
    try:
        match = await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        rng = random.Random(seed)
        for _ in range(500):
            if finished(clients[0]):
                break
            assert await step(clients, rng), "the match ended before the first deal did"
        assert finished(clients[0])
        return room, match, [c.cookie for c in clients]
    finally:
        for client in clients:
            await client.aclose()


def first_deal_id(server: LiveServer, match_id: int) -> int:
    """The id of the match's first deal, read from the server's SQLite file."""
    with sqlite3.connect(server.database_path) as db:
        row = db.execute(
            "SELECT id FROM deals WHERE match_id = ? AND number = 1", (match_id,)
        ).fetchone()
    assert row is not None
    deal_id: int = row[0]
    return deal_id


@pytest.fixture(scope="module")
def played(module_server: LiveServer) -> PlayedDeal:
    """One finished Dreierles deal on the module's server."""
    names = ["Anna", "Bernd", "Catrin"]
    room, match, cookies = asyncio.run(play_one_deal(module_server.base_url, names))
    return PlayedDeal(room, match, first_deal_id(module_server, match), cookies, names)


@pytest.fixture
def http(module_server: LiveServer) -> Iterator[list[httpx.Client]]:
    """Clients opened by a test (closed afterwards)."""
    clients: list[httpx.Client] = []
    yield clients
    for client in clients:
        client.close()


def as_cookie(server: LiveServer, opened: list[httpx.Client], cookie: str | None) -> httpx.Client:
    """A client with the session ``cookie`` (None: logged out)."""
    client = httpx.Client(base_url=server.base_url, timeout=15, follow_redirects=False)
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    opened.append(client)
    return client


def as_guest(server: LiveServer, opened: list[httpx.Client], name: str) -> httpx.Client:
    """A new guest who is no member of any room."""
    client = as_cookie(server, opened, None)
    response = client.post("/api/guest", json={"display_name": name})
    assert response.status_code == 201, response.text
    return client


def pages(played: PlayedDeal) -> list[str]:
    """Every archive page, with the played match's and deal's ids."""
    return [
        "/archive",
        f"/archive/matches/{played.match_id}",
        f"/archive/deals/{played.deal_id}",
        "/archive/replay",
        "/archive/stats",
    ]


def test_every_page_renders_for_a_member(
    module_server: LiveServer, played: PlayedDeal, http: list[httpx.Client]
) -> None:
    anna = as_cookie(module_server, http, played.cookies[0])
    expected = {
        "/archive": ['id="match-list"', 'id="filter-game"', 'id="filter-with"', "Dreierles"],
        f"/archive/matches/{played.match_id}": [
            f'data-match="{played.match_id}"',
            'id="sheet"',
            'id="chart"',
            f'href="/api/history/matches/{played.match_id}/record"',
        ],
        f"/archive/deals/{played.deal_id}": [
            f'data-deal="{played.deal_id}"',
            'id="step-next"',
            'id="trick-select"',
            f'href="/archive/matches/{played.match_id}"',
        ],
        "/archive/replay": ['id="record-file"', 'id="drop-zone"', 'id="upload-error"'],
        "/archive/stats": ['id="stats-players"', 'id="stats-game"'],
    }
    for path, needles in expected.items():
        response = anna.get(path, params={"lang": "de"})
        assert response.status_code == 200, (path, response.text[:300])
        assert response.headers["content-type"].startswith("text/html")
        assert '<html lang="de">' in response.text
        assert '<a href="/archive">Archiv</a>' in response.text  # the nav link
        for needle in needles:
            assert needle in response.text, (path, needle)
        english = anna.get(path, params={"lang": "en"})
        assert english.status_code == 200
        assert '<html lang="en">' in english.text
        assert '<a href="/archive">Archive</a>' in english.text


def test_match_and_replay_pages_embed_the_game_description(
    module_server: LiveServer, played: PlayedDeal, http: list[httpx.Client]
) -> None:
    anna = as_cookie(module_server, http, played.cookies[0])
    for path in (f"/archive/matches/{played.match_id}", f"/archive/deals/{played.deal_id}"):
        html = anna.get(path).text
        found = re.search(r'<script type="application/json" id="game-info">(.*?)</script>', html)
        assert found is not None, path
        assert json.loads(found.group(1)) == describe("dreierles")
    # the upload page knows no game until a record is read: the client asks /api/games/{name}
    assert 'id="game-info"' not in anna.get("/archive/replay").text


def test_the_deal_page_is_open_to_every_player_of_the_match(
    module_server: LiveServer, played: PlayedDeal, http: list[httpx.Client]
) -> None:
    for cookie in played.cookies:
        client = as_cookie(module_server, http, cookie)
        assert client.get(f"/archive/deals/{played.deal_id}").status_code == 200
        assert client.get(f"/archive/matches/{played.match_id}").status_code == 200


def test_logged_out_visitors_are_sent_to_log_in(
    module_server: LiveServer, played: PlayedDeal, http: list[httpx.Client]
) -> None:
    visitor = as_cookie(module_server, http, None)
    for path in pages(played):
        response = visitor.get(path)
        assert response.status_code == 303, path
        assert response.headers["location"] == "/?" + str(httpx.QueryParams({"next": path}))


def test_a_non_member_gets_the_404_page_without_any_data(
    module_server: LiveServer, played: PlayedDeal, http: list[httpx.Client]
) -> None:
    outsider = as_guest(module_server, http, "Xaver")
    member_only = [f"/archive/matches/{played.match_id}", f"/archive/deals/{played.deal_id}"]
    missing = [
        "/archive/matches/999999",
        "/archive/deals/999999",
        "/archive/matches/abc",
        "/archive/deals/-1",
        "/archive/deals/" + "9" * 40,
    ]
    bodies = []
    for path in member_only + missing:
        response = outsider.get(path)
        assert response.status_code == 404, path
        assert "Nicht gefunden" in response.text
        for secret in (ROOM_NAME, *played.names, f'data-deal="{played.deal_id}"', "data-match="):
            assert secret not in response.text, (path, secret)
        bodies.append(response.text.replace(path, "PATH"))  # the language links name it
    # A member-only page looks exactly like one that does not exist.
    assert bodies[0] == bodies[2]
    assert bodies[1] == bodies[3]
    # Pages without a match behind them are open to any logged-in person.
    for path in ("/archive", "/archive/replay", "/archive/stats"):
        assert outsider.get(path).status_code == 200


def test_a_member_of_another_room_sees_only_the_404_page(
    module_server: LiveServer, played: PlayedDeal, http: list[httpx.Client]
) -> None:
    _room, other_match, cookies = asyncio.run(
        play_one_deal(
            module_server.base_url, ["Ida", "Jan", "Kai"], seed=5, room_name="Nachbartisch"
        )
    )
    ida = as_cookie(module_server, http, cookies[0])
    assert ida.get(f"/archive/matches/{other_match}").status_code == 200
    response = ida.get(f"/archive/matches/{played.match_id}")
    assert response.status_code == 404
    assert ROOM_NAME not in response.text
    response = ida.get(f"/archive/deals/{played.deal_id}")
    assert response.status_code == 404
    assert "Anna" not in response.text
