"""The card table in a real browser (Debian's chromium through Playwright): people play
whole deals by pressing the offered buttons and tapping the highlighted cards, as they
would on their phones, against a real server.
"""

from __future__ import annotations

import os
import random
import re
import signal
from pathlib import Path

from playwright.sync_api import Dialog, Page, ViewportSize, expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.browser.table_driver import (
    Person,
    move,
    play_until,
    register_by_api,
    trick_cards,
    version,
    wait_for_turn,
)
from tests.support import LiveServer, free_port, server_process, sqlite_url, upgrade


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
    new_person: NewPerson,
    base_url: str,
    names: list[str],
    game: str,
    viewport: ViewportSize | None = None,
    **settings: object,
) -> tuple[int, list[Person]]:
    """Register everybody, open a room and bring everybody to the table page (phones
    unless ``viewport`` says otherwise)."""
    pages = [new_person(viewport=viewport) for _ in names]
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
        lambda: trick_cards(anna) == 2,
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
    anna.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = anna.page.locator("#sheet-dialog")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    expect(sheet.locator("tbody tr").first).to_contain_text("Zweier")
    # Everybody tapped "Weiter": the next deal is dealt, everybody holds sixteen cards again.
    expect(anna.page.locator("#hand button")).to_have_count(16)
    assert version(anna.page) > moves


def test_a_doppelkopf_deal_with_a_vorbehalt(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    names = ["Ute", "Paul", "Rita", "Olaf"]
    _room, people = seat_people(new_person, base, names, "doppelkopf")
    first = wait_for_turn(people)
    options = first.options()
    assert "Gesund" in options and "Damensolo" in options
    assert not any(o.startswith("card:") for o in options)  # no card before the Vorbehalte
    move(first, "Damensolo")
    # The others see a Vorbehalt, not which one.
    for person in people:
        if person is not first:
            expect(person.page.locator(".seat", has_text=first.name)).to_contain_text("Vorbehalt")
            expect(person.page.locator(".seat", has_text=first.name)).not_to_contain_text("Damen")
    for _ in range(3):
        move(wait_for_turn(people), "Gesund")
    # The solo is announced to everybody; the soloist leads (Damensolo: only Damen trump).
    for person in people:
        expect(person.page.locator("#info")).to_contain_text(f"{first.name} spielt Damensolo")
    expect(first.page.locator("#turn")).to_have_text("Du bist am Zug: spiel eine Karte")
    play_until(people, lambda: trick_cards(first) == 2, random.Random(3))
    first.page.screenshot(path=artifacts / "table-doppelkopf-360.png")
    assert first.page.evaluate("document.documentElement.scrollWidth") <= 360
    play_until(people, lambda: first.page.locator("#result-dialog").is_visible(), random.Random(4))
    result = first.page.locator("#result-dialog")
    expect(result).to_contain_text("Damensolo")
    expect(result).to_contain_text("Augen: Re")
    for person in people:  # everybody taps "Weiter": then the next deal is dealt
        person.close_result()
    first.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    expect(first.page.locator("#sheet-dialog tbody tr").first).to_contain_text("Damensolo")


def test_reload_in_the_middle_of_a_trick_resumes_the_table(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Xaver", "Yvonne", "Zora"], "dreierles")
    rng = random.Random(11)
    play_until(
        people,
        lambda: trick_cards(people[0]) == 1,
        rng,
        prefer=["Dreier", "Weiter", "Fertig"],
    )
    page = people[1].page
    hand = page.locator("#hand button").count()
    turn = page.locator("#turn").inner_text()
    trick = page.locator("#trick .card").evaluate_all("ns => ns.map(n => n.dataset.card)")
    page.reload()
    expect(page.locator("#hand button")).to_have_count(hand)
    expect(page.locator("#turn")).to_have_text(turn)
    assert page.locator("#trick .card").evaluate_all("ns => ns.map(n => n.dataset.card)") == trick
    # ... and play goes on from there, the reloaded page included.
    play_until(people, lambda: trick_cards(people[0]) == 0, rng)
    expect(page.locator(".seat", has_text="Yvonne")).not_to_contain_text("offline")


def test_an_illegal_card_is_explained_and_changes_nothing(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Ida", "Jan", "Kai"], "dreierles")
    rng = random.Random(5)

    def someone_must_follow() -> bool:
        return any(
            p.my_turn()
            and trick_cards(p) > 0
            and p.page.locator('#hand button[aria-disabled="true"]').count() > 0
            for p in people
        )

    play_until(people, someone_must_follow, rng, prefer=["Dreier", "Weiter", "Fertig"])
    mover = next(p for p in people if p.my_turn())
    before = version(mover.page)
    # A person can tap a dimmed card (it is only marked unplayable, not switched off).
    dimmed = mover.page.locator('#hand button[aria-disabled="true"]').first
    dimmed.click(force=True, position={"x": 12, "y": 16})
    notice = mover.page.locator("#notice")
    expect(notice).to_be_visible()
    # The server's refusal names the follow rule (Farbzwang, Tarockzwang, Trumpfzwang).
    expect(notice).to_contain_text(re.compile(r"(Farb|Trumpf|Tarock)zwang"))
    assert version(mover.page) == before
    expect(mover.page.locator("#turn")).to_contain_text("Du bist am Zug")


MARKUP = "<b>Fritz</b><img src=x onerror=alert(1)>"


def test_names_and_chat_with_markup_are_shown_as_text(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, [MARKUP, "Gerda", "Hugo"], "dreierles")
    fritz, gerda = people[0], people[1]
    dialogs: list[str] = []

    def record(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    gerda.page.on("dialog", record)
    expect(gerda.page.locator(".seat", has_text=MARKUP)).to_be_visible()
    fritz.page.get_by_role("button", name="Chat").click()
    fritz.page.locator("#chat-text").fill("<i>Servus</i> <script>alert(2)</script>")
    fritz.page.get_by_role("button", name="Senden").click()
    expect(gerda.page.locator("#chat-unread")).to_have_text("1")
    gerda.page.get_by_role("button", name="Chat").click()
    line = gerda.page.locator("#chat-lines li").last
    expect(line).to_contain_text("<i>Servus</i> <script>alert(2)</script>")
    expect(line).to_contain_text(MARKUP)
    assert (
        gerda.page.locator("#chat-lines i, #chat-lines script, #seats b, #seats img").count() == 0
    )
    assert dialogs == []


def test_the_table_reconnects_by_itself_after_a_server_crash(
    new_person: NewPerson, tmp_path: Path
) -> None:
    """The server dies in the middle of a trick: every page says it is reconnecting, and
    when the server is back (same address, same database) the table is where it was."""
    database = sqlite_url(tmp_path / "crash.sqlite3")
    off_the_loop(upgrade, database)
    log, port = tmp_path / "uvicorn.log", free_port()
    with server_process(database, log, port=port) as (base, process):
        _room, people = seat_people(new_person, base, ["Lena", "Max", "Nora"], "dreierles")
        rng = random.Random(2)
        play_until(
            people,
            lambda: trick_cards(people[0]) == 1,
            rng,
            prefer=["Dreier", "Weiter", "Fertig"],
        )
        before = [
            (p.page.locator("#hand button").count(), p.page.locator("#turn").inner_text())
            for p in people
        ]
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        for person in people:
            expect(person.page.locator("#connection")).to_contain_text("verbinde neu")
    with server_process(database, log, port=port):
        for person, (cards, turn) in zip(people, before, strict=True):
            expect(person.page.locator("#connection")).to_be_hidden(timeout=20_000)
            expect(person.page.locator("#hand button")).to_have_count(cards)
            expect(person.page.locator("#turn")).to_have_text(turn)
        play_until(people, lambda: trick_cards(people[0]) == 0, rng)


def test_the_table_speaks_english_on_request(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    room, people = seat_people(new_person, base, ["Olga", "Piet", "Quirin"], "dreierles")
    olga = people[0]
    olga.page.goto(f"{base}/rooms/{room}/table?lang=en")
    expect(olga.page.get_by_role("button", name="Score sheet")).to_be_visible()
    mover = wait_for_turn(people)
    turn = olga.page.locator("#turn")
    if mover is olga:
        expect(turn).to_have_text("Your turn: bid or pass")
        expect(olga.page.get_by_role("button", name="Pass")).to_be_enabled()
    else:
        expect(turn).to_have_text(f"{mover.name} to move")
    expect(olga.page.locator("#hand button").first).to_have_attribute(
        "aria-label", re.compile(r"^(Trump \d+( \(Pfeife\))?|Stieß|\w+ of \w+)$")
    )
