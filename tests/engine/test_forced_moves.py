"""The forced-move hook (issue 28): the only move the game lets the table play by itself.

Bayerisches Tarock's Kontra round (bayerisches-tarock.txt "Kontra und Re", BT-A13): an
opponent may say "Kontra" before the first card, the declarer may answer "Re"; one Kontra
counts for both opponents; the round ends after a full turn of "gut". So "gut" is a seat's
only move exactly when no call is open to it:

* the declarer before any Kontra (he cannot double his own game);
* an opponent once the Kontra is said (the next level, Re, is the declarer's);
* everybody after the last level the table plays (Re with ``kontra = re``; Hirsch with
  ``kontra = hirsch``).

The deal names that move (:meth:`Deal.forced_move`); the match plays it only with its
option ``gut_automatisch`` (on by default). Every other game, phase and case: ``None``.
"""

from __future__ import annotations

import random

from server.engine.games.bayerisches_tarock.deal import BayerischesTarockDeal
from server.engine.games.bayerisches_tarock.match import BayerischesTarockMatch
from server.engine.registry import GAMES, get_rules, new_match, playable
from tests.engine.bayerisches_tarock_deals import B1, legal, new_deal, play

CONFIG = {"rounds": 1, "first_dealer": 2, "stake_cents": 10}


def forced(deal: BayerischesTarockDeal) -> str | None:
    """The forced move's text, or None."""
    move = deal.forced_move()
    return None if move is None else deal.move_text(move)


def hand_game_of(declarer: int, kontra: str = "re") -> BayerischesTarockDeal:
    """Deal B1 bid to a Hand game in Eichel by ``declarer`` (the others pass), at the
    start of the Kontra round."""
    deal = new_deal(B1, {"kontra": kontra})
    bids = ["pass", "pass", "pass"]
    bids[declarer] = "bid ich_spiele"  # the Reizen opens with "Ich spiele"
    play(deal, *bids, "game hand", "trump E")
    assert deal.phase == "kontra" and deal.declarer == declarer
    return deal


def test_the_declarer_before_any_kontra_has_only_gut() -> None:
    deal = hand_game_of(0)
    assert deal.to_move == 0 and legal(deal) == ["gut"]
    assert forced(deal) == "gut"
    play(deal, "gut")
    # the opponents may say Kontra: they choose
    assert deal.to_move == 1 and legal(deal) == ["gut", "kontra game"]
    assert forced(deal) is None


def test_after_the_kontra_the_other_opponent_and_the_caller_have_only_gut() -> None:
    deal = hand_game_of(0)
    play(deal, "gut", "kontra game")
    assert deal.to_move == 2 and legal(deal) == ["gut"]  # one Kontra counts for both
    assert forced(deal) == "gut"
    play(deal, "gut")
    # the declarer may answer with Re: his choice
    assert deal.to_move == 0 and legal(deal) == ["gut", "re game"]
    assert forced(deal) is None
    play(deal, "gut")
    assert deal.to_move == 1 and legal(deal) == ["gut"]  # the Kontra caller himself
    assert forced(deal) == "gut"
    play(deal, "gut")
    assert deal.phase == "play" and forced(deal) is None


def test_after_re_everybody_has_only_gut_when_the_table_plays_kontra_and_re() -> None:
    deal = hand_game_of(0)
    play(deal, "gut", "kontra game", "gut", "re game")
    for seat in (1, 2, 0):
        assert deal.to_move == seat and legal(deal) == ["gut"]
        assert forced(deal) == "gut"
        play(deal, "gut")
    assert deal.phase == "play"


def test_with_supp_resupp_hirsch_the_opponents_may_answer_re() -> None:
    deal = hand_game_of(0, "hirsch")
    play(deal, "gut", "kontra game", "gut", "re game")
    assert deal.to_move == 1 and legal(deal) == ["gut", "supp game"]
    assert forced(deal) is None


def test_a_declarer_in_mittelhand_is_asked_after_vorhand() -> None:
    deal = hand_game_of(1)
    assert deal.to_move == 0 and legal(deal) == ["gut", "kontra game"]
    assert forced(deal) is None
    play(deal, "gut")
    assert deal.to_move == 1 and legal(deal) == ["gut"]
    assert forced(deal) == "gut"


def test_no_forced_move_outside_the_kontra_round() -> None:
    deal = new_deal(B1)
    assert forced(deal) is None  # the auction: Vorhand chooses
    play(deal, "bid ich_spiele", "pass", "pass")
    assert legal(deal) == ["game frage", "game hand"] and forced(deal) is None
    play(deal, "game hand")
    assert deal.phase == "trump" and forced(deal) is None
    # without Kontra the round is not played at all: nothing forced up to the first card
    plain = new_deal(B1, {"kontra": "off"})
    play(plain, "bid ich_spiele", "pass", "pass", "game hand", "trump E")
    assert plain.phase == "play" and forced(plain) is None


def test_the_match_plays_the_lone_gut_only_with_its_option() -> None:
    on = new_match("bayerisches-tarock", ["A", "B", "C"], CONFIG)
    off = new_match("bayerisches-tarock", ["A", "B", "C"], {**CONFIG, "gut_automatisch": False})
    assert isinstance(on, BayerischesTarockMatch) and isinstance(off, BayerischesTarockMatch)
    assert (on.gut_automatisch, off.gut_automatisch) == (True, False)
    deal = hand_game_of(0)
    assert on.forced_move(deal) == deal.forced_move() is not None
    assert deal.move_text(on.forced_move(deal) or 0) == "gut"
    assert off.forced_move(deal) is None
    # the option is the game's, with its default and help, for the room form
    option = next(o for o in type(on).match_options if o.name == "gut_automatisch")
    assert (option.default, option.choices) == (True, (True, False))


def test_other_games_never_force_a_move() -> None:
    for game in playable():
        if game == "bayerisches-tarock":
            continue
        names = ["A", "B", "C", "D"][: GAMES[game].players[-1]]
        match = new_match(game, names, {**CONFIG, "first_dealer": 0})
        deal = match.start_deal(get_rules(game).shuffle_and_deal(random.Random(7)))
        rng = random.Random(8)
        while not deal.finished:
            assert deal.forced_move() is None and match.forced_move(deal) is None
            deal.apply(deal.random_move(rng))
