/**
 * A match's page in the archive (/archive/matches/{id}): the score sheet in the group's
 * own style (renderSheet of the table, so that both read the same) with the final
 * settlement, the chart of the running totals, the pots' movements from the person's
 * side, every deal with its ledger (points and money per person, as the match wrote them)
 * and a link to its replay, and the downloads. Nothing here computes a number.
 *
 * Who was a computer player is said under the title (name and computer mark), and which
 * deals a stand-in moved in, for whom: a summary under the title and a line with each such
 * deal (the API's `stood_in`, read from the stored moves).
 */

import { ApiError, api } from "./api.js";
import { computersLine, formatDate } from "./archive.js";
import { renderChart } from "./chart.js";
import { el } from "./forms.js";
import { contractLabel, embeddedInfo, loadGame } from "./game-info.js";
import { t } from "./i18n.js";
import { ledgerColumns, ledgerTable, potMoveText, potWhy, signedMoney } from "./ledger.js";
import { amountText, potName, renderSheet, signed } from "./table-sheet.js";
import { computerMark, computersOnPage, markLedgerRows } from "./computer-mark.js";

const root = /** @type {HTMLElement} */ (document.getElementById("match-page"));
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The pots of a match (Depot, Pagatkasse…) as a table: the deal, the movement in words
 * from the person's side ("Anna zahlt 4,00 € in die Pagatkasse", "Bert nimmt 1,40 € aus
 * dem Haferl"), why; below, what each pot holds after them, as the ledger says.
 * @param {HTMLElement} target
 * @param {any[]} pots stored movements: `cents` > 0 into the pot, < 0 out of it
 * @param {Record<string, number>} held each pot's balance in cents (the settlement's, else the sheet's)
 */
export function renderPots(target, pots, held) {
  target.replaceChildren();
  const table = el("table", "sheet-table pots-table");
  const head = el("tr");
  head.append(
    el("th", "num", t("archive.pots.deal")),
    el("th", "", t("archive.pots.movement")),
    el("th", "", t("archive.pots.reason")),
  );
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const pot of pots) {
    const tr = el("tr");
    tr.dataset.pot = pot.pot;
    tr.append(
      el("td", "num", pot.deal_number ? String(pot.deal_number) : ""),
      el("td", "", potMoveText(pot.player, pot, { why: false })),
      el("td", "", potWhy(pot)),
    );
    body.append(tr);
  }
  table.append(thead, body);
  const wrap = el("div", "sheet-scroll");
  // It may scroll sideways on a phone: reachable and named for the keyboard.
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("archive.match.pots"));
  wrap.append(table);
  target.append(wrap);
  const totals = el("ul", "pot-sums");
  for (const [pot, cents] of Object.entries(held || {})) {
    totals.append(el("li", "", t("archive.pots.sum", { pot: potName(pot), amount: amountText("cents", cents) })));
  }
  target.append(totals);
}

/**
 * A deal's ledger in one line: "Anna +32 +3,20 € · Bernd −16 −1,60 € · …" (the points
 * unless the sheet's columns are money, the money when the deal moved any).
 * @param {any} ledger
 * @param {any} sheetInfo the game description's `sheet`
 * @returns {string}
 */
export function ledgerLine(ledger, sheetInfo) {
  const columns = ledgerColumns(ledger, sheetInfo);
  return (ledger.entries || [])
    .map((/** @type {any} */ entry) => {
      const parts = [entry.sitting_out ? `${entry.player} (${t("ledger.sitting_out")})` : entry.player];
      if (columns.points) parts.push(signed(entry.points));
      if (columns.money) parts.push(signedMoney(typeof entry.net_cents === "number" ? entry.net_cents : entry.cents || 0));
      return parts.join(" ");
    })
    .join(" · ");
}

/**
 * The lines saying for whom a stand-in moved in a deal: "Vertretung für Anna: [mark:
 * Computer (stark)] 3 Züge" (empty when nobody was stood in for).
 * @param {any[] | undefined} stoodIn the deal's `stood_in`
 * @returns {HTMLElement[]}
 */
export function standinLines(stoodIn) {
  return (stoodIn || []).map((/** @type {any} */ entry) => {
    const line = el("p", "deal-standin", t("archive.match.stood_in", { name: entry.name }));
    line.dataset.player = entry.name;
    line.append(" ", computerMark(entry.level), " ", t("archive.match.stood_in_moves", { n: entry.actions }));
    return line;
  });
}

/**
 * "Vertretungen: Spiel 2 für Anna · Spiel 5 für Anna, Bernd", or null when no deal of the
 * match was stood in.
 * @param {any[]} deals the API's deals
 * @returns {HTMLElement | null}
 */
export function standinSummary(deals) {
  const stood = deals.filter((deal) => (deal.stood_in || []).length);
  if (!stood.length) return null;
  const parts = stood.map((deal) =>
    t("archive.match.standin_deal", {
      n: deal.number,
      names: deal.stood_in.map((/** @type {any} */ s) => s.name).join(", "),
    }),
  );
  return el("p", "match-standins meta", `${t("archive.match.standins")} ${parts.join(" · ")}`);
}

/**
 * The deals of a match with contract, declarer, each person's points and money from the
 * deal's ledger (how they came about folded below) and a link to the replay.
 * @param {HTMLElement} target
 * @param {any} match
 * @param {any[]} deals
 * @param {any} [sheetInfo] the game description's `sheet` (`unit`, `stake`)
 */
export function renderDeals(target, match, deals, sheetInfo = null) {
  target.replaceChildren();
  if (!deals.length) target.append(el("li", "hint", t("archive.match.no_deals")));
  for (const deal of deals) {
    const item = el("li", "deal-item");
    item.dataset.deal = String(deal.id);
    const title = deal.contract ? contractLabel(match.game, deal.contract) : deal.contract_title || "";
    const what = title ? t("archive.deal_line", { n: deal.number, contract: title }) : t("archive.deal_n", { n: deal.number });
    const head = el("div", "deal-head");
    if (deal.replay_available) {
      const link = /** @type {HTMLAnchorElement} */ (el("a", "deal-link", what));
      link.href = `/archive/deals/${encodeURIComponent(deal.id)}`;
      head.append(link);
    } else {
      head.append(el("span", "deal-link disabled", what));
      head.append(el("span", "tag", t(deal.status === "running" ? "archive.deal_running" : "archive.no_replay")));
    }
    if (deal.declarer) head.append(el("span", "meta", t("archive.declarer", { player: deal.declarer })));
    item.append(head);
    item.append(...standinLines(deal.stood_in));
    if (deal.ledger && Array.isArray(deal.ledger.entries)) {
      item.append(el("div", "deal-settlement", ledgerLine(deal.ledger, sheetInfo)));
      const more = el("details", "deal-ledger");
      more.append(el("summary", "", t("archive.deal_how")));
      more.append(markLedgerRows(ledgerTable(deal.ledger, ledgerColumns(deal.ledger, sheetInfo)), computersOnPage()));
      item.append(more);
    } else if (deal.settlement) {
      // a deal stored before the ledger: its points as stored
      const line = Object.entries(deal.settlement)
        .map(([player, points]) => `${player} ${signed(/** @type {number} */ (points))}`)
        .join(" · ");
      item.append(el("div", "deal-settlement", line));
    }
    target.append(item);
  }
}

async function start() {
  const id = root.dataset.match || "";
  const status = $("match-status");
  let data;
  try {
    data = await api("GET", `/api/history/matches/${encodeURIComponent(id)}`);
  } catch (error) {
    status.className = "form-error";
    status.setAttribute("role", "alert");
    status.textContent = error instanceof ApiError ? error.message : t("error.unknown");
    return;
  }
  status.hidden = true;
  const match = data.match;
  $("match-title").textContent = match.room_name;
  document.title = `${match.room_name} · ${match.game_title || match.game} – Stammtisch`;
  const when = formatDate(match.started_at);
  const state = t(`archive.status.${["running", "ended"].includes(match.status) ? match.status : "finished"}`);
  $("match-meta").textContent = `${match.game_title || match.game} · ${when} · ${state} · ${(match.players || [])
    .map((/** @type {any} */ p) => p.name)
    .join(", ")}`;
  const computers = computersLine(match.players || []);
  const summary = standinSummary(data.deals || []);
  const meta = $("match-meta");
  if (summary) meta.after(summary);
  if (computers) {
    const line = el("p", "meta");
    line.append(computers);
    meta.after(line);
  }
  // the final settlement is the match's (also of a match ended early)
  const sheet = data.sheet ? { ...data.sheet, settlement: data.settlement || data.sheet.settlement || null } : null;
  // the game's module reads what only its sheet carries (it draws without it too)
  const game = await loadGame(match.game).catch(() => null);
  renderSheet($("sheet"), sheet, game, computersOnPage());
  renderChart($("chart"), data.series, { title: t("archive.chart.title_match", { room: match.room_name }) });
  const pots = data.pots || [];
  $("pots-panel").hidden = !pots.length;
  const settled = sheet && sheet.settlement ? sheet.settlement.pots || {} : null;
  const held = settled
    ? Object.fromEntries(Object.entries(settled).map(([pot, state]) => [pot, /** @type {any} */ (state).held || 0]))
    : (sheet && sheet.pot_balances) || {};
  if (pots.length) renderPots($("pots"), pots, held);
  const info = embeddedInfo();
  renderDeals($("deal-list"), match, data.deals || [], info && info.name === match.game ? info.sheet : null);
  const chat = data.chat || [];
  $("chat-panel").hidden = !chat.length;
  renderChat($("match-chat"), chat);
}

/**
 * The table's chat of a match, as plain text: time, name, line.
 * @param {HTMLElement} target
 * @param {any[]} lines
 */
function renderChat(target, lines) {
  target.replaceChildren(
    ...lines.map((/** @type {any} */ line) => {
      const item = el("li", "chat-line");
      const at = new Date(line.at);
      const time = el("time", "meta", at.toLocaleTimeString(document.documentElement.lang || "de", { hour: "2-digit", minute: "2-digit" }));
      time.setAttribute("datetime", line.at);
      item.append(time, " ", el("strong", "", line.name), ": ", line.text);
      return item;
    }),
  );
}

start();
