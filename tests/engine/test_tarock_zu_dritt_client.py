"""The client module of Tarock zu dritt (web/static/js/games/tarock-zu-dritt.js), run for
real in node over the views the engine gives while a golden record replays, with the German
catalogue: the Lizitation's badges, the talon's choices, the discards' restriction, the
announcements and the Kontra chains, the hands laid open, the result lines.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine import client_module

GAME = "tarock-zu-dritt"

pytestmark = pytest.mark.skipif(client_module.NODE is None, reason="node is not installed")


def views_of(record_name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The record and the views of the seat to move (client_module)."""
    return client_module.views_of(GAME, record_name)


def run_module(seats: list[str], views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The module's texts for every view, from node."""
    return client_module.run_module(GAME, seats, views)


SEATS = "Vorhand: Anna, Mittelhand: Bernd, Hinterhand: Catrin"


def test_a_zweier_from_the_lizitation_to_the_result() -> None:
    record, views = views_of("zweier.json")
    out = run_module(record["seats"], views)
    # Knocked: the packets are chosen first, listed among the calls.
    assert out[0]["turn"] == "Du bist am Zug: geklopft, wähle ein Paket"
    assert out[0]["info"] == ["Geklopft: 0 von 3 Paketen gewählt", "Der Talon: 6 Karten verdeckt"]
    assert out[0]["call"] is True
    # Vorhand opens (she may not pass); her Zweier stands under her, Bernd's "weiter" too.
    assert out[2]["turn"] == "Du bist am Zug: „Vorhand!“ oder ein Spiel vom Speisezettel"
    assert out[3]["turn"] == "Du bist am Zug: ein höheres Spiel vom Speisezettel oder „Weiter“"
    assert out[4]["badges"] == [["Zweier"], ["Weiter"], []]
    # The talon lies open in three pairs, each a choice with exactly its cards.
    assert out[5]["info"] == [
        "Wert 4",
        "Der Talon liegt offen: take 1=T6,H3 take 2=T2,KrC take 3=KrD,P8",
    ]
    assert out[5]["call"] is False
    # Two discards with the restriction said, counted down.
    rule = "(keine Könige, keine Trullstücke; Tarock nur, wenn es nicht anders geht, offen)"
    assert out[6]["turn"] == f"Du bist am Zug: lege noch 2 Karten ab {rule}"
    assert out[7]["turn"] == f"Du bist am Zug: lege noch 1 Karte ab {rule}"
    assert out[6]["info"][1:] == [
        "Aus dem Talon genommen: T6,H3",
        "Rest des Talons (für die Gegner): T2,KrC,KrD,P8",
    ]
    assert out[8]["turn"] == "Du bist am Zug: sage Zusätze an oder „Ich liege“"
    assert out[14]["turn"] == "Du bist am Zug: Kontra, Rekontra, Subkontra, eine Ansage oder „Gut“"
    # The Kontra round: each chain at its level, under the seat that called it last.
    assert out[20]["badges"][0][-1] == "Rekontra: Doppelsack"
    assert out[20]["info"][-1] == "Kontriert: Doppelsack: Rekontra ×4"
    last = out[-1]
    assert last["info"][3:] == [
        "Anna sagt an: Sack, Kakadu, Trull, Könige, Doppelsack",
        "Bernd sagt an: Pagat, Valat, Quapil",
        "Kontriert: Sack: Kontra ×2; Trull: Kontra ×2; Könige: Kontra ×2; "
        "Doppelsack: Subkontra ×8; Pagat: Kontra ×2; Valat: Kontra ×2",
    ]
    assert last["badges"][2] == ["Kontra: Trull", "Kontra: Könige", "Subkontra: Doppelsack"]
    assert last["title"] is None  # the core says who won the Zweier
    assert last["result"][:3] == [
        "Kartenpunkte: Spieler 39⅔, Gegner 30⅓",
        SEATS,
        None,  # game_won: the core's text (factor 1)
    ]
    assert last["result"][3] == "Pagat (angesagt): von den Gegenspielern verloren (4)"
    assert last["replay"] == [SEATS]


def test_a_piccolo_ouvert_with_a_bei_player_lays_every_hand_open_after_trick_one() -> None:
    record, views = views_of("piccolo-ouvert.json")
    out = run_module(record["seats"], views)
    assert out[3]["badges"] == [["Triccolo semi-ouvert"], ["Weiter"], ["Piccolo ouvert"]]
    # Anna may join: the "-bei" names the game it joins.
    assert out[3]["turn"] == (
        "Du bist am Zug: Piccolo ouvert-bei, ein höheres Spiel vom Speisezettel oder „Weiter“"
    )
    # Anna joins with "-bei": the second declarer is named here, the first by the core.
    assert out[4]["info"] == ["Anna spielt Piccolo ouvert-bei; Wert 8"]
    assert out[4]["badges"] == [["spielt Piccolo ouvert"], [], []]
    # Each opponent doubles for himself: the chains name whose they are.
    assert out[7]["info"][-1] == (
        "Kontriert: Spiel, Anna: Rekontra ×4; Bei-Spiel, Bernd: Kontra ×2"
    )
    plays = [i for i, (_s, text) in enumerate(record["actions"]) if text.startswith("play")]
    before, after = out[plays[2]], out[plays[3]]  # the third card of trick 1, the next lead
    assert not any(line.startswith("Offen:") for line in before["info"])
    mover = record["actions"][plays[3]][0]
    opened = [line.split(" ")[1] for line in after["info"] if line.startswith("Offen:")]
    assert opened == [record["seats"][s] for s in range(3) if s != mover]
    for line in after["info"]:
        if line.startswith("Offen:"):
            assert len(line.split(" ")[2].split(",")) == 15
    assert out[-1]["result"][-4:] == [
        "Hinterhand gegen Vorhand: 1 Stiche, gewonnen, 32",
        "Hinterhand gegen Mittelhand: 1 Stiche, gewonnen, 8",
        "Vorhand gegen Mittelhand: 5 Stiche, verloren, 16",
        "Vorhand gegen Hinterhand: 5 Stiche, verloren, 16",
    ]


def test_a_trischaken_is_titled_by_its_contract_with_who_pays() -> None:
    record, views = views_of("trischaken.json")
    out = run_module(record["seats"], views)
    assert out[-1]["title"] == "Trischaken"
    assert out[-1]["info"] == ["Wert 2"]
    assert out[-1]["result"] == [
        "Stiche: Anna 6, Bernd 5, Catrin 5",
        SEATS,
        "Hinterhand hat die meisten Punkte und zahlt 2",
    ]


def test_a_farbenspiel_without_talon_goes_straight_to_the_announcements() -> None:
    record, views = views_of("farbensolo.json")
    out = run_module(record["seats"], views)
    assert out[5]["badges"] == [["Zwiccolo ouvert"], ["Weiter"], ["Piccolo ouvert"]]
    assert out[7]["info"] == ["Wert 8"]
    assert out[7]["turn"] == "Du bist am Zug: sage Zusätze an oder „Ich liege“"
    assert out[8]["badges"][0] == ["sagt an: Sack"]


def test_zweier_frei_offers_each_talon_card_not_taken_yet() -> None:
    from tests.engine.test_tarock_zu_dritt_deals import act, deal_of

    deal = act(deal_of(talon="HK HD HC KaK KaD KaC", options={"zweier_frei": True}),
               "bid zweier", "pass", "pass")  # fmt: skip
    first = json.loads(json.dumps(deal.view(0)))
    act(deal, "take 2")
    second = json.loads(json.dumps(deal.view(0)))
    out = run_module(["Anna", "Bernd", "Catrin"], [first, second])
    assert out[0]["info"][1] == (
        "Der Talon liegt offen: take 1=HK take 2=HD take 3=HC take 4=KaK take 5=KaD take 6=KaC"
    )
    # single cards to take, not groups
    assert out[0]["turn"] == "Du bist am Zug: wähle eine Karte aus dem Talon (tippe sie an)"
    assert out[1]["info"][1:] == [
        "Der Talon liegt offen: take 1=HK take 3=HC take 4=KaK take 5=KaD take 6=KaC",
        "Aus dem Talon genommen: HD",
    ]
