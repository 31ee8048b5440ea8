/**
 * The running score sheet ("Schreibe") in each group's own style: Dreierles as points per
 * deal with running totals and who pays whom at the end; Doppelkopf as the count-down
 * from 30 with the Pflichtsolo notes, the Kurzer and the Depot. Built with DOM nodes only.
 */

import { el } from "./forms.js";
import { money, t } from "./i18n.js";
import { contractLabel } from "./table-games.js";

/**
 * @param {HTMLElement} target
 * @param {any} sheet the `match.sheet` of a snapshot
 */
export function renderSheet(target, sheet) {
  target.replaceChildren();
  if (!sheet || !sheet.players) return;
  const players = sheet.players;
  const table = el("table", "sheet-table");
  const head = el("tr");
  head.append(el("th", "num", "#"), el("th", "", t("sheet.game")));
  for (const p of players) head.append(el("th", "num", p));
  table.append(el("thead"));
  /** @type {HTMLElement} */ (table.firstChild).append(head);
  const body = el("tbody");
  const rows = sheet.rows || [];
  if (!rows.length) {
    const empty = el("tr");
    const cell = el("td", "muted", t("sheet.empty"));
    cell.setAttribute("colspan", String(players.length + 2));
    empty.append(cell);
    body.append(empty);
  }
  for (const row of rows) {
    const tr = el("tr");
    tr.append(el("td", "num", String(row.number)));
    const contract = contractLabel(sheet.game, row.contract);
    const who = row.declarer ? ` · ${row.declarer}` : "";
    const what = el("td", "", contract + who);
    if (row.note) what.append(el("small", "note", ` ${row.note}`));
    if (row.kurzer) what.append(el("small", "note", ` ${t("sheet.kurzer")}`));
    tr.append(what);
    for (const p of players) {
      if (sheet.game === "doppelkopf") {
        const points = row.points ? row.points[p] : 0;
        const cell = el("td", "num", String(row.counters[p]));
        if (points) cell.append(el("small", points > 0 ? "up" : "down", ` (${signed(points)})`));
        tr.append(cell);
      } else {
        const sat = row.sitting_out === p;
        const cell = el("td", "num" + (sat ? " muted" : ""), sat ? "–" : signed(row.points[p]));
        cell.append(el("small", "total", ` ${row.totals[p]}`));
        tr.append(cell);
      }
    }
    body.append(tr);
  }
  table.append(body);
  const foot = el("tfoot");
  const totals = el("tr");
  totals.append(el("th", "", ""), el("th", "", t(sheet.game === "doppelkopf" ? "sheet.counters" : "sheet.totals")));
  const final = sheet.game === "doppelkopf" ? sheet.counters : sheet.totals;
  for (const p of players) totals.append(el("th", "num", String(final ? final[p] : "")));
  foot.append(totals);
  if (sheet.balances_cents) {
    const cents = el("tr");
    cents.append(el("th", "", ""), el("th", "", t("sheet.money")));
    for (const p of players) cents.append(el("th", "num", money(sheet.balances_cents[p])));
    foot.append(cents);
  }
  table.append(foot);
  const wrap = el("div", "sheet-scroll");
  wrap.append(table);
  target.append(wrap);

  const notes = el("div", "sheet-notes");
  if (sheet.game === "dreierles") {
    notes.append(el("p", "muted", t("sheet.dreierles_progress", { done: rows.length, deals: sheet.deals })));
  } else if (sheet.game === "doppelkopf") {
    notes.append(el("p", "muted", t("sheet.doppelkopf_start", { points: sheet.start_points })));
    for (const p of players) {
      const owed = (sheet.obligations && sheet.obligations[p]) || [];
      if (owed.length) notes.append(el("p", "", t("sheet.pflichtsolo", { player: p, n: owed.length })));
    }
    if (sheet.vorfuehrung) notes.append(el("p", "", t("sheet.vorfuehrung")));
  }
  if (sheet.finished) {
    notes.append(el("h3", "", t("sheet.final")));
    if (sheet.payments) {
      if (!sheet.payments.length) notes.append(el("p", "", t("sheet.nobody_pays")));
      const list = el("ul", "payments");
      for (const pay of sheet.payments) {
        list.append(el("li", "", t("sheet.pays", { payer: pay.payer, payee: pay.payee, amount: money(pay.cents) })));
      }
      notes.append(list);
    }
    if (sheet.placings) {
      const list = el("ul", "placings");
      const order = [...players].sort((a, b) => sheet.placings[a] - sheet.placings[b]);
      for (const p of order) list.append(el("li", "", t("sheet.placing", { player: p, place: sheet.placings[p] })));
      notes.append(list);
    }
    if (sheet.depot_cents) {
      const list = el("ul", "payments");
      for (const p of players) {
        if (sheet.depot_cents[p]) list.append(el("li", "", t("sheet.depot", { player: p, amount: money(sheet.depot_cents[p]) })));
      }
      notes.append(list);
    }
  }
  target.append(notes);
}

/**
 * A number with its sign: +12, −4, 0.
 * @param {number} n
 * @returns {string}
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}
