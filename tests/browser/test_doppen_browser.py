"""Doppen at the table in a real browser (Debian's chromium through Playwright): three
people play a deal with holding in the auction, a talon half, an announced Pagat and a
Kontra to the score sheet and the Pagatkasse; a phone keeps the hand and the talon's
choices in view; four people start a table where the dealer sits out and sees no cards.

The server runs in this process so that its dealing can be fixed: every Doppen deal of
this module is the hand-built deal D1 of the engine tests (Vorhand T1–T10 with four
Herz pictures and PK PD, Mittelhand T11–T20 and six Karo, Hinterhand T21, SK and the rest;
the talon KrC KrB Kr10 Kr9 Kr8 Kr7). Who deals first is drawn, so the test finds Vorhand,
Mittelhand and Hinterhand from the turn banner.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import ViewportSize, expect

from server.api.app import create_app
from server.api.i18n import Catalogs, load_catalogs
from server.engine.base import Dealt
from server.engine.games.doppen import Doppen
from server.settings import Settings
from tests.browser.axe import describe, run_axe, serious
from tests.browser.conftest import DESKTOP, PHONE, NewPerson, off_the_loop
from tests.browser.table_driver import (
    Person,
    actions_out_of_sight,
    box_of,
    dialog_problems,
    hand_outside_viewport,
    inside,
    move,
    overlap,
    play_until,
    register_by_api,
    resize,
    screen_box,
    trick_boxes,
    trick_cards,
    wait_for_turn,
)
from tests.browser.test_game_info_browser import text
from tests.browser.test_table_browser import seat_people
from tests.engine.test_doppen_deals import D1, dealt
from tests.support import REPO_ROOT, LiveServer, free_port, sqlite_url, upgrade

pytestmark = pytest.mark.live_server


def fixed_deal(_self: Doppen, _rng: random.Random) -> Dealt:
    """Every deal is D1 (tests/engine/test_doppen_deals.py)."""
    return dealt(D1)


def fixed_fair_deal(_self: Doppen, _seed: bytes, _player_seeds: object) -> Dealt:
    """At the tables too (they deal from the fair shuffle's seeds): every deal is D1."""
    return dealt(D1)


@pytest.fixture(scope="module")
def doppen_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server in a thread of this process, on its own migrated SQLite file, whose
    Doppen deals are all D1."""
    directory = tmp_path_factory.mktemp("doppen-server")
    path = directory / "stammtisch.sqlite3"
    off_the_loop(upgrade, sqlite_url(path))
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    # every test of the module registers its people from this one address: the limits on
    # creating accounts (tested in test_login_flood.py) would refuse the later tests
    settings = Settings(
        database_url=sqlite_url(path), public_origins=(base_url,), auth_limits=False
    )
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Doppen, "shuffle_and_deal", fixed_deal)
        patch.setattr(Doppen, "fair_deal", fixed_fair_deal)
        thread = threading.Thread(target=server.run, name="doppen-server", daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive(), "the server stopped before it started"
            assert time.monotonic() < deadline, "the server did not start in time"
            time.sleep(0.05)
        try:
            yield LiveServer(base_url, path)
        finally:
            server.should_exit = True
            thread.join(timeout=10)


def test_a_doppen_deal_with_holding_a_talon_half_pagat_and_kontra(
    new_person: NewPerson, doppen_server: LiveServer, artifacts: Path
) -> None:
    base = doppen_server.base_url
    names = ["Anne", "Bert", "Clara"]
    _room, people = seat_people(
        new_person, base, names, "doppen", stake_cents=10,
        match_options={"kasse_base_cents": 100}, rounds=3,
    )  # fmt: skip
    # The auction: Vorhand bids a Dreier, Mittelhand the Unterer, Hinterhand says Weiter,
    # Vorhand holds (he sits before the high bidder), Mittelhand gives up.
    vorhand = wait_for_turn(people)
    for person in people:
        expect(person.page.locator("#hand button")).to_have_count(16)
        expect(person.page.locator("#info")).to_contain_text("6 Karten verdeckt")
    expect(vorhand.page.locator("#turn")).to_have_text("Du bist am Zug: höher bieten oder weiter")
    move(vorhand, "Dreier")
    mittelhand = wait_for_turn(people)
    assert "Unterer" in mittelhand.options() and "Halten" not in mittelhand.options()
    move(mittelhand, "Unterer")
    hinterhand = wait_for_turn(people)
    move(hinterhand, "Weiter")
    assert wait_for_turn(people) is vorhand
    expect(vorhand.page.locator("#turn")).to_have_text(
        "Du bist am Zug: halten, höher bieten oder weiter"
    )
    move(vorhand, "Halten")
    expect(mittelhand.page.locator(".seat", has_text=vorhand.name)).to_contain_text("hält")
    assert wait_for_turn(people) is mittelhand
    move(mittelhand, "Weiter")

    # The talon is turned up for everybody; the declarer chooses a half by its cards.
    for person in people:
        expect(person.page.locator("#info")).to_contain_text(f"{vorhand.name} spielt Unterer")
        expect(person.page.locator("#info")).to_contain_text("Der Talon ist aufgedeckt")
        expect(person.page.locator("#info .choice .card")).to_have_count(6)
    expect(vorhand.page.locator("#turn")).to_have_text(
        "Du bist am Zug: nimm die oberen oder die unteren drei Karten des Talons"
    )
    expect(mittelhand.page.locator("#info button.choice")).to_have_count(0)
    upper = vorhand.page.locator('#info button.choice[title="Die oberen nehmen"]')
    expect(upper.locator(".card")).to_have_count(3)
    assert vorhand.page.locator("#actions button", has_text="Die oberen nehmen").count() == 0
    upper.click()
    expect(vorhand.page.locator("#hand button")).to_have_count(19)
    # Discards: the restriction is explained; the Könige and trumps are not offered.
    expect(vorhand.page.locator("#turn")).to_contain_text("keine Könige")
    discardable = [o for o in vorhand.options() if o.startswith("card:")]
    assert discardable == [
        "card:Herz Dame", "card:Herz Cavall", "card:Herz Bube", "card:Pik Dame",
        "card:Kreuz Cavall", "card:Kreuz Bube", "card:Kreuz 10",
    ]  # fmt: skip
    for card in ("card:Kreuz Cavall", "card:Kreuz Bube", "card:Kreuz 10"):
        move(vorhand, card)
    expect(vorhand.page.locator("#hand button")).to_have_count(16)

    # Announcements: Vorhand announces the Pagat, Mittelhand gives Kontra on the game.
    assert wait_for_turn(people) is vorhand
    move(vorhand, "Pagat ansagen")
    assert wait_for_turn(people) is mittelhand
    assert "Kontra" in mittelhand.options()
    mittelhand.page.screenshot(path=artifacts / "table-doppen-kontra.png")
    move(mittelhand, "Kontra")
    for _ in range(3):
        move(wait_for_turn(people), "Gut")
    for person in people:
        seat = person.page.locator(".seat", has_text=vorhand.name)
        expect(seat).to_contain_text("Pagat angesagt")
        expect(person.page.locator(".seat", has_text=mittelhand.name)).to_contain_text(
            "Kontra: Spiel"
        )
        expect(person.page.locator("#info")).to_contain_text("Spiel: Kontra (×2)")
    vorhand.page.screenshot(path=artifacts / "table-doppen-announced.png")

    # The table signal: Vorhand leads the Tarock III; Hinterhand, able to win the trick,
    # lays the Sküs face down at once; his partner sees a card back, not which card.
    move(vorhand, "card:Tarock III")
    expect(hinterhand.page.locator("#info")).to_contain_text("Du darfst deine stechende Karte")
    assert not hinterhand.my_turn()
    assert hinterhand.options() == ["card:Sküs", "card:Tarock XXI (Mond)"]
    move(hinterhand, "card:Sküs")
    expect(hinterhand.page.locator("#info")).to_contain_text("Du hast verdeckt hingelegt")
    expect(hinterhand.page.locator('#info .card[data-card="SK"]')).to_have_count(1)
    for person in (vorhand, mittelhand):
        info = person.page.locator("#info")
        expect(info).to_contain_text(f"{hinterhand.name} hat eine Karte verdeckt hingelegt")
        expect(info.locator('.card[data-card="SK"]')).to_have_count(0)
        seat = person.page.locator(".seat", has_text=hinterhand.name)
        expect(seat).to_contain_text("verdeckt gelegt")
        assert "SK" not in person.page.content()
    assert trick_cards(mittelhand) == 1
    mittelhand.page.screenshot(path=artifacts / "table-doppen-covered.png")
    move(mittelhand, "card:Tarock XI")  # the face-down Sküs is turned and wins the trick
    expect(vorhand.page.locator("#trick .card")).to_have_count(3)

    # The play, to the end of the deal (random legal cards; the Pagat is held back).
    rng = random.Random(14)
    play_until(people, lambda: vorhand.page.locator("#result-dialog").is_visible(), rng)
    result = vorhand.page.locator("#result-dialog")
    expect(result).to_contain_text(f"{vorhand.name}")
    expect(result).to_contain_text("Kartenpunkte")
    expect(result).to_contain_text("Pagat: 20 (angesagt")
    expect(result).to_contain_text("Pagatkasse")
    # The ledger says who paid what into the Kasse, from his side.
    expect(result.locator("tr.ledger-entry")).to_have_count(3)
    expect(result).to_contain_text(f"{vorhand.name} zahlt 1,00 € in die Pagatkasse (Kasse gefüllt)")
    expect(result).to_contain_text(f"{vorhand.name} zahlt 3,00 € in die Pagatkasse (Pagat verloren")
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_visible()
        person.close_result()
    vorhand.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = vorhand.page.locator("#sheet-dialog")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    expect(sheet.locator("tbody tr").first).to_contain_text("Unterer")
    # The Kasse: filled with 1,00 € each, then doubled by the lost announced Pagat.
    expect(sheet).to_contain_text("Inhalt der Pagatkasse: 6,00 €")
    expect(sheet).to_contain_text(f"{vorhand.name} hat 4,00 € in die Pagatkasse gezahlt")
    vorhand.page.screenshot(path=artifacts / "table-doppen-sheet.png")

    # The archive: the match's sheet page, the replay with the talon and the
    # announcements, the statistics per contract.
    page = vorhand.page
    page.goto(f"{base}/archive")
    item = page.locator(".match-item", has_text="Doppen")
    expect(item).to_be_visible()
    item.get_by_role("link").click()
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    expect(page.locator("#sheet tbody tr").first).to_contain_text("Unterer")
    expect(page.locator("main")).to_contain_text("Pagatkasse")
    page.screenshot(path=artifacts / "archive-doppen-sheet.png", full_page=True)
    page.locator(".deal-item a").first.click()
    expect(page.locator("#step-counter")).to_contain_text("Schritt")
    for _ in range(6):  # the five calls of the auction and the talon half
        page.keyboard.press("ArrowRight")
    info = page.locator("#replay-info")
    expect(info).to_contain_text("Halten")
    expect(info).to_contain_text("Die oberen nehmen")
    expect(info.locator(".card")).not_to_have_count(0)
    for _ in range(7):  # three discards and the announcement round
        page.keyboard.press("ArrowRight")
    expect(info).to_contain_text("Pagat ansagen")
    expect(info).to_contain_text("Kontra")
    page.screenshot(path=artifacts / "archive-doppen-replay.png", full_page=True)
    page.goto(f"{base}/archive/stats")
    expect(page.locator("main")).to_contain_text("Unterer")
    # Doppen owes no solos and none was played: no rows for them
    figures = page.locator("#stats-players dt").all_inner_texts()
    assert "Spiele" in figures and "Soli" not in figures and "Pflichtsoli" not in figures
    page.screenshot(path=artifacts / "archive-doppen-stats.png", full_page=True)


def test_a_phone_keeps_the_hand_and_the_talon_choices_in_view(
    new_person: NewPerson, doppen_server: LiveServer, artifacts: Path
) -> None:
    base = doppen_server.base_url
    _room, people = seat_people(new_person, base, ["Dora", "Emil", "Fritz"], "doppen")
    vorhand = wait_for_turn(people)
    move(vorhand, "Einer")
    for _ in range(2):
        move(wait_for_turn(people), "Weiter")
    page = vorhand.page
    choices = page.locator("#info button.choice")
    expect(choices).to_have_count(6)  # the Einer: every card of the talon on its own
    page.screenshot(path=artifacts / "table-doppen-talon-360.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    boxes = choices.evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= 360 and bottom <= 740, boxes
    hand_bottom = page.locator("#hand").evaluate("n => n.getBoundingClientRect().bottom")
    assert hand_bottom <= 740
    choices.first.click()
    expect(page.locator("#hand button")).to_have_count(17)
    expect(page.locator("#turn")).to_have_text(
        "Du bist am Zug: lege noch 1 Karte ab (keinen König, kein Trullstück; "
        "Trumpf nur, wenn nichts anderes bleibt)"
    )


#: a taller phone, and phones turned sideways
PHONE_TALL: ViewportSize = {"width": 390, "height": 844}
SIDEWAYS: list[ViewportSize] = [{"width": 844, "height": 390}, {"width": 740, "height": 360}]


def check_upright(person: Person, artifacts: Path, name: str) -> None:
    """On an upright phone (360 and 390 wide) every offered button is whole in sight, and
    so is the hand."""
    page = person.page
    for size in (PHONE_TALL, PHONE):
        resize(page, size)
        assert actions_out_of_sight(page) == [], (name, size)
        assert hand_outside_viewport(page) == [], (name, size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=artifacts / f"table-fit-{name}-360.png")


def check_sideways(person: Person, artifacts: Path, name: str) -> None:
    """On a phone turned sideways the felt keeps its height on the left, with the seats
    and the trick in it; the turn, the buttons and the hand lie beside it."""
    page = person.page
    for size in SIDEWAYS:
        resize(page, size)
        screen = screen_box(page)
        felt = box_of(page, "#felt")
        assert felt["height"] > 150 and inside(felt, screen), (size, felt)
        assert box_of(page, ".dock")["x"] >= felt["right"] - 0.5
        assert inside(box_of(page, "#turn"), screen)
        for seat in page.locator("#seats .seat").all():
            assert seat.evaluate("n => n.getBoundingClientRect().bottom") <= felt["bottom"]
        for card in trick_boxes(page):
            assert inside(card, felt) and inside(card, screen), (size, card)
        assert actions_out_of_sight(page, vertical=False) == [], (name, size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.screenshot(path=artifacts / f"table-fit-{name}-{size['width']}x{size['height']}.png")
    resize(page, PHONE)


def test_the_table_fits_a_phone_upright_and_turned_sideways(
    new_person: NewPerson, doppen_server: LiveServer, artifacts: Path
) -> None:
    """Every offered button in sight (they wrap, nothing scrolls sideways), a notice that
    leaves the turn alone and goes when the table moves on, the felt marked when it has
    more below, panels in the middle with their heading and buttons in sight, a sheet
    that fits, a chat input with room to type, and the table turned sideways."""
    base = doppen_server.base_url
    _room, people = seat_people(new_person, base, ["Anne", "Bert", "Clara"], "doppen")
    vorhand = wait_for_turn(people)
    assert len(vorhand.options()) >= 5  # Weiter, Dreier, Zweier, Einer, Solo
    check_upright(vorhand, artifacts, "auction")
    check_sideways(vorhand, artifacts, "auction")
    move(vorhand, "Dreier")
    for _ in range(2):
        move(wait_for_turn(people), "Weiter")
    check_sideways(vorhand, artifacts, "talon")
    vorhand.page.locator('#info button.choice[title="Die unteren nehmen"]').click()
    expect(vorhand.page.locator("#hand button")).to_have_count(19)

    # A refused discard: the notice lies above the buttons and the hand, not over the turn,
    # and goes as soon as the table moves on.
    page = vorhand.page
    # a card that may never be laid away: a König or a Trullstück
    never = ", ".join(
        f'#hand button[aria-disabled="true"][aria-label{match}]'
        for match in ('*="König"', '="Sküs"', '*="(Mond)"', '*="(Pagat)"')
    )
    page.locator(never).first.click(force=True, position={"x": 12, "y": 16})
    notice = page.locator("#notice")
    expect(notice).to_contain_text("dürfen nie gedrückt werden")
    shown = box_of(page, "#notice")
    assert not overlap(shown, box_of(page, "#turn"))
    assert shown["bottom"] <= box_of(page, ".dock")["y"] + 0.5
    assert inside(shown, screen_box(page))
    move(vorhand, "card:Kreuz 9")
    expect(notice).to_be_hidden()
    for card in ("card:Kreuz 8", "card:Kreuz 7"):
        move(vorhand, card)

    # The announcement round: the most buttons of the deal, each in sight. Everybody says
    # one word the first time (Pagat, Kontra, Re), "Gut" after that.
    most, spoken, scrolled = 0, set(), 0
    while True:
        mover = wait_for_turn(people)
        buttons = [o for o in mover.options() if not o.startswith("card:")]
        if not buttons:
            break
        most = max(most, len(buttons))
        check_upright(mover, artifacts, f"announce-{len(buttons)}")
        # the felt scrolls when the info is long: a mark says so until its end is in sight
        felt = mover.page.locator("#felt")
        if felt.evaluate("n => n.scrollHeight > n.clientHeight + 2"):
            expect(felt).to_have_class(re.compile(r"\bmore-below\b"))
            felt.evaluate("n => n.scrollTo(0, n.scrollHeight)")
            expect(felt).not_to_have_class(re.compile(r"\bmore-below\b"))
            last = box_of(mover.page, "#info .info-line:last-child")
            assert last["bottom"] <= box_of(mover.page, "#felt")["bottom"] + 0.5
            scrolled += 1
        words = ("Gut",) if mover.name in spoken else ("Pagat ansagen", "Kontra", "Re", "Gut")
        spoken.add(mover.name)
        move(mover, next(o for o in words if o in buttons))
    assert most >= 4 and scrolled  # at 360 px the talon's info lines need more room

    # Mid-trick, turned sideways: the trick in the felt, beside the hand.
    rng = random.Random(3)
    play_until(people, lambda: trick_cards(vorhand) == 2, rng)
    check_sideways(wait_for_turn(people), artifacts, "trick")

    # The result: in the middle, heading and "Weiter" in sight, upright and sideways.
    play_until(people, lambda: vorhand.page.locator("#result-dialog").is_visible(), rng)
    for size in (PHONE, PHONE_TALL, *SIDEWAYS):
        resize(page, size)
        assert dialog_problems(page, "#result-dialog") == [], size
    resize(page, PHONE)
    page.screenshot(path=artifacts / "table-fit-result-360.png")
    for person in people:
        person.close_result()

    # The sheet: in the middle, and three players' numbers fit whole beside each other.
    page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    expect(page.locator("#sheet-dialog tbody tr")).to_have_count(1)
    for size in (PHONE, PHONE_TALL):
        resize(page, size)
        assert dialog_problems(page, "#sheet-dialog") == [], size
        scroll = page.locator(".sheet-scroll")
        assert scroll.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), size
    resize(page, PHONE)
    page.screenshot(path=artifacts / "table-fit-sheet-360.png")
    page.keyboard.press("Escape")

    # The chat: the input takes the width, the send button sits beside it.
    page.get_by_role("button", name="Chat").click()
    assert dialog_problems(page, "#chat-dialog") == []
    text_box, send = box_of(page, "#chat-text"), box_of(page, "#chat-form button")
    assert text_box["width"] >= 150
    assert send["x"] >= text_box["right"] and abs(send["y"] - text_box["y"]) < 8
    assert inside(send, box_of(page, "#chat-dialog"))
    page.screenshot(path=artifacts / "table-fit-chat-360.png")


def test_four_at_the_table_the_dealer_sits_out_and_sees_no_cards(
    new_person: NewPerson, doppen_server: LiveServer
) -> None:
    base = doppen_server.base_url
    names = ["Gerd", "Hanna", "Ida", "Jakob"]
    _room, people = seat_people(new_person, base, names, "doppen", viewport=DESKTOP)
    holding = [p for p in people if p.page.locator("#hand button").count() == 16]
    expect(people[0].page.locator("#turn")).not_to_have_text("")
    deadline = time.monotonic() + 10
    while len(holding) != 3:
        assert time.monotonic() < deadline, "three hands of sixteen were not dealt"
        time.sleep(0.1)
        holding = [p for p in people if p.page.locator("#hand button").count() == 16]
    dealer = next(p for p in people if p not in holding)
    expect(dealer.page.locator("#hand button")).to_have_count(0)
    # The auction: a Dreier and two Weiter; the dealer is never asked and sees no card.
    move(wait_for_turn(holding), "Dreier")
    for _ in range(2):
        move(wait_for_turn(holding), "Weiter")
    expect(dealer.page.locator("#info")).to_contain_text("spielt Dreier")
    expect(dealer.page.locator("#hand button")).to_have_count(0)
    assert not dealer.my_turn()
    assert trick_cards(dealer) == 0


def test_the_dealer_who_sat_out_closes_the_result_the_others_say_weiter(
    new_person: NewPerson, doppen_server: LiveServer
) -> None:
    """Four at the table, everybody passes: the result is shown to all four; the three who
    played are asked for "Weiter", the dealer who sat out is not and closes it himself."""
    base = doppen_server.base_url
    _room, people = seat_people(
        new_person, base, ["Kai", "Lisa", "Moritz", "Nele"], "doppen", viewport=DESKTOP
    )
    deadline = time.monotonic() + 10
    while len(holding := [p for p in people if p.page.locator("#hand button").count() == 16]) != 3:
        assert time.monotonic() < deadline, "three hands of sixteen were not dealt"
        time.sleep(0.1)
    dealer = next(p for p in people if p not in holding)
    for _ in range(3):
        move(wait_for_turn(holding), "Weiter")
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_visible()
        expect(person.page.locator("#deal-waiting")).to_be_visible()
    for person in holding:
        expect(person.page.locator("#result-close")).to_have_text("Weiter")
        expect(person.page.locator("#result-close")).to_be_enabled()
    close = dealer.page.locator("#result-close")
    expect(close).to_have_text("Schließen")
    expect(close).to_be_enabled()
    close.click()
    expect(dealer.page.locator("#result-dialog")).to_be_hidden()
    # the table waits for the three who played, never for the dealer
    waiting = holding[0].page.locator("#deal-waiting")
    for person in holding:
        expect(waiting).to_contain_text(person.name)
    expect(waiting).not_to_contain_text(dealer.name)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_talon_choices_and_the_announcement_round_pass_axe(
    new_person: NewPerson, doppen_server: LiveServer, artifacts: Path, scheme: str
) -> None:
    """axe-core (tests/browser/axe.py) finds nothing serious on a phone while the talon's
    halves are offered and while the Pagat is announced and the game kontriert."""
    base = doppen_server.base_url
    _room, people = seat_people(new_person, base, ["Kurt", "Lena", "Mia"], "doppen")
    for person in people:
        person.page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
    vorhand = wait_for_turn(people)
    move(vorhand, "Dreier")
    for _ in range(2):
        move(wait_for_turn(people), "Weiter")
    expect(vorhand.page.locator("#info button.choice")).to_have_count(2)
    vorhand.page.screenshot(path=artifacts / f"table-doppen-halves-360-{scheme}.png")
    for person in people:
        assert describe(serious(run_axe(person.page))) == [], person.name
    vorhand.page.locator('#info button.choice[title="Die unteren nehmen"]').click()
    for card in ("card:Kreuz 9", "card:Kreuz 8", "card:Kreuz 7"):
        move(vorhand, card)
    move(wait_for_turn(people), "Pagat ansagen")
    move(wait_for_turn(people), "Kontra")
    expect(vorhand.page.locator("#info")).to_contain_text("Spiel: Kontra (×2)")
    for person in people:
        assert describe(serious(run_axe(person.page))) == [], person.name


def test_everybody_passes_the_deal_is_thrown_in_and_the_kasse_grows(
    new_person: NewPerson, doppen_server: LiveServer
) -> None:
    base = doppen_server.base_url
    _room, people = seat_people(
        new_person, base, ["Nora", "Otto", "Pia"], "doppen", viewport=DESKTOP,
        match_options={"kasse_base_cents": 200},
    )  # fmt: skip
    vorhand = wait_for_turn(people)
    for _ in range(3):
        move(wait_for_turn(people), "Weiter")
    result = vorhand.page.locator("#result-dialog")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Zusammengeworfen")
    expect(result).to_contain_text("halber Einsatz in die Pagatkasse")
    for person in people:
        person.close_result()
    vorhand.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = vorhand.page.locator("#sheet-dialog")
    expect(sheet.locator("tbody tr").first).to_contain_text("zusammengeworfen")
    # filled with 2,00 € each, then half of it each because everybody passed
    expect(sheet).to_contain_text("Inhalt der Pagatkasse: 9,00 €")
    for person in people:
        expect(sheet).to_contain_text(f"{person.name} hat 3,00 € in die Pagatkasse gezahlt")


GOLDEN = REPO_ROOT / "tests" / "golden" / "doppen"


def expected_title(catalogs: Catalogs, lang: str, record: dict[str, Any]) -> str:
    """The result panel's head for a Doppen record, worked out from its outcome."""
    outcome = record["outcome"]
    if outcome["thrown_in"]:
        return text(catalogs, lang, "result.doppen.title_thrown_in")
    if outcome["card_points"] is not None:
        won = outcome["card_points"]["declarer"] > 35
    else:  # a Valat: the declarer's side (0) won it, or the opponents did
        valat = next(p for p in outcome["premiums"] if p["code"] == "valat")
        won = (valat["side"] == 0) == valat["won"]
    contract = text(catalogs, lang, f"contract.doppen.{outcome['contract']}")
    player = record["seats"][outcome["declarer"]]
    key = "table.result.won" if won else "table.result.lost"
    return text(catalogs, lang, key, player=player, contract=contract)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(
    "golden", ["zweier-middle-pair", "unterer-covered", "solo-birds-valat", "thrown-in"]
)
def test_a_doppen_record_replays_with_its_talon_and_its_result_translated(
    new_person: NewPerson, doppen_server: LiveServer, tmp_path: Path, lang: str, golden: str
) -> None:
    base = doppen_server.base_url
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    page, record, errors = open_in_replay(new_person, base, f"{golden}.json", tmp_path, lang)
    actions = [action for _seat, action in record["actions"]]
    takes = [i for i, a in enumerate(actions) if a.startswith("take ")]
    if takes:  # the step after the talon choice: the turned-up talon, the cards taken
        for _ in range(takes[0] + 1):
            page.keyboard.press("ArrowRight")
        info = page.locator("#replay-info")
        key = catalogs.action_key(lang, "doppen", actions[takes[0]])
        assert key is not None
        label = text(catalogs, lang, key)
        expect(info).to_contain_text(label)
        expect(info).to_contain_text(text(catalogs, lang, "info.doppen.talon_open"))
        shown = info.locator(".card").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        assert shown[:6] == record["talon"]
    page.keyboard.press("End")
    expect(page.locator("#replay-result")).to_be_visible()
    expect(page.locator("#result-head")).to_have_text(expected_title(catalogs, lang, record))
    shown_lines = page.locator("#result-lines li").all_inner_texts()
    for line in record["outcome"]["lines"]:
        expected = text(catalogs, lang, f"result.doppen.{line['code']}", **line)
        expected = re.sub(r"-(?=\d)", "\u2212", expected)  # the client's minus sign
        assert any(expected in s for s in shown_lines), (expected, shown_lines)
    assert not [s for s in shown_lines if s.startswith(("{", "result."))]
    assert errors == []


def open_in_replay(
    new_person: NewPerson, base: str, golden: str, tmp_path: Path, lang: str
) -> tuple[Any, dict[str, Any], list[str]]:
    """A new person (Anne) with the golden record ``golden`` open in the replay page: the
    page, the record and the list the page's errors go to."""
    record = json.loads((GOLDEN / golden).read_text(encoding="utf-8"))
    page = new_person(lang=lang)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    register_by_api(page, base, "Anne")
    page.goto(f"{base}/archive/replay?lang={lang}")
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.locator("#record-file").set_input_files(path)
    expect(page.locator("#viewer")).to_be_visible()
    return page, record, errors


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_replay_with_a_face_down_card_steps_through_every_step(
    new_person: NewPerson, doppen_server: LiveServer, tmp_path: Path, lang: str
) -> None:
    """Step by step through a deal where an opponent laid his card face down: no step
    throws, every step is told in words (no raw catalogue key), and at the cover the
    spectator's face-down card is drawn as a card back while its owner's hand is open."""
    base = doppen_server.base_url
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    page, record, errors = open_in_replay(new_person, base, "unterer-covered.json", tmp_path, lang)
    actions = record["actions"]
    cover = next(i for i, (_seat, a) in enumerate(actions) if a.startswith("cover ")) + 1
    seat, action = actions[cover - 1]
    card = action.split()[1]
    total = len(actions)
    counter = page.locator("#step-counter")
    for step in range(1, total + 1):
        page.locator("#step-next").click()
        expect(page.locator("#viewer")).to_have_attribute("data-step", str(step))
        said = page.locator("#step-text").inner_text()
        assert said and not re.search(r"\b(archive|action|table)\.[a-z_]+", said), (step, said)
        if step == cover:
            owner = record["seats"][seat]
            expect(page.locator("#step-text")).to_contain_text(owner)
            assert said.startswith(owner), said
            backs = page.locator("#replay-info .card-back")
            expect(backs).to_have_count(1)
            expect(backs).to_have_attribute(
                "aria-label", text(catalogs, lang, "archive.replay.card_back")
            )
            hand = page.locator(f'.replay-seat[data-seat="{seat}"] .replay-hand .card')
            assert card in hand.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
            verb = text(catalogs, lang, "archive.step.cover", player=owner, card="@")
            before, after = verb.split("@")
            assert said.startswith(before) and after in said, (verb, said)
    expect(counter).to_contain_text(str(total))
    expect(page.locator("#step-next")).to_be_disabled()
    expect(page.locator("#replay-result")).to_be_visible()
    assert errors == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_card_taken_from_the_talon_is_named_not_coded(
    new_person: NewPerson, doppen_server: LiveServer, tmp_path: Path, lang: str
) -> None:
    """An Einer takes one talon card ("take Kr10"): the replay tells it with the card's
    name, and on a page of the game (its description embedded, as the table's) the
    action's label names the card too (the table's button title)."""
    base = doppen_server.base_url
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    page, record, errors = open_in_replay(new_person, base, "einer-one-card.json", tmp_path, lang)
    index, (seat, action) = next(
        (i, a) for i, a in enumerate(record["actions"]) if a[1].startswith("take ")
    )
    code = action.split()[1]
    name = {"de": "Kreuz 10", "en": "10 of Clubs"}[lang]
    for _ in range(index + 1):
        page.keyboard.press("ArrowRight")
    said = page.locator("#step-text")
    expect(said).to_contain_text(f"{record['seats'][seat]}: {text(catalogs, lang, 'action.take')}")
    expect(said).to_contain_text(name)
    expect(said).not_to_contain_text(code)

    room = page.request.post(f"{base}/api/rooms", data={"name": "R", "game": "doppen"}).json()
    page.goto(f"{base}/rooms/{room['id']}?lang={lang}")
    label = page.evaluate(
        """async (action) => (await import("/static/js/game-info.js")).actionLabel(action)""",
        action,
    )
    assert label == f"{text(catalogs, lang, 'action.take')} {name}"
    assert errors == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_room_form_offers_every_doppen_option(
    new_person: NewPerson, doppen_server: LiveServer, lang: str
) -> None:
    """Stake per point, number of deals, the Kasse base and the table signal, each with
    its help, in both languages; axe-core finds nothing serious."""
    base = doppen_server.base_url
    catalogs = load_catalogs(REPO_ROOT / "web" / "locale")
    page = new_person(lang=lang)
    register_by_api(page, base, "Anne")
    page.goto(f"{base}/rooms/new?game=doppen&lang={lang}")
    page.locator("select[name=game]").select_option("doppen")
    form = page.locator("form")
    expect(page.locator('label[for="room-rounds"]')).to_have_text(text(catalogs, lang, "new.deals"))
    expect(page.locator("#room-rounds")).to_have_value("12")
    expect(form).to_contain_text(text(catalogs, lang, "new.stake"))
    for option in ("table_signal", "kasse_base_cents"):
        expect(form).to_contain_text(text(catalogs, lang, f"option.doppen.{option}"))
        expect(form).to_contain_text(text(catalogs, lang, f"option.doppen.{option}.help"))
    expect(page.locator("#mopt-kasse_base_cents")).to_have_value("100")
    expect(page.locator("#opt-table_signal")).to_be_checked()
    assert describe(serious(run_axe(page))) == []
