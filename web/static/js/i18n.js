/**
 * UI text for the browser client: the page embeds its language's catalogue (the same
 * gettext catalogues the server renders with, web/locale/<lang>/*.po) as JSON in
 * <script id="i18n">. Placeholders are Python's named format: "%(name)s".
 */

const element = document.getElementById("i18n");
const messages = element ? JSON.parse(element.textContent || "{}") : {};

/** The page's language, "de" or "en". */
export const lang = document.documentElement.lang === "en" ? "en" : "de";

/**
 * The text of `key` with `params` filled in; the key itself when it is missing.
 *
 * A count `n` of exactly 1 takes the singular `<key>.one` where the catalogue has it
 * ("1 Stich", not "1 Stiche"). Negative numbers are written with the minus sign (−32),
 * as the sheets write them.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const chosen = params.n === 1 && has(`${key}.one`) ? `${key}.one` : key;
  const text = has(chosen) ? messages[chosen] : key;
  return text.replace(/%\((\w+)\)s/g, (_match, name) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return "";
    const value = params[name];
    return typeof value === "number" && value < 0 ? `−${-value}` : String(value);
  });
}

/**
 * Whether the catalogue has `key` (for optional texts such as per-action labels).
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

/**
 * The key of a text a game may word its own way: `<area>.<game>.<rest>` where the
 * catalogue has it (the game's own catalogue, `game-<game>.po`), else the shared
 * `<area>.<rest>`; null when neither exists. So two games can name the same phase
 * differently ("Armut: schieben" for one game's `push`) while the others share one word.
 * @param {string} area the key's beginning ("archive.phase", "table.turn.you")
 * @param {string | null | undefined} game the game's name ("" or none: the shared key only)
 * @param {string} rest the key's end (a phase's code)
 * @returns {string | null}
 */
export function gameKey(area, game, rest) {
  const own = `${area}.${game}.${rest}`;
  if (game && has(own)) return own;
  const shared = `${area}.${rest}`;
  return has(shared) ? shared : null;
}

/**
 * A phase's name ("Reizen", "Stichspiel"): the game's own `archive.phase.<game>.<phase>`,
 * else the shared `archive.phase.<phase>`, else the engine's word.
 * @param {string | null | undefined} game
 * @param {string} phase
 * @returns {string}
 */
export function phaseName(game, phase) {
  const key = gameKey("archive.phase", game, phase);
  return key ? t(key) : phase;
}

/**
 * The message of an error answer in the page's language.
 * @param {{message?: string, message_de?: string, code?: string}} error
 * @returns {string}
 */
export function errorText(error) {
  const text = lang === "de" ? error.message_de || error.message : error.message;
  return text || error.code || t("error.unknown");
}

/**
 * Money in the page's language: cents → "1,50 €" / "€1.50".
 * @param {number} cents
 * @returns {string}
 */
export function money(cents) {
  return new Intl.NumberFormat(lang === "de" ? "de-DE" : "en-GB", {
    style: "currency",
    currency: "EUR",
  }).format(cents / 100);
}
