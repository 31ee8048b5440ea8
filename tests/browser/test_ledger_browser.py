"""The ledger in a real browser (Debian's chromium through Playwright): a deal played at
the table shows in its result panel exactly the points and money the match's ledger wrote
(the same the archive stores), and the ledger's codes are worded in German — the chain
that made a number, every pot movement from the person's side, the pots' balances on the
sheet and the final settlement.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPerson
from tests.browser.table_driver import play_until, register_by_api
from tests.browser.test_table_browser import seat_people
from tests.support import LiveServer


def euros(cents: int) -> str:
    """Signed money as the panel writes it: "+3,20 €", "−1,60 €", "0,00 €"."""
    text = f"{abs(cents) // 100},{abs(cents) % 100:02d}\u00a0€"
    return f"+{text}" if cents > 0 else f"−{text}" if cents < 0 else text


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def test_the_result_panel_shows_the_deals_ledger(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    base = module_server.base_url
    names = ["Lena", "Max", "Nina"]
    _room, people = seat_people(new_person, base, names, "dreierles", stake="0,10")
    lena = people[0]
    play_until(
        people,
        lambda: lena.page.locator("#result-dialog").is_visible(),
        random.Random(5),
        prefer=["Zweier", "Weiter", "Fertig"],
    )
    result = lena.page.locator("#result-dialog")
    rows = result.locator("tr.ledger-entry")
    expect(rows).to_have_count(3)
    # The archive has the same ledger stored with the deal.
    matches = lena.page.request.get(f"{base}/api/history/matches").json()["matches"]
    detail = lena.page.request.get(f"{base}/api/history/matches/{matches[0]['id']}").json()
    ledger = detail["deals"][0]["ledger"]
    assert ledger is not None and ledger["number"] == 1
    assert {e["player"] for e in ledger["entries"]} == set(names)
    for entry in ledger["entries"]:
        row = result.locator(f'tr.ledger-entry[data-player="{entry["player"]}"]')
        expect(row.locator("td.points")).to_have_text(signed(entry["points"]))
        expect(row.locator("td.money")).to_have_text(euros(entry["net_cents"]))
        if entry["points"]:
            # the chain: the points times the stake
            stake = f"{signed(entry['points'])} × 0,10\u00a0€ = {euros(entry['cents'])}"
            why = result.locator(f'tr.ledger-why[data-player="{entry["player"]}"]')
            expect(why).to_contain_text(stake.replace("+", "", 1))
    # The sheet writes the same numbers in the deal's row.
    for person in people:
        person.close_result()
    lena.page.locator("#open-sheet").click()  # the toolbar's "Schreibe"
    row = lena.page.locator("#sheet-dialog tbody tr").first
    for entry in ledger["entries"]:
        expect(row).to_contain_text(signed(entry["points"]))


RENDER_LEDGER = """async (ledger) => {
  const { ledgerTable, ledgerColumns, dealReasonText } = await import("/static/js/ledger.js");
  const table = ledgerTable(ledger, ledgerColumns(ledger, ledger.sheet_info));
  const cells = (row) => [...row.children].map((c) => c.textContent.trim());
  return {
    head: [...table.querySelectorAll("thead tr")].map(cells),
    rows: [...table.querySelectorAll("tr.ledger-entry")].map(cells),
    why: Object.fromEntries([...table.querySelectorAll("tr.ledger-why")].map(
      (tr) => [tr.dataset.player, [...tr.querySelectorAll("li")].map((li) => li.textContent)])),
    deal: (ledger.reasons || []).map(dealReasonText),
  };
}"""

RENDER_SHEET = """async (sheet) => {
  const { renderSheet } = await import("/static/js/table-sheet.js");
  const box = document.createElement("div");
  document.body.append(box);
  renderSheet(box, sheet);
  const cells = (row) => [...row.children].map((c) => c.textContent.trim());
  const table = box.querySelector("table");
  const result = {
    head: [...table.querySelectorAll("thead tr")].map(cells),
    body: [...table.querySelectorAll("tbody tr")].map(cells),
    foot: [...table.querySelectorAll("tfoot tr")].map(cells),
    notes: [...box.querySelectorAll(".sheet-notes p, .sheet-notes li")].map(
      (n) => n.textContent.trim()
    ),
  };
  box.remove();
  return result;
}"""


def entry(player: str, points: int, cents: int, pots: list[Any], reasons: list[Any],
          **rest: Any) -> dict[str, Any]:  # fmt: skip
    into = sum(p["cents"] for p in pots)
    moves = [
        {"code": "pot_in" if p["cents"] > 0 else "pot_out", "pot": p["pot"],
         "cents": abs(p["cents"]), "why": p["reason"],
         **{k: v for k, v in p.items() if k not in ("pot", "player", "cents", "reason")}}
        for p in pots
    ]  # fmt: skip
    return {
        "player": player, "points": points, "cents": cents, "pot_cents": into,
        "net_cents": cents - into, "pots": pots, "total_points": points,
        "total_cents": cents - into, "reasons": reasons + moves, "sitting_out": False, **rest,
    }  # fmt: skip


def german_page(new_person: NewPerson, base: str) -> Page:
    page = new_person()
    register_by_api(page, base, "Zoe")
    page.goto(f"{base}/archive/replay")
    return page


def test_the_ledgers_codes_in_words(new_person: NewPerson, module_server: LiveServer) -> None:
    page = german_page(new_person, module_server.base_url)
    # A Radl deal: the factor in the chain, the points times the stake.
    radl = {
        "number": 4, "factor": 2, "reasons": [{"code": "radl", "factor": 2}], "pots": {},
        "sheet_info": {"unit": "points", "stake": True},
        "entries": [
            entry("Anna", 32, 320, [], [
                {"code": "factor", "what": "radl", "points": 16, "factor": 2, "result": 32},
                {"code": "stake", "points": 32, "stake_cents": 10, "cents": 320}]),
            entry("Bert", -16, -160, [], [
                {"code": "factor", "what": "radl", "points": -8, "factor": 2, "result": -16},
                {"code": "stake", "points": -16, "stake_cents": 10, "cents": -160}]),
        ],
    }  # fmt: skip
    shown = page.evaluate(RENDER_LEDGER, radl)
    assert shown["head"] == [["Spieler", "Punkte", "Geld"]]
    assert shown["rows"] == [["Anna", "+32", "+3,20\u00a0€"], ["Bert", "−16", "−1,60\u00a0€"]]
    assert shown["why"]["Anna"] == ["16 × Radl 2 = 32 · 32 × 0,10\u00a0€ = +3,20\u00a0€"]
    assert shown["why"]["Bert"] == ["−8 × Radl 2 = −16 · −16 × 0,10\u00a0€ = −1,60\u00a0€"]
    assert shown["deal"] == ["Radl: dieses Spiel zählt 2-fach"]
    # Doppen with four: the columns are money, the dealer sits out and pays like an
    # opponent; a lost Pagat is paid into the Kasse, a share taken out of it.
    kasse = [{"pot": "pagatkasse", "player": "Bert", "cents": 3200, "reason": "pagat_lost",
              "factor": 16}]  # fmt: skip
    per = {"code": "per_opponent", "declarer": "Anna", "points": 15, "opponents": 3,
           "stake_cents": 10}  # fmt: skip
    doppen = {
        "number": 1, "factor": 1, "reasons": [], "pots": {"pagatkasse": 3200},
        "sheet_info": {"unit": "cents", "stake": True},
        "entries": [
            entry("Anna", 450, 450, [], [{**per, "cents": 450}]),
            entry("Bert", 0, -150, kasse, [{**per, "cents": -150}]),
            entry("Carl", 0, -150, [{"pot": "pagatkasse", "player": "Carl", "cents": -140,
                                     "reason": "kasse_split"}], [{**per, "cents": -150}]),
            entry("Dora", 0, -150, [], [{**per, "cents": -150}], sitting_out=True),
        ],
    }  # fmt: skip
    shown = page.evaluate(RENDER_LEDGER, doppen)
    assert shown["head"] == [["Spieler", "Geld"]]
    assert shown["rows"] == [
        ["Anna", "+4,50\u00a0€"],
        ["Bert", "−33,50\u00a0€"],
        ["Carl", "−0,10\u00a0€"],
        ["Dora sitzt aus", "−1,50\u00a0€"],
    ]
    assert shown["why"]["Anna"] == ["Anna: 15 je Gegner × 3 Gegner × 0,10\u00a0€ = +4,50\u00a0€"]
    assert shown["why"]["Bert"] == [
        "Anna: 15 je Gegner × 3 Gegner; als Gegner −1,50\u00a0€",
        "Bert zahlt 32,00\u00a0€ in die Pagatkasse (Pagat verloren ×16)",
    ]
    assert shown["why"]["Carl"][1] == "Carl nimmt 1,40\u00a0€ aus der Pagatkasse (Kasse verteilt)"


def test_the_sheet_shows_the_pots_and_the_settlement(
    new_person: NewPerson, module_server: LiveServer
) -> None:
    page = german_page(new_person, module_server.base_url)
    players = ["Anna", "Bert", "Carl"]
    columns = [{"key": k, "label": f"sheet.col.{k}"} for k in ("number", "values", "totals")]

    def row(number: int, values: dict[str, int], pots: dict[str, int]) -> dict[str, Any]:
        return {"number": number, "values": values, "totals": values,
                "pot_balances": pots}  # fmt: skip

    running = {
        "game": "bayerisches-tarock", "kind": "points", "players": players, "columns": columns,
        "rows": [row(1, {"Anna": 4, "Bert": -2, "Carl": -2}, {"haferl": 300}),
                 row(2, {"Anna": 4, "Bert": -2, "Carl": -2}, {"haferl": 160})],
        "totals": {"Anna": 8, "Bert": -4, "Carl": -4},
        "pots": {"haferl": {"Anna": -40, "Bert": 100, "Carl": 100}},
        "pot_balances": {"haferl": 160},
        "balances_cents": {"Anna": 80, "Bert": -40, "Carl": -40},
        "progress": {"done": 2, "of": 6}, "lines": [], "finished": False, "settlement": None,
    }  # fmt: skip
    shown = page.evaluate(RENDER_SHEET, running)
    assert shown["head"] == [["#", "Anna", "Bert", "Carl", "Haferl"]]
    assert [r[-1] for r in shown["body"]] == ["3,00\u00a0€", "1,60\u00a0€"]
    assert shown["foot"][0][-1] == "1,60\u00a0€"
    assert "Haferl: 1,60\u00a0€ darin" in shown["notes"]
    assert "Anna hat 0,40\u00a0€ aus dem Haferl genommen" in shown["notes"]
    assert "Bert hat 1,00\u00a0€ ins Haferl gezahlt" in shown["notes"]
    # Ended early: the Haferl is shared out by the closing moves; the players pay each other.
    ended = {
        **running,
        "settlement": {
            "totals": running["totals"], "money_cents": {"Anna": 100, "Bert": -50, "Carl": -50},
            "placings": {"Anna": 1, "Bert": 2, "Carl": 2},
            "pots": {"haferl": {"held": 0, "shares": {"Anna": -100, "Bert": 50, "Carl": 50}}},
            "closing": [{"pot": "haferl", "player": p, "cents": -cents, "reason": "haferl_shared"}
                        for p, cents in (("Anna", 60), ("Bert", 50), ("Carl", 50))],
            "payments": [{"payer": "Bert", "payee": "Anna", "cents": 50},
                         {"payer": "Carl", "payee": "Anna", "cents": 50}],
            "ended_early": True,
        },
    }  # fmt: skip
    notes = page.evaluate(RENDER_SHEET, ended)["notes"]
    assert "Die Partie wurde vorzeitig beendet; die Töpfe sind geschlossen." in notes
    assert "Anna nimmt 0,60\u00a0€ aus dem Haferl (Haferl geteilt)" in notes
    assert "Bert zahlt Anna 0,50\u00a0€" in notes
    assert "Niemand muss zahlen." not in notes
    assert "1. Platz: Anna" in notes
    # A Depot keeps its money: what each put in, and nobody pays anybody else.
    depot = {
        "game": "doppelkopf", "kind": "counters", "players": players, "columns": columns,
        "start": dict.fromkeys(players, 30),
        "rows": [row(1, {"Anna": 3, "Bert": 0, "Carl": 0}, {"depot": 250})],
        "totals": {"Anna": 27, "Bert": 30, "Carl": 30},
        "pots": {"depot": {"Anna": 50, "Bert": 100, "Carl": 100}},
        "pot_balances": {"depot": 250}, "progress": {"done": 1, "of": 1},
        "lines": [{"code": "no_stake"}], "finished": True,
        "balances_cents": {"Anna": -50, "Bert": -100, "Carl": -100},
        "settlement": {
            "totals": {"Anna": 27, "Bert": 30, "Carl": 30},
            "money_cents": {"Anna": -50, "Bert": -100, "Carl": -100},
            "placings": {"Anna": 1, "Bert": 2, "Carl": 2},
            "pots": {"depot": {"held": 250, "shares": {"Anna": 50, "Bert": 100, "Carl": 100}}},
            "closing": [], "payments": [], "ended_early": False,
        },
    }  # fmt: skip
    shown = page.evaluate(RENDER_SHEET, depot)
    notes = shown["notes"]
    assert shown["foot"][1][0] == "Geld" and shown["head"][0][-1] == "Depot"
    assert any(n.startswith("Der Einsatz pro Punkt gilt hier nicht") for n in notes)
    assert "Depot: 2,50\u00a0€ bleiben darin" in notes
    assert "Bert hat 1,00\u00a0€ ins Depot gezahlt" in notes
    assert "Niemand muss zahlen." not in notes
    assert "Untereinander muss niemand etwas zahlen; was im Topf bleibt, steht oben." in notes
