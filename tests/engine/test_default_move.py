"""The turn timer's move (``Deal.default_move``): legal everywhere, and never a bid, a hold,
an announcement, a knock or a doubling for a player who let the time run out while a
passive move ("pass", "gut", "liege", "fertig", "gesund") was open to him."""

from __future__ import annotations

import pytest

from server.engine.errors import IllegalActionError
from server.engine.registry import get_rules, list_games
from tests.engine.positions import random_positions
from tests.engine.test_doppen_deals import D1, dealt

GAMES = [info.name for info in list_games() if info.implemented]
#: Verbs that commit a player to something (a contract, a premium, a doubling, a reservation).
ACTIVE = {"bid", "hold", "announce", "kontra", "re", "rekontra", "subkontra", "knock",
          "solo", "armut", "hochzeit", "schmeissen", "vorhand"}  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_the_timer_plays_a_legal_passive_move_where_there_is_one(game: str) -> None:
    passive_seen = 0
    for deal in random_positions(game, 60, seed=11):
        if deal.finished:
            with pytest.raises(IllegalActionError):
                deal.default_move()
            continue
        legal = deal.legal_moves()
        move = deal.default_move()
        assert move in legal
        texts = [deal.move_text(m) for m in legal]
        passive = [t for t in deal.passive_moves if t in texts]
        chosen = deal.move_text(move)
        if passive:
            passive_seen += 1
            assert chosen == passive[0], (chosen, texts)
        elif any(t.split()[0] not in ACTIVE for t in texts):
            assert chosen.split()[0] not in ACTIVE, (chosen, texts)
    assert passive_seen > 0  # every game has calls the timer answers with a pass


def test_doppen_the_timer_says_gut_for_a_declarer_who_could_announce() -> None:
    rules = get_rules("doppen")
    deal = rules.new_deal(dealt(D1))
    for text in ("bid dreier", "pass", "pass"):
        deal.act(None, text)
    while str(deal.phase) in ("talon", "discard"):
        deal.apply(deal.legal_moves()[0])
    assert str(deal.phase) == "announce"
    assert any(t.startswith("announce") for t in deal.legal_texts())
    assert deal.legal_texts()[0].startswith("announce")  # what the timer used to play
    assert deal.move_text(deal.default_move()) == "gut"
