"""The replay's line of the cards in no hand, in a real browser: in each game's own word
(Dreierles: Blinder, Doppen and Tarock zu dritt: Talon, Bayerisches Tarock: Stock) and as
they are, not as the players saw them at the table ("verdeckt")."""

from __future__ import annotations

import asyncio
import random

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.support import LiveServer
from tests.table_client import COOKIE, make_room, start, step
from tests.test_archive_pages import finished, first_deal_id

pytestmark = pytest.mark.live_server

#: Each game's word for the cards in no hand, and how many there are after dealing.
WORDS = {
    "dreierles": ("Im Blinder:", 6),
    "doppen": ("Im Talon:", 6),
    "tarock-zu-dritt": ("Im Talon:", 6),
    "bayerisches-tarock": ("Im Stock:", 3),
}


async def one_deal(base: str, game: str) -> tuple[int, str]:
    """Play the first deal of ``game`` with random legal moves; the match id and the first
    player's cookie."""
    rounds = 3 if game == "doppen" else 1
    clients, room, _ = await make_room(base, game, ["Anna", "Bernd", "Carl"], rounds=rounds)
    try:
        match = await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        rng = random.Random(4)
        for _ in range(500):
            if finished(clients[0]):
                break
            await step(clients, rng)
        assert finished(clients[0])
        return match, clients[0].cookie
    finally:
        for client in clients:
            await client.aclose()


@pytest.mark.parametrize("game", list(WORDS))
def test_the_cards_in_no_hand_in_the_games_own_word(
    new_person: NewPerson, module_server: LiveServer, game: str
) -> None:
    base = module_server.base_url
    match, cookie = off_the_loop(asyncio.run, one_deal(base, game))
    page = new_person()
    page.context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
    page.goto(f"{base}/archive/deals/{first_deal_id(module_server, match)}")
    expect(page.locator("#step-counter")).to_contain_text("Schritt")
    word, count = WORDS[game]
    line = page.locator("#replay-info .info-line").filter(has_text=word)
    expect(line).to_have_count(1)
    expect(line.locator(".mini-cards > *")).to_have_count(count)
    expect(page.locator("#replay-info")).not_to_contain_text("Verdeckt")
    expect(page.locator("#replay-info")).not_to_contain_text("verdeckt")
