"""Talk at the table (issue 28): a quick phrase is one tap after "Sagen", and a chat line
appears beside its speaker's seat on everybody's screen for a few seconds, while the chat
keeps it; on a phone (360 × 740) the phrases stay on screen.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import box_of, inside, screen_box
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer


def test_a_quick_phrase_appears_beside_the_speaker(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Anna", "Bernd", "Clara"]
    _, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    anna, bernd = people[0], people[1]
    anna.page.locator("#open-talk").click()
    phrases = anna.page.locator("#talk button")
    expect(phrases).to_have_count(4)
    for index in range(4):
        assert inside(box_of(anna.page, f"#talk button >> nth={index}"), screen_box(anna.page))
    anna.page.locator("#talk button", has_text="Gut gespielt!").click()
    expect(anna.page.locator("#talk")).to_be_hidden()
    # beside Anna's seat on Bernd's screen, and in the chat
    bubble = bernd.page.locator(".seat", has_text="Anna").locator(".chat-bubble")
    expect(bubble).to_have_text("Gut gespielt!")
    expect(bernd.page.locator("#chat-unread")).to_have_text("1")
    bernd.page.locator("#open-chat").click()
    expect(bernd.page.locator("#chat-lines li").last).to_contain_text("Anna Gut gespielt!")
    # ... for a few seconds only
    expect(bubble).to_have_count(0, timeout=10_000)
