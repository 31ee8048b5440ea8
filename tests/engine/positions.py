"""Random deals walked position by position, for the tests that check a property of the
engine everywhere."""

from __future__ import annotations

import random
from collections.abc import Iterator

from server.engine.base import Deal
from server.engine.registry import get_rules


def random_positions(game: str, deals: int, seed: int) -> Iterator[Deal]:
    """Every position of ``deals`` random deals of ``game``, the finished one last of each
    deal: the caller looks at the deal, then the walk makes a random legal action."""
    rules = get_rules(game)
    rng = random.Random(seed)
    for _ in range(deals):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while True:
            yield deal
            if deal.finished:
                break
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)


def deal_state(deal: Deal) -> tuple[object, ...]:
    """What a deal is, as far as anybody can tell: its history, phase and turn, every
    seat's view and legal moves, and the outcome once it is over (two deals with the same
    state are the same deal to every player and to the table)."""
    seats = range(deal.rules.seats)
    return (
        list(deal.history),
        str(deal.phase),
        deal.to_move,
        deal.finished,
        [deal.view(seat) for seat in seats],
        [list(deal.legal_moves_for(seat)) for seat in seats],
        deal.outcome() if deal.finished else None,
    )


def replayed(deal: Deal) -> Deal:
    """A new deal of the same cards and options with ``deal``'s history applied (checked)."""
    copy: Deal = deal.rules.new_deal(deal.dealt, deal.options, deal.seat_names, deal.dealer)
    for seat, move in deal.history:
        copy.apply(move, seat)
    return copy


def house_rule_deals(game: str, deals: int, rng: random.Random) -> Iterator[Deal]:
    """``deals`` new deals of ``game``, each with every house rule chosen at random."""
    rules = get_rules(game)
    for _ in range(deals):
        options = {option.name: rng.choice(option.choices) for option in rules.options}
        yield rules.new_deal(rules.shuffle_and_deal(rng), options)
