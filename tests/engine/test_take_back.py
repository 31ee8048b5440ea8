"""Taking back the last card (the room option ``take_back``, :mod:`server.engine.tricks`,
"Taking back a card"): legal only for the last card played, by its player, while its trick
is open and before anyone acted after it; every other case refused with a coded error that
changes nothing; the take-back is an action of its own in the record and replays."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine.base import CardPlayDeal, Deal, TakeBackDeal
from server.engine.cards import TAROCK
from server.engine.errors import IllegalActionError
from server.engine.playout import play_random, run_playouts, take_back_differences
from server.engine.record import dump_record, load_record
from server.engine.registry import describe, get_rules, playable
from server.engine.replay import replay_steps
from server.engine.tricks import TrickPlay, tarock_rules

#: Every playable game of the registry (never a list written here).
GAMES = tuple(playable())


def to_play(game: str, seed: int, options: dict[str, Any] | None = None) -> Any:
    """A deal of ``game`` played at random up to its first card (a deal thrown in is
    skipped: the next seed)."""
    rules = get_rules(game)
    while True:
        rng = random.Random(seed)
        deal: Any = rules.new_deal(rules.shuffle_and_deal(rng), options)
        while not deal.finished and deal.phase != "play":
            deal.apply(deal.random_move(rng))
        if deal.phase == "play":
            return deal
        seed += 1000


def refused(deal: Deal, seat: int | None) -> str:
    """The code of the error a take-back by ``seat`` gets; checks that nothing changed."""
    before = (list(deal.history), deal.to_move, deal.view(None))
    with pytest.raises(IllegalActionError) as caught:
        deal.act(seat, "takeback")
    assert (list(deal.history), deal.to_move, deal.view(None)) == before
    return caught.value.code


def test_the_trick_core_takes_the_last_card_back() -> None:
    t = TAROCK.parse
    hands = [TAROCK.mask("HK T1"), TAROCK.mask("T2 T5"), TAROCK.mask("HD T3")]
    play = TrickPlay(tarock_rules(TAROCK), hands, leader=0, tricks=2)
    play.play(t("HK"))
    play.play(t("T5"))  # the mis-tap: T2 was meant
    assert (play.best, play.last_played(), play.to_move) == (1, (1, t("T5")), 2)
    assert play.take_back() == (1, t("T5"))
    assert TAROCK.codes(hands[1]) == ["T2", "T5"]
    assert (play.to_move, play.trick, play.best) == (1, [t("HK")], 0)
    assert TAROCK.codes(play.legal()) == ["T2", "T5"]
    play.play(t("T2"))
    assert TAROCK.codes(play.legal()) == ["HD"]
    play.play(t("HD"))  # the trick is taken at once: nothing to take back
    assert play.last_played() is None
    with pytest.raises(ValueError, match="no open trick"):
        play.take_back()
    assert play.tricks[-1] == (0, (t("HK"), t("T2"), t("HD")), 1)
    assert (play.won[1], play.to_move) == (TAROCK.mask("HK T2 HD"), 1)


def test_tarock_zu_dritt_take_back_and_its_refusals() -> None:
    deal = to_play("tarock-zu-dritt", 3)
    assert issubclass(type(deal), CardPlayDeal) and deal.options["take_back"] is True
    leader = deal.to_move
    assert leader is not None
    hand = deal.hands[leader]
    legal = list(deal.legal_moves())
    view = {seat: deal.view(seat) for seat in (0, 1, 2, None)}
    assert view[None]["take_back"] is None
    assert refused(deal, leader) == "take_back_not_now"  # nothing played yet
    card = legal[-1]
    deal.apply(card)
    second = (leader + 1) % 3
    assert deal.take_back_seat() == leader
    assert deal.view(None)["take_back"] == leader
    assert deal.legal_texts(leader) == ["takeback"]
    assert "takeback" not in deal.legal_texts()  # the seat to move has no take-back
    assert refused(deal, second) == "take_back_not_last"
    assert refused(deal, None) == "take_back_not_last"  # the seat to move
    deal.act(leader, "takeback")
    # as before the card: the same hand, legal moves and views, the card back in the hand
    assert (deal.to_move, deal.hands[leader], deal.legal_moves()) == (leader, hand, legal)
    assert deal.history[-2:] == [(leader, card), (leader, deal.parse("takeback"))]
    assert deal.actions()[-1] == (leader, "takeback")
    for seat in (0, 1, 2, None):
        now = deal.view(seat)
        assert {**now, "take_back": None} == view[seat]
    assert deal.shown_back == 1 << card
    assert refused(deal, leader) == "take_back_not_now"  # one take-back per card
    # the lead again, the next player plays: the leader's card stays
    deal.apply(card)
    deal.apply(deal.legal_moves()[0])
    assert deal.take_back_seat() == second
    assert refused(deal, leader) == "take_back_not_last"
    # the card that completes a trick is never taken back
    third = (leader + 2) % 3
    deal.apply(deal.legal_moves()[0])
    assert len(deal.tricks) == 1 and deal.view(None)["trick"]["cards"] == []
    assert deal.take_back_seat() is None
    assert refused(deal, third) == "take_back_trick_complete"


def test_a_take_back_is_its_own_action_in_the_record_and_the_replay() -> None:
    deal = to_play("tarock-zu-dritt", 5)
    leader = deal.to_move
    assert leader is not None
    card = deal.legal_moves()[0]
    deal.apply(card)
    deal.act(leader, "takeback")
    record = dump_record(deal, with_outcome=False)
    assert record["actions"][-2:] == [[leader, f"play {TAROCK.code(card)}"], [leader, "takeback"]]
    replayed: Any = load_record(record)
    assert replayed.actions() == deal.actions()
    assert replayed.view(None) == deal.view(None)
    assert replayed.hands == deal.hands
    steps = replay_steps(record, check_outcome=False)["steps"]
    assert [s["action"] for s in steps[-2:]] == [f"play {TAROCK.code(card)}", "takeback"]
    assert steps[-1]["public"]["trick"]["cards"] == []
    assert steps[-2]["public"]["trick"]["cards"] == [TAROCK.code(card)]
    # a whole deal with take-backs in it replays from its record to the same outcome
    rng = random.Random(11)
    finished, problems = play_random(
        get_rules("tarock-zu-dritt"), rng, check_views=True, take_backs=0.5
    )
    assert problems == []
    assert sum(1 for _, text in finished.actions() if text == "takeback") > 0
    again = load_record(dump_record(finished))
    assert again.outcome() == finished.outcome()


@pytest.mark.parametrize("game", GAMES)
def test_the_option_off_refuses_with_a_code(game: str) -> None:
    deal = to_play(game, 8, {"take_back": False})
    assert deal.options["take_back"] is False
    seat = deal.to_move
    deal.apply(deal.legal_moves()[0])
    assert issubclass(type(deal), TakeBackDeal) and deal.take_back_seat() is None
    assert "takeback" not in deal.legal_texts(seat)
    assert refused(deal, seat) == "take_back_off"


def test_doppelkopf_keeps_a_kreuz_dame_on_the_table() -> None:
    for seed in range(200):
        deal = to_play("doppelkopf", seed, {"take_back": True})
        seat = deal.to_move
        assert seat is not None
        kinds = deal.legal_texts()
        if "play CQ" in kinds and len(kinds) > 1:
            break
    else:  # pragma: no cover - the seeds above hold one
        pytest.fail("no lead with a Kreuz-Dame and another card")
    deal.act(seat, "play CQ")
    assert deal.take_back_seat() is None
    assert refused(deal, seat) == "take_back_revealed"


def test_doppelkopf_take_back_names_the_copies_anew() -> None:
    deal = to_play("doppelkopf", 21, {"take_back": True})
    seat = deal.to_move
    assert seat is not None
    text = next(t for t in deal.legal_texts() if t.startswith("play ") and t != "play CQ")
    before = deal.view(seat)
    deal.act(seat, text)
    assert deal.view(None)["trick"]["cards"] == [text.split()[1] + ".1"]
    deal.act(seat, "takeback")
    assert {**deal.view(seat), "take_back": None} == before
    assert take_back_differences(deal) == []


def test_each_game_says_its_default_in_its_description() -> None:
    defaults = {}
    for game in GAMES:
        (option,) = [o for o in describe(game)["options"] if o["name"] == "take_back"]
        defaults[game] = option["default"]
        assert option["label"] == f"option.{game}.take_back"
        assert "Stich offen" in option["help_de"]
    assert defaults == {g: g == "tarock-zu-dritt" for g in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_with_take_backs_keep_every_invariant(game: str) -> None:
    report = run_playouts(game, 12, 4, {"take_back": True}, take_backs=0.3)
    assert report.failures == []
    assert report.invariant_failures == 0
    assert report.comparisons > 0
    # and take-backs were made: the same deals again, counted
    rules = get_rules(game)
    taken = 0
    for i in range(12):
        deal, _ = play_random(rules, random.Random(f"4:{i}"), {"take_back": True}, take_backs=0.3)
        taken += sum(1 for _, text in deal.actions() if text == "takeback")
    assert taken >= 12
