"""Both computer players play every contract of every game (issue 30, "done when").

For each row of each playable game's contract table (its ``contracts.py``, the layout
docs/adding-a-game.md prescribes), a deal is played at random with random house rules,
except that an action naming the contract (``bid piccolo_ouvert``, ``solo damen``,
``armut``…) is made wherever it is legal, until a deal ends with that contract. Then, at
the decision that named it, both levels must answer legally; from the first card of the
tricks on, the rule-based player plays every seat to the end (declarer and defenders: the
contract must come out the same), and the searching player answers legally at the first
decisions with a choice in the tricks."""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass

import pytest

from server.bots import choose
from server.bots.info import info_for
from server.engine.base import Deal, Dealt, Rules
from server.engine.registry import get_rules, playable

#: Random deals tried per contract before the test gives up on reaching it.
TRIES = 4000
#: Decisions with a choice in the tricks at which the searching player is asked.
STARK_DECISIONS = 2


@dataclass
class Reached:
    """A deal that ended with the contract, and where it was named."""

    dealt: Dealt
    options: dict[str, object]
    history: list[tuple[int, int]]
    named: int | None  # the index of the action that named the contract


def contract_names(rules: Rules[Deal]) -> list[str]:
    """The rows of the game's contract table."""
    package = type(rules).__module__.rsplit(".", 1)[0]
    return list(importlib.import_module(f"{package}.contracts").CONTRACTS)


def reach(rules: Rules[Deal], contract: str, rng: random.Random) -> Reached | None:
    """A random deal that ends with ``contract`` (an action naming it taken wherever legal)."""
    for _ in range(TRIES):
        options: dict[str, object] = {o.name: rng.choice(o.choices) for o in rules.options}
        dealt = rules.shuffle_and_deal(rng)
        deal = rules.new_deal(dealt, options)
        named: int | None = None
        while not deal.finished:
            naming = [t for t in deal.legal_texts() if contract in t.split()]
            if naming and named is None and str(deal.phase) != "play":
                named = len(deal.history)
                deal.act(None, naming[0])
            else:
                seat, move = deal.random_action(rng)
                deal.apply(move, seat)
        outcome = deal.outcome()
        assert outcome is not None
        if rules.summarize(outcome).get("contract") == contract:
            return Reached(dealt, options, list(deal.history), named)
    return None


def replayed(rules: Rules[Deal], reached: Reached, until: int) -> Deal:
    """The deal after its first ``until`` actions."""
    deal = rules.new_deal(reached.dealt, reached.options)
    for seat, move in reached.history[:until]:
        deal.apply(move, seat)
    return deal


def legal_answer(deal: Deal, level: str, seed: int) -> str:
    """What ``level`` does for the seat to move; asserted legal."""
    seat = deal.to_move
    assert seat is not None
    text = choose(info_for(deal, seat), level, seed)
    assert text in deal.legal_texts(seat), (level, text, deal.legal_texts(seat))
    return text


@pytest.mark.parametrize("game", playable())
def test_both_players_play_every_contract(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(41)
    for contract in contract_names(rules):
        reached = reach(rules, contract, rng)
        assert reached is not None, f"{game}: no random deal reached {contract}"
        if reached.named is not None:  # the decision that named it: both answer legally
            at = replayed(rules, reached, reached.named)
            for level in ("einsteiger", "stark"):
                legal_answer(at, level, 1)
        first_card = next(
            (i for i in range(len(reached.history) + 1)
             if str(replayed(rules, reached, i).phase) == "play"),
            None,
        )  # fmt: skip
        if first_card is None:  # no tricks (thrown in by the reservation)
            continue
        deal = replayed(rules, reached, first_card)
        asked = 0
        step = 0
        while not deal.finished:
            seat = deal.to_move
            assert seat is not None
            if asked < STARK_DECISIONS and len(deal.legal_moves()) > 1:
                legal_answer(deal, "stark", step)
                asked += 1
            deal.act(seat, legal_answer(deal, "einsteiger", step))
            step += 1
        outcome = deal.outcome()
        assert outcome is not None
        assert rules.summarize(outcome)["contract"] == contract, (game, contract)
        assert asked == STARK_DECISIONS, (game, contract)
