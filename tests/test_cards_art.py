"""The card art module (web/static/js/cards.js), run for real in node.

Every card of the three packs in server/engine/cards.py must give an SVG that parses as
XML, carries role="img" and its German name as aria-label, and shows its rank in the
corner index; the two copies of a Doppelkopf card give the same picture, different cards
give different pictures, and unknown codes throw.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from server.engine.cards import PACKS, Card

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "web" / "static" / "js" / "cards.js"
SVG = "{http://www.w3.org/2000/svg}"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed; it runs web/static/js/cards.js"
)

# Expected names, written out here independently of cards.js.
SUIT_DE = {
    "tarock": {"H": "Herz", "Ka": "Karo", "P": "Pik", "Kr": "Kreuz"},
    "french48": {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"},
    "german": {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"},
}
RANK_DE = {
    "K": "König",
    "D": "Dame",
    "Q": "Dame",
    "C": "Cavall",
    "B": "Bube",
    "J": "Bube",
    "O": "Ober",
    "U": "Unter",
    "A": "Ass",
}
RANK_INDEX = {"Q": "D", "J": "B"}
ROMAN = [
    *("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"),
    *("XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"),
]
UNKNOWN = ["", "T0", "T22", "XX", "H1", "Ka1", "CA", "CA.3", "HC.1", "EC", "sk", " HK", "T1.1"]

SCRIPT = """
import { readFileSync } from "node:fs";
const cards = await import(process.argv[1]);
const input = JSON.parse(readFileSync(0, "utf8"));
const attempt = (fn) => {
  try { return { value: fn() }; } catch (error) {
    return { error: error instanceof Error ? error.message : "not an Error: " + String(error) };
  }
};
const out = { cards: [], unknown: {}, wrongPack: {}, back: cards.cardBackSvg(), codes: {} };
for (const [pack, code] of input.cards) {
  out.cards.push({
    pack, code,
    svg: attempt(() => cards.cardSvg(code, pack)),
    de: attempt(() => cards.cardName(code, "de", pack)),
    en: attempt(() => cards.cardName(code, "en", pack)),
    plainSvg: attempt(() => cards.cardSvg(code)),
    packOf: attempt(() => cards.packOf(code)),
  });
}
for (const code of input.unknown) {
  out.unknown[code] = [
    attempt(() => cards.cardSvg(code)), attempt(() => cards.cardName(code)),
    attempt(() => cards.packOf(code)),
  ];
}
for (const [code, pack] of input.wrongPack) {
  out.wrongPack[code + "/" + pack] = attempt(() => cards.cardSvg(code, pack));
}
for (const pack of ["tarock", "french48", "german"]) out.codes[pack] = cards.codesOf(pack);
process.stdout.write(JSON.stringify(out));
"""


def expected_name(pack: str, card: Card) -> str:
    """The German name the card must carry."""
    if card.suit == "T":
        if card.code == "SK":
            return "Sküs"
        n = int(card.rank)
        extra = {1: " (Pagat)", 21: " (Mond)"}.get(n, "")
        return f"Tarock {ROMAN[n - 1]}{extra}"
    return f"{SUIT_DE[pack][card.suit]} {RANK_DE.get(card.rank, card.rank)}"


def expected_index(card: Card) -> str:
    """The text the corner index must show."""
    if card.suit == "T":
        return "Sküs" if card.code == "SK" else ROMAN[int(card.rank) - 1]
    return RANK_INDEX.get(card.rank, card.rank)


@pytest.fixture(scope="module")
def run() -> dict[str, Any]:
    """Run cards.js once in node over every card, the unknown codes and wrong packs."""
    assert NODE is not None
    data = {
        "cards": [[name, card.code] for name, pack in PACKS.items() for card in pack.cards],
        "unknown": UNKNOWN,
        "wrongPack": [["T1", "german"], ["EO", "tarock"], ["CQ.1", "german"], ["HK", "nope"]],
    }
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT, MODULE.as_uri()],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def value(attempt: dict[str, str]) -> str:
    """The value of one call in node, failing the test with its error."""
    assert "error" not in attempt, attempt.get("error")
    return attempt["value"]


def texts(root: ET.Element) -> list[str]:
    """The contents of every <text> element of an SVG."""
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_codes_match_the_engine(run: dict[str, Any]) -> None:
    for name, pack in PACKS.items():
        assert run["codes"][name] == [card.code for card in pack.cards]


def test_every_card_is_an_svg_with_its_name(run: dict[str, Any]) -> None:
    cards = {(name, card.code): card for name, pack in PACKS.items() for card in pack.cards}
    assert len(run["cards"]) == len(cards) == 54 + 48 + 36
    for row in run["cards"]:
        card = cards[(row["pack"], row["code"])]
        svg = value(row["svg"])
        root = ET.fromstring(svg)
        name = expected_name(row["pack"], card)
        assert root.tag == f"{SVG}svg", row["code"]
        assert root.get("role") == "img"
        assert root.get("viewBox") == "0 0 200 300"
        assert root.get("aria-label") == name, row["code"]
        assert value(row["de"]) == name
        assert expected_index(card) in texts(root), (row["code"], texts(root))
        # The corner index appears twice (top-left and turned bottom-right).
        assert texts(root).count(expected_index(card)) >= 2, row["code"]


def test_english_names(run: dict[str, Any]) -> None:
    en = {(row["pack"], row["code"]): value(row["en"]) for row in run["cards"]}
    assert en["tarock", "HK"] == "King of Hearts"
    assert en["tarock", "T21"] == "Tarock XXI (Mond)"
    assert en["tarock", "T1"] == "Tarock I (Pagat)"
    assert en["tarock", "SK"] == "Sküs"
    assert en["tarock", "KaC"] == "Cavall of Diamonds"
    assert en["french48", "CQ.1"] == "Queen of Clubs"
    assert en["french48", "DJ.2"] == "Jack of Diamonds"
    assert en["german", "EO"] == "Ober of Acorns"
    assert en["german", "SU"] == "Unter of Bells"
    assert en["german", "SK"] == "King of Bells"
    for name, pack in PACKS.items():
        kinds = {card.kind for card in pack.cards}
        assert len({en[name, card.code] for card in pack.cards}) == len(kinds)


def test_copies_share_the_picture_and_cards_differ(run: dict[str, Any]) -> None:
    for name, pack in PACKS.items():
        by_kind: dict[str, set[str]] = {}
        for row in run["cards"]:
            if row["pack"] == name:
                kind = row["code"].split(".")[0]
                by_kind.setdefault(kind, set()).add(value(row["svg"]))
        assert all(len(svgs) == 1 for svgs in by_kind.values()), name
        assert (
            len({next(iter(svgs)) for svgs in by_kind.values()})
            == len(by_kind)
            == len({card.kind for card in pack.cards})
        )


def test_pack_of_and_the_shared_codes(run: dict[str, Any]) -> None:
    owners: dict[str, set[str]] = {}
    for name, pack in PACKS.items():
        for card in pack.cards:
            owners.setdefault(card.code, set()).add(name)
    shared = {code for code, names in owners.items() if len(names) > 1}
    assert shared == {"HK", "HA", "SK"}
    for row in run["cards"]:
        code = row["code"]
        expected = "tarock" if code in shared else row["pack"]
        assert value(row["packOf"]) == expected, code
        # Without a pack a shared code means the Tarock card.
        if code not in shared or row["pack"] == "tarock":
            assert value(row["plainSvg"]) == value(row["svg"]), code
        else:
            assert value(row["plainSvg"]) != value(row["svg"]), code
    german_sk = next(r for r in run["cards"] if r["pack"] == "german" and r["code"] == "SK")
    assert ET.fromstring(value(german_sk["svg"])).get("aria-label") == "Schellen König"


def test_unknown_codes_and_packs_throw(run: dict[str, Any]) -> None:
    for code in UNKNOWN:
        for attempt in run["unknown"][code]:
            assert "Unknown card code" in attempt.get("error", ""), (code, attempt)
    for key, attempt in run["wrongPack"].items():
        assert "Unknown card" in attempt.get("error", ""), (key, attempt)


def test_back(run: dict[str, Any]) -> None:
    root = ET.fromstring(run["back"])
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox") == "0 0 200 300"
    assert root.get("aria-label")
    assert run["back"] not in {value(row["svg"]) for row in run["cards"]}
