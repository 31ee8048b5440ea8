/**
 * The player's own order of the hand: trumps left or right, strongest card first or last,
 * the suits in the pack's order or with their colours alternating. Kept with the account
 * per game (`GET`/`PUT /api/me/hand-sort/{game}`, docs/api.md, sent by hand-sort-control.js);
 * the table page embeds it. Pure functions: tests run them in node.
 *
 * Nothing here knows a game. Which cards are trumps and how a suit's cards rank come from
 * the seat's view (`hand_groups`, made by the game's engine for the contract being
 * played, docs/protocol.md); the colours of the suits come from the game's module
 * (`suitColours`; without them the suits keep the pack's order and the choice is not
 * offered).
 */

/**
 * @typedef {object} HandSort
 * @property {"left" | "right"} trumps where the trumps go
 * @property {"desc" | "asc"} order strongest card first in every group, or last
 * @property {"pack" | "alternate"} suits the suits in the pack's order, or colours alternating
 */

/** @type {HandSort} */
export const DEFAULT_SORT = { trumps: "left", order: "desc", suits: "pack" };

/** The words of each choice, the default first (as the server checks them). */
export const CHOICES = /** @type {const} */ ({
  trumps: ["left", "right"],
  order: ["desc", "asc"],
  suits: ["pack", "alternate"],
});

/**
 * A hand sort from untrusted JSON (the page's embedded value): every choice that is not
 * one of its words is the default.
 * @param {any} value
 * @returns {HandSort}
 */
export function readSort(value) {
  const sort = /** @type {any} */ ({ ...DEFAULT_SORT });
  if (value && typeof value === "object") {
    for (const [name, words] of Object.entries(CHOICES)) {
      if (words.includes(value[name])) sort[name] = value[name];
    }
  }
  return sort;
}

/**
 * The plain suits in an order whose colours alternate where they can: each next suit is
 * the first (in the pack's order) of another colour than the one before.
 * @param {string[]} suits the plain suits held, in the pack's order
 * @param {Record<string, string>} colours
 * @returns {string[]}
 */
export function alternate(suits, colours) {
  const rest = [...suits];
  const out = [];
  while (rest.length) {
    const last = out.length ? colours[out[out.length - 1]] : undefined;
    let i = rest.findIndex((suit) => colours[suit] !== last);
    if (i < 0) i = 0;
    out.push(...rest.splice(i, 1));
  }
  return out;
}

/**
 * The seat's hand in the player's order. `view.hand_groups` lists the trumps (group
 * `"trump"`) and each plain suit in the pack's order, every group strongest first; a view
 * without them (or not matching the hand) keeps the server's order.
 * @param {any} view the seat's view
 * @param {HandSort} sort
 * @param {Record<string, string> | undefined} colours the suits' colours (the game's module)
 * @returns {string[]}
 */
export function sortedHand(view, sort, colours) {
  const hand = view && Array.isArray(view.hand) ? view.hand : [];
  const groups = view && Array.isArray(view.hand_groups) ? view.hand_groups : null;
  if (!groups) return [...hand];
  /** @type {string[][]} */
  const trumps = [];
  /** @type {Map<string, string[]>} */
  const plain = new Map();
  for (const group of groups) {
    const cards = sort.order === "asc" ? [...group.cards].reverse() : [...group.cards];
    if (group.group === "trump") trumps.push(cards);
    else plain.set(group.group, cards);
  }
  let suits = [...plain.keys()];
  if (sort.suits === "alternate" && colours) suits = alternate(suits, colours);
  const suitCards = suits.flatMap((suit) => /** @type {string[]} */ (plain.get(suit)));
  const out = sort.trumps === "right" ? [...suitCards, ...trumps.flat()] : [...trumps.flat(), ...suitCards];
  const same = out.length === hand.length && [...out].sort().join() === [...hand].sort().join();
  return same ? out : [...hand];
}
