"""Bayerisches Tarock: the outcome of a finished deal, from the deal's facts.

The declarer's Augen are his tricks with the Stock (a Hand game, BT-A4) or with his three
discards (the Stock game, BT-A3); the units come from :mod:`.scoring`. The outcome holds
codes and numbers only: ``lines`` are result lines ``{"code", "units", "level"?}``
(catalogue ``result.bayerisches-tarock.<code>``), ``settlement`` the units per seat
(the declarer against each opponent; the Haferl is the match's business).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.engine.base import JSON
from server.engine.cards import GERMAN
from server.engine.games.bayerisches_tarock.contracts import TRICKS
from server.engine.games.bayerisches_tarock.scoring import (
    BETTEL_VALUE,
    DURCH_LOST,
    DURCH_WON,
    SCHNEIDER_FROM,
    declarer_wins,
    reiz_lost_units,
    reiz_units,
    settle,
    wish_units,
    won_units_explained,
)

if TYPE_CHECKING:
    from server.engine.games.bayerisches_tarock.deal import BayerischesTarockDeal


def _lines_with_reizen(deal: BayerischesTarockDeal, augen: int, won: bool) -> list[JSON]:
    row = deal.row
    assert row is not None
    if not row.positive:
        return [{"code": "bettel_won" if won else "bettel_lost", "units": BETTEL_VALUE}]
    if row.durch:
        return [{"code": "durch_won" if won else "durch_lost",
                 "units": DURCH_WON if won else DURCH_LOST}]  # fmt: skip
    if won:
        return [
            {"code": code, "units": 1, **({"level": level} if code in ("erreicht", "angesagt")
                                          else {})}
            for code, level in won_units_explained(augen, target=deal.target, hand=row.hand)
        ]  # fmt: skip
    return [{"code": "verloren", "units": reiz_lost_units(target=deal.target, hand=row.hand)}]


def _units_with_reizen(deal: BayerischesTarockDeal, augen: int, won: bool) -> int:
    row = deal.row
    assert row is not None
    if not row.positive:
        return BETTEL_VALUE
    if row.durch:
        return DURCH_WON if won else DURCH_LOST
    if won:
        return reiz_units(augen, target=deal.target, hand=row.hand)
    return reiz_lost_units(target=deal.target, hand=row.hand)


def _lines_without_reizen(row_value: int, augen: int, all_tricks: bool, won: bool,
                          positive: bool) -> list[JSON]:  # fmt: skip
    lines: list[JSON] = [{"code": "spielwert", "units": row_value}]
    if won and positive and augen >= SCHNEIDER_FROM:
        lines.append({"code": "schneider", "units": 1})
    if won and positive and all_tricks:
        lines.append({"code": "matsch", "units": 1})
    return lines


def score(deal: BayerischesTarockDeal) -> JSON:
    """The outcome of a finished deal (see :meth:`BayerischesTarockDeal.outcome`)."""
    row, declarer, play = deal.row, deal.declarer, deal.play
    stock = GERMAN.codes(sum(1 << c for c in deal.stock))
    if row is None or declarer is None or play is None:
        return {
            "contract": "thrown_in",
            "declarer": None,
            "declarer_won": None,
            "hand": False,
            "stock": stock,
            "tricks": [],
            "lines": [],
            "settlement": [0, 0, 0],
        }
    parties = deal.parties()
    assert parties is not None
    augen = deal.augen(parties[0])
    taken = play.tricks_won[declarer]
    if not row.positive:
        won = taken == 0
    elif row.durch:
        won = taken == TRICKS
    elif deal.roles_switched:  # the opponents must reach the target (BT-A13 literally)
        won = not declarer_wins(deal.augen(parties[1]), deal.target)
    else:
        won = declarer_wins(augen, deal.target)
    if deal.reizen:
        units = _units_with_reizen(deal, augen, won)
        lines = _lines_with_reizen(deal, augen, won)
    else:
        all_tricks = taken == TRICKS
        units = wish_units(row.value, augen, all_tricks=all_tricks, won=won,
                           positive=row.positive)  # fmt: skip
        lines = _lines_without_reizen(row.value, augen, all_tricks, won, row.positive)
    factor = deal.kontra_factor
    if factor > 1:
        lines.append({"code": "kontra", "units": 0, "factor": factor})
    return {
        "contract": row.name,
        "declarer": declarer,
        "bid": deal.auction.high,
        "announced": deal.word,
        "trump": deal.trump,
        "target": deal.target if row.positive and not row.durch else None,
        "hand": row.hand,
        "augen": {"declarer": augen, "opponents": deal.augen(parties[1])},
        "tricks_taken": taken,
        "declarer_won": won,
        "units": units,
        "factor": factor,
        "roles_switched": deal.roles_switched,
        "lines": lines,
        "stock": stock,
        "discards": GERMAN.codes(deal.discards),
        "tricks": play.tricks_json(GERMAN.code),
        "settlement": settle(3, declarer, units * factor, won),
    }
