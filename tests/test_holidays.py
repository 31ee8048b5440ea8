"""A room's tempo and holiday days, and the holidays API, over HTTP against a real server
(the machine's clock: "today" is the UTC date)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.support import Guest
from tests.support import api_error as error

pytestmark = pytest.mark.live_server


def create(client: httpx.Client, **fields: Any) -> dict[str, Any]:
    body = {"name": "Fernpartie", "game": "dreierles", **fields}
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    return room


def join(client: httpx.Client, room: dict[str, Any]) -> None:
    token = room["invite_url"].removeprefix("/r/")
    response = client.post(f"/api/invite/{token}/join", json={"role": "player"})
    assert response.status_code == 200, response.text


def user_id(client: httpx.Client) -> int:
    response = client.get("/api/me")
    assert response.status_code == 200, response.text
    found: int = response.json()["id"]
    return found


def take(client: httpx.Client, room: dict[str, Any], start: date, days: int) -> httpx.Response:
    return client.post(f"/api/rooms/{room['id']}/holidays",
                       json={"start": start.isoformat(), "days": days})  # fmt: skip


def test_the_tempo_and_holiday_days_of_a_room(guest: Guest) -> None:
    host = guest("Wirt")
    live = create(host)
    assert (live["tempo_seconds"], live["holiday_days"]) == (None, 14)
    fern = create(host, tempo_seconds=604800, holiday_days=0, timer_seconds=30)
    assert (fern["tempo_seconds"], fern["holiday_days"]) == (604800, 0)
    assert fern["timer_seconds"] is None  # a Fernpartie has no live turn timer
    before = len(host.get("/api/rooms").json()["rooms"])
    cases: list[tuple[dict[str, Any], str]] = [
        ({"tempo_seconds": 3600}, "bad_tempo"),
        ({"tempo_seconds": 43200.0}, "invalid_request"),  # not an integer: malformed
        ({"tempo_seconds": 43200, "holiday_days": 61}, "bad_holiday_days"),
        ({"holiday_days": -1}, "bad_holiday_days"),
    ]
    for fields, code in cases:
        response = host.post("/api/rooms", json={"name": "x", "game": "dreierles", **fields})
        error(response, 422, code)
    assert len(host.get("/api/rooms").json()["rooms"]) == before


def test_coded_refusals_of_the_options(guest: Guest) -> None:
    host = guest("Wirt")
    response = host.post("/api/rooms", json={"name": "x", "game": "dreierles",
                                             "tempo_seconds": 7200})  # fmt: skip
    error(response, 422, "bad_tempo")
    response = host.post("/api/rooms", json={"name": "x", "game": "dreierles",
                                             "holiday_days": 100})  # fmt: skip
    error(response, 422, "bad_holiday_days")


def test_holidays_within_the_yearly_allowance(guest: Guest) -> None:
    host, friend, stranger = guest("Anna"), guest("Bernd"), guest("Fremd")
    room = create(host, tempo_seconds=86400, holiday_days=5)
    join(friend, room)
    url = f"/api/rooms/{room['id']}/holidays"
    year = datetime.now(UTC).year + 1  # a year ahead: every day of it lies in the future
    first = host.get(url, params={"year": year}).json()
    assert first == {"allowed": 5, "year": year, "used": 0, "holidays": []}
    march = date(year, 3, 1)
    taken = take(host, room, march, 3)
    assert taken.status_code == 201, taken.text
    holiday = taken.json()
    assert holiday == {"id": holiday["id"], "user_id": user_id(host), "name": "Anna",
                       "starts_at": f"{year}-03-01T00:00:00Z",
                       "ends_at": f"{year}-03-04T00:00:00Z", "days": 3}  # fmt: skip
    # overlapping his own: refused; beyond the allowance: refused; what is left: fine
    error(take(host, room, march + timedelta(days=2), 1), 409, "holiday_overlaps")
    error(take(host, room, date(year, 3, 10), 3), 422, "holiday_days_exceeded")
    assert take(host, room, date(year, 3, 10), 2).status_code == 201
    error(take(host, room, date(year, 6, 1), 1), 422, "holiday_days_exceeded")
    listed = host.get(url, params={"year": year}).json()
    assert listed["used"] == 5 and [h["days"] for h in listed["holidays"]] == [3, 2]
    # another person's allowance is his own, and his days may overlap Anna's
    assert take(friend, room, march, 5).status_code == 201
    seen = friend.get(url, params={"year": year}).json()
    assert seen["used"] == 5
    assert [h["name"] for h in seen["holidays"]] == ["Anna", "Bernd", "Anna"]
    # taken back before it began: gone, the days free again; not another's
    error(friend.delete(f"{url}/{holiday['id']}"), 404, "holiday_not_found")
    assert host.delete(f"{url}/{holiday['id']}").status_code == 204
    assert host.get(url, params={"year": year}).json()["used"] == 2
    error(host.delete(f"{url}/{holiday['id']}"), 404, "holiday_not_found")
    # not a member: the room is not found for him, and nothing is stored
    error(stranger.get(url), 404, "room_not_found")
    error(take(stranger, room, march, 1), 404, "room_not_found")
    assert len(host.get(url, params={"year": year}).json()["holidays"]) == 2


def test_a_holiday_starts_today_or_later_and_has_whole_days(guest: Guest) -> None:
    host = guest("Anna")
    room = create(host, tempo_seconds=43200)
    today = datetime.now(UTC).date()
    error(take(host, room, today - timedelta(days=1), 1), 422, "holiday_in_past")
    error(take(host, room, today + timedelta(days=1), 0), 422, "bad_holiday")
    bad = host.post(f"/api/rooms/{room['id']}/holidays", json={"start": "2030-02-30", "days": 1})
    error(bad, 422, "invalid_request")
    # at most a year and a day ahead (also no holiday at the end of the calendar)
    error(take(host, room, today + timedelta(days=367), 1), 422, "holiday_too_far")
    for far in ("9999-12-31", "9999-12-25"):
        refused = host.post(f"/api/rooms/{room['id']}/holidays", json={"start": far, "days": 14})
        error(refused, 422, "holiday_too_far")
    ahead = take(host, room, today + timedelta(days=366), 1)
    assert ahead.status_code == 201, ahead.text
    assert host.delete(f"/api/rooms/{room['id']}/holidays/{ahead.json()['id']}").status_code == 204
    # one under way, taken back: it ends at the end of today
    started = take(host, room, today, 3)
    assert started.status_code == 201, started.text
    url = f"/api/rooms/{room['id']}/holidays"
    assert host.delete(f"{url}/{started.json()['id']}").status_code == 204
    (shortened,) = host.get(url).json()["holidays"]
    tomorrow = today + timedelta(days=1)
    assert shortened["ends_at"] == f"{tomorrow.isoformat()}T00:00:00Z"
    assert shortened["days"] == 1


def test_a_live_room_has_no_holidays(guest: Guest) -> None:
    host = guest("Anna")
    room = create(host)
    error(take(host, room, datetime.now(UTC).date(), 1), 422, "not_correspondence")
