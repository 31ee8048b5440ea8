"""What makes the table feel like a table (issue 13): the turn timer counts down on the
seat to move and marks what it played; the last trick and the result stay until every
player tapped "Weiter"; the dealer and the Vorhand are marked; "Du bist dran" in the tab
title; cards are buttons named after the card and playable with the keyboard; movement
stops for people who asked for less.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import (
    play_until,
    trick_boxes,
    version,
    wait_for_turn,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

CLOCK = re.compile(r"^\d+:\d\d$")


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_turn_timer_counts_down_on_the_seat_and_marks_what_it_played(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Anna", "Bernd", "Catrin"]
    _room, people = seat_people(
        new_person, module_server.base_url, names, "dreierles", timer_seconds=10
    )
    mover = wait_for_turn(people)
    for person in people:
        timer = person.page.locator(f'.seat:has-text("{mover.name}") [role="timer"]')
        expect(timer).to_have_count(1)
        expect(timer).to_have_text(CLOCK)
        # only the seat to move has a countdown
        expect(person.page.locator('#seats [role="timer"]')).to_have_count(1)
    page = people[0].page
    timer = page.locator('#seats [role="timer"]')
    first = seconds(timer.inner_text())
    assert 0 < first <= 10
    # it counts down (whatever the speed) and warns near the end, with a sign besides colour
    page.wait_for_function(
        "first => { const n = document.querySelector('#seats [role=timer]');"
        " if (!n) return false; const [m, s] = n.textContent.split(':');"
        " return Number(m) * 60 + Number(s) < first; }",
        arg=first,
        timeout=15_000,
    )
    expect(timer).to_have_class(re.compile(r"\bwarning\b"))
    expect(timer).to_have_attribute("aria-label", re.compile(rf"^{mover.name}: "))
    # nobody moves: the timer plays for the mover, and everybody sees it marked
    before = version(page)
    page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
        timeout=30_000,
    )
    for person in people:
        seat = person.page.locator(".seat", has_text=mover.name)
        expect(seat.locator(".badge", has_text="Timer hat gespielt")).to_be_visible()
        expect(person.page.locator("#notice")).to_contain_text(
            f"Zeit abgelaufen: für {mover.name} gespielt"
        )


def test_the_next_deal_waits_for_everybodys_weiter(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Xaver", "Yvonne", "Zora"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    xaver = people[0]
    # the markers of the dealer and of the Vorhand, named for screen readers
    for person in people:
        expect(person.page.locator('.seat-marker[aria-label="Vorhand"]')).to_have_count(1)
    # the mover's tab title says it is their turn, the others' do not
    mover = wait_for_turn(people)
    expect(mover.page).to_have_title(re.compile(r"^Du bist dran · "))
    for person in people:
        if person is not mover:
            expect(person.page).not_to_have_title(re.compile(r"^Du bist dran"))
    play_until(
        people,
        lambda: xaver.page.locator("#result-dialog").is_visible(),
        random.Random(9),
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    for person in people:
        dialog = person.page.locator("#result-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Kartenpunkte")
        # the last trick stays in view with the result
        assert len(trick_boxes(person.page, "#result-trick")) == 3
        expect(person.page.locator("#deal-waiting")).to_contain_text(
            "Wir warten auf: Xaver, Yvonne, Zora"
        )
    # two tap "Weiter": the table still waits for the third, nothing is dealt
    for person in people[:2]:
        person.page.locator("#result-close").click()
    for person in people:
        expect(person.page.locator("#deal-waiting")).to_have_text("Wir warten auf: Zora")
    expect(people[0].page.locator("#result-close")).to_be_disabled()
    expect(people[2].page.locator("#result-close")).to_be_enabled()
    expect(people[2].page.locator("#hand button")).to_have_count(0)
    # the last one taps: the result closes everywhere and the next deal is dealt
    people[2].page.locator("#result-close").click()
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_hidden()
        expect(person.page.locator("#hand button")).to_have_count(16)
        expect(person.page.locator("#deal-number")).to_have_text("Spiel 2")


def test_cards_are_named_buttons_playable_by_keyboard(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Ute", "Paul", "Rita", "Olaf"]
    _room, people = seat_people(new_person, module_server.base_url, names, "doppelkopf")
    for _ in range(4):
        mover = wait_for_turn(people)
        mover.page.get_by_role("button", name="Gesund", exact=True).press("Enter")
    mover = wait_for_turn(people)
    hand = mover.page.locator("#hand button")
    names_of_cards = hand.evaluate_all("ns => ns.map(n => n.getAttribute('aria-label'))")
    assert all(
        re.fullmatch(r"(Kreuz|Pik|Herz|Karo) (Ass|König|Dame|Bube|10|9|Zehn|Neun)", n)
        for n in names_of_cards
    ), names_of_cards
    # playable cards differ by more than colour: they are lifted and say so
    playable = mover.page.locator('#hand button[aria-disabled="false"]').first
    label = playable.get_attribute("aria-label")
    before = version(mover.page)
    playable.focus()
    mover.page.keyboard.press("Enter")
    mover.page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
    )
    assert label is not None
    played = mover.page.locator("#trick .card").first.get_attribute("title")
    assert played is not None and played.startswith(label)


def test_no_card_flies_for_people_who_asked_for_less_movement(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Ida", "Jan", "Kai"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    for person in people:
        person.page.emulate_media(reduced_motion="reduce")
    play_until(
        people,
        lambda: people[0].page.locator("#trick:not(.collected) .card").count() == 2,
        random.Random(4),
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    for person in people:
        names_ = person.page.locator("#trick .slot").evaluate_all(
            "ns => ns.map(n => getComputedStyle(n).animationName)"
        )
        assert names_ and all(name == "none" for name in names_), names_


def test_a_forced_deal_is_announced_at_the_table(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """A match of one round: its only round is the final one, "Räuber oder Solo", and the
    table says so above the felt before anybody bids (spec13 §3)."""
    names = ["Lena", "Max", "Nora"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles", rounds=1)
    for person in people:
        expect(person.page.locator("#setup-note")).to_have_text("Letzte Runde: Räuber oder Solo")


def test_a_rauber_result_shows_every_players_card_points(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """Nobody bids: the Räuber is played, and its result names the contract in German and
    gives each player's card points besides the talon's."""
    names = ["Olga", "Piet", "Quirin"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    olga = people[0]
    play_until(
        people,
        lambda: olga.page.locator("#result-dialog").is_visible(),
        random.Random(6),
        prefer=["Weiter", "Fertig"],
    )
    dialog = olga.page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("Räuber")
    for name in names:
        expect(dialog).to_contain_text(re.compile(rf"{name}: \d+( \d/\d)? Kartenpunkte"))
    expect(dialog).to_contain_text("Talon: ")
    expect(dialog).not_to_contain_text("raeuber")


def test_signals_are_off_until_switched_on_and_remembered(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Vera", "Wim", "Yara"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    page = people[0].page
    page.get_by_role("button", name="Signale bei „Du bist dran“").click()
    dialog = page.locator("#settings-dialog")
    for label in ("Ton", "Vibration", "Benachrichtigung, wenn der Tab im Hintergrund ist"):
        expect(dialog.get_by_label(label)).not_to_be_checked()
    dialog.get_by_label("Ton").check()
    page.reload()
    page.get_by_role("button", name="Signale bei „Du bist dran“").click()
    expect(dialog.get_by_label("Ton")).to_be_checked()
    expect(dialog.get_by_label("Vibration")).not_to_be_checked()
