/**
 * Small helpers shared by the page modules: forms that call the API and show refusals
 * next to themselves, the safe `?next=` target, and building DOM without innerHTML.
 */

import { ApiError, showError } from "./api.js";
import { t } from "./i18n.js";

/**
 * Run `action(values)` when `form` is submitted: the submit button is disabled meanwhile
 * and a refusal is shown in the form's `.form-error` box (never an alert).
 * @param {HTMLFormElement} form
 * @param {(values: Record<string, string>, form: HTMLFormElement) => Promise<void>} action
 */
export function onSubmit(form, action) {
  const box = /** @type {HTMLElement} */ (form.querySelector(".form-error"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((button) => (button.disabled = true));
    if (box) showError(box, "");
    /** @type {Record<string, string>} */
    const values = {};
    new FormData(form).forEach((value, key) => (values[key] = String(value)));
    try {
      await action(values, form);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : t("error.unknown");
      if (box) showError(box, message);
      buttons.forEach((button) => (button.disabled = false));
      if (!(error instanceof ApiError)) console.error(error);
      return;
    }
    buttons.forEach((button) => (button.disabled = false));
  });
}

/** A backslash, white space or an invisible or control character: browsers drop tabs and
 * newlines from URLs and read `\` as `/`, so `/\t/evil` would lead to `//evil`. */
const UNSAFE_CHAR = /[\p{Cc}\p{Cf}\p{Z}\s\\]/u;
/** A `%` that does not start an escape. */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/**
 * `raw` (a `?next=` value) as a path on `origin`, or null when it is not plainly one:
 * `raw` and each of its percent-decoded forms must start with `/`, have no empty path
 * segment (`//`, also not after a dot segment: `/.//evil` resolves to `//evil`) and hold
 * no white space, control character or backslash (`/\evil`); resolved against `origin`
 * it must stay there, on a path that does not start with `//`. The server applies the
 * same rules (server/api/security.py, resolve_next).
 * @param {string | null | undefined} raw
 * @param {string} [origin]
 * @returns {string | null}
 */
export function safeNext(raw, origin = location.origin) {
  if (typeof raw !== "string" || !raw || raw.length > 2048) return null;
  const forms = [raw];
  let text = raw;
  for (let round = 0; ; round++) {
    if (round === 4 || BAD_ESCAPE.test(text)) return null;
    let decoded;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return null;
    }
    if (decoded === text) break;
    forms.push(decoded);
    text = decoded;
  }
  /** @param {string} form */
  const bad = (form) =>
    !form.startsWith("/") || form.split(/[?#]/, 1)[0].includes("//") || UNSAFE_CHAR.test(form);
  if (forms.some(bad)) return null;
  let url;
  try {
    url = new URL(raw, origin + "/");
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname.startsWith("//") || url.pathname.startsWith("/\\")) {
    return null;
  }
  return url.pathname + url.search + url.hash;
}

/**
 * The page to go to after logging in: `?next=` when it is a path on this server (see
 * `safeNext`), else null.
 * @returns {string | null}
 */
export function nextPath() {
  return safeNext(new URLSearchParams(location.search).get("next"));
}

/**
 * A new element with a class and text (text is always set as textContent).
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The data a page embeds as JSON in `<script type="application/json" id=...>`.
 * @param {string} id
 * @returns {any}
 */
export function pageData(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent || "null") : null;
}

/**
 * A stake in euros as people type it, with a comma or a point: digits, then
 * one or two decimals ("0,20", "0.2", "5", ",50"), optionally with the euro sign. The
 * server reads the same (server/api/rooms.py, parse_stake).
 */
export const STAKE_PATTERN = "\\s*€?\\s*[0-9]{0,6}(?:[.,][0-9]{1,2})?\\s*€?\\s*";
const STAKE = new RegExp(`^\\s*€?\\s*([0-9]{0,6})(?:[.,]([0-9]{1,2}))?\\s*€?\\s*$`);

/**
 * The cents of a stake typed in euros, or null when it is not plainly an amount: "0,20"
 * and "0.20" are both 20; "0,205", "1.000" (a thousands point?), "1,2,3", "-1" and
 * letters are refused rather than guessed.
 * @param {string} text
 * @returns {number | null}
 */
export function parseStake(text) {
  const found = STAKE.exec(String(text));
  if (!found || !(found[1] || found[2])) return null;
  return Number(found[1] || "0") * 100 + Number((found[2] || "0").padEnd(2, "0"));
}
