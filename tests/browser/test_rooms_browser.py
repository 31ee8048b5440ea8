"""Around the table in a real browser: the evening's rules on the room form and the room
page, ending a match by agreement and a Revanche accepted by all, the your-turn marker in
"Meine Räume". Each person in their own browser context at phone size; the assertions
are on what a person sees."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import YOUR_TURN, Person, register_by_api
from tests.support import LiveServer

TABLE = re.compile(r"/rooms/\d+/table$")


def api(page: Page, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    """Call the JSON API with ``page``'s cookies; the answer's JSON."""
    response = page.request.fetch(url, method=method, data=body)
    assert response.ok, response.text()
    return response.json() if response.status != 204 else None


def in_viewport(page: Page, selector: str) -> None:
    """The element is scrolled to and lies inside the viewport."""
    element = page.locator(selector)
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, box


def seated_room(
    module_server: LiveServer, new_person: NewPerson, names: list[str], **room: Any
) -> tuple[list[Page], int]:
    """``names`` registered, the first hosts a Dreierles room the others joined; started."""
    base = module_server.base_url
    pages = [new_person() for _ in names]
    for page, name in zip(pages, names, strict=True):
        register_by_api(page, base, name)
    room = api(pages[0], "POST", f"{base}/api/rooms",
               {"name": "Freitagsrunde", "game": "dreierles", "rounds": 1, **room})  # fmt: skip
    token = room["invite_url"].rsplit("/", 1)[-1]
    for page in pages[1:]:
        api(page, "POST", f"{base}/api/invite/{token}/join", {"role": "player"})
    api(pages[0], "POST", f"{base}/api/rooms/{room['id']}/start")
    return pages, room["id"]


def test_the_evenings_rules_on_the_form_and_the_room_page(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    anna = new_person()
    register_by_api(anna, base, "Anna")
    anna.goto(base + "/rooms/new?game=doppelkopf")
    rules = anna.get_by_role("group", name="Regeln des Abends")
    expect(rules).to_be_visible()
    expect(rules.get_by_text("Ein verlorenes Solo muss derselbe Spieler sofort")).to_be_visible()
    expect(rules.get_by_text("Kurzer!: macht jemand")).to_be_visible()
    pflicht = rules.get_by_label("Pflichtsolo", exact=True)
    replay = rules.get_by_label("Verlorenes Solo wiederholen")
    expect(pflicht).to_be_checked()  # the rules text's default
    expect(replay).to_be_checked()
    pflicht_text = rules.locator('li[data-rule="rule.doppelkopf.pflichtsolo"] .rule-text')
    expect(pflicht_text).to_have_text(
        "Pflichtsolo: ein gewonnenes Lustsolo müssen alle anderen auch spielen."
    )
    pflicht.uncheck()  # the rule's text follows its switch
    expect(pflicht_text).to_have_text(
        "Kein Pflichtsolo: ein gewonnenes Lustsolo verpflichtet die anderen zu nichts."
    )
    anna.get_by_label("Pause zwischen zwei Spielen").select_option(label="30 Sekunden")
    anna.get_by_label("Name des Raums").fill("Doko am Freitag")
    anna.get_by_role("button", name="Raum anlegen").click()
    expect(anna).to_have_url(re.compile(r"/rooms/\d+$"))

    listed = anna.locator("#rules")
    pflicht_rule = listed.locator('li[data-rule="rule.doppelkopf.pflichtsolo"]')
    expect(pflicht_rule).to_contain_text("Kein Pflichtsolo: ein gewonnenes Lustsolo verpflichtet")
    expect(pflicht_rule.locator(".rule-value")).to_have_text("Pflichtsolo: nein")
    replay_rule = listed.locator('li[data-rule="rule.doppelkopf.solo_replay"]')
    expect(replay_rule.locator(".rule-value")).to_have_text("Verlorenes Solo wiederholen: ja")
    expect(listed.locator('li[data-rule="rule.doppelkopf.countdown"]')).to_contain_text(
        "Startpunkte: 30"
    )
    expect(listed.locator('li[data-rule="pause"]')).to_have_text(
        "Pause zwischen zwei Spielen: 30 Sekunden"
    )
    in_viewport(anna, 'li[data-rule="rule.doppelkopf.pflichtsolo"]')
    expect(listed.locator('li[data-rule="standin"]')).to_contain_text("Vertretung: Einsteiger")
    # ten rules (the take-back's too), the pause and the stand-in
    assert listed.locator("li").count() == 12


def test_the_stake_is_typed_with_a_comma_or_a_point(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    """The stake field takes "0,20" as 20 cents (not "020"), says the amount next to it,
    refuses what it cannot read plainly, and shows its default the German way."""
    base = module_server.base_url
    anna = new_person()
    errors: list[str] = []
    anna.on("pageerror", lambda error: errors.append(str(error)))
    register_by_api(anna, base, "Anna")
    anna.goto(base + "/rooms/new?game=dreierles")
    stake = anna.get_by_label("Einsatz pro Punkt (Euro)")
    echo = anna.locator("#stake-echo")
    expect(stake).to_have_value("0,10")
    expect(echo).to_have_text("= 0,10 € pro Punkt")
    assert stake.get_attribute("inputmode") == "decimal"

    stake.fill("")
    stake.press_sequentially("0,205")
    expect(echo).to_contain_text("höchstens zwei Nachkommastellen")
    expect(stake).to_have_attribute("aria-invalid", "true")
    anna.get_by_label("Name des Raums").fill("Komma")
    anna.get_by_role("button", name="Raum anlegen").click()
    expect(anna.locator("form .form-error[role=alert]")).to_contain_text("0,20 oder 0.20")
    expect(anna).to_have_url(re.compile(r"/rooms/new"))
    stake.fill("150")
    expect(echo).to_have_text("Höchstens 100,00 € pro Punkt.")

    stake.fill("")
    stake.press_sequentially("0,20")
    expect(stake).to_have_value("0,20")
    expect(echo).to_have_text("= 0,20 € pro Punkt")
    expect(stake).to_have_attribute("aria-invalid", "false")
    anna.get_by_role("button", name="Raum anlegen").click()
    expect(anna).to_have_url(re.compile(r"/rooms/\d+$"))
    room_id = int(anna.url.rsplit("/", 1)[-1])
    assert api(anna, "GET", f"{base}/api/rooms/{room_id}")["stake_cents"] == 20
    expect(anna.locator("body")).to_contain_text("0,20 € pro Punkt")

    # A point is just as good, and the English page shows its default with one.
    anna.goto(base + "/rooms/new?game=dreierles&lang=en")
    stake = anna.get_by_label("Stake per point (euros)")
    expect(stake).to_have_value("0.10")
    expect(anna.locator("#stake-echo")).to_have_text("= €0.10 per point")
    stake.fill("0.25")
    expect(anna.locator("#stake-echo")).to_have_text("= €0.25 per point")
    anna.get_by_label("Room name").fill("Point")
    anna.get_by_role("button", name="Create room").click()
    expect(anna).to_have_url(re.compile(r"/rooms/\d+$"))
    room_id = int(anna.url.rsplit("/", 1)[-1])
    assert api(anna, "GET", f"{base}/api/rooms/{room_id}")["stake_cents"] == 25
    anna.goto(base + "/rooms/new?lang=de")
    assert errors == []


def test_a_house_rule_named_by_a_rule_stands_with_its_rule_on_the_form(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    """Doppen's face-down signal is switched where its rule stands (not a second time among
    the house rules, which are left out when nothing else is in them); the rule's text
    follows the switch, and the room lists the rule once, worded as off."""
    base = module_server.base_url
    anna = new_person()
    errors: list[str] = []
    anna.on("pageerror", lambda error: errors.append(str(error)))
    register_by_api(anna, base, "Anna")
    anna.goto(base + "/rooms/new?game=doppen")
    expect(anna.locator("#room-options")).to_be_hidden()
    rule = anna.locator('#rule-fields li[data-rule="rule.doppen.table_signal"]')
    signal = rule.get_by_label("Verdeckt hinlegen", exact=True)
    expect(signal).to_be_checked()
    expect(anna.locator("#opt-table_signal")).to_have_count(1)
    text = rule.locator(".rule-text")
    expect(text).to_have_text(
        "Der zweite Gegenspieler darf seine stechende Karte verdeckt hinlegen."
    )
    signal.uncheck()
    expect(text).to_contain_text("Verdeckt hingelegt wird nicht")
    anna.get_by_label("Name des Raums").fill("Doppen ohne Signal")
    anna.get_by_role("button", name="Raum anlegen").click()
    expect(anna).to_have_url(re.compile(r"/rooms/\d+$"))
    room_id = int(anna.url.rsplit("/", 1)[-1])
    assert api(anna, "GET", f"{base}/api/rooms/{room_id}")["options"] == {
        "table_signal": False,
        "take_back": False,  # the form sends every house rule, the take-back's default too
    }
    listed = anna.locator('#rules li[data-rule="rule.doppen.table_signal"]')
    expect(listed).to_contain_text("Verdeckt hingelegt wird nicht")
    expect(listed.locator(".rule-value")).to_have_text("Verdeckt hinlegen: nein")
    expect(anna.locator("body")).not_to_contain_text("table_signal")

    # Numbers to choose from are in order, whatever the game lists first.
    anna.goto(base + "/rooms/new?game=bayerisches-tarock")
    einsatz = anna.locator("#mopt-haferl_einsatz option")
    values = [int(v) for v in einsatz.evaluate_all("nodes => nodes.map(n => n.value)")]
    assert values == sorted(values) and len(values) > 2
    expect(anna.locator("#mopt-haferl_einsatz")).to_have_value("10")  # the default kept
    assert errors == []


def test_end_by_agreement_and_a_revanche_accepted_by_all(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    pages, room = seated_room(module_server, new_person, ["Anna", "Bernd", "Cilli"])
    anna, bernd, cilli = pages
    for page in pages:
        page.goto(f"{base}/rooms/{room}")
        expect(page.locator("#room-status")).to_have_text("Partie läuft")
        expect(page.get_by_role("button", name="Raum verlassen")).to_have_count(0)
    # Bernd also has the table open in a second tab
    table = bernd.context.new_page()
    table.goto(f"{base}/rooms/{room}/table")
    expect(table.locator("#hand button").first).to_be_visible()
    old_hand = table.locator("#hand button").evaluate_all("ns => ns.map(n => n.dataset.card)")
    anna.get_by_role("button", name="Partie einvernehmlich beenden").click()
    expect(anna.locator("#end-votes")).to_have_text("Für das Beenden: Anna")
    expect(bernd.locator("#end-votes")).to_have_text("Für das Beenden: Anna")  # polled
    bernd.get_by_role("button", name="Partie einvernehmlich beenden").click()
    cilli.get_by_role("button", name="Partie einvernehmlich beenden").click()
    for page in pages:
        expect(page.locator("#room-status")).to_have_text("beendet")
    # the open table is told at once, and nothing can be played there any more
    expect(table.locator("#turn")).to_have_text(
        "Die Partie wurde im Einvernehmen vorzeitig beendet. Sie steht im Archiv."
    )
    expect(table.locator('#hand button[aria-disabled="false"]')).to_have_count(0)
    expect(table.locator("#actions button")).to_have_count(0)
    ended = api(anna, "GET", f"{base}/api/history/matches")["matches"][0]
    anna.goto(f"{base}/archive/matches/{ended['id']}")
    expect(anna.locator("#match-meta")).to_contain_text("vorzeitig beendet")
    anna.goto(f"{base}/rooms/{room}")

    anna.get_by_role("button", name="Revanche anbieten").click()
    expect(anna.locator("#rematch-status")).to_have_text("Zugesagt: Anna – es fehlen: Bernd, Cilli")
    accept = bernd.get_by_role("button", name="Revanche annehmen")
    expect(accept).to_be_visible()
    accept.click()
    expect(cilli.locator("#rematch-status")).to_have_text(
        "Zugesagt: Anna, Bernd – es fehlen: Cilli"
    )
    cilli.get_by_role("button", name="Revanche annehmen").click()
    for page in pages:  # everybody is taken to the new match's table
        expect(page).to_have_url(TABLE, timeout=10_000)
        expect(page.locator("#hand button").first).to_be_visible()
    # the tab still on the old table sits down at the new one by itself
    expect(table.locator("#turn")).not_to_have_text(re.compile("vorzeitig beendet"))
    expect(table.locator("#hand button")).to_have_count(len(old_hand))
    new_hand = table.locator("#hand button").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert new_hand != old_hand
    matches = api(anna, "GET", f"{base}/api/history/matches")["matches"]
    mine = sorted(m["status"] for m in matches if m["room_name"] == "Freitagsrunde")
    assert mine == ["ended", "running"]


def test_the_your_turn_marker_in_my_rooms(module_server: LiveServer, new_person: NewPerson) -> None:
    base = module_server.base_url
    pages, room = seated_room(module_server, new_person, ["Dora", "Emil", "Fritz"])
    turns = {}
    for page in pages:
        page.goto(base + "/")
        entry = page.locator(f'.room-item[data-room="{room}"]')
        expect(entry).to_be_visible()
        turns[page] = api(page, "GET", f"{base}/api/rooms/{room}")["your_turn"]
    assert sum(turns.values()) == 1
    mover = next(page for page, mine in turns.items() if mine)
    for page, mine in turns.items():
        marker = page.locator(f'.room-item[data-room="{room}"]').get_by_text("du bist dran")
        if mine:
            expect(marker).to_be_visible()
            in_viewport(page, f'.room-item[data-room="{room}"] .badge.turn')
        else:
            expect(marker).to_have_count(0)

    # the marked room leads to the table; after the move the marker moves on by itself
    mover.locator(f'.room-item[data-room="{room}"] a').click()
    expect(mover).to_have_url(TABLE)
    person = Person("mover", mover)
    expect(mover.locator("#turn")).to_have_text(YOUR_TURN)
    person.choose(person.options()[0])
    expect(mover.locator("#turn")).not_to_have_text(YOUR_TURN)
    others = [page for page in pages if page is not mover]
    waiting = next(
        page for page in others if api(page, "GET", f"{base}/api/rooms/{room}")["your_turn"]
    )
    item = waiting.locator(f'.room-item[data-room="{room}"]')
    # without reloading: the page re-reads the list every 5 s
    expect(item.get_by_text("du bist dran")).to_be_visible(timeout=15_000)
    expect(item.locator("a")).to_have_attribute("href", f"/rooms/{room}/table")


def test_a_late_spectator_joins_a_running_match_and_sees_no_hand(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    pages, room = seated_room(
        module_server, new_person, ["Gerd", "Hanna", "Ines"], allow_spectators=True
    )
    link = base + api(pages[0], "GET", f"{base}/api/rooms/{room}")["invite_url"]
    pages[0].goto(f"{base}/rooms/{room}/table")
    expect(pages[0].locator("#hand button").first).to_be_visible()
    watcher = new_person()
    watcher.goto(link)
    watcher.get_by_label("Anzeigename").fill("Kiebitz")
    watcher.get_by_role("button", name="Zuschauen").click()
    expect(watcher).to_have_url(TABLE)
    for name in ("Gerd", "Hanna", "Ines"):
        expect(watcher.locator("#table").get_by_text(name, exact=True).first).to_be_visible()
    expect(watcher.locator("#hand button")).to_have_count(0)
