"""The UI text catalogues: German and English hold the same keys, every key the pages and
the JavaScript modules use exists, and placeholders agree between the languages."""

from __future__ import annotations

import doctest
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from server.api.i18n import LANGUAGES, Catalogs, load_catalogs, pick_language
from server.engine.registry import GAMES, describe, get_rules, playable
from tests.support import REPO_ROOT

WEB = REPO_ROOT / "web"
#: ``_('key')`` in templates, ``t("key")`` / ``has("key")`` in the JavaScript modules.
TEMPLATE_KEY = re.compile(r"""\b_\(\s*['"]([a-z0-9_.-]+)['"]\s*[,)]""")
JS_KEY = re.compile(r"""\b(?:t|has)\(\s*['"]([a-z0-9_.-]+)['"]\s*[,)]""")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@pytest.fixture(scope="module")
def catalogs() -> Catalogs:
    return load_catalogs(WEB / "locale")


def used_keys() -> dict[str, list[str]]:
    """Every literal key used in a template or a JavaScript module, with where."""
    found: dict[str, list[str]] = {}
    sources = [(p, TEMPLATE_KEY) for p in (WEB / "templates").rglob("*.html")]
    sources += [(p, JS_KEY) for p in (WEB / "static").rglob("*.js")]
    for path, pattern in sources:
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(str(path.relative_to(REPO_ROOT)))
    return found


def test_both_languages_have_the_same_keys(catalogs: Catalogs) -> None:
    german, english = (set(catalogs.messages[lang]) for lang in LANGUAGES)
    assert german, "the German catalogue is empty"
    assert sorted(german - english) == [], "keys missing in English"
    assert sorted(english - german) == [], "keys missing in German"


def test_every_used_key_exists(catalogs: Catalogs) -> None:
    used = used_keys()
    assert "nav.my_rooms" in used  # the scan itself works
    missing = {key: where for key, where in used.items() if key not in catalogs.messages["de"]}
    assert missing == {}


def test_placeholders_agree(catalogs: Catalogs) -> None:
    for key, german in catalogs.messages["de"].items():
        english = catalogs.messages["en"][key]
        assert sorted(PLACEHOLDER.findall(german)) == sorted(PLACEHOLDER.findall(english)), key


def test_gettext_fills_placeholders_and_falls_back(catalogs: Catalogs) -> None:
    table = Catalogs(
        {"de": {"a": "Hallo %(name)s", "b": "nur deutsch"}, "en": {"a": "Hi %(name)s"}}
    )
    assert table.gettext("en", "a", name="Anna") == "Hi Anna"
    assert table.gettext("de", "a", name="<b>") == "Hallo <b>"  # escaping is the template's job
    assert table.gettext("en", "b") == "nur deutsch"
    assert table.gettext("en", "nope") == "nope"


def test_a_key_defined_twice_is_refused(tmp_path: Path) -> None:
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
        for name in ("one.po", "two.po"):
            (tmp_path / lang / name).write_text('msgid "x"\nmsgstr "y"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="defined twice"):
        load_catalogs(tmp_path)


class _Connection:
    def __init__(self, query: dict[str, str], cookies: dict[str, str]) -> None:
        self.query_params = query
        self.cookies = cookies


@pytest.mark.parametrize(
    ("query", "cookie", "user", "expected"),
    [
        ({}, {}, None, "de"),
        ({"lang": "en"}, {}, None, "en"),
        ({"lang": "fr"}, {}, None, "de"),
        ({}, {"stammtisch_lang": "en"}, None, "en"),
        ({}, {}, "en", "en"),
        ({"lang": "de"}, {"stammtisch_lang": "en"}, "en", "de"),
    ],
)
def test_language_choice(
    query: dict[str, str], cookie: dict[str, str], user: str | None, expected: str
) -> None:
    connection = _Connection(query, cookie)
    assert pick_language(connection, user) == expected  # type: ignore[arg-type]


def _card_verbs() -> set[str]:
    """The verbs the table sends by a tap on a card (``CARD_VERBS`` in table-games.js)."""
    source = (WEB / "static/js/table-games.js").read_text(encoding="utf-8")
    found = re.search(r"export const CARD_VERBS = \[([^\]]*)\]", source)
    assert found, "CARD_VERBS not found in table-games.js"
    return set(re.findall(r'"([a-z]+)"', found.group(1)))


CARD_VERBS = _card_verbs()
PLAYABLE = playable()


def test_the_card_verbs_are_read_from_the_table() -> None:
    assert {"play", "discard", "cover"} <= CARD_VERBS


@pytest.mark.parametrize("verb", sorted(_card_verbs()))
def test_every_card_verb_has_a_label(catalogs: Catalogs, verb: str) -> None:
    """A card action named in words ("Karte spielen …", a move the timer made) reads
    ``action.<verb>`` with its card."""
    for lang in LANGUAGES:
        assert "action." + verb in catalogs.messages[lang], (lang, verb)


@pytest.mark.parametrize("verb", sorted(_card_verbs()))
def test_every_card_verb_is_told_in_the_replay(catalogs: Catalogs, verb: str) -> None:
    """The replay tells a card action as ``archive.step.<verb>`` with the player and the
    card (web/static/js/replay.js builds the key, which the scan of used keys misses)."""
    for lang in LANGUAGES:
        text = catalogs.messages[lang].get("archive.step." + verb)
        assert text, (lang, verb)
        assert sorted(PLACEHOLDER.findall(text)) == ["card", "player"], (lang, verb)


def _button_texts(game: str) -> set[str]:
    """The texts of every non-card action the engine of ``game`` can offer (an action
    whose argument is a card of its pack as its verb alone)."""
    rules = get_rules(game)
    card_codes = {rules.pack.code(card) for card in range(len(rules.pack))}
    deal = rules.new_deal(rules.shuffle_and_deal(random.Random(1)))
    texts = set()
    for move in range(1000):
        try:
            text = deal.move_text(move)
        except ValueError:
            continue
        verb, _, arg = text.partition(" ")
        if verb in CARD_VERBS:
            continue
        if arg in card_codes:  # a card chosen by its button: the verb's label and the card
            texts.add(verb)
        else:
            texts.add(text)
    return texts


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_button_action_has_a_label(catalogs: Catalogs, game: str) -> None:
    """The table labels its buttons ``action.<game>.<text>``, else ``action.<text>``
    (``actionLabel``, web/static/js/game-info.js): every non-card action the engine can
    offer needs one, in both languages. An action whose argument is a card of the game's
    pack (a card taken from the talon) is chosen by a button showing that card and needs
    only its verb's label."""
    texts = _button_texts(game)
    assert texts, f"{game}: no button texts found among its moves"
    for lang in LANGUAGES:
        missing = [t for t in sorted(texts) if catalogs.action_key(lang, game, t) is None]
        assert missing == [], lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_button_only_one_game_has_is_in_that_games_catalogue(
    catalogs: Catalogs, lang: str
) -> None:
    """A shared ``action.<text>`` is a move of several games (or a card verb); a move
    only one game offers is labelled in that game's own catalogue,
    ``action.<game>.<text>``."""
    offered: dict[str, set[str]] = {}
    for game in PLAYABLE:
        for text in _button_texts(game):
            offered.setdefault("action." + text.replace(" ", "_"), set()).add(game)
    shared = {key for key in catalogs.messages[lang] if key.startswith("action.")}
    shared = {key for key in shared if not games_named(key)}
    alone = sorted(key for key in shared if len(offered.get(key, ())) == 1)
    unknown = sorted(key for key in shared - set(offered) if key.split(".")[1] not in CARD_VERBS)
    assert alone == []
    assert unknown == []  # no label of a move no game offers


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_contract_has_a_name(catalogs: Catalogs, game: str) -> None:
    """Views, outcomes and sheets carry contract codes; the client names them with
    ``contract.<game>.<code>`` (web/static/js/game-info.js), in both languages."""
    import importlib

    contracts = importlib.import_module(
        f"server.engine.games.{game.replace('-', '_')}.contracts"
    ).CONTRACTS
    assert contracts  # every game plays at least one contract
    for lang in LANGUAGES:
        missing = [c for c in contracts if f"contract.{game}.{c}" not in catalogs.messages[lang]]
        assert missing == [], lang


# ------------------------------------------------------------------ a game's own keys

#: Every game of the registry (never a list written here).
GAME_NAMES = sorted(GAMES)


def games_named(key: str) -> set[str]:
    """The games a catalogue key names as one of its dotted parts (``rule.doppen.x``,
    ``archive.phase.tarock-zu-dritt.talon``)."""
    return set(key.split(".")) & set(GAME_NAMES)


def keys_of(path: Path) -> list[str]:
    """The message keys of one catalogue file."""
    with path.open("rb") as handle:
        return [m.id for m in read_po(handle) if m.id and isinstance(m.id, str)]


def test_the_scan_of_game_keys_works() -> None:
    assert games_named("rule.doppelkopf.depot") == {"doppelkopf"}
    assert games_named("archive.phase.tarock-zu-dritt.talon") == {"tarock-zu-dritt"}
    assert games_named("archive.phase.talon") == set()
    assert games_named("option.doppelkopf.doppelkopf_augen") == {"doppelkopf"}
    assert len(GAME_NAMES) >= 5


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_shared_catalogues_hold_no_game_key(lang: str) -> None:
    """A key that names a game (``<area>.<game>.…``) lives in the game's own catalogue,
    ``game-<game>.po``; the shared files hold only what every game may show."""
    files = sorted((WEB / "locale" / lang).glob("*.po"))
    shared = [p for p in files if not p.stem.startswith("game-")]
    assert len(shared) > 5
    found = {f"{path.name}: {key}" for path in shared for key in keys_of(path) if games_named(key)}
    assert sorted(found) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_games_catalogue_holds_no_other_games_key(lang: str, game: str) -> None:
    path = WEB / "locale" / lang / f"game-{game}.po"
    assert path.exists(), path
    foreign = [key for key in keys_of(path) if games_named(key) - {game}]
    assert foreign == []


# ------------------------------------------------------------------ phases: the game's word first

PHASE_TABLE = {
    "archive.phase.play": "Stichspiel",
    "archive.phase.push": "schieben",
    "archive.phase.g1.push": "Armut: schieben",
    "archive.phase.g2.talon": "Talon",
    "table.turn.you.play": "spiel",
    "table.turn.you.g1.play": "spiel eine Karte",
}
#: (area, game, phase) → the key chosen: the game's own, else the shared one, else none.
PHASE_CASES = [
    ("archive.phase", "g1", "push", "archive.phase.g1.push"),
    ("archive.phase", "g2", "push", "archive.phase.push"),
    ("archive.phase", "g2", "talon", "archive.phase.g2.talon"),
    ("archive.phase", "g1", "talon", None),
    ("archive.phase", "", "push", "archive.phase.push"),
    ("archive.phase", None, "play", "archive.phase.play"),
    ("table.turn.you", "g1", "play", "table.turn.you.g1.play"),
    ("table.turn.you", "g2", "play", "table.turn.you.play"),
]


@pytest.mark.parametrize(("area", "game", "phase", "expected"), PHASE_CASES)
def test_a_phase_key_is_the_games_own_before_the_shared_one(
    area: str, game: str | None, phase: str, expected: str | None
) -> None:
    table = Catalogs({"de": PHASE_TABLE})
    assert table.game_key("de", area, game, phase) == expected


def test_the_game_key_doctest() -> None:
    import server.api.i18n

    assert doctest.testmod(server.api.i18n).failed == 0


#: web/static/js/i18n.js run in node over a catalogue: the page's <script id="i18n">.
I18N_SCRIPT = """
const [url, messages, cases] = process.argv.slice(1).map((a, i) => (i ? JSON.parse(a) : a));
globalThis.document = {
  getElementById: (id) => (id === "i18n" ? { textContent: JSON.stringify(messages) } : null),
  documentElement: { lang: "de" },
};
const i18n = await import(url);
const keys = cases.map(([area, game, phase]) => i18n.gameKey(area, game, phase));
const names = cases.map(([area, game, phase]) =>
  area === "archive.phase" ? i18n.phaseName(game, phase) : null);
process.stdout.write(JSON.stringify({ keys, names }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_client_looks_a_phase_up_the_same_way() -> None:
    """``gameKey`` and ``phaseName`` of the JavaScript choose the same keys as the
    server's :meth:`Catalogs.game_key`; a phase without a word keeps the engine's."""
    node = shutil.which("node")
    assert node is not None
    cases = [[area, game, phase] for area, game, phase, _ in PHASE_CASES]
    done = subprocess.run(
        [node, "--input-type=module", "-e", I18N_SCRIPT,
         (WEB / "static" / "js" / "i18n.js").as_uri(), json.dumps(PHASE_TABLE), json.dumps(cases)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["keys"] == [expected for *_, expected in PHASE_CASES]
    names = [
        (PHASE_TABLE[expected] if expected else phase)
        for area, _, phase, expected in PHASE_CASES
        if area == "archive.phase"
    ]
    assert [n for n in out["names"] if n is not None] == names


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_phase_of_a_game_has_a_name(catalogs: Catalogs, game: str) -> None:
    """The replay names each phase of the game (web/static/js/replay.js, `phaseName`): with
    the game's own word or the shared one, in both languages."""
    phases = describe(game)["phases"]
    assert "finished" in phases
    for lang in LANGUAGES:
        missing = [p for p in phases if catalogs.game_key(lang, "archive.phase", game, p) is None]
        assert missing == [], lang


# ------------------------------------------------------------------ buttons: the game's word first

ACTION_TABLE = {
    "action.pass": "Weiter",
    "action.bid_solo": "Solo",
    "action.g1.bid_solo": "Solo (g1)",
    "action.take": "Mitnehmen",
    "action.g2.take": "Nehmen",
    "action.g2.fertig": "Fertig",
}
#: (action, game, the key the server chooses, the label the client shows)
ACTION_CASES = [
    ("bid solo", "g1", "action.g1.bid_solo", "Solo (g1)"),
    ("bid solo", "g2", "action.bid_solo", "Solo"),
    ("bid solo", "", "action.bid_solo", "Solo"),
    ("pass", "g1", "action.pass", "Weiter"),
    ("fertig", "g2", "action.g2.fertig", "Fertig"),
    ("fertig", "g1", None, "fertig"),
    # no label of its own: the verb's (the game's, else the shared one) and the argument
    ("take X9", "g2", None, "Nehmen X9"),
    ("take X9", "g1", None, "Mitnehmen X9"),
    ("bid nothing", "g1", None, "bid nothing"),
]


@pytest.mark.parametrize(("action", "game", "expected", "_label"), ACTION_CASES)
def test_a_button_key_is_the_games_own_before_the_shared_one(
    action: str, game: str, expected: str | None, _label: str
) -> None:
    assert Catalogs({"de": ACTION_TABLE}).action_key("de", game, action) == expected


#: web/static/js/game-info.js's ``actionLabel`` run in node over a catalogue.
ACTION_SCRIPT = """
const [url, messages, cases] = process.argv.slice(1).map((a, i) => (i ? JSON.parse(a) : a));
globalThis.document = {
  getElementById: (id) => (id === "i18n" ? { textContent: JSON.stringify(messages) } : null),
  documentElement: { lang: "de" },
};
const info = await import(url);
process.stdout.write(JSON.stringify(cases.map(([action, game]) => info.actionLabel(action, game))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_client_labels_a_button_the_same_way() -> None:
    """``actionLabel`` takes the game's own ``action.<game>.<text>`` before the shared
    ``action.<text>``, as :meth:`Catalogs.action_key` does, and so for the verb of an
    action without a label of its own."""
    node = shutil.which("node")
    assert node is not None
    cases = [[action, game] for action, game, *_ in ACTION_CASES]
    done = subprocess.run(
        [node, "--input-type=module", "-e", ACTION_SCRIPT,
         (WEB / "static" / "js" / "game-info.js").as_uri(), json.dumps(ACTION_TABLE),
         json.dumps(cases)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    labels = json.loads(done.stdout)
    assert labels == [label for *_, label in ACTION_CASES]
    for (_action, _game, key, label), shown in zip(ACTION_CASES, labels, strict=True):
        if key is not None:
            assert ACTION_TABLE[key] == shown == label
