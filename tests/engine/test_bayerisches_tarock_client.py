"""The client module of Bayerisches Tarock (web/static/js/games/bayerisches-tarock.js), run
for real in node over the views the engine gives while a golden record replays, with the
German catalogue: what the table says in the Reizen, after it and in the result.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine import client_module

GAME = "bayerisches-tarock"

pytestmark = pytest.mark.skipif(client_module.NODE is None, reason="node is not installed")


def views_of(record_name: str, viewer: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The seats and the views of the seat to move or of a spectator (client_module)."""
    record, views = client_module.views_of(GAME, record_name, viewer)
    return record["seats"], views


def run_module(seats: list[str], views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The module's texts for every view, from node."""
    return client_module.run_module(GAME, seats, views)


def test_a_hand_game_bid_to_66_with_kontra_as_the_table_says_it() -> None:
    seats, views = views_of("hand-66-lost.json", "mover")
    out = run_module(seats, views)
    b = seats[1]  # Mittelhand, the declarer
    # V opens the Reizen.
    assert out[0]["turn"] == "Du bist am Zug: »Ich spiele«, ein höheres Gebot oder weiter"
    assert out[0]["info"] == ["Reizen: noch kein Gebot", "Stock: 3 Karten, verdeckt"]
    # M is asked to go over "Ich spiele", which needs 61.
    assert out[1]["turn"] == (
        "Du bist am Zug: Gebot Ich spiele, Ziel 61 Augen – höher gehen oder weiter"
    )
    assert out[1]["badges"] == [["Ich spiele"], [], []]
    # H sees M holding 66; V may hold it.
    assert out[2]["info"][0] == f"Reizen: höchstes Gebot 5 mehr (66), Ziel 66 Augen ({b})"
    assert out[3]["turn"] == (
        "Du bist am Zug: Gebot 5 mehr (66), Ziel 66 Augen – halten, höher gehen oder weiter"
    )
    assert out[3]["badges"] == [["Ich spiele"], ["5 mehr (66)"], ["Weiter"]]
    # M names the trump of his Hand game; the unseen Stock counts for him.
    assert out[4]["turn"] == "Du bist am Zug: nenne den Trumpf"
    assert out[4]["info"] == [
        "Ziel: 66 Augen",
        "Stock: 3 Karten, ungesehen, zählen für den Alleinspieler",
    ]
    # The Kontra round: V says Kontra, it stands under V from then on.
    assert out[5]["turn"] == "Du bist am Zug: Kontra geben oder »Gut«"
    assert "Trumpf: Schellen" in out[5]["info"]
    assert out[6]["badges"] == [["Kontra"], [], []]
    assert out[-2]["turn"] is None  # playing a card: the phase's own text
    # The end: who lost, the Augen against the target, the coded lines come from the core.
    last = out[-1]
    assert last["title"] == f"{b} verliert: Hand"
    assert last["result"] == [
        "Augen: Alleinspieler 10, Gegenspieler 110 (Ziel 66)",
        "Trumpf: Schellen",
        "Stiche des Alleinspielers: 0",
    ]
    assert last["replay"] == ["Der ungesehene Stock zählt für den Alleinspieler"]


def test_the_stock_game_as_the_declarer_and_the_others_see_it() -> None:
    seats, views = views_of("stock-game.json", "mover")
    out = run_module(seats, views)
    # V won "Ich spiele" and chooses the game.
    assert out[3]["turn"] == "Du bist am Zug: sag an, was du spielst"
    assert out[3]["info"][0] == f"{seats[0]} hat das Reizen gewonnen: Ich spiele, Ziel 61 Augen"
    # Laying away: the Stock taken shows its cards to the declarer; the count goes down.
    assert out[4]["turn"] == "Du bist am Zug: drück noch 3 Karten (antippen)"
    assert "Stock aufgenommen S10,S7,S6" in out[4]["info"]
    assert out[6]["turn"] == "Du bist am Zug: drück noch 1 Karte (antippen)"
    assert out[7]["turn"] == "Du bist am Zug: nenne den Trumpf"
    assert "Gedrückt S10,S7,S6" in out[7]["info"]
    _, spectator = views_of("stock-game.json", "spectator")
    seen = run_module(seats, spectator)
    assert not any("S10" in line for step in seen[:-1] for line in step["info"])
    assert "3 Karten gedrückt" in seen[7]["info"]
    assert seen[-1]["title"] == f"{seats[0]} gewinnt: Frage (Stockspiel)"


def test_without_reizen_the_table_asks_for_game_requests() -> None:
    seats, views = views_of("bettel-ohne-reizen.json", "mover")
    out = run_module(seats, views)
    assert out[0]["turn"] == "Du bist am Zug: sag deinen Spielwunsch oder weiter"
    assert out[0]["info"][0] == "Spielwünsche: noch keiner"
    assert out[1]["turn"] == "Du bist am Zug: Bettel liegt – ein höherer Wunsch oder weiter"
    assert out[1]["info"][0] == f"Spielwünsche: höchster Bettel ({seats[0]})"
    assert out[3]["info"][:2] == [
        "Bettel: kein Stich",
        "Ohne Trumpf, der Zehner zwischen Unter und Neuner",
    ]
    assert out[-1]["title"] == f"{seats[0]} gewinnt: Bettel"


def test_a_thrown_in_deal_is_titled_by_its_contract() -> None:
    seats, views = views_of("thrown-in.json", "spectator")
    out = run_module(seats, views)
    assert out[-1]["title"] == "Zusammengeworfen"
    assert out[-1]["result"] == []
