/**
 * The room page's "Urlaub" (correspondence rooms only): the holiday days the person has
 * taken this year out of those the room allows, everybody's holidays (during his own, a
 * person's deadlines stand still), a form to take days and a button to remove one's own
 * holidays that have not begun. Speaks the holidays API (docs/api.md):
 * GET/POST /api/rooms/{id}/holidays, DELETE /api/rooms/{id}/holidays/{holiday id}.
 */

import { api, ApiError, showError } from "./api.js";
import { dayText } from "./deadline.js";
import { el, onSubmit } from "./forms.js";
import { lang as pageLang, t } from "./i18n.js";

/**
 * @typedef {{id: number, user_id: number, name: string, starts_at: string,
 *            ends_at: string, days: number}} Holiday
 * @typedef {{allowed: number, year: number, used: number, holidays: Holiday[]}} Holidays
 */

/**
 * "Anna: Mo., 01.12. bis Mi., 03.12. (3 Tage)": who, the first and the last day off (the
 * holiday ends at `ends_at`, exclusive), how many days. Holidays are whole days from
 * midnight UTC (the server's calendar), so they are named in UTC by default.
 * @param {Holiday} holiday
 * @param {string} [lang]
 * @param {string} [timeZone]
 * @returns {string}
 */
export function holidayLine(holiday, lang = pageLang, timeZone = "UTC") {
  const first = dayText(new Date(holiday.starts_at), lang, timeZone);
  const last = dayText(new Date(Date.parse(holiday.ends_at) - 1), lang, timeZone);
  const range = holiday.days === 1 ? first : t("holidays.range", { from: first, to: last });
  return `${holiday.name}: ${range} (${t("holidays.days", { n: holiday.days })})`;
}

/**
 * Whether `me` may remove `holiday`: his own, not begun at `now`.
 * @param {Holiday} holiday
 * @param {number} me
 * @param {number} [now]
 * @returns {boolean}
 */
export function removable(holiday, me, now = Date.now()) {
  return holiday.user_id === me && Date.parse(holiday.starts_at) > now;
}

/**
 * "3 von 14 Urlaubstagen 2026 genommen".
 * @param {Holidays} answer
 * @returns {string}
 */
export function usedLine(answer) {
  return t("holidays.used", { used: answer.used, allowed: answer.allowed, year: answer.year });
}

/**
 * Fill the section from the API and keep it so after every change.
 * @param {HTMLElement} section the `#holidays` section of room.html
 * @param {number} roomId
 * @param {number} me the viewer's user id
 */
export function watchHolidays(section, roomId, me) {
  const path = `/api/rooms/${roomId}/holidays`;
  const used = /** @type {HTMLElement} */ (section.querySelector("#holidays-used"));
  const list = /** @type {HTMLElement} */ (section.querySelector("#holiday-list"));
  const none = /** @type {HTMLElement} */ (section.querySelector("#holidays-none"));
  const form = /** @type {HTMLFormElement} */ (section.querySelector("#holiday-form"));
  const box = /** @type {HTMLElement} */ (form.querySelector(".form-error"));
  const daysField = /** @type {HTMLInputElement} */ (form.querySelector("#holiday-days"));

  /** @param {Holidays} answer */
  function show(answer) {
    used.textContent = usedLine(answer);
    // the spinner stops at the days left; the server refuses more (holiday_days_exceeded)
    const left = answer.allowed - answer.used;
    if (left > 0) daysField.max = String(left);
    else daysField.removeAttribute("max");
    none.hidden = answer.holidays.length > 0;
    list.replaceChildren(
      ...answer.holidays.map((holiday) => {
        const item = el("li", "holiday");
        item.dataset.holiday = String(holiday.id);
        item.append(el("span", "", holidayLine(holiday)));
        if (removable(holiday, me)) {
          const button = /** @type {HTMLButtonElement} */ (el("button", "", t("holidays.remove")));
          button.type = "button";
          const from = dayText(new Date(holiday.starts_at), pageLang, "UTC");
          button.setAttribute("aria-label", t("holidays.remove_label", { from }));
          button.addEventListener("click", async () => {
            button.disabled = true;
            showError(box, "");
            try {
              await api("DELETE", `${path}/${holiday.id}`);
              await load();
            } catch (error) {
              showError(box, error instanceof ApiError ? error.message : t("error.unknown"));
              button.disabled = false;
            }
          });
          item.append(button);
        }
        return item;
      }),
    );
  }

  async function load() {
    show(await api("GET", path));
  }

  onSubmit(form, async (values) => {
    const days = Number(values.days);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.start || "")) {
      throw new ApiError("bad_start", t("holidays.bad_start"), 0);
    }
    if (!Number.isInteger(days) || days < 1) {
      daysField.focus();
      throw new ApiError("bad_days", t("holidays.bad_days"), 0);
    }
    await api("POST", path, { start: values.start, days });
    form.reset();
    await load();
  });

  load().catch((error) => {
    showError(box, error instanceof ApiError ? error.message : t("error.unknown"));
  });
}
