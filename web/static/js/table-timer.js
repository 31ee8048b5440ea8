/**
 * The turn timer on screen (docs/protocol.md, issue 13 §1): the server sends the seconds
 * left at sending (`turn.ends_in`), so no clock needs to agree with the server's; the page
 * counts down from the moment it received the message. The countdown has `role="timer"`
 * and turns into a warning (colour *and* a sign) in the last seconds.
 *
 * A correspondence table (Fernpartie) sends the turn's `deadline` (ISO 8601, UTC) instead
 * of `ends_in`: it is shown as "Zug bis Sa., 28.11., 14:05 · noch 21 Std." in the viewer's
 * local time (deadline.js), and the time left is refreshed with the countdowns.
 */

import { dueText, leftText } from "./deadline.js";
import { t } from "./i18n.js";

/** Seconds left at which the countdown warns. */
export const WARN_SECONDS = 10;

/**
 * A countdown that ends `seconds` after now (null: no timer).
 * @param {number | null | undefined} seconds
 * @returns {number | null} the end, in `performance.now()` milliseconds
 */
export function deadline(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  return performance.now() + Math.max(0, seconds) * 1000;
}

/**
 * Whole seconds left until `end` (never below zero).
 * @param {number} end
 * @returns {number}
 */
export function secondsLeft(end) {
  return Math.max(0, Math.ceil((end - performance.now()) / 1000));
}

/**
 * "0:42" for 42 seconds, "1:05" for 65.
 * @param {number} seconds
 * @returns {string}
 */
export function clock(seconds) {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

/**
 * A countdown element (`role="timer"`) for `end`; `label` gives its accessible name.
 * @param {number} end
 * @param {(left: string) => string} label
 * @returns {HTMLElement}
 */
export function countdownElement(end, label) {
  const node = document.createElement("span");
  node.className = "countdown";
  node.setAttribute("role", "timer");
  node.dataset.end = String(end);
  node.dataset.label = "";
  update(node, label);
  labels.set(node, label);
  return node;
}

/** @type {WeakMap<HTMLElement, (left: string) => string>} */
const labels = new WeakMap();

/**
 * @param {HTMLElement} node
 * @param {(left: string) => string} label
 */
function update(node, label) {
  const left = secondsLeft(Number(node.dataset.end));
  const text = clock(left);
  if (node.textContent !== text) node.textContent = text;
  node.setAttribute("aria-label", label(text));
  node.classList.toggle("warning", left <= WARN_SECONDS);
}

/**
 * The words of a correspondence deadline at `now`: "Zug bis Sa., 28.11., 14:05" and
 * "noch 21 Std.".
 * @param {string} iso the deadline, ISO 8601
 * @param {number} [now] milliseconds (default: the device's clock)
 * @returns {{when: string, due: string, left: string, over: boolean}}
 */
export function dueWords(iso, now = Date.now()) {
  const end = Date.parse(iso);
  const when = dueText(new Date(end));
  return { when, due: t("turns.table_due", { when }), left: leftText(end - now), over: end <= now };
}

/** The date and time of each deadline element, formatted once (only the time left changes).
 * @type {WeakMap<HTMLElement, {end: number, when: string, due: string}>} */
const dueTimes = new WeakMap();

/** @type {WeakMap<HTMLElement, (when: string, left: string) => string>} */
const dueLabels = new WeakMap();

/**
 * A correspondence deadline element for `iso` ("Zug bis … · noch …", with the accessible
 * name `label(when, left)`); refreshed by `tick()`, it warns once the time is up.
 * @param {string} iso
 * @param {(when: string, left: string) => string} label
 * @returns {HTMLElement}
 */
export function dueElement(iso, label) {
  const node = document.createElement("span");
  node.className = "countdown due";
  node.dataset.due = iso;
  const { when, due } = dueWords(iso);
  dueTimes.set(node, { end: Date.parse(iso), when, due });
  dueLabels.set(node, label);
  updateDue(node);
  return node;
}

/** @param {HTMLElement} node */
function updateDue(node) {
  const label = dueLabels.get(node);
  const times = dueTimes.get(node);
  if (!label || !times) return;
  const ms = times.end - Date.now();
  const left = leftText(ms);
  const text = `${times.due} · ${left}`;
  if (node.textContent === text) return;
  node.textContent = text;
  node.setAttribute("aria-label", label(times.when, left));
  node.classList.toggle("warning", !(ms > 0));
}

/** Refresh every countdown on the page (called a few times a second); one inside an
 * element marked `lost` (the table lost its connection) stands still. */
export function tick() {
  document.querySelectorAll(".countdown[data-due]").forEach((node) => {
    if (!node.closest(".lost")) updateDue(/** @type {HTMLElement} */ (node));
  });
  document.querySelectorAll(".countdown[data-end]").forEach((node) => {
    if (node.closest(".lost")) return;
    const label = labels.get(/** @type {HTMLElement} */ (node));
    if (label) update(/** @type {HTMLElement} */ (node), label);
  });
}

let started = false;

/** Start refreshing the countdowns (once per page). */
export function startTicking() {
  if (started) return;
  started = true;
  window.setInterval(tick, 250);
}
