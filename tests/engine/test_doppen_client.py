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
