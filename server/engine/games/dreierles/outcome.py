"""Dreierles: the outcome of a finished deal, from the deal's facts.

The Räuber pays by each seat's pile (DL-A16); a declarer game by the declarer's party
count, the hand bonuses held at the first lead and the Pfeife in the last trick (DL-A5 …
DL-A13, DL-A20). Amounts come from :mod:`.scoring`; the outcome holds codes and numbers
only (contract and premium names), which the Dreierles client module and the catalogues
translate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.engine.base import JSON
from server.engine.cards import TAROCK
from server.engine.games.dreierles.contracts import KINGS, PFEIFE, TRULL, TRUMPS
from server.engine.games.dreierles.scoring import (
    Pfeife,
    declarer_wins,
    game_points,
    score_declarer_game,
    score_rauber,
)
from server.engine.tarock.talon import mask_of

if TYPE_CHECKING:
    from server.engine.games.dreierles.deal import DreierlesDeal


def hand_bonuses(deal: DreierlesDeal) -> list[tuple[str, int]]:
    """``(name, seat)`` of every hand bonus held at the first lead (DL-A10, DL-A11)."""
    bonuses: list[tuple[str, int]] = []
    restrict = bool(deal.options["hand_bonus_declarer_only"])
    for seat, hand in enumerate(deal.start_hands):
        if (hand & TRUMPS).bit_count() >= 10 and (not restrict or seat == deal.declarer):
            bonuses.append(("zehn_trumpf", seat))
        if hand & TRULL == TRULL and (not restrict or seat == deal.declarer):
            bonuses.append(("drull", seat))
        if hand & KINGS == KINGS:
            bonuses.append(("vier_koenige", seat))
    return bonuses


def pfeife_bonus(deal: DreierlesDeal) -> Pfeife | None:
    """The Pfeife bonus of a declarer game: decided by trick 16 (an announced one is lost
    if played earlier)."""
    declarer = deal.declarer
    assert declarer is not None
    leader, cards, winner = deal.tricks[15]
    owner = (leader + cards.index(PFEIFE)) % 3 if PFEIFE in cards else None
    if deal.pfeife_announced:
        return Pfeife("declarer", announced=True, won=owner == declarer == winner)
    if owner is None:
        return None
    side = "declarer" if owner == declarer else "opponents"
    return Pfeife(side, announced=False, won=owner == winner)


def score(deal: DreierlesDeal) -> JSON:
    """The outcome of a finished deal (see :meth:`DreierlesDeal.outcome`)."""
    play, row = deal.play, deal.row
    assert play is not None and row is not None
    tricks = play.tricks_json(TAROCK.code)
    parties = deal.parties()
    if parties is None:
        piles = [deal.card_points(w) for w in deal.won]
        value = int(deal.options["final_rauber_points"]) if deal.final_round else row.value
        settlement, losers = score_rauber(piles, len(deal.knocks), value)
        return {
            "contract": row.name,
            "declarer": None,
            "knocks": len(deal.knocks),
            "tricks": tricks,
            "card_points": {
                "seats": [deal.fmt(p) for p in piles],
                "blind": deal.fmt(deal.card_points(mask_of(deal.talon))),
            },
            "losers": losers,
            "premiums": [],
            "settlement": settlement,
        }
    declarer = deal.declarer
    assert declarer is not None
    d_points = deal.card_points(parties[0])
    o_points = deal.card_points(parties[1])
    game = game_points(
        row.name,
        d_points,
        len(deal.knocks),
        thirds=deal.thirds,
        minimum=int(deal.options["minimum_game_points"]),
    )
    bonuses = hand_bonuses(deal)
    pfeife = pfeife_bonus(deal)
    settlement = score_declarer_game(3, declarer, game, bonuses, pfeife)
    premiums: list[JSON] = [{"name": n, "seat": s, "points": 1} for n, s in bonuses]
    if pfeife is not None:
        premiums.append(
            {
                "name": pfeife.name,
                "side": pfeife.side,
                "won": pfeife.won,
                "points": pfeife.points,
            }
        )
    return {
        "contract": row.name,
        "declarer": declarer,
        "knocks": len(deal.knocks),
        "tricks": tricks,
        "card_points": {"declarer": deal.fmt(d_points), "opponents": deal.fmt(o_points)},
        "declarer_won": declarer_wins(d_points, deal.thirds),
        "game_points": game,
        "premiums": premiums,
        "settlement": settlement,
    }
