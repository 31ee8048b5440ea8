"""The room's small things in a real browser, as a person sees them: the host is asked
before a member is removed and the removed friend is told who removed them; the room form
warns when a lost solo may be replayed without limit; the room page and the invite page
name Doppelkopf's length in one word and say "ohne Geld" for a stake of 0."""

from __future__ import annotations

import re

from playwright.sync_api import Dialog, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import register_by_api
from tests.browser.test_rooms_browser import api
from tests.support import LiveServer


def test_removing_a_member_is_confirmed_and_the_friend_is_told_why(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    anna, bernd = new_person(), new_person()
    register_by_api(anna, base, "Anna")
    register_by_api(bernd, base, "Bernd")
    room = api(anna, "POST", f"{base}/api/rooms", {"name": "Skatfreunde", "game": "dreierles"})
    token = room["invite_url"].rsplit("/", 1)[-1]
    api(bernd, "POST", f"{base}/api/invite/{token}/join", {"role": "player"})
    bernd.goto(f"{base}/rooms/{room['id']}")
    expect(bernd.locator("#seats")).to_contain_text("Bernd")
    anna.goto(f"{base}/rooms/{room['id']}")
    remove = anna.get_by_role("button", name="Bernd aus dem Raum nehmen")
    asked: list[str] = []

    def decline(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    anna.once("dialog", decline)
    remove.click()
    expect(anna.locator("#seats")).to_contain_text("Bernd")  # declined: nothing happened
    assert asked == [
        "Bernd wirklich aus dem Raum entfernen? Bernd erfährt beim nächsten Öffnen des Raums, "
        "dass du es warst."
    ]
    anna.once("dialog", lambda dialog: dialog.accept())
    remove.click()
    expect(anna.locator("#seats")).not_to_contain_text("Bernd")
    # Bernd's open room page says so at its next look at the room
    expect(bernd.locator("#room-notice")).to_have_text(
        "Du wurdest von Anna aus dem Raum entfernt. Zur Startseite"
    )
    # and so do the room and the table when he opens them again
    for path in (f"/rooms/{room['id']}", f"/rooms/{room['id']}/table"):
        bernd.goto(base + path)
        expect(bernd.locator("h1")).to_have_text("Nicht mehr im Raum")
        expect(bernd.locator("#removed")).to_contain_text(
            "Du wurdest von Anna aus dem Raum entfernt."
        )
    # joining again through the invite link makes him a member as before
    api(bernd, "POST", f"{base}/api/invite/{token}/join", {"role": "player"})
    bernd.goto(f"{base}/rooms/{room['id']}")
    expect(bernd.locator("#seats")).to_contain_text("Bernd")
    assert re.search(r"/rooms/\d+$", bernd.url)


ENDLESS = (
    "Achtung, offenes Ende: mit 0 Wiederholungen muss, wer sein Solo verliert, es so lange "
    "wiederholen, bis er es gewinnt. Jede Wiederholung ist ein weiteres Spiel des Abends; wer "
    "immer wieder verliert, hält den Abend beliebig lange auf. Mit 1 bis 3 Wiederholungen "
    "bleibt der Abend absehbar."
)


def test_the_form_warns_of_lost_solos_replayed_without_a_cap(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    anna = new_person()
    register_by_api(anna, base, "Anna")
    anna.goto(base + "/rooms/new?game=doppelkopf")
    rules = anna.get_by_role("group", name="Regeln des Abends")
    warning = rules.locator("#rule-warnings")
    # the defaults: a lost solo is replayed, as often as it takes
    expect(rules.get_by_label("Wiederholungen eines verlorenen Solos")).to_have_value("0")
    expect(warning).to_have_text(ENDLESS)
    rules.get_by_label("Wiederholungen eines verlorenen Solos").select_option("2")
    expect(warning).to_be_hidden()
    rules.get_by_label("Wiederholungen eines verlorenen Solos").select_option("0")
    expect(warning).to_have_text(ENDLESS)
    rules.get_by_label("Verlorenes Solo wiederholen").uncheck()  # no replays at all
    expect(warning).to_be_hidden()
    rules.get_by_label("Verlorenes Solo wiederholen").check()
    expect(warning).to_have_text(ENDLESS)
    # a game without such an option warns of nothing
    anna.get_by_label("Spiel", exact=True).select_option("dreierles")
    expect(warning).to_be_hidden()
    anna.get_by_label("Spiel", exact=True).select_option("doppelkopf")
    expect(warning).to_have_text(ENDLESS)


def test_the_room_and_the_invite_say_the_length_and_the_stake_in_the_games_words(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    anna, bernd = new_person(), new_person()
    register_by_api(anna, base, "Anna")
    register_by_api(bernd, base, "Bernd")
    doko = api(anna, "POST", f"{base}/api/rooms",
               {"name": "Doko", "game": "doppelkopf", "rounds": 24, "stake": "0"})  # fmt: skip
    skat = api(anna, "POST", f"{base}/api/rooms",
               {"name": "Dreier", "game": "dreierles", "rounds": 2, "stake": "0"})  # fmt: skip
    paid = api(anna, "POST", f"{base}/api/rooms",
               {"name": "Dreier um Geld", "game": "dreierles", "stake": "0,20"})  # fmt: skip
    cases = [
        (doko, "Spiele", "24", "kein Einsatz pro Punkt – was der Abend kostet, steht in den "
         "Regeln des Abends"),
        (skat, "Runden", "2", "ohne Geld"),
        (paid, "Runden", "4", "0,20 € pro Punkt"),
    ]  # fmt: skip
    for room, unit, length, stake in cases:
        token = room["invite_url"].rsplit("/", 1)[-1]
        for page, path in ((anna, f"/rooms/{room['id']}"), (bernd, f"/r/{token}")):
            page.goto(base + path)
            facts = page.locator("dl.facts")
            expect(facts.locator("dt")).to_have_text(
                ["Spiel", "Einsatz", unit, "Tempo", "Zeit pro Zug", "Stand"]
            )
            expect(page.locator("#room-tempo-text")).to_have_text("Live (am Tisch)")
            expect(page.locator("#room-rounds-text")).to_have_text(length)
            expect(page.locator("#room-stake-text")).to_have_text(stake)
            expect(facts).not_to_contain_text("0,00 €")
    # the form says the same word as the room
    anna.goto(base + "/rooms/new?game=doppelkopf")
    expect(anna.locator('label[for="room-rounds"]')).to_have_text("Spiele")
