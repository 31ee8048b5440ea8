"""Sorting the hand: each game's view groups the seat's cards by the contract being played
(``hand_groups``, docs/protocol.md), and the client's hand-sort.js, run for real in node
with the game's module, orders them as the player chose. Exact orders for given hands."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from server.engine.base import Dealt
from server.engine.cards import TAROCK
from server.engine.games.tarock_zu_dritt import TarockZuDritt
from server.engine.registry import get_rules
from tests.engine import bayerisches_tarock_deals as bt
from tests.engine import doppelkopf_deals as dk
from tests.engine import dreierles_deals as dr
from tests.engine.client_module import NODE, ROOT

JSON = dict[str, Any]

#: Runs sortedHand over a view for every sort on stdin; prints the orders.
SCRIPT = """
import { readFileSync } from "node:fs";
const sorting = await import(process.argv[1]);
const game = await import(process.argv[2]);
const input = JSON.parse(readFileSync(0, "utf8"));
const sortOf = (sort) => sorting.readSort(sort);
const out = input.sorts.map((s) => sorting.sortedHand(input.view, sortOf(s), game.suitColours));
process.stdout.write(JSON.stringify(out));
"""


def sorted_by_client(game: str, view: JSON, sorts: list[JSON]) -> list[list[str]]:
    """The hand of ``view`` as the table shows it for each of ``sorts``."""
    if NODE is None:
        pytest.skip("node is not installed")
    module = ROOT / "web/static/js/games" / f"{game}.js"
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT, str(ROOT / "web/static/js/hand-sort.js"),
         str(module)],
        input=json.dumps({"view": view, "sorts": sorts}),
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    result: list[list[str]] = json.loads(done.stdout)
    return result


def cards(text: str) -> list[str]:
    """The codes of ``text``, blank-separated."""
    return text.split()


def groups(view: JSON) -> list[tuple[str, list[str]]]:
    return [(g["group"], g["cards"]) for g in view["hand_groups"]]


DEFAULT = {"trumps": "left", "order": "desc", "suits": "pack"}
RIGHT = {"trumps": "right", "order": "desc", "suits": "pack"}
ASC = {"trumps": "left", "order": "asc", "suits": "pack"}
ALTERNATE = {"trumps": "left", "order": "desc", "suits": "alternate"}
RIGHT_ASC_ALT = {"trumps": "right", "order": "asc", "suits": "alternate"}


# --------------------------------------------------------------------------- Doppelkopf


def test_doppelkopf_normal_game_trumps_are_dullen_damen_buben_karo() -> None:
    deal = dk.new_deal()
    view = deal.view(0)
    assert groups(view) == [
        ("trump", ["H10.1", "CQ.1", "CQ.2", "DA.1", "DA.2"]),
        ("C", ["CA.1", "CA.2", "C10.1"]),
        ("S", ["SA.1"]),
        ("H", ["HA.1", "HK.1", "H9.1"]),
    ]
    sorts = [DEFAULT, RIGHT, ASC, ALTERNATE, RIGHT_ASC_ALT]
    assert sorted_by_client("doppelkopf", view, sorts) == [
        cards("H10.1 CQ.1 CQ.2 DA.1 DA.2 CA.1 CA.2 C10.1 SA.1 HA.1 HK.1 H9.1"),
        cards("CA.1 CA.2 C10.1 SA.1 HA.1 HK.1 H9.1 H10.1 CQ.1 CQ.2 DA.1 DA.2"),
        cards("DA.2 DA.1 CQ.2 CQ.1 H10.1 C10.1 CA.2 CA.1 SA.1 H9.1 HK.1 HA.1"),
        # Kreuz (black), Herz (red), Pik (black)
        cards("H10.1 CQ.1 CQ.2 DA.1 DA.2 CA.1 CA.2 C10.1 HA.1 HK.1 H9.1 SA.1"),
        cards("C10.1 CA.2 CA.1 H9.1 HK.1 HA.1 SA.1 DA.2 DA.1 CQ.2 CQ.1 H10.1"),
    ]
    assert deal.view(None)["hand_groups"] is None


def test_doppelkopf_in_a_damensolo_only_the_damen_are_trumps() -> None:
    deal = dk.play(dk.new_deal(), "solo damen", "gesund", "gesund", "gesund")
    view = deal.view(0)
    assert view["contract"] == "damen"
    assert groups(view) == [
        ("trump", ["CQ.1", "CQ.2"]),
        ("C", ["CA.1", "CA.2", "C10.1"]),
        ("S", ["SA.1"]),
        ("H", ["HA.1", "H10.1", "HK.1", "H9.1"]),
        ("D", ["DA.1", "DA.2"]),
    ]
    assert sorted_by_client("doppelkopf", view, [RIGHT, ALTERNATE]) == [
        cards("CA.1 CA.2 C10.1 SA.1 HA.1 H10.1 HK.1 H9.1 DA.1 DA.2 CQ.1 CQ.2"),
        # Kreuz, Herz, Pik, Karo: the colours alternate
        cards("CQ.1 CQ.2 CA.1 CA.2 C10.1 HA.1 H10.1 HK.1 H9.1 SA.1 DA.1 DA.2"),
    ]


def test_doppelkopf_fleischlos_has_no_trumps() -> None:
    deal = dk.play(dk.new_deal(), "solo fleischlos", "gesund", "gesund", "gesund")
    view = deal.view(0)
    assert groups(view) == [
        ("C", ["CA.1", "CA.2", "C10.1", "CQ.1", "CQ.2"]),
        ("S", ["SA.1"]),
        ("H", ["HA.1", "H10.1", "HK.1", "H9.1"]),
        ("D", ["DA.1", "DA.2"]),
    ]
    # trumps right or left makes no difference without trumps
    default, right = sorted_by_client("doppelkopf", view, [DEFAULT, RIGHT])
    assert default == right == [c for _, cards in groups(view) for c in cards]


# --------------------------------------------------------------------------- Tarock games


def test_dreierles_tarocks_with_the_skus_on_top() -> None:
    view = dr.new_deal().view(0)
    assert groups(view) == [
        ("trump", ["T10", "T9", "T8", "T7", "T6", "T5", "T4", "T3", "T2", "T1"]),
        ("H", ["HK", "HD", "HC", "HB"]),
        ("P", ["PK", "PD"]),
    ]
    assert sorted_by_client("dreierles", view, [RIGHT_ASC_ALT]) == [
        cards("HB HC HD HK PD PK T1 T2 T3 T4 T5 T6 T7 T8 T9 T10")
    ]


TZD_HANDS = (
    "SK T21 T1 T15 HK H4 HA KaD Ka3 PK P7 P10 KrB Kr8 T7 KrK",
    "T2 T3 T4 T5 T6 T8 T9 T10 T11 T12 T13 T14 HD HC HB H2",
    "T16 T17 T18 T19 T20 H3 KaK KaC KaB KaA Ka2 Ka4 PD PC PB P9",
    "P8 KrD KrC Kr10 Kr9 Kr7",
)


def test_tarock_zu_dritt_every_suit_strongest_first() -> None:
    hands = tuple(TAROCK.mask(h) for h in TZD_HANDS[:3])
    deal = TarockZuDritt().new_deal(
        Dealt(hands, tuple(TAROCK.parse(c) for c in TZD_HANDS[3].split())),
        None,
        ("Anna", "Bernd", "Catrin"),
        "Catrin",
    )
    view = deal.view(0)
    assert groups(view) == [
        ("trump", ["SK", "T21", "T15", "T7", "T1"]),
        ("H", ["HK", "HA", "H4"]),
        ("Ka", ["KaD", "Ka3"]),
        ("P", ["PK", "P10", "P7"]),
        ("Kr", ["KrK", "KrB", "Kr8"]),
    ]
    assert sorted_by_client("tarock-zu-dritt", view, [DEFAULT, ALTERNATE, RIGHT_ASC_ALT]) == [
        cards("SK T21 T15 T7 T1 HK HA H4 KaD Ka3 PK P10 P7 KrK KrB Kr8"),
        # Herz (red), Pik (black), Karo (red), Kreuz (black)
        cards("SK T21 T15 T7 T1 HK HA H4 PK P10 P7 KaD Ka3 KrK KrB Kr8"),
        cards("H4 HA HK P7 P10 PK Ka3 KaD Kr8 KrB KrK T1 T7 T15 T21 SK"),
    ]


def test_doppen_groups_as_the_other_tarock_games() -> None:
    rules = get_rules("doppen")
    hands = tuple(TAROCK.mask(h) for h in TZD_HANDS[:3])
    deal = rules.new_deal(
        Dealt(hands, tuple(TAROCK.parse(c) for c in TZD_HANDS[3].split())),
        None,
        ("Anna", "Bernd", "Catrin"),
        "Catrin",
    )
    view = deal.view(1)
    assert groups(view) == [
        ("trump", ["T14", "T13", "T12", "T11", "T10", "T9", "T8", "T6", "T5", "T4", "T3", "T2"]),
        ("H", ["HD", "HC", "HB", "H2"]),
    ]


# --------------------------------------------------------------------------- Bayerisches Tarock


def test_bayerisches_tarock_no_trump_until_it_is_named() -> None:
    deal = bt.new_deal(bt.B1)
    view = deal.view(0)
    assert groups(view) == [
        ("E", ["EA", "E10", "EK", "EO", "EU", "E9"]),
        ("G", ["GA", "G10"]),
        ("H", ["HA", "H10"]),
        ("S", ["SA"]),
    ]
    bt.play(deal, "bid ich_spiele", "pass", "pass", "game hand", "trump H")
    view = deal.view(0)
    assert groups(view) == [
        ("trump", ["HA", "H10"]),
        ("E", ["EA", "E10", "EK", "EO", "EU", "E9"]),
        ("G", ["GA", "G10"]),
        ("S", ["SA"]),
    ]
    # no colours in the module: "alternate" keeps the pack's order of the suits
    assert sorted_by_client("bayerisches-tarock", view, [RIGHT, ALTERNATE]) == [
        cards("EA E10 EK EO EU E9 GA G10 SA HA H10"),
        cards("HA H10 EA E10 EK EO EU E9 GA G10 SA"),
    ]


def test_a_view_without_groups_or_with_other_cards_keeps_the_servers_order() -> None:
    view: JSON = {"hand": ["HA", "T1", "SK"]}
    assert sorted_by_client("tarock-zu-dritt", view, [RIGHT]) == [["HA", "T1", "SK"]]
    view = {"hand": ["HA", "T1", "SK"], "hand_groups": [{"group": "trump", "cards": ["SK", "T1"]}]}
    assert sorted_by_client("tarock-zu-dritt", view, [RIGHT]) == [["HA", "T1", "SK"]]
    # a stored sort with unknown words is the default
    full = {**view, "hand_groups": [*view["hand_groups"], {"group": "H", "cards": ["HA"]}]}
    assert sorted_by_client("tarock-zu-dritt", full, [{"trumps": "up", "order": 3}]) == [
        ["SK", "T1", "HA"]
    ]
