"""The Schreibe can be read while the result of a deal is up and the table waits for
"Weiter" (issue 28): on a laptop (1366 × 768), where the sheet is otherwise a side panel,
and on a phone, the result's own "Schreibe" opens the sheet above it, with the finished deal
on it; closed, it leaves the result where it was.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import ViewportSize, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import play_until
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 360, "height": 740}


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_sheet_opens_from_the_result_while_waiting(
    new_person: NewPerson, module_server: LiveServer, viewport: ViewportSize
) -> None:
    names = ["Anna", "Bernd", "Clara"]
    _, people = seat_people(
        new_person, module_server.base_url, names, "dreierles", viewport=viewport
    )
    anna = people[0]
    result = anna.page.locator("#result-dialog")
    play_until(people, result.is_visible, random.Random(5), prefer=["Zweier", "Weiter", "Fertig"])
    # Anna taps "Weiter"; the others have not: the table waits, the result stays up
    anna.page.locator("#result-close").click()
    expect(anna.page.locator("#deal-waiting")).to_be_visible()
    expect(result).to_be_visible()
    result.get_by_role("button", name="Schreibe").click()
    sheet = anna.page.locator("#sheet-dialog")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    # the sheet is above the result and can be used: its own button closes it
    sheet.get_by_role("button", name="Schließen").click()
    expect(sheet).to_be_hidden()
    expect(result).to_be_visible()
    expect(anna.page.locator("#deal-waiting")).to_be_visible()
