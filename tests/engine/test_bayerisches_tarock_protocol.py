"""The Bayerisches Tarock session through the shared match protocol check: random
sessions where every row adds up to zero, the totals follow the rows, the pots follow the
reported movements, the balances add up to zero and the sheet is rebuilt from the deal
records. The game is lent to the registry for these tests only (it is not yet offered)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.engine import registry
from server.engine.games.bayerisches_tarock import BayerischesTarock
from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch
from tests.engine.test_match_protocol import CONFIG, run_to_the_end

GAME = "bayerisches-tarock"


@pytest.fixture(autouse=True)
def lent_to_the_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    implemented = registry._implemented

    def with_this_game() -> dict[str, Any]:
        return {**implemented(), GAME: (BayerischesTarock, BayerischesTarockMatch)}

    monkeypatch.setattr(registry, "_implemented", with_this_game)
    yield


@pytest.mark.parametrize("seed", [1, 2])
def test_random_sessions_through_the_protocol(seed: int) -> None:
    run_to_the_end(GAME, ["A", "B", "C"], {**CONFIG, "rounds": 2}, seed)
    run_to_the_end(GAME, ["A", "B", "C", "D"], {**CONFIG, "rounds": 1}, seed)
    haferl = {**CONFIG, "rounds": 8, "options": {"reizen": False}, "haferl": True,
              "haferl_einsatz": 5}  # fmt: skip
    run_to_the_end(GAME, ["A", "B", "C"], haferl, seed)
    run_to_the_end(GAME, ["A", "B", "C", "D"], haferl, seed)
