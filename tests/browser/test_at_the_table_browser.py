"""What friends decide, decided at the table (issue 28, part 4), in a real browser at phone
size: a request to end the match by agreement and a Revanche offer appear at the table as
they happen and are answered there; in Bayerisches Tarock the lone "Gut" of the Kontra round
is said by the table itself; in Doppelkopf a player who owes a Pflichtsolo reads it where he
chooses Gesund or Solo.
"""

from __future__ import annotations

import asyncio
import random

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.browser.table_driver import move, version, wait_for_turn
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer
from tests.table_client import COOKIE, make_room, next_deal, settle, start

ENDED = "Die Partie wurde im Einvernehmen vorzeitig beendet. Sie steht im Archiv."


def in_view(page: Page, selector: str) -> bool:
    """Whether the element lies wholly inside the viewport."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"]
            and box["y"] + box["height"] <= size["height"])  # fmt: skip


def test_ending_by_agreement_and_the_revanche_are_answered_at_the_table(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    room, people = seat_people(new_person, base, ["Anna", "Bernd", "Catrin"], "dreierles")
    anna, bernd, catrin = people
    for person in people:
        expect(person.page.locator("#requests")).to_be_hidden()
    # Bernd asks on the room page (over HTTP): the others read it at once, at the table
    asked = bernd.page.request.post(f"{base}/api/rooms/{room}/end")
    assert asked.status == 200, asked.text()
    banner = anna.page.locator("#requests")
    expect(banner).to_have_text("Bernd möchte die Partie beenden.ZustimmenAblehnen")
    assert in_view(anna.page, "#requests")
    expect(bernd.page.locator("#requests")).to_have_text(
        "Bernd möchte die Partie beenden. Du hast zugestimmt (1 von 3).Zustimmung zurückziehen"
    )
    banner.get_by_role("button", name="Zustimmen").click()
    expect(catrin.page.locator("#requests")).to_contain_text(
        "Anna und Bernd möchten die Partie beenden."
    )
    expect(banner).to_have_text(
        "Anna und Bernd möchten die Partie beenden. Du hast zugestimmt (2 von 3)."
        "Zustimmung zurückziehen"
    )
    # Catrin says no: the request is off for everybody, and they read who said no
    catrin.page.locator("#requests").get_by_role("button", name="Ablehnen").click()
    for person in people:
        expect(person.page.locator("#requests")).to_be_hidden()
    expect(anna.page.locator("#notice")).to_have_text(
        "Catrin möchte weiterspielen: die Partie wird nicht beendet."
    )
    # asked again, all three agree at the table: the match ends, a Revanche is offered
    bernd.page.request.post(f"{base}/api/rooms/{room}/end")
    for person in (anna, catrin):
        person.page.locator("#requests").get_by_role("button", name="Zustimmen").click()
        expect(person.page.locator("#requests .request-agree")).to_have_count(0)
    for person in people:
        expect(person.page.locator("#turn")).to_have_text(ENDED)
        expect(person.page.locator("#requests")).to_have_text("Revanche?Revanche anbieten")
    anna.page.locator("#requests").get_by_role("button", name="Revanche anbieten").click()
    expect(bernd.page.locator("#requests")).to_have_text("Revanche? Anna ist dabei.Ich bin dabei")
    expect(anna.page.locator("#requests")).to_have_text(
        "Revanche? Anna ist dabei. Es fehlen: Bernd und Catrin."
    )
    bernd.page.locator("#requests").get_by_role("button", name="Ich bin dabei").click()
    expect(catrin.page.locator("#requests")).to_have_text(
        "Revanche? Anna und Bernd sind dabei.Ich bin dabei"
    )
    catrin.page.locator("#requests").get_by_role("button", name="Ich bin dabei").click()
    # the Revanche starts at this table: a new first deal, nothing asked any more
    for person in people:
        expect(person.page.locator("#deal-number")).to_have_text("Spiel 1")
        expect(person.page.locator("#turn")).not_to_have_text(ENDED)
        expect(person.page.locator("#requests")).to_be_hidden()


def test_the_lone_gut_is_said_by_the_table(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    _room, people = seat_people(new_person, base, ["Anna", "Bernd", "Catrin"], "bayerisches-tarock")
    vorhand = wait_for_turn(people)
    move(vorhand, "Ich spiele")
    mittelhand = wait_for_turn(people)
    move(mittelhand, "10 mehr (71)")
    hinterhand = wait_for_turn(people)
    move(hinterhand, "Weiter")
    assert wait_for_turn(people) is vorhand
    move(vorhand, "Weiter")
    assert wait_for_turn(people) is mittelhand
    move(mittelhand, "Trumpf Gras")
    # the Kontra round: Vorhand may say Kontra; it says Gut
    assert wait_for_turn(people) is vorhand
    assert {"Kontra", "Gut"} <= set(vorhand.options())
    before = version(mittelhand.page)
    move(vorhand, "Gut")
    # the declarer could only say Gut: the table says it for him, everybody reads it
    assert wait_for_turn(people) is hinterhand
    assert version(mittelhand.page) == before + 2
    for person in people:
        expect(person.page.locator("#notice")).to_have_text(
            f"Automatisch für {mittelhand.name}: Gut (nichts anderes möglich)"
        )
        # not a timer's move: the seat shows no timer badge
        seat = person.page.locator(".seat", has_text=mittelhand.name)
        expect(seat).not_to_contain_text("Timer hat gespielt")
    move(hinterhand, "Gut")
    # a full round of Gut: the first card; Vorhand leads
    assert wait_for_turn(people) is vorhand
    assert all(o.startswith("card:") for o in vorhand.options())


async def owed_solo_at_the_vorbehalt(base_url: str) -> tuple[int, str, str, str]:
    """A Doppelkopf evening in which solos are played until one is won: the next deal's
    Vorbehalt is under way. The room, a cookie of a player who owes the solo, the solo's
    contract and a cookie of the soloist (who owes nothing)."""
    names = ["Ute", "Paul", "Rita", "Olaf"]
    # no Vorführung before the evening's end (and no replay of a lost solo): the deal
    # after the won solo starts with the Vorbehalt
    evening = {"solo_replay": False, "start_points": 50, "vorfuehrung_below": 0}
    clients, room, _ = await make_room(base_url, "doppelkopf", names, rounds=0,
                                       match_options=evening)  # fmt: skip
    rng = random.Random(28)
    try:
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        for _deal in range(40):  # a solo is won within 26 deals in 400 of 400 evenings
            # the player with the most Damen plays a Damensolo (about one in five is won)
            best = max(clients, key=lambda c: sum("Q" in card for card in (c.view or {})["hand"]))
            while (actor := next((c for c in clients if c.my_turn()), None)) is not None:
                assert actor.view is not None
                legal = [a for a in actor.view["legal_actions"]
                         if not a.startswith(("knock", "announce"))]  # fmt: skip
                if actor.view["phase"] == "vorbehalt":
                    text = "solo damen" if actor is best else "gesund"
                else:
                    text = rng.choice(legal)
                # the id once: the acknowledgement may arrive (and move the client's
                # version on) while the message is still being sent
                msg_id = f"{text}-{actor.version}"
                await actor.send({"type": "action", "action": text, "v": actor.version,
                                  "id": msg_id})  # fmt: skip
                event = await actor.expect_ack(msg_id)
                await settle(clients, event["v"])
                if event["view"]["phase"] == "finished":
                    await settle(clients, event["v"] + 1)
                    await next_deal(clients)
                    break
            snapshot = clients[0].snapshot
            assert snapshot is not None
            owed = snapshot["match"]["sheet"]["obligations"]
            owing = [c for c in clients if owed.get(c.name)]
            if owing:
                soloist = next(c for c in clients if not owed.get(c.name))
                assert owing[0].view is not None and owing[0].view["phase"] == "vorbehalt"
                return room, owing[0].cookie, owed[owing[0].name][0], soloist.cookie
        raise AssertionError("no solo was won in forty deals")
    finally:
        for client in clients:
            await client.aclose()


def test_an_owed_pflichtsolo_is_shown_at_the_vorbehalt(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    room, cookie, solo, soloist = off_the_loop(asyncio.run, owed_solo_at_the_vorbehalt(base))
    assert solo == "damen"
    page = new_person()
    page.context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
    page.goto(f"{base}/rooms/{room}/table")
    info = page.locator("#info")
    expect(info).to_contain_text(
        "Du musst noch ein Pflichtsolo spielen: Damensolo. Wann, entscheidest du: sag dafür "
        "»Solo« statt »Gesund«."
    )
    expect(info).to_contain_text(
        "Ist das letzte Spiel des Abends gespielt, beginnt die Vorführung: dann wird es "
        "gespielt, P1 spielt aus."
    )
    assert in_view(page, "#info")
    # the soloist who won it owes nothing: no such line for him
    other = new_person()
    other.context.add_cookies([{"name": COOKIE, "value": soloist, "url": base}])
    other.goto(f"{base}/rooms/{room}/table")
    expect(other.locator("#turn")).not_to_have_text("Verbinde mit dem Tisch…")
    expect(other.locator("#info")).not_to_contain_text("Pflichtsolo")
