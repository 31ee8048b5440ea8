"""The hand sort kept per account and game: the store on SQLite and PostgreSQL, and the
HTTP API (``/api/me/hand-sort/{game}``) and the table page on a real server over both."""

from __future__ import annotations

import html
import json
import re
import secrets

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store import accounts, preferences
from server.store.errors import InvalidError, NotFoundError
from server.store.models import GamePreference
from server.store.preferences import DEFAULT_HAND_SORT, HandSort
from tests.support import TestDatabase, run_with_sessions
from tests.support import api_error as error
from tests.support import store_refused as refused

Sessions = async_sessionmaker[AsyncSession]
PASSWORD = "Schafkopf-Laub-" + secrets.token_hex(4)


# --------------------------------------------------------------------------- store


def test_a_sort_is_kept_per_account_and_game(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            anna = await accounts.create_guest(db, "Anna")
            berta = await accounts.create_guest(db, "Berta")
            await db.commit()
        async with sessions() as db:
            assert await preferences.get_hand_sort(db, anna.id, "doppelkopf") == DEFAULT_HAND_SORT
            kept = await preferences.set_hand_sort(
                db, anna.id, "doppelkopf", HandSort("right", "asc", "alternate")
            )
            await db.commit()
        assert kept == HandSort("right", "asc", "alternate")
        async with sessions() as db:
            assert await preferences.get_hand_sort(db, anna.id, "doppelkopf") == kept
            # another game of the same person, and the same game of another person: untouched
            assert await preferences.get_hand_sort(db, anna.id, "doppen") == DEFAULT_HAND_SORT
            assert await preferences.get_hand_sort(db, berta.id, "doppelkopf") == DEFAULT_HAND_SORT
            # set again: the one row changes
            await preferences.set_hand_sort(
                db, anna.id, "doppelkopf", HandSort("left", "asc", "pack")
            )
            await db.commit()
        async with sessions() as db:
            assert await preferences.get_hand_sort(db, anna.id, "doppelkopf") == HandSort(
                "left", "asc", "pack"
            )
            rows = await db.scalar(select(func.count()).select_from(GamePreference))
            assert rows == 1

    run_with_sessions(store_db, scenario)


def test_bad_sorts_and_games_are_refused_and_nothing_is_kept(store_db: TestDatabase) -> None:
    async def scenario(sessions: Sessions) -> None:
        async with sessions() as db:
            anna = await accounts.create_guest(db, "Anna")
            await db.commit()
        with refused(NotFoundError, "unknown_game"):
            async with sessions() as db:
                await preferences.set_hand_sort(db, anna.id, "skat", DEFAULT_HAND_SORT)
        with refused(NotFoundError, "unknown_game"):
            async with sessions() as db:
                await preferences.get_hand_sort(db, anna.id, "skat")
        async with sessions() as db:
            assert await db.scalar(select(func.count()).select_from(GamePreference)) == 0

    run_with_sessions(store_db, scenario)


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"trumps": "middle", "order": "asc", "suits": "pack"}, "'trumps'"),
        ({"trumps": "left", "order": "up", "suits": "pack"}, "'order'"),
        ({"trumps": "left", "order": "asc"}, "'suits'"),
        ({"trumps": "left", "order": "asc", "suits": 1}, "'suits'"),
        ({"trumps": "left", "order": "asc", "suits": "pack", "colour": "red"}, "'colour'"),
        ({"trumps": ["left"], "order": "asc", "suits": "pack"}, "'trumps'"),
    ],
)
def test_check_hand_sort_names_the_wrong_choice(values: dict[str, object], named: str) -> None:
    with refused(InvalidError, "bad_hand_sort"):
        try:
            preferences.check_hand_sort(values)
        except InvalidError as exc:
            assert named in exc.message and named in exc.message_de
            raise


# --------------------------------------------------------------------------- HTTP


def _register(client: httpx.Client, login: str) -> None:
    response = client.post(
        "/api/register", json={"login": login, "password": PASSWORD, "display_name": login}
    )
    assert response.status_code == 201, response.text


def _page_sort(client: httpx.Client, room_id: int) -> dict[str, str]:
    """The hand sort the table page of ``room_id`` carries."""
    page = client.get(f"/rooms/{room_id}/table")
    assert page.status_code == 200, page.text
    found = re.search(r'data-hand-sort="([^"]*)"', page.text)
    assert found, "the table page carries no hand sort"
    value: dict[str, str] = json.loads(html.unescape(found.group(1)))
    return value


def test_set_read_refuse_over_http(play_server: tuple[str, str]) -> None:
    base, _db = play_server
    login = f"sortierer_{secrets.token_hex(3)}"
    with (
        httpx.Client(base_url=base, timeout=15) as phone,
        httpx.Client(base_url=base, timeout=15) as laptop,
    ):
        # logged out: no sort to read or set
        error(phone.get("/api/me/hand-sort/doppelkopf"), 401, "login_required")
        _register(phone, login)
        assert phone.get("/api/me/hand-sort/doppelkopf").json() == {
            "game": "doppelkopf",
            "trumps": "left",
            "order": "desc",
            "suits": "pack",
        }
        chosen = {"trumps": "right", "order": "asc", "suits": "alternate"}
        put = phone.put("/api/me/hand-sort/doppelkopf", json=chosen)
        assert put.status_code == 200, put.text
        assert put.json() == {"game": "doppelkopf", **chosen}
        # bad input: a coded refusal, and the kept sort stays as it was
        bad = [
            {"trumps": "middle", "order": "asc", "suits": "pack"},
            {"trumps": "left", "order": "asc"},
            {"trumps": "left", "order": "asc", "suits": "pack", "extra": "x"},
            {"trumps": "left", "order": 2, "suits": "pack"},
        ]
        for body in bad:
            error(phone.put("/api/me/hand-sort/doppelkopf", json=body), 422, "bad_hand_sort")
        error(phone.put("/api/me/hand-sort/doppelkopf", json=["left"]), 422, "invalid_request")
        error(phone.put("/api/me/hand-sort/skat", json=chosen), 404, "unknown_game")
        error(phone.get("/api/me/hand-sort/skat"), 404, "unknown_game")
        assert phone.get("/api/me/hand-sort/doppelkopf").json() == {"game": "doppelkopf", **chosen}
        # another game keeps its own (the defaults)
        assert phone.get("/api/me/hand-sort/doppen").json()["trumps"] == "left"

        # the same account on another device: the same sort, on the table page too
        login_response = laptop.post("/api/login", json={"login": login, "password": PASSWORD})
        assert login_response.status_code == 200, login_response.text
        assert laptop.get("/api/me/hand-sort/doppelkopf").json() == {
            "game": "doppelkopf",
            **chosen,
        }
        room = laptop.post("/api/rooms", json={"name": "Sortierrunde", "game": "doppelkopf"})
        assert room.status_code == 201, room.text
        assert _page_sort(laptop, room.json()["id"]) == chosen


def test_a_guest_keeps_a_sort_too(play_server: tuple[str, str]) -> None:
    base, _db = play_server
    with httpx.Client(base_url=base, timeout=15) as guest:
        assert guest.post("/api/guest", json={"display_name": "Gustl"}).status_code == 201
        chosen = {"trumps": "left", "order": "asc", "suits": "pack"}
        assert guest.put("/api/me/hand-sort/tarock-zu-dritt", json=chosen).status_code == 200
        room = guest.post("/api/rooms", json={"name": "Gastrunde", "game": "tarock-zu-dritt"})
        assert room.status_code == 201, room.text
        assert _page_sort(guest, room.json()["id"]) == chosen
        # a room of another game shows that game's sort (the defaults)
        other = guest.post("/api/rooms", json={"name": "Andere", "game": "doppen"})
        assert _page_sort(guest, other.json()["id"]) == {
            "trumps": "left",
            "order": "desc",
            "suits": "pack",
        }
