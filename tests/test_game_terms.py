"""Every game speaks its own rules text's words (issue 28).

Each game's rules text (``shared/rules/<game>.txt``) has its own words for the same
things: Dreierles lays the six cards aside as its *Blinder*, Doppen and Tarock zu dritt as
their *Talon*, Bayerisches Tarock as its *Stock*; the highest trump is the *Stieß* in
Dreierles and the *Sküs* in the Austrian games; Trumpf 1 is Dreierles' *Pfeife* and the
Austrians' *Pagat*. So:

* no text a game's table can show (its own catalogue keys, the keys its client module and
  the core modules name, its actions' labels, its phases', pots' and description's keys)
  uses a word that is another game's own (:data:`WORDS`), in German or in English;
* the cards at a game's table are named, and their pictures drawn, with the rules text's
  words, through the game's catalogue (``card.<game>.…``, ``cardWords`` in cards.js),
  run for real in node (:data:`CARD_NAMES`).

The games are the registry's (:func:`server.engine.registry.list_games`); each must have
its row in the tables here, so that a new game brings its words.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from functools import cache
from typing import Any

import pytest

from server.api.i18n import LANGUAGES, Catalogs, load_catalogs
from server.engine.registry import describe, get_rules, playable
from tests.support import REPO_ROOT

WEB = REPO_ROOT / "web"
JS = WEB / "static" / "js"
NODE = shutil.which("node")
GAMES = playable()
#: ``t("key")`` / ``has("key")`` in a JavaScript module (as tests/test_i18n.py reads them).
JS_KEY = re.compile(r"""\b(?:t|has)\(\s*['"]([a-z0-9_.@-]+)['"]\s*[,)]""")
#: ``_('key')`` in a template.
TEMPLATE_KEY = re.compile(r"""\b_\(\s*['"]([a-z0-9_.-]+)['"]\s*[,)]""")
#: A placeholder (``%(blind)s``): a parameter's name, not a word of the text.
PLACEHOLDER = re.compile(r"%\(\w+\)s")

DOPPELKOPF = "doppelkopf"
DOPPEN = "doppen"
DREIERLES = "dreierles"
TAROCK = "tarock-zu-dritt"
BAYERISCH = "bayerisches-tarock"
AUSTRIAN = (DOPPEN, TAROCK)

#: The words that are some games' own, with those games: every other game's table never
#: says them (whole words, any case). From the rules texts:
WORDS: dict[str, tuple[str, ...]] = {
    # Doppen: "Ganz oben Sküs …, XXI (Mond) usw. bis II (Uhu) und I (Pagat …)", "die
    # ersten 6 gehen verdeckt auf den Tisch als Talon"; Tarock zu dritt: "Pagat (I), Mond
    # (XXI) und Sküs", "Uhu (II)", "Kakadu (III)", "Quapil (IIII)", "der Talon".
    "Sküs": AUSTRIAN,
    "Pagat": AUSTRIAN,
    "Mond": AUSTRIAN,
    "Uhu": AUSTRIAN,
    "Kakadu": (TAROCK,),
    "Quapil": (TAROCK,),
    "Talon": AUSTRIAN,
    "Pagatkasse": (DOPPEN,),
    "Unterer": (DOPPEN,),
    "Trischaken": (TAROCK,),
    "Piccolo": (TAROCK,),
    "Sechserdreier": (TAROCK,),
    "Speisezettel": (TAROCK,),
    "Radl": (TAROCK,),
    # Dreierles: "der unnummerierte Sküs, genannt „Stieß“", "Trumpf 1 …, der „Pfeife“",
    # "legt sie verdeckt als Blinder (Tappen) aus", "Drull (Druckrolle)", "Räuber".
    "Stieß": (DREIERLES,),
    "Pfeife": (DREIERLES,),
    "Blinder": (DREIERLES,),
    "Blinders": (DREIERLES,),
    "Drull": (DREIERLES,),
    "Räuber": (DREIERLES,),
    # No rules text says "der Blinde" (Dreierles' own word is the Blinder).
    "Blinde": (),
    "Blinden": (),
    # Bayerisches Tarock: "Drei Karten … werden Stock oder Gstaat genannt", "Daus (Sau)",
    # "einen Topf (Haferl)", the German pack's Ober.
    "Stock": (BAYERISCH,),
    "Gstaat": (BAYERISCH,),
    "Daus": (BAYERISCH,),
    "Sau": (BAYERISCH,),
    "Haferl": (BAYERISCH,),
    "Ober": (BAYERISCH,),
    # Doppelkopf: "Hochzeit", "Armut", "Schweinchen", the Füchse, the Karlchen.
    "Hochzeit": (DOPPELKOPF,),
    "Armut": (DOPPELKOPF,),
    "Schweinchen": (DOPPELKOPF,),
    "Fuchs": (DOPPELKOPF,),
    "Füchse": (DOPPELKOPF,),
    "Karlchen": (DOPPELKOPF,),
    "Depot": (DOPPELKOPF,),
    # The Tarock cards are no Doppelkopf cards.
    "Tarock": (DOPPEN, DREIERLES, TAROCK, BAYERISCH),
    # English: the talon keeps its name, the blind is nobody's (Dreierles' is the Blinder).
    "blind": (),
}

#: The cards a game's table names with its rules text's words (German), by card code:
#: each name holds the word, as a whole word. From the rules texts:
CARD_NAMES: dict[str, dict[str, str]] = {
    # "Der höchste ist der unnummerierte Sküs, genannt „Stieß“"; "Trumpf 1 …, der
    # „Pfeife“"; "Trumpf 21"; the other trumps by their (Arabic) numbers.
    DREIERLES: {"SK": "Stieß", "T1": "Pfeife", "T21": "Trumpf 21", "T14": "Trumpf 14"},
    # "Ganz oben Sküs …, XXI (Mond) usw. bis II (Uhu) und I (Pagat …)".
    DOPPEN: {"SK": "Sküs", "T21": "Mond", "T2": "Uhu", "T1": "Pagat"},
    # "Pagat (I), Mond (XXI) und Sküs", "Uhu (II)", "Kakadu (III)", "Quapil (IIII)".
    TAROCK: {
        **{"SK": "Sküs", "T21": "Mond", "T1": "Pagat"},
        **{"T2": "Uhu", "T3": "Kakadu", "T4": "Quapil"},
    },
    # "mit den Werten Daus (Sau) bis Sechser", "Ober (O) > Unter (U)".
    BAYERISCH: {"EA": "Eichel Daus", "SA": "Schellen Daus", "GO": "Ober", "HU": "Unter"},
    # "Kreuz Dame", "Karo As" (today's spelling: Ass), "Kreuz Bube".
    DOPPELKOPF: {"CQ.1": "Kreuz Dame", "DA.2": "Karo Ass", "CJ.1": "Kreuz Bube"},
}

#: Per game, the words its card pictures carry (the Sküs', Mond's and Pagat's motif): the
#: rules text's, never another game's.
CARD_ART: dict[str, dict[str, str]] = {
    DREIERLES: {"SK": "Stieß", "T1": "Pfeife"},
    DOPPEN: {"SK": "Sküs", "T21": "Mond", "T1": "Pagat"},
    TAROCK: {"SK": "Sküs", "T21": "Mond", "T1": "Pagat"},
}


@pytest.fixture(scope="module")
def catalogs() -> Catalogs:
    return load_catalogs(WEB / "locale")


def word_pattern(word: str) -> re.Pattern[str]:
    """``word`` as a whole word, in any case."""
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)


def foreign_words(game: str) -> list[str]:
    """The words another game owns and ``game`` never says."""
    return [word for word, owners in WORDS.items() if game not in owners]


def literal_keys(text: str, pattern: re.Pattern[str] = JS_KEY) -> set[str]:
    return set(pattern.findall(text))


@cache
def core_keys() -> frozenset[str]:
    """The keys the core modules and the page templates name: any game's table may show
    them."""
    keys: set[str] = set()
    for path in JS.glob("*.js"):
        keys |= literal_keys(path.read_text("utf-8"))
    for path in (WEB / "templates").rglob("*.html"):
        keys |= literal_keys(path.read_text("utf-8"), TEMPLATE_KEY)
    return frozenset(keys)


@cache
def action_texts(game: str) -> frozenset[str]:
    """Every action text the engine of ``game`` can offer (as tests/test_i18n.py finds
    them), a card argument left out."""
    rules = get_rules(game)
    cards = {rules.pack.code(card) for card in range(len(rules.pack))}
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(1)))
    texts = set()
    for move in range(4096):
        try:
            text = deal.move_text(move)
        except (ValueError, IndexError):
            continue
        verb, _, arg = text.partition(" ")
        texts.add(verb if arg in cards else text)
    return frozenset(texts)


def table_keys(catalogs: Catalogs, game: str) -> set[str]:
    """Every catalogue key a table (and a replay, a sheet) of ``game`` can show."""
    known = catalogs.messages["de"]
    own_file = set()
    for lang in LANGUAGES:
        path = WEB / "locale" / lang / f"game-{game}.po"
        if path.exists():
            own_file |= {k for k in known if f'msgid "{k}"' in path.read_text("utf-8")}
    keys = own_file | {key for key in known if game in key.split(".")}
    keys |= literal_keys((JS / "games" / f"{game}.js").read_text("utf-8"))
    keys |= core_keys()
    for text in action_texts(game):  # the game's own label first, else the shared one
        for rest in (text.replace(" ", "_"), text.split(" ")[0]):
            keys |= {f"action.{game}.{rest}", f"action.{rest}"}
        keys.add("group." + text.split(" ")[0])
    info = describe(game)
    keys |= set(info["seat_labels"]) | set(info["action_groups"].values())
    keys |= set(info["sheet"]["notes"]) | {rule["key"] for rule in info["rules"]}
    keys.add(info["summary"])
    for option in [*info["options"], *info["match_options"]]:
        keys |= {option["label"], option["help"]}
    for pot in info["pots"]:
        keys |= {f"pot.{pot}", f"pot.into.{pot}", f"pot.out_of.{pot}"}
    for phase in info["phases"]:
        keys |= {f"table.turn.you.{phase}", f"archive.phase.{phase}"}
    return {key for key in keys if key in known}


def test_every_game_has_its_words() -> None:
    """The tables here cover the registry's games, and name no game it does not know."""
    owners = {game for games in WORDS.values() for game in games}
    assert owners <= set(GAMES)
    assert set(CARD_NAMES) == set(GAMES)
    assert set(CARD_ART) <= set(GAMES)
    assert len(GAMES) >= 5


def test_the_keys_of_a_table_are_found(catalogs: Catalogs) -> None:
    """The scan itself works: each game's table shows its contracts, its actions, the
    core's texts."""
    for game in GAMES:
        keys = table_keys(catalogs, game)
        assert "table.turn.other" in keys, game
        assert any(key.startswith(f"contract.{game}.") for key in keys), game
        assert "action.pass" in keys or game == DOPPELKOPF, game
    assert "info.dreierles.blind_taken" in table_keys(catalogs, DREIERLES)
    assert "info.doppen.talon_taken" in table_keys(catalogs, DOPPEN)
    assert "action.dreierles.announce_pfeife" in table_keys(catalogs, DREIERLES)
    assert "action.dreierles.announce_pfeife" not in table_keys(catalogs, DOPPEN)
    assert "action.doppelkopf.hochzeit_erster" in table_keys(catalogs, DOPPELKOPF)
    assert "action.doppelkopf.hochzeit_erster" not in table_keys(catalogs, DREIERLES)


@pytest.mark.parametrize("game", GAMES)
def test_no_table_uses_another_games_words(catalogs: Catalogs, game: str) -> None:
    found = []
    patterns = {word: word_pattern(word) for word in foreign_words(game)}
    for key in sorted(table_keys(catalogs, game)):
        for lang in LANGUAGES:
            text = PLACEHOLDER.sub("…", catalogs.messages[lang][key])
            found += [(key, lang, word, text) for word, p in patterns.items() if p.search(text)]
    assert found == []


def test_the_patterns_find_whole_words_only() -> None:
    assert word_pattern("Stock").search("Der Stock bleibt")
    assert not word_pattern("Stock").search("Stockspiel (Frage)")
    assert word_pattern("Talon").search("in the talon")
    assert not word_pattern("Mond").search("Mondfang")
    assert word_pattern("Blinde").search("Der Blinde: 6 Karten")
    assert not word_pattern("Blinde").search("Der Blinder: 6 Karten")


# ------------------------------------------------------------------ the cards' names

SCRIPT = """
import { readFileSync } from "node:fs";
const cards = await import(process.argv[1]);
const input = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const game of input.games) {
  out[game.name] = {};
  for (const lang of ["de", "en"]) {
    const messages = input.messages[lang];
    const text = (key, params = {}) => key in messages
      ? messages[key].replace(/%\\((\\w+)\\)s/g, (_, name) => String(params[name]))
      : null;
    const words = cards.cardWords(game.name, game.pack, lang, text);
    out[game.name][lang] = Object.fromEntries(cards.codesOf(game.pack).map((code) => [code, {
      name: cards.cardName(code, lang, game.pack, words),
      svg: cards.cardSvg(code, game.pack, words),
    }]));
  }
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def shown(catalogs: Catalogs) -> dict[str, Any]:
    """Every game's cards as its table names and draws them, from node."""
    if NODE is None:
        pytest.skip("node is not installed; it runs web/static/js/cards.js")
    games = [{"name": game, "pack": describe(game)["pack"]} for game in GAMES]
    payload = json.dumps({"games": games, "messages": catalogs.messages})
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT, (JS / "cards.js").as_uri()],
        input=payload,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def svg_texts(svg: str) -> list[str]:
    """The words drawn on a card (its <text> elements)."""
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    return [re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))), text) for text in texts]


@pytest.mark.parametrize("game", GAMES)
def test_the_cards_bear_the_rules_texts_names(shown: dict[str, Any], game: str) -> None:
    for code, word in CARD_NAMES[game].items():
        name = shown[game]["de"][code]["name"]
        assert word_pattern(word).search(name), (code, name, word)


@pytest.mark.parametrize("game", GAMES)
def test_no_card_is_named_with_another_games_words(shown: dict[str, Any], game: str) -> None:
    patterns = {word: word_pattern(word) for word in foreign_words(game)}
    found = []
    for lang in LANGUAGES:
        for code, card in shown[game][lang].items():
            for text in [card["name"], *svg_texts(card["svg"])]:
                found += [(lang, code, w, text) for w, p in patterns.items() if p.search(text)]
    assert found == []


@pytest.mark.parametrize("game", sorted(CARD_ART))
def test_the_pictures_carry_the_games_words(shown: dict[str, Any], game: str) -> None:
    for code, word in CARD_ART[game].items():
        for lang in LANGUAGES:
            assert word in svg_texts(shown[game][lang][code]["svg"]), (lang, code)


def test_a_game_without_own_words_keeps_the_packs_names(shown: dict[str, Any]) -> None:
    """The pack's names where a game says nothing else (cards.js's own names)."""
    assert shown[DOPPEN]["en"]["T21"]["name"] == "Tarock XXI (Mond)"
    assert shown[DOPPEN]["de"]["HK"]["name"] == "Herz König"
    assert shown[DREIERLES]["en"]["SK"]["name"] == "Stieß"
    assert shown[DREIERLES]["en"]["T14"]["name"] == "Trump 14"
    assert shown[BAYERISCH]["en"]["EO"]["name"] == "Ober of Acorns"


# ------------------------------------------------------------------ the game modules' words

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


@needs_node
def test_dreierles_says_blinder_and_asks_for_fertig_once_the_pfeife_lies_open() -> None:
    """The Blinder's lines; after announcing the Pfeife the declarer is asked for "Fertig"
    (not told that he has no Pfeife to announce); the premium's side said plainly."""
    from tests.engine import client_module

    record, views = client_module.views_of(DREIERLES, "pfeife-won.json")
    out = client_module.run_module(DREIERLES, record["seats"], views)
    assert out[0]["info"] == ["Der Blinder: 6 Karten verdeckt"]
    assert "Aus dem Blinder genommen: T15,P8" in out[3]["info"]
    assert out[3]["turn"] == "Du bist am Zug: lege noch 2 Karten ab (keine Könige, keine Trümpfe)"
    declare = [texts for view, texts in zip(views, out, strict=True) if view["phase"] == "declare"]
    assert declare[0]["turn"] is None  # the phase's own text: Pfeife ansagen oder „Fertig“
    assert declare[-1]["turn"] == "Du bist am Zug: die Pfeife liegt offen – sag „Fertig“"
    assert "Angesagte Pfeife: vom Alleinspieler gewonnen (2)" in out[-1]["result"]
    record, views = client_module.views_of(DREIERLES, "raeuber.json")
    out = client_module.run_module(DREIERLES, record["seats"], views)
    assert out[-1]["title"] == "Räuber"
    assert "Im Blinder: 5 Kartenpunkte" in out[-1]["result"]


@needs_node
def test_doppen_says_talon() -> None:
    from tests.engine import client_module

    record, views = client_module.views_of(DOPPEN, "dreier-lower-kontra.json")
    out = client_module.run_module(DOPPEN, record["seats"], views)
    assert out[0]["info"] == ["Der Talon: 6 Karten verdeckt"]


DOPPELKOPF_LINES = """
const game = await import(process.argv[1]);
const messages = JSON.parse(process.argv[2]);
// as web/static/js/i18n.js fills a text: a negative number with the minus sign
const t = (key, params = {}) => messages[key].replace(/%\\((\\w+)\\)s/g, (_, name) => {
  const value = params[name];
  return typeof value === "number" && value < 0 ? `−${-value}` : String(value);
});
const ctx = { game: "doppelkopf", t, has: (key) => key in messages };
const lines = [
  { code: "extras", party: "kontra", points: 2 },
  { code: "extras", party: "re", points: -3 },
  { code: "below", level: 90, announced: true, points: 2 },
];
process.stdout.write(JSON.stringify(lines.map((line) => game.resultLine(line, ctx))));
"""


@needs_node
def test_doppelkopf_names_the_parties_and_writes_the_minus_sign(catalogs: Catalogs) -> None:
    """ "Extrapunkte Kontra", not the code "kontra"; a loss with U+2212, as the sheets."""
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", DOPPELKOPF_LINES,
         (JS / "games" / "doppelkopf.js").as_uri(), json.dumps(catalogs.messages["de"])],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "Extrapunkte Kontra: 2",
        "Extrapunkte Re: −3",
        "unter 90 (angesagt): 2",
    ]
