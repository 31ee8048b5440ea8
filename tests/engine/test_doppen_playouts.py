"""Random full Doppen deals with invariants, the views against ``hidden_from``, the
information-set oracle, the rules checked from outside on every random deal, and the
golden records (``tests/golden/doppen/``; the shared record tests replay them too).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from server.engine.cards import TAROCK
from server.engine.counting import PointCounter
from server.engine.games.doppen import Doppen, DoppenDeal
from server.engine.games.doppen.contracts import CONTRACTS
from server.engine.infoset import InfosetOracle
from server.engine.playout import PlayoutReport, check_finished, information_leaks, leaks
from server.engine.record import dump_record, load_record
from tests.engine.test_doppen_deals import D1, new_deal, play
from tests.engine.test_doppen_play import D4, D5

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "doppen"
COUNTER = PointCounter(TAROCK)
T1, T2 = TAROCK.parse("T1"), TAROCK.parse("T2")


def whole(cards: list[str]) -> int:
    """The rules text's count, written out: groups of three, sum minus 2; a remainder of
    one or two cards, sum minus 1."""
    values = [COUNTER.raw(1 << TAROCK.parse(c)) for c in cards]
    full, rest = divmod(len(values), 3)
    return sum(values) - 2 * full - (1 if rest else 0)


def random_deal(rng: random.Random, options: dict[str, object] | None = None,
                ) -> tuple[DoppenDeal, list[str]]:  # fmt: skip
    """A random deal played out, checking the views and the bird rules at every step."""
    rules = Doppen()
    deal = rules.new_deal(rules.shuffle_and_deal(rng), options)
    problems: list[str] = []
    while not deal.finished:
        problems.extend(leaks(deal))
        problems.extend(bird_rule_breaches(deal))
        seat, move = deal.random_action(rng)
        deal.apply(move, seat)
    problems.extend(leaks(deal))
    return deal, problems


def bird_rule_breaches(deal: DoppenDeal) -> list[str]:
    """The play rules of announced birds, checked from the legal cards alone."""
    play_ = deal.play
    seat = deal.to_move
    if play_ is None or seat is None:
        return []
    legal = play_.legal()
    problems = []
    for code, (card, target) in (("pagat", (T1, 15)), ("uhu", (T2, 14))):
        if deal.announced.get(code) != seat or not (legal >> card) & 1:
            continue
        birds = legal & ((1 << T1) | (1 << T2))
        if play_.number < target and legal != birds:
            problems.append(f"{code} playable in trick {play_.number} beside other cards")
        if code == "uhu" and play_.number == target and legal != 1 << card:
            problems.append("the announced Uhu is not the only card of the 15th trick")
    return problems


def check_outcome(deal: DoppenDeal) -> list[str]:
    """The scoring rules checked from the tricks and the outcome."""
    outcome = deal.outcome()
    assert outcome is not None
    problems: list[str] = []
    summary = Doppen().summarize(json.loads(json.dumps(outcome)))
    if outcome["thrown_in"]:
        if summary["declarer"] is not None or summary["card_points"] is not None:
            problems.append(f"summary {summary} of a thrown-in deal")
        return problems + ([] if outcome["settlement"] == [0, 0, 0] else ["thrown in, settled"])
    if summary["contract"] != outcome["contract"] or summary["declarer"] != outcome["declarer"]:
        problems.append(f"summary {summary}")
    row = CONTRACTS[outcome["contract"]]
    declarer = outcome["declarer"]
    points = outcome["card_points"]
    if points is not None:
        tricks = outcome["tricks"]
        pile = [c for t in tricks if t["winner"] == declarer for c in t["cards"]]
        if any(t["winner"] == declarer for t in tricks):
            pile += TAROCK.codes(deal.discards)
        if points["declarer"] != whole(pile) or points["declarer"] + points["opponents"] != 70:
            problems.append(f"card points {points} do not match the tricks")
        d = points["declarer"]
        expected = (10 + abs(d - 35)) * row.value * outcome["doublings"]["game"]
        if outcome["game_points"] != (expected if d > 35 else -expected):
            problems.append(f"game points {outcome['game_points']} for {d}")
    by_code = {p["code"]: p for p in outcome["premiums"]}
    last = outcome["tricks"][15] if len(outcome["tricks"]) == 16 else None
    if last is not None and "T1" in last["cards"] and "pagat" not in outcome["announced"]:
        player = (last["leader"] + last["cards"].index("T1")) % 3
        pagat = by_code.get("pagat")
        won = last["winner"] == player
        if pagat is None or pagat["won"] != won or pagat["points"] != 10 * row.premium_factor:
            problems.append(f"silent Pagat in the last trick judged {pagat}")
    if outcome["settlement"][declarer] != 2 * outcome["per_opponent"]:
        problems.append("the settlement is not the declarer against each opponent")
    return problems


def test_random_deals_keep_every_invariant() -> None:
    rng = random.Random(20261123)
    seen: dict[str, int] = {}
    covers = early = announced = 0
    for index in range(300):
        deal, problems = random_deal(rng)
        problems += check_finished(deal) + check_outcome(deal)
        assert problems == [], f"deal {index}: {problems}"
        outcome = deal.outcome()
        assert outcome is not None
        seen[str(outcome["contract"])] = seen.get(str(outcome["contract"]), 0) + 1
        covers += sum(1 for _s, text in deal.actions() if text.startswith("cover"))
        early += bool(outcome["ended_early"])
        announced += bool(outcome["announced"])
    assert set(seen) == {"None", *CONTRACTS}
    assert covers > 10 and early > 0 and announced > 30


def test_random_deals_without_the_table_signal() -> None:
    rng = random.Random(7)
    for _ in range(50):
        deal, problems = random_deal(rng, {"table_signal": False})
        assert problems + check_finished(deal) == []
        assert not any(text.startswith("cover") for _s, text in deal.actions())


def test_random_deals_through_the_information_set_oracle() -> None:
    report = PlayoutReport("doppen", 100, 11)
    for index in range(100):
        rng = random.Random(f"11:{index}")
        deal, _ = random_deal(rng)
        assert information_leaks(deal, random.Random(f"11:{index}:infoset"), report) == []
    assert report.alternatives >= 100 * 10
    assert report.comparisons >= 10 * report.alternatives


# --------------------------------------------------------------------------- golden records


def golden_deals() -> dict[str, DoppenDeal]:
    """The scenario deals the golden records hold."""
    bird_solo = play(new_deal(D4), "bid solo", "pass", "pass",
                     "announce pagat", "gut", "gut", "announce uhu", "gut", "gut",
                     "announce valat", "gut", "gut", "gut")  # fmt: skip
    while not bird_solo.finished:
        legal = bird_solo.legal_moves()
        high = [m for m in legal if m not in (T1, T2)] or legal
        bird_solo.apply(max(high, key=lambda m: (TAROCK.cards[m].suit == "T", m)))
    covered = play(new_deal(D1), "bid dreier", "bid unterer", "pass", "hold", "pass",
                   "take upper", "discard KrC", "discard KrB", "discard Kr10",
                   "announce pagat", "kontra game", "gut", "re game", "gut", "gut", "gut",
                   "play T3")  # fmt: skip
    covered.act(2, "cover SK")
    while not covered.finished:
        covered.apply(covered.legal_moves()[0])
    thrown = play(new_deal(D1), "pass", "pass", "pass")
    dreier = play(new_deal(D1), "bid dreier", "pass", "pass", "take lower",
                  "discard HD", "discard PD", "discard Kr7",
                  "gut", "kontra game", "gut", "gut", "gut")  # fmt: skip
    zweier = play(new_deal(D5), "bid zweier", "pass", "pass", "take middle",
                  "discard HB", "discard PB", "gut", "gut", "gut")  # fmt: skip
    einer = play(new_deal(D1), "bid einer", "pass", "pass", "take Kr10", "discard HB",
                 "gut", "gut", "gut")  # fmt: skip
    for deal in (dreier, zweier, einer):
        while not deal.finished:
            deal.apply(deal.legal_moves()[0])
    return {
        "solo-birds-valat": bird_solo,
        "unterer-covered": covered,
        "thrown-in": thrown,
        "dreier-lower-kontra": dreier,
        "zweier-middle-pair": zweier,
        "einer-one-card": einer,
    }


@pytest.mark.parametrize("name", sorted(golden_deals()))
def test_golden_record_replays_to_its_stored_outcome(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    deal = load_record(record)  # raises if the replayed outcome differs
    assert deal.outcome() == record["outcome"]
    assert dump_record(golden_deals()[name]) == record
    assert InfosetOracle.of(deal).check(random.Random(name), swaps=6, shuffles=2, choices=3) == []


def test_the_golden_records_say_what_happened() -> None:
    deals = golden_deals()
    solo = deals["solo-birds-valat"].outcome()
    assert solo is not None and solo["settlement"] == [1200, -600, -600]
    unterer = deals["unterer-covered"]
    outcome = unterer.outcome()
    assert outcome is not None
    assert (outcome["contract"], outcome["declarer"]) == ("unterer", 0)
    assert outcome["tricks"][0] == {"leader": 0, "cards": ["T3", "T11", "SK"], "winner": 2}
    assert outcome["doublings"]["game"] == 4
    assert deals["thrown-in"].outcome() == {**(deals["thrown-in"].outcome() or {}),
                                            "thrown_in": True}  # fmt: skip


if __name__ == "__main__":  # pragma: no cover - writes the golden records
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for stem, one in golden_deals().items():
        text = json.dumps(dump_record(one), ensure_ascii=False, indent=1) + "\n"
        (GOLDEN / f"{stem}.json").write_text(text, encoding="utf-8")


def test_view_parts_merge_into_the_view_and_share_one_object_per_position() -> None:
    rules = Doppen()
    rng = random.Random(11)
    positions = 0
    for _ in range(20):
        deal = rules.new_deal(rules.shuffle_and_deal(rng))
        while True:
            shared_parts = []
            for viewer in (0, 1, 2, None):
                shared, own = deal.view_parts(viewer)
                assert not set(shared) & set(own)
                assert {**shared, **own} == deal.view(viewer)
                assert own["seat"] == viewer
                shared_parts.append(shared)
            assert all(part is shared_parts[0] for part in shared_parts)
            positions += 1
            if deal.finished:
                break
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
    assert positions > 20 * 30
