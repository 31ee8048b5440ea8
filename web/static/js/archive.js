/**
 * The match archive (/archive): my past and running matches, newest first, with the
 * players and their totals and money as the match's ledger has them (the API's `totals`
 * and `money_cents`, never summed here); filters by game and by fellow player (kept in the URL's query
 * so that a filtered list can be bookmarked). Also the small helpers the other archive
 * pages share (dates, totals, the line naming a match's computer players).
 *
 * A computer player (negative `user_id`, `computer: {level}`) is named with the computer
 * mark (icon and words); in the fellow filter the computer players come in a group of their
 * own, each with its level and room (every room has its own "Computer 1").
 */

import { ApiError, api } from "./api.js";
import { el } from "./forms.js";
import { lang, t } from "./i18n.js";
import { signedMoney } from "./ledger.js";
import { computerMark, computerMarkText } from "./computer-mark.js";

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
 * "Computerspieler: Computer 1 [mark: Computer (stark)]": the computer players among
 * `players` (those with a `computer` field), or null when there are none.
 * @param {{name: string, computer?: {level: string | null} | null}[]} players
 * @returns {HTMLElement | null}
 */
export function computersLine(players) {
  const computers = players.filter((p) => p.computer);
  if (!computers.length) return null;
  const line = el("span", "match-computers", t("archive.computers"));
  for (const player of computers) {
    const who = el("span", "match-computer", player.name);
    who.dataset.player = player.name;
    who.append(" ", computerMark(/** @type {any} */ (player.computer).level));
    line.append(" ", who);
  }
  return line;
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
  const computers = computersLine(match.players || []);
  if (computers) link.append(computers);
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
      const fellows = data.fellows || [];
      const computers = el("optgroup");
      computers.setAttribute("label", t("archive.filter.computers"));
      for (const person of fellows) {
        const mark = person.computer;
        const text = mark
          ? t("archive.filter.computer_option", {
              name: person.name,
              mark: computerMarkText(mark.level),
              room: mark.room_name || "",
            })
          : person.name;
        const option = /** @type {HTMLOptionElement} */ (el("option", "", text));
        option.value = String(person.user_id);
        (mark ? computers : withSelect).append(option);
      }
      if (computers.children.length) withSelect.append(computers);
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
