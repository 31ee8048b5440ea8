"""``stammtisch verify``: a match record dealt by the fair shuffle checks, a tampered one
(a swapped card, a changed seed) fails with a message naming the deal."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.engine.fair import FairChain, FairMatch
from server.engine.fair_check import FairCheckError, verify_match
from server.engine.record import dump_record
from server.engine.registry import get_rules, new_match, playable

PLAYERS = ["Anna", "Bernd", "Catrin"]


def fair_match_record(game: str = "dreierles", deals: int = 3, seed: int = 1) -> dict[str, Any]:
    """A match record as the archive writes it, dealt from a fixed chain and played at random."""
    rng = random.Random(seed)
    players = [*PLAYERS, "Dora"] if game == "doppelkopf" else list(PLAYERS)
    own = (bytes([7]) * 32, b"", bytes([9]) * 32, bytes([5]) * 32)[: len(players)]
    fair = FairMatch(FairChain(bytes([seed]) * 32, 10), own)
    config = {"options": {}, "stake_cents": 10, "rounds": 4, "timer_seconds": None,
              "first_dealer": 0}  # fmt: skip
    match = new_match(game, players, config)
    rules = get_rules(game)
    records = []
    for number in range(1, deals + 1):
        seed_n = fair.seed(number)
        assert seed_n is not None
        deal = match.start_deal(rules.fair_deal(seed_n, fair.player_seeds))
        while not deal.finished:
            who, move = deal.random_action(rng)
            deal.apply(move, who)
        match.record(deal)
        records.append(json.loads(json.dumps(dump_record(deal, stake_cents=10))))
    return {"format": "stammtisch-match", "version": 1, "game": game, "players": players,
            "config": config, "deals": records, "ledger": [], "settlement": None,
            "fair": fair.record(deals)}  # fmt: skip


def test_a_fair_record_checks() -> None:
    report = verify_match(fair_match_record())
    assert (report.checked, report.uncovered, report.players_with_seeds) == (3, 0, 2)


def test_a_swapped_card_fails_naming_the_deal() -> None:
    record = fair_match_record()
    hands = record["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    with pytest.raises(FairCheckError, match=r"^deal 2: the hand of seat 0 \(\w+\) is not"):
        verify_match(record)


def test_a_swapped_talon_card_fails() -> None:
    record = fair_match_record()
    talon = record["deals"][2]["talon"]
    talon[0], talon[1] = talon[1], talon[0]
    with pytest.raises(FairCheckError, match=r"^deal 3: the talon is not"):
        verify_match(record)


def test_a_changed_seed_fails_naming_the_deal() -> None:
    record = fair_match_record()
    seed = record["fair"]["seeds"][1]
    record["fair"]["seeds"][1] = ("0" if seed[0] != "0" else "1") + seed[1:]
    with pytest.raises(
        FairCheckError, match=r"^deal 2: its seed does not hash to the seed of deal 1"
    ):
        verify_match(record)


def test_a_changed_commitment_or_player_seed_fails() -> None:
    record = fair_match_record()
    record["fair"]["commitment"] = "00" * 32
    with pytest.raises(FairCheckError, match=r"^deal 1: its seed does not hash to the commitment"):
        verify_match(record)
    record = fair_match_record()
    record["fair"]["player_seeds"][1] = "ab" * 32  # a seed the deal did not use
    with pytest.raises(FairCheckError, match=r"^deal 1: the hand"):
        verify_match(record)


def test_a_record_without_all_seeds_fails() -> None:
    record = fair_match_record()
    del record["fair"]["seeds"][-1]
    with pytest.raises(FairCheckError, match="2 seeds for 3 deals"):
        verify_match(record)
    record = fair_match_record()
    del record["fair"]
    with pytest.raises(FairCheckError, match="no fair shuffling"):
        verify_match(record)


@pytest.mark.parametrize("game", playable())
def test_every_game_deals_by_its_own_rules(game: str) -> None:
    record = fair_match_record(game, deals=2, seed=3)
    assert verify_match(record).checked == 2
    record["players"].append("Emil")  # a seed more than the deals were shuffled with
    record["fair"]["player_seeds"].append("")
    with pytest.raises(FairCheckError, match=r"^deal 1: the (hand|talon)"):
        verify_match(record)


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "match.json"
    good.write_text(json.dumps(fair_match_record()), encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    assert "3 deals dealt from the published chain" in capsys.readouterr().out

    tampered = fair_match_record()
    bad_record = copy.deepcopy(tampered)
    hands = bad_record["deals"][0]["hands"]
    hands[1][2], hands[2][2] = hands[2][2], hands[1][2]
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(bad_record), encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "NOT fair: deal 1: the hand of seat 1" in err

    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    assert main(["verify", str(tmp_path / "junk.json")]) == 2
