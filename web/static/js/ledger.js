/**
 * The ledger of a deal in words (docs/api.md, "The ledger"): the server's match writes,
 * for every finished deal, one entry per person (the sitting-out fourth included) with the
 * sheet's points, the money between the players (`cents`), what the person put into a
 * pot or took out of it (`pots`, `pot_cents`, `net_cents`), the running totals and the
 * reasons as codes. The result panel at the table, the score sheet, the archive and the
 * replay show these numbers as they are: nothing here computes a share, a factor or a sum.
 *
 * Reasons are worded with `ledger.<code>` (the money parameters as money); a pot movement
 * from the person's side with `ledger.pot_in` / `ledger.pot_out` ("Bert zahlt 32,00 € in
 * die Pagatkasse", "Anna nimmt 1,40 € aus dem Haferl"), the pot's phrase `pot.into.<pot>`
 * / `pot.out_of.<pot>` and why with `pot.reason.<why>`. Built with DOM nodes only; no game
 * is named here.
 */

import { el } from "./forms.js";
import { has, money, t } from "./i18n.js";

/**
 * A number with its sign: +12, −4, 0.
 * @param {number} n
 * @returns {string}
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/**
 * Money with its sign: "+3,20 €", "−1,60 €", "0,00 €".
 * @param {number} cents
 * @returns {string}
 */
export function signedMoney(cents) {
  const text = money(Math.abs(cents));
  return cents > 0 ? `+${text}` : cents < 0 ? `−${text}` : text;
}

/**
 * Money as a balance shows it: "3,20 €", "−1,60 €" (a debt with the minus sign, as every
 * number on the sheet and in the ledger; never the hyphen).
 * @param {number} cents
 * @returns {string}
 */
export function moneyText(cents) {
  return cents < 0 ? `−${money(-cents)}` : money(cents);
}

/**
 * The class of a number's colour: "up" for a gain, "down" for a loss, "" for nothing.
 * @param {number} n
 * @returns {string}
 */
export function trend(n) {
  return n > 0 ? "up" : n < 0 ? "down" : "";
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
 * The parameters of a code with every money parameter written as money: `cents` with its
 * sign, `<name>_cents` also as `<name>`; `what` named by `ledger.what.<what>`.
 * @param {Record<string, any>} params
 * @returns {Record<string, any>}
 */
export function moneyParams(params) {
  const out = { ...params };
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== "number") continue;
    if (name === "cents") out.cents = signedMoney(value);
    else if (name.endsWith("_cents")) out[name.slice(0, -6)] = moneyText(value);
  }
  if (typeof params.what === "string" && has(`ledger.what.${params.what}`)) {
    out.what = t(`ledger.what.${params.what}`);
  }
  return out;
}

/**
 * A code with its parameters as plain text, for a code the catalogue does not know.
 * @param {Record<string, any>} line
 * @returns {string}
 */
function bare(line) {
  const params = Object.entries(line)
    .filter(([name]) => name !== "code")
    .map(([name, value]) => `${name} ${value}`);
  return params.length ? `${line.code} (${params.join(", ")})` : String(line.code);
}

/**
 * Why a pot moved, in words: `pot.reason.<why>` (a movement of the ledger says `why`, a
 * stored movement `reason`), filled from the movement's parameters, with its factor
 * ("×16") after it; text stored before reasons were codes is shown
 * as it was.
 * @param {any} move
 * @returns {string}
 */
export function potWhy(move) {
  const why = move.why || move.reason;
  if (!why) return "";
  const key = `pot.reason.${why}`;
  if (!has(key)) return why;
  const params = { ...(move.params || {}), ...move };
  const text = t(key, params);
  // The reasons' texts leave the factor out: it follows them ("Pagat verloren ×16").
  const factor = params.factor;
  if (typeof factor === "number" && factor > 1) return `${text} ${t("ledger.times", { factor })}`;
  return text;
}

/**
 * A pot's phrase after a verb: "in die Pagatkasse" / "aus dem Haferl" (`pot.into.<pot>`,
 * `pot.out_of.<pot>`), else the generic one with the pot's name.
 * @param {"into"|"out_of"} way
 * @param {string} pot
 * @returns {string}
 */
export function potPhrase(way, pot) {
  const key = `pot.${way}.${pot}`;
  return has(key) ? t(key) : t(`pot.${way}`, { pot: potName(pot) });
}

/**
 * A pot movement from the person's side: "Bert zahlt 32,00 € in die Pagatkasse (Pagat
 * verloren)", "Anna nimmt 1,40 € aus dem Haferl (Haferl geteilt)". `move` is a movement
 * of the ledger's reasons (`code` "pot_in"/"pot_out", `cents` ≥ 0, `why`) or a stored one
 * (`cents` > 0 into the pot, < 0 out of it; `reason`).
 * @param {string} player
 * @param {any} move
 * @param {{why?: boolean}} [options] `why: false` leaves the reason out
 * @returns {string}
 */
export function potMoveText(player, move, options = {}) {
  const stored = move.code !== "pot_in" && move.code !== "pot_out";
  const value = typeof move.cents === "number" ? move.cents : typeof move.points === "number" ? move.points : 0;
  const out = stored ? value < 0 : move.code === "pot_out";
  const size = Math.abs(value);
  const amount = typeof move.cents === "number" || typeof move.points !== "number" ? money(size) : String(size);
  const text = t(out ? "ledger.pot_out" : "ledger.pot_in", {
    player,
    amount,
    pot: potName(move.pot),
    into: potPhrase("into", move.pot),
    out_of: potPhrase("out_of", move.pot),
  });
  const why = options.why === false ? "" : potWhy(move);
  return why ? `${text} (${why})` : text;
}

/**
 * One reason of a person's entry in words (not a pot movement): "16 × Radl 2 = 32",
 * "32 × 0,10 € = +3,20 €", "Anna: 15 je Gegner × 3 Gegner …", "Zähler 3 herunter auf
 * 27". The declarer's own result against each opponent reads `ledger.per_opponent.own`.
 * @param {any} reason
 * @param {any} [entry] the person's entry
 * @returns {string}
 */
export function reasonText(reason, entry) {
  if (!reason || typeof reason !== "object") return String(reason);
  if (reason.code === "pot_in" || reason.code === "pot_out") {
    return potMoveText(entry ? entry.player : "", reason);
  }
  let key = `ledger.${reason.code}`;
  if (entry && reason.declarer !== undefined && reason.declarer === entry.player && has(`${key}.own`)) key += ".own";
  return has(key) ? t(key, moneyParams(reason)) : bare(reason);
}

/**
 * A reason of the whole deal in words: "Radl: dieses Spiel zählt 2-fach".
 * @param {any} reason
 * @returns {string}
 */
export function dealReasonText(reason) {
  if (!reason || typeof reason !== "object") return String(reason);
  const key = `ledger.deal.${reason.code}`;
  return has(key) ? t(key, moneyParams(reason)) : bare(reason);
}

/**
 * How a person's numbers came about: the chain of reasons in one line ("16 × Radl 2 = 32
 * · 32 × 0,10 € = +3,20 €"), then every pot movement in a line of its own.
 * @param {any} entry
 * @returns {{chain: string, pots: string[]}}
 */
export function entryLines(entry) {
  const reasons = entry.reasons || [];
  const chain = reasons
    .filter((/** @type {any} */ r) => r.code !== "pot_in" && r.code !== "pot_out")
    .map((/** @type {any} */ r) => reasonText(r, entry))
    .filter(Boolean)
    .join(" · ");
  const moves = reasons.filter((/** @type {any} */ r) => r.code === "pot_in" || r.code === "pot_out");
  /** @type {string[]} */
  let pots = moves.map((/** @type {any} */ m) => potMoveText(entry.player, m));
  if (!moves.length && entry.pots && entry.pots.length) {
    pots = entry.pots.map((/** @type {any} */ m) => potMoveText(entry.player, m));
  }
  return { chain, pots };
}

/**
 * Which columns a ledger's table has: the points unless the sheet's columns are money
 * (`unit` "cents"); the money when an entry moved money or a pot, or the stake applies.
 * @param {any} ledger
 * @param {{unit?: string, stake?: boolean} | null | undefined} sheetInfo the game
 *   description's `sheet`
 * @param {boolean} [stakeApplies] the match pays points at a stake (> 0)
 * @returns {{points: boolean, money: boolean}}
 */
export function ledgerColumns(ledger, sheetInfo, stakeApplies = false) {
  const entries = (ledger && ledger.entries) || [];
  const unit = sheetInfo && sheetInfo.unit;
  const moved = entries.some(
    (/** @type {any} */ e) => e.cents || e.net_cents || e.pot_cents || (e.pots && e.pots.length),
  );
  const stake = stakeApplies && !(sheetInfo && sheetInfo.stake === false);
  return { points: unit !== "cents", money: unit === "cents" || moved || stake };
}

/**
 * The ledger of the deal that just finished: the snapshot's `match.ledger` when it is that
 * deal's (`number`); null while the server has not written it yet.
 * @param {any} match the snapshot's `match`
 * @param {number | null} [number] the finished deal's number
 * @returns {any}
 */
export function finishedLedger(match, number = null) {
  if (!match) return null;
  const fits = (/** @type {any} */ ledger) =>
    ledger && Array.isArray(ledger.entries) && (number === null || ledger.number === number);
  return fits(match.ledger) ? match.ledger : null;
}

/**
 * A deal's ledger as a table: per person the name (the one sitting out marked), the points
 * and the money of the deal, and below each person the chain of reasons and the pot
 * movements in words.
 * @param {any} ledger
 * @param {{points: boolean, money: boolean}} columns (see `ledgerColumns`)
 * @returns {HTMLElement}
 */
export function ledgerTable(ledger, columns) {
  const table = el("table", "settlement ledger");
  const head = el("tr");
  head.append(el("th", "", t("ledger.player")));
  if (columns.points) head.append(el("th", "num", t("ledger.points")));
  if (columns.money) head.append(el("th", "num", t("ledger.money")));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  const width = 1 + Number(columns.points) + Number(columns.money);
  for (const entry of ledger.entries || []) {
    const tr = el("tr", "ledger-entry" + (entry.sitting_out ? " sitting-out" : ""));
    tr.dataset.player = entry.player;
    const who = el("td", "ledger-player", entry.player);
    if (entry.sitting_out) who.append(" ", el("small", "note", t("ledger.sitting_out")));
    tr.append(who);
    if (columns.points) tr.append(el("td", `num points ${trend(entry.points)}`, signed(entry.points)));
    if (columns.money) {
      const cents = typeof entry.net_cents === "number" ? entry.net_cents : entry.cents || 0;
      tr.append(el("td", `num money ${trend(cents)}`, signedMoney(cents)));
    }
    body.append(tr);
    const { chain, pots } = entryLines(entry);
    if (chain || pots.length) {
      const why = el("tr", "ledger-why");
      why.dataset.player = entry.player;
      const cell = el("td");
      cell.setAttribute("colspan", String(width));
      const list = el("ul", "ledger-lines");
      if (chain) list.append(el("li", "ledger-chain", chain));
      for (const line of pots) list.append(el("li", "ledger-pot", line));
      cell.append(list);
      why.append(cell);
      body.append(why);
    }
  }
  table.append(thead, body);
  return table;
}
