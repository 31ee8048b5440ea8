"""The core JavaScript knows no game by name (issue 12): what is truly one game's own lives
in ``web/static/js/games/<game>.js``, loaded by the name the game description gives; the
core modules ``web/static/js/*.js`` read the description (pack, direction, seat labels,
action groups, the sheet's kind) instead of branching on a game's name."""

from __future__ import annotations

import re

from server.engine.registry import GAMES
from tests.support import REPO_ROOT

JS = REPO_ROOT / "web" / "static" / "js"
#: Every game of the registry, as a word in any case ("Doppelkopf", "doppen").
GAME_NAMES = sorted(GAMES)
PATTERN = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in GAME_NAMES) + r")(?![\w-])",
    re.IGNORECASE,
)


def mentions(text: str) -> list[tuple[int, str]]:
    """The lines (number, text) of ``text`` that name a game."""
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if PATTERN.search(line)
    ]


def test_the_pattern_finds_game_names_as_words() -> None:
    assert mentions('if (game === "doppelkopf") {')
    assert mentions("// Dreierles: the auction")
    assert mentions("const x = { 'tarock-zu-dritt': 1 }")
    assert mentions("DOPPEN")
    # Other words that merely contain a name, or a pack's name, are no game names.
    assert not mentions("const doppelkopfish = 1; doppenheimer; tarock; french48")
    assert not mentions("games/tarock-zu-dritt-extra.js")


def test_no_game_name_in_the_core_javascript() -> None:
    modules = sorted(JS.glob("*.js"))
    assert len(modules) > 10  # the glob itself works
    found = {
        str(path.relative_to(REPO_ROOT)): hits
        for path in modules
        if (hits := mentions(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_game_modules_are_apart() -> None:
    # The per-game modules are the one place for a game's own code, and they are not
    # scanned: their folder is no part of JS.glob("*.js").
    games = JS / "games"
    assert games.is_dir()
    assert all(path.parent == JS for path in JS.glob("*.js"))
    assert {p.stem for p in games.glob("*.js")} >= {"dreierles", "doppelkopf"}
