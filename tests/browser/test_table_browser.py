"""The card table in a real browser (Debian's chromium through Playwright): people play
whole deals by pressing the offered buttons and tapping the highlighted cards, as they
would on their phones, against a real server.
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import Person, play_until, register_by_api, version
from tests.support import LiveServer


def open_room(host: Page, guests: list[Page], base_url: str, game: str, **settings: object) -> int:
    """The host creates a room, the guests join through the invite link, the host starts."""
    body = {"name": "Stammtisch", "game": game, **settings}
    room = host.request.post(f"{base_url}/api/rooms", data=body)
    assert room.status == 201, room.text()
    data = room.json()
    token = data["invite_url"].rsplit("/", 1)[1]
    for page in guests:
        joined = page.request.post(f"{base_url}/api/invite/{token}/join", data={"role": "player"})
        assert joined.status == 200, joined.text()
    started = host.request.post(f"{base_url}/api/rooms/{data['id']}/start")
    assert started.status == 200, started.text()
    room_id: int = data["id"]
    return room_id


def seat_people(
    new_person: NewPerson, base_url: str, names: list[str], game: str, **settings: object
) -> tuple[int, list[Person]]:
    """Register everybody, open a room and bring everybody to the table page."""
    pages = [new_person() for _ in names]
    for page, name in zip(pages, names, strict=True):
        register_by_api(page, base_url, name)
    room = open_room(pages[0], pages[1:], base_url, game, **settings)
    people = [Person(name, page) for name, page in zip(names, pages, strict=True)]
    for person in people:
        person.page.goto(f"{base_url}/rooms/{room}/table")
    for person in people:
        expect(person.page.locator("#turn")).not_to_have_text("Verbinde mit dem Tisch…")
    return room, people


def test_a_dreierles_deal_is_played_to_the_score_sheet(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Anna", "Bernd", "Catrin"], "dreierles")
    anna = people[0]
    # Exactly one person is told it is their turn, and the others see whose it is.
    turns = [p.my_turn() for p in people]
    assert turns.count(True) == 1
    mover = people[turns.index(True)]
    for other in people:
        if other is not mover:
            expect(other.page.locator("#turn")).to_have_text(f"{mover.name} ist am Zug")
    expect(mover.page.locator("#actions button", has_text="Weiter")).to_be_enabled()
    expect(anna.page.locator("#hand button")).to_have_count(16)

    rng = random.Random(7)
    moves = play_until(
        people,
        lambda: anna.page.locator("#trick .card").count() == 2,
        rng,
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    # Mid-trick: the phone fits the turn, the trick and the whole hand without scrolling.
    anna.page.screenshot(path=artifacts / "table-dreierles-360.png")
    assert anna.page.evaluate("document.documentElement.scrollWidth") <= 360
    hand_bottom = anna.page.locator("#hand").evaluate("n => n.getBoundingClientRect().bottom")
    assert hand_bottom <= 740

    moves += play_until(
        people,
        lambda: anna.page.locator("#result-dialog").is_visible(),
        rng,
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    assert moves >= 48  # 16 tricks of three cards at least
    result = anna.page.locator("#result-dialog")
    expect(result).to_contain_text("Kartenpunkte")
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_visible()
        person.close_result()
    anna.page.get_by_role("button", name="Schreibe").click()
    sheet = anna.page.locator("#sheet-dialog")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    expect(sheet.locator("tbody tr").first).to_contain_text("Zweier")
    # The next deal is dealt at once: everybody holds sixteen cards again.
    expect(anna.page.locator("#hand button")).to_have_count(16)
    assert version(anna.page) > moves
