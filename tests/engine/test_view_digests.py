"""The engine's behaviour held still: 200 random deals per game replay to the same views,
announcements, positions, replay states and outcomes as recorded; every golden record to
the same outcome (see :mod:`tests.engine.view_digests`)."""

from __future__ import annotations

import json

import pytest

from tests.engine.view_digests import GAMES, GOLDEN_OUTCOMES, golden_outcomes, path_of, play


@pytest.mark.parametrize("game", GAMES)
def test_random_deals_show_every_viewer_what_they_showed_before(game: str) -> None:
    stored = json.loads(path_of(game).read_text(encoding="utf-8"))
    assert len(stored) == 200
    for expected in stored:
        assert play(game, expected["seed"]) == expected, f"{game} deal {expected['seed']}"


def test_golden_records_replay_to_the_outcomes_recorded() -> None:
    assert golden_outcomes() == json.loads(GOLDEN_OUTCOMES.read_text(encoding="utf-8"))
