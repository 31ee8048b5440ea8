"""Doppelkopf scenarios: state after these actions → exact legal actions, winners, views.

Expectations are worked out by hand from doppelkopf.txt and the DK rows of DECISIONS.md
for the deals in ``doppelkopf_deals.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from server.api.i18n import load_catalogs
from server.engine.base import JSON, CardPlayDeal
from server.engine.cards import DOPPELKOPF
from server.engine.errors import IllegalActionError, RecordError
from server.engine.games.doppelkopf import Doppelkopf, DoppelkopfDeal
from server.engine.games.doppelkopf.contracts import CONTRACTS
from server.engine.games.doppelkopf.scoring import extra_points, legacy_lines, score
from server.engine.record import dump_record, load_record
from tests.engine.doppelkopf_deals import ALL_GESUND, A, D, new_deal, play
from tests.engine.positions import random_positions

SOLO_TEXTS = [
    "solo trumpf", "solo kreuz", "solo pik", "solo herz", "solo karo", "solo damen",
    "solo buben", "solo international", "solo fleischlos",
]  # fmt: skip


# ---------------------------------------------------------------- worked examples


def test_example_re_knocked_fuchs_doppelkopf() -> None:
    """Re knocked, caught a Fuchs, made a Doppelkopf and 131 Augen: six points."""
    result = score(131, 7, 5, knocks=1, extras={"re": 2})
    assert (result.winner, result.value) == ("re", 6)


def test_example_kontra_knocked_unter_90() -> None:
    """Kontra knocked and said unter 90, caught a Herz 10, 163 Augen; Re has a Doppelkopf."""
    result = score(77, 3, 9, knocks=1, announced={"kontra": 1}, extras={"kontra": 1, "re": 1})
    assert (result.winner, result.value) == ("kontra", 8)


def test_example_kontra_misses_its_announcement() -> None:
    """The same with 134 Augen for Kontra: Re wins with 106 Augen, eight points."""
    result = score(106, 5, 7, knocks=1, announced={"kontra": 1}, extras={"kontra": 1, "re": 1})
    assert (result.winner, result.value) == ("re", 8)


def test_example_loser_surplus_not_written_down() -> None:
    """Re 135 wins one point; Kontra's two extra points are more: nothing is written."""
    result = score(135, 7, 5, extras={"kontra": 2})
    assert (result.winner, result.value) == ("re", 0)
    assert result.lines == [
        {"code": "won", "announced": False, "points": 1},
        {"code": "extras", "party": "kontra", "points": -2},
        {"code": "not_written", "points": 1},
    ]


@pytest.mark.parametrize(
    ("re_augen", "re_tricks", "announced", "winner", "value"),
    [
        (121, 6, {}, "re", 1),
        (120, 6, {}, "kontra", 1),  # Kontra wins with 120
        (181, 9, {}, "re", 3),  # Kontra 59: unter 90 and unter 60
        (240, 12, {}, "re", 5),  # schwarz: Kontra took no trick
        (240, 11, {}, "re", 4),  # a trick without Augen is not schwarz (DK-A10)
        (160, 8, {"re": 1}, "re", 4),  # Re said unter 90 and Kontra has 80: made
        (140, 7, {"re": 1}, "kontra", 4),  # Kontra has 100: Re missed, Kontra wins
        (140, 7, {"re": 1, "kontra": 1}, None, 0),  # both missed (DK-A9)
        (200, 10, {"re": 2}, "re", 6),  # unter 60 made: 120, 90, 60 announced = 2 each
    ],
)
def test_levels_and_announcements(
    re_augen: int, re_tricks: int, announced: dict[str, int], winner: str | None, value: int
) -> None:
    result = score(re_augen, re_tricks, 12 - re_tricks, announced=announced)
    assert (result.winner, result.value) == (winner, value)


# ---------------------------------------------------------------- Vorbehalte


def test_vorbehalt_offers_what_the_hand_allows() -> None:
    deal = new_deal()
    hochzeit = [f"hochzeit {k}" for k in ("erster", "herz", "pik", "kreuz", "trumpf")]
    assert deal.legal_texts() == ["gesund", *SOLO_TEXTS, *hochzeit]  # both Kreuz Damen
    play(deal, "gesund", "gesund", "gesund")
    assert deal.legal_texts() == ["gesund", *SOLO_TEXTS, "schmeissen"]  # five Neunen
    armut = new_deal(A)
    assert "armut" in armut.legal_texts()  # three trumps


def test_solo_beats_schmeissen_beats_hochzeit_and_stays_secret() -> None:
    deal = play(new_deal(), "hochzeit erster", "solo damen", "gesund", "schmeissen")
    assert (deal.contract, deal.declarer, deal.phase, deal.to_move) == ("damen", 1, "play", 1)
    assert deal.view(2)["reservations"] == ["vorbehalt", "vorbehalt", "gesund", "vorbehalt"]
    assert deal.view(0)["reservations"][0] == "hochzeit erster"
    assert deal.view(2)["parties"] == ["kontra", "re", "kontra", "kontra"]
    assert deal.view(2)["contract"] == "damen"
    assert "contract_title" not in deal.view(2)  # the catalogues name the contract


def test_two_solos_the_seat_nearer_the_dealers_left_plays() -> None:
    deal = play(new_deal(), "gesund", "solo buben", "solo damen", "gesund")
    assert (deal.contract, deal.declarer) == ("buben", 1)


def test_schmeissen_throws_the_deal_in() -> None:
    deal = play(new_deal(), "hochzeit erster", "gesund", "gesund", "schmeissen")
    assert deal.finished and deal.thrown_in == "schmeissen"
    outcome = deal.outcome()
    assert outcome is not None and outcome["settlement"] == [0, 0, 0, 0]


def test_stille_hochzeit_is_secret_and_scored_alone() -> None:
    deal = play(new_deal(), *ALL_GESUND)
    assert (deal.contract, deal.declarer, deal.to_move) == ("stille_hochzeit", 0, 0)
    assert deal.view(1)["contract"] == "normal"
    assert deal.view(1)["parties"] == [None, "kontra", None, None]
    assert deal.view(0)["contract"] == "stille_hochzeit"
    assert deal.view(0)["parties"] == ["re", None, None, None]
    assert deal.solo_scored


# ---------------------------------------------------------------- Hochzeit (DK-A19)


def test_hochzeit_partner_is_the_winner_of_the_first_foreign_trick() -> None:
    deal = play(new_deal(), "hochzeit erster", "gesund", "gesund", "gesund", "play H9")
    assert deal.legal_texts() == ["play HA", "play H9", "knock"]  # Herz 10 is trump
    play(deal, "play HA", "play HK", "play S9")
    assert deal.partner == 1
    assert deal.view(3)["parties"] == ["re", "re", "kontra", "kontra"]


def test_hochzeit_without_a_fitting_trick_in_three_is_played_alone() -> None:
    deal = play(new_deal(), "hochzeit pik", "gesund", "gesund", "gesund")
    play(deal, "play H9", "play HA", "play HK", "play S9")  # Herz trick to P2: not Pik
    play(deal, "play CK", "play C9", "play C9", "play CA")  # Kreuz trick to P1
    assert deal.view(3)["parties"] == ["re", None, None, None]
    play(deal, "play HK", "play H9", "play DK", "play S9")  # Herz trick to P3
    assert deal.partner is None and deal.solo_scored
    assert deal.view(3)["parties"] == ["re", "kontra", "kontra", "kontra"]


# ---------------------------------------------------------------- Armut (DK-A18)


def test_armut_push_take_and_return() -> None:
    deal = play(new_deal(A), "armut", "gesund", "gesund", "gesund")
    assert (deal.phase, deal.to_move) == ("push", 0)
    assert deal.legal_texts() == ["push CQ", "push H10"]  # all trumps must go
    with pytest.raises(IllegalActionError) as err:
        deal.act(0, "push CA")
    assert err.value.code == "armut_trumps"
    play(deal, "push CQ", "push CQ", "push H10")
    assert (deal.phase, deal.to_move, deal.legal_texts()) == ("offer", 1, ["take", "pass"])
    play(deal, "pass", "take")
    assert (deal.phase, deal.to_move, deal.partner) == ("return", 2, 2)
    assert "CQ.1" in deal.view(2)["hand"] and len(deal.view(2)["hand"]) == 15
    play(deal, "return C9", "return HK", "return SA")
    assert (deal.phase, deal.to_move) == ("play", 0)
    assert deal.view(0)["hand"].count("SA.1") + deal.view(0)["hand"].count("SA.2") == 2
    assert deal.view(3)["parties"] == ["re", "kontra", "re", "kontra"]
    assert deal.view(1)["armut"] == {"pushed": 3, "returned": 3}
    assert deal.view(0)["armut"]["pushed"] == ["CQ.1", "CQ.2", "H10.1"]


def test_armut_nobody_takes_is_thrown_in() -> None:
    deal = play(new_deal(A), "armut", *("gesund",) * 3, "push CQ", "push CQ", "push H10")
    play(deal, "pass", "pass", "pass")
    assert deal.finished and deal.thrown_in == "armut"


# ---------------------------------------------------------------- Klopfen, Schweinchen


def test_schweinchen_needs_the_knock() -> None:
    deal = play(new_deal(), *ALL_GESUND)
    assert deal.legal_texts()[-1] == "knock"
    play(deal, "0: knock", "play DA", "play H10", "play DQ", "play D9")
    assert deal.schweinchen == 0 and deal.tricks[0][2] == 0  # Schweinchen over the Dulle
    assert deal.view(2)["schweinchen"] == 0
    plain = play(new_deal(), *ALL_GESUND, "play DA", "play H10", "play DQ", "play D9")
    assert plain.schweinchen is None and plain.tricks[0][2] == 1  # only a Fuchs


def test_knocking_ends_with_the_fifth_card_and_announcing_needs_ones_own_knock() -> None:
    deal = play(new_deal(), *ALL_GESUND, "play CA", "play CK", "play C9", "play C9")
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "announce 90")
    assert err.value.code == "knock_first"
    play(deal, "play SA")  # the fifth card
    assert deal.legal_texts(3) == ["knock"]
    play(deal, "3: knock", "3: announce 90")
    assert deal.legal_texts(3) == ["announce 60", "announce 30", "announce schwarz"]
    play(deal, "play S10")  # the sixth card
    assert deal.legal_texts(3) == [] and deal.legal_texts(2) == ["play SA", "play S10"]
    with pytest.raises(IllegalActionError) as err:
        deal.act(2, "knock")
    assert err.value.code == "too_late"
    with pytest.raises(IllegalActionError) as err:
        deal.act(3, "play SK")
    assert err.value.code == "not_your_turn"


# ---------------------------------------------------------------- legal cards per contract


@pytest.mark.parametrize(
    ("solo", "options", "expected"),
    [
        ("trumpf", {}, ["play C10", "play CK"]),
        ("damen", {}, ["play C10", "play CK", "play CJ"]),  # jacks are Kreuz here
        ("buben", {}, ["play C10", "play CK"]),
        ("international", {}, ["play C10", "play CK"]),
        ("fleischlos", {}, ["play C10", "play CK", "play CJ"]),
        ("herz", {}, ["play C10", "play CK"]),
        ("kreuz", {}, ["play C10", "play CK", "play CJ", "play SQ", "play HQ"]),  # trump led
        (
            "kreuz",
            {"farbsolo_keeps_dulle": True},
            ["play C10", "play CK", "play CJ", "play SQ", "play H10", "play HQ"],
        ),
    ],
)
def test_following_kreuz_ass_in_each_solo(
    solo: str, options: dict[str, object], expected: list[str]
) -> None:
    deal = play(new_deal(options={"pflichtsolo": f"0:{solo}", **options}), "play CA")
    assert deal.to_move == 1
    assert deal.legal_texts() == [*expected, "knock"]


def test_herz_10_is_plain_herz_in_a_karosolo_unless_the_option_keeps_it() -> None:
    deal = play(new_deal(options={"pflichtsolo": "0:karo"}), "play HA")
    assert deal.legal_texts() == ["play HA", "play H10", "play H9", "knock"]
    deal = play(new_deal(options={"pflichtsolo": "0:karo", "farbsolo_keeps_dulle": True}),
                "play HA")  # fmt: skip
    assert deal.legal_texts() == ["play HA", "play H9", "knock"]


def test_farbzwang_message_and_plays_by_kind() -> None:
    deal = play(new_deal(), *ALL_GESUND, "play CA")
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "play SQ")
    assert err.value.message == "Farbzwang: Kreuz was led and you hold Kreuz"
    play(deal, "play C10.2")  # an explicit copy is accepted
    assert deal.trick[-1] == deal.rules.pack.parse("C10.2")


def test_pflichtsolo_lead_during_the_vorfuehrung_stays_with_p1() -> None:
    deal = new_deal(options={"pflichtsolo": "2:fleischlos"})
    assert (deal.phase, deal.contract, deal.declarer, deal.to_move) == ("play", "fleischlos", 2, 2)
    deal = new_deal(options={"pflichtsolo": "2:fleischlos", "pflichtsolo_lead": "p1"})
    assert deal.to_move == 0


@pytest.mark.parametrize(
    ("dulle", "second_wins"),
    [("second", True), ("second_except_last", False), ("first", False)],
)
def test_dulle_rule_in_the_twelfth_trick(dulle: str, second_wins: bool) -> None:
    """Both Herz 10 in the last trick of a normal game: which one takes it."""
    rules = Doppelkopf()
    for seed in range(3000):
        rng = random.Random(seed)
        deal = rules.new_deal(rules.shuffle_and_deal(rng), {"dulle": dulle})
        play(deal, *ALL_GESUND)
        while not deal.finished:
            deal.apply(rng.choice([m for m in deal.legal_moves() if m < 48]))
        leader, cards, winner = deal.tricks[11]
        dullen = [i for i, c in enumerate(cards) if rules.pack.cards[c].kind == "H10"]
        if deal.contract in ("normal", "stille_hochzeit") and len(dullen) == 2:
            assert winner == (leader + dullen[1 if second_wins else 0]) % 4
            return
    raise AssertionError("no deal with both Herz 10 in the last trick")


# ---------------------------------------------------------------- extra points (DK-A12)

RE = {0, 2}
BLANK = (0, [DOPPELKOPF.parse(c) for c in ("S9.1", "S9.2", "C9.1", "C9.2")], 0)


def trick(leader: int, cards: str, winner: int) -> tuple[int, list[int], int]:
    return leader, [DOPPELKOPF.parse(c) for c in cards.split()], winner


def names(
    tricks: list[tuple[int, list[int], int]], schweinchen: int | None = None
) -> list[tuple[str, str, int]]:
    _, found = extra_points(tricks, RE, schweinchen)
    return [(f["name"], f["party"], f["points"]) for f in found]


def test_fuchs_gefangen() -> None:
    # Kontra (P2) wins with a Pik Dame; the Karo Ass of Re (P1) is caught
    assert names([trick(0, "DA.1 SQ.1 D9.1 D9.2", 1)]) == [("fuchs_gefangen", "kontra", 1)]


def test_doppelkopf_needs_31_augen() -> None:
    assert names([trick(0, "CA.1 CA.2 C10.1 C10.2", 0)]) == [("doppelkopf", "re", 1)]
    assert names([trick(0, "CA.1 CA.2 CK.1 C9.2", 0)]) == []  # 11 + 11 + 4 + 0 = 26
    thirty_two = [trick(0, "CA.1 CA.2 C10.1 C9.2", 0)]  # 11 + 11 + 10 + 0 = 32
    assert names(thirty_two) == [("doppelkopf", "re", 1)]
    assert extra_points(thirty_two, RE, None, 40)[0] == {"re": 0, "kontra": 0}


def test_herz_10_gefangen_and_the_schweinchen_catch() -> None:
    # Kontra's first Herz 10 is beaten by Re's second
    assert names([trick(1, "H10.1 H10.2 D9.1 D9.2", 2)]) == [("herz10_gefangen", "re", 1)]
    # the Schweinchen takes both Herz 10 of Kontra: 4 in all (plus a Doppelkopf: 31 Augen)
    both = [trick(1, "H10.1 D9.1 H10.2 DA.1", 0)]
    assert names(both, schweinchen=0) == [("doppelkopf", "re", 1), ("herz10_schweinchen", "re", 4)]
    caught = ("herz10_gefangen", "re", 1)
    assert names(both) == [("doppelkopf", "re", 1), caught, caught]


def test_karlchen_and_karlchen_killer_only_in_the_last_trick() -> None:
    karlchen = trick(0, "CJ.1 D9.1 D9.2 HK.1", 0)
    assert names([karlchen]) == []  # not the twelfth trick
    assert names([BLANK] * 11 + [karlchen]) == [("karlchen", "re", 1)]
    killer = trick(1, "CJ.1 HQ.1 D9.1 D9.2", 2)
    assert names([BLANK] * 11 + [killer]) == [("karlchen_killer", "re", 1)]


def test_no_extra_points_in_a_solo() -> None:
    rng = random.Random(4)
    deal = new_deal(options={"pflichtsolo": "1:trumpf"})
    while not deal.finished:
        deal.apply(rng.choice([m for m in deal.legal_moves() if m < 48]))
    outcome = deal.outcome()
    assert outcome is not None and outcome["solo_scored"] and outcome["extras"] == []
    assert outcome["settlement"][1] == 3 * outcome["settlement"][0] * -1


@pytest.mark.parametrize(
    ("option", "hand", "allowed"),
    [
        ("neunen_oder_koenige", D[3], True),  # P4 has five Neunen
        ("koenige", D[3], False),
        ("aus", D[3], False),
        ("neunen", D[3], True),
    ],
)
def test_schmeissen_trigger_option(option: str, hand: str, allowed: bool) -> None:
    deal = play(new_deal(options={"schmeissen": option}), "gesund", "gesund", "gesund")
    assert ("schmeissen" in deal.legal_texts()) == allowed


def test_reservations_and_armut_cards_are_announced_masked() -> None:
    deal = play(new_deal(A), "armut", "gesund", "gesund", "solo damen")
    assert [deal.action_seen_by(0, v) for v in (0, 1)] == ["armut", "vorbehalt"]
    assert deal.action_seen_by(1, 2) == "gesund"
    deal = play(new_deal(A), "armut", *("gesund",) * 3, "push CQ", "push CQ", "push H10")
    play(deal, "pass", "take", "return C9")
    assert [deal.action_seen_by(4, v) for v in (0, 1, 2, 3, None)] == [
        "push CQ", "push", "push CQ", "push", "push"]  # fmt: skip
    assert [deal.action_seen_by(9, v) for v in (0, 1, 2)] == ["return C9", "return", "return C9"]
    assert deal.action_seen_by(8, 1) == "take"


def test_hand_is_sorted_as_players_hold_it() -> None:
    """Trumps strongest first (Dulle, Damen, Buben, Karo), then Kreuz, Pik, Herz; in a solo
    the contract's trumps come first (the Herz 10 ranks as a Herz: no Dulle in a Farbsolo by
    default) and the Karo cards become a plain suit."""

    def hand(seat: int) -> str:
        return " ".join(deal.view(seat)["hand"])

    deal = new_deal()
    assert hand(0) == "H10.1 CQ.1 CQ.2 DA.1 DA.2 CA.1 CA.2 C10.1 SA.1 HA.1 HK.1 H9.1"
    # copies are numbered as the table sees them: P4's only Karo König is "DK.1" to him
    assert hand(3) == "HJ.1 HJ.2 DJ.1 DJ.2 DK.1 D9.1 D9.2 C9.1 SK.1 SK.2 S9.1 S9.2"
    play(deal, "solo herz", "gesund", "gesund", "gesund")
    assert deal.view(0)["contract"] == "herz"
    assert hand(0) == "CQ.1 CQ.2 HA.1 H10.1 HK.1 H9.1 CA.1 CA.2 C10.1 SA.1 DA.1 DA.2"


# ---------------------------------------------------------------- result lines as codes


def test_result_lines_are_codes_with_parameters() -> None:
    """Kontra knocked and said unter 90 and has 163 Augen (the first worked example above):
    every level announced counts 2, the extra points 1 each, the knock doubles."""
    result = score(77, 3, 9, knocks=1, announced={"kontra": 1}, extras={"kontra": 1, "re": 1})
    assert result.lines == [
        {"code": "won", "announced": True, "points": 2},
        {"code": "below", "level": 90, "announced": True, "points": 2},
        {"code": "extras", "party": "kontra", "points": 1},
        {"code": "extras", "party": "re", "points": -1},
        {"code": "knocked", "factor": 2, "points": 4},
    ]
    assert sum(line["points"] for line in result.lines) == result.value == 8


def test_unannounced_levels_schwarz_and_gegen_die_alten_lines() -> None:
    schwarz = score(0, 0, 12, gegen_die_alten=True)
    assert schwarz.lines == [
        {"code": "won", "announced": False, "points": 1},
        {"code": "below", "level": 90, "announced": False, "points": 1},
        {"code": "below", "level": 60, "announced": False, "points": 1},
        {"code": "below", "level": 30, "announced": False, "points": 1},
        {"code": "schwarz", "announced": False, "points": 1},
        {"code": "gegen_die_alten", "points": 1},
    ]
    both = score(140, 7, 5, announced={"re": 1, "kontra": 1})
    assert both.lines == [{"code": "both_failed", "points": 0}]


def test_lines_are_flat_scalars_in_every_outcome() -> None:
    rules = Doppelkopf()
    for seed in range(30):
        deal = rules.new_deal(rules.shuffle_and_deal(random.Random(seed)))
        rng = random.Random(seed)
        while not deal.finished:
            seat, move = deal.random_action(rng)
            deal.apply(move, seat)
        outcome = deal.outcome()
        assert outcome is not None
        for line in outcome.get("lines", []):
            assert isinstance(line["code"], str)
            assert all(type(v) in (int, str, bool) for v in line.values()), line


GOLDEN = Path(__file__).parent.parent / "golden" / "doppelkopf" / "knocked-announced.json"
#: The result lines of that record as records stored them before they became codes.
TEXT_LINES = [
    ["gewonnen (angesagt)", 2],
    ["unter 90 (angesagt)", 2],
    ["unter 60", 1],
    ["Extrapunkte kontra", 2],
    ["Extrapunkte re", -3],
    ["geklopft ×2", 4],
]


def old_record() -> JSON:
    """The golden record as it was stored before the result lines became codes."""
    record: JSON = json.loads(GOLDEN.read_text(encoding="utf-8"))
    record["outcome"]["lines"] = json.loads(json.dumps(TEXT_LINES))
    return record


def test_a_record_stored_with_text_lines_still_loads() -> None:
    record = old_record()
    deal = load_record(record)
    outcome = deal.outcome()
    assert outcome is not None
    assert outcome["lines"] == [
        {"code": "won", "announced": True, "points": 2},
        {"code": "below", "level": 90, "announced": True, "points": 2},
        {"code": "below", "level": 60, "announced": False, "points": 1},
        {"code": "extras", "party": "kontra", "points": 2},
        {"code": "extras", "party": "re", "points": -3},
        {"code": "knocked", "factor": 2, "points": 4},
    ]
    assert outcome["lines"] == legacy_lines(record["outcome"]["lines"])


@pytest.mark.parametrize(
    ("index", "line"),
    [
        (2, ["unter 60", 2]),  # other points
        (2, ["unter 60 (angesagt)", 1]),  # said to be announced
        (2, ["unter 70", 1]),  # no such level
        (5, ["geklopft ×4", 4]),  # other factor
    ],
)
def test_an_old_record_whose_text_lines_differ_is_refused(index: int, line: list[object]) -> None:
    record = old_record()
    record["outcome"]["lines"][index] = line
    with pytest.raises(RecordError) as caught:
        load_record(record)
    assert caught.value.code == "outcome_mismatch"


def test_a_record_stored_now_holds_coded_lines_and_loads() -> None:
    deal = load_record(old_record())
    record = json.loads(json.dumps(dump_record(deal)))
    assert all(isinstance(line, dict) for line in record["outcome"]["lines"])
    assert load_record(record).outcome() == deal.outcome()


def test_every_result_and_contract_code_has_a_catalogue_key_in_both_languages() -> None:
    catalogs = load_catalogs(Path(__file__).parent.parent.parent / "web" / "locale")
    codes = {"won", "below", "schwarz", "gegen_die_alten", "extras", "not_written", "knocked"}
    codes |= {"both_failed", "announced"}
    for language in ("de", "en"):
        messages = catalogs.messages[language]
        for code in codes:
            assert f"result.doppelkopf.{code}" in messages, (language, code)
        for contract in CONTRACTS:
            assert f"contract.doppelkopf.{contract}" in messages, (language, contract)
    assert catalogs.messages["de"]["result.doppelkopf.below"] == "unter %(level)s"
    assert catalogs.messages["de"]["result.doppelkopf.knocked"] == "geklopft ×%(factor)s"


def test_a_spectator_does_not_learn_the_pushed_armut_cards_before_the_take() -> None:
    """While nobody has taken the Armut yet the deal has no partner; the spectator (no
    seat) must not count as him."""
    deal = play(new_deal(A), "armut", *("gesund",) * 3, "push CQ")
    assert [deal.action_seen_by(4, v) for v in (0, 1, 2, 3, None)] == [
        "push CQ", "push", "push", "push", "push"]  # fmt: skip
    play(deal, "push CQ", "push H10", "pass")
    assert [deal.action_seen_by(6, v) for v in (0, 1, 2, 3, None)] == ["push H10", *["push"] * 4]
    assert deal.hidden_from(None) & DOPPELKOPF.mask("CQ.1 CQ.2 H10.1")


def test_cards_are_played_through_the_shared_card_play_one_move_per_kind() -> None:
    """The deal plays its cards through CardPlayDeal: the trick core's legal mask holds one
    copy per kind (its restriction ``same_kind``), the legal moves are cached per position
    and keep the order players see, by kind (not sorted by move number)."""
    fresh = new_deal()
    assert isinstance(fresh, CardPlayDeal) and fresh.play is None
    unsorted = 0
    for deal in random_positions("doppelkopf", 20, 3):
        if deal.phase != "play":
            continue
        assert isinstance(deal, DoppelkopfDeal)
        assert deal.play is not None and deal.play is deal.trick_play
        legal = deal.legal_moves()
        assert deal.legal_moves() is legal  # cached until the next action
        cards = [m for m in legal if m < 48]
        assert cards == sorted(cards, key=lambda card: card % 24)
        mask = deal.play.legal()
        assert sum(1 << card for card in cards) == mask
        assert not mask & (mask & (1 << 24) - 1) << 24  # never both copies of a kind
        unsorted += cards != sorted(cards)
    assert unsorted  # the order by kind differs from the moves' numbers somewhere


def test_illegal_cards_are_explained_by_the_trick_core() -> None:
    """Trumpf led: P2 holds trumps (trumpf_bedienen); a card not held; the upper copy of a
    kind held twice is not a move of its own (the kind's move takes the lower copy)."""
    deal = play(new_deal(), *ALL_GESUND, "play DA")
    with pytest.raises(IllegalActionError) as err:
        deal.apply(DOPPELKOPF.parse("CA.1"))  # P2 holds no Kreuz Ass
    assert err.value.code == "card_not_in_hand"
    with pytest.raises(IllegalActionError) as err:
        deal.act(1, "play S10")
    assert err.value.code == "trumpf_bedienen"
    assert deal.trick_play.explain(DOPPELKOPF.parse("S10.1")) == "follow_trump"
    with pytest.raises(IllegalActionError) as err:
        deal.apply(DOPPELKOPF.parse("SQ.2"))  # P2 holds both Pik Damen
    assert err.value.code == "same_kind"
    deal.apply(DOPPELKOPF.parse("SQ.1"))
    assert deal.trick == [DOPPELKOPF.parse("DA.1"), DOPPELKOPF.parse("SQ.1")]
