/**
 * A match's page in the archive (/archive/matches/{id}): the score sheet in the group's
 * own style (renderSheet of the table, so that both read the same), the chart of the
 * running totals, the pots, every deal with a link to its replay, and the downloads.
 */

import { ApiError, api } from "./api.js";
import { formatDate } from "./archive.js";
import { renderChart } from "./chart.js";
import { el } from "./forms.js";
import { contractLabel } from "./game-info.js";
import { has, money, t } from "./i18n.js";
import { amountOf, amountText, potName, reasonText, renderSheet, signed } from "./table-sheet.js";

const root = /** @type {HTMLElement} */ (document.getElementById("match-page"));
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The pots of a match (Depot, Pagatkasse…) as a table: pot, player, amount, reason.
 * @param {HTMLElement} target
 * @param {any[]} pots
 */
export function renderPots(target, pots) {
  target.replaceChildren();
  const table = el("table", "sheet-table pots-table");
  const head = el("tr");
  head.append(
    el("th", "", t("archive.pots.pot")),
    el("th", "", t("archive.pots.player")),
    el("th", "num", t("archive.pots.amount")),
    el("th", "", t("archive.pots.reason")),
  );
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  /** @type {Map<string, {pot: string, unit: string, amount: number}>} */
  const sums = new Map();
  for (const pot of pots) {
    const { unit, amount } = amountOf(pot);
    const tr = el("tr");
    const deal = pot.deal_number ? " · " + t("archive.deal_n", { n: pot.deal_number }) : "";
    tr.append(
      el("td", "", potName(pot.pot)),
      el("td", "", pot.player),
      el("td", "num", amountText(unit, amount)),
      el("td", "", reasonText(pot) + deal),
    );
    body.append(tr);
    const sum = sums.get(`${pot.pot} ${unit}`) || { pot: pot.pot, unit, amount: 0 };
    sum.amount += amount;
    sums.set(`${pot.pot} ${unit}`, sum);
  }
  table.append(thead, body);
  const wrap = el("div", "sheet-scroll");
  // It may scroll sideways on a phone: reachable and named for the keyboard.
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("table.sheet"));
  wrap.append(table);
  target.append(wrap);
  const totals = el("ul", "pot-sums");
  for (const sum of sums.values()) {
    totals.append(el("li", "", t("archive.pots.sum", { pot: potName(sum.pot), amount: amountText(sum.unit, sum.amount) })));
  }
  target.append(totals);
}

/**
 * The deals of a match with contract, declarer, settlement and a link to the replay.
 * @param {HTMLElement} target
 * @param {any} match
 * @param {any[]} deals
 */
export function renderDeals(target, match, deals) {
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
    if (deal.settlement) {
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
  renderSheet($("sheet"), data.sheet);
  renderChart($("chart"), data.series, { title: t("archive.chart.title_match", { room: match.room_name }) });
  const pots = data.pots || [];
  $("pots-panel").hidden = !pots.length;
  if (pots.length) renderPots($("pots"), pots);
  renderDeals($("deal-list"), match, data.deals || []);
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
