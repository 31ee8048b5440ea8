/**
 * What is Bayerisches Tarock's (Haferltarock's) own at the table and in the replay (the
 * interface is documented in ../game-info.js): each seat's last call of the Reizen and its
 * Kontra/Re (Supp, Resupp, Hirsch), the highest bid with the Augen it needs, the target
 * and the trump of the game, the Stock (covered, taken, laid away) and the Augen of both
 * sides in the result. The engine's view says everything; nothing is decided here.
 */

/**
 * @typedef {import("../game-info.js").GameContext} GameContext
 */

/** The words of the doubling round a seat may say (action `<word> game`). */
const DOUBLINGS = ["kontra", "re", "supp", "resupp", "hirsch"];

/**
 * The Augen a bid needs: 61 for "Ich spiele" and "Hand", the bid itself for a point bid
 * ("71"), none for Bettel and Durch (they are won by tricks, not by Augen).
 * @param {string | null | undefined} bid
 * @returns {number | null}
 */
export function targetOf(bid) {
  if (!bid) return null;
  if (/^\d+$/.test(bid)) return Number(bid);
  return ["ich_spiele", "hand", "frage", "frage_herz", "hand_herz"].includes(bid) ? 61 : null;
}

/**
 * A bid's name as its button reads ("10 mehr (71)", "Hand").
 * @param {string} bid
 * @param {GameContext} ctx
 * @returns {string}
 */
function bidName(bid, ctx) {
  return ctx.action("bid " + bid);
}

/**
 * A bid with the Augen it needs ("Hand, Ziel 61 Augen"; Bettel and Durch alone).
 * @param {string} bid
 * @param {GameContext} ctx
 * @returns {string}
 */
function bidWithTarget(bid, ctx) {
  const target = targetOf(bid);
  const bidText = bidName(bid, ctx);
  return target === null ? bidText : ctx.t("info.bayerisches-tarock.bid_target", { bid: bidText, target });
}

/**
 * A suit's name ("Eichel", "Gras", "Herz", "Schellen": German terms in both languages).
 * @param {string} suit
 * @param {GameContext} ctx
 * @returns {string}
 */
function suitName(suit, ctx) {
  const key = `suit.bayerisches-tarock.${suit}`;
  return ctx.has(key) ? ctx.t(key) : suit;
}

/**
 * Under a seat: its last call while the Reizen runs ("Hand", "Halten", "Weiter"), and the
 * doubling words it said (Kontra, Re, …) from the Kontra round on.
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
    badges.push(call === "pass" || call === "hold" ? ctx.action(call) : bidName(call, ctx));
  }
  const kontra = view.kontra;
  if (kontra && Array.isArray(kontra.calls)) {
    for (const [who, text] of kontra.calls) {
      if (who === seat && DOUBLINGS.includes(String(text).split(" ")[0])) badges.push(ctx.action(text));
    }
  }
  return badges;
}

/**
 * The lines of the middle: during the Reizen the highest bid and the Augen it needs,
 * then the game's target and its trump, the Stock (covered; taken or laid away for the
 * declarer; open at the end) and the doubling reached.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {{text: string, cards?: string[], hidden?: boolean}[]}
 */
export function infoLines(view, name, ctx) {
  const { t } = ctx;
  const lines = [];
  if (view.phase === "auction") {
    const high = view.high_bid;
    const wishes = view.reizen === false; // the variant without Reizen: one wish each
    if (!high) {
      lines.push({ text: t(wishes ? "info.bayerisches-tarock.no_wish" : "info.bayerisches-tarock.no_bid") });
    } else {
      // the view's declarer is the seat holding the highest bid while the Reizen runs
      const holder = typeof view.declarer === "number" ? name(view.declarer) : "?";
      const params = { bid: bidWithTarget(high, ctx), player: holder };
      lines.push({ text: t(wishes ? "info.bayerisches-tarock.high_wish" : "info.bayerisches-tarock.high_bid", params) });
    }
  }
  if (view.phase === "game" && view.high_bid && view.declarer !== null && view.declarer !== undefined) {
    const params = { player: name(view.declarer), bid: bidWithTarget(view.high_bid, ctx) };
    lines.push({ text: t("info.bayerisches-tarock.won_bid", params) });
  }
  if (view.phase !== "auction" && view.phase !== "finished" && view.declarer !== null && view.declarer !== undefined) {
    if (view.target) lines.push({ text: t("info.bayerisches-tarock.target", { target: view.target }) });
    else if (view.contract === "durch") lines.push({ text: t("info.bayerisches-tarock.durch") });
    else if (view.contract === "bettel") lines.push({ text: t("info.bayerisches-tarock.bettel") });
  }
  if (view.trump) lines.push({ text: t("info.bayerisches-tarock.trump", { suit: suitName(view.trump, ctx) }) });
  else if (view.contract === "bettel") lines.push({ text: t("info.bayerisches-tarock.no_trump") });
  if (Array.isArray(view.stock) && view.stock.length && view.phase !== "finished") {
    const key = view.stock_taken ? "info.bayerisches-tarock.stock_taken" : "info.bayerisches-tarock.stock";
    lines.push({ text: t(key), cards: view.stock });
  } else if (!view.stock_taken && view.phase !== "finished" && view.stock_size) {
    const key = view.hand_game ? "info.bayerisches-tarock.stock_hand" : "info.bayerisches-tarock.stock_hidden";
    lines.push({ text: t(key, { n: view.stock_size }), hidden: true });
  }
  if (Array.isArray(view.discards) && view.discards.length && view.phase !== "finished") {
    lines.push({ text: t("info.bayerisches-tarock.discards"), cards: view.discards });
  } else if (view.discard_count && view.phase !== "finished" && view.seat !== view.declarer) {
    // hidden: the replay lists the discards themselves
    lines.push({ text: t("info.bayerisches-tarock.discarded", { n: view.discard_count }), hidden: true });
  }
  return lines;
}

/**
 * The result's head: who won or lost which game ("Anna gewinnt: Hand"); a deal everybody
 * passed is titled by its contract (thrown in).
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultTitle(view, name, ctx) {
  const o = view.outcome;
  if (o.declarer === null || o.declarer === undefined) return ctx.contract(o.contract);
  const key = o.declarer_won ? "result.bayerisches-tarock.title_won" : "result.bayerisches-tarock.title_lost";
  return ctx.t(key, { player: name(o.declarer), contract: ctx.contract(o.contract) });
}

/**
 * Before the coded lines: the Augen of both sides against the target, the trump, the
 * Stock (and what the declarer laid away).
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function resultLines(view, _name, ctx) {
  const o = view.outcome;
  const { t } = ctx;
  const lines = [];
  if (o.declarer === null || o.declarer === undefined) return lines;
  if (o.augen) {
    const params = { declarer: o.augen.declarer, opponents: o.augen.opponents, target: o.target ?? "" };
    lines.push(t(o.target ? "result.bayerisches-tarock.augen_target" : "result.bayerisches-tarock.augen", params));
  }
  if (o.trump) lines.push(t("info.bayerisches-tarock.trump", { suit: suitName(o.trump, ctx) }));
  if (typeof o.tricks_taken === "number") lines.push(t("result.bayerisches-tarock.tricks", { n: o.tricks_taken }));
  return lines;
}

/** The Reizen, the game, the trump and the doubling round are calls in the replay. */
export function isCall(/** @type {string} */ action) {
  const verb = action.split(" ")[0];
  return ["bid", "pass", "hold", "game", "trump", "gut", ...DOUBLINGS].includes(verb);
}

/**
 * The game's choices and the trump stand in labelled rows of their own; the bids fold
 * away once there are more than three (the whole ladder after "Ich spiele", so that the
 * hand stays in sight on a phone), and so do the games of Selbststeigern.
 */
export const actionGroups = {
  bid: { fold: 3 },
  game: { label: "group.game", fold: 4 },
  trump: { label: "group.trump" },
};

/**
 * What the player to move is asked: in the Reizen the bid to beat and its target, the
 * game to choose, how many cards are still to be laid away, the trump to name.
 * @param {any} view
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function turnText(view, ctx) {
  const { t } = ctx;
  if (view.phase === "auction") {
    const legal = view.legal_actions || [];
    const high = view.high_bid;
    if (view.reizen === false) {
      if (!high) return t("turn.bayerisches-tarock.wish");
      return t("turn.bayerisches-tarock.wish_over", { bid: bidWithTarget(high, ctx) });
    }
    if (!high) return t("turn.bayerisches-tarock.open");
    const params = { bid: bidWithTarget(high, ctx) };
    if (legal.includes("hold")) return t("turn.bayerisches-tarock.hold", params);
    return t("turn.bayerisches-tarock.raise", params);
  }
  if (view.phase === "game") return t("turn.bayerisches-tarock.game");
  if (view.phase === "discard") {
    const n = 3 - (view.discard_count || 0);
    if (n > 0) return t(n === 1 ? "turn.bayerisches-tarock.discard.one" : "turn.bayerisches-tarock.discard", { n });
  }
  if (view.phase === "trump") return t("turn.bayerisches-tarock.trump");
  if (view.phase === "kontra") {
    // the word this player may say now (Kontra for an opponent, Re for the declarer …)
    const call = (view.legal_actions || []).find((/** @type {string} */ a) => a !== "gut");
    if (!call) return t("turn.bayerisches-tarock.kontra_gut");
    const word = call.split(" ")[0];
    return t("turn.bayerisches-tarock.kontra_word", { word: word[0].toUpperCase() + word.slice(1) });
  }
  return null;
}

/**
 * The replay's info box: in a Hand game (Durch, Bettel) the unseen Stock counts for the
 * declarer (the calls, the target and the trump stand in the lines before).
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function replayLines(view, _name, ctx) {
  if (view.hand_game && view.contract !== "bettel") return [ctx.t("info.bayerisches-tarock.stock_counts")];
  return [];
}
