/**
 * The running score sheet ("Schreibe") of any game, rendered from what the sheet says of
 * itself (spec §3, the match's `to_json()`): its `kind` ("points": values per deal with
 * running totals; "counters": counting down from a start, such as 30 each), its
 * `columns` (`number`, `dealer`, `contract`, `declarer`, `note`… each with a catalogue key
 * as label; `values` and `totals` stand for the players' cells, one per player), its `rows`, `totals`, `pots`,
 * `placings`, `balances_cents` and `payments`. Contracts and notes are codes
 * (`contract.<game>.<code>`, `sheet.note.<game>.<code>`); a column whose key ends in `_cents`
 * and a line's parameter `<name>_cents` (also given as `<name>`) are shown as money. The
 * numbers of money come from the match's ledger (ledger.js): each row's `ledger` gives
 * every pot's balance after the deal (a column per pot), `balances_cents` the money row,
 * `pot_balances` the pots now, and `settlement` (once the match is over) what each pot
 * held and who got what, and who pays whom. Sheets stored before the sheet
 * described itself (`points`/`counters` per row, `start_points`) are read the same way.
 *
 * What only one game's sheet carries (marks in a row, notes below the sheet, its old
 * stored shape) is read by the game's module, when the caller passes the loaded game
 * (game-info.js documents the hooks: `storedSheet`, `sheetMarks`, `sheetNotes`,
 * `sheetLine`). Built with DOM nodes only; no game is named here.
 */

import { computerMark } from "./computer-mark.js";
import { el } from "./forms.js";
import { contractLabel } from "./game-info.js";
import { has, t } from "./i18n.js";
import { moneyText, potMoveText, potName, potPhrase, potWhy, signed } from "./ledger.js";

export { potName, signed };

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
 *   cents
 * @property {boolean} finished
 * @property {Record<string, number> | null} placings
 * @property {Record<string, number> | null} balances_cents
 * @property {any[] | null} payments
 * @property {Record<string, number>} pot_balances each pot's balance now, in cents
 * @property {any} settlement the final settlement once the match is over, else null
 * @property {any} source the sheet as the match sent it (for the game module's hooks)
 */

/** The leading columns of a sheet that does not name them. */
const DEFAULT_COLUMNS = [
  { key: "number", label: "sheet.col.number" },
  { key: "contract", label: "sheet.game" },
];

/** The column keys that stand for the players' cells (a value per deal, the running total). */
const PLAYER_COLUMNS = ["values", "totals"];

/**
 * A game loaded for its sheet's hooks: its module and the context it is given.
 * @typedef {{module: any, ctx: import("./game-info.js").GameContext}} SheetGame
 */

/**
 * A sheet in the described shape, also from the shape stored before (rows with `points`
 * and `counters`, the counters' `start_points`, the number of `deals`); a game's own old
 * fields are brought into it by its module's `storedSheet(sheet) → sheet`.
 * @param {any} raw
 * @param {SheetGame | null} [game] the sheet's game, loaded
 * @returns {Sheet}
 */
export function normalizeSheet(raw, game = null) {
  const sheet = game && game.module.storedSheet ? game.module.storedSheet(raw) : raw;
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
    pots: sheet.pots || {},
    finished: Boolean(sheet.finished),
    placings: sheet.placings || null,
    balances_cents: sheet.balances_cents || null,
    payments: sheet.payments || null,
    pot_balances: sheet.pot_balances || {},
    settlement: sheet.settlement || null,
    source: sheet,
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
 * One leading cell of a row; the contract's cell carries the row's note and the marks
 * the game's module gives (`sheetMarks(row, ctx) → string[]`).
 * @param {Sheet} sheet
 * @param {any} row
 * @param {string} key
 * @param {SheetGame | null} game
 * @returns {HTMLElement}
 */
function leadingCell(sheet, row, key, game) {
  if (key === "number") return el("td", "num", String(row.number ?? ""));
  if (key === "contract") {
    const who = row.declarer ? ` · ${row.declarer}` : "";
    const cell = el("td", "", contractLabel(sheet.game, row.contract) + who);
    if (row.note) cell.append(el("small", "note", ` ${noteText(sheet.game, row.note)}`));
    const marks = game && game.module.sheetMarks ? game.module.sheetMarks(row, game.ctx) : [];
    for (const mark of marks) cell.append(el("small", "note", ` ${mark}`));
    return cell;
  }
  if (key === "note") return el("td", "", row.note ? noteText(sheet.game, row.note) : "");
  const value = row[key];
  if (key.endsWith("_cents")) return el("td", "num", typeof value === "number" ? moneyText(value) : "");
  return el("td", "", value === null || value === undefined ? "" : String(value));
}

/**
 * The pots whose balance after every deal the sheet shows: those of the sheet's
 * `pot_balances` and of its rows' ledgers, unless the sheet has a column of its own for
 * one (`<pot>_cents`). A sheet with a contract column shows them in its cell (a phone
 * keeps every player's numbers in sight); else each gets a column.
 * @param {Sheet} sheet
 * @param {{key: string}[]} columns the leading columns shown
 * @returns {string[]}
 */
function potColumns(sheet, columns) {
  const pots = new Set(Object.keys(sheet.pot_balances));
  for (const row of sheet.rows) for (const pot of Object.keys(row.pot_balances || {})) pots.add(pot);
  return [...pots].filter((pot) => !columns.some((c) => c.key === `${pot}_cents`));
}

/**
 * @param {HTMLElement} target
 * @param {any} raw the `match.sheet` of a snapshot, or the archive's sheet
 * @param {SheetGame | null} [loaded] the sheet's game (game-info.js `loadGame`), for what
 *   only its module knows of its sheet; without it the sheet is drawn from its description
 * @param {Record<string, string>} [computers] the computer players by name, with their
 *   level: their columns' heads carry the mark (icon and text)
 */
export function renderSheet(target, raw, loaded = null, computers = {}) {
  target.replaceChildren();
  if (!raw || !raw.players) return;
  const game = loaded && loaded.module && (!raw.game || loaded.ctx.game === raw.game) ? loaded : null;
  const sheet = normalizeSheet(raw, game);
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
  for (const p of players) {
    const cell = el("th", "num", p);
    if (computers[p]) cell.append(el("br"), computerMark(computers[p]));
    head.append(cell);
  }
  const potsShown = potColumns(sheet, columns);
  const pots = merged ? [] : potsShown;
  for (const pot of pots) head.append(el("th", "num pot", potName(pot)));
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
    for (const _pot of pots) tr.append(el("th"));
    thead.append(tr);
  }
  table.append(thead);
  const body = el("tbody");
  if (!sheet.rows.length) {
    const empty = el("tr");
    const cell = el("td", "muted", t("sheet.empty"));
    cell.setAttribute("colspan", String(players.length + columns.length + pots.length));
    empty.append(cell);
    body.append(empty);
  }
  for (const row of sheet.rows) {
    const tr = el("tr");
    for (const column of columns) {
      const cell = leadingCell(sheet, row, column.key, game);
      if (merged && column.key === "contract") {
        // each pot's balance after the deal, as the deal's ledger left it
        for (const pot of potsShown) {
          const balance = row.pot_balances ? row.pot_balances[pot] : undefined;
          if (typeof balance !== "number") continue;
          cell.append(el("small", "note pot", t("sheet.pot_after", { pot: potName(pot), amount: moneyText(balance) })));
        }
      }
      tr.append(cell);
    }
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
    // each pot's balance after the deal, as the deal's ledger left it
    for (const pot of pots) {
      const balance = row.pot_balances ? row.pot_balances[pot] : undefined;
      tr.append(el("td", "num pot", typeof balance === "number" ? moneyText(balance) : ""));
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
  for (const pot of pots) {
    const balance = sheet.pot_balances[pot];
    totals.append(el("th", "num pot", typeof balance === "number" ? moneyText(balance) : ""));
  }
  foot.append(totals);
  if (sheet.balances_cents) {
    const cents = el("tr");
    const money_ = el("th", "", t("sheet.money"));
    money_.setAttribute("colspan", String(columns.length));
    cents.append(money_);
    for (const p of players) cents.append(el("th", "num", moneyText(sheet.balances_cents[p] || 0)));
    for (const _pot of pots) cents.append(el("th"));
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
  target.append(sheetNotes(sheet, game));
}

/**
 * The lines below the sheet: progress, the game module's notes (`sheetNotes(sheet, ctx)
 * → string[]`, from what only its sheet carries), the sheet's own lines, pots, and at
 * the end who pays whom and the placings.
 * @param {Sheet} sheet
 * @param {SheetGame | null} game
 * @returns {HTMLElement}
 */
function sheetNotes(sheet, game) {
  const notes = el("div", "sheet-notes");
  const progress = sheet.progress;
  if (progress) {
    const text =
      progress.of === null || progress.of === undefined
        ? t("sheet.progress_open", { done: progress.done })
        : t("sheet.progress_line", { done: progress.done, of: progress.of });
    notes.append(el("p", "muted sheet-progress", text));
  }
  const own = game && game.module.sheetNotes ? game.module.sheetNotes(sheet.source, game.ctx) : [];
  for (const text of own) notes.append(el("p", "", text));
  for (const line of sheet.lines) notes.append(el("p", "sheet-line", sheetLine(sheet.game, line, game)));
  if (!sheet.settlement) {
    for (const [pot, contents] of Object.entries(sheet.pots)) notes.append(potShares(sheet, pot, contents));
  }
  if (sheet.settlement) notes.append(...settlementNotes(sheet, sheet.settlement));
  else if (sheet.finished) {
    // a sheet stored before the ledger: who pays whom
    notes.append(el("h3", "", t("sheet.final")));
    if (sheet.payments) {
      if (!sheet.payments.length) notes.append(el("p", "", t("sheet.nobody_pays")));
      notes.append(paymentList(sheet.payments));
    }
  }
  if (sheet.finished || sheet.settlement) {
    const placings = sheet.placings || (sheet.settlement && sheet.settlement.placings);
    if (placings) {
      const list = el("ul", "placings");
      const order = [...sheet.players].sort((a, b) => placings[a] - placings[b]);
      for (const p of order) list.append(el("li", "", t("sheet.placing", { player: p, place: placings[p] })));
      notes.append(list);
    }
  }
  return notes;
}

/**
 * What each person has put into a pot so far (net; a person who took more out than he
 * put in "hat … genommen"), under the pot's balance.
 * @param {Sheet} sheet
 * @param {string} pot
 * @param {Record<string, number>} contents cents per person
 * @returns {HTMLElement}
 */
function potShares(sheet, pot, contents) {
  const box = el("div", "pot-shares");
  box.dataset.pot = pot;
  const balance = sheet.pot_balances[pot];
  if (typeof balance === "number") {
    box.append(el("p", "pot-balance", t("sheet.pot_balance", { pot: potName(pot), amount: moneyText(balance) })));
  }
  const list = el("ul", "payments pots");
  for (const [player, cents] of Object.entries(contents || {})) {
    if (cents) list.append(el("li", "", shareText(pot, player, cents)));
  }
  box.append(list);
  return box;
}

/**
 * "Anna hat 2,00 € in die Pagatkasse gezahlt" / "Bert hat 1,40 € aus dem Haferl genommen".
 * @param {string} pot
 * @param {string} player
 * @param {number} cents net put in (negative: taken out)
 * @returns {string}
 */
function shareText(pot, player, cents) {
  const key = cents < 0 ? "sheet.pot_share_out" : "sheet.pot_share_in";
  return t(key, {
    player,
    amount: moneyText(Math.abs(cents)),
    into: potPhrase("into", pot),
    out_of: potPhrase("out_of", pot),
  });
}

/**
 * @param {any[]} payments `{payer, payee, cents}` each
 * @returns {HTMLElement}
 */
function paymentList(payments) {
  const list = el("ul", "payments");
  for (const pay of payments) {
    list.append(el("li", "", t("sheet.pays", { payer: pay.payer, payee: pay.payee, amount: moneyText(pay.cents) })));
  }
  return list;
}

/**
 * The final settlement (`sheet.settlement`): what closed the pots when the match was
 * stopped early, what each pot held and who got what, then who pays whom.
 * @param {Sheet} sheet
 * @param {any} settlement
 * @returns {HTMLElement[]}
 */
function settlementNotes(sheet, settlement) {
  const out = [];
  const box = el("div", "settlement-final");
  box.append(el("h3", "", t("sheet.final")));
  if (settlement.ended_early) box.append(el("p", "muted", t("sheet.ended_early")));
  const closing = settlement.closing || [];
  let kept = false;
  for (const [pot, state] of Object.entries(settlement.pots || {})) {
    const held = (state && state.held) || 0;
    const shares = (state && state.shares) || {};
    const part = el("div", "pot-final");
    part.dataset.pot = pot;
    if (held) {
      // a pot that keeps its money (a Depot): what it holds, and what each put in
      kept = true;
      part.append(el("p", "", t("sheet.pot_held", { pot: potName(pot), amount: moneyText(held) })));
      const list = el("ul", "payments pots");
      for (const [player, cents] of Object.entries(shares)) {
        if (cents) list.append(el("li", "", shareText(pot, player, /** @type {number} */ (cents))));
      }
      part.append(list);
    } else {
      // a pot shared out: who got what (the moves that closed it)
      const moves = closing.filter((/** @type {any} */ m) => m.pot === pot);
      if (!moves.length) continue;
      part.append(el("p", "", t("sheet.pot_closed", { pot: potName(pot) })));
      const list = el("ul", "payments pots");
      for (const move of moves) list.append(el("li", "", potMoveText(move.player, move)));
      part.append(list);
    }
    box.append(part);
  }
  const payments = settlement.payments || [];
  if (payments.length) box.append(paymentList(payments));
  else box.append(el("p", "", t(kept ? "sheet.nobody_pays_each_other" : "sheet.nobody_pays")));
  out.push(box);
  return out;
}

/**
 * A line of the sheet (a code with parameters, `sheet.line.<game>.<code>`): the game
 * module's `sheetLine(line, ctx) → string | null` where it words the line, else the
 * catalogue's text; a `contract` is named as the table names it ("Trumpfsolo", not
 * "trumpf").
 * @param {string} game
 * @param {any} line
 * @param {SheetGame | null} [loaded]
 * @returns {string}
 */
function sheetLine(game, line, loaded = null) {
  if (!line || typeof line !== "object") return String(line);
  const own = loaded && loaded.module.sheetLine ? loaded.module.sheetLine(line, loaded.ctx) : null;
  if (own) return own;
  const key = `sheet.line.${game}.${line.code}`;
  if (!has(key)) return String(line.code);
  const params = withMoney(line);
  if (typeof line.contract === "string") params.contract = contractLabel(game, line.contract);
  return t(key, params);
}

/**
 * A line's parameters with every `<name>_cents` also as `<name>`, and `cents` itself,
 * written as money.
 * @param {Record<string, any>} line
 * @returns {Record<string, any>}
 */
function withMoney(line) {
  const params = { ...line };
  for (const [name, value] of Object.entries(line)) {
    if (typeof value !== "number") continue;
    if (name === "cents") params.cents = moneyText(value);
    else if (name.endsWith("_cents")) params[name.slice(0, -6)] = moneyText(value);
  }
  return params;
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
  return unit === "cents" ? moneyText(amount) : signed(amount);
}

/**
 * Why a pot moved: a code (`pot.reason.<code>`, filled from the movement's `params`);
 * text stored before reasons were codes is shown as it was.
 * @param {any} pot a pot movement
 * @returns {string}
 */
export function reasonText(pot) {
  return potWhy(pot);
}
