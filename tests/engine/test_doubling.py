"""Kontra/Re/Sub chains (server/engine/doubling.py), with sequences from the texts.

Seats are in playing order; in every test seat 0 is the declarer (party 0) and seats 1
and 2 are the opponents (party 1) unless a test says otherwise.
"""

from __future__ import annotations

import random

import pytest

from server.engine.doubling import Doubling, DoublingRules, codec_verbs
from server.engine.errors import IllegalActionError, MalformedError
from server.engine.games.doppen.contracts import DOUBLING as DOPPEN
from server.engine.games.dreierles import DreierlesDeal
from server.engine.games.tarock_zu_dritt.contracts import DOUBLING as TAROCK_ZU_DRITT
from server.engine.games.tarock_zu_dritt.contracts import (
    DOUBLING_NEGATIVE as TAROCK_ZU_DRITT_NEGATIVE,
)
from server.engine.games.tarock_zu_dritt.contracts import SKOTY_TROPHY
from server.engine.moves import MoveCodec
from server.engine.registry import get_rules

PARTIES = (0, 1, 1)


def run(d: Doubling, *calls: tuple[int, str]) -> Doubling:
    """Apply ``(seat, text)`` calls in order."""
    for seat, text in calls:
        d.act(seat, text)
    return d


def illegal(d: Doubling, seat: int, text: str) -> str:
    """The code of the IllegalActionError the call raises (it must raise one)."""
    with pytest.raises(IllegalActionError) as info:
        d.act(seat, text)
    assert info.value.message_de and info.value.message_de != info.value.message
    return info.value.code


# ---------------------------------------------------------------------- Doppen (DP-A14)


def test_doppen_chain_is_unlimited_and_alternates_kontra_re() -> None:
    # "Auf ein Kontra kann die ansagende Partei mit «Re!» vervierfachen. Danach könnte die
    # Gegenpartei wieder verdoppeln usw. Es gibt theoretisch keine Begrenzung."
    d = Doubling(DOPPEN, PARTIES, first=0, items={"game": 0})
    assert d.legal_texts() == ["gut"]
    run(d, (0, "gut"), (1, "kontra game"))
    assert d.factor("game") == 2
    assert d.legal_texts() == ["gut"]  # seat 2: his side has doubled already
    run(d, (2, "gut"), (0, "re game"))
    assert d.factor("game") == 4
    run(d, (1, "kontra game"))  # the third level: again "kontra", by the other side
    assert d.factor("game") == 8
    run(d, (2, "gut"), (0, "re game"), (1, "kontra game"), (2, "gut"), (0, "re game"))
    assert d.level("game") == 6 and d.factor("game") == 64
    assert not d.finished
    run(d, (1, "gut"), (2, "gut"))
    assert not d.finished and d.to_move == 0
    run(d, (0, "gut"))
    assert d.finished and d.to_move is None
    assert d.legal_texts() == []
    assert illegal(d, 1, "kontra game") == "doubling_over"


def test_a_re_with_no_kontra_open_says_so() -> None:
    d = Doubling(DOPPEN, PARTIES, first=0, items={"game": 0})
    assert illegal(d, 0, "re game") == "nothing_to_answer"  # nobody said Kontra yet
    assert illegal(d, 0, "kontra game") == "own_side_doubles"
    run(d, (0, "gut"))
    assert illegal(d, 1, "re game") == "wrong_doubling_word"  # the other side says Kontra
    run(d, (1, "kontra game"), (2, "gut"), (0, "re game"), (1, "gut"), (2, "gut"))
    assert illegal(d, 0, "re game") == "nothing_to_answer"  # his Re is in: no Kontra open
    assert d.factor("game") == 4


def test_doppen_one_kontra_counts_for_both_opponents() -> None:
    d = run(Doubling(DOPPEN, PARTIES, first=0, items={"game": 0}), (0, "gut"), (1, "gut"))
    run(d, (2, "kontra game"))
    # One chain for the whole side: the factor is the same against each opponent.
    assert d.factor("game") == d.factor("game", 1) == d.factor("game", 2) == 2
    assert [c.callers for c in d.chains.values()] == [[2]]


def test_doppen_premiums_doubled_per_item_and_owner() -> None:
    # Bert (seat 1, opponent) announced Pagat before the round; Anna (declarer) announced Valat.
    d = Doubling(DOPPEN, PARTIES, first=0, items={"game": 0, "pagat": 1, "valat": 0})
    # The declarer may Kontra the opponents' Pagat, not his own game or Valat.
    assert d.legal_texts() == ["gut", "kontra pagat"]
    run(d, (0, "kontra pagat"))
    assert d.legal_texts() == ["gut", "kontra game", "kontra valat", "re pagat"]
    run(d, (1, "kontra valat"), (2, "re pagat"))
    assert (d.factor("game"), d.factor("pagat"), d.factor("valat")) == (1, 4, 2)
    assert illegal(d, 0, "kontra game") == "own_side_doubles"
    run(d, (0, "re valat"))
    assert d.factor("valat") == 4


def test_doppen_hand_premiums_are_not_doublable() -> None:
    # DP-A11: only game, Valat, Pagat and Uhu may be doubled.
    d = Doubling(DOPPEN, PARTIES, first=1, items={"game": 0, "trull": 1})
    assert d.legal_texts() == ["gut", "kontra game"]
    assert illegal(Doubling(DOPPEN, PARTIES, 0, {"trull": 1}), 0, "kontra trull") == (
        "not_doublable"
    )


def test_announcing_restarts_the_round() -> None:
    # The declarer starts; Uhu is announced by Clara in the second turn: the others answer.
    d = Doubling(DOPPEN, PARTIES, first=0, items={"game": 0})
    run(d, (0, "gut"), (1, "gut"))
    d.announce(2, "uhu")
    assert d.quiet == 0 and d.to_move == 0
    assert d.legal_texts() == ["gut", "kontra uhu"]
    run(d, (0, "gut"), (1, "gut"))
    assert not d.finished
    run(d, (2, "gut"))
    assert d.finished and d.factor("uhu") == 1
    with pytest.raises(IllegalActionError) as info:
        Doubling(DOPPEN, PARTIES, 0, {"game": 0}).announce(1, "uhu")
    assert info.value.code == "not_your_turn"
    twice = Doubling(DOPPEN, PARTIES, 0, {"game": 0, "uhu": 1})
    with pytest.raises(IllegalActionError) as info:
        twice.announce(0, "uhu")
    assert info.value.code == "item_twice"


# ---------------------------------------------------------------- Tarock zu dritt (TZ-A9)


def test_tarock_zu_dritt_caps_at_subkontra_and_ends_after_three_gut() -> None:
    # "'Kontra' (x2), 'Rekontra' (x4) und 'Subkontra' (x8) sind zulässig."
    # Phase III: "erst beendet, wenn … gutgeheissen wurden (= 3 x 'gut' nach letzter Ansage)".
    d = Doubling(TAROCK_ZU_DRITT, PARTIES, first=1, items={"game": 0})
    assert d.legal_texts() == ["gut", "kontra game"]
    assert illegal(d, 1, "rekontra game") == "wrong_doubling_word"
    run(d, (1, "kontra game"), (2, "gut"))
    assert illegal(d, 0, "kontra game") == "wrong_doubling_word"
    run(d, (0, "rekontra game"))
    assert d.legal_texts() == ["gut", "subkontra game"]
    run(d, (1, "gut"), (2, "subkontra game"))
    assert d.factor("game") == 8
    assert d.legal_texts() == ["gut"]
    assert illegal(d, 0, "rekontra game") == "chain_capped"
    run(d, (0, "gut"), (1, "gut"))
    assert not d.finished  # two "gut" after the Subkontra
    run(d, (2, "gut"))
    assert d.finished
    assert [text for _, text in d.calls] == [
        "kontra game",
        "gut",
        "rekontra game",
        "gut",
        "subkontra game",
        "gut",
        "gut",
        "gut",
    ]


def test_tarock_zu_dritt_game_and_premiums_separately() -> None:
    # "Spiel und Zusätze können getrennt kontriert werden"; the opponents may announce too.
    d = Doubling(TAROCK_ZU_DRITT, PARTIES, first=1, items={"game": 0, "koenige": 0})
    run(d, (1, "kontra koenige"), (2, "gut"))
    d.announce(0, "pagat")
    run(d, (1, "kontra pagat"))
    d.announce(2, "trull")  # an opponents' premium: the declarer doubles it
    assert d.legal_texts() == ["gut", "kontra trull", "rekontra koenige", "rekontra pagat"]
    run(d, (0, "kontra trull"), (1, "gut"), (2, "gut"), (0, "gut"))
    assert d.finished
    assert {c.item: c.factor for c in d.chains.values()} == {
        "game": 1,
        "koenige": 2,
        "pagat": 2,
        "trull": 2,
    }


def test_tarock_zu_dritt_negative_games_double_per_opponent() -> None:
    # "In Negativspielen kontriert jeder für sich": Bert's Kontra does not touch Clara.
    d = Doubling(TAROCK_ZU_DRITT_NEGATIVE, PARTIES, first=1, items={"game": 0})
    assert d.legal_texts() == ["gut", "kontra game@1"]
    run(d, (1, "kontra game"))  # the seat may be left out by the doubling opponent
    assert d.legal_texts() == ["gut", "kontra game@2"]
    assert illegal(d, 2, "kontra game@1") == "other_side_redoubles"  # Bert's chain: Re next
    clara_first = Doubling(TAROCK_ZU_DRITT_NEGATIVE, PARTIES, first=2, items={"game": 0})
    assert illegal(clara_first, 2, "kontra game@1") == "doubles_for_himself"
    run(d, (2, "gut"))
    assert d.legal_texts() == ["gut", "rekontra game@1"]
    run(d, (0, "rekontra game"))  # only one chain is open to the declarer
    assert (d.factor("game", 1), d.factor("game", 2)) == (4, 1)
    run(d, (1, "subkontra game@1"), (2, "kontra game@2"))
    assert d.legal_texts() == ["gut", "rekontra game@2"]
    assert illegal(d, 0, "rekontra game@1") == "chain_capped"
    run(d, (0, "rekontra game@2"), (1, "gut"), (2, "gut"), (0, "gut"))
    assert d.finished
    assert (d.factor("game", 1), d.factor("game", 2)) == (8, 4)
    assert [c.key for c in d.chains.values()] == [("game", 1), ("game", 2)]
    with pytest.raises(ValueError):
        d.factor("game")  # which opponent?


def test_per_opponent_declarer_must_name_the_opponent_when_two_chains_are_open() -> None:
    d = Doubling(TAROCK_ZU_DRITT_NEGATIVE, PARTIES, first=1, items={"game": 0})
    run(d, (1, "kontra game"), (2, "kontra game"))
    assert illegal(d, 0, "rekontra game") == "name_the_opponent"
    run(d, (0, "rekontra game@2"))
    assert (d.factor("game", 1), d.factor("game", 2)) == (2, 4)


def test_skoty_trophy_allows_a_single_kontra() -> None:
    d = Doubling(SKOTY_TROPHY, PARTIES, first=1, items={"game": 0})
    run(d, (1, "kontra game"), (2, "gut"))
    assert d.legal_texts() == ["gut"]
    assert illegal(d, 0, "kontra game") == "chain_capped"


# ------------------------------------------------------------------ Dreierles (DL-A8)


KNOCKS = DoublingRules(words=("knock", "knock"), cap=2, skip_idle=True)


def test_dreierles_knock_then_knock_back() -> None:
    # Anna (0) plays; Bert (1) bid, Clara (2) did not: only Bert may knock, Anna answers.
    d = Doubling(KNOCKS, PARTIES, first=1, items={"game": 0}, barred=frozenset({2}))
    assert d.to_move == 1 and d.legal_texts() == ["gut", "knock game"]
    run(d, (1, "knock game"))
    assert d.to_move == 0  # Clara is skipped: barred
    assert d.legal_texts() == ["gut", "knock game"]
    run(d, (0, "knock game"))
    assert d.finished and d.factor("game") == 4  # nobody can call anything more


def test_dreierles_no_knock_ends_without_asking_the_declarer() -> None:
    d = Doubling(KNOCKS, PARTIES, first=1, items={"game": 0})
    run(d, (1, "gut"), (2, "gut"))
    assert d.finished and d.factor("game") == 1
    assert Doubling(KNOCKS, PARTIES, first=1, items={"game": 0}, barred=frozenset({1, 2})).finished


def test_dreierles_one_opponent_knock_at_most() -> None:
    d = Doubling(KNOCKS, PARTIES, first=1, items={"game": 0})
    run(d, (1, "knock game"))
    assert d.to_move == 0  # Clara cannot knock again: she is skipped
    run(d, (0, "gut"))
    assert d.finished and d.factor("game") == 2


# ---------------------------------------------------------- Bayerisches Tarock (BT-A13)


def test_bayerisches_tarock_kontra_re_and_the_optional_steps() -> None:
    plain = DoublingRules(words=("kontra", "re"), cap=2)
    d = Doubling(plain, PARTIES, first=1, items={"game": 0})
    run(d, (1, "gut"), (2, "kontra game"), (0, "re game"))
    assert d.legal_texts() == ["gut"] and d.factor("game") == 4
    long = DoublingRules(words=("kontra", "re", "supp", "resupp", "hirsch"), cap=5)
    d = Doubling(long, PARTIES, first=1, items={"game": 0})
    run(d, (1, "kontra game"), (2, "gut"), (0, "re game"), (1, "supp game"))
    run(d, (2, "gut"), (0, "resupp game"), (1, "hirsch game"))
    assert d.factor("game") == 32 and d.legal_texts() == ["gut"]


# ---------------------------------------------------------------------- errors, view


def test_errors_have_stable_codes() -> None:
    d = Doubling(TAROCK_ZU_DRITT, PARTIES, first=1, items={"game": 0})
    assert illegal(d, 2, "kontra game") == "not_your_turn"
    assert illegal(d, 1, "kontra pagat") == "no_such_item"
    run(d, (1, "kontra game"))
    assert illegal(d, 2, "rekontra game") == "other_side_redoubles"
    for text in (
        "hopp game",
        "kontra",
        "kontra game x",
        "kontra game@x",
        "kontra @1",
        "gut game",
        "",
    ):
        with pytest.raises(MalformedError) as info:
            d.act(2, text)
        assert info.value.code == "malformed_doubling"
    plain = DoublingRules(words=("kontra", "re"), cap=2)
    barred = Doubling(plain, PARTIES, 1, {"game": 0}, barred=frozenset({1}))
    assert illegal(barred, 1, "kontra game") == "barred_from_doubling"


def test_items_belong_to_a_side_at_the_table() -> None:
    with pytest.raises(ValueError):
        Doubling(DOPPEN, PARTIES, first=0, items={"game": 2})
    for bad in ("", "Game", "game@1", "two words"):
        with pytest.raises(ValueError):
            Doubling(DOPPEN, PARTIES, first=0, items={bad: 0})


def test_rules_words_and_checks() -> None:
    assert [DOPPEN.word(k) for k in range(1, 7)] == ["kontra", "re"] * 3
    three = DoublingRules(words=("kontra", "rekontra", "subkontra"), cap=None)
    assert [three.word(k) for k in range(1, 7)] == [
        "kontra",
        "rekontra",
        "subkontra",
        "rekontra",
        "subkontra",
        "rekontra",
    ]
    for bad in (
        {"words": ("kontra",), "cap": None},
        {"words": (), "cap": 1},
        {"words": ("kontra",), "cap": 0},
        {"words": ("gut",), "cap": 1},
    ):
        with pytest.raises(ValueError):
            DoublingRules(**bad)


def test_view_is_public_and_complete() -> None:
    d = Doubling(TAROCK_ZU_DRITT, PARTIES, first=1, items={"game": 0, "pagat": 1})
    run(d, (1, "kontra game"), (2, "gut"), (0, "kontra pagat"))
    assert d.view() == {
        "to_move": 1,
        "quiet": 0,
        "chains": [
            {
                "item": "game",
                "owner": 0,
                "against": None,
                "level": 1,
                "word": "kontra",
                "factor": 2,
                "callers": [1],
            },
            {
                "item": "pagat",
                "owner": 1,
                "against": None,
                "level": 1,
                "word": "kontra",
                "factor": 2,
                "callers": [0],
            },
        ],
        "calls": [[1, "kontra game"], [2, "gut"], [0, "kontra pagat"]],
    }


# ------------------------------------------------- cross-check against Dreierles' Klopfen


@pytest.mark.parametrize("final_round", [False, True])
def test_dreierles_knocking_follows_the_same_chain(final_round: bool) -> None:
    # DL-A8: normal deals, only an opponent who bid may knock; the final round's Solo, only
    # an opponent who did not bid. One opponent knock, one knock back: a chain capped at 2.
    rules = get_rules("dreierles")
    seen = {0: 0, 1: 0, 2: 0}
    for i in range(300):
        rng = random.Random(f"knock:{final_round}:{i}")
        deal = rules.new_deal(rules.shuffle_and_deal(rng), {"final_round": final_round})
        assert isinstance(deal, DreierlesDeal)
        chain: Doubling | None = None
        while not deal.finished:
            if deal.phase in ("knock", "play") and chain is None and not deal.is_rauber:
                declarer = deal.declarer
                assert declarer is not None
                bid = {s for s in range(3) if deal.bids[s]}
                barred = {s for s in range(3) if (s in bid) == final_round and s != declarer}
                parties = tuple(0 if s == declarer else 1 for s in range(3))
                chain = Doubling(
                    KNOCKS, parties, declarer + 1, {"game": 0}, barred=frozenset(barred)
                )
            mover = deal.to_move
            seat, move = deal.random_action(rng)
            if deal.phase == "knock" and chain is not None:
                assert mover is not None and chain.to_move == mover
                theirs = sorted(deal.move_text(m) for m in deal.legal_moves())
                ours = sorted("pass" if x == "gut" else "knock" for x in chain.legal_texts())
                assert theirs == ours
                chain.act(mover, "gut" if deal.move_text(move) == "pass" else "knock game")
            deal.apply(move, seat)
            if deal.phase == "play" and chain is not None:
                assert chain.finished
                assert chain.factor("game") == 1 << len(deal.knocks)
        if chain is not None:
            seen[chain.level("game")] += 1
    assert all(seen.values()), seen


# ------------------------------------------------------------------------- move codec


@pytest.mark.parametrize(
    ("rules", "items"),
    [
        (DOPPEN, ["game", "pagat", "uhu", "valat"]),
        (TAROCK_ZU_DRITT, ["game", "pagat", "koenige"]),
        (TAROCK_ZU_DRITT_NEGATIVE, ["game"]),
    ],
)
def test_every_call_is_one_codec_move(rules: DoublingRules, items: list[str]) -> None:
    codec = MoveCodec(codec_verbs(rules, items, opponents=[1, 2]))
    rng = random.Random(f"codec:{rules.words}:{rules.per_opponent}")
    for _ in range(50):
        owners = {item: (0 if item in ("game", "valat") else rng.choice([0, 1])) for item in items}
        d = Doubling(rules, PARTIES, first=rng.randrange(3), items=owners)
        steps = 0
        while not d.finished and steps < 30:
            texts = d.legal_texts()
            for text in texts:
                assert codec.text(codec.parse(text)) == text
            seat = d.to_move
            assert seat is not None
            d.act(seat, rng.choice(texts))
            steps += 1
    assert codec.texts[0] == "gut"
    assert len(codec) == 1 + len(dict.fromkeys(rules.words)) * len(items) * (
        2 if rules.per_opponent else 1
    )
