"""Tarock zu dritt in a real browser: three phones play a Lizitation with an overbid into a
Zweier with a talon pair, an announced Pagat and a Kontra on it, to the score sheet; and a
Piccolo ouvert whose hands lie open for everybody after the first trick.

The server deals at random, so the scenario adapts to the cards: the holder of the Pagat
becomes the declarer (Vorhand when the Pagat lies in the talon, where the talon pair brings
it into her hand), and every other choice is the first or a seeded random one.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import (
    hand_outside_viewport,
    move,
    play_until,
    press,
    register_by_api,
    version,
    wait_for_turn,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

GAME = "tarock-zu-dritt"
PAGAT = "T1"


def holds(page: Page, card: str) -> bool:
    """Whether the hand shown on ``page`` holds ``card``."""
    return page.locator(f'#hand button[data-card="{card}"]').count() == 1


def in_viewport(page: Page, selector: str) -> bool:
    """Whether every element matching ``selector`` lies wholly inside the viewport."""
    size = page.viewport_size
    assert size is not None
    boxes = page.locator(selector).evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    assert boxes, selector
    return all(
        x >= -0.5 and y >= -0.5 and r <= size["width"] + 0.5 and b <= size["height"] + 0.5
        for x, y, r, b in boxes
    )


def test_a_zweier_with_an_overbid_a_talon_pair_a_pagat_and_a_kontra(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Anna", "Bernd", "Catrin"], GAME)
    vorhand = wait_for_turn(people)
    # Vorhand opens with "Vorhand!" or a game; she may not pass.
    options = vorhand.options()
    assert "Vorhand!" in options and "Dreier" in options and "Weiter" not in options
    vorhand.page.screenshot(path=artifacts / "table-tarock-zu-dritt-auction-360.png")
    vorhand.page.locator("#actions summary").click()
    vorhand.page.screenshot(path=artifacts / "table-tarock-zu-dritt-auction-open-360.png")
    vorhand.page.locator("#actions summary").click()
    holder = next((p for p in people if holds(p.page, PAGAT)), vorhand)
    order = [
        vorhand,
        people[(people.index(vorhand) + 1) % 3],
        people[(people.index(vorhand) + 2) % 3],
    ]
    for person in people:
        expect(person.page.locator("#hand button")).to_have_count(16)

    # Phase I: Vorhand names the Dreier, the Zweier overbids it.
    press(vorhand, "Dreier")
    mittelhand, hinterhand = order[1], order[2]
    for person in people:
        expect(person.page.locator(".seat", has_text=vorhand.name)).to_contain_text("Dreier")
    if holder is vorhand:  # Mittelhand overbids, Vorhand raises her own bid after that
        press(mittelhand, "Farbenzweier")
        press(hinterhand, "Weiter")
        assert "Farbdreier" not in vorhand.options()  # only what is higher than the bid
        press(vorhand, "Zweier")
        press(mittelhand, "Weiter")
    elif holder is mittelhand:
        press(mittelhand, "Zweier")
        press(hinterhand, "Weiter")
        press(vorhand, "Weiter")
    else:
        press(mittelhand, "Weiter")
        press(hinterhand, "Zweier")
        press(vorhand, "Weiter")
    for person in people:
        expect(person.page.locator("#info")).to_contain_text(f"{holder.name} spielt Zweier")
        expect(person.page.locator("#info")).to_contain_text("Wert 4")

    # Phase II: the talon lies open in three pairs; the declarer taps one.
    page = holder.page
    choices = page.locator("#info button.choice")
    expect(choices).to_have_count(3)
    for person in people:
        expect(person.page.locator("#info .choice .card")).to_have_count(6)
    assert in_viewport(page, "#info button.choice")  # the talon choices stay in view
    assert hand_outside_viewport(page) == []
    page.screenshot(path=artifacts / "table-tarock-zu-dritt-talon-360.png")
    pair = page.locator('#info button.choice:has([data-card="T1"])')
    chosen = pair if pair.count() else choices.first
    taken = chosen.locator(".card").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    before = version(page)
    chosen.click()
    page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
    )
    expect(page.locator("#hand button")).to_have_count(18)
    for code in taken:
        expect(page.locator(f'#hand button[data-card="{code}"]')).to_have_count(1)
    # Two discards, with the restriction said: never a König, never a Trullstück.
    expect(page.locator("#turn")).to_contain_text(
        "Du bist am Zug: lege noch 2 Karten ab (keine Könige"
    )
    rng = random.Random(15)
    for _ in range(2):
        cards = [o for o in holder.options() if o.startswith("card:")]
        assert cards and not any("König" in c for c in cards)
        move(holder, rng.choice(cards))
    assert holds(page, PAGAT)
    press(holder, "Pagat ansagen")
    press(holder, "Ich liege")

    # Phase III: the first opponent kontras the Pagat, then "Gut" all round.
    first = wait_for_turn(people)
    assert first is not holder
    press(first, "Kontra auf den Pagat")
    for person in people:
        expect(person.page.locator("#info")).to_contain_text(f"{holder.name} sagt an: Pagat")
        expect(person.page.locator("#info")).to_contain_text("Kontriert: Pagat: Kontra ×2")
    while "Gut" in (mover := wait_for_turn(people)).options():
        press(mover, "Gut")

    anna = people[0]
    play_until(people, lambda: anna.page.locator("#result-dialog").is_visible(), rng)
    result = anna.page.locator("#result-dialog")
    expect(result).to_contain_text("Kartenpunkte")
    expect(result).to_contain_text("Pagat (angesagt)")
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_visible()
        person.close_result()
    # a list a bid was chosen from is closed at the next decision (the next deal's
    # auction): open, it would lie over the toolbar of a phone
    expect(anna.page.locator("#actions details.action-fold[open]")).to_have_count(0)
    anna.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = anna.page.locator("#sheet-dialog")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    expect(sheet.locator("tbody tr").first).to_contain_text("Zweier")
    expect(sheet.locator("tbody tr").first).to_contain_text(holder.name)

    # The archive: the match's sheet, the deal's replay with the talon, the announcement and
    # the Kontra, the result; the statistics count the Zweier for its declarer.
    page = holder.page
    listed = page.request.get(f"{base}/api/history/matches?game={GAME}").json()["matches"]
    page.goto(f"{base}/archive/matches/{listed[0]['id']}")
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    expect(page.locator("#sheet tbody tr").first).to_contain_text("Zweier")
    page.locator(".deal-item a").first.click()
    expect(page.locator("#step-counter")).to_be_visible()
    page.keyboard.press("End")
    info = page.locator("#replay-info")
    expect(info).to_contain_text("Aus dem Talon genommen")
    expect(info).to_contain_text(f"{holder.name} sagt an: Pagat")
    expect(info).to_contain_text("Kontriert: Pagat: Kontra ×2")
    expect(page.locator("#replay-result")).to_contain_text("Pagat (angesagt)")
    page.screenshot(path=artifacts / "archive-replay-tarock-zu-dritt-360.png", full_page=True)
    page.goto(f"{base}/archive/stats?game={GAME}")
    card = page.locator(".stats-card", has_text=holder.name)
    expect(card.locator(".declarer-games")).to_contain_text("Zweier")


def test_a_piccolo_ouvert_lays_the_hands_open_after_the_first_trick(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Dora", "Emil", "Fritz"], GAME)
    vorhand = wait_for_turn(people)
    press(vorhand, "Piccolo ouvert")
    for _ in range(2):
        press(wait_for_turn(people), "Weiter")
    # No talon, no announcements in a negative game: straight to the Kontra round.
    while "Gut" in (mover := wait_for_turn(people)).options():
        press(mover, "Gut")
    # The declarer leads; nothing lies open before the first trick is complete.
    leader = wait_for_turn(people)
    assert leader is vorhand
    for person in people:
        expect(person.page.locator("#info")).not_to_contain_text("Offen:")
    rng = random.Random(4)
    play_until(people, lambda: vorhand.page.locator("#trick.collected .card").count() == 3, rng)
    for person in people:
        info = person.page.locator("#info")
        others = [p for p in people if p is not person]
        for other in others:
            line = info.locator(".info-line", has_text=f"Offen: {other.name}")
            expect(line.locator(".card")).to_have_count(15)
        expect(info.locator(".info-line", has_text=f"Offen: {person.name}")).to_have_count(0)
    vorhand.page.screenshot(path=artifacts / "table-tarock-zu-dritt-ouvert-360.png")
    assert hand_outside_viewport(vorhand.page) == []


def test_the_room_form_offers_every_house_rule_and_the_packets_are_chosen_at_the_table(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    host = new_person()
    register_by_api(host, base, "Gerda")
    host.goto(f"{base}/rooms/new?game={GAME}")
    helps = {
        "Stille Säcke": "Sack und Doppelsack zählen auch unangesagt (je 1).",
        "Trischaken mit Stichzwang": "ohne: nur Farb- und Tarockzwang",
        # the name is explained where it stands: what the Skoty-Trophy is and what it means
        "Skoty-Trophy-Regeln (einfaches Kontra, einfache Radln)": (
            "Die Regeln der Tiroler Tarockwertung »Skoty-Trophy«: nur einfaches Kontra (kein Re, "
            "kein Sub), keine stillen Säcke, keine doppelten Radln."
        ),
        "Paketwahl (geklopft)": "die Vorhand wählt ihr Paket zuerst",
        "Schlussradl": "Schlussradl zur ersten Vorhand oder zum Gstieß.",
    }
    for label, help_text in helps.items():
        control = host.get_by_label(label, exact=True)
        expect(control).to_be_visible()
        described = control.get_attribute("aria-describedby")
        expect(host.locator(f"#{described}")).to_contain_text(help_text)
    expect(host.get_by_label("Trischaken mit Stichzwang", exact=True)).to_be_checked()
    host.get_by_label("Paketwahl (geklopft)", exact=True).check()
    host.get_by_label("Schlussradl", exact=True).select_option(label="zum Gstieß")
    host.screenshot(path=artifacts / "room-form-tarock-zu-dritt-360.png", full_page=True)
    host.get_by_label("Name des Raums").fill("Tarock am Dienstag")
    host.get_by_role("button", name="Raum anlegen").click()
    expect(host).to_have_url(re.compile(r"/rooms/\d+$"))
    rule = host.locator('#rules li[data-rule="rule.tarock-zu-dritt.schlussradl"]')
    expect(rule.locator(".rule-value")).to_have_text("Schlussradl: zum Gstieß")

    # A room that deals in packets: Vorhand chooses first, then Mittelhand.
    _room, people = seat_people(
        new_person, base, ["Hanna", "Ida", "Jakob"], GAME, options={"geklopft": True}
    )
    vorhand = wait_for_turn(people)
    assert sorted(vorhand.options()) == ["Paket 1", "Paket 2", "Paket 3"]
    for person in people:
        expect(person.page.locator("#hand button")).to_have_count(0)
    press(vorhand, "Paket 2")
    mittelhand = wait_for_turn(people)
    assert sorted(mittelhand.options()) == ["Paket 1", "Paket 3"]
    press(mittelhand, "Paket 1")
    for person in people:
        expect(person.page.locator("#hand button")).to_have_count(16)
    assert "Vorhand!" in wait_for_turn(people).options()


def test_a_trischaken_hangs_a_radl_shown_on_the_table_and_the_sheet(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Karl", "Lena", "Moritz"], GAME)
    vorhand = wait_for_turn(people)
    press(vorhand, "Vorhand!")
    for _ in range(2):
        press(wait_for_turn(people), "Weiter")
    # Everybody passed Vorhand: she chooses a Vorhandspiel.
    assert sorted(vorhand.options()) == ["Sechserdreier", "Trischaken"]
    press(vorhand, "Trischaken")
    for person in people:
        expect(person.page.locator("#setup-note")).to_be_hidden()
    play_until(
        people, lambda: vorhand.page.locator("#result-dialog").is_visible(), random.Random(9)
    )
    expect(vorhand.page.locator("#result-dialog")).to_contain_text("Trischaken")
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_visible()
        person.close_result()
    # The next round counts double: the banner over the table and the line under the sheet.
    for person in people:
        expect(person.page.locator("#setup-note")).to_have_text("Radl: dieses Spiel zählt 2-fach")
    vorhand.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = vorhand.page.locator("#sheet-dialog")
    expect(sheet.locator("tbody tr")).to_have_count(1)
    expect(sheet.locator("tbody tr").first).to_contain_text("Trischaken")
    expect(sheet).to_contain_text("Radl: das nächste Spiel zählt ×2, das Radl läuft noch 3 Spiele")
