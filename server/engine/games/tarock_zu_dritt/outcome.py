"""Tarock zu dritt: the outcome of a finished deal, from the deal's facts.

Three kinds of game (the contract row's ``kind``):

* **positive**: the declarer's pile (tricks and discards) against the opponents' (tricks
  and the talon cards not taken); the game amount from :mod:`.scoring` with the game's
  Kontra factor; the premiums (:mod:`server.engine.tarock.premiums`) restricted to the
  row's premium codes, each with its own Kontra factor and the Solospiele's doubling
  (not Valat), judged on both piles (TZ-A10, TZ-A11, TZ-A16).
* **negative**: each declarer against each other player, the game value times the Kontra
  factor of that pair (TZ-A9, TZ-A21).
* **trischaken**: from each seat's count (TZ-A22).

The outcome holds codes and numbers only. ``lines`` are the result lines the catalogues
translate (``result.tarock-zu-dritt.<code>`` with the line's parameters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING

from server.engine.base import JSON
from server.engine.cards import TAROCK
from server.engine.counting import PointCounter, format_thirds
from server.engine.games.tarock_zu_dritt.contracts import (
    CONTRACTS,
    HONNEURS,
    PREMIUMS,
    SILENT_SACK_PREMIUMS,
    TzdContract,
)
from server.engine.games.tarock_zu_dritt.scoring import (
    declarer_wins,
    negative_made,
    pay_declarer,
    positive_game,
    trischaken,
)
from server.engine.tarock.premiums import Facts, PremiumTable, Result, evaluate, settle

if TYPE_CHECKING:
    from server.engine.games.tarock_zu_dritt.deal import TarockZuDrittDeal

COUNTER = PointCounter(TAROCK)


def score(deal: TarockZuDrittDeal) -> JSON:
    """The outcome of a finished deal (see :meth:`TarockZuDrittDeal.outcome`)."""
    play, row = deal.play, deal.row
    assert play is not None and row is not None
    seat_thirds = [COUNTER.thirds(w) for w in play.won]
    outcome: JSON = {
        "contract": row.name,
        "value": row.value,
        "declarers": list(deal.declarers),
        "declarer": deal.declarers[0] if not row.trischaken else None,
        "tricks": play.tricks_json(TAROCK.code),
        "tricks_won": list(play.tricks_won),
        "seat_points": [format_thirds(t) for t in seat_thirds],
        "card_points": None,
        "declarer_won": None,
        "premiums": [],
        "lines": [],
    }
    if row.trischaken:
        settlement, lines = trischaken(seat_thirds, play.tricks_won, row.value)
        outcome.update(settlement=settlement, lines=lines)
        return outcome
    assert deal.doubling is not None
    if row.negative:
        return _negative(deal, outcome)
    return _positive(deal, outcome)


def _negative(deal: TarockZuDrittDeal, outcome: JSON) -> JSON:
    row, play, doubling = deal.row, deal.play, deal.doubling
    assert row is not None and play is not None and doubling is not None
    settlement = [0, 0, 0]
    lines: list[JSON] = []
    made_first = None
    for index, declarer in enumerate(deal.declarers):
        item = "game" if index == 0 else "bei"
        made = negative_made(play.tricks_won[declarer], row.tricks)
        made_first = made if made_first is None else made_first
        for other in range(3):
            if other == declarer:
                continue
            factor = doubling.factor(item, other)
            amount = row.value * factor if made else -row.value * factor
            pay_declarer(settlement, declarer, other, amount)
            lines.append(
                {"code": "negative_game", "seat": declarer, "against": other, "won": made,
                 "tricks": play.tricks_won[declarer], "factor": factor, "points": abs(amount)}
            )  # fmt: skip
    outcome.update(declarer_won=made_first, settlement=settlement, lines=lines)
    return outcome


def _positive(deal: TarockZuDrittDeal, outcome: JSON) -> JSON:
    row, play, doubling = deal.row, deal.play, deal.doubling
    assert row is not None and play is not None and doubling is not None
    piles = deal.piles()
    assert piles is not None
    declarer = deal.declarers[0]
    d_thirds = COUNTER.thirds(piles[0])
    factor = doubling.factor("game")
    game = positive_game(value=row.value, cost=row.cost, declarer_thirds=d_thirds, factor=factor)
    settlement = [0, 0, 0]
    for other in range(3):
        if other != declarer:
            pay_declarer(settlement, declarer, other, game)
    parties = deal.parties()
    facts = Facts(
        parties=parties,
        tricks=play.tricks,
        trick_count=16,
        start_hands=deal.start_hands,
        piles={0: piles[0], 1: piles[1]},
        declarer=declarer,
    )
    silent_saecke = bool(deal.options["stille_saecke"]) and not deal.options["skoty"]
    honneurs = bool(deal.options["honneurs"])
    results = premium_results(
        row, facts, deal.announced, doubling.factor, silent_saecke, honneurs=honneurs
    )
    for seat, amount in enumerate(settle(results, parties)):
        settlement[seat] += amount
    won = declarer_wins(d_thirds)
    lines: list[JSON] = [
        {"code": "game_won" if won else "game_lost", "seat": declarer, "factor": factor,
         "points": abs(game), "card_points": format_thirds(d_thirds)}
    ]  # fmt: skip
    premiums = [r.to_json() for r in results]
    lines.extend(
        {"code": "premium", "premium": p["code"], "side": "declarer" if p["side"] == 0
         else "opponents", "announced": p["announced"], "won": p["won"], "points": p["points"]}
        for p in premiums
    )  # fmt: skip
    outcome.update(
        card_points={
            "declarer": format_thirds(d_thirds),
            "opponents": format_thirds(COUNTER.thirds(piles[1])),
        },
        declarer_won=won,
        factor=factor,
        premiums=premiums,
        lines=lines,
        settlement=settlement,
    )
    return outcome


def premium_results(
    row: TzdContract,
    facts: Facts,
    announced: Mapping[str, int],
    kontra: Callable[[str], int],
    silent_saecke: bool = False,
    *,
    honneurs: bool = False,
) -> list[Result]:
    """The premiums of a positive game: the row's premium codes only (TZ-A10), each
    times its Kontra factor ``kontra(code)`` and the Solospiele's doubling except Valat;
    the Honneurs only with their option (``honneurs``).

    A Solodreier whose declarer (seat 0) collected the Trull and the four Könige, the
    Trull kontriert:

    >>> from server.engine.games.tarock_zu_dritt.contracts import CONTRACTS
    >>> from server.engine.tarock.premiums import KINGS, TRULL
    >>> facts = Facts((0, 1, 1), [], piles={0: TRULL | KINGS, 1: 0})
    >>> kontra = {"trull": 2}.get
    >>> [(r.code, r.points) for r in premium_results(CONTRACTS["solodreier"], facts, {},
    ...                                              lambda c: kontra(c, 1))]
    [('koenige', 2), ('trull', 4)]
    >>> [r.code for r in premium_results(CONTRACTS["farbensolo"], facts, {}, lambda c: 1)]
    ['koenige']
    """
    table = _premium_table(row.premium_codes, silent_saecke, honneurs)

    def multiplier(code: str) -> int:
        solo = 1 if code == "valat" else row.premium_factor
        return solo * kontra(code)

    return evaluate(table, facts, announced, multiplier)


@cache
def _premium_table(codes: tuple[str, ...], silent_saecke: bool, honneurs: bool) -> PremiumTable:
    """The premiums of a game with premium ``codes`` and the options (a few tables, built
    once each)."""
    kept = [c for c in codes if honneurs or c != HONNEURS.code]
    return (SILENT_SACK_PREMIUMS if silent_saecke else PREMIUMS).only(*kept)


def _value(text: str) -> float:
    thirds = {"⅓": 1, "⅔": 2}.get(text[-1:], 0)
    whole = text[:-1] if thirds else text
    return int(whole) + thirds / 3


def summarize(outcome: JSON) -> JSON:
    """What the archive's statistics read from a stored outcome (see
    :meth:`server.engine.base.Rules.summarize`).

    >>> summarize({"contract": "trischaken", "declarer": None, "declarer_won": None,
    ...            "seat_points": ["30", "25", "15"], "card_points": None})["card_points"]
    [30.0, 25.0, 15.0]
    """
    contract = outcome["contract"]
    declarer = outcome["declarer"]
    points = outcome.get("card_points")
    if points is not None and declarer is not None:
        card_points = [
            _value(points["declarer" if s == declarer else "opponents"]) for s in range(3)
        ]
    else:
        card_points = [_value(p) for p in outcome["seat_points"]]
    return {
        "contract": contract,
        "declarer": declarer,
        "declarer_won": outcome["declarer_won"],
        "solo": CONTRACTS[contract].solo,
        "card_points": card_points,
    }
