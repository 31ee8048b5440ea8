"""The entry point ``choose``: plain JSON in, one legal action out, the same for the same
seed; the players cannot reach a deal."""

from __future__ import annotations

import ast
import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import server.bots
from server.bots import choose
from server.bots.info import info_for
from server.bots.infoformat import KEYS
from server.bots.players import LEVELS, game_module_name
from tests.bots.support import GAMES, position
from tests.test_no_game_names import GAME_NAME

BOTS = Path(server.bots.__file__).parent
#: The modules a player runs: they get the information set only.
PLAYER_MODULES = [BOTS / "__init__.py", BOTS / "players.py", BOTS / "infoformat.py",
                  BOTS / "cardnames.py", *sorted((BOTS / "games").glob("*.py"))]  # fmt: skip
#: What holds or builds a deal on the table's side, or reaches the tables and the store.
FORBIDDEN = ("server.bots.info", "server.bots.duel", "server.tables", "server.store",
             "server.api", "server.engine.record", "server.engine.replay")  # fmt: skip


def _json_only(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_only(v) for v in value)
    return value is None or type(value) in (str, int, float, bool)


@pytest.mark.parametrize("game", GAMES)
def test_info_is_plain_json_with_the_seat_view_and_the_actions_as_seen(game: str) -> None:
    deal = position(game, 2, 20)
    seat = deal.to_move
    assert seat is not None
    info = info_for(deal, seat)
    assert tuple(info) == KEYS
    assert _json_only(info)
    assert info["view"] == json.loads(json.dumps(deal.view(seat)))
    assert info["actions"] == [
        [s, deal.action_seen_by(i, seat)] for i, (s, _) in enumerate(deal.history)
    ]
    assert info["game"] == game and info["seat"] == seat and info["match"] == {}


@pytest.mark.parametrize("game", GAMES)
def test_random_is_legal_and_a_function_of_the_seed(game: str) -> None:
    for actions in (0, 5, 25):
        deal = position(game, 4, actions)
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        chosen = {choose(info, "random", seed) for seed in range(30)}
        assert chosen <= set(deal.legal_texts(seat)) - {"takeback"}
        assert [choose(info, "random", s) for s in range(5)] == [
            choose(json.loads(json.dumps(info)), "random", s) for s in range(5)
        ]
        if len(deal.legal_texts(seat)) > 1:
            assert len(chosen) > 1


def test_an_unknown_level_and_a_bad_info_are_refused() -> None:
    deal = position("dreierles", 1, 0)
    info = info_for(deal, 0)
    with pytest.raises(ValueError, match="unknown level 'meister'"):
        choose(info, "meister", 1)
    with pytest.raises(ValueError, match="info lacks view"):
        choose({k: v for k, v in info.items() if k != "view"}, "random", 1)


def _has_einsteiger(game: str) -> bool:
    try:
        return hasattr(importlib.import_module(game_module_name(game)), "einsteiger")
    except ModuleNotFoundError:
        return False


WITHOUT_EINSTEIGER = [g for g in GAMES if not _has_einsteiger(g)]


@pytest.mark.parametrize("game", [*WITHOUT_EINSTEIGER, "no-such-game"])
def test_a_game_without_its_einsteiger_fails_loudly(game: str) -> None:
    deal = position("dreierles", 1, 0)
    info = {**info_for(deal, 0), "game": game}
    with pytest.raises(NotImplementedError, match=repr(game)):
        choose(info, "einsteiger", 1)


def test_a_game_module_without_einsteiger_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    from server.bots.games import dreierles

    monkeypatch.delattr(dreierles, "einsteiger")
    with pytest.raises(NotImplementedError, match="'dreierles'"):
        choose(info_for(position("dreierles", 1, 0), 0), "einsteiger", 1)


def test_levels() -> None:
    assert sorted(LEVELS) == ["einsteiger", "random", "stark"]


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module if node.level == 0 else f"server.bots.{node.module}")
    return names


@pytest.mark.parametrize("path", PLAYER_MODULES, ids=lambda p: p.name)
def test_player_modules_import_no_way_to_a_deal(path: Path) -> None:
    for name in _imports(path):
        assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), name


def test_a_player_is_given_plain_json_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def spy(info: Any, rng: random.Random) -> str:
        seen.append(info)
        return str(info["view"]["legal_actions"][0])

    monkeypatch.setitem(LEVELS, "spy", spy)
    from server.bots.duel import duel

    duel("dreierles", "spy", "random", 1, seed=3)
    assert seen and all(type(info) is dict and _json_only(info) for info in seen)


def test_core_modules_of_the_players_name_no_game() -> None:
    for path in sorted(BOTS.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not GAME_NAME.search(line), f"{path.name}:{number}: {line}"
