/**
 * What is Doppen's own at the table and in the replay (the interface is documented in
 * ../game-info.js): the calls of the auction with holding under the seats, the talon
 * turned up with its halves, pairs or single cards to choose, the discards and their
 * restriction, the announcements and each item's Kontra/Re level, the face-down card of
 * the table signal, and the result with the Pagatkasse.
 */

/**
 * @typedef {import("../game-info.js").GameContext} GameContext
 */

/** The items of the announcement round, in the order the badges list them. */
const ITEMS = ["game", "valat", "pagat", "uhu"];

/**
 * An item's name ("Spiel", "Pagat").
 * @param {string} item
 * @param {GameContext} ctx
 * @returns {string}
 */
function itemName(item, ctx) {
  const key = `item.doppen.${item}`;
  return ctx.has(key) ? ctx.t(key) : item;
}

/**
 * A doubling word ("Kontra", "Re", the same in both languages).
 * @param {string} word
 * @param {GameContext} ctx
 * @returns {string}
 */
function wordName(word, ctx) {
  const key = `word.doppen.${word}`;
  return ctx.has(key) ? ctx.t(key) : word;
}

/**
 * The open doubling chains of the announcement round (level above zero).
 * @param {any} view
 * @returns {any[]}
 */
function doubled(view) {
  const chains = (view.doubling && view.doubling.chains) || [];
  return chains
    .filter((/** @type {any} */ c) => c.level > 0)
    .sort((/** @type {any} */ a, /** @type {any} */ b) => ITEMS.indexOf(a.item) - ITEMS.indexOf(b.item));
}

/**
 * A seat's last call in the auction (its bid, "Halten" or "Weiter"), its announcements
 * (Pagat, Uhu, Valat) and its Kontra/Re calls on each item.
 * @param {any} view
 * @param {number} seat
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function seatBadges(view, seat, ctx) {
  const badges = [];
  const calls = (view.calls || []).filter((/** @type {any} */ c) => c.seat === seat);
  if (view.phase === "auction" && calls.length) {
    const call = calls[calls.length - 1].call;
    if (call === "pass") badges.push(ctx.t("action.pass"));
    else if (call === "hold") badges.push(ctx.t("badge.doppen.hold"));
    else badges.push(ctx.contract(call));
  }
  for (const item of ITEMS) {
    if (view.announced && view.announced[item] === seat) {
      badges.push(ctx.t("badge.doppen.announced", { item: itemName(item, ctx) }));
    }
  }
  if (view.covered_by === seat && view.phase === "play") badges.push(ctx.t("badge.doppen.covered"));
  for (const chain of doubled(view)) {
    const callers = chain.callers || [];
    callers.forEach((/** @type {number} */ caller, /** @type {number} */ i) => {
      if (caller !== seat) return;
      const word = i % 2 === 0 ? "kontra" : "re";
      badges.push(ctx.t("badge.doppen.doubled", { word: wordName(word, ctx), item: itemName(chain.item, ctx) }));
    });
  }
  return badges;
}

/**
 * The choices the turned-up talon offers: the upper and lower three (Dreier, Unterer),
 * the three pairs (Zweier), or every single card (Einer); one per `take` action with
 * exactly the cards it takes.
 * @param {any} view
 * @returns {{action: string, cards: string[]}[]}
 */
export function talonChoices(view) {
  const talon = view.talon || [];
  if (talon.length !== 6) return [];
  if (view.contract === "dreier" || view.contract === "unterer") {
    return [
      { action: "take upper", cards: talon.slice(0, 3) },
      { action: "take lower", cards: talon.slice(3) },
    ];
  }
  if (view.contract === "zweier") {
    return [
      { action: "take upper", cards: talon.slice(0, 2) },
      { action: "take middle", cards: talon.slice(2, 4) },
      { action: "take lower", cards: talon.slice(4) },
    ];
  }
  if (view.contract === "einer") {
    return talon.map((/** @type {string} */ card) => ({ action: `take ${card}`, cards: [card] }));
  }
  return [];
}

/**
 * The face-down card of the table signal (a card back for everybody but its owner) and,
 * for the player who may give it, a hint; the doubled items; trumps laid away face up;
 * before the play the talon (covered during the auction, turned up with its choices, in
 * a Solo unseen) and the cards taken. In the play the talon is no longer shown: everybody
 * has seen it, and a phone needs the room.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {{text: string, cards?: string[], choices?: {action: string, cards: string[]}[], hidden?: boolean}[]}
 */
export function infoLines(view, name, ctx) {
  const lines = [];
  const legal = /** @type {string[]} */ (view.legal_actions || []);
  if (legal.some((a) => a.startsWith("cover "))) lines.push({ text: ctx.t("info.doppen.may_cover") });
  if (view.covered_by !== null && view.covered_by !== undefined && view.phase === "play") {
    if (view.covered) {
      lines.push({ text: ctx.t("info.doppen.covered_own"), cards: [view.covered] });
    } else {
      lines.push({ text: ctx.t("info.doppen.covered", { player: name(view.covered_by) }), cards: [""] });
    }
  }
  for (const chain of doubled(view)) {
    lines.push({
      text: ctx.t("info.doppen.doubled", {
        item: itemName(chain.item, ctx),
        word: wordName(chain.word || "kontra", ctx),
        factor: chain.factor,
      }),
    });
  }
  if (view.open_discards && view.open_discards.length) {
    lines.push({ text: ctx.t("table.info.open_discards"), cards: view.open_discards });
  }
  if (view.phase === "play" || view.phase === "finished") return lines; // the talon was seen
  if (view.phase === "auction") {
    lines.push({ text: ctx.t("info.doppen.talon_hidden", { n: 6 }), hidden: true });
  } else if (view.talon && view.talon.length) {
    const choices = view.phase === "talon" ? talonChoices(view) : [];
    if (choices.length) lines.push({ text: ctx.t("info.doppen.talon_choose"), choices });
    else lines.push({ text: ctx.t("info.doppen.talon_open"), cards: view.talon });
  } else if (view.contract === "solo") {
    lines.push({ text: ctx.t("info.doppen.talon_solo"), hidden: true });
  }
  if (view.talon_taken && view.talon_taken.length) {
    lines.push({ text: ctx.t("info.doppen.talon_taken"), cards: view.talon_taken });
  }
  return lines;
}

/**
 * Whether the declarer won: more than 35 card points, or (a Valat) the declarer's Valat.
 * @param {any} o the outcome
 * @returns {boolean}
 */
function declarerWon(o) {
  if (o.card_points) return o.card_points.declarer > 35;
  const valat = (o.premiums || []).find((/** @type {any} */ p) => p.code === "valat");
  return Boolean(valat && (valat.side === 0) === valat.won); // side 0: the declarer's
}

/**
 * "Anne gewinnt: Dreier"; a deal everybody passed: thrown in.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultTitle(view, name, ctx) {
  const o = view.outcome;
  if (o.thrown_in) return ctx.t("result.doppen.title_thrown_in");
  if (o.declarer === null || o.declarer === undefined) return null;
  const key = declarerWon(o) ? "table.result.won" : "table.result.lost";
  return ctx.t(key, { player: name(o.declarer), contract: ctx.contract(o.contract) });
}

/**
 * The card points of both sides and the doublings above one, before the coded lines.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function resultLines(view, _name, ctx) {
  const o = view.outcome;
  const lines = [];
  if (o.card_points) {
    lines.push(ctx.t("table.result.card_points", { declarer: o.card_points.declarer, opponents: o.card_points.opponents }));
  }
  for (const item of ITEMS) {
    const factor = (o.doublings || {})[item];
    if (factor && factor > 1) lines.push(ctx.t("result.doppen.doubling", { item: itemName(item, ctx), factor }));
  }
  return lines;
}

/**
 * A premium line with what it was: "Pagat: 20 (angesagt, verloren)".
 * @param {any} line
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultLine(line, ctx) {
  if (!["pagat", "uhu", "trull", "koenige", "valat"].includes(line.code)) return null;
  const text = ctx.t(`result.doppen.${line.code}`, line);
  const notes = [];
  if (line.announced) notes.push(ctx.t("result.doppen.announced"));
  if (line.won === false) notes.push(ctx.t("result.doppen.lost"));
  return notes.length ? `${text} (${notes.join(", ")})` : text;
}

/** The auction, the talon choice and the announcement round are listed in the replay. */
export function isCall(/** @type {string} */ action) {
  return ["bid", "pass", "hold", "take", "announce", "kontra", "re", "gut"].includes(action.split(" ")[0]);
}

/**
 * What the player to move is asked to do: which part of the talon may be taken, how many
 * cards are still to be laid away and which may not, the announcement round.
 * @param {any} view
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function turnText(view, ctx) {
  const legal = /** @type {string[]} */ (view.legal_actions || []);
  if (view.phase === "auction") {
    return ctx.t(legal.includes("hold") ? "turn.doppen.auction_hold" : "turn.doppen.auction");
  }
  if (view.phase === "talon" && view.contract) return ctx.t(`turn.doppen.talon_${view.contract}`);
  if (view.phase === "discard") {
    const n = (view.talon_taken || []).length - (view.discard_count || 0);
    const trumps = legal.some((a) => /^discard (T\d+|SK)$/.test(a));
    if (n > 0 && trumps) return ctx.t("turn.doppen.discard_trumps", { n });
    if (n > 0) return ctx.t(n === 1 ? "turn.doppen.discard.one" : "turn.doppen.discard", { n });
  }
  if (view.phase === "announce") {
    // only what this player may do: the declarer never gives Kontra on his own game
    const verbs = new Set(legal.map((a) => a.split(" ")[0]));
    const parts = ["announce", "kontra", "re"].filter((v) => verbs.has(v));
    if (!parts.length) return ctx.t("turn.doppen.announce_gut");
    return ctx.t("turn.doppen.announce_parts", {
      parts: parts.map((v) => ctx.t(`turn.doppen.part.${v}`)).join(", "),
    });
  }
  return null;
}

/**
 * The announcements in a row of their own, Kontra and Re on the items in another, which
 * folds away once it holds more than two calls (on a phone the row would run off the
 * screen beside "Gut").
 */
export const actionGroups = {
  announce: { label: "group.announce" },
  kontra: { label: "group.kontra", fold: 2 },
  re: { label: "group.kontra", fold: 2 },
};

/**
 * The colours of the suits, for the hand sort "red and black alternating" (hand-sort.js;
 * which cards are trumps comes from the view's `hand_groups`: the tarocks, in a
 * Farbenspiel a group of their own).
 */
export const suitColours = { H: "red", Ka: "red", P: "black", Kr: "black", T: "trump" };
