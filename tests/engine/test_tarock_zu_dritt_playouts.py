"""Tarock zu dritt: random full deals with invariants (every card in one pile, 70 points,
zero sum, exact replay), the views against ``hidden_from`` after every action, and the
information-set oracle (:mod:`server.engine.infoset`)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.engine.base import Deal
from server.engine.games.tarock_zu_dritt import TarockZuDritt
from server.engine.games.tarock_zu_dritt.contracts import CONTRACTS
from server.engine.infoset import InfosetOracle
from server.engine.playout import leaks

RULES = TarockZuDritt()


def play(
    seed: int, options: dict[str, object] | None = None, *, views: bool = False
) -> tuple[Deal, list[str]]:
    """A random deal; in the auction most calls are "pass", so that every game comes up."""
    rng = random.Random(seed)
    deal = RULES.new_deal(RULES.shuffle_and_deal(rng), options)
    problems: list[str] = []
    while not deal.finished:
        if views:
            problems.extend(leaks(deal))
        legal = deal.legal_texts()
        if deal.phase == "auction" and "pass" in legal and rng.random() < 0.6:
            text = "pass"
        elif deal.phase == "kontra" and rng.random() < 0.7:
            text = "gut"
        else:
            text = rng.choice(legal)
        deal.act(None, text)
    if views:
        problems.extend(leaks(deal))
    return deal, problems


def replay_problems(deal: Deal) -> list[str]:
    """Invariants, zero sum and an exact replay of the actions."""
    problems = list(deal.invariant_errors())
    outcome = deal.outcome()
    assert outcome is not None
    if sum(outcome["settlement"]) != 0:
        problems.append(f"settlement {outcome['settlement']} does not sum to zero")
    again = RULES.new_deal(deal.dealt, deal.options, deal.seat_names, deal.dealer)
    for seat, text in deal.actions():
        again.act(seat, text)
    if again.outcome() != outcome:
        problems.append("the replay gives a different outcome")
    return problems


def test_many_random_deals_keep_every_invariant_and_reach_every_game() -> None:
    seen: Counter[str] = Counter()
    for seed in range(700):
        deal, problems = play(seed, views=seed < 150)
        problems.extend(replay_problems(deal))
        assert problems == [], (seed, problems[:3])
        outcome = deal.outcome()
        assert outcome is not None
        seen[outcome["contract"]] += 1
    assert set(seen) == set(CONTRACTS), sorted(set(CONTRACTS) - set(seen))


@pytest.mark.parametrize(
    "options",
    [
        {"stille_saecke": True},
        {"skoty": True},
        {"trischaken_stichzwang": False},
        {"geklopft": True},
        {"zweier_frei": True},
    ],
)
def test_random_deals_with_the_options(options: dict[str, object]) -> None:
    for seed in range(60):
        deal, problems = play(seed, options, views=seed < 20)
        problems.extend(replay_problems(deal))
        assert problems == [], (seed, problems[:3])


def test_the_information_set_oracle_finds_nothing() -> None:
    for seed in range(120):
        deal, _ = play(1000 + seed)
        found = InfosetOracle.of(deal).check(random.Random(seed))
        assert found == [], (seed, [str(f) for f in found[:2]])


def test_the_oracle_after_a_knock() -> None:
    for seed in range(20):
        deal, _ = play(2000 + seed, {"geklopft": True})
        found = InfosetOracle.of(deal).check(random.Random(seed))
        assert found == [], (seed, [str(f) for f in found[:2]])
