/**
 * The running score sheet ("Schreibe") of any game, rendered from what the sheet says of
 * itself (spec §3, the match's `to_json()`): its `kind` ("points": values per deal with
 * running totals; "counters": counting down from a start, such as 30 each), its
 * `columns` (`number`, `dealer`, `contract`, `declarer`, `note`… each with a catalogue key
 * as label; `values` and `totals` stand for the players' cells, one per player), its `rows`, `totals`, `pots`,
 * `placings`, `balances_cents` and `payments`. Contracts and notes are codes
 * (`contract.<game>.<code>`, `sheet.note.<game>.<code>`); a column whose key ends in `_cents`
 * and a line's parameter `<name>_cents` (also given as `<name>`) are shown as money. Sheets stored before the sheet
 * described itself (`points`/`counters` per row, `start_points`) are read the same way.
 * Built with DOM nodes only; no game is named here.
 */

import { el } from "./forms.js";
import { contractLabel } from "./game-info.js";
import { has, money, t } from "./i18n.js";

/**
 * @typedef {object} Sheet the sheet in the described shape
 * @property {string} game
 * @property {"points"|"counters"} kind
 * @property {string[]} players
 * @property {{key: string, label: string}[]} columns
 * @property {Record<string, number> | null} start
 * @property {any[]} rows each with `values` and `totals` per player
 * @property {Record<string, number> | null} totals
 * @property {{done: number, of: number | null} | null} progress
 * @property {any[]} lines
 * @property {Record<string, Record<string, number>>} pots each pot's contents per player, in
 *   cents (old sheets: their `depot_cents`)
 * @property {Record<string, string[]>} obligations old sheets: the solos each player still owes
 * @property {boolean} vorfuehrung old sheets: the match is in its last round of solos
 * @property {boolean} finished
 * @property {Record<string, number> | null} placings
 * @property {Record<string, number> | null} balances_cents
 * @property {any[] | null} payments
 */

/** The leading columns of a sheet that does not name them. */
const DEFAULT_COLUMNS = [
  { key: "number", label: "sheet.col.number" },
  { key: "contract", label: "sheet.game" },
];

/** The column keys that stand for the players' cells (a value per deal, the running total). */
const PLAYER_COLUMNS = ["values", "totals"];

/**
 * A sheet in the described shape, also from the shape stored before (rows with `points`
 * and `counters`, the counters' `start_points`, the number of `deals`).
 * @param {any} sheet
 * @returns {Sheet}
 */
export function normalizeSheet(sheet) {
  const counters = sheet.kind ? sheet.kind === "counters" : Boolean(sheet.counters);
  const rows = (sheet.rows || []).map((/** @type {any} */ row) => ({
    ...row,
    values: row.values || row.points || {},
    totals: row.totals || row.counters || {},
  }));
  let start = sheet.start || null;
  if (!start && counters && sheet.start_points !== undefined) {
    start = Object.fromEntries((sheet.players || []).map((/** @type {string} */ p) => [p, sheet.start_points]));
  }
  const progress = sheet.progress || { done: rows.length, of: sheet.deals ?? null };
  return {
    game: sheet.game || "",
    kind: counters ? "counters" : "points",
    players: sheet.players || [],
    columns: sheet.columns && sheet.columns.length ? sheet.columns : DEFAULT_COLUMNS,
    start,
    rows,
    totals: sheet.totals || sheet.counters || (rows.length ? rows[rows.length - 1].totals : null),
    progress,
    lines: sheet.lines || [],
    pots: sheet.pots && Object.keys(sheet.pots).length ? sheet.pots : sheet.depot_cents ? { depot: sheet.depot_cents } : {},
    finished: Boolean(sheet.finished),
    obligations: sheet.obligations || {},
    vorfuehrung: Boolean(sheet.vorfuehrung),
    placings: sheet.placings || null,
    balances_cents: sheet.balances_cents || null,
    payments: sheet.payments || null,
  };
}

/**
 * The text of a sheet note (a code, `sheet.note.<game>.<code>`).
 * @param {string} game
 * @param {string} note
 * @returns {string}
 */
export function noteText(game, note) {
  const key = `sheet.note.${game}.${note}`;
  return has(key) ? t(key) : note;
}

/**
 * One leading cell of a row.
 * @param {Sheet} sheet
 * @param {any} row
 * @param {string} key
 * @returns {HTMLElement}
 */
function leadingCell(sheet, row, key) {
  if (key === "number") return el("td", "num", String(row.number ?? ""));
  if (key === "contract") {
    const who = row.declarer ? ` · ${row.declarer}` : "";
    const cell = el("td", "", contractLabel(sheet.game, row.contract) + who);
    if (row.note) cell.append(el("small", "note", ` ${noteText(sheet.game, row.note)}`));
    if (row.obligatory) cell.append(el("small", "note", ` ${t("sheet.obligatory_mark")}`));
    if (row.kurzer) cell.append(el("small", "note", ` ${t("sheet.kurzer")}`));
    return cell;
  }
  if (key === "note") return el("td", "", row.note ? noteText(sheet.game, row.note) : "");
  const value = row[key];
  if (key.endsWith("_cents")) return el("td", "num", typeof value === "number" ? money(value) : "");
  return el("td", "", value === null || value === undefined ? "" : String(value));
}

/**
 * @param {HTMLElement} target
 * @param {any} raw the `match.sheet` of a snapshot, or the archive's sheet
 */
export function renderSheet(target, raw) {
  target.replaceChildren();
  if (!raw || !raw.players) return;
  const sheet = normalizeSheet(raw);
  const counters = sheet.kind === "counters";
  const players = sheet.players;
  // The players' columns (`values`, `totals`) follow the leading ones, one per player; the
  // contract column shows the declarer and the note, which are then not repeated apart.
  const merged = sheet.columns.some((c) => c.key === "contract");
  const columns = sheet.columns.filter(
    (c) => !PLAYER_COLUMNS.includes(c.key) && !(merged && ["declarer", "note"].includes(c.key)),
  );
  const table = el("table", "sheet-table");
  table.dataset.kind = sheet.kind;
  const head = el("tr");
  for (const column of columns) {
    const label = column.key === "number" ? "#" : has(column.label) ? t(column.label) : column.key;
    head.append(el("th", column.key === "number" ? "num" : "", label));
  }
  for (const p of players) head.append(el("th", "num", p));
  const thead = el("thead");
  thead.append(head);
  if (counters && sheet.start) {
    // The start values head the counters (30 each), above the deals.
    const start = sheet.start;
    const tr = el("tr", "sheet-start");
    const cell = el("th", "muted", t("sheet.start_row"));
    cell.setAttribute("colspan", String(columns.length));
    tr.append(cell);
    for (const p of players) tr.append(el("th", "num muted", String(start[p] ?? "")));
    thead.append(tr);
  }
  table.append(thead);
  const body = el("tbody");
  if (!sheet.rows.length) {
    const empty = el("tr");
    const cell = el("td", "muted", t("sheet.empty"));
    cell.setAttribute("colspan", String(players.length + columns.length));
    empty.append(cell);
    body.append(empty);
  }
  for (const row of sheet.rows) {
    const tr = el("tr");
    for (const column of columns) tr.append(leadingCell(sheet, row, column.key));
    for (const p of players) {
      const played = Object.prototype.hasOwnProperty.call(row.values, p) && row.sitting_out !== p;
      const value = played ? row.values[p] : null;
      const total = row.totals[p];
      if (counters) {
        // The count itself, with the change of this deal beside it.
        const cell = el("td", "num", total === undefined ? "" : String(total));
        if (value) cell.append(el("small", value > 0 ? "up" : "down", ` (${signed(value)})`));
        tr.append(cell);
      } else {
        const cell = el("td", "num" + (played ? "" : " muted"), played ? signed(value || 0) : "–");
        if (total !== undefined) cell.append(el("small", "total", ` ${total}`));
        tr.append(cell);
      }
    }
    body.append(tr);
  }
  table.append(body);
  const foot = el("tfoot");
  const totals = el("tr");
  const label = el("th", "", t(counters ? "sheet.counters" : "sheet.totals"));
  label.setAttribute("colspan", String(columns.length));
  totals.append(label);
  for (const p of players) totals.append(el("th", "num", sheet.totals ? String(sheet.totals[p] ?? "") : ""));
  foot.append(totals);
  if (sheet.balances_cents) {
    const cents = el("tr");
    const money_ = el("th", "", t("sheet.money"));
    money_.setAttribute("colspan", String(columns.length));
    cents.append(money_);
    for (const p of players) cents.append(el("th", "num", money(sheet.balances_cents[p] || 0)));
    foot.append(cents);
  }
  table.append(foot);
  const wrap = el("div", "sheet-scroll");
  // It may scroll sideways on a phone: reachable and named for the keyboard.
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("table.sheet"));
  wrap.append(table);
  target.append(wrap);
  target.append(sheetNotes(sheet));
}

/**
 * The lines below the sheet: progress, the sheet's own lines, pots, and at the end who
 * pays whom and the placings.
 * @param {Sheet} sheet
 * @returns {HTMLElement}
 */
function sheetNotes(sheet) {
  const notes = el("div", "sheet-notes");
  const progress = sheet.progress;
  if (progress) {
    const text =
      progress.of === null || progress.of === undefined
        ? t("sheet.progress_open", { done: progress.done })
        : t("sheet.progress_line", { done: progress.done, of: progress.of });
    notes.append(el("p", "muted sheet-progress", text));
  }
  // Sheets that state their lines say the owed solos there; older ones only list them.
  for (const p of sheet.lines.length ? [] : sheet.players) {
    const owed = sheet.obligations[p] || [];
    if (owed.length) notes.append(el("p", "", t("sheet.pflichtsolo", { player: p, n: owed.length })));
  }
  if (sheet.vorfuehrung) notes.append(el("p", "", t("sheet.vorfuehrung")));
  for (const line of sheet.lines) notes.append(el("p", "sheet-line", sheetLine(sheet.game, line)));
  for (const [pot, contents] of Object.entries(sheet.pots)) {
    const list = el("ul", "payments pots");
    for (const [player, cents] of Object.entries(contents || {})) {
      if (cents) list.append(el("li", "", t("sheet.pot_line", { pot: potName(pot), player, amount: money(cents) })));
    }
    notes.append(list);
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
      const placings = sheet.placings;
      const list = el("ul", "placings");
      const order = [...sheet.players].sort((a, b) => placings[a] - placings[b]);
      for (const p of order) list.append(el("li", "", t("sheet.placing", { player: p, place: placings[p] })));
      notes.append(list);
    }
  }
  return notes;
}

/**
 * A pot's name (`pot.<name>`), else the name itself.
 * @param {string} pot
 * @returns {string}
 */
export function potName(pot) {
  return has(`pot.${pot}`) ? t(`pot.${pot}`) : pot;
}

/**
 * A line of the sheet (a code with parameters, `sheet.line.<game>.<code>`).
 * @param {string} game
 * @param {any} line
 * @returns {string}
 */
function sheetLine(game, line) {
  if (!line || typeof line !== "object") return String(line);
  const key = `sheet.line.${game}.${line.code}`;
  return has(key) ? t(key, withMoney(line)) : String(line.code);
}

/**
 * A line's parameters with every `<name>_cents` also as `<name>`, written as money.
 * @param {Record<string, any>} line
 * @returns {Record<string, any>}
 */
function withMoney(line) {
  const params = { ...line };
  for (const [name, value] of Object.entries(line)) {
    if (name.endsWith("_cents") && typeof value === "number") params[name.slice(0, -6)] = money(value);
  }
  return params;
}

/**
 * A number with its sign: +12, −4, 0.
 * @param {number} n
 * @returns {string}
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/**
 * An amount of a pot in its unit: money for `cents`, a plain number for `points`.
 * @param {any} move a pot movement (`cents` or `points`)
 * @returns {{unit: string, amount: number}}
 */
export function amountOf(move) {
  return move.points !== undefined && move.cents === undefined
    ? { unit: "points", amount: move.points }
    : { unit: "cents", amount: move.cents || 0 };
}

/**
 * An amount as text in its unit.
 * @param {string} unit
 * @param {number} amount
 * @returns {string}
 */
export function amountText(unit, amount) {
  return unit === "cents" ? money(amount) : signed(amount);
}

/**
 * Why a pot moved: a code (`pot.reason.<code>`, filled from the movement's `params`);
 * text stored before reasons were codes is shown as it was.
 * @param {any} pot a pot movement
 * @returns {string}
 */
export function reasonText(pot) {
  const reason = pot.reason;
  if (!reason) return "";
  return has(`pot.reason.${reason}`) ? t(`pot.reason.${reason}`, { ...pot, ...(pot.params || {}) }) : reason;
}
