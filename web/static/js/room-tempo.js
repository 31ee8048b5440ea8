/**
 * The room form's Tempo: live (everybody at the table at once) or a correspondence match
 * (Fernpartie) with 12 hours, 1, 2, 3 or 7 days per move. Only a correspondence room asks
 * for the holiday days per year (0 to 60) and has no live turn timer. A live room sends
 * neither field, so the server's defaults hold (live, 14 holiday days).
 */

import { ApiError } from "./api.js";
import { t } from "./i18n.js";

export const MAX_HOLIDAY_DAYS = 60;

/**
 * Show the fields that belong to the chosen tempo: the holiday days for correspondence,
 * the live turn timer and the stand-in's offline delay for live play (a hidden timer or
 * holiday field is disabled, so it is not sent; at a correspondence table the stand-in
 * plays only at a deadline or when asked, so its delay does not matter there).
 * @param {HTMLFormElement} form
 */
export function showTempo(form) {
  const tempo = /** @type {HTMLSelectElement | null} */ (form.querySelector("#room-tempo"));
  if (!tempo) return;
  const correspondence = tempo.value !== "";
  const holidays = document.getElementById("holiday-days-field");
  const holidayInput = /** @type {HTMLInputElement | null} */ (form.querySelector("#room-holiday-days"));
  const timer = document.getElementById("timer-field");
  const timerSelect = /** @type {HTMLSelectElement | null} */ (form.querySelector("#room-timer"));
  if (holidays) holidays.hidden = !correspondence;
  if (holidayInput) holidayInput.disabled = !correspondence;
  if (timer) timer.hidden = correspondence;
  if (timerSelect) timerSelect.disabled = correspondence;
  const delay = document.getElementById("standin-delay-field");
  if (delay) delay.hidden = correspondence;
}

/**
 * Follow the Tempo select (and show the right fields now).
 * @param {HTMLFormElement} form
 */
export function watchTempo(form) {
  const tempo = form.querySelector("#room-tempo");
  if (!tempo) return;
  tempo.addEventListener("change", () => showTempo(form));
  showTempo(form);
}

/**
 * The body's tempo fields from the form's `values`: none for a live room; else
 * `tempo_seconds` and `holiday_days` (a whole number 0–60, or a refusal to show).
 * @param {Record<string, string>} values
 * @returns {{tempo_seconds?: number, holiday_days?: number}}
 */
export function tempoFields(values) {
  if (!values.tempo) return {};
  const days = Number(values.holiday_days);
  if (values.holiday_days === "" || !Number.isInteger(days) || days < 0 || days > MAX_HOLIDAY_DAYS) {
    throw new ApiError("bad_holiday_days", t("tempo.bad_holiday_days", { n: MAX_HOLIDAY_DAYS }), 0);
  }
  return { tempo_seconds: Number(values.tempo), holiday_days: days };
}
