/**
 * The game description (GameInfo, docs/api.md `/api/games/{name}`) for the client: the
 * card pack, the seating direction, the seats and their labels, the sheet's kind, the
 * options; and the game's own module `games/<js_module>.js`, loaded by dynamic import.
 *
 * The core modules (table, replay, sheet, archive) know no game by name: whatever they
 * need about a game comes from the description or from its module. A page that shows a
 * game embeds the description as `<script type="application/json" id="game-info">`;
 * elsewhere it is fetched from `/api/games/<name>` (once per name and page).
 *
 * ## The game module's interface
 *
 * `web/static/js/games/<js_module>.js` exports any of the following; every export is
 * optional and the core falls back to the generic behaviour named here. `ctx` is the
 * {@link GameContext} below (texts, labels and names without importing the core).
 *
 * - `seatBadges(view, seat, ctx) → string[]`: short texts under a seat's name (its bid,
 *   its party, its announcements). The core adds the declarer's badge itself.
 * - `infoLines(view, name, ctx) → {text, cards?, choices?, hidden?}[]`: lines about the
 *   deal for the middle of the table after the contract line. `choices: [{action, cards}]`
 *   are groups of cards to choose from (the talon's halves, pairs or single cards): the
 *   table draws each as a button that sends `action` while that is legal, and gives the
 *   action no button of its own; the replay shows their cards in a row. `hidden: true`
 *   marks a line that only says the talon is covered (the replay shows the talon itself
 *   and leaves it out).
 * - Card verbs (`play`, `discard`, `push`, `return`, `cover`) are sent by tapping a card;
 *   a seat has one card verb at a time (a face-down `cover` is offered only to a player
 *   who is not on turn; tests/engine/test_card_verbs.py holds every game to it).
 * - `resultTitle(view, name, ctx) → string | null`: the head of the result panel.
 * - `resultLines(view, name, ctx) → string[]`: lines of the result panel before the
 *   generic ones: the outcome's `lines` (codes, `result.<game>.<code>`), each passed
 *   first through `resultLine(line, ctx) → string | null` when the module has it.
 *   What each person gets from the deal (points with every factor, money, pots, the
 *   sitting-out dealer's share) is never a module's: the panel shows the deal's ledger.
 * - `actionGroups: Record<verb, {label?: string, fold?: boolean | number}>`: the verbs
 *   whose buttons stand apart from the main row, as a labelled row or folded away (`fold`:
 *   always, or with a number only when there are more buttons than that).
 *   The label is the description's `action_groups[verb]` key when the catalogue has it,
 *   else `label`. Without this export every button is in the main row.
 * - `isCall(action) → boolean`: whether the replay lists an action among the calls
 *   (auction, Vorbehalte); default: every action that is no card action and whose verb
 *   the module does not set apart.
 * - `replayView(view, step) → view`: the spectator's view of a replay step with what the
 *   replay knows besides (such as every seat's true party).
 * - `replayLines(view, name, ctx) → string[]`: extra lines of the replay's info box
 *   (who knocked, the announcements).
 * - `replayParty(party, name, ctx) → string | null`: the replay step's running count per
 *   party (`party_points`) in the game's words (Re and Kontra); null: the core's line for
 *   a declarer against the opponents (`{declarer, opponents}`), else none.
 * - The score sheet (table-sheet.js, given the loaded game): `storedSheet(sheet) → sheet`
 *   brings a sheet stored in an older shape of the game's into the described one (an old
 *   pot field as `pots`); `sheetMarks(row, ctx) → string[]`: short marks beside a row's
 *   note; `sheetNotes(sheet, ctx) → string[]`: notes below the sheet from what only the
 *   game's sheet carries; `sheetLine(line, ctx) → string | null`: a sheet line
 *   (`sheet.line.<game>.<code>`) whose parameters the game names itself.
 * - `turnText(view, ctx) → string | null`: what the player to move is asked to do, where
 *   the game says more than its phase's text (`table.turn.you.<phase>`; how many cards are
 *   still to be laid away; only "fertig" when there is nothing to announce).
 * - `actionLabel(action, view, ctx) → string | null`: a button's label that depends on
 *   the deal ("Piccolo-bei" for "bei"), for `buttonLabel` in table-games.js; null: the
 *   catalogue's label.
 * - `suitColours: Record<suit, "red" | "black">`: the colours of the pack's suits, for the
 *   player's hand sort "red and black alternating" (hand-sort.js). Which cards are trumps
 *   and how they rank is never the module's: the seat's view groups the hand
 *   (`hand_groups`, from the engine for the contract being played). Without this export
 *   the suits keep the pack's order and that choice is not offered.
 *
 * ## The game's words
 *
 * A phase is named by the game's own key where its catalogue has one, else by the shared
 * one: `archive.phase.<game>.<phase>` before `archive.phase.<phase>`, and the turn's text
 * `table.turn.you.<game>.<phase>` before `table.turn.you.<phase>` (`gameKey` and
 * `phaseName` in i18n.js). A button likewise: `action.<game>.<text>` before the shared
 * `action.<text>` (`actionLabel` below): a move only one game has, or that it words its
 * own way, is labelled in its own catalogue.
 *
 * Whatever a game calls otherwise than its neighbours is its own catalogue's: its talon
 * ("Talon", "Blinder", "Stock") in its own keys (`info.<game>.…`, `result.<game>.…`), its
 * cards' names in `card.<game>.…` (cards.js, `cardWords`: "Stieß", "Pfeife", "Daus"),
 * which `makeGame` hands to the card pictures and names of the page. The shared keys
 * (`table.…`) use no game's words; tests/test_game_terms.py holds every game to that.
 */

import { api } from "./api.js";
import { cardName, cardWords, useCardWords } from "./cards.js";
import { gameKey, has, lang, t } from "./i18n.js";

/**
 * @typedef {object} GameInfo the game description (spec: registry.describe)
 * @property {string} name
 * @property {string} title
 * @property {number[]} players
 * @property {number} seats
 * @property {boolean} dealer_sits_out
 * @property {"clockwise"|"anticlockwise"} direction
 * @property {string} pack "tarock", "french48" or "german" (cards.js)
 * @property {string[]} seat_labels catalogue keys by seat position, or []
 * @property {string[]} phases
 * @property {{min: number, max: number, default: number, open_allowed: boolean, unit: "rounds"|"deals"}} rounds
 *   how long a room plays, in rounds or in deals
 * @property {Record<string, string>} action_groups verb → catalogue key of its label
 * @property {{kind: "points"|"counters", better: "higher"|"lower", notes: string[], stake?: boolean, unit?: "points"|"cents"}} sheet
 *   `stake`: false when the room's stake per point does not apply; `unit`: "cents" when
 *   the sheet's columns are money
 * @property {string[]} pots
 * @property {string} js_module
 * @property {any[]} options
 * @property {any[]} match_options
 * @property {string} summary
 * @property {{key: string, label: string}[]} [figures] the game's own figures of the
 *   statistics (each player's `extra[key]` in GET /api/history/stats), by catalogue key
 */

/**
 * @typedef {object} GameContext what a game module may use of the core
 * @property {string} game the game's name (catalogue prefix)
 * @property {(key: string, params?: Record<string, unknown>) => string} t
 * @property {(key: string) => boolean} has
 * @property {(contract: string | null | undefined) => string} contract the contract's name
 * @property {(action: string) => string} action a button label of an action
 * @property {() => any} sheet the match's score sheet as the table has it (null elsewhere)
 */

/**
 * @typedef {object} Game a loaded game: its description and its module
 * @property {GameInfo} info
 * @property {string} name
 * @property {string} pack
 * @property {boolean} clockwise the next player sits on the left
 * @property {number} seats the active seats of a deal
 * @property {any[]} options the house rules a room may set (with their catalogue keys)
 * @property {string} sheetKind
 * @property {any} module the game module's exports ({} when it has none)
 * @property {GameContext} ctx
 * @property {(seat: number) => string} seatLabel a seat's label ("Vorhand"), or ""
 */

/** @type {Map<string, Promise<GameInfo>>} */
const fetched = new Map();

/**
 * The description embedded in the page, or null.
 * @returns {GameInfo | null}
 */
export function embeddedInfo() {
  const element = document.getElementById("game-info");
  if (!element || !element.textContent) return null;
  try {
    return JSON.parse(element.textContent);
  } catch {
    return null;
  }
}

/**
 * The description of `name`: the page's own when it is about that game, else fetched.
 * @param {string} [name] the game ("" or none: the page's)
 * @returns {Promise<GameInfo>}
 */
export function gameInfo(name) {
  const embedded = embeddedInfo();
  if (embedded && (!name || embedded.name === name)) return Promise.resolve(embedded);
  if (!name) return Promise.reject(new Error("This page has no game description"));
  let promise = fetched.get(name);
  if (!promise) {
    promise = api("GET", `/api/games/${encodeURIComponent(name)}`);
    fetched.set(name, promise);
  }
  return promise;
}

/**
 * A contract's name from the catalogue (`contract.<game>.<code>`), else the code.
 * @param {string} game
 * @param {string | null | undefined} contract
 * @returns {string}
 */
export function contractLabel(game, contract) {
  if (!contract) return "";
  const key = `contract.${game}.${contract}`;
  return has(key) ? t(key) : contract;
}

/** The page's game's pack and name, read once from its embedded description ("" for none). */
let ownPack = /** @type {string | null} */ (null);
let ownGame = /** @type {string | null} */ (null);

function pagePack() {
  if (ownPack === null) ownPack = (typeof document !== "undefined" && embeddedInfo()?.pack) || "";
  return ownPack;
}

function pageGame() {
  if (ownGame === null) ownGame = (typeof document !== "undefined" && embeddedInfo()?.name) || "";
  return ownGame;
}

/**
 * A card's name in the page's language when `code` is a card of `pack` (the first copy of
 * a pack with two), else null.
 * @param {string} code
 * @param {string} pack
 * @returns {string | null}
 */
function cardNamed(code, pack) {
  for (const candidate of code.includes(".") ? [code] : [code, `${code}.1`]) {
    try {
      return cardName(candidate, lang, /** @type {any} */ (pack));
    } catch {
      // not a card of this pack
    }
  }
  return null;
}

/**
 * The button label of a non-card action of `game`: "bid zweier" → the game's own
 * `action.<game>.bid_zweier` where the catalogue has it, else the shared
 * `action.bid_zweier` (`gameKey` in i18n.js), so two games can word the same move
 * differently; an action without a label of its own whose verb has one reads as the
 * verb's label (the game's, else the shared one) and its argument, a card named as such
 * ("take HB" → "Mitnehmen Herz Bube", a card taken from the talon; the pack is `pack`,
 * else the page's game's); else the canonical text.
 * @param {string} action
 * @param {string | null} [game] the game's name (none: the page's game)
 * @param {string} [pack] the game's card pack
 * @returns {string}
 */
export function actionLabel(action, game = undefined, pack = undefined) {
  const name = game ?? pageGame();
  const key = gameKey("action", name, action.replace(/\s+/g, "_"));
  if (key) return t(key);
  const [verb, ...rest] = action.split(/\s+/);
  const verbKey = rest.length ? gameKey("action", name, verb) : null;
  if (verbKey) {
    const cards = pack || pagePack();
    const card = rest.length === 1 && cards ? cardNamed(rest[0], cards) : null;
    return `${t(verbKey)} ${card ?? rest.join(" ")}`;
  }
  return action;
}

/**
 * The game object of a description: pack, direction, labels and the loaded module.
 * @param {GameInfo} info
 * @returns {Promise<Game>}
 */
export async function gameOf(info) {
  let module = {};
  if (info.js_module && /^[a-z0-9_-]+$/.test(info.js_module)) {
    try {
      module = await import(`./games/${info.js_module}.js`);
    } catch (error) {
      console.error(error); // the generic rendering still works without the module
    }
  }
  return makeGame(info, module);
}

/**
 * The game object from a description and an already loaded module (tests, replay). The
 * page's cards are named and drawn with the game's words from now on.
 * @param {GameInfo} info
 * @param {any} module
 * @returns {Game}
 */
export function makeGame(info, module) {
  const name = info.name;
  const labels = info.seat_labels || [];
  if (info.pack) {
    const text = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ params = {}) =>
      has(key) ? t(key, params) : null;
    useCardWords(cardWords(name, /** @type {any} */ (info.pack), lang, text));
  }
  return {
    info,
    name,
    pack: info.pack,
    clockwise: info.direction === "clockwise",
    seats: info.seats,
    options: info.options || [],
    sheetKind: (info.sheet && info.sheet.kind) || "points",
    module: module || {},
    ctx: {
      game: name,
      t,
      has,
      contract: (contract) => contractLabel(name, contract),
      action: (action) => actionLabel(action, name, info.pack),
      sheet: () => null, // the table sets it (table.js)
    },
    seatLabel: (seat) => (labels[seat] ? t(labels[seat]) : ""),
  };
}

/**
 * Load the game `name` (or the page's game): its description and its module.
 * @param {string} [name]
 * @returns {Promise<Game>}
 */
export async function loadGame(name) {
  return gameOf(await gameInfo(name));
}
