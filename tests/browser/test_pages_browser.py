"""The pages in a real browser: register, create a room, invite, start, play a deal.

Three people, each in their own browser context at phone size, as friends on a video
call would be. The assertions are on what a person sees.
"""

from __future__ import annotations

import random
import re
import secrets
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, NewPerson
from tests.browser.table_driver import Person, play_until
from tests.support import LiveServer

MARKUP_NAME = "<b>Cilli</b><script>alert(1)</script>"


def no_dialogs(page: Page) -> list[str]:
    """Record every alert/confirm the page opens (there must be none)."""
    seen: list[str] = []

    def record(dialog: object) -> None:
        seen.append(getattr(dialog, "message", "?"))
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", record)
    return seen


def register(page: Page, base_url: str, name: str) -> None:
    """Register on the start page and wait for the logged-in start page."""
    page.goto(base_url + "/")
    form = page.locator("#register-form")
    form.get_by_label("Login-Name").fill("user" + secrets.token_hex(4))
    form.get_by_label("Anzeigename").fill(name)
    form.get_by_label("Passwort").fill("geheim-genug")
    form.get_by_role("button", name="Konto anlegen").click()
    expect(page.get_by_role("heading", name="Meine Räume")).to_be_visible()


def join_as_guest(page: Page, link: str, name: str) -> None:
    """Open the invite link and join with the one guest form."""
    page.goto(link)
    page.get_by_label("Anzeigename").fill(name)
    page.get_by_role("button", name="Mitspielen").click()
    expect(page).to_have_url(re.compile(r"/rooms/\d+$"))


def test_register_create_invite_join_and_start(
    module_server: LiveServer, new_person: NewPerson, artifacts: Path
) -> None:
    base = module_server.base_url
    anna = new_person()
    dialogs = no_dialogs(anna)
    anna.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    register(anna, base, "Anna")
    expect(anna.get_by_text("Noch keine Räume")).to_be_visible()

    anna.get_by_role("link", name="Neuen Raum anlegen").click()
    anna.get_by_label("Name des Raums").fill("Donnerstag")
    anna.get_by_label("Spiel", exact=True).select_option(label="Dreierles")
    counting = anna.get_by_label("Zählweise")
    expect(counting).to_have_value("whole")  # the default is preselected
    counting.select_option(label="genaue Drittel")
    anna.get_by_role("button", name="Raum anlegen").click()
    expect(anna).to_have_url(re.compile(r"/rooms/\d+$"))
    room_url = anna.url
    expect(anna.get_by_role("heading", name="Donnerstag")).to_be_visible()
    expect(anna.get_by_text("genaue Drittel", exact=True)).to_be_visible()

    anna.get_by_role("button", name="Kopieren").click()
    expect(anna.get_by_text("Link kopiert")).to_be_visible()
    link = anna.get_by_label("Einladungslink").input_value()
    assert re.fullmatch(re.escape(base) + r"/r/[\w-]+", link), link
    assert anna.evaluate("navigator.clipboard.readText()") == link
    start = anna.get_by_role("button", name="Partie starten")
    expect(start).to_be_disabled()

    bernd, cilli = new_person(), new_person()
    register(bernd, base, "Bernd")  # Bernd registers first, then opens the link
    bernd.goto(link)
    bernd.get_by_role("button", name="Mitspielen").click()
    expect(bernd).to_have_url(re.compile(r"/rooms/\d+$"))
    expect(bernd.get_by_text("Warten, bis der Gastgeber startet")).to_be_hidden()  # 2 of 3
    join_as_guest(cilli, link, MARKUP_NAME)
    cilli_dialogs = no_dialogs(cilli)
    expect(bernd.get_by_text("Warten, bis der Gastgeber startet.")).to_be_visible()

    # Anna's page polls: both guests appear, the markup name as plain text.
    seats = anna.locator("#seats")
    expect(seats.get_by_text("Bernd", exact=True)).to_be_visible()
    expect(seats.get_by_text(MARKUP_NAME, exact=True)).to_be_visible()
    assert seats.locator("b, script").count() == 0
    expect(start).to_be_enabled()
    anna.screenshot(path=str(artifacts / "room-360.png"), full_page=True)

    start.click()
    table = re.compile(re.escape(room_url) + r"/table$")
    for person in (anna, bernd, cilli):
        expect(person).to_have_url(table, timeout=10_000)

    # They play the first deal by pressing the offered buttons and tapping the marked
    # cards until the result is shown and the score sheet has its first line.
    people = [Person("Anna", anna), Person("Bernd", bernd), Person(MARKUP_NAME, cilli)]
    moves = play_until(
        people, lambda: anna.locator("#result-dialog").is_visible(), random.Random(1)
    )
    assert moves >= 48
    for player in people:
        expect(player.page.locator("#result-dialog")).to_contain_text("Kartenpunkte")
        player.close_result()
    anna.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    row = anna.locator("#sheet-dialog tbody tr")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text(re.compile(r"Dreier|Zweier|Einer|Solo|Räuber"))
    assert dialogs == [] and cilli_dialogs == []


def test_start_page_fits_a_phone_and_switches_language(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    page = new_person(viewport=PHONE)
    page.goto(module_server.base_url + "/")
    expect(page.get_by_role("heading", name="Als Gast spielen")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("link", name="EN").click()
    expect(page.get_by_role("heading", name="Play as a guest")).to_be_visible()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()

    # Logged in (the language stays English), the page still fits.
    page.locator("#guest-form").get_by_label("Display name").fill("Dora")
    page.get_by_role("button", name="Continue as a guest").click()
    expect(page.get_by_role("heading", name="My rooms")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_login_error_is_shown_next_to_the_form(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    page = new_person()
    dialogs = no_dialogs(page)
    page.goto(module_server.base_url + "/")
    form = page.locator("#login-form")
    form.get_by_label("Login-Name").fill("niemand")
    form.get_by_label("Passwort").fill("falsch-falsch")
    form.get_by_role("button", name="Anmelden").click()
    expect(form.get_by_role("alert")).to_have_text(re.compile(r"\S"))
    assert dialogs == []
