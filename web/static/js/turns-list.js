/**
 * "Du bist dran" on the start page: every table, across the person's rooms, that waits for
 * his move (GET /api/turns), the most urgent first, each with its deadline ("bis Fr.,
 * 28.11., 14:05 · noch 21 Std.", or "jetzt (live)") and a link to the table. The section
 * is hidden while nothing waits. The tab's title counts the tables ("(2) Stammtisch …"),
 * and so does the installed app's badge where the browser has one (`setAppBadge`).
 * Re-read every 30 seconds while the tab is shown, and at once when it is shown again.
 */

import { api } from "./api.js";
import { clockSkew, dueLine } from "./deadline.js";
import { el } from "./forms.js";

export const REFRESH_MS = 30_000;

/**
 * @typedef {{room_id: number, room_name: string, game: string, game_title: string,
 *            match_id: number, seat: number, since: string, deadline: string | null,
 *            tempo_seconds: number | null, url: string}} WaitingTurn
 * @typedef {{count: number, turns: WaitingTurn[], now?: string}} Turns
 */

/**
 * The page title with the count in front: "(2) Stammtisch – Start"; the plain title for 0.
 * @param {string} base
 * @param {number} count
 * @returns {string}
 */
export function countedTitle(base, count) {
  return count > 0 ? `(${count}) ${base}` : base;
}

/**
 * Put `count` on the installed app's icon, or take it off (where the browser can).
 * @param {number} count
 */
function setBadge(count) {
  const nav = /** @type {any} */ (navigator);
  try {
    if (count > 0 && typeof nav.setAppBadge === "function") nav.setAppBadge(count).catch(() => {});
    else if (count === 0 && typeof nav.clearAppBadge === "function") nav.clearAppBadge().catch(() => {});
  } catch {
    // a browser that has the call but refuses it here: the title still counts
  }
}

/**
 * One entry of the list: the room's name (the link to the table), the game, the deadline.
 * @param {WaitingTurn} turn
 * @param {number} now the server's time in milliseconds
 * @returns {HTMLLIElement}
 */
function entry(turn, now) {
  const item = /** @type {HTMLLIElement} */ (el("li", "room-item your-turn turn-item"));
  item.dataset.match = String(turn.match_id);
  const link = /** @type {HTMLAnchorElement} */ (el("a", "room-link"));
  link.href = turn.url;
  const due = dueLine(turn.deadline, now);
  link.append(el("span", "room-name", turn.room_name));
  const meta = el("span", "meta", `${turn.game_title} · `);
  meta.append(el("span", `turn-due${turn.deadline ? "" : " live"}`, due));
  link.append(meta);
  item.append(link);
  return item;
}

/**
 * Show `turns` in the section (hidden when there are none), the count in the title and
 * on the app's badge.
 * @param {HTMLElement} section
 * @param {Turns} answer
 * @param {string} baseTitle
 */
export function showTurns(section, answer, baseTitle) {
  const list = /** @type {HTMLElement} */ (section.querySelector("#turn-list"));
  const count = /** @type {HTMLElement} */ (section.querySelector("#turns-count"));
  const now = Date.now() + clockSkew(answer.now);
  list.replaceChildren(...answer.turns.map((turn) => entry(turn, now)));
  count.textContent = String(answer.count);
  section.hidden = answer.count === 0;
  document.title = countedTitle(baseTitle, answer.count);
  setBadge(answer.count);
}

/**
 * Keep the section up to date: now, every 30 seconds while the tab is shown, and when it
 * is shown again.
 * @param {HTMLElement} section
 */
export function watchTurns(section) {
  const baseTitle = document.title;
  let reading = false;
  async function refresh() {
    if (reading) return;
    reading = true;
    try {
      showTurns(section, await api("GET", "/api/turns"), baseTitle);
    } catch {
      // a network hiccup or a restart: the next refresh tries again
    } finally {
      reading = false;
    }
  }
  refresh();
  window.setInterval(() => {
    if (!document.hidden) refresh();
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
}
