"""'Du bist dran' in a real browser at phone size: the start page lists the tables that
wait for the person with their deadlines, counts them in the tab's title and on the app's
badge, and follows the ``turns`` table when the tab is shown again; the deadline's words
(web/static/js/deadline.js); the room form's Tempo. End to end with the Fernpartie's room
API (tempo_seconds, holidays, turn.deadline): a correspondence room's page with its
holidays, and the table's deadline."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.axe import describe, run_axe, serious
from tests.browser.conftest import NewPerson
from tests.browser.table_driver import register_by_api
from tests.support import LiveServer
from tests.turns_support import add_turn, remove_turn

WORDS = """async () => {
  const d = await import("/static/js/deadline.js");
  const when = new Date("2026-11-28T13:05:00Z");
  const H = 3600000;
  return {
    de: d.dueText(when, "de", "Europe/Berlin"),
    en: d.dueText(when, "en", "Europe/Berlin"),
    summer: d.dueText(new Date("2026-07-03T06:00:00Z"), "de", "Europe/Vienna"),
    left: [21.5 * H, 47.9 * H, 50 * H, 7 * 24 * H, 59.2 * 60000, 20000, 0, -5].map(d.leftText),
    line: d.dueLine("2026-11-28T13:05:00Z", Date.parse("2026-11-27T16:00:00Z"), "de",
                    "Europe/Berlin"),
    live: d.dueLine(null, 0),
    skew: d.clockSkew("2026-11-27T16:00:10Z", Date.parse("2026-11-27T16:00:00Z")),
    noSkew: d.clockSkew(null, 5),
  };
}"""


def test_the_deadline_in_words(module_server: LiveServer, new_person: NewPerson) -> None:
    page = new_person()
    page.goto(module_server.base_url + "/")
    assert page.evaluate(WORDS) == {
        "de": "Sa., 28.11., 14:05",
        "en": "Sat 28 Nov, 14:05",
        "summer": "Fr., 03.07., 08:00",
        "left": ["noch 21 Std.", "noch 47 Std.", "noch 2 Tage", "noch 7 Tage", "noch 60 Min.",
                 "noch 1 Min.", "Zeit abgelaufen", "Zeit abgelaufen"],
        "line": "bis Sa., 28.11., 14:05 · noch 21 Std.",
        "live": "jetzt (live)",
        "skew": 10000,
        "noSkew": 0,
    }  # fmt: skip


def api(page: Page, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    """Call the JSON API with ``page``'s cookies; the answer's JSON."""
    response = page.request.fetch(url, method=method, data=body)
    assert response.ok, response.text()
    return response.json()


#: Records what the page puts on the app's badge (the browser's own call does nothing
#: visible in a test).
BADGE_PROBE = """
window.__badges = [];
navigator.setAppBadge = (n) => { window.__badges.push(n); return Promise.resolve(); };
navigator.clearAppBadge = () => { window.__badges.push(0); return Promise.resolve(); };
"""

DUE = re.compile(r"^bis \w\w\., \d\d\.\d\d\., \d\d:\d\d · noch 21 Std\.$")


def no_serious_violations(page: Page) -> None:
    """axe-core finds nothing serious or critical on ``page`` as it is now."""
    found = serious(run_axe(page))
    assert not found, "\n".join(describe(found))


def shown_again(page: Page) -> None:
    """The tab comes back to the front (as when a phone's browser is opened again)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_the_start_page_lists_the_tables_that_wait_for_me(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base, db = module_server.base_url, module_server.database_path
    page = new_person()
    page.add_init_script(BADGE_PROBE)
    me = register_by_api(page, base, "Wally")
    page.goto(base + "/")
    expect(page.locator("#my-rooms")).to_be_visible()
    expect(page.locator("#turns")).to_be_hidden()  # nothing waits
    assert page.title() == "Stammtisch – Kartenspiele mit Freunden"

    week = api(page, "POST", f"{base}/api/rooms", {"name": "Wochenrunde", "game": "doppelkopf"})
    live = api(page, "POST", f"{base}/api/rooms", {"name": "Freitag live", "game": "dreierles"})
    now = datetime.now(UTC)
    week_match = add_turn(db, week["id"], me, since=now - timedelta(hours=2),
                          deadline=now + timedelta(hours=21, minutes=30),
                          config={"tempo_seconds": 86400})  # fmt: skip
    live_match = add_turn(db, live["id"], me, since=now, deadline=None)

    page.goto(base + "/")
    section = page.get_by_role("region", name=re.compile("Du bist dran"))
    expect(section).to_be_visible()
    items = section.locator("li.turn-item")
    expect(items).to_have_count(2)
    expect(section.locator("#turns-count")).to_have_text("2")
    # the live table first (it happens now), then by deadline
    expect(items.nth(0).locator(".room-name")).to_have_text("Freitag live")
    expect(items.nth(0).locator(".turn-due")).to_have_text("jetzt (live)")
    expect(items.nth(1).locator(".room-name")).to_have_text("Wochenrunde")
    expect(items.nth(1)).to_contain_text("Doppelkopf")
    expect(items.nth(1).locator(".turn-due")).to_have_text(DUE)
    expect(items.nth(1).locator("a")).to_have_attribute("href", f"/rooms/{week['id']}/table")
    expect(page).to_have_title("(2) Stammtisch – Kartenspiele mit Freunden")
    assert page.evaluate("window.__badges") == [2]
    box = items.nth(1).bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360  # fits the phone
    no_serious_violations(page)

    remove_turn(db, live_match)  # the live move was made
    shown_again(page)
    expect(items).to_have_count(1)
    expect(items.nth(0).locator(".room-name")).to_have_text("Wochenrunde")
    expect(page).to_have_title("(1) Stammtisch – Kartenspiele mit Freunden")
    expect(section.locator("#turns-count")).to_have_text("1")

    remove_turn(db, week_match)
    shown_again(page)
    expect(page.locator("#turns")).to_be_hidden()
    expect(page).to_have_title("Stammtisch – Kartenspiele mit Freunden")
    assert page.evaluate("window.__badges")[-1] == 0


def test_the_room_form_sends_the_tempo(module_server: LiveServer, new_person: NewPerson) -> None:
    base = module_server.base_url
    page = new_person()
    register_by_api(page, base, "Tina")
    page.goto(base + "/rooms/new?game=doppelkopf")
    holidays = page.get_by_label("Urlaubstage pro Jahr")
    expect(holidays).to_be_hidden()  # live: no holidays
    delay = page.locator("#room-standin-delay")
    expect(delay).to_be_visible()  # live: the stand-in comes after a delay offline
    page.get_by_label("Name des Raums").fill("Fernrunde")
    tempo = page.get_by_label("Tempo", exact=True)
    expect(tempo).to_have_value("")
    assert tempo.locator("option").all_text_contents() == [
        "Live (am Tisch)", "12 Stunden", "1 Tag", "2 Tage", "3 Tage", "7 Tage"
    ]  # fmt: skip
    tempo.select_option(label="2 Tage")
    expect(holidays).to_be_visible()
    expect(delay).to_be_hidden()  # a Fernpartie's stand-in plays at a deadline only
    expect(holidays).to_have_value("14")
    holidays.fill("21")
    no_serious_violations(page)
    with page.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as sent:
        page.get_by_role("button", name="Raum anlegen").click()
    body = json.loads(sent.value.post_data or "{}")
    assert (body["name"], body["tempo_seconds"], body["holiday_days"]) == ("Fernrunde", 172800, 21)
    # the page goes to the new room once the server answered: wait for that, or it could
    # still go there after the next page began to load
    expect(page).to_have_url(re.compile(r"/rooms/\d+$"), timeout=15_000)

    # a live room sends neither: the server's defaults (live, 14 days)
    page.goto(base + "/rooms/new?game=doppelkopf")
    page.get_by_label("Name des Raums").fill("Liverunde")
    page.get_by_label("Tempo", exact=True).select_option(label="3 Tage")
    page.get_by_label("Tempo", exact=True).select_option(label="Live (am Tisch)")
    expect(page.get_by_label("Urlaubstage pro Jahr")).to_be_hidden()
    with page.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as sent:
        page.get_by_role("button", name="Raum anlegen").click()
    body = json.loads(sent.value.post_data or "{}")
    assert "tempo_seconds" not in body and "holiday_days" not in body
    expect(page).to_have_url(re.compile(r"/rooms/\d+$"), timeout=15_000)


HOLIDAY_WORDS = """async () => {
  const h = await import("/static/js/room-holidays.js");
  const d = await import("/static/js/deadline.js");
  const anna = {id: 4, user_id: 7, name: "Anna", starts_at: "2026-12-01T00:00:00+00:00",
                ends_at: "2026-12-04T00:00:00+00:00", days: 3};
  const one = {...anna, id: 5, starts_at: "2026-12-24T00:00:00+00:00",
               ends_at: "2026-12-25T00:00:00+00:00", days: 1};
  const before = Date.parse("2026-11-30T12:00:00Z");
  return {
    day: d.dayText(new Date("2026-12-01T00:00:00Z"), "de", "UTC"),
    dayEn: d.dayText(new Date("2026-12-01T00:00:00Z"), "en", "UTC"),
    line: h.holidayLine(anna, "de", "UTC"),
    single: h.holidayLine(one, "de", "UTC"),
    mine: h.removable(anna, 7, before),
    begun: h.removable(anna, 7, Date.parse("2026-12-01T00:00:00Z")),
    others: h.removable(anna, 8, before),
    used: h.usedLine({allowed: 14, year: 2026, used: 3, holidays: [anna]}),
  };
}"""


def test_the_holidays_in_words(module_server: LiveServer, new_person: NewPerson) -> None:
    page = new_person()
    page.goto(module_server.base_url + "/")
    assert page.evaluate(HOLIDAY_WORDS) == {
        "day": "Di., 01.12.",
        "dayEn": "Tue 1 Dec",
        "line": "Anna: Di., 01.12. bis Do., 03.12. (3 Tage)",
        "single": "Anna: Do., 24.12. (1 Tag)",
        "mine": True,
        "begun": False,
        "others": False,
        "used": "3 von 14 Urlaubstagen 2026 genommen",
    }


TABLE_DUE = """async ([deadline]) => {
  const timer = await import("/static/js/table-timer.js");
  const node = timer.dueElement(deadline, (when, left) => `Ute: ${when}, ${left}`);
  document.body.append(node);
  const over = timer.dueElement("2020-01-01T00:00:00Z", (when, left) => left);
  return {text: node.textContent, label: node.getAttribute("aria-label"),
          warning: node.classList.contains("warning"), role: node.getAttribute("role"),
          over: over.textContent, overWarning: over.classList.contains("warning")};
}"""

DUE_AT_TABLE = re.compile(r"^Zug bis \w\w\., \d\d\.\d\d\., \d\d:\d\d · noch 21 Std\.$")


def test_the_tables_correspondence_deadline(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    page = new_person()
    page.goto(module_server.base_url + "/")
    deadline = (datetime.now(UTC) + timedelta(hours=21, minutes=30)).isoformat()
    shown = page.evaluate(TABLE_DUE, [deadline])
    assert DUE_AT_TABLE.match(shown["text"]), shown
    assert re.fullmatch(r"Ute: \w\w\., \d\d\.\d\d\., \d\d:\d\d, noch 21 Std\.", shown["label"])
    assert (shown["warning"], shown["role"]) == (False, None)
    assert shown["over"].endswith(" · Zeit abgelaufen") and shown["overWarning"] is True


def test_the_room_page_shows_the_tempo(module_server: LiveServer, new_person: NewPerson) -> None:
    base = module_server.base_url
    page = new_person()
    register_by_api(page, base, "Rosa")
    room = api(page, "POST", f"{base}/api/rooms", {"name": "Rosas Runde", "game": "dreierles"})
    page.goto(f"{base}/rooms/{room['id']}")
    expect(page.locator("#room-tempo-text")).to_have_text("Live (am Tisch)")
    expect(page.locator("#holidays")).to_have_count(0)  # live: no holidays


def test_a_correspondence_room_and_its_holidays(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    page = new_person()
    register_by_api(page, base, "Hugo")
    page.goto(base + "/rooms/new?game=doppelkopf")
    page.get_by_label("Name des Raums").fill("Fernrunde")
    timer = page.get_by_label("Zeit pro Zug", exact=True)
    expect(timer).to_be_visible()
    page.get_by_label("Tempo", exact=True).select_option(label="2 Tage")
    expect(timer).to_be_hidden()  # no live turn timer
    page.get_by_label("Urlaubstage pro Jahr").fill("10")
    page.get_by_role("button", name="Raum anlegen").click()
    expect(page).to_have_url(re.compile(r"/rooms/\d+$"))
    room_id = int(page.url.rsplit("/", 1)[-1])
    room = api(page, "GET", f"{base}/api/rooms/{room_id}")
    assert (room["tempo_seconds"], room["holiday_days"]) == (172800, 10)
    expect(page.locator("#room-tempo-text")).to_have_text("Fernpartie: 2 Tage pro Zug")
    expect(page.locator("#room-holiday-days-text")).to_have_text("10")

    section = page.get_by_role("region", name="Urlaub")
    year = datetime.now(UTC).year
    used = section.locator("#holidays-used")
    expect(used).to_have_text(f"0 von 10 Urlaubstagen {year} genommen")
    expect(section.get_by_text("Noch kein Urlaub eingetragen.")).to_be_visible()
    start = datetime.now(UTC).date() + timedelta(days=1)
    days = [start + timedelta(days=n) for n in range(3)]
    this_year = sum(day.year == year for day in days)
    section.get_by_label("Erster Urlaubstag").fill(start.isoformat())
    section.get_by_label("Anzahl Tage").fill("3")
    section.get_by_role("button", name="Urlaub eintragen").click()
    expect(used).to_have_text(f"{this_year} von 10 Urlaubstagen {year} genommen")
    weekday = ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"]

    def day(value: Any) -> str:
        return f"{weekday[value.weekday()]}., {value.day:02d}.{value.month:02d}."

    item = section.locator("#holiday-list li")
    expect(item).to_have_count(1)
    expect(item.locator("span")).to_have_text(f"Hugo: {day(days[0])} bis {day(days[2])} (3 Tage)")
    no_serious_violations(page)
    expect(section.get_by_text("Noch kein Urlaub eingetragen.")).to_be_hidden()

    # more days than the room allows: the server's refusal, nothing taken
    section.get_by_label("Erster Urlaubstag").fill((start + timedelta(days=10)).isoformat())
    section.get_by_label("Anzahl Tage").fill("8")
    section.get_by_role("button", name="Urlaub eintragen").click()
    expect(section.locator(".form-error")).to_contain_text("Dieser Raum erlaubt 10 Urlaubstage")
    expect(item).to_have_count(1)

    # the own holiday that has not begun is taken back
    section.get_by_role("button", name=f"Urlaub ab {day(days[0])} entfernen").click()
    expect(item).to_have_count(0)
    expect(used).to_have_text(f"0 von 10 Urlaubstagen {year} genommen")
    expect(section.get_by_text("Noch kein Urlaub eingetragen.")).to_be_visible()


def test_the_table_shows_the_correspondence_deadline(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    page = new_person()
    register_by_api(page, base, "Carla")
    room = api(page, "POST", f"{base}/api/rooms", {"name": "Fern", "game": "dreierles",
               "tempo_seconds": 86400, "computer_pause_ms": [0, 0]})  # fmt: skip
    for _ in range(2):
        api(page, "POST", f"{base}/api/rooms/{room['id']}/computers", {"level": "einsteiger"})
    api(page, "POST", f"{base}/api/rooms/{room['id']}/start")
    page.goto(f"{base}/rooms/{room['id']}/table")
    # the computer players move at once; then the table waits for Carla, a day long
    due = page.locator(".seat.to-move .countdown.due")
    expect(due).to_have_text(
        re.compile(r"^Zug bis \w\w\., \d\d\.\d\d\., \d\d:\d\d · noch 2[34] Std\.$"), timeout=20_000
    )
    expect(due).to_have_attribute("aria-label", re.compile(r"^Carla ist dran, Zug bis .+, noch"))
    expect(page.locator(".seat.to-move .countdown:not(.due)")).to_have_count(0)  # no timer
    turns = api(page, "GET", f"{base}/api/turns")
    assert [(t["room_id"], t["tempo_seconds"]) for t in turns["turns"]] == [(room["id"], 86400)]
    assert turns["turns"][0]["deadline"] is not None
