"""The searching player ("stark"): legal, a function of the seed, and the best mean."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from server.bots import choose
from server.bots.info import info_for
from server.bots.players import legal_actions
from server.bots.sampler import Sampler, SamplingError, World
from server.bots.search import Playouts, candidates_of, policy_of, search
from server.engine.registry import get_rules, playable
from tests.bots.support import position

#: Random positions per game: a few, early and late (a decision takes up to a few hundred
#: milliseconds).
DEPTHS = (2, 9, 25, 40)


@pytest.mark.parametrize("game", playable())
def test_stark_is_legal_and_a_function_of_the_seed(game: str) -> None:
    for number, depth in enumerate(DEPTHS):
        deal = position(game, 300 + number, depth)
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        text = choose(info, "stark", number)
        assert text in deal.legal_texts(seat)
        assert text != "takeback"
        assert choose(info, "stark", number) == text


def _collect(into: list[dict[str, float]]) -> Callable[[int, dict[str, float]], None]:
    """A hook that collects each world's scores."""

    def hook(_: int, scores: dict[str, float]) -> None:
        into.append(scores)

    return hook


@pytest.mark.parametrize("game", playable())
def test_the_search_chooses_the_best_mean_over_its_worlds(game: str) -> None:
    for number in range(8):
        deal = position(game, 400 + number, 30)
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        legal = list(dict.fromkeys(legal_actions(info)))
        if len(legal) < 2:
            continue
        seen: list[dict[str, float]] = []
        rng = random.Random(number)
        text = search(info, legal, policy_of(game), rng, budget=3000, worlds=(2, 3),
                      on_world=_collect(seen))  # fmt: skip
        if text is None:
            continue
        assert 2 <= len(seen) <= 3
        # the actions weighed in every world (all of them, unless the first screened)
        weighed = [a for a in legal if all(a in scores for scores in seen)]
        assert set(seen[0]) == set(legal) and text in weighed
        totals = {a: sum(scores[a] for scores in seen) for a in weighed}
        assert totals[text] == max(totals.values())
        return
    pytest.fail(f"no position of {game} searched")


def test_a_budget_too_small_leaves_the_choice_to_the_rule_based_player() -> None:
    game = playable()[0]
    deal = position(game, 5, 3)
    seat = deal.to_move
    assert seat is not None
    info = info_for(deal, seat)
    legal = list(dict.fromkeys(legal_actions(info)))
    assert len(legal) > 1
    assert search(info, legal, policy_of(game), random.Random(1), budget=10) is None


def _doubled_twice() -> tuple[dict[str, object], list[str]]:
    """A Doppen position where the game's chain stands at Re and an opponent may double
    again (played at random until then)."""
    rules = get_rules("doppen")
    for number in range(400):
        deal = rules.new_deal(rules.shuffle_and_deal(random.Random(number)))
        rng = random.Random(number)
        while not deal.finished:
            seat = deal.to_move
            assert seat is not None
            legal = deal.legal_texts(seat)
            if deal.view(seat)["phase"] == "announce":
                chains = deal.view(seat)["doubling"]["chains"]
                game = next(c for c in chains if c["item"] == "game")
                if game["level"] == 2 and "kontra game" in legal:
                    return info_for(deal, seat), legal
                for text in ("kontra game", "re game"):
                    if text in legal:
                        break
                else:
                    text = rng.choice([t for t in legal if t != "takeback"])
            else:
                text = rng.choice([t for t in legal if t != "takeback"])
            deal.act(seat, text)
    raise AssertionError("no Doppen deal reached a Re")


def test_doppen_search_weighs_no_doubling_past_the_re() -> None:
    info, legal = _doubled_twice()
    narrow = candidates_of("doppen")
    assert narrow is not None
    weighed = narrow(info, legal)
    assert "kontra game" in legal and "kontra game" not in weighed
    assert "gut" in weighed
    for seed in range(4):
        assert choose(info, "stark", seed) != "kontra game"


def test_games_without_a_narrowing_weigh_every_action() -> None:
    assert candidates_of("dreierles") is None


@pytest.mark.parametrize("game", playable())
def test_worlds_are_weighed_by_how_the_rule_based_player_would_have_acted(game: str) -> None:
    rules = get_rules(game)
    policy = policy_of(game)
    lighter = 0
    for number in range(3):
        deal = rules.new_deal(rules.shuffle_and_deal(random.Random(900 + number)))
        while not deal.finished and len(deal.history) < 20:
            seat = deal.to_move
            assert seat is not None
            deal.act(seat, choose(info_for(deal, seat), "einsteiger", number))
        if deal.finished:
            continue
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        # the real deal, where every seat played as the rule-based player: nothing unlikely
        real = World(deal.dealt, deal, 1)
        weight, cost = Playouts(info, real, policy).likelihood(0.5)
        assert weight == 1.0 and cost > 0
        sampler = Sampler(info, tries=40)
        rng = random.Random(number)
        for _ in range(6):
            try:
                world = sampler.sample(rng)
            except SamplingError:
                continue
            weight, _ = Playouts(info, world, policy).likelihood(0.5)
            assert 0 < weight <= 1.0
            lighter += weight < 1.0
    assert lighter > 0


def test_the_search_weighs_the_vorbehalt_of_doppelkopf() -> None:
    """Narrowed to "gesund" and the hand's two strongest solos, the Vorbehalt is searched
    (with all nine solos the budget allowed no world, and the search never chose one)."""
    narrow = candidates_of("doppelkopf")
    assert narrow is not None
    for number in range(4):
        deal = position("doppelkopf", 600 + number, 0)
        seat = deal.to_move
        assert seat is not None and deal.phase == "vorbehalt"
        info = info_for(deal, seat)
        legal = list(dict.fromkeys(legal_actions(info)))
        weighed = narrow(info, legal)
        solos = [t for t in weighed if t.startswith("solo ")]
        assert "gesund" in weighed and len(solos) == 2 and len(legal) > len(weighed)
        worlds: list[dict[str, float]] = []
        text = search(info, weighed, policy_of("doppelkopf"), random.Random(number),
                      on_world=_collect(worlds))  # fmt: skip
        assert text in weighed and len(worlds) >= 3  # a Hochzeit hand adds its kinds


def test_many_bids_are_screened_in_the_first_world() -> None:
    """Tarock zu dritt's first bid has some twenty legal actions: too many to weigh in
    four worlds. The first world weighs them all, the best of it and the rule-based
    player's choice go on to the other worlds, and the search decides among those."""
    game = "tarock-zu-dritt"
    policy = policy_of(game)
    screened = 0
    for number in range(6):
        deal = position(game, 700 + number, 0)
        seat = deal.to_move
        assert seat is not None
        info = info_for(deal, seat)
        legal = list(dict.fromkeys(legal_actions(info)))
        assert len(legal) >= 19
        seen: list[dict[str, float]] = []
        text = search(info, legal, policy, random.Random(number), on_world=_collect(seen))
        assert text is not None and len(seen) >= 4
        assert set(seen[0]) == set(legal)
        kept = [a for a in legal if a in seen[1]]
        assert 2 <= len(kept) < len(legal)
        assert all(set(scores) == set(kept) for scores in seen[1:])
        # the rule-based choice goes on (its bids draw no random numbers)
        assert policy(info, random.Random(0)) in kept
        totals = {a: sum(scores[a] for scores in seen) for a in kept}
        assert text in kept and totals[text] == max(totals.values())
        # the screening world's best scores went on
        best_first = max(seen[0][a] for a in legal)
        assert any(seen[0][a] == best_first for a in kept)
        screened += 1
    assert screened == 6


@pytest.mark.parametrize("game", playable())
def test_stark_searches_with_its_games_budget(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision gets the budget of its game (``STARK_BUDGET``, else the common one),
    never more than the common one; a game on the common budget plays as version 3."""
    from server.bots import search as search_module
    from server.bots.players import VERSIONS, game_module_name, version_of

    budgets: list[int] = []

    def spy(*args: object, budget: int = search_module.STEP_BUDGET, **kwargs: object) -> None:
        budgets.append(budget)
        return None  # the rule-based choice, at once

    monkeypatch.setattr(search_module, "search", spy)
    for number in range(4):
        deal = position(game, 500 + number, 20 + 3 * number)
        seat = deal.to_move
        assert seat is not None
        if len(legal_actions(info_for(deal, seat))) > 1:
            choose(info_for(deal, seat), "stark", number)
    module = __import__(game_module_name(game), fromlist=["_"])
    expected = getattr(module, "STARK_BUDGET", search_module.STEP_BUDGET)
    assert budgets and set(budgets) == {expected} == {search_module.budget_of(game)}
    assert 0 < expected <= search_module.STEP_BUDGET
    common = expected == search_module.STEP_BUDGET
    assert version_of("stark", game) == (3 if common else VERSIONS["stark"])
    assert version_of("einsteiger", game) == VERSIONS["einsteiger"]
