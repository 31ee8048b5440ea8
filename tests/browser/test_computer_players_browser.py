"""Computer players in a real browser (Debian's chromium through Playwright): the host
seats them on the room page ("Computer hinzufügen"), plays a Doppelkopf deal with three of
them to its end, and a practice room is started from the start page."""

from __future__ import annotations

import random
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.axe import describe, run_axe, serious
from tests.browser.conftest import DESKTOP, NewPerson
from tests.browser.table_driver import Person, play_until, register_by_api
from tests.support import LiveServer


def test_one_person_plays_a_doppelkopf_deal_with_three_computer_players(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    page = new_person(viewport=DESKTOP)
    register_by_api(page, base, "Anna")
    # no Schmeißen: the searching player throws five Neunen or Könige in; this deal is played
    body = {"name": "Übungsabend", "game": "doppelkopf", "rounds": 2,
            "computer_pause_ms": [0, 0], "options": {"schmeissen": "aus"}}  # fmt: skip
    created = page.request.post(f"{base}/api/rooms", data=body)
    assert created.status == 201, created.text()
    room = created.json()["id"]
    page.goto(f"{base}/rooms/{room}")
    # the host seats them: one strong, two beginners
    page.locator("#computer-level").select_option("stark")
    page.locator("#add-computer").click()
    expect(page.locator("#seats .computer-mark")).to_have_count(1)
    page.locator("#computer-level").select_option("einsteiger")
    for count in (2, 3):
        page.locator("#add-computer").click()
        expect(page.locator("#seats .computer-mark")).to_have_count(count)
    marks = page.locator("#seats .computer-mark").all_inner_texts()
    assert [m.strip() for m in marks] == [
        "Computer (stark)", "Computer (Einsteiger)", "Computer (Einsteiger)"
    ]  # fmt: skip
    expect(page.locator("#add-computer")).to_have_count(0)  # every seat is taken
    page.reload()  # the settings say the computer players' pace
    expect(page.locator('#rules li[data-rule="computer-pace"]')).to_have_text(
        "Tempo der Computerspieler: 0 s"
    )
    page.screenshot(path=str(artifacts / "computer-players-room.png"))
    found = serious(run_axe(page))
    assert not found, "\n".join(describe(found))
    page.locator("#start-match").click()
    page.wait_for_url(re.compile(rf"/rooms/{room}/table$"))
    expect(page.locator("#turn")).not_to_have_text("Verbinde mit dem Tisch…")
    # every computer player's seat says so in words, beside the icon
    seats = page.locator("#seats .seat.computer .computer-label")
    expect(seats).to_have_count(3)
    assert sorted(seats.all_inner_texts()) == [
        "Computer (Einsteiger)", "Computer (Einsteiger)", "Computer (stark)"
    ]  # fmt: skip
    expect(page.locator("#seats .seat.computer .computer-icon")).to_have_count(3)
    expect(page.locator("#seats .seat.computer.offline")).to_have_count(0)
    page.screenshot(path=str(artifacts / "computer-players-table.png"))
    found = serious(run_axe(page))
    assert not found, "\n".join(describe(found))
    anna = Person("Anna", page)
    moves = play_until(
        [anna],
        lambda: page.locator("#result-dialog").is_visible(),
        random.Random(7),
        prefer=["Gesund"],
    )
    assert moves >= 13  # her reservation and her twelve cards (and any call she made)
    expect(page.locator("#result-dialog")).to_be_visible()
    # the result's ledger and the score sheet mark them too
    expect(page.locator("#result-dialog td.ledger-player .computer-mark")).to_have_count(3)
    expect(page.locator("#sheet th .computer-mark")).to_have_count(3)
    # and so do the archive's sheet and the replay of the deal
    match_id = page.request.get(f"{base}/api/history/matches").json()["matches"][0]["id"]
    deals = page.request.get(f"{base}/api/history/matches/{match_id}").json()["deals"]
    page.goto(f"{base}/archive/matches/{match_id}")
    expect(page.locator("#sheet th .computer-mark")).to_have_count(3)
    assert "Computer (stark)" in page.locator("#sheet thead").inner_text()
    page.goto(f"{base}/archive/deals/{deals[0]['id']}")
    expect(page.locator(".replay-seat-head .computer-mark")).to_have_count(3)


def test_a_practice_room_is_started_from_the_start_page(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    page = new_person(viewport=DESKTOP)
    register_by_api(page, base, "Bea")
    page.goto(f"{base}/")
    practice = page.locator('form.practice[data-game="doppelkopf"]')
    expect(practice.locator("button")).to_have_text("Üben mit Computerspielern")
    practice.locator("button").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/table$"))
    expect(page.locator("#seats .seat.computer .computer-label")).to_have_count(3)
    # the computer players move at their pace until it is Bea's turn
    expect(page.locator("#turn")).to_have_text(re.compile("^Du bist am Zug"), timeout=30_000)


def test_the_room_form_sets_the_computer_players_pace(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    page = new_person()
    register_by_api(page, base, "Cleo")
    page.goto(f"{base}/rooms/new?game=dreierles")
    pace = page.get_by_label("Tempo der Computerspieler")
    expect(pace).to_have_value("800-1500")  # the default: like people at a table
    pace.select_option(label="flott (0,3–0,6 s)")
    page.get_by_label("Name des Raums").fill("Schnelle Runde")
    page.get_by_role("button", name="Raum anlegen").click()
    expect(page).to_have_url(re.compile(r"/rooms/\d+$"))
    room = page.url.rsplit("/", 1)[1]
    answer = page.request.get(f"{base}/api/rooms/{room}")
    assert answer.json()["computer_pause_ms"] == [300, 600]
