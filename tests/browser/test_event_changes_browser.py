"""The browser applies the table's events as the server means them: the page's own module
(``web/static/js/table-state.js``) fed the frames a real server sent each seat and a
spectator over a real socket (a deal to its end and into the next, every game of the
registry) builds, message by message, the same view and score sheet as the reference
client of the tests, whose views ``tests/test_event_changes.py`` checks against fresh
snapshots and ``tests/test_tables.py`` against the engine.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from server.engine.registry import list_games
from tests.browser.conftest import NewPerson, off_the_loop
from tests.support import LiveServer
from tests.table_client import Client, make_room, start, step
from tests.test_tables import join_as_spectator

GAMES = [(info.name, max(info.players), max(2, info.rounds.min))
         for info in list_games() if info.implemented]  # fmt: skip
NAMES = ["Anna", "Bernd", "Clara", "Dieter"]

#: The page's module, fed one seat's frames in order: the view and sheet after each.
APPLY = """async (frames) => {
  const { applyEvent, wholeSheet } = await import("/static/js/table-state.js");
  let view = null, version = null, match = null;
  const out = [];
  for (const text of frames) {
    const message = JSON.parse(text);
    if (message.type === "snapshot") {
      const sheet = wholeSheet(match, message.match);
      if (!sheet) return { error: `no rows before ${message.match.sheet_from}`, at: out.length };
      message.match.sheet = sheet;
      match = message.match;
      view = message.view;
      version = message.v;
      out.push({ v: version, view, sheet });
    } else if (message.type === "event") {
      view = applyEvent(view, version, message);
      if (!view) return { error: `event ${message.v} after ${version}`, at: out.length };
      version = message.v;
      out.push({ v: version, view });
    }
  }
  return out;
}"""


async def play(base: str, game: str, people: int, rounds: int) -> list[Client]:
    """A table of ``game`` with a spectator, played into its second deal (or to the end of
    a match that ends sooner); the clients with everything they were sent."""
    rng = random.Random(f"browser-changes-{game}")
    players, room, token = await make_room(base, game, NAMES[:people], rounds=rounds)
    watcher = await join_as_spectator(base, token)
    clients = [*players, watcher]
    try:
        await start(players[0], room)
        for client in clients:
            await client.connect(room)
        for _ in range(40):  # into the second deal (step answers a deal's end with "next")
            if not await step(clients, rng):
                break
        deal_one = players[0].snapshot is not None and players[0].snapshot["match"]
        while deal_one and deal_one["deal_number"] == 1 and await step(clients, rng):
            deal_one = players[0].snapshot["match"]  # type: ignore[index]
        for _ in range(5):
            if not await step(clients, rng):
                break
        await asyncio.sleep(0.05)
        return clients
    finally:
        for client in clients:
            await client.aclose()


def expected(client: Client) -> list[dict[str, Any]]:
    """What the reference client built after each snapshot and event."""
    out: list[dict[str, Any]] = []
    for message in client.messages:
        if message["type"] == "snapshot":
            out.append({"v": message["v"], "view": message["view"],
                        "sheet": message["match"]["sheet"]})  # fmt: skip
        elif message["type"] == "event":
            out.append({"v": message["v"], "view": message["view"]})
    return out


@pytest.mark.parametrize(("game", "people", "rounds"), GAMES)
def test_the_page_builds_what_the_server_means(
    new_person: NewPerson, module_server: LiveServer, game: str, people: int, rounds: int
) -> None:
    base = module_server.base_url
    clients = off_the_loop(asyncio.run, play(base, game, people, rounds))
    page = new_person()
    page.goto(f"{base}/")
    for client in clients:
        assert any('"changed"' in frame for frame in client.frames), client.name
        built = page.evaluate(APPLY, client.frames)
        assert not isinstance(built, dict), built
        # the reference client's messages went through JSON: compare as JSON
        assert built == json.loads(json.dumps(expected(client))), client.name
