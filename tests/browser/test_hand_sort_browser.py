"""Sorting the hand in a real browser (issue 28): at a Doppelkopf table on a phone the player
puts the trumps to the right and the low cards first ("Sortieren" beside the hand); the hand on
screen changes order at once, and stays so after a reload and on a second device of the
same account.
"""

from __future__ import annotations

import random

from playwright.sync_api import Page, expect

from tests.browser.axe import describe, run_axe, serious
from tests.browser.conftest import NewPerson
from tests.browser.table_driver import register_by_api
from tests.browser.test_table_browser import open_room
from tests.support import LiveServer

PASSWORD = "Ober-sticht-Unter"


def is_trump(code: str) -> bool:
    """A trump of Doppelkopf's normal game: the Dullen, every Dame and Bube, every Karo."""
    kind = code.split(".")[0]
    return kind == "H10" or kind[1:] in ("Q", "J") or kind[0] == "D"


def hand(page: Page) -> list[str]:
    """The cards of the hand from left to right (and the upper row before the lower)."""
    cards = page.locator("#hand button.card")
    expect(cards).to_have_count(12)
    boxes = cards.evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return [n.dataset.card, Math.round(r.top), Math.round(r.left)]; })"
    )
    # what a person sees: the upper row first (its top lies above), each row left to right
    rows: dict[int, list[tuple[int, str]]] = {}
    for code, top, left in boxes:
        rows.setdefault(top, []).append((left, code))
    return [code for top in sorted(rows) for _left, code in sorted(rows[top])]


def choose(page: Page, label: str) -> None:
    """Open the choices beside the hand (unless open; one tap), tap ``label`` (one tap)."""
    box = page.get_by_role("group", name="Karten sortieren")
    if not box.is_visible():
        page.get_by_role("button", name="Karten sortieren").click()
    expect(box).to_be_visible()
    box.get_by_role("button", name=label, exact=True).click()
    expect(box.get_by_role("button", name=label, exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )


def close_choices(page: Page) -> None:
    page.get_by_role("button", name="Karten sortieren").click()
    expect(page.locator("#hand-sort")).to_be_hidden()


def test_sorting_changes_the_hand_at_once_and_follows_the_account(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    anna = new_person()
    login = f"anna-sort-{random.randrange(10**6)}"
    body = {"login": login, "password": PASSWORD, "display_name": "Anna"}
    assert anna.request.post(f"{base}/api/register", data=body).status == 201
    others = [new_person() for _ in range(3)]
    for page, name in zip(others, ["Bernd", "Clara", "Dora"], strict=True):
        register_by_api(page, base, name)
    room = open_room(anna, others, base, "doppelkopf")
    anna.goto(f"{base}/rooms/{room}/table")

    dealt = hand(anna)
    trumps = [c for c in dealt if is_trump(c)]
    plain = [c for c in dealt if not is_trump(c)]
    # the default: the trumps on the left
    assert dealt == trumps + plain
    assert trumps, "a Doppelkopf hand without a trump is too rare to be dealt here"

    choose(anna, "rechts")
    expect(anna.locator("#hand button.card").first).to_have_attribute("data-card", plain[0])
    assert hand(anna) == plain + trumps
    expect(anna.locator("#hand-sort")).to_have_attribute("data-kept", "right desc pack")

    choose(anna, "niedrige zuerst")
    expect(anna.locator("#hand-sort")).to_have_attribute("data-kept", "right asc pack")
    close_choices(anna)
    low_first = hand(anna)
    # every suit now runs from its lowest card up, the trumps (still right) too
    suits = list(dict.fromkeys(code[0] for code in plain))
    by_suit = [[code for code in plain if code[0] == suit] for suit in suits]
    assert low_first == [c for cards in by_suit for c in reversed(cards)] + trumps[::-1]

    # after a reload, the same order (the page carries the kept sort)
    anna.reload()
    assert hand(anna) == low_first
    anna.get_by_role("button", name="Karten sortieren").click()
    for label in ("rechts", "niedrige zuerst", "wie im Blatt"):
        expect(
            anna.locator("#hand-sort").get_by_role("button", name=label, exact=True)
        ).to_have_attribute("aria-pressed", "true")

    # the open choices pass axe-core (no serious or critical violation)
    found = serious(run_axe(anna))
    assert not found, describe(found)

    # another device of the same account: logged in there, the same order
    laptop = new_person(viewport={"width": 1366, "height": 768})
    logged_in = laptop.request.post(
        f"{base}/api/login", data={"login": login, "password": PASSWORD}
    )
    assert logged_in.status == 200, logged_in.text()
    laptop.goto(f"{base}/rooms/{room}/table")
    assert hand(laptop) == low_first

    # back to the trumps on the left there: applied at once on that device
    choose(laptop, "links")
    expect(laptop.locator("#hand button.card").first).to_have_attribute("data-card", trumps[-1])
    expect(laptop.locator("#hand-sort")).to_have_attribute("data-kept", "left asc pack")
