"""The stand-in ("Vertretung") in a real browser: Bernd's page goes away mid-deal; after
the room's delay a computer player plays for him and the others see his seat marked
"vertreten"; when he comes back he reads what was played for him, and his next own move
gives him the seat back (the mark and the note go); the archive's replay of the deal marks
the stand-in's moves.
"""

from __future__ import annotations

import json
import random

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import play_until
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

PREFER = ["Weiter", "Fertig"]


def test_the_seat_shows_vertreten_and_the_returning_player_sees_what_was_played(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    rng = random.Random(4)
    base = module_server.base_url
    room, people = seat_people(
        new_person,
        base,
        ["Anna", "Bernd", "Clara"],
        "dreierles",
        standin_delay_seconds=3,
        computer_pause_ms=[200, 400],
    )
    anna, bernd, clara = people
    expect(bernd.page.locator("#ask-standin")).to_have_text("Vertretung für 5 Minuten")
    bernd.page.goto("about:blank")  # his phone is gone
    bernd_seat = anna.page.locator(".seat", has_text="Bernd")
    # the others play on; after the delay Bernd's seat is marked and the stand-in plays
    play_until([anna, clara], lambda: bernd_seat.locator(".standin-mark").count() > 0, rng,
               prefer=PREFER)  # fmt: skip
    expect(bernd_seat.locator(".standin-mark")).to_have_text("vertreten")
    expect(clara.page.locator(".seat", has_text="Bernd").locator(".standin-mark")).to_be_visible()
    # until the stand-in has moved for him (the others see it said), the others moving too
    said = anna.page.locator("#notice", has_text="Die Vertretung spielt für Bernd")
    play_until([anna, clara], lambda: said.count() > 0 and said.is_visible(), rng,
               prefer=PREFER, timeout=60)  # fmt: skip
    # Bernd comes back: he reads what the stand-in played for him
    bernd.page.goto(f"{base}/rooms/{room}/table")
    note = bernd.page.locator("#standin-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Deine Vertretung hat für dich gespielt")
    own_seat = bernd.page.locator(".seat.stood-in", has_text="Bernd")
    expect(own_seat.locator(".standin-mark")).to_have_text("vertreten")
    # his next own move gives him the seat back
    play_until(people, lambda: note.is_hidden(), rng, prefer=PREFER, timeout=120)
    expect(bernd_seat.locator(".standin-mark")).to_have_count(0)
    # the deal's replay in the archive marks the stand-in's moves
    play_until(people, lambda: anna.page.locator("#result-dialog").is_visible(), rng,
               prefer=PREFER, timeout=180)  # fmt: skip
    page = anna.page
    match_id = page.request.get(f"{base}/api/history/matches").json()["matches"][0]["id"]
    deals = page.request.get(f"{base}/api/history/matches/{match_id}").json()["deals"]
    page.goto(f"{base}/archive/deals/{deals[0]['id']}")
    steps = json.loads(page.locator("#standins").text_content() or "[]")
    assert steps, "the replay names no stand-in move"
    page.goto(f"{base}/archive/deals/{deals[0]['id']}#step={steps[0]}")
    page.reload()
    expect(page.locator("#step-text .standin-mark")).to_have_text("vertreten")
    expect(page.locator("#step-text")).to_contain_text("Bernd")
