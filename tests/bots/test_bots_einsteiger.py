"""The rule-based players ("Einsteiger"): legal, seeded, sensible, and better than random."""

from __future__ import annotations

import random

import pytest

from server.bots import choose
from server.bots.duel import duel
from server.bots.games import bayerisches_tarock, doppelkopf, doppen, dreierles, tarock_zu_dritt
from server.bots.games.trickplay import Trick, choose_card
from server.bots.info import info_for
from server.engine.cards import DOPPELKOPF, GERMAN, TAROCK
from server.engine.registry import get_rules
from server.engine.tricks import tarock_rules
from tests.bots.support import GAMES
from tests.bots.test_bots_players import WITHOUT_EINSTEIGER

WITH_EINSTEIGER = [g for g in GAMES if g not in WITHOUT_EINSTEIGER]
RULES = tarock_rules(TAROCK)
m = TAROCK.mask


@pytest.mark.parametrize("game", WITH_EINSTEIGER)
def test_every_decision_of_whole_deals_is_legal(game: str) -> None:
    rules = get_rules(game)
    for number in range(6):
        deal = rules.new_deal(rules.shuffle_and_deal(random.Random(number)))
        while not deal.finished:
            seat = deal.to_move
            assert seat is not None
            info = info_for(deal, seat)
            text = choose(info, "einsteiger", number)
            assert text in deal.legal_texts(seat)
            assert choose(info, "einsteiger", number) == text
            deal.act(seat, text)


@pytest.mark.parametrize("game", WITH_EINSTEIGER)
def test_einsteiger_beats_random_in_duplicate_deals(game: str) -> None:
    report = duel(game, "einsteiger", "random", 200, seed=5)
    assert report["mean"] > 0
    # a random player's Kontra, Re, Kontra… chains multiply a Doppen deal's value by up to
    # thousands: its mean has no finite value and no interval (docs/bots.md); its median's
    # interval, from the order of the values alone, is what says that the Einsteiger wins
    if game == "doppen":
        assert report["median_low"] > 0
    else:
        assert report["ci_low"] > 0


def test_dreierles_bids_by_hand_strength() -> None:
    legal = ["pass", "bid dreier", "bid zweier", "bid einer", "bid solo"]
    strong = TAROCK.codes(m("SK T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 HK KaK PK KrK H4"))
    weak = TAROCK.codes(m("T2 T3 HA H2 H3 H4 KaA Ka2 Ka3 P7 P8 P9 Kr7 Kr8 Kr9 PD"))
    middle = TAROCK.codes(m("SK T21 T15 T12 T10 T8 T5 T3 HK KaK H2 H3 P7 P8 Kr7 Kr8"))
    assert dreierles.bid({"view": {"hand": strong}}, legal) == "bid solo"
    assert dreierles.bid({"view": {"hand": weak}}, legal) == "pass"
    assert dreierles.bid({"view": {"hand": middle}}, legal) == "bid zweier"
    assert dreierles.bid({"view": {"hand": middle}}, ["pass", "bid einer", "bid solo"]) == "pass"


def test_dreierles_discards_from_the_shortest_suit_the_most_points() -> None:
    hand = TAROCK.codes(m("SK T21 T15 HK HD H2 KaC Ka2 P7 P8 P9 PC Kr7 Kr8 Kr9 KrB KaB"))
    legal = [f"discard {c}" for c in hand if not c.startswith(("T", "S")) and c[-1] != "K"]
    assert dreierles.discard({"view": {"hand": hand}}, legal) == "discard HD"


def _trick(**kw: object) -> Trick:
    base: dict[str, object] = {"seat": 0, "seats": 3, "leader": 0, "cards": (),
                               "partners": frozenset(), "gone": 0, "rules": RULES,
                               "points": TAROCK.points, "full": TAROCK.full}  # fmt: skip
    base.update(kw)
    return Trick(**base)  # type: ignore[arg-type]


def _codes(*codes: str) -> tuple[int, ...]:
    return tuple(TAROCK.parse(c) for c in codes)


def test_the_declarer_pulls_trumps_with_a_master() -> None:
    hand = m("SK T5 T3 HK H2 P7")
    t = _trick(hand=hand, legal=hand, alone=True)
    assert TAROCK.code(choose_card(t)) == "SK"


def test_a_partner_smears_points_onto_a_safe_trick() -> None:
    # seat 0 follows last: leader 1 (the declarer) played HD, seat 2 (partner) took it with HK
    hand = m("HC H2 P7")
    t = _trick(seat=0, leader=1, cards=_codes("HD", "HK"), partners=frozenset({2}), hand=hand,
               legal=m("HC H2"))  # fmt: skip
    assert TAROCK.code(choose_card(t)) == "HC"


def test_a_follower_wins_cheaply_when_last_and_ducks_when_it_cannot_win() -> None:
    hand = m("T20 T4 H2")
    t = _trick(seat=0, leader=1, cards=_codes("HK", "HD"), hand=hand, legal=m("T20 T4"))
    assert TAROCK.code(choose_card(t)) == "T4"
    hand = m("T2 T3 HK")
    t = _trick(seat=0, leader=1, cards=_codes("T21", "T5"), hand=hand, legal=m("T2 T3"))
    assert TAROCK.code(choose_card(t)) == "T2"


def test_the_pfeife_is_kept_while_another_card_is_legal() -> None:
    hand = m("T1 T2 H4")
    t = _trick(seat=0, leader=1, cards=_codes("T21", "T5"), hand=hand, legal=m("T1 T2"),
               protect=m("T1"))  # fmt: skip
    assert TAROCK.code(choose_card(t)) == "T2"


def test_in_a_negative_game_the_highest_card_that_still_loses_is_played() -> None:
    hand = m("HK HC H2 P7")
    t = _trick(seat=0, leader=1, cards=_codes("HD", "H3"), hand=hand, legal=m("HK HC H2"),
               negative=True)  # fmt: skip
    assert TAROCK.code(choose_card(t)) == "HC"


def test_doppen_takes_the_talon_group_worth_most() -> None:
    view = {"talon": ["H4", "P7", "Kr8", "T20", "SK", "HK"], "hand": []}
    assert doppen.take({"view": view}, ["take upper", "take lower"]) == "take lower"
    assert doppen.take({"view": view}, ["take upper", "take middle", "take lower"]) == (
        "take lower"
    )
    assert doppen.take({"view": view}, [f"take {c}" for c in view["talon"]]) == "take SK"


def test_doppen_holds_a_bid_the_hand_is_worth_and_calls_gut_otherwise() -> None:
    middle = TAROCK.codes(m("SK T21 T15 T12 T10 T8 T5 T3 HK KaK H2 H3 P7 P8 Kr7 Kr8"))
    view = {"hand": middle, "high_bid": "zweier"}
    assert doppen.bid({"view": view}, ["pass", "hold", "bid einer", "bid solo"]) == "hold"
    view = {"hand": middle, "high_bid": "einer"}
    assert doppen.bid({"view": view}, ["pass", "hold", "bid solo"]) == "pass"
    info = {"seat": 0, "view": {"hand": middle, "declarer": 1}}
    assert doppen.call(info, ["gut", "kontra game", "announce pagat"]) == "gut"


def test_tarock_zu_dritt_bids_plain_games_only_and_opens_with_vorhand() -> None:
    middle = TAROCK.codes(m("SK T21 T15 T12 T10 T8 T5 T3 HK KaK H2 H3 P7 P8 Kr7 Kr8"))
    weak = TAROCK.codes(m("T2 T3 HA H2 H3 H4 KaA Ka2 Ka3 P7 P8 P9 Kr7 Kr8 Kr9 PD"))
    legal = ["vorhand", "bid dreier", "bid bettler", "bid zweier", "bid einer", "bid solodreier"]
    assert tarock_zu_dritt.bid({"view": {"hand": middle}}, legal) == "bid zweier"
    assert tarock_zu_dritt.bid({"view": {"hand": weak}}, legal) == "vorhand"
    assert tarock_zu_dritt.bid({"view": {"hand": weak}}, ["pass", "bid bettler"]) == "pass"
    choice = ["bid trischaken", "bid sechserdreier"]
    assert tarock_zu_dritt.bid({"view": {"hand": weak}}, choice) == "bid trischaken"
    assert tarock_zu_dritt.bid({"view": {"hand": middle}}, choice) == "bid sechserdreier"


def test_tarock_zu_dritt_takes_the_half_pair_or_card_worth_most() -> None:
    view = {"talon": ["H4", "P7", "Kr8", "T20", "SK", "HK"], "talon_pick": False}
    assert tarock_zu_dritt.take({"view": view}, ["take 1", "take 2"]) == "take 2"
    assert tarock_zu_dritt.take({"view": view}, ["take 1", "take 2", "take 3"]) == "take 3"
    singles = [f"take {n}" for n in range(1, 7)]
    assert tarock_zu_dritt.take({"view": view}, singles) == "take 5"


def test_bayerisches_tarock_bids_names_trump_and_discards_by_hand_strength() -> None:
    g = GERMAN.mask
    strong = GERMAN.codes(g("EA E10 EK EO EU GA G10 SA H6 H7 S6"))
    weak = GERMAN.codes(g("E6 E7 G6 G7 G8 H6 H7 H8 S6 S7 SU"))
    legal = ["pass", "bid ich_spiele", "bid hand", "bid 66", "bid durch"]
    assert bayerisches_tarock.bid({"view": {"hand": strong}}, legal) == "bid ich_spiele"
    assert bayerisches_tarock.bid({"view": {"hand": weak}}, legal) == "pass"
    view = {"hand": strong, "high_bid": "hand"}
    assert bayerisches_tarock.bid({"view": view}, ["pass", "hold", "bid 66"]) == "hold"
    assert bayerisches_tarock.best_trump(g("EA E10 EK EO EU GA G10 SA H6 H7 S6"))[0] == "E"
    no_reizen = ["pass", "bid frage", "bid frage_herz", "bid hand", "bid hand_herz"]
    assert bayerisches_tarock.bid({"view": {"hand": strong}}, no_reizen) == "bid hand"
    hand = GERMAN.codes(g("EA E10 EK EO EU GA G10 SA H6 H7 S6 SK G9 HK"))
    view = {"hand": hand, "trump": "E"}
    legal = [f"discard {c}" for c in hand]
    assert bayerisches_tarock.discard({"view": view}, legal) == "discard G10"  # banked


def test_doppelkopf_says_gesund_knocks_with_a_strong_hand_and_plays_kinds() -> None:
    d = DOPPELKOPF.mask
    strong = DOPPELKOPF.codes(d("H10.1 H10.2 CQ.1 SQ.1 HQ.1 DQ.1 CJ.1 DA.1 CA.1 SA.1 HA.1 C9.1"))
    assert doppelkopf.strong(d(" ".join(strong)))
    view = {"phase": "vorbehalt", "hand": strong, "legal_actions": ["gesund", "solo trumpf"]}
    info = {"seat": 0, "view": view}
    assert doppelkopf.einsteiger(info, random.Random(1)) == "gesund"
    weak = DOPPELKOPF.codes(d("HQ.1 DJ.1 D9.1 CA.1 C9.1 C10.1 SA.1 S9.1 SK.1 HA.1 HK.1 H9.1"))
    assert not doppelkopf.strong(d(" ".join(weak)))
    # the seat holds both Pik Asse: the other kinds' copies are mapped beside them
    hand = d("SA.1 SA.2 S9.1")
    info = {"actions": [[1, "play S9"], [2, "play SA"]]}
    assert DOPPELKOPF.codes(doppelkopf._played(info, hand)) == ["S9.2"]


@pytest.mark.parametrize("game", WITH_EINSTEIGER)
def test_decisions_at_random_positions_with_random_house_rules_are_legal(game: str) -> None:
    rules = get_rules(game)
    for number in range(40):
        rng = random.Random(number)
        options = {option.name: rng.choice(option.choices) for option in rules.options}
        deal = rules.new_deal(rules.shuffle_and_deal(rng), options)
        stop = rng.randrange(0, 60)
        while not deal.finished and len(deal.history) < stop:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        if deal.finished:
            continue
        seat = deal.to_move
        assert seat is not None
        assert choose(info_for(deal, seat), "einsteiger", number) in deal.legal_texts(seat)
