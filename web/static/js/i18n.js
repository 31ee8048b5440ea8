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
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : key;
  return text.replace(/%\((\w+)\)s/g, (_match, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : "",
  );
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
