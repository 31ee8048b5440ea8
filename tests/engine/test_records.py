"""Deal records: golden records replay exactly; loading is strict and names the position."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.engine.errors import RecordError
from server.engine.record import dump_record, load_record, parse_record_text
from server.engine.replay import replay_steps
from tests.engine.test_dreierles_scoring import card_value, whole_count

GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*/*.json"))


def golden(name: str, game: str = "dreierles") -> dict[str, Any]:
    path = next(p for p in GOLDEN if p.stem == name and p.parent.name == game)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def thirds_count(cards: list[str]) -> int:
    return 3 * sum(card_value(c) for c in cards) - 2 * len(cards)


def parse_thirds(text: str) -> int:
    """'35⅔' → 107 thirds."""
    rest = {"⅓": 1, "⅔": 2}.get(text[-1], 0)
    return 3 * int(text[:-1] if rest else text) + rest


def contracts_of(game: str) -> set[str]:
    return {json.loads(p.read_text())["outcome"]["contract"] for p in GOLDEN
            if p.parent.name == game}  # fmt: skip


def test_there_is_a_golden_record_for_every_contract() -> None:
    assert contracts_of("dreierles") == {"dreier", "zweier", "einer", "solo", "raeuber"}
    assert contracts_of("doppelkopf") == {
        "normal", "stille_hochzeit", "hochzeit", "armut", "schmeissen", "trumpf", "kreuz",
        "pik", "herz", "karo", "damen", "buben", "international", "fleischlos",
    }  # fmt: skip
    assert contracts_of("tarock-zu-dritt") == {
        "trischaken", "sechserdreier", "farbdreier", "dreier", "triccolo", "zwiccolo",
        "piccolo", "bettler", "farbenzweier", "zweier", "triccolo_semi", "zwiccolo_semi",
        "piccolo_semi", "bettel_semi", "farbeneiner", "einer", "triccolo_ouvert",
        "zwiccolo_ouvert", "piccolo_ouvert", "bettel_ouvert", "farbensolo", "solodreier",
    }  # fmt: skip
    assert contracts_of("bayerisches-tarock") == {
        "frage", "hand", "durch", "bettel", "hand_herz", "thrown_in",
    }  # fmt: skip
    assert contracts_of("doppen") == {None, "dreier", "unterer", "zweier", "einer", "solo"}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_record_replays_to_its_stored_outcome(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    deal = load_record(record)  # raises if the replayed outcome differs
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome == record["outcome"]
    assert sum(outcome["settlement"]) == 0
    assert dump_record(deal, stake_cents=record["stake_cents"]) == record
    recount = RECOUNTS.get(record["game"])  # a game without one has the checks above
    if recount is not None:
        recount(record, outcome)


def recount_doppelkopf(record: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Re's Augen counted from the tricks."""
    if outcome["tricks"]:
        pips = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
        re_augen = sum(pips[c.split(".")[0][1:]] for t in outcome["tricks"]
                       if t["winner"] in outcome["re"] for c in t["cards"])  # fmt: skip
        assert outcome["augen"]["re"] == re_augen


def recount_bayerisches_tarock(record: dict[str, Any], outcome: dict[str, Any]) -> None:
    """The declarer's Augen counted from the tricks and the Stock or the discards."""
    if outcome["declarer"] is not None:
        d = outcome["declarer"]
        augen = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2}
        pile = [c for t in outcome["tricks"] if t["winner"] == d for c in t["cards"]]
        pile += outcome["stock"] if outcome["hand"] else outcome["discards"]
        assert outcome["augen"]["declarer"] == sum(augen.get(c[1:], 0) for c in pile)


def declarer_pile(record: dict[str, Any], outcome: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The declarer's tricks' cards and the cards discarded (from the actions)."""
    d = outcome["declarer"]
    pile = [c for t in outcome["tricks"] if t["winner"] == d for c in t["cards"]]
    discards = [text.split()[1] for _s, text in record["actions"] if text.startswith("discard")]
    return pile, discards


def recount_doppen(record: dict[str, Any], outcome: dict[str, Any]) -> None:
    """The discards count for the declarer only if he takes a trick; a Valat is scored
    without counting."""
    if outcome["declarer"] is None or outcome["card_points"] is None:
        return
    pile, discards = declarer_pile(record, outcome)
    pile += discards if pile else []
    assert outcome["card_points"] == {"declarer": whole_count(pile),
                                      "opponents": 70 - whole_count(pile)}  # fmt: skip


def recount_tarock_zu_dritt(record: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Counted in thirds always (TZ-A6); its negative games count tricks, not points."""
    if outcome["declarer"] is None or outcome["card_points"] is None:
        return
    pile, discards = declarer_pile(record, outcome)
    assert parse_thirds(outcome["card_points"]["declarer"]) == thirds_count(pile + discards)


def recount_dreierles(record: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Counted in whole points or in thirds, as the room's option says."""
    if outcome["declarer"] is None:
        return
    pile, discards = declarer_pile(record, outcome)
    pile += discards
    if record["options"]["counting"] == "thirds":
        assert parse_thirds(outcome["card_points"]["declarer"]) == thirds_count(pile)
    else:
        assert outcome["card_points"]["declarer"] == str(whole_count(pile))


#: Each game's own recount of its golden records' card points, independent of the engine.
RECOUNTS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "doppelkopf": recount_doppelkopf,
    "bayerisches-tarock": recount_bayerisches_tarock,
    "doppen": recount_doppen,
    "tarock-zu-dritt": recount_tarock_zu_dritt,
    "dreierles": recount_dreierles,
}


def test_record_round_trip_through_json_text() -> None:
    record = golden("zweier")
    again = load_record(parse_record_text(json.dumps(record)))
    assert dump_record(again, stake_cents=10) == record


def expect_error(record: dict[str, Any], where: str, code: str) -> RecordError:
    with pytest.raises(RecordError) as err:
        load_record(record)
    assert err.value.where == where
    assert err.value.code == code
    return err.value


def test_unknown_card_is_named_by_position() -> None:
    record = golden("solo")
    record["hands"][1][4] = "HX"
    err = expect_error(record, "hands[1][4]", "unknown_card")
    assert "'HX' is not a card" in err.message


def test_duplicated_card_names_both_places() -> None:
    record = golden("solo")
    record["talon"][2] = record["hands"][0][0]
    err = expect_error(record, "talon[2]", "duplicate_card")
    assert "already dealt at hands[0][0]" in err.message


def test_wrong_number_of_cards() -> None:
    record = golden("solo")
    record["hands"][2] = record["hands"][2][:15]
    expect_error(record, "hands[2]", "wrong_card_count")


def test_illegal_action_names_its_index_and_the_rule() -> None:
    record = golden("solo")
    first_play = next(i for i, (_, t) in enumerate(record["actions"]) if t.startswith("play"))
    second = record["actions"][first_play + 1]
    # make the second player of trick 1 play a card of someone else's hand
    other = next(c for h in record["hands"] for c in h if c not in record["hands"][second[0]])
    record["actions"][first_play + 1] = [second[0], f"play {other}"]
    err = expect_error(
        record, f"actions[{first_play + 1}] ({second[0]}, 'play {other}')", "card_not_in_hand"
    )
    assert err.message.endswith(f"you do not hold {other}")


def test_action_by_the_wrong_seat() -> None:
    record = golden("solo")
    seat, text = record["actions"][0]
    record["actions"][0] = [(seat + 1) % 3, text]
    expect_error(record, f"actions[0] ({(seat + 1) % 3}, '{text}')", "not_your_turn")


def test_tampered_outcome_is_detected() -> None:
    record = golden("einer")
    record["outcome"]["settlement"][0] += 1
    expect_error(record, "outcome", "outcome_mismatch")


@pytest.mark.parametrize(
    ("change", "where", "code"),
    [
        (lambda r: r.pop("hands"), "hands", "missing_field"),
        (lambda r: r.update(extra=1), "extra", "unknown_field"),
        (lambda r: r.update(version=99), "version", "unsupported_version"),
        (lambda r: r.update(game="skat"), "game", "unknown_game"),
        (lambda r: r.update(options={"counting": "halves"}), "options", "bad_option"),
        (lambda r: r.update(options={"jokers": True}), "options", "unknown_option"),
        (lambda r: r.update(seats=["A", "B"]), "seats", "bad_seats"),
        (lambda r: r.update(dealer="Anna"), "dealer", "bad_dealer"),
        (lambda r: r.update(stake_cents=-1), "stake_cents", "bad_stake"),
        (lambda r: r["actions"].__setitem__(0, "pass"), "actions[0]", "malformed_action"),
        (lambda r: r["actions"].__setitem__(0, [7, "pass"]), "actions[0]", "bad_seat"),
        (lambda r: r.update(stood_in=[2, 1]), "stood_in", "bad_stood_in"),
        (lambda r: r.update(stood_in=[1, 1]), "stood_in", "bad_stood_in"),
        (lambda r: r.update(stood_in=[-1]), "stood_in", "bad_stood_in"),
        (lambda r: r.update(stood_in=[len(r["actions"])]), "stood_in", "bad_stood_in"),
        (lambda r: r.update(stood_in=[True]), "stood_in", "bad_stood_in"),
        (lambda r: r.update(stood_in="1"), "stood_in", "bad_stood_in"),
    ],
)
def test_malformed_records(change: Any, where: str, code: str) -> None:
    record = copy.deepcopy(golden("dreier"))
    change(record)
    expect_error(record, where, code)


def test_malformed_json_text_names_line_and_column() -> None:
    with pytest.raises(RecordError) as err:
        parse_record_text('{"format": "stammtisch-deal",\n "version": 1,,}')
    assert err.value.where == "line 2 column 15"
    assert err.value.code == "malformed_json"


def test_unfinished_record_loads_to_its_position() -> None:
    record = golden("dreier")
    del record["outcome"]
    record["actions"] = record["actions"][:10]
    deal = load_record(record)
    assert not deal.finished
    position = deal.position()
    assert position["to_move"] == deal.to_move
    assert position["legal_actions"] == deal.legal_texts()


def test_the_moves_a_standin_made_are_marked_in_the_replay_and_change_nothing_else() -> None:
    record = golden("dreier")
    plain = replay_steps(record)
    marked = replay_steps({**record, "stood_in": [0, 3]})
    assert plain["stood_in"] == [] and marked["stood_in"] == [1, 4]  # the replay's steps
    assert {**marked, "stood_in": []} == plain
    assert dump_record(load_record({**record, "stood_in": [0, 3]}), stake_cents=10) == record
