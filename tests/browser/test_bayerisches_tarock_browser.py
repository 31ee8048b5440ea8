"""Bayerisches Tarock (Haferltarock) in a real browser: three people on their phones bid a
deal to "zehn mehr", the declarer names the trump, an opponent says Kontra, the deal is
played to its result and the sheet shows the Haferl; on a phone the hand stays on screen
while the declarer of a Stock game takes the Stock and lays three cards away.

The cards are dealt at random by the server; the scenario does not depend on them: any
seat may bid, name a trump and say Kontra, and the cards are played by a seeded choice
among the playable ones.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import (
    Person,
    hand_outside_viewport,
    move,
    next_mover,
    play_until,
    wait_for_turn,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

GAME = "bayerisches-tarock"
HAFERL = {"haferl": True, "haferl_einsatz": 5}


def say_gut_until_play(people: list[Person]) -> list[str]:
    """Everybody asked in the Kontra round says "Gut" until the first card; who was asked."""
    asked: list[str] = []
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "the Kontra round did not end"
        mover = next_mover(people)
        if mover is None:
            time.sleep(0.05)
            continue
        if "Gut" not in mover.options():
            return asked
        asked.append(mover.name)
        move(mover, "Gut")


def test_a_deal_bid_to_zehn_mehr_with_trump_and_kontra_to_the_sheet_with_the_haferl(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    _room, people = seat_people(
        new_person, base, ["Anna", "Bernd", "Catrin"], GAME, match_options=HAFERL
    )
    # Vorhand opens the Reizen; the table says what is asked.
    vorhand = wait_for_turn(people)
    expect(vorhand.page.locator("#turn")).to_have_text(
        "Du bist am Zug: »Ich spiele«, ein höheres Gebot oder weiter"
    )
    assert vorhand.options() == ["Weiter", "Ich spiele"]
    # one bid stands in the row; the whole ladder later folds away (the hand stays in sight)
    expect(vorhand.page.locator("#actions details.action-fold")).to_have_count(0)
    move(vorhand, "Ich spiele")
    mittelhand = wait_for_turn(people)
    assert mittelhand is not vorhand
    expect(mittelhand.page.locator("#turn")).to_have_text(
        "Du bist am Zug: Gebot Ich spiele, Ziel 61 Augen – höher gehen oder weiter"
    )
    assert "10 mehr (71)" in mittelhand.options()
    folded = mittelhand.page.locator("#actions details.action-fold summary")
    expect(folded).to_have_text("Reizen (13)")  # Hand, 66 … 116, Durch
    expect(mittelhand.page.get_by_role("button", name="Weiter")).to_be_visible()
    move(mittelhand, "10 mehr (71)")
    hinterhand = wait_for_turn(people)
    assert hinterhand not in (vorhand, mittelhand)
    expect(hinterhand.page.locator("#info")).to_contain_text(
        f"Reizen: höchstes Gebot 10 mehr (71), Ziel 71 Augen ({mittelhand.name})"
    )
    expect(hinterhand.page.locator(".seat", has_text=mittelhand.name)).to_contain_text(
        "10 mehr (71)"
    )
    move(hinterhand, "Weiter")
    # Vorhand may hold the bid it was outbid on; it passes.
    assert wait_for_turn(people) is vorhand
    assert "Halten" in vorhand.options()
    expect(vorhand.page.locator("#turn")).to_have_text(
        "Du bist am Zug: Gebot 10 mehr (71), Ziel 71 Augen – halten, höher gehen oder weiter"
    )
    move(vorhand, "Weiter")
    # Mittelhand plays Hand to 71 and names the trump.
    assert wait_for_turn(people) is mittelhand
    expect(mittelhand.page.locator("#turn")).to_have_text("Du bist am Zug: nenne den Trumpf")
    assert [o for o in mittelhand.options() if not o.startswith("card:")] == [
        "Trumpf Eichel",
        "Trumpf Gras",
        "Trumpf Herz",
        "Trumpf Schellen",
    ]
    move(mittelhand, "Trumpf Gras")
    # The Kontra round: the first opponent asked says Kontra, everybody sees it.
    opponent = wait_for_turn(people)
    assert opponent is not mittelhand
    expect(opponent.page.locator("#turn")).to_have_text("Du bist am Zug: Kontra geben oder »Gut«")
    move(opponent, "Kontra")
    say_gut_until_play(people)
    for person in people:
        info = person.page.locator("#info")
        expect(info).to_contain_text(f"{mittelhand.name} spielt Hand (×2)")
        expect(info).to_contain_text("Ziel: 71 Augen")
        expect(info).to_contain_text("Trumpf: Gras")
        expect(person.page.locator(".seat", has_text=opponent.name)).to_contain_text("Kontra")
    # Vorhand leads the first trick.
    assert wait_for_turn(people) is vorhand
    vorhand.page.screenshot(path=artifacts / "table-bayerisches-tarock-360.png")
    assert hand_outside_viewport(vorhand.page) == []

    moves = play_until(
        people,
        lambda: people[0].page.locator("#result-dialog").is_visible(),
        random.Random(16),
    )
    assert 3 <= moves <= 33  # at most eleven tricks of three cards
    result = people[0].page.locator("#result-dialog")
    expect(result).to_contain_text("Augen: Alleinspieler")
    expect(result).to_contain_text("(Ziel 71)")
    expect(result).to_contain_text("Kontra/Re: ×2")
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_visible()
        person.close_result()
    anna = people[0]
    anna.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = anna.page.locator("#sheet-dialog")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    row = sheet.locator("tbody tr").first
    expect(row).to_contain_text(f"Hand · {mittelhand.name}")
    # Everybody paid 5 × 0,10 € into the Haferl; a Hand game does not touch it.
    expect(row).to_contain_text("1,50 €")
    expect(sheet).to_contain_text("Im Haferl: 1,50 €")
    anna.page.screenshot(path=artifacts / "sheet-bayerisches-tarock-360.png")

    # The deal's replay shows the deal's ledger: each person's points and money, and what
    # each paid into the Haferl, from his side.
    matches = anna.page.request.get(f"{base}/api/history/matches").json()["matches"]
    detail = anna.page.request.get(f"{base}/api/history/matches/{matches[0]['id']}").json()
    first = next(d for d in detail["deals"] if d["number"] == 1)
    anna.page.goto(f"{base}/archive/deals/{first['id']}")
    expect(anna.page.locator("#step-counter")).to_contain_text("Schritt 0 von")
    anna.page.keyboard.press("End")
    expect(anna.page.locator("#replay-result")).to_be_visible()
    result = anna.page.locator("#result-settlement")
    expect(result.locator("tr.ledger-entry")).to_have_count(3)
    expect(result.locator("tr.ledger-entry").first.locator("td")).to_have_count(3)
    pots = result.locator(".ledger-pot")
    expect(pots).to_have_count(3)
    for line in pots.all():
        expect(line).to_contain_text("zahlt 0,50 € ins Haferl (Einsatz)")


def test_on_a_phone_the_hand_stays_in_view_while_the_stock_is_taken_and_laid_away(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Dora", "Emil", "Franz"], GAME)
    vorhand = wait_for_turn(people)
    move(vorhand, "Ich spiele")
    for _ in range(2):
        move(wait_for_turn(people), "Weiter")
    assert wait_for_turn(people) is vorhand
    expect(vorhand.page.locator("#turn")).to_have_text("Du bist am Zug: sag an, was du spielst")
    assert vorhand.options()[:2] == ["Stockspiel (Frage)", "Hand"]
    move(vorhand, "Stockspiel (Frage)")
    page = vorhand.page
    expect(page.locator("#turn")).to_have_text("Du bist am Zug: drück noch 3 Karten (antippen)")
    expect(page.locator("#hand button")).to_have_count(14)  # eleven and the Stock
    stock = page.locator("#info .info-line", has_text="Stock aufgenommen")
    expect(stock.locator(".card")).to_have_count(3)
    page.screenshot(path=artifacts / "table-bayerisches-tarock-stock-360.png")
    assert hand_outside_viewport(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = stock.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740
    # The others see only that the Stock was taken, not its cards.
    for other in people:
        if other is not vorhand:
            expect(other.page.locator("#info")).not_to_contain_text("Stock aufgenommen")
    for left in (3, 2, 1):
        cards = [o for o in vorhand.options() if o.startswith("card:")]
        assert len(cards) == 11 + left
        move(vorhand, cards[0])
        assert hand_outside_viewport(page) == []
    expect(page.locator("#hand button")).to_have_count(11)
    expect(page.locator("#info .info-line", has_text="Gedrückt").locator(".card")).to_have_count(3)
    for other in people:
        if other is not vorhand:
            expect(other.page.locator("#info")).to_contain_text("3 Karten gedrückt")
    assert wait_for_turn(people) is vorhand
    assert [o for o in vorhand.options() if not o.startswith("card:")] == [
        "Trumpf Eichel",
        "Trumpf Gras",
        "Trumpf Herz",
        "Trumpf Schellen",
    ]
    assert hand_outside_viewport(page) == []
