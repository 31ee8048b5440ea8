"""The Bayerisches Tarock session through the shared match protocol check: random
sessions where every row adds up to zero, the totals follow the rows, the pots follow the
reported movements, the balances add up to zero and the sheet is rebuilt from the deal
records."""

from __future__ import annotations

import pytest

from tests.engine.test_match_protocol import CONFIG, run_to_the_end

GAME = "bayerisches-tarock"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_sessions_through_the_protocol(seed: int) -> None:
    run_to_the_end(GAME, ["A", "B", "C"], {**CONFIG, "rounds": 2}, seed)
    run_to_the_end(GAME, ["A", "B", "C", "D"], {**CONFIG, "rounds": 1}, seed)
    haferl = {**CONFIG, "rounds": 8, "options": {"reizen": False}, "haferl": True,
              "haferl_einsatz": 5}  # fmt: skip
    run_to_the_end(GAME, ["A", "B", "C"], haferl, seed)
    run_to_the_end(GAME, ["A", "B", "C", "D"], haferl, seed)
