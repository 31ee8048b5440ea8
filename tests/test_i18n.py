"""The UI text catalogues: German and English hold the same keys, every key the pages and
the JavaScript modules use exists, and placeholders agree between the languages."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from server.api.i18n import LANGUAGES, Catalogs, load_catalogs, pick_language
from server.engine.registry import get_rules, list_games
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
PLAYABLE = [game.name for game in list_games() if game.implemented]


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


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_button_action_has_a_label(catalogs: Catalogs, game: str) -> None:
    """The table labels its buttons ``action.<text>`` (web/static/js/table-games.js): every
    non-card action the engine can offer needs one, in both languages. An action whose
    argument is a card of the game's pack (a card taken from the talon) is chosen by a
    button showing that card and needs only its verb's label."""
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
    assert len(texts) > 5
    for lang in LANGUAGES:
        missing = [
            t
            for t in sorted(texts)
            if "action." + t.replace(" ", "_") not in catalogs.messages[lang]
        ]
        assert missing == [], lang


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_contract_has_a_name(catalogs: Catalogs, game: str) -> None:
    """Views, outcomes and sheets carry contract codes; the client names them with
    ``contract.<game>.<code>`` (web/static/js/game-info.js), in both languages."""
    import importlib

    contracts = importlib.import_module(
        f"server.engine.games.{game.replace('-', '_')}.contracts"
    ).CONTRACTS
    assert len(contracts) >= 5
    for lang in LANGUAGES:
        missing = [c for c in contracts if f"contract.{game}.{c}" not in catalogs.messages[lang]]
        assert missing == [], lang
