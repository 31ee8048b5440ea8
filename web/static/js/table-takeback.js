/**
 * Taking back a mis-played card (the room option `take_back`): the small "Zurücknehmen"
 * button beside the hand and the note the table shows when someone takes a card back.
 *
 * The engine decides when a take-back is legal and names the seat in every view
 * (`view.take_back`: the seat that may take back its last card now, or null): only the
 * last card played, while its trick is open and before anyone acts after it. The button
 * shows for that seat while this holds, so it goes as soon as the next player plays.
 */

import { t } from "./i18n.js";

/** The action text of a take-back, as in the action log. */
export const TAKE_BACK = "takeback";

/**
 * Whether `seat` (the viewer's own) may take back its last card in `view` now.
 * @param {any} view
 * @returns {boolean}
 */
export function mayTakeBack(view) {
  if (!view || view.phase === "finished") return false;
  const seat = view.seat;
  return typeof seat === "number" && view.take_back === seat;
}

/**
 * Show or hide the button `button` for `view`; disabled while an action is on its way.
 * @param {HTMLButtonElement} button
 * @param {any} view
 * @param {boolean} pending
 */
export function renderTakeBack(button, view, pending) {
  const show = mayTakeBack(view);
  button.hidden = !show;
  button.disabled = !show || pending;
}

/**
 * The note of an event at the table: "Anna nimmt die Karte zurück", or null when the event
 * is not a take-back.
 * @param {any} message an event message (its `action`, `seat` and merged `view`)
 * @returns {string | null}
 */
export function takeBackNote(message) {
  if (!message || message.action !== TAKE_BACK || typeof message.seat !== "number") return null;
  const seats = message.view && message.view.seats;
  const player = seats ? seats[message.seat] : "";
  return t("takeback.note", { player });
}
