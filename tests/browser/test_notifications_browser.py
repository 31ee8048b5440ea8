"""The account page's notification settings in chromium: the service worker registers
for the whole site, "Benachrichtigungen auf diesem Gerät" offers to switch on, and the
e-mail address is confirmed through the link of a real mail (a local SMTP server) before
the daily digest can be switched on; without an SMTP server the e-mail panel stays hidden.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.browser.table_driver import register_by_api
from tests.support import LiveServer, free_port, server_process, sqlite_url, upgrade
from tests.test_notifications import LINK, MailBox, subscription


@pytest.fixture
def mail_server(tmp_path: Path) -> Iterator[tuple[str, MailBox]]:
    """A server with a local SMTP server: its URL and the mails it sent."""
    box = MailBox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    database = sqlite_url(tmp_path / "stammtisch.sqlite3")
    off_the_loop(upgrade, database)
    env = {"STAMMTISCH_SMTP_HOST": "127.0.0.1", "STAMMTISCH_SMTP_PORT": str(port)}
    try:
        with server_process(database, tmp_path / "server.log", env=env) as (base, _process):
            yield base, box
    finally:
        controller.stop()


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_the_account_page_confirms_the_address_and_offers_push(
    mail_server: tuple[str, MailBox], new_person: NewPerson
) -> None:
    base, box = mail_server
    page = new_person()
    errors = watch_errors(page)
    register_by_api(page, base, "Dora")
    page.goto(f"{base}/account")
    # the service worker serves the whole site; this device has not switched on yet
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{base}/"
    push = page.locator("#push-form")
    expect(push.locator(".push-state")).to_have_text("Auf diesem Gerät ausgeschaltet.")
    expect(push.get_by_role("button", name="Einschalten")).to_be_visible()

    panel = page.locator("#email-form")
    expect(panel).to_be_visible()
    digest = page.get_by_role("checkbox", name="Tägliche Übersicht per E-Mail")
    expect(digest).to_be_disabled()
    page.get_by_role("textbox", name="E-Mail-Adresse").fill("dora@example.org")
    panel.get_by_role("button", name="Bestätigen").click()
    expect(panel.locator(".email-state")).to_have_text(
        "Wir haben dir einen Bestätigungslink an dora@example.org geschickt."
    )
    assert len(box.mails) == 1
    body = box.mails[0][1].get_body(("plain",))
    assert body is not None
    link = re.findall(LINK, str(body.get_content()))[0]

    page.goto(link)
    expect(page.locator("h1")).to_have_text("E-Mail-Adresse bestätigt")
    page.get_by_role("link", name="Zum Konto").click()
    expect(panel.locator(".email-state")).to_have_text("Bestätigt.")
    expect(digest).to_be_enabled()
    with page.expect_response("**/api/account/email-digest") as answer:
        digest.check()
    assert answer.value.ok
    page.reload()
    expect(digest).to_be_checked()
    assert errors == []


def test_without_smtp_the_email_panel_stays_hidden(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    page = new_person()
    errors = watch_errors(page)
    register_by_api(page, module_server.base_url, "Emil")
    page.goto(f"{module_server.base_url}/account")
    expect(page.locator("#push-form .push-state")).to_have_text("Auf diesem Gerät ausgeschaltet.")
    expect(page.locator("#email-form")).to_be_hidden()
    assert errors == []


def test_the_account_page_lists_the_devices_and_forgets_one(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    page = new_person()
    errors = watch_errors(page)
    register_by_api(page, base, "Edda")
    page.goto(f"{base}/account")
    devices = page.locator("#push-devices")
    expect(devices).to_be_hidden()  # none yet
    for label in ("Handy", "Tablet"):
        body = subscription(f"http://127.0.0.1:9/push/{label}", label=label)
        answer = page.request.post(f"{base}/api/push/subscriptions", data=body)
        assert answer.status == 201, answer.text()
    page.reload()
    items = devices.locator("li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("Handy, seit ")
    expect(items.nth(1)).to_contain_text("Tablet, seit ")
    page.get_by_role("button", name="Entfernen: Handy").click()
    expect(items).to_have_count(1)
    expect(items.nth(0)).to_contain_text("Tablet")
    left = page.request.get(f"{base}/api/push/subscriptions").json()["devices"]
    assert [d["label"] for d in left] == ["Tablet"]
    page.get_by_role("button", name="Entfernen: Tablet").click()
    expect(devices).to_be_hidden()
    assert page.request.get(f"{base}/api/push/subscriptions").json() == {"devices": []}
    assert errors == []
