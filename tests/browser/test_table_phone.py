"""The table on a phone (360 × 740): the hand of the player to move never leaves the
screen, whatever opens above it (calls, announcements, a notice after a wrong tap), and the
cards of a trick do not cover each other, with three players and with four.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import (
    Person,
    hand_boxes,
    hand_outside_viewport,
    move,
    next_mover,
    trick_boxes,
    version,
    wait_for_turn,
    worst_overlap,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

#: the most one trick card may cover of another
MAX_OVERLAP = 0.10


def result_shown(person: Person) -> bool:
    """Whether the deal's result is on ``person``'s screen."""
    return person.page.locator("#result-dialog").is_visible()


def check_screen(person: Person, players: int) -> None:
    """The mover's whole hand is on screen; a full trick's cards do not cover each other."""
    page = person.page
    assert hand_outside_viewport(page) == [], f"{person.name}: a card of the hand is off screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    boxes = trick_boxes(page)
    if len(boxes) == players:
        assert worst_overlap(boxes) <= MAX_OVERLAP, boxes


def wrong_tap(person: Person) -> bool:
    """Tap a dimmed card of ``person``'s hand if there is one: a notice appears as a
    toast, nothing changes, and the hand is still wholly on screen."""
    page = person.page
    dimmed = page.locator('#hand button[aria-disabled="true"]')
    if dimmed.count() == 0:
        return False
    before = version(page)
    dimmed.first.click(force=True, position={"x": 12, "y": 16})
    expect(page.locator("#notice")).to_be_visible()
    assert version(page) == before
    assert hand_outside_viewport(page) == []
    return True


def play_deal(
    people: list[Person], players: int, rng: random.Random, prefer: Sequence[str]
) -> tuple[list[str], bool]:
    """Play one deal to its result, checking every mover's screen before every move;
    one wrong tap on the way. The options chosen and whether the wrong tap happened."""
    chosen: list[str] = []
    tapped = False
    deadline = time.monotonic() + 240
    while not result_shown(people[0]):
        assert time.monotonic() < deadline, "the deal did not finish in time"
        mover = next_mover(people)
        if mover is None:
            time.sleep(0.05)
            continue
        check_screen(mover, players)
        if not tapped and mover.page.locator("#trick:not(.collected) .card").count():
            tapped = wrong_tap(mover)
            if tapped:
                check_screen(mover, players)
        options = mover.options()
        wanted = [o for o in prefer if o in options]
        option = wanted[0] if wanted else rng.choice(options)
        chosen.append(option)
        move(mover, option)
    return chosen, tapped


def test_doppelkopf_on_phones_keeps_the_hand_in_view(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    names = ["Annabella", "Bernhard", "Christiane", "Donatus"]
    _room, people = seat_people(new_person, module_server.base_url, names, "doppelkopf")
    # The long list of Soli opens over the felt, above the hand, and pushes nothing.
    first = wait_for_turn(people)
    fold = first.page.locator("#actions details summary", has_text="Solo")
    fold.click()
    solo = first.page.get_by_role("button", name="Damensolo")
    expect(solo).to_be_visible()
    assert hand_outside_viewport(first.page) == []
    solo_box = solo.bounding_box()
    top_card = min(box["y"] for box in hand_boxes(first.page))
    assert solo_box is not None and solo_box["y"] + solo_box["height"] <= top_card
    fold.click()
    chosen, tapped = play_deal(
        people, 4, random.Random(13), prefer=["Gesund", "Keine 90", "Klopfen"]
    )
    assert "Klopfen" in chosen and "Keine 90" in chosen
    assert tapped
    people[0].page.screenshot(path=artifacts / "tableui-doppelkopf-360-result.png")
    # the result shows the last trick, four cards side by side
    last = trick_boxes(people[0].page, "#result-trick")
    assert len(last) == 4
    assert worst_overlap(last) <= MAX_OVERLAP


def test_dreierles_on_phones_keeps_the_hand_in_view(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    names = ["Annabella", "Bernhard", "Christiane"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    chosen, tapped = play_deal(
        people,
        3,
        random.Random(21),
        prefer=["Klopfen", "Dreier", "Zweier", "Einer", "Weiter", "Fertig"],
    )
    assert "Klopfen" in chosen
    assert tapped
    people[0].page.screenshot(path=artifacts / "tableui-dreierles-360-result.png")
