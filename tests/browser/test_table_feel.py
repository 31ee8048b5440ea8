"""What makes the table feel like a table (issue 13): the turn timer counts down on the
seat to move and marks what it played; the last trick and the result stay until every
player tapped "Weiter"; the dealer and the Vorhand are marked; "Du bist dran" in the tab
title; cards are buttons named after the card and playable with the keyboard; movement
stops for people who asked for less.
"""

from __future__ import annotations

import json
import random
import re
from typing import Literal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import (
    move,
    next_mover,
    play_until,
    trick_boxes,
    version,
    wait_for_turn,
)
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

CLOCK = re.compile(r"^\d+:\d\d$")


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_turn_timer_counts_down_on_the_seat_and_marks_what_it_played(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Anna", "Bernd", "Catrin"]
    _room, people = seat_people(
        # the timer plays the passive move itself only without a stand-in
        new_person,
        module_server.base_url,
        names,
        "dreierles",
        timer_seconds=10,
        standin=False,
    )
    mover = wait_for_turn(people)
    for person in people:
        timer = person.page.locator(f'.seat:has-text("{mover.name}") [role="timer"]')
        expect(timer).to_have_count(1)
        expect(timer).to_have_text(CLOCK)
        # only the seat to move has a countdown
        expect(person.page.locator('#seats [role="timer"]')).to_have_count(1)
    page = people[0].page
    timer = page.locator('#seats [role="timer"]')
    first = seconds(timer.inner_text())
    assert 0 < first <= 10
    # it counts down (whatever the speed) and warns near the end, with a sign besides colour
    page.wait_for_function(
        "first => { const n = document.querySelector('#seats [role=timer]');"
        " if (!n) return false; const [m, s] = n.textContent.split(':');"
        " return Number(m) * 60 + Number(s) < first; }",
        arg=first,
        timeout=15_000,
    )
    expect(timer).to_have_class(re.compile(r"\bwarning\b"))
    expect(timer).to_have_attribute("aria-label", re.compile(rf"^{mover.name}: "))
    # nobody moves: the timer plays for the mover, and everybody sees it marked
    before = version(page)
    page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
        timeout=30_000,
    )
    for person in people:
        seat = person.page.locator(".seat", has_text=mover.name)
        expect(seat.locator(".badge", has_text="Timer hat gespielt")).to_be_visible()
        expect(person.page.locator("#notice")).to_contain_text(
            f"Zeit abgelaufen: für {mover.name} gespielt"
        )
    # the mark survives a reload (the snapshot lists what the timer played)
    page.reload()
    seat = page.locator(".seat", has_text=mover.name)
    expect(seat.locator(".badge", has_text="Timer hat gespielt")).to_be_visible()


def test_the_next_deal_waits_for_everybodys_weiter(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Xaver", "Yvonne", "Zora"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    xaver = people[0]
    # the markers of the dealer and of the Vorhand, named for screen readers
    for person in people:
        expect(person.page.locator('.seat-marker[aria-label="Vorhand"]')).to_have_count(1)
    # the mover's tab title says it is their turn, the others' do not
    mover = wait_for_turn(people)
    expect(mover.page).to_have_title(re.compile(r"^Du bist dran · "))
    for person in people:
        if person is not mover:
            expect(person.page).not_to_have_title(re.compile(r"^Du bist dran"))
    play_until(
        people,
        lambda: xaver.page.locator("#result-dialog").is_visible(),
        random.Random(9),
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    for person in people:
        dialog = person.page.locator("#result-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Kartenpunkte")
        # the last trick stays in view with the result
        assert len(trick_boxes(person.page, "#result-trick")) == 3
        expect(person.page.locator("#deal-waiting")).to_contain_text(
            "Wir warten auf: Xaver, Yvonne, Zora"
        )
    # two tap "Weiter": the table still waits for the third, nothing is dealt
    for person in people[:2]:
        person.page.locator("#result-close").click()
    for person in people:
        expect(person.page.locator("#deal-waiting")).to_have_text("Wir warten auf: Zora")
    expect(people[0].page.locator("#result-close")).to_be_disabled()
    expect(people[2].page.locator("#result-close")).to_be_enabled()
    expect(people[2].page.locator("#hand button")).to_have_count(0)
    # the last one taps: the result closes everywhere and the next deal is dealt
    people[2].page.locator("#result-close").click()
    for person in people:
        expect(person.page.locator("#result-dialog")).to_be_hidden()
        expect(person.page.locator("#hand button")).to_have_count(16)
        expect(person.page.locator("#deal-number")).to_have_text("Spiel 2")


def test_cards_are_named_buttons_playable_by_keyboard(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Ute", "Paul", "Rita", "Olaf"]
    _room, people = seat_people(new_person, module_server.base_url, names, "doppelkopf")
    for _ in range(4):
        mover = wait_for_turn(people)
        before = version(mover.page)
        mover.page.get_by_role("button", name="Gesund", exact=True).press("Enter")
        # until the server's answer is in, this page still says it is our turn
        mover.page.wait_for_function(
            "before => Number(document.getElementById('table').dataset.version) > before",
            arg=before,
        )
    mover = wait_for_turn(people)
    hand = mover.page.locator("#hand button")
    names_of_cards = hand.evaluate_all("ns => ns.map(n => n.getAttribute('aria-label'))")
    assert all(
        re.fullmatch(r"(Kreuz|Pik|Herz|Karo) (Ass|König|Dame|Bube|10|9|Zehn|Neun)", n)
        for n in names_of_cards
    ), names_of_cards
    # playable cards differ by more than colour: they are lifted and say so
    playable = mover.page.locator('#hand button[aria-disabled="false"]').first
    label = playable.get_attribute("aria-label")
    before = version(mover.page)
    playable.focus()
    mover.page.keyboard.press("Enter")
    mover.page.wait_for_function(
        "before => Number(document.getElementById('table').dataset.version) > before",
        arg=before,
    )
    assert label is not None
    played = mover.page.locator("#trick .card").first.get_attribute("title")
    assert played is not None and played.startswith(label)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_fly_in_and_tricks_slide_to_their_winner_unless_asked_not_to(
    new_person: NewPerson, module_server: LiveServer, motion: Literal["no-preference", "reduce"]
) -> None:
    """The card just played flies into the trick and a finished trick slides towards its
    winner's seat; for people who asked for less movement nothing moves."""
    names = ["Ida", "Jan", "Kai"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    for person in people:
        person.page.emulate_media(reduced_motion=motion)
    play_until(
        people,
        lambda: people[0].page.locator("#trick:not(.collected) .card").count() == 2,
        random.Random(4),
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    page = people[0].page
    animations = page.locator("#trick .slot").evaluate_all(
        "ns => ns.map(n => getComputedStyle(n).animationName)"
    )
    if motion == "reduce":
        assert animations == ["none", "none"], animations
    else:  # only the newest card flies in (the first is already lying there)
        assert animations == ["none", "arrive"], animations
    play_until(
        people,
        lambda: page.locator("#trick.collected .card").count() == 3,
        random.Random(5),
    )
    trick = page.locator("#trick")
    winner = page.locator("#trick .card.winner").locator("..")  # the winner's slot
    where = re.search(r"slot-(bottom|left|top|right)", winner.get_attribute("class") or "")
    assert where is not None
    if motion == "reduce":
        page.wait_for_timeout(1500)  # longer than the moment the trick lies still
        expect(trick).not_to_have_class(re.compile(r"\bto-winner\b"))
    else:  # after a moment to see it, towards the winner
        expect(trick).to_have_class(re.compile(rf"\bto-winner\b.*\btoward-{where.group(1)}\b"))


def test_a_forced_deal_is_announced_at_the_table(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """A match of one round: its only round is the final one, "Räuber oder Solo", and the
    table says so above the felt before anybody bids (spec13 §3)."""
    names = ["Lena", "Max", "Nora"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles", rounds=1)
    for person in people:
        expect(person.page.locator("#setup-note")).to_have_text("Letzte Runde: Räuber oder Solo")


def test_a_rauber_result_shows_every_players_card_points(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """Nobody bids: the Räuber is played, and its result names the contract in German and
    gives each player's card points besides the Blinder's."""
    names = ["Olga", "Piet", "Quirin"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    olga = people[0]
    play_until(
        people,
        lambda: olga.page.locator("#result-dialog").is_visible(),
        random.Random(6),
        prefer=["Weiter", "Fertig"],
    )
    dialog = olga.page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("Räuber")
    for name in names:
        expect(dialog).to_contain_text(re.compile(rf"{name}: \d+( \d/\d)? Kartenpunkte"))
    expect(dialog).to_contain_text("Im Blinder: ")
    expect(dialog).not_to_contain_text("raeuber")


def test_signals_are_off_until_switched_on_and_remembered(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    names = ["Vera", "Wim", "Yara"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    page = people[0].page
    page.get_by_role("button", name="Signale bei „Du bist dran“").click()
    dialog = page.locator("#settings-dialog")
    for label in ("Ton", "Vibration", "Benachrichtigung, wenn der Tab im Hintergrund ist"):
        expect(dialog.get_by_label(label)).not_to_be_checked()
    dialog.get_by_label("Ton").check()
    page.reload()
    page.get_by_role("button", name="Signale bei „Du bist dran“").click()
    expect(dialog.get_by_label("Ton")).to_be_checked()
    expect(dialog.get_by_label("Vibration")).not_to_be_checked()


#: Stand-ins for the browser's signal APIs, installed before the page's scripts run:
#: every beep, vibration and notification is recorded in ``window.signals``; the page
#: is "hidden" (another tab in front) when ``hidden`` is set, and its signal settings are
#: stored as ``settings`` says, as the settings dialog stores them.
SIGNAL_STUBS = """
([settings, hidden]) => {
  window.signals = [];
  localStorage.setItem("stammtisch.table.feel", JSON.stringify(settings));
  class FakeAudio {
    constructor() { this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      window.signals.push("sound");
      return { frequency: {}, connect: (n) => n, start() {}, stop() {} };
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
               connect: (n) => n };
    }
  }
  window.AudioContext = FakeAudio;
  navigator.vibrate = (pattern) => { window.signals.push("vibrate"); return true; };
  Object.defineProperty(document, "hidden", { get: () => hidden });
  class FakeNotification {
    static permission = "granted";
    static requestPermission() { return Promise.resolve("granted"); }
    constructor(title, options) { window.signals.push(`notify: ${title} | ${options.body}`); }
  }
  window.Notification = FakeNotification;
}
"""


def test_your_turn_beeps_vibrates_and_notifies_only_when_asked(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """Whoever switched the signals on gets a beep, a vibration and (with the tab in the
    background) a notification when the turn comes to them, and "Du bist dran" in the tab
    title; whoever did not, gets none of it."""
    names = ["Zoe", "Ugo", "Tia"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    everything = {"sound": True, "vibrate": True, "notify": True}
    nothing = {"sound": False, "vibrate": False, "notify": False}
    wanted = {"Zoe": everything, "Ugo": nothing, "Tia": everything}
    for person in people:
        script = f"({SIGNAL_STUBS})([{_js(wanted[person.name])}, {_js(person.name == 'Zoe')}])"
        person.page.add_init_script(script)
        person.page.reload()
    turns: dict[str, int] = {}
    for _ in range(3):  # the auction goes round: each seat's turn comes once at least
        mover = wait_for_turn(people)
        page = mover.page
        expect(page).to_have_title(re.compile(r"^Du bist dran · "))
        turns[mover.name] = turns.get(mover.name, 0) + 1
        page.wait_for_timeout(100)
        signals: list[str] = page.evaluate("window.signals")
        if wanted[mover.name]["sound"]:
            assert signals.count("sound") >= 2 * turns[mover.name], signals  # a double beep
            assert signals.count("vibrate") == turns[mover.name], signals
            notes = [s for s in signals if s.startswith("notify: ")]
            if mover.name == "Zoe":  # her tab is in the background
                assert len(notes) == turns[mover.name], signals
                assert notes[0].startswith("notify: Du bist dran | "), notes
            else:  # a visible tab is not notified
                assert notes == [], signals
        else:
            assert signals == [], signals
        option = "Weiter" if "Weiter" in mover.options() else mover.options()[0]
        move(mover, option)
        expect(page).not_to_have_title(re.compile(r"^Du bist dran"))
    assert len(turns) == 3, turns


def _js(value: object) -> str:
    return json.dumps(value)


def test_the_turn_line_says_how_many_cards_and_counts_in_the_singular(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """The declarer is told how many cards are still to be laid away (singular for the
    last one); without a Pfeife only "fertig" is asked for; a seat with one trick shows
    "1 Stich"."""
    names = ["Lea", "Max", "Nina"]
    _room, people = seat_people(new_person, module_server.base_url, names, "dreierles")
    lay_away = re.compile(r"^Du bist am Zug: lege noch (\d) Karten? ab")
    seen: list[str] = []

    def turn_line() -> bool:
        mover = next_mover(people)
        if mover is None:
            return False
        line = mover.page.locator("#turn").inner_text()
        if not seen or seen[-1] != line:
            seen.append(line)
        return mover.page.locator("#trick.collected .card").count() > 0

    play_until(people, turn_line, random.Random(8), prefer=["Zweier", "Weiter"])
    counts = [m.group(1) for line in seen if (m := lay_away.match(line))]
    assert counts == ["2", "1"], seen
    assert "Du bist am Zug: lege noch 1 Karte ab (keinen König, keinen Trumpf)" in seen
    declare = [line for line in seen if line.startswith("Du bist am Zug: sag „Fertig“")]
    pfeife = [line for line in seen if line == "Du bist am Zug: Pfeife ansagen oder „Fertig“"]
    assert len(declare) + len(pfeife) == 1, seen
    page = people[0].page
    expect(page.locator("#seats")).to_contain_text("1 Stich")
    expect(page.locator("#seats")).not_to_contain_text("1 Stiche")
