"""Doppen: the outcome of a finished deal, from the deal's facts.

The card-point game, the premiums (Pagat, Uhu, Trull, Könige, Valat) and the doublings
are judged here with the Tarock layer's evaluators (:mod:`server.engine.tarock.premiums`)
and the amounts of :mod:`.scoring`. The outcome holds codes and numbers only:

* ``contract``, ``declarer`` (``None`` when the deal was thrown in), ``thrown_in``;
* ``card_points`` ``{"declarer", "opponents"}`` in whole points (``None`` when the cards
  are not counted: a Valat, an announced Valat, a thrown-in deal);
* ``game_points``: the card-point game against each opponent, signed, doublings included;
* ``premiums``: one entry per premium result (``code``, ``side`` 0 = declarer's, 1 =
  opponents', ``seat``, ``announced``, ``won``, ``points`` with the factors applied);
* ``doublings``: each item's factor; ``announced``: the announcer of every premium;
* ``per_opponent``: what the declarer gets from each opponent (a sitting-out dealer
  included, DP-A20), ``settlement``: points per seat;
* ``kasse``: the Pagatkasse's business of the deal for the match (DP-A17):
  ``{"event": "all_pass"}``, ``{"event": "pagat_won"|"pagat_lost", "seat", "factor"}``
  or ``None``;
* ``ended_early``: play stopped after a lost announced Valat (DP-A16);
* ``lines``: the result lines as codes with flat parameters, for the catalogue keys
  ``result.doppen.<code>`` (``game_won``/``game_lost`` ``{points, value}``, one per
  premium ``{points, announced, won, side}``, ``ended_early``, ``per_opponent``
  ``{value}``, ``kasse_won``/``kasse_lost`` ``{player}``, ``thrown_in``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.engine.base import JSON
from server.engine.cards import TAROCK
from server.engine.counting import PointCounter
from server.engine.games.doppen.contracts import PREMIUMS
from server.engine.games.doppen.scoring import (
    game_points,
    per_opponent,
    premium_multiplier,
    settlement,
)
from server.engine.tarock.premiums import Facts, evaluate

if TYPE_CHECKING:
    from server.engine.games.doppen.deal import DoppenDeal

COUNTER = PointCounter(TAROCK)


def thrown_in() -> JSON:
    """The outcome of a deal everybody passed."""
    return {
        "contract": None,
        "declarer": None,
        "thrown_in": True,
        "card_points": None,
        "game_points": 0,
        "premiums": [],
        "doublings": {},
        "announced": {},
        "per_opponent": 0,
        "settlement": [0, 0, 0],
        "kasse": {"event": "all_pass"},
        "ended_early": False,
        "lines": [{"code": "thrown_in"}],
        "tricks": [],
    }


def score(deal: DoppenDeal) -> JSON:
    """The outcome of a finished deal (see the module text)."""
    row, play, declarer = deal.row, deal.play, deal.declarer
    if row is None or declarer is None:
        return thrown_in()
    assert play is not None
    chains = deal.chain_factors()
    announced = dict(deal.announced)
    mine, theirs = deal.piles()
    facts = Facts(
        parties=deal.parties,
        tricks=play.tricks,
        trick_count=16,
        start_hands=deal.start_hands,
        piles={0: mine, 1: theirs},
        declarer=declarer,
    )

    def multiplier(code: str) -> int:
        return premium_multiplier(
            code,
            spielfaktor=row.value,
            praemienfaktor=row.premium_factor,
            chains=chains,
            announced=code in announced,
        )

    results = evaluate(PREMIUMS, facts, announced, multiplier)
    valat = any(r.code == "valat" for r in results)
    ended_early = deal.ended_early
    counted = not valat and not ended_early
    d_points = COUNTER.whole(mine)
    game = game_points(d_points, row.value, chains["game"]) if counted else 0
    amount = per_opponent(game, [(r.code, (r.side == 0) == r.won, r.points) for r in results])
    kasse: JSON | None = None
    if "pagat" in announced:
        pagat = next(r for r in results if r.code == "pagat")
        kasse = {
            "event": "pagat_won" if pagat.won else "pagat_lost",
            "seat": announced["pagat"],
            "factor": chains["pagat"],
        }
    lines: list[JSON] = []
    if counted:
        code = "game_won" if game > 0 else "game_lost"
        lines.append({"code": code, "points": d_points, "value": abs(game)})
    if ended_early:
        lines.append({"code": "ended_early"})
    for r in results:
        lines.append(
            {
                "code": r.code,
                "points": r.points,
                "announced": r.announced,
                "won": r.won,
                "side": r.side,
            }
        )
    lines.append({"code": "per_opponent", "value": amount})
    if kasse is not None:
        code = "kasse_won" if kasse["event"] == "pagat_won" else "kasse_lost"
        lines.append({"code": code, "player": deal.seat_names[announced["pagat"]]})
    return {
        "contract": row.name,
        "declarer": declarer,
        "thrown_in": False,
        "card_points": {"declarer": d_points, "opponents": COUNTER.whole(theirs)}
        if counted
        else None,
        "game_points": game,
        "premiums": [r.to_json() for r in results],
        "doublings": chains,
        "announced": announced,
        "per_opponent": amount,
        "settlement": settlement(3, declarer, amount),
        "kasse": kasse,
        "ended_early": ended_early,
        "lines": lines,
        "tricks": play.tricks_json(TAROCK.code),
    }
