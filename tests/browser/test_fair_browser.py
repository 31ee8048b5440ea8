"""Fair shuffling in chromium: the browser's own implementation (Web Crypto) gives the
documented known-answer vectors; each player's room page gives a seed of its own; at the
end of a deal every player reads "Fair gemischt ✓" under the result, with the details a
tap away; the downloaded match record checks, and a tampered one does not."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Page, expect

from server.engine.fair_check import FairCheckError, verify_match
from tests.browser.conftest import NewPerson
from tests.browser.table_driver import Person, play_until, register_by_api
from tests.engine.test_fair import CHAIN, COMMITMENT, VECTORS
from tests.support import LiveServer

KNOWN_ANSWER = """async ([chain, commitment, vectors]) => {
  const fair = await import("/static/js/fair-core.js");
  const out = [];
  for (const [number, seeds, size] of vectors) {
    out.push({
      reveal: await fair.checkReveal(chain[number], number, commitment),
      wrong: await fair.checkReveal(chain[number], number + 1, commitment),
      order: await fair.dealOrder(size, chain[number], seeds),
    });
  }
  return out;
}"""


def test_the_browser_gives_the_known_answers(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    page = new_person()
    page.goto(module_server.base_url + "/")
    chain = {str(n): seed for n, seed in CHAIN.items()}
    vectors = [[n, seeds, size] for n, seeds, size, _order in VECTORS]
    results = page.evaluate(KNOWN_ANSWER.replace("chain[number]", "chain[String(number)]"),
                            [chain, COMMITMENT, vectors])  # fmt: skip
    assert [r["order"] for r in results] == [order for *_, order in VECTORS]
    assert all(r["reveal"] and not r["wrong"] for r in results)


def seeded(page: Page, base: str, room: int) -> list[int]:
    seen: list[int] = page.request.get(f"{base}/api/rooms/{room}").json()["fair"]["seeded"]
    return seen


def test_fair_gemischt_after_a_deal(new_person: NewPerson, module_server: LiveServer) -> None:
    base = module_server.base_url
    names = ["Anna", "Bernd", "Catrin"]
    pages = [new_person() for _ in names]
    ids = [register_by_api(page, base, name) for page, name in zip(pages, names, strict=True)]
    created = pages[0].request.post(f"{base}/api/rooms", data={"name": "Fair", "game": "dreierles"})
    assert created.status == 201, created.text()
    room: int = created.json()["id"]
    token = created.json()["invite_url"].rsplit("/", 1)[1]
    for page in pages[1:]:
        joined = page.request.post(f"{base}/api/invite/{token}/join", data={"role": "player"})
        assert joined.status == 200, joined.text()
    # each room page shows the commitment and gives the player's own seed
    for page in pages:
        page.goto(f"{base}/rooms/{room}")
        expect(page.locator("#fair-room")).to_contain_text("Dein Zufallsbeitrag ist abgegeben ✓")
    assert seeded(pages[0], base, room) == sorted(ids)
    started = pages[0].request.post(f"{base}/api/rooms/{room}/start")
    assert started.status == 200, started.text()
    match_id = started.json()["match_id"]
    people = [Person(name, page) for name, page in zip(names, pages, strict=True)]
    for person in people:
        person.page.goto(f"{base}/rooms/{room}/table")
    for person in people:
        expect(person.page.locator("#turn")).not_to_have_text("Verbinde mit dem Tisch…")

    anna = people[0]
    result = anna.page.locator("#result-dialog")
    play_until(people, result.is_visible, random.Random(3), prefer=["Weiter", "Fertig"])
    for person in people:
        badge = person.page.locator("#fair-check summary")
        expect(badge).to_have_text("Fair gemischt ✓", timeout=15_000)
        details = person.page.locator("#fair-check .fair-details")
        expect(details).to_be_hidden()
        badge.click()  # the details, one tap away
        expect(details).to_be_visible()
        expect(details).to_contain_text("Dein eigener Zufallsbeitrag ist eingemischt.")
        expect(details).to_contain_text("ergibt sich genau dein Blatt")
        expect(details).to_contain_text("nicht, dass der Server die Karten")

    # the record of the finished deal checks offline; with two cards swapped it does not
    deadline = time.monotonic() + 15
    while True:
        record = anna.page.request.get(f"{base}/api/history/matches/{match_id}/record").json()
        if record["deals"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert verify_match(record).checked == 1
    hands = record["deals"][0]["hands"]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    with pytest.raises(FairCheckError, match=r"^deal 1: the hand of seat 0"):
        verify_match(record)
