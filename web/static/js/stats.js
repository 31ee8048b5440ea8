/**
 * Statistics of my circle (/archive/stats): per player the deals played, the declarer
 * games by contract and how many were won, the average card points (none: "–", for deals
 * without card points), the solos, the figures the games count besides, the points won in
 * all and per deal, and the money (the ledger's, `money_cents`); then head-to-head: who
 * placed ahead of whom at the end of the matches both played. From GET
 * /api/history/stats; nothing is summed here.
 *
 * The solos and a game's own figures (the answer's `figures`: `{key, label}`, each
 * player's value in `extra[key]`, named by the game's catalogue key `label`, such as the
 * owed solos of a game that counts them) are figures of some games only: a row is shown
 * only when the data has it for somebody of the circle (not null, not 0 for everyone), so
 * a game without solos or without figures of its own shows no such rows.
 *
 * Computer players are never in the circle (the server leaves them out). The deals a
 * stand-in moved in for a person are left out of his figures unless "Mit Vertretungen" is
 * ticked (`with_standins=1`, kept in the URL); a card says how many there were and whether
 * they are counted.
 */

import { ApiError, api } from "./api.js";
import { el } from "./forms.js";
import { has, lang, t } from "./i18n.js";
import { contractLabel } from "./table-games.js";
import { signedMoney } from "./ledger.js";
import { signed } from "./table-sheet.js";

/**
 * A number with one decimal in the page's language ("12,5"), or "–" for none.
 * @param {number | null | undefined} value
 * @returns {string}
 */
export function decimal(value) {
  if (value === null || value === undefined) return "–";
  const text = new Intl.NumberFormat(lang === "de" ? "de-DE" : "en-GB", { maximumFractionDigits: 1 }).format(value);
  return text.replace("-", "−");
}

/**
 * A contract's name; without a game filter, from whichever of `games` knows the contract.
 * @param {string} game
 * @param {string} contract
 * @param {string[]} [games] the games to look in (the page's game filter offers them)
 * @returns {string}
 */
export function contractName(game, contract, games = []) {
  if (game) return contractLabel(game, contract);
  const known = games.find((g) => has(`contract.${g}.${contract}`));
  return known ? contractLabel(known, contract) : contract;
}

/**
 * @typedef {object} Figure a figure of the statistics that some games have
 * @property {string} label its catalogue key
 * @property {(player: any) => unknown} value a player's value of it
 */

/**
 * The figures only some games have: the solos, then the games' own the answer declares
 * (`figures: [{key, label}]`, each player's value in `extra[key]`).
 * @param {{key: string, label: string}[]} [declared]
 * @returns {Figure[]}
 */
function optionalFigures(declared = []) {
  return [
    { label: "archive.stats.solos", value: (/** @type {any} */ p) => p.solos },
    ...declared.map(({ key, label }) => ({
      label,
      value: (/** @type {any} */ p) => (p.extra || {})[key],
    })),
  ];
}

/**
 * Which of the optional figures (the solos, the games' own) the circle's data has: a
 * figure the server leaves out (null) or that is 0 for everyone says nothing about
 * these games.
 * @param {any[]} players
 * @param {{key: string, label: string}[]} [declared] the answer's `figures`
 * @returns {Figure[]}
 */
export function figuresShown(players, declared = []) {
  return optionalFigures(declared).filter((figure) =>
    players.some((player) => {
      const value = figure.value(player);
      return typeof value === "number" && value !== 0;
    }),
  );
}

/**
 * One player's statistics as a card with a definition list.
 * @param {any} player
 * @param {string} game the game filter ("" for all games: contracts are shown bare)
 * @param {string[]} [games] every game of the filter (to name contracts without one)
 * @param {Figure[]} [figures] the optional figures to show (see `figuresShown`)
 * @param {boolean} [withStandins] whether the deals with a stand-in are counted
 * @returns {HTMLElement}
 */
export function playerCard(player, game, games = [], figures = figuresShown([player]), withStandins = false) {
  const card = el("section", "panel stats-card");
  card.dataset.user = String(player.user_id);
  card.append(el("h2", "", player.name));
  const list = el("dl", "facts");
  const row = (/** @type {string} */ label, /** @type {string} */ value) => {
    const div = el("div");
    div.append(el("dt", "", label), el("dd", "", value));
    list.append(div);
  };
  row(t("archive.stats.deals"), String(player.deals));
  row(t("archive.stats.points"), signed(player.points));
  row(t("archive.stats.points_per_deal"), decimal(player.points_per_deal));
  if (typeof player.money_cents === "number") row(t("archive.stats.money"), signedMoney(player.money_cents));
  row(t("archive.stats.card_points"), decimal(player.average_card_points));
  for (const figure of figures) row(t(figure.label), String(figure.value(player) ?? 0));
  if (player.standin_deals) {
    const key = withStandins ? "archive.stats.standin_counted" : "archive.stats.standin_left_out";
    row(t("archive.stats.standin_deals"), t(key, { n: player.standin_deals }));
  }
  card.append(list);
  const declared = Object.entries(player.declarer_games || {});
  card.append(el("h3", "", t("archive.stats.declarer_games")));
  if (!declared.length) card.append(el("p", "hint", t("archive.stats.no_declarer_games")));
  else {
    const ul = el("ul", "declarer-games");
    for (const [contract, counts] of declared) {
      const c = /** @type {any} */ (counts);
      const label = contractName(game, contract, games);
      ul.append(el("li", "", t("archive.stats.contract_line", { contract: label, played: c.played, won: c.won })));
    }
    card.append(ul);
  }
  return card;
}

async function start() {
  const box = /** @type {HTMLElement} */ (document.getElementById("stats-players"));
  const status = /** @type {HTMLElement} */ (document.getElementById("stats-status"));
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("stats-game"));
  const h2h = /** @type {HTMLElement} */ (document.getElementById("h2h"));
  const h2hSection = /** @type {HTMLElement} */ (document.getElementById("h2h-section"));
  const standins = /** @type {HTMLInputElement} */ (document.getElementById("stats-standins"));
  const query = new URLSearchParams(location.search);
  select.value = query.get("game") || "";
  standins.checked = ["1", "true"].includes(query.get("with_standins") || "");
  const games = [...select.options].map((option) => option.value).filter(Boolean);

  const load = async () => {
    const game = select.value;
    const params = new URLSearchParams();
    if (game) params.set("game", game);
    if (standins.checked) params.set("with_standins", "1");
    const search = params.toString() ? "?" + params.toString() : "";
    history.replaceState(null, "", location.pathname + search);
    status.hidden = false;
    status.className = "hint";
    status.textContent = t("archive.loading");
    let data;
    try {
      data = await api("GET", "/api/history/stats" + search);
    } catch (error) {
      status.className = "form-error";
      status.textContent = error instanceof ApiError ? error.message : t("error.unknown");
      return;
    }
    const players = data.players || [];
    status.textContent = players.length ? "" : t("archive.stats.none");
    status.hidden = Boolean(players.length);
    const figures = figuresShown(players, data.figures || []);
    box.replaceChildren(
      ...players.map((/** @type {any} */ p) => playerCard(p, game, games, figures, standins.checked)),
    );
    /** @type {Map<number, string>} */
    const names = new Map(players.map((/** @type {any} */ p) => [p.user_id, p.name]));
    const pairs = data.head_to_head || [];
    h2hSection.hidden = !pairs.length;
    h2h.replaceChildren(
      ...pairs.map((/** @type {any} */ pair) =>
        el(
          "li",
          "",
          t("archive.stats.h2h_line", {
            a: names.get(pair.a) || "?",
            b: names.get(pair.b) || "?",
            n: pair.matches,
            a_ahead: pair.a_ahead,
            b_ahead: pair.b_ahead,
          }),
        ),
      ),
    );
  };
  select.addEventListener("change", load);
  standins.addEventListener("change", load);
  await load();
}

start();
