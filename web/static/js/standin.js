/**
 * The stand-in ("Vertretung") at the table: the mark on a seat a computer player plays
 * for while its person is away, and the note that tells the person what it played for him.
 */

import { computerIcon } from "./computer-mark.js";
import { el } from "./forms.js";
import { t } from "./i18n.js";

/**
 * The seat's mark "vertreten": the icon (hidden from screen readers) and the word.
 * @param {string} player the name of the person the stand-in plays for
 * @returns {HTMLElement}
 */
export function standinMark(player) {
  const mark = el("span", "standin-mark");
  mark.title = t("standin.mark_long", { player });
  mark.append(computerIcon(), " ", el("span", "standin-label", t("standin.mark")));
  return mark;
}

/**
 * The note for a person the stand-in played for: "Deine Vertretung hat für dich
 * gespielt: …" with the moves (``{action}`` each, named by ``describe``), or "" for none.
 * @param {Array<{action: string}>} moves
 * @param {(action: string) => string} describe
 * @returns {string}
 */
export function standinMovesText(moves, describe) {
  if (!moves.length) return "";
  const list = moves.map((move) => describe(move.action)).join(", ");
  return t("standin.played_for_you", { n: moves.length, moves: list });
}

/**
 * The replay's steps a stand-in played, from the page's
 * `<script type="application/json" id="standins">` (none: an empty set).
 * @returns {Set<number>}
 */
export function standinStepsOnPage() {
  const element = document.getElementById("standins");
  try {
    const steps = element ? JSON.parse(element.textContent || "[]") : [];
    return new Set(Array.isArray(steps) ? steps : []);
  } catch {
    return new Set();
  }
}
