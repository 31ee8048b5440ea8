/**
 * A correspondence deadline in words: when ("Fr., 28.11., 14:05" / "Fri 28 Nov, 14:05",
 * in the viewer's local time) and how much is left ("noch 21 Std." / "21 h left"). Used
 * by the start page's "Du bist dran" list and the table. Pure: every function takes the
 * moment to compare with, and the language and time zone may be given (the tests do).
 */

import { lang as pageLang, t } from "./i18n.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The deadline as a date and time: "Fr., 28.11., 14:05" (German), "Fri 28 Nov, 14:05"
 * (English), in `timeZone` (default: the device's).
 * @param {Date} when
 * @param {string} [lang] "de" or "en"
 * @param {string} [timeZone] an IANA time zone ("Europe/Berlin")
 * @returns {string}
 */
export function dueText(when, lang = pageLang, timeZone = undefined) {
  const locale = lang === "en" ? "en-GB" : "de-DE";
  /** @type {Record<string, string>} */
  const part = {};
  const format = new Intl.DateTimeFormat(locale, {
    weekday: "short",
    day: lang === "en" ? "numeric" : "2-digit",
    month: lang === "en" ? "short" : "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  });
  for (const { type, value } of format.formatToParts(when)) part[type] = value;
  const time = `${part.hour}:${part.minute}`;
  if (lang === "en") return `${part.weekday} ${part.day} ${part.month}, ${time}`;
  const weekday = part.weekday.endsWith(".") ? part.weekday : `${part.weekday}.`;
  return `${weekday}, ${part.day}.${part.month}., ${time}`;
}

/**
 * A day: "Mo., 01.12." (German), "Mon 1 Dec" (English), in `timeZone` (default: the
 * device's).
 * @param {Date} when
 * @param {string} [lang] "de" or "en"
 * @param {string} [timeZone]
 * @returns {string}
 */
export function dayText(when, lang = pageLang, timeZone = undefined) {
  /** @type {Record<string, string>} */
  const part = {};
  const format = new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "de-DE", {
    weekday: "short",
    day: lang === "en" ? "numeric" : "2-digit",
    month: lang === "en" ? "short" : "2-digit",
    timeZone,
  });
  for (const { type, value } of format.formatToParts(when)) part[type] = value;
  if (lang === "en") return `${part.weekday} ${part.day} ${part.month}`;
  const weekday = part.weekday.endsWith(".") ? part.weekday : `${part.weekday}.`;
  return `${weekday}, ${part.day}.${part.month}.`;
}

/**
 * How much time is left, `ms` milliseconds, in words: minutes below an hour (rounded up),
 * hours below two days, else whole days; "Zeit abgelaufen" at or after the deadline.
 * @param {number} ms
 * @returns {string}
 */
export function leftText(ms) {
  if (!(ms > 0)) return t("turns.left_over");
  if (ms < HOUR) return t("turns.left_minutes", { n: Math.max(1, Math.ceil(ms / MINUTE)) });
  if (ms < 2 * DAY) return t("turns.left_hours", { n: Math.floor(ms / HOUR) });
  return t("turns.left_days", { n: Math.floor(ms / DAY) });
}

/**
 * The start page's line for a waiting table: "bis Fr., 28.11., 14:05 · noch 21 Std.", or
 * "jetzt (live)" for a live table (no deadline).
 * @param {string | null} deadline ISO 8601
 * @param {number} now the current time in milliseconds (the server's, where known)
 * @param {string} [lang]
 * @param {string} [timeZone]
 * @returns {string}
 */
export function dueLine(deadline, now, lang = pageLang, timeZone = undefined) {
  if (!deadline) return t("turns.live");
  const when = new Date(deadline);
  return `${t("turns.until", { when: dueText(when, lang, timeZone) })} · ${leftText(when.getTime() - now)}`;
}

/**
 * The difference between the server's clock and the device's, in milliseconds, from an
 * answer's `now` (ISO 8601); 0 when there is none.
 * @param {string | null | undefined} serverNow
 * @param {number} [deviceNow]
 * @returns {number}
 */
export function clockSkew(serverNow, deviceNow = Date.now()) {
  const server = serverNow ? Date.parse(serverNow) : NaN;
  return Number.isFinite(server) ? server - deviceNow : 0;
}
