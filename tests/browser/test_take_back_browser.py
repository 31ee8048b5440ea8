"""Taking back a mis-tapped card in a real browser (issue 28, item 5): a whole deal of
Tarock zu dritt on phones (360×740), where the player who just played a card sees a small
"Zurücknehmen" beside the hand while the trick is open, takes the card back with one tap,
the others read "… nimmt die Karte zurück" and see the trick without it, the player is to
move again and plays on; the deal is played to its result.
"""

from __future__ import annotations

import random
import sqlite3

from playwright.sync_api import ViewportSize, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import Person, play_until, trick_cards, version
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

PHONE: ViewportSize = {"width": 360, "height": 740}


def hand_size(person: Person) -> int:
    """How many cards ``person`` sees in the own hand."""
    return person.page.locator("#hand button").count()


def test_a_take_back_in_a_whole_deal_of_tarock_zu_dritt(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    rng = random.Random(28)
    names = ["Anna", "Bernd", "Clara"]
    room, people = seat_people(
        new_person, module_server.base_url, names, "tarock-zu-dritt", viewport=PHONE
    )

    def offered() -> Person | None:
        return next((p for p in people if p.page.locator("#take-back").is_visible()), None)

    # play at random until somebody has just played a card into an open trick
    # (the calls that end a round quickly: no long Kontra lists to scroll through)
    quick = ["Gut", "Ich liege", "Weiter"]
    play_until(people, lambda: offered() is not None, rng, prefer=quick)
    player = offered()
    assert player is not None
    others = [p for p in people if p is not player]
    button = player.page.locator("#take-back")
    expect(button).to_have_text("Zurücknehmen")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    assert not player.my_turn()
    for other in others:  # nobody else is offered a take-back
        expect(other.page.locator("#take-back")).to_be_hidden()
    held = hand_size(player)
    lying = trick_cards(others[0])
    assert lying >= 1
    before = version(player.page)
    button.click()
    for person in people:
        person.page.wait_for_function(
            "before => Number(document.getElementById('table').dataset.version) > before",
            arg=before,
            timeout=10_000,
        )
    # the card is back in the hand, the trick is as before it, the player is to move again
    expect(player.page.locator("#hand button")).to_have_count(held + 1)
    expect(button).to_be_hidden()
    assert player.my_turn()
    for other in others:
        expect(other.page.locator("#notice")).to_have_text(f"{player.name} nimmt die Karte zurück")
        expect(other.page.locator("#trick:not(.collected) .card")).to_have_count(lying - 1)
        expect(other.page.locator("#turn")).to_contain_text(player.name)
    # and the deal goes on to its result
    play_until(
        people, lambda: people[0].page.locator("#result-dialog").is_visible(), rng, prefer=quick
    )
    expect(people[0].page.locator("#result-dialog")).to_be_visible()
    # the archive's replay shows the take-back as a step of its own, the card named
    with sqlite3.connect(module_server.database_path) as db:
        row = db.execute(
            "SELECT d.id FROM deals d JOIN matches m ON m.id = d.match_id"
            " WHERE m.room_id = ? AND d.number = 1",
            (room,),
        ).fetchone()
    assert row is not None
    page = people[0].page
    base = module_server.base_url
    replay = page.request.get(f"{base}/api/history/deals/{row[0]}/replay").json()
    steps = replay["steps"]
    (index,) = [i for i, step in enumerate(steps) if step["action"] == "takeback"]
    page.goto(f"{base}/archive/deals/{row[0]}#step={index}")
    taker = replay["seats"][steps[index]["actor"]]
    assert taker == player.name
    expect(page.locator("#step-text")).to_contain_text(f"{taker} nimmt ")
    expect(page.locator("#step-text")).to_contain_text(" zurück")
