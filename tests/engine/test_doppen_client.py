"""The client module of Doppen (web/static/js/games/doppen.js), run for real in node over
the engine's views of a golden record: the result panel's rows with four at the table."""

from __future__ import annotations

import json

import pytest

from server.engine.record import load_record
from server.engine.registry import get_rules
from tests.engine import client_module

pytestmark = pytest.mark.skipif(client_module.NODE is None, reason="node is not installed")


def final_view(dealer: str | None = None) -> tuple[list[str], dict[str, object]]:
    """The last view of the golden Dreier with Kontra, dealt by ``dealer`` (default: its
    own dealer, Hinterhand)."""
    path = client_module.ROOT / "tests" / "golden" / "doppen" / "dreier-lower-kontra.json"
    record = json.loads(path.read_text("utf-8"))
    finished = load_record(record)
    deal = get_rules("doppen").new_deal(
        finished.dealt, record["options"], record["seats"], dealer or record["dealer"]
    )
    for seat, text in record["actions"]:
        deal.apply(deal.parse(text), seat)
    return record["seats"], json.loads(json.dumps(deal.view(0)))


def test_four_at_the_table_the_sitting_out_dealer_has_a_row_of_his_own() -> None:
    seats, view = final_view("Dora")
    outcome = view["outcome"]
    assert isinstance(outcome, dict)
    amount, declarer = outcome["per_opponent"], outcome["declarer"]
    [out] = client_module.run_module("doppen", seats, [view])
    rows = {(row["player"], row["points"]) for row in out["settlement"]}
    expected = {(name, 3 * amount if seat == declarer else -amount)
                for seat, name in enumerate(seats)}  # fmt: skip
    assert rows == expected | {("Dora (gibt, sitzt aus)", -amount)}
    assert sum(points for _name, points in rows) == 0


def test_three_at_the_table_the_seats_settlement_stands() -> None:
    seats, view = final_view()
    [out] = client_module.run_module("doppen", seats, [view])
    assert out["settlement"] is None


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
