"""The HTML pages against a real uvicorn server: each page in German and English, the
login redirects, 404 pages that give nothing away, escaping of user text, and the
PATCH /api/me route the account page uses."""

from __future__ import annotations

import html as html_lib
import json
import re
from typing import Any

import httpx
import pytest

from server.engine.registry import GAMES, describe, list_games
from tests.conftest import Person
from tests.support import api_error as error

pytestmark = pytest.mark.live_server

MARKUP = "<b>Anna</b><script>alert(1)</script>"


def create_room(client: httpx.Client, name: str = "Stammtisch Nord", **fields: Any) -> Any:
    body = {"name": name, "game": "dreierles", **fields}
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def token_of(room: dict[str, Any]) -> str:
    return str(room["invite_url"]).removeprefix("/r/")


def game_info_of(html: str) -> Any:
    """The game description the page embeds (``<script type="application/json"
    id="game-info">``)."""
    found = re.search(r'<script type="application/json" id="game-info">(.*?)</script>', html)
    assert found is not None, "no game-info element"
    return json.loads(found.group(1))


def page(client: httpx.Client, path: str, status: int = 200, **params: str) -> str:
    response = client.get(path, params=params, follow_redirects=False)
    assert response.status_code == status, response.text[:500]
    if status == 200:
        assert response.headers["content-type"].startswith("text/html")
    return response.text


def redirects_to_login(client: httpx.Client, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/?" + str(httpx.QueryParams({"next": path}))


# --------------------------------------------------------------------------- each page


def test_start_page_logged_out_in_both_languages(person: Person) -> None:
    visitor = person(None)
    german = page(visitor, "/")
    assert '<html lang="de">' in german
    for text in ("Als Gast spielen", "Anmelden", "Registrieren", "Dreierles", "Spielbar"):
        assert text in german
    assert 'href="/?lang=en"' in german
    english = page(visitor, "/", lang="en")
    assert '<html lang="en">' in english
    for text in ("Play as a guest", "Log in", "Register", "Playable"):
        assert text in english
    # The choice is remembered in a cookie.
    assert "Play as a guest" in page(visitor, "/")


def test_language_switch_keeps_the_next_parameter(person: Person) -> None:
    html = page(person(None), "/", next="/r/abc")
    assert 'href="/?next=%2Fr%2Fabc&amp;lang=en"' in html


def test_start_page_logged_in_lists_my_rooms(person: Person) -> None:
    host = person("Wirtin")
    html = page(host, "/")
    assert "Meine Räume" in html and "Noch keine Räume" in html
    assert 'href="/rooms/new"' in html
    room = create_room(host)
    html = page(host, "/")
    assert f'href="/rooms/{room["id"]}"' in html and "Stammtisch Nord" in html
    assert "wartet auf Spieler" in html
    english = page(host, "/", lang="en")
    assert "My rooms" in english and "waiting for players" in english


def test_new_room_page(person: Person) -> None:
    redirects_to_login(person(None), "/rooms/new")
    host = person("Wirt")
    html = page(host, "/rooms/new")
    assert "Neuen Raum anlegen" in html and "Hausregeln" in html
    data = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', html)
    assert data is not None
    games = httpx.Response(200, content=data.group(1)).json()
    playable = [info.name for info in list_games() if info.implemented]
    assert [g["name"] for g in games] == playable  # playable ones only, in the registry's order
    registry = {g["name"]: g for g in host.get("/api/games").json()}
    for game in games:
        assert game == registry[game["name"]]
    assert "Create a room" in page(host, "/rooms/new", lang="en")
    assert '<option value="dreierles" selected>' in page(host, "/rooms/new", game="dreierles")


def test_invite_page(person: Person) -> None:
    host = person("Wirtin")
    room = create_room(host, stake_cents=25, timer_seconds=30, options={"counting": "thirds"})
    path = room["invite_url"]
    visitor = person(None)
    html = page(visitor, path)
    for text in ("Stammtisch Nord", "Wirtin lädt dich ein", "Dreierles", "0,25 € pro Punkt",
                 "30 Sekunden", "genaue Drittel", "Ganze Punkte (Rest", "3 von 4 Plätzen frei",
                 'id="invite-guest-form"', f'href="/?next=/r/{token_of(room)}"'):  # fmt: skip
        assert text in html, text
    english = page(visitor, path, lang="en")
    for text in ("Wirtin invites you", "€0.25 per point", "exact thirds", "Whole points"):
        assert text in english, text
    logged_in = page(person("Gast"), path)
    assert 'data-role="player"' in logged_in and "Mitspielen" in logged_in
    assert 'data-role="spectator"' not in logged_in  # spectators not allowed here
    assert "Du bist schon in diesem Raum" in page(host, path)


def test_unknown_invite_is_a_404_page(person: Person) -> None:
    html = page(person(None), "/r/no-such-token", status=404)
    assert "Nicht gefunden" in html
    assert "Not found" in page(person(None), "/r/no-such-token", status=404, lang="en")


def test_room_page_for_members_only(person: Person) -> None:
    host = person("Wirtin")
    room = create_room(host, name="Geheimrunde")
    path = f"/rooms/{room['id']}"
    redirects_to_login(person(None), path)
    html = page(host, path)
    for text in ("Geheimrunde", "Einladen", "Kopieren", "Plätze", "Wirtin", "Gastgeber",
                 "ganze Punkte", room["invite_url"], "kein Zeitlimit"):  # fmt: skip
        assert text in html, text
    assert "Invite" in page(host, path, lang="en")
    assert game_info_of(html) == describe("dreierles")
    stranger = person("Fremder")
    too_big = "/rooms/99999999999"  # beyond any row id: not found, not a database error
    for other in (path, "/rooms/999999", "/rooms/abc", too_big):
        body = page(stranger, other, status=404)
        assert "Nicht gefunden" in body
        assert "Geheimrunde" not in body and "Wirtin" not in body
        assert token_of(room) not in body


def test_table_page_for_members_only(person: Person) -> None:
    host = person("Wirtin")
    room = create_room(host, name="Geheimrunde")
    path = f"/rooms/{room['id']}/table"
    redirects_to_login(person(None), path)
    html = page(host, path)  # the shell: the script asks the socket for the match
    assert "Geheimrunde" in html and 'src="/static/js/table.js' in html
    assert f'data-room="{room["id"]}"' in html
    info = game_info_of(html)
    assert info == describe("dreierles")
    assert (info["pack"], info["direction"], info["seats"]) == ("tarock", "anticlockwise", 3)
    stranger = person("Fremder")
    for other in (path, "/rooms/999999/table", "/rooms/abc/table", "/rooms/99999999999/table"):
        body = page(stranger, other, status=404)
        assert "Nicht gefunden" in body
        assert "Geheimrunde" not in body and "table.js" not in body
        assert 'id="game-info"' not in body


def test_the_table_page_of_a_doppelkopf_room_embeds_its_description(person: Person) -> None:
    host = person("Wirtin")
    room = create_room(host, name="Vierer", game="doppelkopf")
    info = game_info_of(page(host, f"/rooms/{room['id']}/table"))
    assert info == describe("doppelkopf")
    assert (info["pack"], info["direction"], info["dealer_sits_out"]) == (
        "french48",
        "clockwise",
        False,
    )
    assert info["sheet"] == {
        "kind": "counters",
        "better": "lower",
        "notes": [
            "sheet.note.doppelkopf.lustsolo",
            "sheet.note.doppelkopf.pflichtsolo",
            "sheet.note.doppelkopf.replay",
            "sheet.note.doppelkopf.vorfuehrung",
            "sheet.note.doppelkopf.kurzer",
        ],
        "stake": False,  # the evening's money is its Depot
        "unit": "points",
    }


def test_game_info_cannot_end_its_script_element(person: Person) -> None:
    host = person("Wirtin")
    room = create_room(host, name="</script><script>alert(1)</script>")
    html = page(host, f"/rooms/{room['id']}/table")
    embedded = html.split('id="game-info">', 1)[1].split("</script>", 1)[0]
    assert "<" not in embedded and json.loads(embedded)["name"] == "dreierles"


def test_account_page(person: Person) -> None:
    redirects_to_login(person(None), "/account")
    guest = person("Gustav")
    html = page(guest, "/account")
    assert "Mein Konto" in html and 'id="claim-form"' in html and 'value="Gustav"' in html
    assert "Keep your account" in page(guest, "/account", lang="en")
    registered = person(None)
    response = registered.post(
        "/api/register",
        json={"login": "konto_" + str(id(registered)), "password": "geheim123",
              "display_name": "Rita"},
    )  # fmt: skip
    assert response.status_code == 201
    assert 'id="claim-form"' not in page(registered, "/account")


def test_pages_follow_the_stored_language(person: Person) -> None:
    client = person("Emma")
    assert client.patch("/api/me", json={"language": "en"}).status_code == 200
    assert "My account" in page(client, "/account")
    assert "My rooms" in page(client, "/")
    assert "Mein Konto" in page(client, "/account", lang="de")  # ?lang= wins


# --------------------------------------------------------------------------- escaping


def test_user_text_is_escaped_everywhere(person: Person) -> None:
    host = person(MARKUP)
    room = create_room(host, name=MARKUP)
    guest = person(MARKUP + " 2")  # a name alike a member's may not join
    assert guest.post(f"/api/invite/{token_of(room)}/join", json={"role": "player"}).is_success
    escaped = "&lt;b&gt;Anna&lt;/b&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
    visitor = person(None)
    views = [(host, "/"), (host, f"/rooms/{room['id']}"), (visitor, room["invite_url"]),
             (host, "/account"), (host, "/rooms/new")]  # fmt: skip
    for client, path in views:
        html = page(client, path)
        assert "<b>Anna" not in html, path
        assert "<script>alert(1)" not in html, path
        if path != "/rooms/new":
            assert escaped in html, path


# --------------------------------------------------------------------------- PATCH /api/me


def test_patch_me_changes_name_and_language(person: Person) -> None:
    client = person("Alt")
    response = client.patch("/api/me", json={"display_name": "  Neu  "})
    assert response.status_code == 200, response.text
    assert response.json()["display_name"] == "Neu"
    assert response.json()["language"] == "de"
    response = client.patch("/api/me", json={"language": "en"})
    assert response.json() == {**client.get("/api/me").json(), "language": "en"}
    assert client.get("/api/me").json()["display_name"] == "Neu"
    both = client.patch("/api/me", json={"display_name": "Beide", "language": "de"}).json()
    assert (both["display_name"], both["language"]) == ("Beide", "de")
    assert client.patch("/api/me", json={}).json()["display_name"] == "Beide"


def test_patch_me_refusals(person: Person) -> None:
    client = person("Bleibt")
    error(client.patch("/api/me", json={"display_name": ""}), 422, "bad_name")
    error(client.patch("/api/me", json={"display_name": "x" * 41}), 422, "bad_name")
    error(client.patch("/api/me", json={"display_name": "a\nb"}), 422, "bad_name")
    refused = error(client.patch("/api/me", json={"language": "fr"}), 422, "bad_language")
    assert "de, en" in refused["message"] and "de, en" in refused["message_de"]
    error(client.patch("/api/me", json={"display_name": 5}), 422, "invalid_request")
    error(client.patch("/api/me", json={"login": "neu"}), 422, "invalid_request")
    # Nothing changes unless every field is valid.
    error(client.patch("/api/me", json={"display_name": "Neu", "language": "fr"}), 422,
          "bad_language")  # fmt: skip
    me = client.get("/api/me").json()
    assert (me["display_name"], me["language"]) == ("Bleibt", "de")
    error(person(None).patch("/api/me", json={"language": "en"}), 401, "login_required")


def test_room_page_lists_the_evenings_rules_with_their_values(person: Person) -> None:
    host = person("Wirtin")
    room = create_room(
        host,
        game="doppelkopf",
        match_options={"pflichtsolo_rule": False, "start_points": 20},
        next_deal_pause_seconds=15,
    )
    html = page(host, f"/rooms/{room['id']}")
    rules = re.search(r'<ul class="rule-list" id="rules"[^>]*>(.*?)</ul>', html, re.S)
    assert rules is not None
    items = re.findall(r'<li data-rule="([^"]+)">(.*?)</li>', rules.group(1), re.S)
    keys = [key for key, _text in items]
    assert keys == [rule.key for rule in GAMES["doppelkopf"].rules] + ["pause", "standin"]
    text = {key: " ".join(re.sub(r"<[^>]+>", " ", body).split()) for key, body in items}
    # switched off, the rule is worded as off, not stated as if it applied
    assert text["rule.doppelkopf.pflichtsolo"].startswith("Kein Pflichtsolo: ein gewonnenes")
    assert text["rule.doppelkopf.pflichtsolo"].endswith("Pflichtsolo: nein")
    assert text["rule.doppelkopf.solo_replay"].endswith("Verlorenes Solo wiederholen: ja")
    assert text["rule.doppelkopf.countdown"].endswith("Startpunkte: 20")
    assert text["rule.doppelkopf.solo_dealer"] == "Nach einem Solo gibt derselbe Geber noch einmal."
    assert text["pause"] == "Pause zwischen zwei Spielen: 15 Sekunden"
    assert text["standin"] == (
        "Vertretung: Einsteiger, nach 60 s offline, beim Ablauf der Zeit oder auf Wunsch"
    )
    english = " ".join(
        html_lib.unescape(
            re.sub(r"<[^>]+>", " ", page(host, f"/rooms/{room['id']}", lang="en"))
        ).split()
    )
    assert "The evening's rules" in english and "Replay a lost solo: yes" in english
    assert "Pflichtsolo: no" in english and "Pause between two deals: 15 seconds" in english
    assert "Stand-in: " in english and "after 60 s offline" in english
    off = create_room(host, game="doppelkopf", standin=False)
    off_html = page(host, f"/rooms/{off['id']}", lang="de")
    assert re.search(r'data-rule="standin">.*?<strong>aus</strong>', off_html)


def test_a_correspondence_rooms_pages_say_how_it_plays(person: Person) -> None:
    """A Fernpartie's room and invite pages: its tempo and holiday days, no wait for
    "Weiter" between deals, and a stand-in that plays at a deadline (not when offline)."""
    host = person("Wirtin")
    room = create_room(host, game="dreierles", tempo_seconds=172800, holiday_days=21)

    def words(html: str) -> str:
        return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())

    text = words(page(host, f"/rooms/{room['id']}"))
    assert "Tempo Fernpartie: 2 Tage pro Zug" in text and "Urlaubstage pro Jahr 21" in text
    assert "Pause zwischen zwei Spielen: gleich weiter (niemand muss »Weiter« tippen)" in text
    assert "Vertretung: Einsteiger, beim Ablauf der Frist oder auf Wunsch" in text
    assert "offline" not in text.split("Vertretung:")[1]
    english = words(page(host, f"/rooms/{room['id']}", lang="en"))
    assert "Stand-in: Beginner, when the deadline passes or on request" in english
    assert "Pause between two deals: straight on" in english
    guest = words(page(person(None), str(room["invite_url"])))
    assert "Tempo Fernpartie: 2 Tage pro Zug" in guest and "Urlaubstage pro Jahr 21" in guest
    live = create_room(host, game="dreierles")
    assert "Tempo Live (am Tisch)" in words(page(person(None), str(live["invite_url"])))


def test_new_room_page_has_the_rules_and_the_pause(person: Person) -> None:
    html = page(person("Wirt"), "/rooms/new")
    assert 'id="rule-fields"' in html and "Regeln des Abends" in html
    assert '<select id="room-pause" name="pause">' in html
    assert '<option value="0">bis alle »Weiter« tippen</option>' in html
    assert '<option value="120">120 Sekunden</option>' in html


def visible_text(html: str) -> str:
    """The page's text as a person reads it (tags and the embedded JSON left out)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_rule_set_by_a_house_rule_stands_once_and_follows_its_value(
    person: Person, lang: str
) -> None:
    """Doppen's face-down signal is a house rule that a rule of the evening names: the room
    page and the invite page list it once, with its label (no option name), worded as off
    when it is off; the invite page also shows the evening's values (the Pagatkasse base)
    and the pause."""
    host = person("Wirtin")
    room = create_room(
        host,
        game="doppen",
        options={"table_signal": False},
        match_options={"kasse_base_cents": 200},
    )
    words = {
        "de": ("Verdeckt hingelegt wird nicht", "Verdeckt hinlegen: nein",
               "Grundbetrag der Pagatkasse: 2,00 €", "Pause zwischen zwei Spielen",
               "Der zweite Gegenspieler darf"),
        "en": ("No face-down signal", "Face-down signal: no", "€2.00",
               "Pause between two deals", "The second opponent may put"),
    }[lang]  # fmt: skip
    off, value, kasse, pause, on = words
    for path, who in ((f"/rooms/{room['id']}", host), (room["invite_url"], person(None))):
        shown = visible_text(page(who, path, lang=lang))
        assert "table_signal" not in shown and "kasse_base_cents" not in shown, path
        assert shown.count(off) == 1 and shown.count(value) == 1, (path, shown)
        assert on not in shown, path
        assert kasse in shown and pause in shown, (path, shown)
        assert ("Hausregeln" if lang == "de" else "House rules") not in shown, path
    preview = person(None).get(f"/api/invite/{token_of(room)}").json()
    assert preview["match_options"] == {"kasse_base_cents": 200}
    assert preview["next_deal_pause_seconds"] == 0
    # Switched on, the rule says what it allows.
    other = create_room(host, name="Zweiter", game="doppen")
    shown = visible_text(page(host, f"/rooms/{other['id']}", lang=lang))
    assert on in shown and off not in shown


def test_the_house_rules_left_are_labelled_from_the_catalogue(person: Person) -> None:
    """An option without an older label text is named by its catalogue label, and its
    explanation does not repeat the label."""
    host = person("Wirtin")
    room = create_room(host, game="tarock-zu-dritt", options={"stille_saecke": True})
    for lang, label in (("de", "Stille Säcke: ja"), ("en", "Silent Säcke: yes")):
        shown = visible_text(page(host, f"/rooms/{room['id']}", lang=lang))
        assert label in shown and "stille_saecke" not in shown, shown
        assert label.split(":")[0] + ": " + label.split(":")[0] not in shown
        assert "Sack" in shown
