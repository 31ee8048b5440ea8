"""The replay of a deal record: every position with every hand, the tricks, the card points."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from server.engine.cards import TAROCK
from server.engine.errors import RecordError
from server.engine.record import dump_record, load_record
from server.engine.registry import get_rules
from server.engine.replay import replay_steps
from tests.engine import doppelkopf_deals as dk
from tests.engine import dreierles_deals as dl

GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*/*.json"))


def golden(name: str, game: str = "dreierles") -> dict[str, Any]:
    path = next(p for p in GOLDEN if p.stem == name and p.parent.name == game)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def codes(text: str) -> list[str]:
    """Tarock cards in pack order, as the Dreierles table and replay hold them."""
    return TAROCK.codes(TAROCK.mask(text))


# ---------------------------------------------------------------- a golden Einer, step by step


def test_a_golden_einer_walked_through_with_exact_hands_tricks_and_points() -> None:
    record = golden("einer")
    replay = replay_steps(record)
    steps = replay["steps"]
    assert [s["index"] for s in steps] == list(range(len(record["actions"]) + 1))
    assert (replay["game"], replay["game_title"]) == ("dreierles", "Dreierles")
    assert replay["seats"] == ["Anna", "Bernd", "Catrin"] and replay["dealer"] == "Catrin"
    assert replay["stake_cents"] == 10 and replay["options"] == record["options"]

    dealt = [codes(" ".join(h)) for h in record["hands"]]
    first = steps[0]
    assert (first["actor"], first["action"], first["phase"], first["to_move"]) == (
        None, None, "auction", 0
    )  # fmt: skip
    assert first["hands"] == dealt
    assert first["talon"] == ["T16", "H4", "T10", "SK", "T5", "T7"]  # top first, all six
    assert first["card_points"] == ["0", "0", "0"] and first["party_points"] is None
    assert first["trick_number"] == 0 and first["last_trick"] is None

    # Bernd bids Einer: he takes the top card of the blind (T16), the rest stays there
    after_auction = steps[3]
    assert (after_auction["actor"], after_auction["action"]) == (2, "pass")
    assert after_auction["phase"] == "discard" and after_auction["to_move"] == 1
    assert after_auction["hands"][1] == codes(" ".join(record["hands"][1]) + " T16")
    assert after_auction["talon"] == ["H4", "T10", "SK", "T5", "T7"]
    assert after_auction["public"]["contract"] == "einer"
    assert after_auction["public"]["talon_taken"] == ["T16"]

    # he lays KrB away (it counts for him) and says fertig; he leads
    discarded = steps[4]
    assert "KrB" not in discarded["hands"][1] and len(discarded["hands"][1]) == 16
    assert discarded["replay"]["discards"] == ["KrB"]
    assert discarded["party_points"] == {"declarer": "1", "opponents": "6"}  # KrB; blind rest
    assert steps[5]["phase"] == "play" and steps[5]["to_move"] == 1
    assert steps[5]["trick_number"] == 1

    # trick 1: PK PD PC, Bernd's king wins 12 − 2 = 10 points
    assert steps[6]["trick"] == {"leader": 1, "cards": ["PK"], "winner": None}
    assert steps[6]["hands"][1] == [c for c in discarded["hands"][1] if c != "PK"]
    assert steps[7]["trick"]["cards"] == ["PK", "PD"] and steps[7]["trick_number"] == 1
    trick_1 = steps[8]
    assert trick_1["trick"]["cards"] == [] and trick_1["trick_number"] == 1
    assert trick_1["last_trick"] == {"leader": 1, "cards": ["PK", "PD", "PC"], "winner": 1}
    assert trick_1["tricks_won"] == [0, 1, 0] and trick_1["card_points"] == ["0", "10", "0"]
    assert trick_1["hands"] == [
        [c for c in dealt[0] if c != "PC"],
        [c for c in discarded["hands"][1] if c != "PK"],
        [c for c in dealt[2] if c != "PD"],
    ]
    # trick 2: KaK T11 Ka2 to Catrin (7 − 2 = 5); trick 3: P10 T18 P7 to Anna (3 − 2 = 1)
    assert steps[11]["last_trick"]["winner"] == 2 and steps[11]["card_points"] == ["0", "10", "5"]
    assert steps[14]["last_trick"]["winner"] == 0 and steps[14]["card_points"] == ["1", "10", "5"]
    assert steps[14]["trick_number"] == 3 and steps[15]["trick_number"] == 4

    outcome = record["outcome"]
    assert replay["outcome"] == outcome
    assert [(t["number"], t["leader"], t["cards"], t["winner"]) for t in replay["tricks"]] == [
        (i + 1, t["leader"], t["cards"], t["winner"]) for i, t in enumerate(outcome["tricks"])
    ]
    assert [t["step"] for t in replay["tricks"][:3]] == [8, 11, 14]
    last = steps[-1]
    assert last["phase"] == "finished" and last["to_move"] is None
    assert last["hands"] == [[], [], []] and last["trick_number"] == 16
    assert last["party_points"] == outcome["card_points"] == {"declarer": "40", "opponents": "30"}
    assert last["public"]["outcome"] == outcome


# ---------------------------------------------------------------- hand-built deals


def test_a_hand_built_dreierles_deal_shows_the_declarers_hand_after_the_exchange() -> None:
    deal = dl.play(dl.new_deal(), "bid zweier", "pass", "pass", "discard KrC")
    replay = replay_steps(dump_record(deal))
    steps = replay["steps"]
    # Anna takes KrC KrB (the top two), lays KrC away again; Bernd and Catrin see the rest
    assert steps[3]["hands"][0] == codes(dl.D1[0] + " KrC KrB")
    assert steps[3]["talon"] == ["Kr10", "Kr9", "Kr8", "Kr7"]
    assert steps[4]["hands"] == [codes(dl.D1[0] + " KrB"), codes(dl.D1[1]), codes(dl.D1[2])]
    assert steps[4]["phase"] == "discard" and steps[4]["to_move"] == 0
    assert steps[4]["replay"]["discards"] == ["KrC"]
    assert replay["outcome"] is None and replay["tricks"] == []


def test_a_raeuber_counts_every_pile_for_itself() -> None:
    record = golden("raeuber")
    last = replay_steps(record)["steps"][-1]
    outcome = record["outcome"]
    assert last["card_points"] == outcome["card_points"]["seats"]
    assert last["party_points"] == outcome["card_points"]
    assert last["talon"] == record["talon"]  # nobody took the blind


def test_a_doppelkopf_deal_shows_every_hand_sorted_as_players_hold_it() -> None:
    deal = dk.play(dk.new_deal(), *dk.ALL_GESUND)
    first = replay_steps(dump_record(deal))["steps"][0]
    assert first["hands"][0] == [
        "H10.1", "CQ.1", "CQ.2", "DA.1", "DA.2", "CA.1", "CA.2", "C10.1", "SA.1", "HA.1",
        "HK.1", "H9.1",
    ]  # fmt: skip
    assert first["hands"][3] == [
        "HJ.1", "HJ.2", "DJ.1", "DJ.2", "DK.2", "D9.1", "D9.2", "C9.2", "SK.1", "SK.2",
        "S9.1", "S9.2",
    ]  # fmt: skip
    assert first["talon"] == [] and first["party_points"] is None
    assert first["replay"]["parties"] == [None] * 4


def test_a_damensolo_sorts_the_hands_by_the_solos_trumps() -> None:
    deal = dk.play(dk.new_deal(), "gesund", "solo damen", "gesund", "gesund")
    step = replay_steps(dump_record(deal))["steps"][4]
    assert step["public"]["contract"] == "damen" and step["public"]["declarer"] == 1
    assert step["hands"][0] == [
        "CQ.1", "CQ.2", "CA.1", "CA.2", "C10.1", "SA.1", "HA.1", "H10.1", "HK.1", "H9.1",
        "DA.1", "DA.2",
    ]  # fmt: skip
    assert step["replay"]["parties"] == ["kontra", "re", "kontra", "kontra"]
    assert step["replay"]["reservations"] == ["gesund", "solo damen", "gesund", "gesund"]
    assert step["party_points"] == {"re": 0, "kontra": 0}


# ---------------------------------------------------------------- every golden record


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_position_of_a_golden_record(path: Path) -> None:
    """Each step is exactly the position after its actions (checked against a fresh load of
    the record cut there); every card is somewhere once; the tricks and the final card
    points are the outcome's."""
    record = json.loads(path.read_text(encoding="utf-8"))
    replay = replay_steps(record)
    steps = replay["steps"]
    outcome = record["outcome"]
    rules = get_rules(record["game"])
    pack = rules.pack
    assert len(steps) == len(record["actions"]) + 1
    for i, step in enumerate(steps):
        cut = {**record, "actions": record["actions"][:i]}
        del cut["outcome"]
        deal = load_record(cut)
        state = json.loads(json.dumps(deal.replay_state()))
        assert step["hands"] == state["hands"] and step["talon"] == state["talon"]
        assert step["public"] == json.loads(json.dumps(deal.view(None)))
        assert (step["phase"], step["to_move"]) == (deal.phase, deal.to_move)
        if i:
            assert [step["actor"], step["action"]] == record["actions"][i - 1]
        assert [len(h) for h in step["hands"]] == step["public"]["hand_sizes"]
        if record["game"] == "doppelkopf" and step["party_points"] is not None:
            re = {s for s, p in enumerate(step["replay"]["parties"]) if p == "re"}
            assert step["party_points"]["re"] == sum(
                int(p) for s, p in enumerate(step["card_points"]) if s in re
            )
        seen = [c for hand in step["hands"] for c in hand] + step["trick"]["cards"]
        assert len(seen) == len(set(seen))  # no card in two places
    assert replay["outcome"] == outcome
    assert [{k: t[k] for k in ("leader", "cards", "winner")} for t in replay["tricks"]] == (
        outcome["tricks"]
    )
    for trick in replay["tricks"]:
        assert steps[trick["step"]]["last_trick"]["winner"] == trick["winner"]
        assert steps[trick["step"]]["trick_number"] == trick["number"]
    last = steps[-1]
    # the running count of the last step is the outcome's where it counts card points (as
    # texts: "35⅓", or 59 Augen); a Valat or a negative game is scored without them
    counted = outcome.get("card_points") or outcome.get("augen")
    if counted is not None:
        assert _texts(last["party_points"]) == _texts(counted), (last["party_points"], counted)
    if record["game"] == "doppelkopf" and not outcome.get("thrown_in"):
        assert sum(int(p) for p in last["card_points"]) == 240
    assert all(c in {card.code for card in pack.cards} for h in steps[0]["hands"] for c in h)


def _texts(value: Any) -> Any:
    """``value`` with every number written as text (the games count in thirds, as
    "35⅓", or in whole Augen)."""
    if isinstance(value, dict):
        return {k: _texts(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_texts(v) for v in value]
    return value if value is None or isinstance(value, str) else str(value)


def test_replaying_is_deterministic_and_survives_a_round_trip() -> None:
    for name, game in (("worked-example", "dreierles"), ("hochzeit", "doppelkopf")):
        record = golden(name, game)
        first = replay_steps(record)
        assert replay_steps(copy.deepcopy(record)) == first
        again = dump_record(load_record(record), stake_cents=record["stake_cents"])
        assert replay_steps(again) == first
        assert json.loads(json.dumps(first)) == first  # plain JSON throughout


def test_a_tampered_record_is_refused_with_its_position() -> None:
    record = golden("einer")
    record["actions"][7] = [0, "play Kr10"]  # Anna must follow Pik with PC
    with pytest.raises(RecordError) as raised:
        replay_steps(record)
    assert raised.value.where == "actions[7] (0, 'play Kr10')"
    changed = golden("einer")
    changed["outcome"]["settlement"] = [0, 0, 0]
    with pytest.raises(RecordError) as raised:
        replay_steps(changed)
    assert raised.value.code == "outcome_mismatch"


def test_summaries_of_outcomes_for_the_statistics() -> None:
    einer = golden("einer")["outcome"]
    assert get_rules("dreierles").summarize(einer) == {
        "contract": "einer", "declarer": 1, "declarer_won": True, "solo": False,
        "card_points": [30.0, 40.0, 30.0],
    }  # fmt: skip
    thirds = golden("thirds-dreier")["outcome"]
    summary = get_rules("dreierles").summarize(thirds)
    declarer = summary["declarer"]
    opponent = (declarer + 1) % 3
    assert summary["card_points"][declarer] + summary["card_points"][opponent] == pytest.approx(70)
    assert summary["card_points"][opponent] == summary["card_points"][(declarer + 2) % 3]
    raeuber = get_rules("dreierles").summarize(golden("raeuber")["outcome"])
    assert raeuber["declarer"] is None and raeuber["declarer_won"] is None
    damen = golden("damen", "doppelkopf")["outcome"]
    summary = get_rules("doppelkopf").summarize(damen)
    assert summary["solo"] and summary["declarer"] == damen["declarer"]
    assert summary["declarer_won"] == (damen["winner"] == "re")
    assert summary["card_points"][damen["declarer"]] == damen["augen"]["re"]
    thrown = get_rules("doppelkopf").summarize(golden("schmeissen", "doppelkopf")["outcome"])
    assert thrown["declarer"] is None and thrown["card_points"] == [None] * 4
