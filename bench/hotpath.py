"""The CPU cost per action of the table's hot path, in-process (no sockets, no database).

For random Dreierles deals it replays, action by action, what the server does between
receiving an ``action`` message and handing the three events to the connections: read and
validate the message (``read_message``), the engine's ``parse``/``check``/``apply``, for
each of the three seats the view in its two parts (``Deal.view_parts``), and the encoded
``event``s: with the server's encoder as the table does it (the shared part of the view
once, each seat's own part, joined), and, for comparison, each seat's whole event with the
standard library's ``json``. Reported: the
median over ``--repeats`` runs of microseconds per action for each part. On a shared
machine these in-process figures are steadier than the load test's, so they back the
before/after comparisons in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.run import machine
from server.engine.base import Deal
from server.engine.games.dreierles.match import DreierlesMatch
from server.engine.registry import get_rules
from server.tables.protocol import encode, event_prefix, event_text, join_objects, read_message


def positions(deals: int, seed: int) -> list[tuple[Deal, list[tuple[int, str]]]]:
    """``deals`` random Dreierles deals: a fresh deal and its actions (seat, text)."""
    rng = random.Random(seed)
    rules = get_rules("dreierles")
    out: list[tuple[Deal, list[tuple[int, str]]]] = []
    for _ in range(deals):
        match = DreierlesMatch(["Anna", "Bernd", "Catrin"], rounds=5, first_dealer=0,
                               stake_cents=10, options={})  # fmt: skip
        dealt = rules.shuffle_and_deal(rng)
        deal = match.start_deal(dealt)
        played = match.start_deal(dealt)
        actions = []
        while not played.finished:
            seat, move = played.random_action(rng)
            actor = played.check(move, seat)
            actions.append((actor, played.move_text(move)))
            played.apply(move, seat)
        out.append((deal, actions))
    return out


def run(deals: int, seed: int, dumps: Callable[[Any], str]) -> dict[str, float]:
    """Seconds spent per part over ``deals`` deals, and the number of actions."""
    spent = {"read": 0.0, "engine": 0.0, "views": 0.0, "encode": 0.0}
    actions = 0
    clock = time.perf_counter
    for deal, moves in positions(deals, seed):
        for index, (seat, text) in enumerate(moves):
            raw = json.dumps({"type": "action", "action": text, "v": index, "id": text})
            t0 = clock()
            msg_id, message = read_message(raw)
            t1 = clock()
            move = deal.parse(text)
            actor = deal.check(move, seat)
            deal.apply(move, seat)
            t2 = clock()
            views = [
                (deal.action_seen_by(index, viewer), *deal.view_parts(viewer))
                for viewer in (0, 1, 2)
            ]
            t3 = clock()
            if dumps is encode:  # as Table._publish_event
                shared = encode(views[0][1])
                prefix = event_prefix(index + 1, actor, False)
                events = [
                    event_text(prefix, seen, join_objects(shared, encode(own)))
                    for seen, _, own in views
                ]
            else:
                events = [
                    dumps({"type": "event", "v": index + 1, "seat": actor, "action": seen,
                           "auto": False, "view": {**public, **own}})
                    for seen, public, own in views
                ]  # fmt: skip
            t4 = clock()
            spent["read"] += t1 - t0
            spent["engine"] += t2 - t1
            spent["views"] += t3 - t2
            spent["encode"] += t4 - t3
            actions += 1
            assert msg_id == text and not isinstance(message, Exception)
            for viewer, event in enumerate(events):  # (untimed) both ways say the same
                assert json.loads(event)["view"] == deal.view(viewer)
    return {**spent, "actions": actions}


def main() -> int:
    """Print the median microseconds per action of each part."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per run (200)")
    parser.add_argument("--repeats", type=int, default=7, help="runs; the median counts (7)")
    args = parser.parse_args()
    encoders: dict[str, Callable[[Any], str]] = {
        "server": encode,
        "stdlib": lambda m: json.dumps(m, ensure_ascii=False),
    }
    report: dict[str, Any] = {"machine": machine()}
    for name, dumps in encoders.items():
        runs = [run(args.deals, seed, dumps) for seed in range(args.repeats)]
        per = {
            part: round(statistics.median(1e6 * r[part] / r["actions"] for r in runs), 1)
            for part in ("read", "engine", "views", "encode")
        }
        per["total"] = round(sum(per.values()), 1)
        report[f"us_per_action_{name}_encoder"] = per
        print(f"{name:>7} encoder: " + "  ".join(f"{k} {v} µs" for k, v in per.items()))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
