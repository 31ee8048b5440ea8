"""The levels of computer players: each a function of the information set and a seeded
``random.Random`` that returns one legal action text.

A player never holds a deal: it reads the JSON information set only (the view's
``legal_actions`` among it), and the per-game knowledge of the rule-based level lives in
:mod:`server.bots.games`, one module per game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

#: Moves a computer player never makes: taking back a card is for a hand that slipped.
NEVER = frozenset({"takeback"})

Player = Callable[[Mapping[str, Any], random.Random], str]


def legal_actions(info: Mapping[str, Any]) -> list[str]:
    """The legal actions of the seat in ``info`` (its view's), but those a computer
    player never makes; ValueError when the seat has none."""
    legal = [text for text in info["view"].get("legal_actions") or [] if text not in NEVER]
    if not legal:
        raise ValueError(f"seat {info['seat']} has no legal action in this position")
    return legal


def random_player(info: Mapping[str, Any], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(legal_actions(info))


def game_module_name(game: str) -> str:
    """The module of a game's own player knowledge (``server.bots.games.<game>``)."""
    return f"server.bots.games.{game.replace('-', '_')}"


def einsteiger_player(info: Mapping[str, Any], rng: random.Random) -> str:
    """The rule-based player of the game in ``info`` (its module's ``einsteiger``);
    NotImplementedError naming the game where it has none yet."""
    game = str(info["game"])
    try:
        module = importlib.import_module(game_module_name(game))
    except ModuleNotFoundError:
        raise NotImplementedError(f"no einsteiger player for the game {game!r} yet") from None
    play: Player | None = getattr(module, "einsteiger", None)
    if play is None:
        raise NotImplementedError(f"no einsteiger player for the game {game!r} yet")
    return play(info, rng)


def stark_player(info: Mapping[str, Any], rng: random.Random) -> str:
    """The searching player: PIMC over sampled worlds with the rule-based player as the
    playout policy (:mod:`server.bots.search`, imported here on first use: it samples
    worlds with the engine, which the other levels never need)."""
    from server.bots.search import stark_player as stark

    return stark(info, rng)


#: The levels by name.
LEVELS: dict[str, Player] = {
    "random": random_player,
    "einsteiger": einsteiger_player,
    "stark": stark_player,
}

#: What each level's play is, as a version: results measured with one version (the kept
#: runs of a long duel, bench/bots.py) are never merged with another's. Raise it with
#: every change of how the level plays.
VERSIONS: dict[str, int] = {
    "random": 1,
    "einsteiger": 1,
    # 2: the last two tricks of every playout searched exactly (server/bots/endgame.py);
    # many actions screened in the first world; a game module may narrow its bids (the
    # strongest solos); a talon taken unseen is sampled where it lay
    # 3: after screening, the further worlds are budgeted for the kept actions only (2
    # counted every screened action in the first of them)
    # 4: each game its own budget (its module's ``STARK_BUDGET``,
    # ``server.bots.search.budget_of``): smaller in the games whose decisions passed
    # 200 ms of CPU at the 95th percentile; a game that keeps the common budget plays as
    # version 3 (:func:`version_of`)
    "stark": 4,
}


def version_of(level: str, game: str) -> int:
    """The version of ``level``'s play in ``game``: :data:`VERSIONS`, except that the
    searching player's version 4 changed nothing but the budgets of some games, so in a
    game that keeps the common budget it plays as version 3, and the runs kept for
    version 3 there stay valid."""
    if level == "stark" and VERSIONS[level] == 4:
        from server.bots.search import STEP_BUDGET, budget_of

        if budget_of(game) == STEP_BUDGET:
            return 3
    return VERSIONS[level]
