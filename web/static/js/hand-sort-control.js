/**
 * The hand sort at the table: "Sortieren" (`#open-hand-sort`) opens three choices above the
 * hand (`#hand-sort`), each a pair of buttons with the one in force pressed. One tap on a
 * choice re-sorts the hand at once and keeps it with the account (hand-sort.js); a
 * refusal or a lost connection puts the choice back and says why.
 */

import { api } from "./api.js";
import { readSort } from "./hand-sort.js";

/**
 * @typedef {import("./hand-sort.js").HandSort} HandSort
 */

/**
 * Read the page's embedded sort, show it and follow the player's taps.
 * @param {object} options
 * @param {HTMLElement} options.root the table (its `data-hand-sort` is the stored sort)
 * @param {string} options.game the game's name
 * @param {Record<string, string> | undefined} options.colours the suits' colours (the game's
 *   module); without them the choice of the suits' order is not offered
 * @param {() => void} options.onChange re-sort the hand
 * @param {(message: string) => void} options.onError say that the choice was not kept
 * @returns {{current: () => HandSort}}
 */
export function setUpHandSort({ root, game, colours, onChange, onError }) {
  let stored = null;
  try {
    stored = JSON.parse(root.dataset.handSort || "null");
  } catch {
    stored = null;
  }
  let sort = readSort(stored);
  const box = /** @type {HTMLElement} */ (document.getElementById("hand-sort"));
  const opener = /** @type {HTMLElement} */ (document.getElementById("open-hand-sort"));
  const suits = /** @type {HTMLElement | null} */ (box.querySelector('.hand-sort-choice[data-choice="suits"]'));
  if (suits) suits.hidden = !colours;

  const show = () => {
    for (const node of box.querySelectorAll("button[data-word]")) {
      const button = /** @type {HTMLElement} */ (node);
      const pressed = /** @type {any} */ (sort)[button.dataset.choice || ""] === button.dataset.word;
      button.setAttribute("aria-pressed", String(pressed));
    }
  };
  const toggle = (/** @type {boolean} */ open) => {
    box.hidden = !open;
    opener.setAttribute("aria-expanded", String(open));
  };

  opener.addEventListener("click", () => toggle(box.hidden));
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      toggle(false);
      opener.focus();
    }
  });
  box.addEventListener("click", async (event) => {
    const button = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest("button[data-word]"));
    if (!button || !button.dataset.choice || !button.dataset.word) return;
    if (/** @type {any} */ (sort)[button.dataset.choice] === button.dataset.word) return;
    const before = sort;
    const tried = /** @type {HandSort} */ ({ ...sort, [button.dataset.choice]: button.dataset.word });
    sort = tried;
    show();
    onChange();
    try {
      await saveSort(game, tried);
      box.dataset.kept = `${tried.trumps} ${tried.order} ${tried.suits}`;
    } catch (error) {
      if (sort !== tried) return; // a later tap is on its way
      sort = before;
      show();
      onChange();
      onError(error instanceof Error ? error.message : String(error));
    }
  });
  show();
  return { current: () => sort };
}

/**
 * Keep a sort for the game on the server.
 * @param {string} game
 * @param {HandSort} sort
 * @returns {Promise<HandSort>} what the server kept (an `ApiError` if it refused)
 */
async function saveSort(game, sort) {
  const body = { trumps: sort.trumps, order: sort.order, suits: sort.suits };
  return readSort(await api("PUT", `/api/me/hand-sort/${encodeURIComponent(game)}`, body));
}
