"""axe-core over every page, in German, at phone size (360×740) and laptop size (1366×768):
no violation of impact "serious" or "critical" (WCAG 2.x A/AA and axe's best practices).

Scripted clients set up a Dreierles match, its first deal played to the end (for the
archive, the score sheet, the replay and the statistics) and the second one played into the
middle (for the table), and a Doppelkopf match in the middle of its first deal. Each page
is opened as a person would open it and checked once its script has drawn it. axe-core
itself comes from the npm registry (tests/browser/axe.py).

A page with a known violation in a file outside this work (KNOWN: rule, element and file)
is marked ``xfail(strict=True, raises=KnownViolations)``: the test turns red once the
violation is fixed, so that the entry is removed, and also when any other serious violation
appears on that page. A violation that shows only with some content (the deals are dealt at
random by the server, and the row of actions is empty when it is not the player's turn) is
demanded whenever that content is there, with the same effect.

The table is also walked through every state a deal passes (each game's first deal played
by scripted clients while the browser looks on): each phase as the player whose choice it
is, at both sizes; the dialogs and panels (last trick, settings, sheet, chat, quick
phrases) once a trick is collected; the result dialog with its countdown to the next deal
and the sheet opened over it.

Also here: chromium reads the web app manifest without errors and finds nothing that stops
putting Stammtisch on a phone's home screen.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import random
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser import axe
from tests.browser.axe import describe, rule_ids, run_axe, serious
from tests.browser.conftest import NewPerson, off_the_loop
from tests.support import LiveServer
from tests.table_client import COOKIE, Client, make_room, settle, start, step
from tests.test_archive_pages import finished, first_deal_id

pytestmark = pytest.mark.live_server

T = TypeVar("T")

NAMES = ["Anna", "Bernd", "Catrin"]
DOKO_NAMES = ["Dora", "Emil", "Fritz", "Gerda"]
BT_NAMES = ["Hanna", "Ida", "Jakob"]
TZD_NAMES = ["Karl", "Lena", "Moritz"]
PHONE: ViewportSize = {"width": 360, "height": 740}
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
#: Actions played into the second Dreierles deal, so that the table shows a trick being played.
MID_DEAL_ACTIONS = 8
#: Actions played into the first Doppelkopf deal: the four Vorbehalt calls and two cards.
DOKO_MID_DEAL_ACTIONS = 6
#: Actions played into the first Bayerisches Tarock deal (German cards at the table).
BT_MID_DEAL_ACTIONS = 6
#: Actions played into the first Tarock zu dritt deal: into the Lizitation or past it.
TZD_MID_DEAL_ACTIONS = 5


@dataclass(frozen=True)
class Evening:
    """A Dreierles match with one finished deal and a second one under way, and a
    Doppelkopf and a Bayerisches Tarock match in the middle of their first deals."""

    room_id: int
    match_id: int
    deal_id: int
    token: str
    #: Session cookies of the players (Anna first).
    cookies: list[str]
    doko_room_id: int
    #: Dora's session cookie.
    doko_cookie: str
    bt_room_id: int
    #: Hanna's session cookie.
    bt_cookie: str
    tzd_room_id: int
    #: Karl's session cookie.
    tzd_cookie: str


async def play_into_the_second_deal(
    base_url: str, seed: int = 11
) -> tuple[int, int, str, list[str]]:
    """Open a Dreierles room for :data:`NAMES`, play the first deal to its end and the second
    one :data:`MID_DEAL_ACTIONS` actions deep; the room and match ids, the invite token and
    the players' cookies."""
    clients, room, token = await make_room(base_url, "dreierles", NAMES, name="Barrierefrei")
    try:
        match = await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        rng = random.Random(seed)
        for _ in range(500):
            if finished(clients[0]):
                break
            assert await step(clients, rng), "the match ended before the first deal did"
        assert finished(clients[0])
        for _ in range(MID_DEAL_ACTIONS):
            if not await step(clients, rng):  # nobody to move: the table shows it as it is
                break
        return room, match, token, [c.cookie for c in clients]
    finally:
        for client in clients:
            await client.aclose()


async def play_into_a_first_deal(
    base_url: str,
    seed: int = 5,
    game: str = "doppelkopf",
    names: list[str] = DOKO_NAMES,
    actions: int = DOKO_MID_DEAL_ACTIONS,
) -> tuple[int, str]:
    """Open a room of ``game`` (Doppelkopf for :data:`DOKO_NAMES` unless told) and play
    ``actions`` actions of its first deal; the room id and the first player's cookie."""
    clients, room, _ = await make_room(base_url, game, names, name=f"{game} barrierefrei")
    try:
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        rng = random.Random(seed)
        for _ in range(actions):
            if not await step(clients, rng):
                break
        return room, clients[0].cookie
    finally:
        for client in clients:
            await client.aclose()


@pytest.fixture(scope="module")
def evening(module_server: LiveServer) -> Evening:
    """The matches the pages of this module show."""
    base = module_server.base_url
    room, match, token, cookies = off_the_loop(asyncio.run, play_into_the_second_deal(base))
    doko_room, doko_cookie = off_the_loop(asyncio.run, play_into_a_first_deal(base))
    bt = play_into_a_first_deal(base, 16, "bayerisches-tarock", BT_NAMES, BT_MID_DEAL_ACTIONS)
    bt_room, bt_cookie = off_the_loop(asyncio.run, bt)
    tzd = play_into_a_first_deal(base, 3, "tarock-zu-dritt", TZD_NAMES, TZD_MID_DEAL_ACTIONS)
    tzd_room, tzd_cookie = off_the_loop(asyncio.run, tzd)
    deal = first_deal_id(module_server, match)
    return Evening(
        room, match, deal, token, cookies, doko_room, doko_cookie, bt_room, bt_cookie,
        tzd_room, tzd_cookie,
    )  # fmt: skip


@dataclass(frozen=True)
class Screen:
    """A page to check: its address, whose session opens it (Anna's unless told; ``None``
    for a visitor), and what shows that its script has drawn it."""

    path: Callable[[Evening], str]
    cookie: Callable[[Evening], str | None] = lambda e: e.cookies[0]
    ready: Callable[[Page], None] | None = None


def table_ready(page: Page) -> None:
    expect(page.locator("#turn")).not_to_have_text("Verbinde mit dem Tisch…")
    expect(page.locator("#hand button").first).to_be_visible()


def replay_ready(page: Page) -> None:
    expect(page.locator("#step-counter")).to_contain_text("Schritt")


def archive_ready(page: Page) -> None:
    expect(page.locator(".match-item").first).to_be_visible()


def sheet_ready(page: Page) -> None:
    expect(page.locator("#sheet tbody tr").first).to_be_visible()


def stats_ready(page: Page) -> None:
    expect(page.locator("#stats-players")).to_contain_text("Anna")


def room_ready(page: Page) -> None:
    expect(page.locator("#seats")).to_contain_text("Bernd")


SCREENS: dict[str, Screen] = {
    "start (login, register)": Screen(lambda e: "/", cookie=lambda e: None),
    "start (my rooms)": Screen(lambda e: "/"),
    "room form": Screen(lambda e: "/rooms/new"),
    "room": Screen(lambda e: f"/rooms/{e.room_id}", ready=room_ready),
    "table mid-deal": Screen(lambda e: f"/rooms/{e.room_id}/table", ready=table_ready),
    "doppelkopf table mid-deal": Screen(
        lambda e: f"/rooms/{e.doko_room_id}/table",
        cookie=lambda e: e.doko_cookie,
        ready=table_ready,
    ),
    "bayerisches-tarock table mid-deal": Screen(
        lambda e: f"/rooms/{e.bt_room_id}/table",
        cookie=lambda e: e.bt_cookie,
        ready=table_ready,
    ),
    "tarock-zu-dritt table mid-deal": Screen(
        lambda e: f"/rooms/{e.tzd_room_id}/table",
        cookie=lambda e: e.tzd_cookie,
        ready=table_ready,
    ),
    "archive": Screen(lambda e: "/archive", ready=archive_ready),
    "archive match": Screen(lambda e: f"/archive/matches/{e.match_id}", ready=sheet_ready),
    "replay": Screen(lambda e: f"/archive/deals/{e.deal_id}", ready=replay_ready),
    "replay from a file": Screen(lambda e: "/archive/replay"),
    "stats": Screen(lambda e: "/archive/stats", ready=stats_ready),
    "account": Screen(lambda e: "/account"),
    "invite": Screen(lambda e: f"/r/{e.token}", cookie=lambda e: None),
    "not found": Screen(lambda e: "/rooms/999999"),
}


@dataclass(frozen=True)
class Known:
    """A serious violation known on a page, in a file owned elsewhere: the rule, the reason
    (rule, element, file) and, for one that shows only with some content, a script that
    tells whether that content is there (``None``: always)."""

    rule: str
    reason: str
    when: str | None = None


#: The known violations per page (all viewports). A page with one that always shows is
#: marked ``xfail(strict=True, raises=KnownViolations)``; the test raises that only when
#: axe reports exactly the known rules that apply, so it turns red once one is fixed (and
#: its entry must go) and when any other serious violation appears. A page whose known
#: violations all depend on content is held to the same by the test itself: exactly the
#: applicable rules, then an explicit xfail; without that content, no violation at all.
KNOWN: dict[str, list[Known]] = {}


class KnownViolations(AssertionError):
    """Axe found exactly the known violations of a page that apply to it now."""


VIEWPORTS = {"360x740": PHONE, "1366x768": LAPTOP}


def always_known(name: str) -> list[Known]:
    return [k for k in KNOWN.get(name, []) if k.when is None]


#: Every page light at both sizes, and dark (the phone's night mode) at phone size.
LOOKS = [("360x740", "light"), ("1366x768", "light"), ("360x740", "dark")]


def cases() -> list[Any]:
    params = []
    for name in SCREENS:
        for size, scheme in LOOKS:
            marks = []
            if always_known(name):
                reason = "; ".join(k.reason for k in KNOWN[name])
                marks.append(pytest.mark.xfail(strict=True, raises=KnownViolations, reason=reason))
            ident = f"{name}-{size}" + ("-dark" if scheme == "dark" else "")
            params.append(pytest.param(name, size, scheme, id=ident, marks=marks))
    return params


def open_screen(
    new_person: NewPerson,
    server: LiveServer,
    evening: Evening,
    name: str,
    size: str,
    scheme: str = "light",
) -> Page:
    screen = SCREENS[name]
    page = new_person(viewport=VIEWPORTS[size], lang="de")
    page.emulate_media(color_scheme="dark" if scheme == "dark" else "light")
    base = server.base_url
    cookie = screen.cookie(evening)
    if cookie is not None:
        page.context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
    page.goto(base + screen.path(evening))
    page.wait_for_load_state("load")
    if screen.ready is not None:
        screen.ready(page)
    assert page.evaluate("document.documentElement.lang") == "de"
    return page


@pytest.mark.parametrize(("name", "size", "scheme"), cases())
def test_no_serious_or_critical_violations(
    new_person: NewPerson,
    module_server: LiveServer,
    evening: Evening,
    name: str,
    size: str,
    scheme: str,
) -> None:
    page = open_screen(new_person, module_server, evening, name, size, scheme)
    # one main heading names every page (screen readers jump by headings)
    expect(page.locator("h1")).to_have_count(1)
    found = serious(run_axe(page))
    applicable = [k for k in KNOWN.get(name, []) if k.when is None or page.evaluate(k.when)]
    expected = {k.rule for k in applicable}
    seen = rule_ids(found)
    fixed = expected - seen
    assert not fixed, f"fixed on {name} at {size}: {sorted(fixed)}; remove them from KNOWN"
    new = [v for v in found if v["id"] not in expected]
    assert not new, f"{name} at {size}:\n" + "\n".join(describe(new))
    if applicable:
        message = "; ".join(k.reason for k in applicable)
        if always_known(name):
            raise KnownViolations(message + "\n" + "\n".join(describe(found)))
        pytest.xfail(message)


def test_axe_finds_a_planted_violation(
    new_person: NewPerson, module_server: LiveServer, evening: Evening
) -> None:
    """The check can fail: an image without a text alternative and a button without a
    name, planted into a real page, are reported as the rules say."""
    page = open_screen(new_person, module_server, evening, "account", "360x740")
    page.evaluate(
        """() => {
            const img = document.createElement("img");
            img.src = "/static/icon-192.png";
            const button = document.createElement("button");
            document.querySelector("main").append(img, button);
        }"""
    )
    found = serious(run_axe(page))
    assert {"image-alt", "button-name"} <= rule_ids(found), describe(found)


# --------------------------------------------------------------------------- fetching axe-core


def test_the_integrity_check_refuses_a_changed_tarball() -> None:
    data = b"axe-core tarball"
    digest = base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    axe.check_integrity(data, f"sha512-{digest}")
    with pytest.raises(axe.AxeUnavailableError, match="sha512"):
        axe.check_integrity(data + b"!", f"sha512-{digest}")
    with pytest.raises(axe.AxeUnavailableError, match="algorithm"):
        axe.check_integrity(data, f"sha1-{digest}")


@pytest.mark.parametrize("required", [True, False])
def test_a_failed_download_fails_in_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, required: bool
) -> None:
    monkeypatch.setenv("STAMMTISCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(axe, "REGISTRY", "http://127.0.0.1:9")  # nothing listens there
    if required:
        monkeypatch.setenv("STAMMTISCH_REQUIRE_BROWSER", "1")
    else:
        monkeypatch.delenv("STAMMTISCH_REQUIRE_BROWSER", raising=False)
    axe.axe_source.cache_clear()
    try:
        outcome = pytest.fail.Exception if required else pytest.skip.Exception
        with pytest.raises(outcome, match=f"axe-core {axe.AXE_VERSION} could not be fetched"):
            axe.axe_source()
    finally:
        axe.axe_source.cache_clear()
    assert not (axe.cache_dir() / "axe.min.js").exists()


# --------------------------------------------------------------------------- home screen


def test_chromium_reads_the_manifest_and_could_install_the_app(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    """The web app manifest as chromium reads it: no errors, the name, standalone, the
    theme colour, the icons; nothing stops installing it but the test's private window."""
    page = new_person()
    page.goto(module_server.base_url + "/")
    cdp = page.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"] == module_server.base_url + "/static/manifest.webmanifest"
    assert read["errors"] == []
    manifest = read["manifest"]
    assert manifest["name"] == "Stammtisch"
    assert manifest["display"] == "kStandalone"
    assert manifest["startUrl"] == module_server.base_url + "/"
    assert manifest["themeColor"] == "rgba(29,92,58,1)"  # --accent of stammtisch.css
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


# --------------------------------------------------------------------------- the table's states


class LoopThread:
    """An event loop in a worker thread that stays up between calls, so that scripted
    clients keep their sockets while the browser (Playwright's loop in the main thread)
    opens pages between two of their moves."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=120)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


async def move(clients: list[Client], rng: random.Random) -> None:
    """The player to move sends a random legal action (as :func:`step`), but the table
    stays at the deal's end: nobody says "Weiter"."""
    async with asyncio.timeout(10):  # a move the table plays itself (a lone Gut) comes first
        while (actor := next((c for c in clients if c.my_turn()), None)) is None:
            await asyncio.sleep(0.005)
    assert actor.view is not None
    legal = [a for a in actor.view["legal_actions"] if not a.startswith(("knock", "announce"))]
    text = rng.choice(legal or actor.view["legal_actions"])
    if "gesund" in legal and rng.random() < 0.9:
        text = "gesund"
    await actor.send({"type": "action", "action": text, "v": actor.version, "id": text})
    event = await actor.expect_ack(text)
    await settle(clients, event["v"])


async def close_all(clients: list[Client]) -> None:
    for client in clients:
        await client.aclose()


#: The players of each game's table in the state walk (as many as its seats).
TABLE_PLAYERS = {
    "dreierles": NAMES,
    "doppen": ["Nora", "Otto", "Paula"],
    "doppelkopf": DOKO_NAMES,
    "tarock-zu-dritt": TZD_NAMES,
    "bayerisches-tarock": BT_NAMES,
}
#: The length of each game's match in the state walk: more than the one deal played.
TABLE_ROUNDS = {"doppen": 3, "doppelkopf": 2}
#: The dialogs and panels of the table, each opened by its button (the result dialog opens
#: by itself at the deal's end; its "Schreibe" button opens the sheet over it).
TABLE_DIALOGS = {
    "last trick": ("#show-last-trick", "#last-trick-dialog"),
    "settings": ("#open-settings", "#settings-dialog"),
    "sheet": ("#open-sheet", "#sheet-dialog"),
    "chat": ("#open-chat", "#chat-dialog"),
    "talk": ("#open-talk", "#talk"),
}


class TableStates:
    """Checks the table page of one player with axe at the states it is opened in, and
    collects every serious or critical violation with the state's name."""

    def __init__(self, new_person: NewPerson, base_url: str) -> None:
        self.new_person = new_person
        self.base_url = base_url
        self.found: list[str] = []
        self.states: list[str] = []

    def open(self, room: int, cookie: str, size: str) -> Page:
        page = self.new_person(viewport=VIEWPORTS[size], lang="de")
        page.context.add_cookies([{"name": COOKIE, "value": cookie, "url": self.base_url}])
        page.goto(f"{self.base_url}/rooms/{room}/table")
        expect(page.locator("#turn")).not_to_have_text("Verbinde mit dem Tisch…")
        return page

    def check(self, page: Page, state: str) -> None:
        self.states.append(state)
        self.found += [f"{state}: {line}" for line in describe(serious(run_axe(page)))]


def walk_the_table(new_person: NewPerson, server: LiveServer, game: str, seed: int) -> TableStates:
    """Play the first deal of ``game`` with scripted clients and check the table page at
    each phase (as the player to move, whose page offers the choices), at 360 and 1366 px;
    the dialogs once the first trick is collected; the result dialog with its countdown
    to the next deal and the sheet over it at the deal's end."""
    states = TableStates(new_person, server.base_url)
    loop = LoopThread()
    names = TABLE_PLAYERS[game]
    clients, room, _ = loop.run(
        make_room(
            server.base_url,
            game,
            names,
            name=f"{game} Zustände",
            next_deal_pause_seconds=120,
            rounds=TABLE_ROUNDS.get(game, 1),
        )
    )
    try:
        loop.run(start(clients[0], room))
        for client in clients:
            loop.run(client.connect(room))
        rng = random.Random(seed)
        seen: set[str] = set()
        dialogs_checked: set[str] = set()
        for _ in range(600):
            view = clients[0].view
            assert view is not None
            phase = view["phase"]
            mover = next((c for c in clients if c.my_turn()), clients[0])
            if phase == "finished":
                for size in VIEWPORTS:
                    page = states.open(room, clients[0].cookie, size)
                    expect(page.locator("#result-dialog")).to_be_visible()
                    expect(page.locator("#deal-waiting")).to_be_visible()
                    states.check(page, f"{game} result dialog at {size}")
                    if size == "360x740":
                        page.locator("#result-sheet").click()
                        expect(page.locator("#sheet-dialog")).to_be_visible()
                        states.check(page, f"{game} sheet over the result at {size}")
                    page.close()
                break
            if phase not in seen:
                seen.add(phase)
                for size in VIEWPORTS:
                    page = states.open(room, mover.cookie, size)
                    if mover.my_turn():
                        expect(
                            page.locator("#actions button, #hand button:enabled").first
                        ).to_be_visible()
                    states.check(page, f"{game} {phase} at {size}")
                    page.close()
            # the dialogs at the first card play; the last trick's once a trick is collected
            # (a Bettel can end the deal before that)
            wanted = [d for d in TABLE_DIALOGS if d not in dialogs_checked and (
                d != "last trick" or view.get("last_trick"))]  # fmt: skip
            if phase == "play" and wanted:
                dialogs_checked.update(wanted)
                page = states.open(room, mover.cookie, "360x740")
                for dialog in wanted:
                    button, shown = TABLE_DIALOGS[dialog]
                    page.locator(button).click()
                    expect(page.locator(shown)).to_be_visible()
                    states.check(page, f"{game} {dialog} at 360x740")
                    if page.locator(f"{shown}[open]").count():
                        page.keyboard.press("Escape")
                        expect(page.locator(shown)).to_be_hidden()
                    else:
                        page.locator(button).click()  # a panel closes by its button
                page.close()
            loop.run(move(clients, rng))
        else:
            pytest.fail(f"the first deal of {game} did not end")
    finally:
        loop.run(close_all(clients))
        loop.close()
    return states


@pytest.mark.parametrize("game", list(TABLE_PLAYERS))
def test_every_state_of_the_table_has_no_serious_violation(
    new_person: NewPerson, module_server: LiveServer, game: str
) -> None:
    """Every phase of a deal (as the player whose choice it is), the dialogs and panels,
    the result with its countdown and the sheet over it: axe finds nothing serious."""
    states = walk_the_table(new_person, module_server, game, seed=len(game))
    assert f"{game} result dialog at 360x740" in states.states
    assert any(s.startswith(f"{game} play at") for s in states.states), states.states
    assert any(s.startswith(f"{game} chat at") for s in states.states), states.states
    assert states.found == [], "\n".join(states.found)
