"""Computer players and stand-ins on the archive's pages, in a real browser.

A Dreierles match of Anna, Bernd and a strong computer player is written through the store
(as in ``tests/test_archive_computers.py``); in its second deal a stand-in made Anna's last
three moves. The archive list names the computer player with the computer mark (icon and
words) and offers it in the fellow filter with its level and room; the match page says
which deal was stood in and for whom; the statistics page leaves the stood-in deal out of
Anna's figures until "Mit Vertretungen" is ticked, and has no card for the computer player.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, expect

from tests.browser.conftest import DESKTOP, NewPerson, off_the_loop
from tests.support import LiveServer, sqlite_url
from tests.table_client import COOKIE, make_room
from tests.test_archive_computers import computer, store_match


async def evening(base: str, db_url: str) -> dict[str, Any]:
    """Store the match; return its id and Anna's cookie."""
    (anna, bernd), room, _ = await make_room(base, "dreierles", ["Anna", "Bernd"])
    strong = await computer(anna, room, "stark")
    stored = await store_match(
        db_url, room, ["Anna", "Bernd", "Computer 1"], [anna.user_id, bernd.user_id, strong],
        [None, None, "stark"], {2: ("Anna", 3)}, seed=5,
    )  # fmt: skip
    cookie = anna.cookie
    await anna.aclose()
    await bernd.aclose()
    return {"match_id": stored.match_id, "cookie": cookie, "deals": len(stored.deals)}


def fact(card: Locator, label: str) -> Locator:
    """The value of the figure ``label`` on a statistics card."""
    return card.locator(f"xpath=.//div[dt[normalize-space()='{label}']]/dd")


def test_computer_players_and_stand_ins_on_the_archive_pages(
    module_server: LiveServer, new_person: NewPerson, artifacts: Path
) -> None:
    base = module_server.base_url
    made = off_the_loop(asyncio.run, evening(base, sqlite_url(module_server.database_path)))
    assert made["deals"] == 3
    page = new_person(viewport=DESKTOP)
    page.context.add_cookies([{"name": COOKIE, "value": made["cookie"], "url": base}])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # the list: the computer player with its mark, and in the fellow filter
    page.goto(f"{base}/archive")
    item = page.locator(f'.match-item[data-match="{made["match_id"]}"]')
    marked = item.locator('.match-computer[data-player="Computer 1"]')
    expect(marked).to_have_text("Computer 1 Computer (stark)")
    expect(marked.locator(".computer-icon")).to_have_count(1)
    group = page.locator('#filter-with optgroup[label="Computerspieler"] option')
    expect(group).to_have_text(["Computer 1 – Computer (stark), dreierles test"])
    expect(page.locator("#filter-with > option")).to_have_text(["Allen", "Bernd"])

    # the match page: who was a computer, which deal was stood in, for whom
    page.goto(f"{base}/archive/matches/{made['match_id']}")
    expect(page.locator(".match-standins")).to_have_text("Vertretungen: Spiel 2 für Anna")
    expect(page.locator("#match-page .match-computers")).to_contain_text("Computer (stark)")
    lines = page.locator(".deal-standin")
    expect(lines).to_have_count(1)
    expect(lines).to_have_text("Vertretung für Anna: Computer (stark) 3 Züge")
    expect(page.locator(".deal-item").nth(1).locator(".deal-standin")).to_have_count(1)
    page.screenshot(path=str(artifacts / "archive-match-stand-in.png"), full_page=True)

    # the statistics: no computer player; Anna's stood-in deal counted only when asked
    page.goto(f"{base}/archive/stats")
    cards = page.locator(".stats-card")
    expect(cards).to_have_count(2)
    expect(cards.locator("h2")).to_have_text(["Anna", "Bernd"])
    anna = cards.first
    expect(fact(anna, "Spiele")).to_have_text("2")
    expect(fact(anna, "Spiele mit Vertretung")).to_have_text("1 (nicht gezählt)")
    expect(fact(cards.nth(1), "Spiele")).to_have_text("3")
    expect(fact(cards.nth(1), "Spiele mit Vertretung")).to_have_count(0)
    page.get_by_label("Mit Vertretungen").check()
    expect(fact(anna, "Spiele mit Vertretung")).to_have_text("1 (mitgezählt)")
    expect(fact(anna, "Spiele")).to_have_text("3")
    assert page.url.endswith("/archive/stats?with_standins=1")
    page.screenshot(path=str(artifacts / "archive-stats-with-stand-ins.png"), full_page=True)
    page.reload()
    expect(page.get_by_label("Mit Vertretungen")).to_be_checked()
    expect(fact(page.locator(".stats-card").first, "Spiele")).to_have_text("3")
    page.goto(f"{base}/archive/stats?lang=en")
    expect(page.get_by_label("Including stand-in deals")).not_to_be_checked()
    assert errors == []
