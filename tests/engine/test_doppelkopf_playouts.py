"""Random Doppelkopf deals: 240 Augen, zero sum, replay, no leaked hands or parties.

The party oracle and the extra-point recount here are written from the rules text,
independently of the engine's own bookkeeping.
"""

from __future__ import annotations

import random
from typing import Any

from server.engine.games.doppelkopf import Doppelkopf, DoppelkopfDeal
from server.engine.playout import check_finished, leaks, run_playouts

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
PRIORITY = {"solo": 0, "schmeissen": 1, "armut": 2, "hochzeit": 3}


def augen(code: str) -> int:
    return POINTS[code.split(".")[0][1:]]


def may_know(deal: DoppelkopfDeal, viewer: int, seat: int) -> bool:
    """Whether ``viewer`` may know ``seat``'s party now, judged from the actions alone."""
    if viewer == seat:
        return True
    actions = deal.actions()
    reserve = [t for _, t in actions[:4] if not t.startswith(("knock", "announce"))]
    if len(reserve) < 4:
        return False
    claims = [(PRIORITY[r.split()[0]], s, r) for s, r in enumerate(reserve) if r != "gesund"]
    winning = min(claims)[2] if claims else "gesund"
    if winning.startswith("solo"):
        return True
    if winning == "armut":
        return any(t == "take" for _, t in actions)
    if winning.startswith("hochzeit"):
        return seat == min(claims)[1] or deal.partner is not None or len(deal.tricks) >= 3
    cq = [s for s, t in actions if t == "play CQ"]
    return seat in cq or len(cq) == 2


def party_leaks(deal: DoppelkopfDeal) -> list[str]:
    re = deal.re_party()
    problems = []
    for viewer in range(4):
        shown = deal.view(viewer)["parties"]
        for seat, party in enumerate(shown):
            if party is None:
                continue
            if not may_know(deal, viewer, seat):
                problems.append(f"seat {viewer} is told seat {seat}'s party early")
            elif deal.contract != "hochzeit" or deal.partner is not None or seat == deal.declarer:
                truth = "re" if seat in re else "kontra"
                if party != truth:
                    problems.append(f"seat {viewer} is told a wrong party for seat {seat}")
    for seat, party in enumerate(deal.view(None)["parties"]):
        if party is not None and not all(may_know(deal, v, seat) for v in range(4)):
            problems.append(f"spectator is told seat {seat}'s party early")
    return problems


def recount_extras(outcome: dict[str, Any]) -> dict[str, int]:
    """Extra points per party from the tricks, as the rules text defines them."""
    totals = {"re": 0, "kontra": 0}
    if outcome["solo_scored"]:
        return totals
    re = set(outcome["re"])
    for number, trick in enumerate(outcome["tricks"], start=1):
        players = [(trick["leader"] + i) % 4 for i in range(4)]
        side = "re" if trick["winner"] in re else "kontra"
        foreign = [c for c, p in zip(trick["cards"], players, strict=True)
                   if ("re" if p in re else "kontra") != side]  # fmt: skip
        kinds = [c.split(".")[0] for c in foreign]
        best = trick["cards"][players.index(trick["winner"])].split(".")[0]
        totals[side] += kinds.count("DA")
        totals[side] += sum(augen(c) for c in trick["cards"]) >= 31
        h10 = kinds.count("H10")
        pig = outcome["schweinchen"] == trick["winner"] and best == "DA"
        totals[side] += 4 if h10 == 2 and pig else h10
        if number == 12:
            totals[side] += (best == "CJ") + ("CJ" in kinds)
    return totals


def test_a_thousand_random_deals_keep_every_invariant() -> None:
    rules = Doppelkopf()
    contracts: set[str] = set()
    for i in range(1000):
        rng = random.Random(f"dk:{i}")
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        problems: list[str] = []
        while not deal.finished:
            if i < 150:  # views after every action: the expensive part
                problems += leaks(deal) + party_leaks(deal)
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        problems += check_finished(deal) + leaks(deal)
        outcome = deal.outcome()
        assert outcome is not None
        contracts.add(outcome["contract"])
        if not deal.thrown_in:
            assert outcome["augen"]["re"] + outcome["augen"]["kontra"] == 240
            engine_extras = {"re": 0, "kontra": 0}
            for e in outcome["extras"]:
                engine_extras[e["party"]] += e["points"]
            assert engine_extras == recount_extras(outcome), i
        assert problems == [], (i, problems[:3])
    assert {"normal", "hochzeit", "stille_hochzeit", "trumpf", "fleischlos"} <= contracts


def test_cli_playout_for_doppelkopf() -> None:
    report = run_playouts("doppelkopf", 100, seed=5)
    assert report.invariant_failures == 0, report.failures[:3]


def test_the_party_oracle_catches_an_early_reveal() -> None:
    class Gossip(DoppelkopfDeal):
        def public_parties(self) -> list[str | None]:
            re = self.re_party()
            return ["re" if s in re else "kontra" for s in range(4)]

    rules = Doppelkopf()
    for seed in range(50):
        dealt = rules.shuffle_and_deal(random.Random(seed))
        deal = Gossip(rules, dealt, rules.resolve_options(), None, None)
        for _ in range(4):
            deal.apply(deal.parse("gesund"))  # everybody
        if deal.contract == "normal":
            assert party_leaks(deal)
            return
    raise AssertionError("no normal game found")
