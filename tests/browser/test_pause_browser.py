"""A pause by agreement in a real browser (issue 28): one player asks, the others see who
asks and agree; the table pauses (nobody is to move, the countdown stands still), goes on
when everybody taps "Weiterspielen", and the deal is played to its result.
"""

from __future__ import annotations

import random
import time

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import Person, play_until
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer


def countdown(person: Person) -> int:
    """The seconds left on the countdown ``person`` sees (the seat to move's)."""
    minutes, seconds = person.page.locator(".countdown").first.inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_pause_agreed_by_all_in_a_whole_deal(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    rng = random.Random(6)
    names = ["Anna", "Bernd", "Clara"]
    _, people = seat_people(
        new_person, module_server.base_url, names, "dreierles", timer_seconds=120
    )
    anna, bernd, clara = people
    moves = [0]

    def two_moves() -> bool:
        moves[0] += 1
        return moves[0] > 2

    play_until(people, two_moves, rng, prefer=["Zweier", "Weiter", "Fertig"])
    anna.page.locator("#ask-pause").click()
    for person in people:
        expect(person.page.locator("#pause-note")).to_contain_text("Pause gewünscht von Anna")
    expect(anna.page.locator("#ask-pause")).to_have_text("Doch keine Pause")
    bernd.page.locator("#ask-pause").click()
    before = countdown(anna)
    clara.page.locator("#ask-pause").click()
    for person in people:
        expect(person.page.locator("#pause-note")).to_contain_text("Der Tisch macht Pause")
        expect(person.page.locator("#ask-pause")).to_have_text("Weiterspielen")
        # nobody is to move, and no clock runs
        expect(person.page.locator(".countdown")).to_have_count(0)
        assert not person.my_turn()
    time.sleep(2.5)
    for person in people:
        person.page.locator("#ask-pause").click()
    for person in people:
        expect(person.page.locator("#pause-note")).to_be_hidden()
    assert sum(p.my_turn() for p in people) == 1
    # the clock goes on with what it had left when the table paused
    assert countdown(anna) >= before - 1
    play_until(
        people,
        lambda: anna.page.locator("#result-dialog").is_visible(),
        rng,
        prefer=["Zweier", "Weiter", "Fertig"],
    )
