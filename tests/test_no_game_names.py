"""No game knowledge outside the engine: the runtime (``server/tables``), the API, the store
and the page templates never name a game, in code, comments or docstrings alike. They read
the game description (:func:`server.engine.registry.describe`) and the match protocol
(:class:`server.engine.match.Match`) instead.

The names are the registry's, in every spelling a text may use (``tarock-zu-dritt``,
``Tarock zu dritt``, ``tarock_zu_dritt``), matched as words, case-insensitively.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.engine.registry import GAMES
from tests.support import REPO_ROOT

CHECKED = ("server/tables", "server/api", "server/store", "web/templates")
SUFFIXES = {".py", ".html", ".txt", ".json", ".md", ".jinja"}


def spellings() -> set[str]:
    """Every game's name and title, with hyphens, spaces or underscores between words."""
    names = {name for name in GAMES} | {info.title for info in GAMES.values()}
    return {re.sub(r"[-_ ]+", " ", name).casefold() for name in names}


GAME_NAME = re.compile(
    r"(?<![\w])(?:"
    + "|".join(
        r"[-_ ]+".join(re.escape(word) for word in name.split()) for name in sorted(spellings())
    )
    + r")(?![\w])",
    re.IGNORECASE,
)


#: Files of the checked folders that are data, not knowledge of a game: the words people
#: use as passwords (card games among them, which a later game may be named after).
DATA = {"server/store/common_passwords.py"}


def checked_files() -> list[Path]:
    """Every text file of the checked folders (but the data files)."""
    files = []
    for folder in CHECKED:
        files += [p for p in (REPO_ROOT / folder).rglob("*") if p.suffix in SUFFIXES]
    return sorted(p for p in files if str(p.relative_to(REPO_ROOT)) not in DATA)


def test_the_pattern_finds_every_spelling() -> None:
    assert {"doppelkopf", "dreierles", "doppen", "tarock zu dritt", "bayerisches tarock"} <= (
        spellings()
    )
    for text in ("# the Doppelkopf evening", "games['tarock-zu-dritt']", "Tarock zu dritt:",
                 "TAROCK_ZU_DRITT", '"dreierles"', "Bayerisches Tarock", "(Doppen)"):  # fmt: skip
        assert GAME_NAME.search(text), text
    for text in ("doppelkopf_augen2", "Doppelkopfs", "a tarock pack", "doppent"):
        assert not GAME_NAME.search(text), text


def test_the_checked_folders_exist_and_hold_files() -> None:
    files = checked_files()
    for folder in CHECKED:
        assert any(str(p).startswith(str(REPO_ROOT / folder)) for p in files), folder


@pytest.mark.parametrize("path", checked_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_no_game_name(path: Path) -> None:
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAME_NAME.search(line)
    ]
    assert found == []
