"""A lost connection is never a stale table (issue 28): a phone (360 × 740) that loses the
network mid-deal says so within five seconds, greys the turn and stops its countdown, and
once back online shows the table as it is now, whoever moved meanwhile.
"""

from __future__ import annotations

import random
import time

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import Person, move, next_mover, play_until, version
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer


def countdown_text(person: Person) -> str:
    """The countdown ``person`` sees (the seat to move's), or "" without one."""
    box = person.page.locator(".countdown")
    return box.first.inner_text() if box.count() else ""


def test_offline_for_ten_seconds_mid_deal(new_person: NewPerson, module_server: LiveServer) -> None:
    rng = random.Random(28)
    names = ["Anna", "Bernd", "Clara"]
    _, people = seat_people(
        new_person, module_server.base_url, names, "dreierles", timer_seconds=120
    )
    moves = [0]

    def three_moves() -> bool:
        moves[0] += 1
        return moves[0] > 3

    play_until(people, three_moves, rng, prefer=("Weiter", "Passe"))
    away = people[0]
    others = people[1:]
    expect(away.page.locator(".countdown").first).to_be_visible()
    away.page.context.set_offline(True)
    went = time.monotonic()
    # within five seconds: the notice, the turn greyed, the countdown standing still
    expect(away.page.locator("#connection")).to_be_visible(timeout=5_000)
    expect(away.page.locator("#connection")).to_contain_text("Verbindung unterbrochen")
    expect(away.page.locator("#table")).to_have_class("table lost")
    assert time.monotonic() - went < 5
    frozen = countdown_text(away)
    time.sleep(2.2)
    assert countdown_text(away) == frozen, "the countdown ran on while offline"
    # the others play on meanwhile, where it is their turn
    mover = next_mover(others)
    if mover is not None:
        move(mover, rng.choice(mover.options()))
    time.sleep(max(0.0, 10 - (time.monotonic() - went)))
    away.page.context.set_offline(False)
    expect(away.page.locator("#connection")).to_be_hidden(timeout=10_000)
    expect(away.page.locator("#table")).not_to_have_class("table lost")
    # the table as it is now: the same version as the others, one person to move
    away.page.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version) === v",
        arg=version(others[0].page),
        timeout=10_000,
    )
    movers = [p.name for p in people if p.my_turn()]
    assert len(movers) == 1, movers
    turn = away.page.locator("#turn").inner_text()
    if movers != [away.name]:
        assert movers[0] in turn, (movers, turn)
    # and the countdown runs again
    running = countdown_text(away)
    time.sleep(1.5)
    assert countdown_text(away) != running
