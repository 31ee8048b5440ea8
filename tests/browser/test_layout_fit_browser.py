"""Every element of the table fits (issue 28): on laptops (1366 × 768, 1280 × 720,
1920 × 1080) the talon's choices, the info lines, the seats and the trick lie inside the
felt, the hand and the buttons inside the screen; on phones the result shows the final
trick and the amounts without scrolling, upright and sideways; at 360 px a seat's name and
badges never hide the countdown or the dealer mark, nor run into the next seat; the score
sheet shows five columns whole beside the table at 1366 px.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, NewPerson
from tests.browser.table_driver import (
    Person,
    box_of,
    move,
    next_mover,
    play_until,
    press,
    register_by_api,
    resize,
    wait_for_turn,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

LAPTOPS: list[ViewportSize] = [
    {"width": 1366, "height": 768},
    {"width": 1280, "height": 720},
    {"width": 1920, "height": 1080},
]
#: phones upright and held sideways
PHONES: list[ViewportSize] = [
    PHONE,
    {"width": 390, "height": 844},
    {"width": 740, "height": 360},
    {"width": 844, "height": 390},
]

#: What a person cannot see whole at the table: a part of the felt (a seat, an info line,
#: a talon choice, a card of the info or the trick) outside the felt's visible box, or the
#: felt, a card of the hand or a button outside the screen.
_OUT_OF_PLACE = """() => {
  const out = [];
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  const box = (n) => n.getBoundingClientRect();
  const within = (r, q) => r.left >= q.left - 0.5 && r.top >= q.top - 0.5
    && r.right <= q.right + 0.5 && r.bottom <= q.bottom + 0.5;
  const screen = {left: 0, top: 0, right: width, bottom: height};
  const name = (n) => (n.getAttribute('aria-label') || n.textContent).trim().slice(0, 40);
  const felt = document.getElementById('felt');
  const f = box(felt);
  if (!within(f, screen)) out.push('the felt');
  const inFelt = '#seats .seat, #info .info-line, #info .choice, #info .card, #trick .card';
  for (const n of felt.querySelectorAll(inFelt)) {
    if (n.closest('.trick.idle')) continue;
    const r = box(n);
    if (r.width === 0) continue;
    if (!within(r, f) || !within(r, screen)) out.push(`felt: ${n.className}: ${name(n)}`);
  }
  // on the screen, not cut by a box around it that clips or scrolls, not under a panel
  const onScreen = '#hand button, #actions button, .table-tools button, .table-bar .tool';
  const panels = [...document.querySelectorAll('dialog.side[open]')].map(box);
  for (const n of document.querySelectorAll(onScreen)) {
    if (n.closest('details:not([open])') || n.closest('[hidden]')) continue;
    const r = box(n);
    if (r.width === 0) continue;
    let seen = within(r, screen) && !panels.some((q) => r.right > q.left + 0.5);
    for (let p = n.parentElement; seen && p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      seen = within(r, box(p));
    }
    if (!seen) out.push(`screen: ${n.className}: ${name(n)}`);
  }
  return out;
}"""


def out_of_place(page: Page) -> list[str]:
    """The elements of the table a person cannot see whole (should be none)."""
    found: list[str] = page.evaluate(_OUT_OF_PLACE)
    return found


def check_laptops(person: Person, artifacts: Path, name: str) -> None:
    """At every laptop size nothing of the table is out of place, and the felt needs no
    scrolling to show all it holds."""
    page = person.page
    for size in LAPTOPS:
        resize(page, size)
        page.screenshot(path=artifacts / f"fit-{name}-{size['width']}x{size['height']}.png")
        assert out_of_place(page) == [], (name, size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        felt = page.locator("#felt")
        assert felt.evaluate("n => n.scrollHeight <= n.clientHeight + 1"), (name, size)


def test_a_doppen_zweier_declarer_sees_the_three_pairs_on_a_laptop(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    _room, people = seat_people(
        new_person, module_server.base_url, ["Anne", "Bert", "Clara"], "doppen",
        viewport=LAPTOPS[0],
    )  # fmt: skip
    vorhand = wait_for_turn(people)
    check_laptops(vorhand, artifacts, "doppen-auction")
    press(vorhand, "Zweier")
    for _ in range(2):
        press(wait_for_turn(people), "Weiter")
    choices = vorhand.page.locator("#info button.choice")
    expect(choices).to_have_count(3)  # the talon in three pairs
    check_laptops(vorhand, artifacts, "doppen-zweier-talon")
    choices.first.click()
    expect(vorhand.page.locator("#hand button")).to_have_count(18)
    check_laptops(vorhand, artifacts, "doppen-zweier-discard")


def test_a_tarock_zu_dritt_talon_choice_fits_a_laptop(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    _room, people = seat_people(
        new_person, module_server.base_url, ["Anna", "Bernd", "Catrin"], "tarock-zu-dritt",
        viewport=LAPTOPS[0],
    )  # fmt: skip
    vorhand = wait_for_turn(people)
    press(vorhand, "Dreier")
    for _ in range(2):
        press(wait_for_turn(people), "Weiter")
    choices = vorhand.page.locator("#info button.choice")
    expect(choices).to_have_count(2)  # the talon's two halves
    check_laptops(vorhand, artifacts, "tarock-zu-dritt-talon")


def test_a_dreierles_einer_fits_a_laptop(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    _room, people = seat_people(
        new_person, module_server.base_url, ["Anna", "Bernd", "Catrin"], "dreierles",
        viewport=LAPTOPS[0],
    )  # fmt: skip
    rng = random.Random(5)
    declarer: Person | None = None
    # the auction: the first to speak says Einer, the others pass (knocks are refused)
    while declarer is None:
        mover = wait_for_turn(people)
        options = mover.options()
        if "Einer" in options:
            press(mover, "Einer")
            declarer = mover
        else:
            move(mover, next(o for o in ("Weiter", "Fertig") if o in options))
    check_laptops(declarer, artifacts, "dreierles-einer")
    # the declarer's exchange, discards and announcements, then the first trick
    page = declarer.page
    play_until(
        people,
        lambda: page.locator("#trick:not(.collected) .card").count() == 2,
        rng,
        prefer=["Pfeife ansagen", "Weiter", "Fertig", "Gut"],
    )
    check_laptops(declarer, artifacts, "dreierles-einer-trick")


def test_four_at_a_doppelkopf_table_fit_a_laptop(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    """Four seats around the trick (the tallest trick, across as well as beside): the
    Vorbehalte and a trick of three cards fit at every laptop size, with every seat's
    party badge shown (whoever may knock does: the seats across grow by a line)."""
    _room, people = seat_people(
        new_person, module_server.base_url, ["Ute", "Paul", "Rita", "Olaf"], "doppelkopf",
        viewport=LAPTOPS[0],
    )  # fmt: skip
    check_laptops(wait_for_turn(people), artifacts, "doppelkopf-vorbehalt")
    for _ in range(4):
        move(wait_for_turn(people), "Gesund")
    play_until(
        people,
        lambda: people[0].page.locator("#trick:not(.collected) .card").count() == 3,
        random.Random(4),
        prefer=("Klopfen",),
    )
    check_laptops(wait_for_turn(people), artifacts, "doppelkopf-trick")


#: What hides a seat's countdown or dealer mark at the phone's width, or lets a badge run
#: out of its seat: a mark outside its seat or covered at its middle (by a neighbour, or
#: clipped so that its parent is hit there), a badge outside its seat or over another seat,
#: two seats over each other.
_SEAT_PROBLEMS = """() => {
  const out = [];
  const within = (r, q) => r.left >= q.left - 0.5 && r.top >= q.top - 0.5
    && r.right <= q.right + 0.5 && r.bottom <= q.bottom + 0.5;
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const seats = [...document.querySelectorAll('#seats .seat')];
  const boxes = seats.map((s) => s.getBoundingClientRect());
  const width = document.documentElement.clientWidth;
  seats.forEach((seat, i) => {
    const own = boxes[i];
    const who = seat.querySelector('.seat-who').textContent.trim();
    if (own.left < -0.5 || own.right > width + 0.5) out.push(`${who}: the seat leaves the screen`);
    boxes.forEach((other, j) => {
      if (j > i && meet(own, other)) out.push(`${who}: over another seat`);
    });
    for (const mark of seat.querySelectorAll('.countdown, .seat-marker')) {
      const r = mark.getBoundingClientRect();
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      if (r.width < 4 || !within(r, own)) out.push(`${who}: ${mark.textContent} outside the seat`);
      else if (!hit || !mark.contains(hit)) out.push(`${who}: ${mark.textContent} covered`);
    }
    for (const mark of seat.querySelectorAll('.computer-mark')) {
      // every line of its text and its icon, not only its box (text may overflow a box)
      const range = document.createRange();
      range.selectNodeContents(mark);
      if (![...range.getClientRects()].every((r) => r.width === 0 || within(r, own)))
        out.push(`${who}: ${mark.textContent.trim()} outside the seat`);
    }
    for (const badge of seat.querySelectorAll('.badge')) {
      const r = badge.getBoundingClientRect();
      if (!within(r, own)) out.push(`${who}: badge ${badge.textContent} outside the seat`);
      boxes.forEach((other, j) => {
        if (j !== i && meet(r, other)) out.push(`${who}: badge ${badge.textContent} over a seat`);
      });
    }
  });
  return out;
}"""


def seat_problems(page: Page) -> list[str]:
    """What hides a seat's countdown or marks or lets a badge or a computer player's mark
    run out (should be none)."""
    found: list[str] = page.evaluate(_SEAT_PROBLEMS)
    return found


#: What keeps the result from showing the final trick and the amounts without scrolling:
#: a card of the trick or an amount outside the panel's visible body or the screen, a card
#: outside the trick's green, the "Weiter" button out of sight.
_RESULT_PROBLEMS = """() => {
  const out = [];
  const within = (r, q) => r.left >= q.left - 0.5 && r.top >= q.top - 0.5
    && r.right <= q.right + 0.5 && r.bottom <= q.bottom + 0.5;
  const screen = {left: 0, top: 0, right: document.documentElement.clientWidth,
    bottom: window.innerHeight};
  // in sight: on the screen and inside every box around it that clips or scrolls
  const seen = (node) => {
    const r = node.getBoundingClientRect();
    if (r.width === 0 || !within(r, screen)) return false;
    for (let p = node.parentElement; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.display === 'contents') continue;
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (!within(r, p.getBoundingClientRect())) return false;
    }
    return true;
  };
  const dialog = document.getElementById('result-dialog');
  const felt = document.getElementById('result-trick').getBoundingClientRect();
  if (!within(dialog.getBoundingClientRect(), screen)) out.push('the panel');
  for (const card of dialog.querySelectorAll('#result-trick .card')) {
    const r = card.getBoundingClientRect();
    if (!within(r, felt)) out.push(`card ${card.dataset.card || ''} cut by the green`);
    if (!seen(card)) out.push(`card ${card.dataset.card || ''} hidden`);
  }
  for (const cell of dialog.querySelectorAll('#result .num')) {
    if (!seen(cell)) out.push(`amount ${cell.textContent} hidden`);
  }
  if (!seen(document.getElementById('result-close'))) out.push('the button');
  return out;
}"""


def result_problems(page: Page) -> list[str]:
    """What of the final trick and the amounts is not in view (should be nothing)."""
    found: list[str] = page.evaluate(_RESULT_PROBLEMS)
    return found


def _mover_or_result(people: list[Person], result: Locator) -> Person | None:
    """The person to move, or ``None`` once ``result`` is shown (waits up to 10 s)."""
    deadline = time.monotonic() + 10
    while (mover := next_mover(people)) is None:
        if result.is_visible():
            return None
        assert time.monotonic() < deadline, "nobody's turn, and no result"
        time.sleep(0.05)
    return mover


def test_on_a_phone_seats_keep_their_marks_and_the_result_fits(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    """Four players with long names at 360 px and a turn timer: a Trumpfsolo with a Kontra
    gives long badges; every seat keeps its countdown and marks in sight and its badges to
    itself on every screen at every move. The deal's result shows its final trick and the
    amounts without scrolling, upright and sideways."""
    names = ["Annabella Maximiliane", "Bernhard-Christoph", "Christiane Luise", "Donatus"]
    _room, people = seat_people(
        new_person, module_server.base_url, names, "doppelkopf",
        timer_seconds=600, stake_cents=10,
    )  # fmt: skip
    first = wait_for_turn(people)
    press(first, "Trumpfsolo")
    rng = random.Random(28)
    checked = 0
    result = people[0].page.locator("#result-dialog")
    while not result.is_visible():
        # the deal's last card: nobody is to move, and the result comes a moment later
        mover = _mover_or_result(people, result)
        if mover is None:
            break
        for person in people:
            if person.page.locator("#result-dialog").is_visible():
                break
            assert seat_problems(person.page) == [], person.name
            checked += 1
        if checked == 4:
            people[0].page.screenshot(path=artifacts / "fit-seats-360.png")
        options = mover.options()
        wanted = [o for o in ("Kontra", "Re", "Gesund") if o in options]
        move(mover, wanted[0] if wanted else rng.choice(options))
    assert checked >= 40
    for person in people:
        expect(person.page.locator(".badge", has_text="spielt Trumpfsolo")).to_have_count(1)
        expect(person.page.locator(".badge", has_text="Kontra")).not_to_have_count(0)
    page = people[0].page
    expect(page.locator("#result-trick .card")).to_have_count(4)
    expect(page.locator("#result .num").first).to_be_visible()
    for size in PHONES:
        resize(page, size)
        page.screenshot(path=artifacts / f"fit-result-{size['width']}x{size['height']}.png")
        assert result_problems(page) == [], size


#: The final trick's caption ("Stich an …") not shown whole in the result.
_CAPTION_CUT = """() => {
  const caption = document.querySelector('#result-trick .trick-caption');
  if (!caption) return 'no caption';
  const cut = caption.scrollWidth > caption.clientWidth + 1
    || caption.scrollHeight > caption.clientHeight + 1;
  return cut ? caption.textContent : '';
}"""


#: Whether the caption's last word (the winner's number or name) is on the same line as
#: "Computer" / the name's start: the caption's text after "Stich an " lies on one line.
_NAME_WHOLE = """(caption) => {
  const text = caption.firstChild;
  const start = caption.textContent.indexOf('Stich an ') + 'Stich an '.length;
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, caption.textContent.length);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return lines.size === 1;
}"""


def test_on_a_phone_computer_players_keep_their_marks_in_their_seats(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    """One person and three computer players at Doppelkopf on a 360 px phone: each seat's
    "Computer (stark)" or "Computer (Einsteiger)" stays inside the seat at every move of a
    whole deal, and the result names the final trick's winner whole ("Stich an Computer 2"),
    upright and sideways."""
    base = module_server.base_url
    page = new_person(viewport=PHONE)
    register_by_api(page, base, "Ida")
    # no Schmeißen: the searching player throws five Neunen or Könige in; this deal is played
    body = {"name": "Übung", "game": "doppelkopf", "rounds": 1, "computer_pause_ms": [0, 0],
            "options": {"schmeissen": "aus"}}  # fmt: skip
    created = page.request.post(f"{base}/api/rooms", data=body)
    assert created.status == 201, created.text()
    room = created.json()["id"]
    for level in ("stark", "einsteiger", "stark"):
        seated = page.request.post(f"{base}/api/rooms/{room}/computers", data={"level": level})
        assert seated.status == 201, seated.text()
    started = page.request.post(f"{base}/api/rooms/{room}/start")
    assert started.status == 200, started.text()
    page.goto(f"{base}/rooms/{room}/table")
    expect(page.locator("#seats .seat.computer .computer-mark")).to_have_count(3)
    ida = Person("Ida", page)
    result = page.locator("#result-dialog")
    rng = random.Random(30)
    checked = 0
    deadline = time.monotonic() + 120
    while not result.is_visible():
        assert time.monotonic() < deadline, "the deal did not end"
        assert seat_problems(page) == []
        checked += 1
        if checked == 4:
            page.screenshot(path=artifacts / "fit-computers-seats-360.png")
        if ida.my_turn() and (options := ida.options()):
            move(ida, next((o for o in options if o == "Gesund"), rng.choice(options)))
        else:
            time.sleep(0.1)
    assert checked >= 12
    page.screenshot(path=artifacts / "fit-computers-result-360.png")
    caption = page.locator("#result-trick .trick-caption")
    expect(caption).to_have_text(re.compile("^Stich an (Ida|Computer\u00a0\\d)$"))
    for size in PHONES:
        resize(page, size)
        shot = f"fit-computers-result-{size['width']}x{size['height']}.png"
        page.screenshot(path=artifacts / shot)
        assert page.evaluate(_CAPTION_CUT) == "", size
        # the winner's name is never split over two lines
        assert caption.evaluate(_NAME_WHOLE), size


#: The score sheet's columns a person cannot read whole: a header or a cell outside the
#: panel or cut by the sheet's box, and whether that box scrolls sideways.
_SHEET_PROBLEMS = """() => {
  const out = [];
  const scroll = document.querySelector('#sheet-dialog .sheet-scroll');
  const box = scroll.getBoundingClientRect();
  const panel = document.getElementById('sheet-dialog').getBoundingClientRect();
  if (scroll.scrollWidth > scroll.clientWidth + 1) out.push('the sheet scrolls sideways');
  for (const cell of document.querySelectorAll('#sheet-dialog thead th, #sheet-dialog tbody td')) {
    const r = cell.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > panel.right + 0.5)
      out.push(`cut: ${cell.textContent.trim().slice(0, 30)}`);
    if (cell.scrollWidth > cell.clientWidth + 1)
      out.push(`cut: ${cell.textContent.trim().slice(0, 30)}`);
  }
  return out;
}"""


def test_the_sheet_beside_the_table_shows_every_column_at_1366(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path
) -> None:
    """Four at a Doppen table (the dealer sits out): the sheet has the number, the game and
    four players' columns; beside the table at 1366 px each is whole, nothing scrolls
    sideways, with the chat open below it too, and the table beside it still fits."""
    names = ["Annabella", "Bernhard", "Christiane", "Donatus"]
    _room, people = seat_people(
        new_person, module_server.base_url, names, "doppen", viewport=LAPTOPS[0],
        stake_cents=10, match_options={"kasse_base_cents": 100},
    )  # fmt: skip
    for _ in range(3):  # everybody passes: the deal is thrown in, a row on the sheet
        press(wait_for_turn(people), "Weiter")
    for person in people:  # the result for all four, before anybody says "Weiter"
        expect(person.page.locator("#result-dialog")).to_be_visible()
    for person in people:  # "Weiter" from each of the three who played, the dealer closes it
        if person.page.locator("#result-close").is_enabled():
            person.close_result()
    page = next(p.page for p in people if p.page.locator("#seats .seat .you").count())
    expect(page.locator("#result-dialog")).to_be_hidden()
    page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    sheet = page.locator("#sheet-dialog")
    expect(sheet.locator("tbody tr")).to_have_count(1)
    columns = sheet.locator("thead tr").first.locator("th")
    assert columns.count() >= 6  # #, the game, four players
    assert box_of(page, "#sheet-dialog")["x"] >= LAPTOPS[0]["width"] / 2  # beside the table
    page.screenshot(path=artifacts / "fit-sheet-1366.png")
    assert page.evaluate(_SHEET_PROBLEMS) == []
    page.locator("#open-chat").click()
    expect(page.locator("#chat-dialog")).to_be_visible()
    expect(sheet).to_be_visible()
    page.screenshot(path=artifacts / "fit-sheet-chat-1366.png")
    assert page.evaluate(_SHEET_PROBLEMS) == []
    # the panels cover none of the site's links
    panel = box_of(page, "#sheet-dialog")
    for link in page.locator(".site-header a").all():
        assert link.evaluate("n => n.getBoundingClientRect().right") <= panel["x"]
    mover = wait_for_turn(people)
    assert out_of_place(page) == [] and out_of_place(mover.page) == []
