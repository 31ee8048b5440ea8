"""The table on a laptop (1366 × 768): the seats sit around the felt, every trick card lies
in front of whoever played it, and the score sheet and the chat open beside the table and
stay open while the game goes on.
"""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import (
    move,
    play_until,
    trick_boxes,
    trick_cards,
    wait_for_turn,
    worst_overlap,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

LAPTOP: ViewportSize = {"width": 1366, "height": 768}


def box(page: Page, selector: str) -> dict[str, float]:
    """The box of the element ``selector`` (viewport coordinates), with its centre."""
    found: dict[str, float] = page.locator(selector).first.evaluate(
        "n => { const r = n.getBoundingClientRect(); return {x: r.left, y: r.top,"
        " right: r.right, bottom: r.bottom, cx: (r.left + r.right) / 2,"
        " cy: (r.top + r.bottom) / 2}; }"
    )
    return found


def distance(a: dict[str, float], b: dict[str, float]) -> float:
    return float(((a["cx"] - b["cx"]) ** 2 + (a["cy"] - b["cy"]) ** 2) ** 0.5)


def test_doppelkopf_on_a_laptop_seats_people_around_the_felt(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    names = ["Ute", "Paul", "Rita", "Olaf"]
    _room, people = seat_people(
        new_person, module_server.base_url, names, "doppelkopf", viewport=LAPTOP
    )
    page = people[0].page
    for _ in range(4):
        move(wait_for_turn(people), "Gesund")
    # The seats around the felt: me below the trick, across above it, the others beside.
    trick = box(page, "#trick")
    bottom, top = box(page, ".seat-bottom"), box(page, ".seat-top")
    left, right = box(page, ".seat-left"), box(page, ".seat-right")
    assert bottom["y"] >= trick["bottom"] - 1 and top["bottom"] <= trick["y"] + 1
    assert left["right"] <= trick["x"] + 1 and right["x"] >= trick["right"] - 1
    assert left["cy"] > top["bottom"] and right["cy"] > top["bottom"]

    # The score sheet and the chat open beside the table and stay open during play.
    page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    page.get_by_role("button", name="Chat").click()
    sheet, chat = page.locator("#sheet-dialog"), page.locator("#chat-dialog")
    expect(sheet).to_be_visible()
    expect(chat).to_be_visible()
    assert box(page, "#sheet-dialog")["x"] >= LAPTOP["width"] / 2
    assert box(page, "#chat-dialog")["x"] >= LAPTOP["width"] / 2

    play_until(people, lambda: trick_cards(people[0]) == 3, random.Random(8))
    expect(sheet).to_be_visible()
    expect(chat).to_be_visible()
    page.screenshot(path=artifacts / "tableui-doppelkopf-1366.png")
    hand_bottom = page.locator("#hand").evaluate("n => n.getBoundingClientRect().bottom")
    assert hand_bottom <= LAPTOP["height"]
    # (measured again: the side panels narrowed the table)
    trick = box(page, "#trick")
    bottom, top = box(page, ".seat-bottom"), box(page, ".seat-top")
    left, right = box(page, ".seat-left"), box(page, ".seat-right")
    assert left["right"] <= trick["x"] + 1 and right["x"] >= trick["right"] - 1
    # Each trick card lies in front of whoever played it: nearer to that seat than to any other.
    cards = page.locator("#trick .slot").evaluate_all(
        "nodes => nodes.map(n => { const r = n.querySelector('.card').getBoundingClientRect();"
        " return {pos: [...n.classList].find(c => c.startsWith('slot-') && c !== 'slot-name'),"
        " cx: (r.left + r.right) / 2, cy: (r.top + r.bottom) / 2}; })"
    )
    seats = {"slot-bottom": bottom, "slot-top": top, "slot-left": left, "slot-right": right}
    assert len(cards) == 3
    for card in cards:
        own = seats[card["pos"]]
        assert all(distance(card, own) <= distance(card, other) for other in seats.values())
    assert worst_overlap(trick_boxes(page)) <= 0.10


def test_dreierles_on_a_laptop(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    names = ["Anna", "Bernd", "Catrin"]
    _room, people = seat_people(
        new_person, module_server.base_url, names, "dreierles", viewport=LAPTOP
    )
    play_until(
        people,
        lambda: trick_cards(people[0]) == 2,
        random.Random(7),
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    page = people[0].page
    page.screenshot(path=artifacts / "tableui-dreierles-1366.png")
    trick = box(page, "#trick")
    assert box(page, ".seat-left")["right"] <= trick["x"] + 1
    assert box(page, ".seat-right")["x"] >= trick["right"] - 1
    assert box(page, ".seat-bottom")["y"] >= trick["bottom"] - 1
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    hand_bottom = page.locator("#hand").evaluate("n => n.getBoundingClientRect().bottom")
    assert hand_bottom <= LAPTOP["height"]
