"""The client module of Doppen (web/static/js/games/doppen.js), run for real in node over
the engine's views of a golden record: what the announcement round asks for. (What each
person gets from a deal, the sitting-out dealer included, is the ledger's: the table shows
the deal's ledger, and the module computes no share.)"""

from __future__ import annotations

import pytest

from tests.engine import client_module

pytestmark = pytest.mark.skipif(client_module.NODE is None, reason="node is not installed")


def test_the_announcement_round_asks_only_for_what_the_player_may_do() -> None:
    record, views = client_module.views_of("doppen", "dreier-lower-kontra.json")
    out = client_module.run_module("doppen", record["seats"], views)
    parts = {"announce": "ansagen", "kontra": "Kontra geben", "re": "Re geben"}
    asked = 0
    for view, texts in zip(views, out, strict=True):
        if view["phase"] != "announce" or not view["legal_actions"]:
            continue
        verbs = {a.split()[0] for a in view["legal_actions"]}
        said = [text for verb, text in parts.items() if verb in verbs]
        nothing = "gut (du kannst nichts ansagen und nichts kontrieren)"
        expected = f"Du bist am Zug: {', '.join(said)} – oder gut" if said else nothing
        expected = expected if said else f"Du bist am Zug: {nothing}"
        assert texts["turn"] == expected
        asked += 1
    assert asked >= 3
