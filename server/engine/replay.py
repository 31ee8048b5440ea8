"""The replay of a deal record: every position from the deal to the end, all cards open.

:func:`replay_steps` loads a record (strictly, see :mod:`server.engine.record`: a stored
outcome must be what the actions replay to) and replays it once more move by move. Step 0
is the deal as dealt, step ``i`` the position after action ``i``. Each step holds what a
spectator sees then (the deal's ``view(None)``, under ``public``) and what only a replay
shows, from the game's own :meth:`~server.engine.base.Deal.replay_state`: every hand as
players hold it, the blind, the card points won so far. The finished tricks are listed with
the step that completed them, so that a viewer can jump to a trick.

Replaying is deterministic: the same record gives the same steps.

>>> import random
>>> from server.engine.record import dump_record
>>> from server.engine.registry import get_rules
>>> rules = get_rules("dreierles")
>>> deal = rules.new_deal(rules.shuffle_and_deal(random.Random(7)), seats=["A", "B", "C"])
>>> moves = [deal.act(seat, text) for seat, text in [(0, "pass"), (1, "bid dreier"), (2, "pass")]]
>>> [deal.move_text(move) for move in moves]
['pass', 'bid dreier', 'pass']
>>> replay = replay_steps(dump_record(deal))
>>> [(s["index"], s["action"], s["phase"]) for s in replay["steps"]][2:]
[(2, 'bid dreier', 'auction'), (3, 'pass', 'discard')]
>>> steps = replay["steps"]
>>> len(steps[3]["hands"][1]), steps[3]["talon"] == steps[0]["talon"][3:]
(19, True)
"""

from __future__ import annotations

import json
from typing import Any

from server.engine.base import JSON, Deal
from server.engine.record import load_record, stood_in

__all__ = ["replay_deal", "replay_steps", "trick_number"]


def replay_steps(record: JSON, *, check_outcome: bool = True) -> JSON:
    """The game part of the archive's REPLAY object for ``record``.

    ``{"game", "game_title", "seats", "dealer", "options", "stake_cents", "steps",
    "tricks", "outcome", "stood_in"}``; ``outcome`` is ``None`` for a deal that is not
    finished, ``stood_in`` the steps a stand-in played (the record's ``stood_in`` + 1).
    Raises :class:`~server.engine.errors.RecordError` for a record that does not load.
    """
    deal = load_record(record, check_outcome=check_outcome)
    stake = record.get("stake_cents", 0)
    replay = replay_deal(deal, stake_cents=stake if isinstance(stake, int) else 0)
    # the steps (from 1) a stand-in played for an absent person, as the record marks them
    replay["stood_in"] = [index + 1 for index in stood_in(record)]
    return replay


def replay_deal(deal: Deal, *, stake_cents: int = 0) -> JSON:
    """The replay of ``deal``'s actions so far, from a fresh deal with the same cards."""
    rules = deal.rules
    fresh: Deal = rules.new_deal(deal.dealt, deal.options, deal.seat_names, deal.dealer)
    steps = [_step(fresh, 0, None, None)]
    tricks: list[JSON] = []
    done = 0
    for index, (seat, move) in enumerate(deal.history, start=1):
        fresh.apply(move, seat)
        step = _step(fresh, index, seat, fresh.move_text(move))
        steps.append(step)
        if sum(step["tricks_won"]) > done:
            done += 1
            tricks.append({"number": done, "step": index, **step["last_trick"]})
    replay: JSON = _plain(
        {
            "game": rules.name,
            "game_title": rules.title,
            "seats": list(deal.seat_names),
            "dealer": deal.dealer,
            "options": dict(deal.options),
            "stake_cents": stake_cents,
            "steps": steps,
            "tricks": tricks,
            "outcome": fresh.outcome(),
        }
    )
    return replay


def trick_number(view: JSON, phase: str) -> int:
    """The 1-based number of the trick being played (cards on the table), else of the last
    finished trick; 1 when play has begun and no card lies yet, 0 before the play."""
    done: int = sum(view["tricks_won"])
    if view["trick"]["cards"]:
        return done + 1
    if done:
        return done
    return 1 if phase == "play" else 0


def _step(deal: Deal, index: int, actor: int | None, action: str | None) -> JSON:
    public = deal.view(None)
    state = deal.replay_state()
    step: JSON = {
        "index": index,
        "actor": actor,
        "action": action,
        "phase": deal.phase,
        "to_move": deal.to_move,
        "hands": state["hands"],
        "talon": state["talon"],
        "trick": state.get("trick", public["trick"]),
        "last_trick": state.get("last_trick", public["last_trick"]),
        "trick_number": trick_number(public, deal.phase),
        "tricks_won": public["tricks_won"],
        "card_points": state["card_points"],
        "party_points": state["party_points"],
        "replay": {k: v for k, v in state.items() if k not in _STEP_KEYS},
        "public": public,
    }
    return step


_STEP_KEYS = frozenset({"hands", "talon", "card_points", "party_points", "trick", "last_trick"})


def _plain(value: Any) -> Any:
    """``value`` as plain JSON data (tuples become lists), as a stored record holds it."""
    return json.loads(json.dumps(value))
