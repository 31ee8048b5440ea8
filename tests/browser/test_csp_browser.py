"""The pages under the server's Content-Security-Policy in chromium, and the cross-origin
attack of issue 11 in a real browser.

* Every kind of page (start page, new room, invite, room, the table during a match, the
  archive, a match, a replay, statistics, an uploaded record, the account, the 404 page,
  the card gallery) is opened with a watcher for ``securitypolicyviolation`` events and
  console messages about the policy: there must be none, and the table still plays.
* ``?next=`` after logging in stays on the server, and ``forms.js`` resolves the same list
  of targets as the server does.
* A page on another port of the same host (the same *site*, so the SameSite=Lax session
  cookie goes along) neither starts a logged-in person's match with a ``text/plain``
  form POST or a ``no-cors`` fetch, nor opens the table's WebSocket in his name.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import FilePayload, Page, expect

from tests.browser.conftest import NewPerson, off_the_loop
from tests.browser.table_driver import Person, play_until, register_by_api, trick_cards
from tests.support import LiveServer
from tests.table_client import COOKIE
from tests.test_archive_pages import first_deal_id, play_one_deal
from tests.test_security_http import BAD_NEXT, GOOD_NEXT

#: Reports every violation of the policy to the test (installed before any page script).
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} ` +
      `at ${event.sourceFile || location.pathname}:${event.lineNumber}`,
  );
}, true);
"""


@dataclass
class Watched:
    """A person's browser with everything the policy blocked and every script error."""

    page: Page
    violations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def settle(self) -> None:
        """Give late reports a moment to arrive."""
        self.page.wait_for_timeout(200)


def watched(new_person: NewPerson) -> Watched:
    """A new person whose page reports policy violations and script errors."""
    page = new_person()
    seen = Watched(page)
    page.context.expose_function(
        "reportCspViolation", lambda text: seen.violations.append(f"{page.url}: {text}")
    )
    page.context.add_init_script(CSP_WATCH)

    def console(message: object) -> None:
        text = getattr(message, "text", "")
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            seen.violations.append(f"{page.url}: console: {text}")

    page.on("console", console)
    page.on("pageerror", lambda error: seen.errors.append(f"{page.url}: {error}"))
    return seen


def guest_login(page: Page, name: str) -> None:
    """Continue as a guest with the start page's form."""
    form = page.locator("#guest-form")
    form.get_by_label("Anzeigename").fill(name)
    form.get_by_role("button").click()


# --------------------------------------------------------------------------- the detector


def test_the_policy_is_enforced_and_violations_are_seen(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    """The watcher is not blind: an inline script and a style attribute added to one of
    our pages are blocked and reported."""
    person = watched(new_person)
    person.page.goto(module_server.base_url + "/")
    ran = person.page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.inlineRan = true";
          document.body.append(script);
          const box = document.createElement("div");
          box.setAttribute("style", "color: red");
          document.body.append(box);
          return window.inlineRan === true;
        }"""
    )
    assert ran is False
    wanted = ("blocked inline", "script-src-elem", "style-src-attr", "console: Executing inline")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        reports = " ".join(person.violations)
        if all(word in reports for word in wanted):
            break
        person.page.wait_for_timeout(50)
    assert all(word in reports for word in wanted), person.violations


# --------------------------------------------------------------------------- every page


def test_every_page_satisfies_the_policy_and_the_table_plays(
    module_server: LiveServer, new_person: NewPerson, tmp_path: Path
) -> None:
    base = module_server.base_url
    anna, bernd, cilli = watched(new_person), watched(new_person), watched(new_person)
    everyone = [anna, bernd, cilli]

    # Logged out: the start page; after logging in, ?next= leads on only to local paths.
    cilli.page.goto(base + "/?next=/%09/evil-host/")
    guest_login(cilli.page, "Cilli")
    expect(cilli.page.get_by_role("heading", name="Meine Räume")).to_be_visible()
    assert cilli.page.url == base + "/"
    bernd.page.goto(base + "/?" + "next=%2Frooms%2Fnew")
    guest_login(bernd.page, "Bernd")
    expect(bernd.page).to_have_url(base + "/rooms/new")

    # Anna creates a room with the form; the others join through the invite link.
    register_by_api(anna.page, base, "Anna")
    anna.page.goto(base + "/")
    anna.page.get_by_role("link", name="Neuen Raum anlegen").click()
    anna.page.get_by_label("Name des Raums").fill("Donnerstag")
    anna.page.get_by_label("Spiel", exact=True).select_option(label="Dreierles")
    anna.page.get_by_role("button", name="Raum anlegen").click()
    expect(anna.page).to_have_url(re.compile(r"/rooms/\d+$"))
    room_url = anna.page.url
    link = anna.page.get_by_label("Einladungslink").input_value()
    for guest in (bernd, cilli):
        guest.page.goto(link)
        guest.page.get_by_role("button", name="Mitspielen").click()
        expect(guest.page).to_have_url(re.compile(r"/rooms/\d+$"))
    start = anna.page.get_by_role("button", name="Partie starten")
    expect(start).to_be_enabled()
    start.click()
    for person in everyone:
        expect(person.page).to_have_url(room_url + "/table", timeout=10_000)
        expect(person.page.locator("#hand button")).to_have_count(16)

    # The table plays: calls, cards and the trick, all rendered under the policy.
    people = [Person("Anna", anna.page), Person("Bernd", bernd.page), Person("Cilli", cilli.page)]
    play_until(
        people, lambda: trick_cards(people[0]) == 2, random.Random(5), prefer=["Zweier", "Weiter"]
    )
    anna.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    expect(anna.page.locator("#sheet-dialog")).to_be_visible()

    # The archive, of a deal played to its end by scripted clients.
    names = ["Dora", "Emil", "Frida"]
    room, match_id, cookies = off_the_loop(
        asyncio.run, play_one_deal(base, names, room_name="Archiv unter CSP")
    )
    deal_id = first_deal_id(module_server, match_id)
    dora = watched(new_person)
    everyone.append(dora)
    dora.page.context.add_cookies([{"name": COOKIE, "value": cookies[0], "url": base}])
    page = dora.page
    page.goto(f"{base}/archive")
    expect(page.locator(".match-item", has_text="Archiv unter CSP")).to_be_visible()
    page.goto(f"{base}/archive/matches/{match_id}")
    expect(page.locator("#chart svg polyline")).to_have_count(3)
    page.goto(f"{base}/archive/deals/{deal_id}")
    expect(page.locator("#step-counter")).to_contain_text("Schritt 0")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#step-counter")).to_contain_text("Schritt 5")
    page.goto(f"{base}/archive/stats")
    expect(page.locator("main")).to_contain_text("Dora")
    record = page.request.get(f"{base}/api/history/deals/{deal_id}/record").body()
    page.goto(f"{base}/archive/replay")
    upload: FilePayload = {"name": "deal.json", "mimeType": "application/json", "buffer": record}
    page.locator("#record-file").set_input_files(upload)
    expect(page.locator("#viewer")).to_be_visible()
    page.goto(f"{base}/account")
    expect(page.get_by_role("textbox", name="Anzeigename")).to_have_value("Dora")
    # The table of that match, which has dealt its second deal.
    page.goto(f"{base}/rooms/{room}/table")
    expect(page.locator("#hand button")).to_have_count(16)
    page.goto(f"{base}/rooms/999999")
    page.goto(f"{base}/static/cards-gallery.html")
    expect(page.locator("#packs .card").first).to_be_visible()
    assert page.locator("#packs .card svg").count() > 100
    expect(page.locator("#error")).to_be_empty()

    for person in everyone:
        person.settle()
        assert person.violations == [], person.violations
        assert person.errors == [], person.errors


def test_next_is_resolved_alike_in_the_browser(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    page = new_person()
    page.goto(module_server.base_url + "/")
    cases = [*BAD_NEXT, *(raw for raw, _expected in GOOD_NEXT)]
    resolved = page.evaluate(
        """async (cases) => {
          const { safeNext } = await import("/static/js/forms.js");
          return cases.map((raw) => safeNext(raw));
        }""",
        cases,
    )
    results = dict(zip(cases, resolved, strict=True))
    assert {raw: results[raw] for raw in BAD_NEXT} == dict.fromkeys(BAD_NEXT)
    assert {raw: results[raw] for raw, _ in GOOD_NEXT} == dict(GOOD_NEXT)


# --------------------------------------------------------------------------- the attack

ATTACK_PAGE = """<!doctype html>
<title>Gewinnspiel</title>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="{base}/api/rooms/{room}/start" enctype="text/plain"
      target="sink"><input name='{{"x":"' value='"}}'></form>
<script>
  const result = {{ socket: "pending", messages: [], fetch: "pending" }};
  window.result = result;
  const socket = new WebSocket("{socket}");
  socket.onopen = () => {{
    result.socket = "open";
    socket.send(JSON.stringify({{ type: "hello", room: {room}, last_version: -1 }}));
    socket.send(JSON.stringify({{ type: "chat", text: "Ich gebe auf" }}));
  }};
  socket.onmessage = (event) => result.messages.push(event.data);
  socket.onclose = (event) => {{
    if (result.socket !== "open") result.socket = "refused " + event.code;
  }};
  fetch("{base}/api/rooms/{room}/start", {{
    method: "POST", mode: "no-cors", credentials: "include",
    headers: {{ "Content-Type": "text/plain" }}, body: "{{}}",
  }}).then(() => (result.fetch = "sent"), () => (result.fetch = "failed"));
  document.getElementById("form").submit();
</script>
"""


@contextmanager
def attacker_site(html: str) -> Iterator[str]:
    """Serve ``html`` at every path of a server on another port of 127.0.0.1."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_on_another_port_cannot_act_for_a_logged_in_person(
    module_server: LiveServer, new_person: NewPerson
) -> None:
    base = module_server.base_url
    victim, bernd, cilli = new_person(), new_person(), new_person()
    for page, name in ((victim, "Opfer"), (bernd, "Bernd"), (cilli, "Cilli")):
        register_by_api(page, base, name)
    created = victim.request.post(f"{base}/api/rooms", data={"name": "Ziel", "game": "dreierles"})
    room = created.json()
    token = room["invite_url"].rsplit("/", 1)[1]
    for page in (bernd, cilli):
        joined = page.request.post(f"{base}/api/invite/{token}/join", data={"role": "player"})
        assert joined.status == 200, joined.text()
    log = module_server.database_path.parent / "uvicorn.log"
    before = log.read_text()

    html = ATTACK_PAGE.format(base=base, room=room["id"], socket=base.replace("http", "ws") + "/ws")
    with attacker_site(html) as evil:
        victim.goto(evil + "/")
        victim.wait_for_function(
            "() => window.result.socket !== 'pending' && window.result.fetch !== 'pending'"
        )
        result = victim.evaluate("window.result")
        victim.wait_for_timeout(300)  # the form's POST too

    assert result["socket"].startswith("refused"), result
    assert result["messages"] == []
    status = victim.request.get(f"{base}/api/rooms/{room['id']}").json()["status"]
    assert status == "open"
    # The browser did send them (with the cookie): the server saw and refused each one.
    refused = log.read_text()[len(before) :]
    assert f"Refused POST /api/rooms/{room['id']}/start from origin '{evil}'" in refused
    assert refused.count(f"Refused POST /api/rooms/{room['id']}/start") >= 2, refused
    assert f"Refused WebSocket /ws from origin '{evil}'" in refused

    # The room's own page starts the match.
    victim.goto(f"{base}/rooms/{room['id']}")
    victim.get_by_role("button", name="Partie starten").click()
    expect(victim).to_have_url(f"{base}/rooms/{room['id']}/table", timeout=10_000)
    expect(victim.locator("#hand button")).to_have_count(16)
