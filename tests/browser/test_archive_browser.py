"""The game archive in a real browser (Debian's chromium through Playwright): after a
Dreierles deal has been played to its end by scripted clients, a player opens the archive,
the match's score sheet and chart, and the deal's replay; steps through it with the buttons
and the arrow keys, jumps to a trick, reloads a shared ``#step=N`` link, downloads the
record and views it again from a file on /archive/replay; a broken record is refused with
the place and the rule.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import FilePayload, Page, expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.browser.table_driver import register_by_api
from tests.support import LiveServer
from tests.table_client import COOKIE
from tests.test_archive_pages import ROOM_NAME, first_deal_id, play_one_deal

NAMES = ["Anna", "Bernd", "Catrin"]


def counter(n: int, total: int) -> str:
    """The step counter as the page shows it (German)."""
    return f"Schritt {n} von {total}"


def trick_cards(page: Page) -> list[str]:
    """The codes of the cards lying in the replay's trick."""
    cards: list[str] = page.locator("#replay-trick .card").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )
    return cards


def hand_of(page: Page, seat: int) -> list[str]:
    """The codes of the cards in a seat's open hand."""
    cards: list[str] = page.locator(
        f'.replay-seat[data-seat="{seat}"] .replay-hand .card'
    ).evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    return cards


def json_file(name: str, content: bytes) -> FilePayload:
    """A file for the file input, made up in memory."""
    return {"name": name, "mimeType": "application/json", "buffer": content}


def test_a_finished_deal_is_opened_and_stepped_through(
    new_person: NewPerson, module_server: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    base = module_server.base_url
    _room, match_id, cookies = off_the_loop(asyncio.run, play_one_deal(base, NAMES))
    deal_id = first_deal_id(module_server, match_id)

    page = new_person()
    page.context.add_cookies([{"name": COOKIE, "value": cookies[0], "url": base}])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # The archive lists the match; the sheet page shows the deal, the chart and the link.
    page.goto(f"{base}/archive")
    item = page.locator(".match-item", has_text=ROOM_NAME)
    expect(item).to_be_visible()
    expect(item).to_contain_text("Dreierles")
    for name in NAMES:
        expect(item).to_contain_text(name)
    item.get_by_role("link").click()
    expect(page).to_have_url(f"{base}/archive/matches/{match_id}")
    expect(page.locator("#match-title")).to_have_text(ROOM_NAME)
    rows = page.locator("#sheet tbody tr")
    expect(rows).to_have_count(1)
    chart = page.locator("#chart svg")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(3)
    assert chart.locator("title").text_content() == "Stand nach jedem Spiel – " + ROOM_NAME
    expect(page.locator("#chart .chart-legend li")).to_have_count(3)

    replay: dict[str, Any] = page.request.get(f"{base}/api/history/deals/{deal_id}/replay").json()
    steps, tricks = replay["steps"], replay["tricks"]
    last = len(steps) - 1
    seats = replay["seats"]
    page.locator(f'.deal-item[data-deal="{deal_id}"] a').click()
    expect(page).to_have_url(re.compile(rf"/archive/deals/{deal_id}"))

    # Step 0: the deal as dealt, every hand open.
    expect(page.locator("#step-counter")).to_have_text(counter(0, last))
    expect(page.locator("#step-text")).to_contain_text("Die Karten sind gegeben")
    for seat in range(3):
        assert hand_of(page, seat) == steps[0]["hands"][seat]
    expect(page.locator("#step-prev")).to_be_disabled()

    # Forward with the button: the first call, named with who made it.
    page.locator("#step-next").click()
    expect(page.locator("#step-counter")).to_have_text(counter(1, last))
    expect(page.locator("#step-text")).to_contain_text(f"{seats[steps[1]['actor']]}: ")
    # ... and with the arrow keys.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-counter")).to_have_text(counter(2, last))
    expect(page.locator("#step-text")).to_contain_text(seats[steps[2]["actor"]])
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-counter")).to_have_text(counter(1, last))

    # The first card of the play: "<player> spielt <card>", one card in the trick.
    lead = next(s for s in steps if (s["action"] or "").startswith("play "))
    page.keyboard.press("Home")
    for _ in range(lead["index"]):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#step-counter")).to_have_text(counter(lead["index"], last))
    expect(page.locator("#step-text")).to_contain_text(f"{seats[lead['actor']]} spielt ")
    assert trick_cards(page) == [lead["action"].split()[1]]

    # Jump to the end of trick 3: its cards, the winner's card marked, the winner named.
    trick = tricks[2]
    page.locator("#trick-select").select_option(str(trick["number"]))
    expect(page.locator("#step-counter")).to_have_text(counter(trick["step"], last))
    assert trick_cards(page) == trick["cards"]
    winner = seats[trick["winner"]]
    winning_card = trick["cards"][(trick["winner"] - trick["leader"]) % 3]
    expect(page.locator("#replay-trick .card.winner")).to_have_attribute("data-card", winning_card)
    expect(page.locator("#replay-trick .trick-winner")).to_have_text(f"Stich an {winner}")
    expect(page.locator("#step-text")).to_contain_text(f"Stich 3 an {winner}")
    points = steps[trick["step"]]["card_points"]
    for seat in range(3):
        expect(page.locator(f'.replay-seat[data-seat="{seat}"] .card-points')).to_have_text(
            f"Kartenpunkte: {points[seat]}"
        )
    page.keyboard.press("ArrowRight")  # the next lead
    expect(page.locator("#step-counter")).to_have_text(counter(trick["step"] + 1, last))
    page.keyboard.press("ArrowLeft")

    # The position is in the link: a reload (or a shared link) shows the same step.
    assert page.url.endswith(f"#step={trick['step']}")
    page.screenshot(path=artifacts / "archive-replay-360.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.reload()
    expect(page.locator("#step-counter")).to_have_text(counter(trick["step"], last))
    assert trick_cards(page) == trick["cards"]
    other = new_person()
    other.context.add_cookies([{"name": COOKIE, "value": cookies[1], "url": base}])
    other.goto(page.url)
    expect(other.locator("#step-counter")).to_have_text(counter(trick["step"], last))

    # The end: the final count and the settlement.
    page.keyboard.press("End")
    expect(page.locator("#step-counter")).to_have_text(counter(last, last))
    expect(page.locator("#replay-result")).to_be_visible()
    # each person's points and money as the match's ledger wrote them
    expect(page.locator("#result-settlement tr.ledger-entry")).to_have_count(3)
    expect(page.locator("#step-next")).to_be_disabled()

    # Download the record, then view it from the file: the same first position.
    with page.expect_download() as download_info:
        page.locator("#download-deal").click()
    path = tmp_path / "deal.json"
    download_info.value.save_as(path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == "stammtisch-deal"
    assert record["seats"] == seats

    page.goto(f"{base}/archive/replay")
    page.locator("#record-file").set_input_files(path)
    expect(page.locator("#viewer")).to_be_visible()
    expect(page.locator("#step-counter")).to_have_text(counter(0, last))
    expect(page.locator("#step-text")).to_contain_text("Die Karten sind gegeben")
    for seat in range(3):
        assert hand_of(page, seat) == steps[0]["hands"][seat]
    page.keyboard.press("End")
    expect(page.locator("#replay-result")).to_be_visible()

    # A broken record is refused next to the form, with the place and the rule.
    broken = dict(record)
    broken["actions"] = [list(a) for a in record["actions"]]
    broken["actions"][0][0] = (broken["actions"][0][0] + 1) % 3  # out of turn
    page.locator("#record-file").set_input_files(
        json_file("broken.json", json.dumps(broken).encode())
    )
    error = page.locator("#upload-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Die Datei wurde abgelehnt")
    expect(error).to_contain_text("actions[0]")
    expect(page.locator("#viewer")).to_be_hidden()
    page.locator("#record-file").set_input_files(json_file("notes.json", b"{not json"))
    expect(error).to_have_text("notes.json ist keine JSON-Datei.")
    assert errors == []


def test_the_statistics_show_solos_only_where_the_data_has_them(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """The rows for solos and a game's own figures (Doppelkopf's Pflichtsoli, declared by
    the answer's ``figures`` with the game's catalogue key) stand only when somebody of the
    circle has one: a figure the server leaves out (null, or not declared) or that is 0 for
    everyone is no row."""
    base = module_server.base_url
    page = new_person()
    register_by_api(page, base, "Statistikerin")
    page.goto(f"{base}/archive/stats")
    expect(page.locator("#stats-status")).to_be_hidden()
    rows = page.evaluate(
        """async () => {
            const src = document.querySelector('script[src*="stats.js"]').getAttribute("src");
            const stats = await import(src);
            const declared = [
                { key: "pflichtsoli", label: "archive.stats.doppelkopf.pflichtsoli" }];
            const player = (name, solos, pflichtsoli) => ({
                user_id: 1, name, deals: 3, points: 0, points_per_deal: 0,
                average_card_points: null, declarer_games: {}, solos,
                extra: pflichtsoli === null ? {} : { pflichtsoli } });
            const rows = (players, figures = declared) => {
                const shown = stats.figuresShown(players, figures);
                return players.map((p) => [...stats.playerCard(p, "", [], shown)
                    .querySelectorAll("dt")].map((dt) => [dt.textContent,
                        dt.nextElementSibling.textContent]));
            };
            return {
                none: rows([player("A", 0, null), player("B", 0, null)], []),
                zero: rows([player("A", 0, 0), player("B", 0, 0)]),
                solo: rows([player("A", 2, 0), player("B", 0, 0)]),
                owed: rows([player("A", 2, 1), player("B", 0, 0)]),
                undeclared: rows([player("A", 2, 1), player("B", 0, 0)], []),
            };
        }"""
    )
    shown = {case: [dict(card) for card in cards] for case, cards in rows.items()}
    for case in ("none", "zero"):
        for figures in shown[case]:
            assert "Spiele" in figures and "Soli" not in figures and "Pflichtsoli" not in figures
    for case in ("solo", "undeclared"):
        for figures in shown[case]:
            assert "Soli" in figures and "Pflichtsoli" not in figures
    # every card has the rows, 0 included, the game's figure named by its catalogue
    assert [(f["Soli"], f["Pflichtsoli"]) for f in shown["owed"]] == [("2", "1"), ("0", "0")]
