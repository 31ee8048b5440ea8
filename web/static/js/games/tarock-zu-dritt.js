/**
 * What is Tarock zu dritt's own at the table and in the replay (the interface is documented
 * in ../game-info.js): the Lizitation's calls under the seats, the declarer(s) and their
 * contract with its Wert, the talon's halves, pairs or single cards as choices, the
 * discards with their restriction, the announced premiums, every Kontra chain at its
 * level, the hands laid open in the ouvert games, and the coded result lines.
 */

/**
 * @typedef {import("../game-info.js").GameContext} GameContext
 */

/** Cards per talon choice by contract (TZ-A4): halves, pairs, single cards. */
const TALON_GROUP = {
  dreier: 3,
  farbdreier: 3,
  zweier: 2,
  farbenzweier: 2,
  einer: 1,
  farbeneiner: 1,
};

/** The Farbenspiele: their own discard rule (TZ-A5). */
const FARBEN = ["farbdreier", "farbenzweier", "farbeneiner", "farbensolo"];

/** The auction's verbs, listed as calls in the replay. */
const CALL_VERBS = ["packet", "vorhand", "bid", "bei", "pass"];

/** The seat positions' names, by seat (0 = Vorhand). */
const POSITIONS = ["seat.vorhand", "seat.mittelhand", "seat.hinterhand"];

/**
 * A seat's position in the deal ("Vorhand").
 * @param {number} seat
 * @param {GameContext} ctx
 * @returns {string}
 */
function position(seat, ctx) {
  return POSITIONS[seat] ? ctx.t(POSITIONS[seat]) : String(seat);
}

/**
 * The declarers of a view (a "bei" game has two), [] before the contract stands.
 * @param {any} view
 * @returns {number[]}
 */
function declarersOf(view) {
  return Array.isArray(view.declarers) ? view.declarers : [];
}

/** The calls of the Lizitation that are no game of the Speisezettel. */
const NO_GAME = ["pass", "vorhand", "bei"];

/**
 * The game the Lizitation stands at after the first `count` calls (the one a "bei" joins),
 * or "" before any.
 * @param {any[]} calls the view's calls
 * @param {number} count
 * @returns {string}
 */
function highBid(calls, count) {
  for (let i = Math.min(count, calls.length) - 1; i >= 0; i -= 1) {
    if (!NO_GAME.includes(calls[i].call)) return calls[i].call;
  }
  return "";
}

/**
 * "Piccolo-bei": the game a "bei" joins, named; without one the label of the action.
 * @param {string} contract
 * @param {GameContext} ctx
 * @returns {string}
 */
function beiText(contract, ctx) {
  return contract ? ctx.t(`info.${ctx.game}.bei`, { contract: ctx.contract(contract) }) : ctx.action("bei");
}

/**
 * The text of one auction call ("Vorhand!", "weiter", "Piccolo-bei", a contract).
 * @param {any[]} calls the view's calls
 * @param {number} index the call's place among them
 * @param {GameContext} ctx
 * @returns {string}
 */
function callText(calls, index, ctx) {
  const call = calls[index].call;
  if (call === "pass") return ctx.t("action.pass");
  if (call === "bei") return beiText(highBid(calls, index), ctx);
  if (call === "vorhand") return ctx.action("vorhand");
  return ctx.contract(call);
}

/**
 * A premium's or item's name ("Pagat", "Spiel").
 * @param {string} item the chain's item ("game", "bei", a premium code)
 * @param {GameContext} ctx
 * @returns {string}
 */
function itemName(item, ctx) {
  if (item === "game" || item === "bei") return ctx.t(`info.${ctx.game}.item.${item}`);
  const key = `result.${ctx.game}.premium.${item}`;
  return ctx.has(key) ? ctx.t(key) : item;
}

/**
 * Under a seat: its last call in the Lizitation, its contract once it plays (with "-bei"),
 * the premiums it announced, the Kontra levels it called.
 * @param {any} view
 * @param {number} seat
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function seatBadges(view, seat, ctx) {
  const badges = [];
  const calls = view.calls || [];
  const own = calls.map((/** @type {any} */ c, /** @type {number} */ i) => (c.seat === seat ? i : -1)).filter((i) => i >= 0);
  if ((view.phase === "auction" || view.phase === "choose") && own.length) {
    badges.push(callText(calls, own[own.length - 1], ctx));
  }
  const declarers = declarersOf(view);
  // the core names the first declarer; the second of a "bei" game is named here
  if (view.contract && declarers.indexOf(seat) > 0) {
    badges.push(ctx.t("table.badge.declarer", { contract: ctx.contract(view.contract) }));
  }
  const announced = (view.announced || []).filter((/** @type {any} */ a) => a.seat === seat);
  if (announced.length) {
    const premiums = announced.map((/** @type {any} */ a) => itemName(a.premium, ctx)).join(", ");
    badges.push(ctx.t(`info.${ctx.game}.badge.announced`, { premiums }));
  }
  const chains = (view.doubling && view.doubling.chains) || [];
  const called = chains.filter((/** @type {any} */ c) => c.level && c.callers[c.callers.length - 1] === seat);
  for (const chain of called) {
    badges.push(`${ctx.t("group." + chain.word)}: ${itemName(chain.item, ctx)}`);
  }
  return badges;
}

/**
 * The talon's choices for the contract: each `take N` with exactly its cards; while the
 * declarer picks single cards (the room option "zwei beliebige Talonkarten"), each card
 * not taken yet.
 * @param {any} view
 * @returns {{action: string, cards: string[]}[]}
 */
function talonChoices(view) {
  if (!Array.isArray(view.talon)) return [];
  if (view.talon_pick) {
    const taken = view.talon_taken || [];
    return view.talon
      .map((/** @type {string} */ card, /** @type {number} */ i) => ({ action: `take ${i + 1}`, cards: [card] }))
      .filter((/** @type {{cards: string[]}} */ choice) => !taken.includes(choice.cards[0]));
  }
  const size = /** @type {Record<string, number>} */ (TALON_GROUP)[view.contract];
  if (!size) return [];
  const choices = [];
  for (let start = 0; start + size <= view.talon.length; start += size) {
    choices.push({ action: `take ${start / size + 1}`, cards: view.talon.slice(start, start + size) });
  }
  return choices;
}

/**
 * The contract with its Wert and player(s), the talon (open with its choices, taken, left
 * to the opponents, or covered), open discards, the announcements, each Kontra chain at its
 * level, and the hands laid open (ouvert: all after trick 1, semi-ouvert: the declarer's).
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {{text: string, cards?: string[], choices?: {action: string, cards: string[]}[], hidden?: boolean}[]}
 */
export function infoLines(view, name, ctx) {
  const g = ctx.game;
  const lines = [];
  const declarers = declarersOf(view);
  if (view.contract && view.phase !== "auction") {
    // the core's line names the contract and its player; here its Wert and a "bei" player
    const key = declarers.length > 1 ? `info.${g}.value_bei` : `info.${g}.value`;
    const player = declarers.length > 1 ? name(declarers[1]) : "";
    lines.push({ text: ctx.t(key, { value: view.value, player, contract: ctx.contract(view.contract) }) });
  }
  if (view.phase === "packet") {
    lines.push({ text: ctx.t(`info.${g}.packets`, { n: (view.packets_chosen || []).length }), hidden: true });
  }
  if (Array.isArray(view.talon) && view.talon.length) {
    if (view.phase === "talon") {
      lines.push({ text: ctx.t(`info.${g}.talon_open`), choices: talonChoices(view) });
      const picked = view.talon_pick ? view.talon_taken || [] : [];
      if (picked.length) lines.push({ text: ctx.t(`info.${g}.talon_taken`), cards: picked });
    } else {
      const taken = view.talon_taken || [];
      if (taken.length) lines.push({ text: ctx.t(`info.${g}.talon_taken`), cards: taken });
      const rest = view.talon.filter((/** @type {string} */ c) => !taken.includes(c));
      if (rest.length) lines.push({ text: ctx.t(`info.${g}.talon_rest`), cards: rest });
    }
  } else if (["auction", "choose", "packet"].includes(view.phase)) {
    lines.push({ text: ctx.t(`info.${g}.talon_hidden`, { n: 6 }), hidden: true });
  } else if (view.contract === "sechserdreier") {
    lines.push({ text: ctx.t(`info.${g}.talon_unseen`), hidden: true });
  }
  if (view.open_discards && view.open_discards.length) {
    lines.push({ text: ctx.t("table.info.open_discards"), cards: view.open_discards });
  }
  for (const seat of [0, 1, 2]) {
    const own = (view.announced || []).filter((/** @type {any} */ a) => a.seat === seat);
    if (!own.length) continue;
    const premiums = own.map((/** @type {any} */ a) => itemName(a.premium, ctx)).join(", ");
    lines.push({ text: ctx.t(`info.${g}.announced`, { premiums, player: name(seat) }) });
  }
  const chains = ((view.doubling && view.doubling.chains) || []).filter((/** @type {any} */ c) => c.level);
  if (chains.length) {
    const items = chains.map((/** @type {any} */ chain) => {
      const item = itemName(chain.item, ctx);
      const against = chain.against === null || chain.against === undefined ? "" : `, ${name(chain.against)}`;
      return `${item}${against}: ${ctx.t("group." + chain.word)} ×${chain.factor}`;
    });
    lines.push({ text: ctx.t(`info.${g}.kontra`, { items: items.join("; ") }) });
  }
  const open = view.open_hands || {};
  for (const key of Object.keys(open).sort()) {
    const seat = Number(key);
    if (seat === view.seat || !open[key].length) continue;
    lines.push({ text: ctx.t(`info.${g}.open_hand`, { player: name(seat) }), cards: open[key] });
  }
  return lines;
}

/**
 * A result line in words: the game with its factor, a premium with its side, a negative
 * game per opponent, who pays in the Trischaken.
 * @param {any} line
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultLine(line, ctx) {
  const g = ctx.game;
  if (line.code === "premium") {
    const premium = itemName(line.premium, ctx);
    const how = ctx.t(`result.${g}.${line.announced ? "announced" : "silent"}`);
    const key = premiumKey(line.side === "declarer", line.won);
    return ctx.t(key, { premium: `${premium} (${how})`, points: line.points });
  }
  if (line.code === "negative_game" && line.against !== undefined) {
    const key = line.won ? `result.${g}.negative_won` : `result.${g}.negative_lost`;
    const params = { player: position(line.seat, ctx), against: position(line.against, ctx) };
    return ctx.t(key, { ...params, tricks: line.tricks, points: line.points, factor: line.factor });
  }
  if (line.code === "trischaken_pays" && line.seat !== undefined) {
    const key = line.buergermeister ? `result.${g}.buergermeister` : `result.${g}.trischaken_pays_seat`;
    return ctx.t(key, { player: position(line.seat, ctx), points: line.points });
  }
  if (line.factor && line.factor > 1 && (line.code === "game_won" || line.code === "game_lost")) {
    return `${ctx.t(`result.${g}.${line.code}`, line)} (×${line.factor})`;
  }
  return null;
}

/**
 * The text of a side's premium: "Pagat (angesagt): von den Gegenspielern verloren (4)".
 * @param {boolean} declarer the declarer's side (else the opponents')
 * @param {boolean} won
 * @returns {string}
 */
function premiumKey(declarer, won) {
  if (declarer) return won ? "table.result.premium_won_declarer" : "table.result.premium_lost_declarer";
  return won ? "table.result.premium_won_opponents" : "table.result.premium_lost_opponents";
}

/**
 * The seats' tricks in a negative game or the Trischaken, the card points in a positive one.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function resultLines(view, name, ctx) {
  const o = view.outcome;
  const lines = [];
  if (o.card_points && o.card_points.declarer !== undefined) {
    lines.push(ctx.t("table.result.card_points", o.card_points));
  }
  if (Array.isArray(o.tricks_won) && !o.card_points) {
    const tricks = o.tricks_won.map((/** @type {number} */ n, /** @type {number} */ s) => `${name(s)} ${n}`);
    lines.push(ctx.t(`result.${ctx.game}.tricks_won`, { tricks: tricks.join(", ") }));
  }
  const seats = (o.tricks_won || []).map((/** @type {number} */ _n, /** @type {number} */ s) =>
    `${position(s, ctx)}: ${name(s)}`,
  );
  if (seats.length) lines.push(seats.join(", "));
  return lines;
}

/**
 * A deal without a declarer (the Trischaken) is titled by its contract.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultTitle(view, _name, ctx) {
  const o = view.outcome;
  return o.declarer === null || o.declarer === undefined ? ctx.contract(o.contract) : null;
}

/**
 * The buttons that stand apart: the Speisezettel (folded: up to twenty games, in the order
 * of their rank, only those that may be bid now), the announcements, the Kontra calls.
 */
export const actionGroups = {
  packet: {},
  bid: { fold: true },
  announce: {},
  kontra: { fold: true },
  rekontra: { fold: true },
  subkontra: { fold: true },
};

/**
 * The Lizitation's calls (and the packet choice) are listed in the replay; announcements
 * and Kontras have their own lines.
 * @param {string} action
 * @returns {boolean}
 */
export function isCall(action) {
  return CALL_VERBS.includes(action.split(" ")[0]);
}

/**
 * What the player to move is asked: the phases this game adds, the game a "bei" would
 * join, a group of talon cards or a single card to take, the discards with their
 * restriction, "ich liege" when nothing more is announced.
 * @param {any} view
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function turnText(view, ctx) {
  const g = ctx.game;
  if (view.phase === "discard") {
    const n = (view.talon_taken || []).length - (view.discard_count || 0);
    const rule = FARBEN.includes(view.contract) ? "discard_farben" : "discard";
    return ctx.t(`turn.${g}.${rule}`, { n });
  }
  const calls = view.calls || [];
  if (view.phase === "auction" && !calls.length) return ctx.t(`turn.${g}.opening`);
  if (view.phase === "auction" && (view.legal_actions || []).includes("bei")) {
    return ctx.t(`turn.${g}.auction_bei`, { bei: beiText(highBid(calls, calls.length), ctx) });
  }
  const choices = view.phase === "talon" ? talonChoices(view) : [];
  if (choices.length && choices.every((choice) => choice.cards.length === 1)) return ctx.t(`turn.${g}.talon_card`);
  if (["packet", "choose", "talon", "announce", "kontra", "auction"].includes(view.phase)) {
    return ctx.t(`turn.${g}.${view.phase}`);
  }
  return null;
}

/**
 * The button of a "bei" names the game it joins: "Piccolo-bei" (for `buttonLabel`,
 * table-games.js); every other button reads as the catalogue has it.
 * @param {string} action
 * @param {any} view
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function actionLabel(action, view, ctx) {
  if (action !== "bei") return null;
  const calls = view.calls || [];
  return beiText(highBid(calls, calls.length), ctx);
}

/**
 * The seat positions of the deal (Vorhand, Mittelhand, Hinterhand) and the current Kontra
 * round in the replay.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function replayLines(view, name, ctx) {
  const seats = (view.seats || []).map((/** @type {string} */ _s, /** @type {number} */ i) =>
    `${position(i, ctx)}: ${name(i)}`,
  );
  return seats.length === 3 ? [seats.join(", ")] : [];
}

/**
 * The colours of the suits, for the hand sort "red and black alternating" (hand-sort.js;
 * which cards are trumps comes from the view's `hand_groups`: the tarocks, in a
 * Farbenspiel a group of their own).
 */
export const suitColours = { H: "red", Ka: "red", P: "black", Kr: "black", T: "trump" };
