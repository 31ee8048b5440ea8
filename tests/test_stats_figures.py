"""The figures of the statistics a game counts besides the common ones (``GameInfo.figures``):
declared in the game's folder with a label in its own catalogue, counted per deal by the
game, returned by ``GET /api/history/stats`` generically (``figures`` and each player's
``extra``; the whole answer against a database is tested in tests/test_history.py)."""

from __future__ import annotations

import doctest

import pytest

import server.engine.games.doppelkopf.figures
from server.api.history import count_figures, figures_of
from server.api.i18n import LANGUAGES, Catalogs, load_catalogs
from server.engine.registry import GAMES
from tests.support import REPO_ROOT

SEATS = ("Anna", "Bernd", "Cora", "Dora")
SOLO = {"declarer": 2, "solo": True, "contract": "solo_herz", "declarer_won": True}
NORMAL = {"declarer": None, "solo": False, "contract": "normal", "declarer_won": None}


@pytest.fixture(scope="module")
def catalogs() -> Catalogs:
    return load_catalogs(REPO_ROOT / "web" / "locale")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_figures_are_named_in_its_own_catalogue(catalogs: Catalogs, game: str) -> None:
    keys = [figure.key for figure in GAMES[game].figures]
    assert len(keys) == len(set(keys)), game
    for figure in GAMES[game].figures:
        assert figure.label == f"archive.stats.{game}.{figure.key}"
        for lang in LANGUAGES:
            assert figure.label in catalogs.messages[lang], (lang, figure.label)


def test_a_game_without_figures_of_its_own_counts_none() -> None:
    plain = [game for game, info in GAMES.items() if not info.figures]
    assert plain, "every game counts figures of its own: this test needs another game"
    assert figures_of(plain) == []
    for game in plain:
        assert count_figures(GAMES[game].figures, SOLO, {"obligatory": True}, SEATS) == {}


def test_doppelkopf_counts_the_solos_the_sheet_marks_owed() -> None:
    figures = GAMES["doppelkopf"].figures
    assert [(f.key, f.sheet) for f in figures] == [("pflichtsoli", True)]
    assert figures_of(["dreierles", "doppelkopf", "doppelkopf"]) == list(figures)
    owed = {"number": 4, "obligatory": True}
    free = {"number": 5, "obligatory": False}
    assert count_figures(figures, SOLO, owed, SEATS) == {"Cora": {"pflichtsoli": 1}}
    assert count_figures(figures, SOLO, free, SEATS) == {}  # a Lustsolo
    assert count_figures(figures, NORMAL, owed, SEATS) == {}
    assert count_figures(figures, {**SOLO, "declarer": 0}, owed, SEATS) == {
        "Anna": {"pflichtsoli": 1}
    }
    assert count_figures(figures, SOLO, None, SEATS) == {}  # no sheet row: nothing owed


def test_the_counting_doctests() -> None:
    assert doctest.testmod(server.engine.games.doppelkopf.figures).failed == 0
