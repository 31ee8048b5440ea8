"""Digests of every view of 200 random deals per game, to hold the engine's behaviour
still while its inside is rebuilt.

A deal is chosen from its seed alone: the options, the dealer and the cards come from a
seeded ``random.Random``, and each step picks one of every seat's legal action texts
(sorted), so the sequence depends only on what the engine offers, never on how it draws.
In a game whose dealer sits out when more people play than it has seats (its description
says so, :class:`GameInfo`), about a third of the deals are dealt by a fourth person who
sits out; which games' stored digests were recorded so is kept beside them
(:data:`SITTING_OUT`: the ones recorded before this was general were not, and keep their
digests until they are recorded anew).
After every action the digest of a viewer takes in that viewer's view, how the latest
action was announced to it, the position and the replay state (every card open, what
the archive shows). The stored data is one short hash per viewer and deal.

Run ``python -m tests.engine.view_digests --write`` to record the file anew (only
after a documented change of what views contain).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from server.engine.record import load_record
from server.engine.registry import GAMES as REGISTRY
from server.engine.registry import get_rules

DEALS = 200
#: every playable game of the registry (a new one is recorded by ``--write`` too)
GAMES = tuple(name for name, game in REGISTRY.items() if game.implemented)
DIR = Path(__file__).parent.parent / "digests"
GOLDEN = Path(__file__).parent.parent / "golden"
GOLDEN_OUTCOMES = DIR / "golden-outcomes.json"
#: The games whose digests were recorded with deals whose dealer sits out: ``--write``
#: records every game whose dealer may sit out so (:func:`dealer_may_sit_out`).
SITTING_OUT = DIR / "sitting-out.json"
#: The share of such deals, and the name of the person who deals them and sits out.
SITTING_OUT_SHARE = 0.3
FOURTH = "D"


def dealer_may_sit_out(game: str) -> bool:
    """Whether a deal of ``game`` may be dealt by a person who sits it out: its dealer sits
    out when more people play than it has active seats (the registry's description)."""
    info = REGISTRY[game]
    return info.dealer_sits_out and max(info.players) > info.seats


def recorded_sitting_out() -> frozenset[str]:
    """The games whose stored digests include deals whose dealer sits out."""
    return frozenset(json.loads(SITTING_OUT.read_text(encoding="utf-8")))


def _canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def play(game: str, seed: int, sitting_out: bool | None = None) -> dict[str, Any]:
    """Play deal ``seed`` of ``game``; return its digests per viewer and of its outcome.
    ``sitting_out``: whether a fourth person may deal and sit out (None: as the game's
    stored digests were recorded, :data:`SITTING_OUT`)."""
    rules = get_rules(game)
    if sitting_out is None:
        sitting_out = game in recorded_sitting_out()
    rng = random.Random(f"{game}-{seed}")
    options = {o.name: rng.choice(o.choices) for o in rules.options}
    seats = list(rules.default_seat_names)
    dealer = seats[-1]
    if sitting_out and dealer_may_sit_out(game) and rng.random() < SITTING_OUT_SHARE:
        assert FOURTH not in seats
        dealer = FOURTH  # more people than seats: the dealer sits out
    deal = rules.new_deal(rules.shuffle_and_deal(rng), options, seats, dealer)
    viewers: list[int | None] = [*range(rules.seats), None]
    hashes = [hashlib.sha256() for _ in viewers]
    replay = hashlib.sha256()
    steps = 0
    while True:
        for h, viewer in zip(hashes, viewers, strict=True):
            seen = deal.action_seen_by(len(deal.history) - 1, viewer) if deal.history else None
            h.update(_canon([deal.view(viewer), seen]))
        replay.update(_canon([deal.position(), deal.replay_state()]))
        if deal.finished:
            break
        choices = sorted(
            (seat, text) for seat in range(rules.seats) for text in deal.legal_texts(seat)
        )
        seat, text = rng.choice(choices)
        deal.act(seat, text)
        steps += 1
    return {
        "seed": seed,
        "steps": steps,
        "views": [h.hexdigest()[:16] for h in hashes],
        "replay": replay.hexdigest()[:16],
        "outcome": hashlib.sha256(_canon(deal.outcome())).hexdigest()[:16],
    }


def record(game: str, sitting_out: bool | None = None) -> list[dict[str, Any]]:
    """The digests of all deals of ``game`` (``sitting_out`` as for :func:`play`)."""
    return [play(game, seed, sitting_out) for seed in range(DEALS)]


def golden_outcomes() -> dict[str, str]:
    """The digest of every golden record's replayed outcome, by its path."""
    digests = {}
    for path in sorted(GOLDEN.glob("*/*.json")):
        deal = load_record(json.loads(path.read_text(encoding="utf-8")))
        name = f"{path.parent.name}/{path.stem}"
        digests[name] = hashlib.sha256(_canon(deal.outcome())).hexdigest()[:16]
    return digests


def path_of(game: str) -> Path:
    """Where the digests of ``game`` are kept."""
    return DIR / f"{game}.json"


def main(argv: list[str]) -> int:
    """Print (or with ``--write`` store) the digests of every game."""
    write = "--write" in argv
    if write:
        GOLDEN_OUTCOMES.write_text(json.dumps(golden_outcomes(), indent=1) + "\n", encoding="utf-8")
        sitting = [game for game in GAMES if dealer_may_sit_out(game)]
        SITTING_OUT.write_text(json.dumps(sitting, indent=1) + "\n", encoding="utf-8")
    for game in GAMES:
        data = record(game, dealer_may_sit_out(game) if write else None)
        if "--write" in argv:
            lines = ",\n".join(json.dumps(d, separators=(",", ":")) for d in data)
            path_of(game).write_text(f"[\n{lines}\n]\n", encoding="utf-8")
        print(game, len(data), "deals")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
