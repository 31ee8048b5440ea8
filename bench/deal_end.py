"""What a deal's end costs the table at deal 50 against deal 1, for every game.

One process, no sockets and no database: a real :class:`server.tables.table.Table` with its
real engine, connections whose ``send`` only counts the bytes, and a writer that stores
nothing (the rows a deal's end writes do not grow with the match: its actions, scores and
pot movements). Three people play (four for Doppelkopf) with random legal moves, and tap
"Weiter" after each deal. Two costs are taken with the process's CPU clock
(``time.process_time_ns``) for every deal:

- **the deal's last action**: checking and applying it, working out the deal's end (the
  match's copy, the sheet, the ledger, the next deal), publishing the event and the
  ``deal_end``, and the snapshot of the pause to everybody;
- **the last "Weiter"**: the snapshot that shows the next deal to everybody.

Each is compared over the last five deals of a match against its first five (medians over
``--repeats`` matches of each game; a match has 54 deals or more, a Doppelkopf evening ends
when a counter runs out, after 10 to 20 deals of random play); the bytes sent to everybody
at a deal's end are counted too, and for the other actions the median CPU and bytes. The
aim (issue 27): the cost at deal 50 within 10 % of deal 1's.

Run ``python bench/deal_end.py --help`` for the knobs. Results go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.engine.registry import list_games, new_match
from server.tables.connection import Connection
from server.tables.matches import LiveMatch
from server.tables.table import Table

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
#: Rounds (or deals) for a match of at least 50 deals with three players (Doppelkopf: its
#: evening's deals, with 50 points to lose so that it rarely ends sooner).
MATCH: dict[str, dict[str, Any]] = {
    "doppelkopf": {"rounds": 55, "start_points": 50},
    "doppen": {"rounds": 54},
}
DEFAULT_MATCH = {"rounds": 18}


class NullWriter:
    """Stores nothing; a deal's end gets the next deal's id."""

    def __init__(self) -> None:
        self.ids = itertools.count(2)

    async def append_action(self, *entry: Any) -> None:
        """An action: nothing to do."""

    async def execute(self, work: Any) -> int:
        """A deal's end (or the next deal): its id."""
        return next(self.ids)


async def one_match(game: str, seed: int) -> list[dict[str, float]]:
    """Play one match of ``game``; per deal, the CPU µs of its end and of the next deal's
    showing, and the bytes its end sent."""
    rng = random.Random(seed)
    people = 4 if game == "doppelkopf" else 3
    names = NAMES[:people]
    config = {"first_dealer": 0, "stake_cents": 10, "options": {},
              **MATCH.get(game, DEFAULT_MATCH)}  # fmt: skip
    live = LiveMatch(1, game, names, list(range(1, people + 1)), config,
                     new_match(game, names, config))  # fmt: skip
    live.deal, _ = live.next_deal(rng)
    live.deal_id, live.deal_number = 1, 1
    table = Table(1, live, NullWriter(), rng, dict(zip(range(1, people + 1), names, strict=True)))  # type: ignore[arg-type]
    sent = [0]

    async def send(text: str) -> None:
        sent[0] += len(text.encode())

    async def close(*_: Any) -> None:
        return None

    conns = [Connection(user, name, send, close) for user, name in enumerate(names, start=1)]
    for conn in conns:
        await table.attach(conn, None)
    deals: list[dict[str, float]] = []
    actions: list[tuple[float, int]] = []
    while not table.finished:
        if table.between is not None:
            waiting = [c for c in conns if c.user_id in table.between.waiting]
            for conn in waiting[:-1]:
                await table.next_deal_please(conn)
            start = time.process_time_ns()
            await table.next_deal_please(waiting[-1])
            deals[-1]["next_us"] = (time.process_time_ns() - start) / 1000
            continue
        deal = live.deal
        assert deal is not None and deal.to_move is not None
        conn = next(c for c in conns if live.seat_of(c.user_id) == deal.to_move)
        text = deal.move_text(deal.random_move(rng))
        before = sent[0]
        start = time.process_time_ns()
        await table.act(conn, text, table.version)
        spent = (time.process_time_ns() - start) / 1000
        if deal.finished:
            deals.append({"end_us": spent, "bytes": sent[0] - before})
        else:
            actions.append((spent, sent[0] - before))
    if deals:  # the other actions: CPU and bytes sent to everybody, median per match
        deals[0]["action_us"] = statistics.median(us for us, _ in actions)
        deals[0]["action_bytes"] = statistics.median(size for _, size in actions)
    return deals


def median_of(deals: list[list[dict[str, float]]], key: str, *, last: bool) -> float:
    """The median of ``key`` over the first five deals of every match, or its last five
    (with ``"next_us"``: those followed by another deal)."""
    values = []
    for match in deals:
        having = [deal for deal in match if key in deal]
        values += [deal[key] for deal in (having[-5:] if last else having[:5])]
    return statistics.median(values) if values else float("nan")


def main() -> None:
    """Measure every game and print a table (and the figures as one JSON line)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="matches per game")
    parser.add_argument("--games", default=",".join(g.name for g in list_games() if g.implemented))
    args = parser.parse_args()
    results = {}
    head = ("game", "deals", "end first µs", "end last", "ratio", "next first", "next last",
            "ratio", "B first", "B last", "action µs", "action B")  # fmt: skip
    print("".join(f"{h:<20}" if i == 0 else f"{h:>13}" for i, h in enumerate(head)))
    for game in args.games.split(","):
        matches = [asyncio.run(one_match(game, seed)) for seed in range(args.repeats)]
        row = {
            "deals": statistics.median(len(m) for m in matches),
            "end_first": median_of(matches, "end_us", last=False),
            "end_last": median_of(matches, "end_us", last=True),
            "next_first": median_of(matches, "next_us", last=False),
            "next_last": median_of(matches, "next_us", last=True),
            "bytes_first": median_of(matches, "bytes", last=False),
            "bytes_last": median_of(matches, "bytes", last=True),
        }
        row["action_us"] = statistics.median(m[0]["action_us"] for m in matches)
        row["action_bytes"] = statistics.median(m[0]["action_bytes"] for m in matches)
        row["end_ratio"] = row["end_last"] / row["end_first"]
        row["next_ratio"] = row["next_last"] / row["next_first"]
        results[game] = row
        keys = ("deals", "end_first", "end_last", "end_ratio", "next_first", "next_last",
                "next_ratio", "bytes_first", "bytes_last", "action_us", "action_bytes")  # fmt: skip
        cells = (f"{row[k]:>13.2f}" if k.endswith("ratio") else f"{row[k]:>13.0f}" for k in keys)
        print(f"{game:<20}" + "".join(cells))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
