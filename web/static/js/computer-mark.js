/**
 * The mark of a computer player wherever its name is shown (room, table): an icon and a
 * text label, never the icon alone (a screen, then "Computer (stark)").
 */

import { el } from "./forms.js";
import { has, t } from "./i18n.js";

/**
 * The computer players the page names, `{name: level}`, from its
 * `<script type="application/json" id="computers">` (the archive's pages; `{}`: none).
 * @returns {Record<string, string>}
 */
export function computersOnPage() {
  const element = document.getElementById("computers");
  try {
    return element ? JSON.parse(element.textContent || "{}") : {};
  } catch {
    return {};
  }
}

/**
 * Mark the computer players' rows of a deal's ledger table (`ledger.js` `ledgerTable`:
 * rows with `data-player`, the name in `td.ledger-player`); return the table.
 * @template {HTMLElement} T
 * @param {T} table
 * @param {Record<string, string>} computers the computer players by name, with their level
 * @returns {T}
 */
export function markLedgerRows(table, computers) {
  for (const row of table.querySelectorAll("tr[data-player]")) {
    const level = computers[/** @type {HTMLElement} */ (row).dataset.player || ""];
    const cell = row.querySelector("td.ledger-player");
    if (level && cell && !cell.querySelector(".computer-mark")) cell.append(" ", computerMark(level));
  }
  return table;
}

/** The levels of computer players a room may seat, in the order the host chooses them. */
export const COMPUTER_LEVELS = ["einsteiger", "stark"];

/**
 * The words of the mark: "Computer (stark)"; just "Computer" for a level the catalogue
 * does not know (an archived match whose config names none).
 * @param {string | null | undefined} level
 * @returns {string}
 */
export function computerMarkText(level) {
  return level && has(`computer.mark.${level}`) ? t(`computer.mark.${level}`) : t("computer.mark");
}

/**
 * The mark of a computer player of `level`: the icon (hidden from screen readers) and the
 * label, which says it in words.
 * @param {string | null | undefined} level
 * @returns {HTMLElement}
 */
export function computerMark(level) {
  const mark = el("span", "computer-mark");
  // a no-break space: the icon never stands alone at the end of a line
  mark.append(computerIcon(), "\u00a0", el("span", "computer-label", computerMarkText(level)));
  return mark;
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * The icon: a small screen on its stand, drawn in the text's colour (no emoji font needed),
 * hidden from screen readers (the label says it).
 * @returns {SVGSVGElement}
 */
export function computerIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "computer-icon");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "1em");
  svg.setAttribute("height", "1em");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const screen = document.createElementNS(SVG, "rect");
  for (const [name, value] of [["x", "1.5"], ["y", "2"], ["width", "13"], ["height", "9"],
    ["rx", "1.2"], ["fill", "none"], ["stroke", "currentColor"], ["stroke-width", "1.6"]]) {
    screen.setAttribute(name, value);
  }
  const stand = document.createElementNS(SVG, "path");
  stand.setAttribute("d", "M6 14h4M8 11v3");
  stand.setAttribute("stroke", "currentColor");
  stand.setAttribute("stroke-width", "1.6");
  stand.setAttribute("stroke-linecap", "round");
  svg.append(screen, stand);
  return svg;
}
