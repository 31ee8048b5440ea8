"""The table sends the one card verb legal for a tapped card (``CARD_VERBS`` in
``web/static/js/table-games.js``): no game may offer a seat two card verbs at once
(Doppen's face-down ``cover`` is open only to a player who is not on turn). Checked at
every position of random deals of every playable game, for every seat."""

from __future__ import annotations

import random

import pytest

from server.engine.registry import get_rules, playable
from tests.test_i18n import CARD_VERBS

PLAYABLE = playable()


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_seat_never_has_two_card_verbs_at_once(game: str) -> None:
    rules = get_rules(game)
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(60):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while not deal.finished:
            for seat in range(len(deal.seat_names)):
                texts = [deal.move_text(m) for m in deal.legal_moves_for(seat)]
                verbs = {t.split()[0] for t in texts if t.split()[0] in CARD_VERBS}
                assert len(verbs) <= 1, (game, seat, sorted(verbs))
                seen |= verbs
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert "play" in seen


def test_the_check_sees_the_face_down_card_of_doppen() -> None:
    """The one game with a second card verb offers it (so the test above can fail)."""
    rules = get_rules("doppen")
    rng = random.Random(3)
    for _ in range(200):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while not deal.finished:
            for seat in range(3):
                if any(deal.move_text(m).startswith("cover ") for m in deal.legal_moves_for(seat)):
                    assert seat != deal.to_move
                    return
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    raise AssertionError("no deal offered the face-down card")
