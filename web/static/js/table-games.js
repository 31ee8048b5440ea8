/**
 * The table's texts for any game: how a seat's calls read, the lines about the deal, the
 * labels and groups of the buttons and the deal's result. What differs between the games
 * comes from the game description and the game's module (game-info.js documents the
 * module's interface); nothing here names a game. Everything here only *describes* the
 * server's view; no rule is decided here.
 */

import { cardName } from "./cards.js";
import { actionLabel, contractLabel } from "./game-info.js";
import { gameKey, has, lang, t } from "./i18n.js";

export { actionLabel, contractLabel };

/** The verbs whose argument is a card: tapping a card in the hand sends them. */
export const CARD_VERBS = ["play", "discard", "push", "return", "cover"];

/**
 * A card code without its copy number: "H10.2" → "H10" (the engine's actions name kinds).
 * @param {string} code
 * @returns {string}
 */
export function kindOf(code) {
  return code.replace(/\.\d+$/, "");
}

/**
 * The name of a card in the page's language. A kind of a pack with two copies of each
 * card ("CA" of "CA.1"/"CA.2", as actions name them) gives the name of its cards.
 * @param {string} code
 * @param {string} [pack] needed for the packs that share codes (cards.js)
 * @returns {string}
 */
export function nameOf(code, pack) {
  try {
    return cardName(code, lang, pack);
  } catch (error) {
    if (code.includes(".")) throw error;
    return cardName(`${code}.1`, lang, pack);
  }
}

/**
 * @typedef {object} ActionGroup how the buttons of one verb are shown
 * @property {string} key the group ("" for the main row)
 * @property {string} label its title ("" for the main row)
 * @property {boolean} fold whether the group folds away (long lists of Vorbehalte)
 * @property {number} foldOver it folds only with more buttons than this (0: always)
 */

/**
 * The button group of an action. Buttons go to the main row unless the game's module
 * sets their verb apart (`actionGroups`: a labelled row, or folded with `fold`: `true`, or a
 * number: folded only with more buttons than that); the
 * label is the description's `action_groups` key of the verb when the catalogue has it,
 * else the module's `label`.
 * @param {import("./game-info.js").Game} game
 * @param {string} action
 * @returns {ActionGroup}
 */
export function actionGroup(game, action) {
  const verb = action.split(" ")[0];
  const own = (game.module.actionGroups || {})[verb];
  if (!own) return { key: "", label: "", fold: false, foldOver: 0 };
  const described = (game.info.action_groups || {})[verb];
  const key = described && has(described) ? described : own.label || described || verb;
  const foldOver = typeof own.fold === "number" ? own.fold : 0;
  return { key, label: has(key) ? t(key) : verb, fold: Boolean(own.fold), foldOver };
}

/**
 * A button's label at the table: the game module's `actionLabel` where the label depends
 * on the deal ("Piccolo-bei" for "bei"), else the catalogue's (`actionLabel`).
 * @param {import("./game-info.js").Game} game
 * @param {any} view the seat's view from the server
 * @param {string} action
 * @returns {string}
 */
export function buttonLabel(game, view, action) {
  const own = game.module.actionLabel && view ? game.module.actionLabel(action, view, game.ctx) : null;
  return own || actionLabel(action, game.name, game.pack);
}

/**
 * Short texts under a seat's name: the declarer's contract, then the game's own badges.
 * @param {import("./game-info.js").Game} game
 * @param {any} view the seat's view from the server
 * @param {number} seat
 * @returns {string[]}
 */
export function seatBadges(game, view, seat) {
  const badges = [];
  if (view.declarer === seat && view.contract) {
    badges.push(t("table.badge.declarer", { contract: contractLabel(game.name, view.contract) }));
  }
  if (game.module.seatBadges) badges.push(...game.module.seatBadges(view, seat, game.ctx));
  return badges;
}

/**
 * @typedef {object} InfoChoice a group of cards the player may choose (a talon half)
 * @property {string} action the action that chooses it ("take upper")
 * @property {string[]} cards the cards it takes
 */

/**
 * @typedef {object} InfoLine
 * @property {string} text
 * @property {string[]} [cards]
 * @property {InfoChoice[]} [choices] the table makes each legal one a button
 * @property {boolean} [hidden] a line that only says the talon is covered
 */

/**
 * Lines about the deal for the middle of the table: the contract, then the game's own.
 * @param {import("./game-info.js").Game} game
 * @param {any} view
 * @param {(seat: number) => string} name
 * @returns {InfoLine[]}
 */
export function infoLines(game, view, name) {
  /** @type {InfoLine[]} */
  const lines = [];
  if (view.contract && view.declarer !== null && view.declarer !== undefined) {
    const key = view.factor ? "table.info.contract_factor" : "table.info.contract";
    lines.push({
      text: t(key, {
        contract: contractLabel(game.name, view.contract),
        player: name(view.declarer),
        factor: view.factor,
      }),
    });
  } else if (view.contract) {
    lines.push({ text: contractLabel(game.name, view.contract) });
  }
  if (game.module.infoLines) lines.push(...game.module.infoLines(view, name, game.ctx));
  return lines;
}

/**
 * What the table is waiting for, as one sentence: the game module's `turnText` for the
 * player to move where it has one, else the phase's text (the game's own
 * `table.turn.you.<game>.<phase>`, else the shared `table.turn.you.<phase>`).
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {import("./game-info.js").Game} [game]
 * @returns {{text: string, mine: boolean}}
 */
export function turnText(view, name, game) {
  if (view.phase === "finished") return { text: t("table.turn.finished"), mine: false };
  if (view.to_move === null || view.to_move === undefined) return { text: "", mine: false };
  if (view.seat === view.to_move) {
    const own = game && game.module.turnText ? game.module.turnText(view, game.ctx) : null;
    if (own) return { text: own, mine: true };
    const key = gameKey("table.turn.you", game && game.name, view.phase);
    return { text: t(key || "table.turn.you"), mine: true };
  }
  return { text: t("table.turn.other", { player: name(view.to_move) }), mine: false };
}

/**
 * One result line of an outcome in the page's language. A line is a code with flat
 * parameters (`{"code": "knocked", "factor": 4, "points": 6}`), translated with
 * `result.<game>.<code>` unless the game's module renders it (`resultLine`). Lines of old
 * records (`[label, value]` pairs) are shown as they were stored.
 * @param {import("./game-info.js").Game} game
 * @param {any} line
 * @returns {string}
 */
export function resultLine(game, line) {
  if (Array.isArray(line)) return line.map(String).join(": ");
  if (!line || typeof line !== "object") return String(line);
  const own = game.module.resultLine ? game.module.resultLine(line, game.ctx) : null;
  if (own) return own;
  const key = `result.${game.name}.${line.code}`;
  if (has(key)) return t(key, line);
  const params = Object.entries(line)
    .filter(([name]) => name !== "code")
    .map(([name, value]) => `${name} ${value}`);
  return params.length ? `${line.code} (${params.join(", ")})` : String(line.code);
}

/**
 * The deal's result as rows of text for the result panel: the head, the lines of the
 * outcome and the seats' points (`settlement`, as the deal counted them). What each person
 * gets from the deal, with every factor and the money, is the ledger's (ledger.js): the
 * panel shows the seats' points only where there is no ledger (an uploaded record).
 * @param {import("./game-info.js").Game} game
 * @param {any} view the finished view (with `outcome`)
 * @param {(seat: number) => string} name
 * @returns {{title: string, lines: string[], settlement: {player: string, points: number}[]}}
 */
export function outcomeSummary(game, view, name) {
  const o = view.outcome;
  const mod = game.module;
  const settlement = (o.settlement || []).map((/** @type {number} */ points, /** @type {number} */ seat) => ({
    player: name(seat),
    points,
  }));
  const contract = contractLabel(game.name, o.contract);
  let title = mod.resultTitle ? mod.resultTitle(view, name, game.ctx) : null;
  if (!title && o.declarer !== null && o.declarer !== undefined && typeof o.declarer_won === "boolean") {
    title = t(o.declarer_won ? "table.result.won" : "table.result.lost", { player: name(o.declarer), contract });
  }
  if (!title) title = contract || t("table.result");
  const lines = mod.resultLines ? [...mod.resultLines(view, name, game.ctx)] : [];
  for (const line of o.lines || []) lines.push(resultLine(game, line));
  return { title, lines, settlement };
}
