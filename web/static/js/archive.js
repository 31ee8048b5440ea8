/**
 * The match archive (/archive): my past and running matches, newest first, with the
 * players and their totals and money as the match's ledger has them (the API's `totals`
 * and `money_cents`, never summed here); filters by game and by fellow player (kept in the URL's query
 * so that a filtered list can be bookmarked). Also the small helpers the other archive
 * pages share (dates, totals).
 */

import { ApiError, api } from "./api.js";
import { el } from "./forms.js";
import { lang, t } from "./i18n.js";
import { signedMoney } from "./ledger.js";

/**
 * A date and time in the page's language ("12.03.2025, 20:15").
 * @param {string | null} iso
 * @returns {string}
 */
export function formatDate(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(date);
}

/**
 * "Anna 12 · Bernd −4 · Catrin −8": the totals in the players' order.
 * @param {{name: string}[]} players
 * @param {Record<string, number>} totals
 * @returns {string}
 */
export function totalsText(players, totals) {
  return players
    .map((p) => {
      const value = totals && Object.prototype.hasOwnProperty.call(totals, p.name) ? totals[p.name] : null;
      return value === null ? p.name : `${p.name} ${value < 0 ? "−" + -value : value}`;
    })
    .join(" · ");
}

/**
 * "Anna +1,20 € · Bernd −0,40 € · …": each player's money in the players' order, or ""
 * when the match moved none.
 * @param {{name: string}[]} players
 * @param {Record<string, number> | null | undefined} money cents per player
 * @returns {string}
 */
export function moneyText(players, money) {
  if (!money || !players.some((p) => money[p.name])) return "";
  return players.map((p) => `${p.name} ${signedMoney(money[p.name] || 0)}`).join(" · ");
}

/**
 * One match as a list item with a link to its sheet page.
 * @param {any} match an entry of GET /api/history/matches
 * @returns {HTMLElement}
 */
export function matchItem(match) {
  const item = el("li", "match-item");
  item.dataset.match = String(match.id);
  const link = /** @type {HTMLAnchorElement} */ (el("a", "match-link"));
  link.href = `/archive/matches/${encodeURIComponent(match.id)}`;
  const head = el("span", "match-head");
  head.append(el("span", "match-room", match.room_name), el("span", "match-game", match.game_title || match.game));
  const state = el("span", `match-state state-${match.status}`, t(`archive.status.${["running", "ended"].includes(match.status) ? match.status : "finished"}`));
  head.append(state);
  link.append(head);
  link.append(el("span", "meta", formatDate(match.started_at) + " · " + t("archive.deals_count", { n: match.deals_finished })));
  link.append(el("span", "match-totals", totalsText(match.players || [], match.totals || {})));
  const money = moneyText(match.players || [], match.money_cents);
  if (money) link.append(el("span", "match-money", money));
  item.append(link);
  return item;
}

async function startList() {
  const list = document.getElementById("match-list");
  const status = document.getElementById("archive-status");
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("archive-filters"));
  if (!list || !status || !form) return;
  const gameSelect = /** @type {HTMLSelectElement} */ (form.elements.namedItem("game"));
  const withSelect = /** @type {HTMLSelectElement} */ (form.elements.namedItem("with"));
  const query = new URLSearchParams(location.search);
  gameSelect.value = query.get("game") || "";
  let fellowsKnown = false;

  const load = async () => {
    const params = new URLSearchParams();
    if (gameSelect.value) params.set("game", gameSelect.value);
    const fellow = fellowsKnown ? withSelect.value : query.get("with") || "";
    if (fellow) params.set("with", fellow);
    const search = params.toString();
    history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
    status.hidden = false;
    status.className = "hint";
    status.textContent = t("archive.loading");
    let data;
    try {
      data = await api("GET", "/api/history/matches" + (search ? "?" + search : ""));
    } catch (error) {
      status.className = "form-error";
      status.textContent = error instanceof ApiError ? error.message : t("error.unknown");
      return;
    }
    if (!fellowsKnown) {
      for (const person of data.fellows || []) {
        const option = /** @type {HTMLOptionElement} */ (el("option", "", person.name));
        option.value = String(person.user_id);
        withSelect.append(option);
      }
      withSelect.value = fellow;
      fellowsKnown = true;
    }
    const matches = data.matches || [];
    list.replaceChildren(...matches.map(matchItem));
    status.textContent = matches.length
      ? t("archive.count", { n: matches.length })
      : t(search ? "archive.none_filtered" : "archive.none");
  };
  gameSelect.addEventListener("change", load);
  withSelect.addEventListener("change", load);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load();
  });
  await load();
}

startList();
