/**
 * What is Dreierles' own at the table and in the replay (the interface is documented in
 * ../game-info.js): the bids under the seats, the knocks and the announced Pfeife, the
 * lines about the Blinder, and the declarer's card points and premiums in the result (in
 * a Räuber: every player's card points, the Blinder's and who loses). The words are the
 * rules text's: the Blinder (not a talon), the Stieß and the Pfeife (`card.dreierles.…`).
 */

/**
 * @typedef {import("../game-info.js").GameContext} GameContext
 */

/**
 * The last bid of a seat during the auction, its knocks, the announced Pfeife.
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
    badges.push(call === "pass" ? ctx.t("action.pass") : ctx.contract(call));
  }
  const knocks = (view.knocks || []).filter((/** @type {number} */ s) => s === seat).length;
  if (knocks) badges.push(ctx.t("table.badge.knocked"));
  if (view.pfeife_announced && view.declarer === seat) badges.push(ctx.t("info.dreierles.badge.pfeife"));
  return badges;
}

/**
 * The Blinder (taken, the rest, still covered), the open discards, exposed cards, the Pfeife.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {{text: string, cards?: string[], hidden?: boolean}[]}
 */
export function infoLines(view, _name, ctx) {
  const lines = [];
  if (view.talon_taken && view.talon_taken.length) {
    lines.push({ text: ctx.t("info.dreierles.blind_taken"), cards: view.talon_taken });
  }
  if (view.talon_rest && view.talon_rest.length) {
    lines.push({ text: ctx.t("info.dreierles.blind_rest"), cards: view.talon_rest, hidden: true });
  } else if (view.phase === "auction") {
    lines.push({ text: ctx.t("info.dreierles.blind_hidden", { n: view.talon_size }), hidden: true });
  }
  if (view.open_discards && view.open_discards.length) {
    lines.push({ text: ctx.t("table.info.open_discards"), cards: view.open_discards });
  }
  if (view.exposed && view.exposed.length) {
    lines.push({ text: ctx.t("table.info.exposed"), cards: view.exposed });
  }
  if (view.pfeife_announced) lines.push({ text: ctx.t("info.dreierles.pfeife_announced") });
  return lines;
}

/**
 * A deal without a declarer is titled by its contract (the Räuber).
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
 * The card points of both sides, the knocks, the premiums and the game points, for an
 * outcome without coded `lines` (those say all of it, translated by the core).
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function resultLines(view, name, ctx) {
  const o = view.outcome;
  const { t, has } = ctx;
  const lines = [];
  if (Array.isArray(o.lines) && o.lines.length) return lines;
  if (o.declarer !== null && o.declarer !== undefined && o.card_points) {
    lines.push(t("table.result.card_points", { declarer: o.card_points.declarer, opponents: o.card_points.opponents }));
  }
  if (o.card_points && Array.isArray(o.card_points.seats)) {
    // the Räuber: everybody plays for themselves, so each player's card points
    o.card_points.seats.forEach((/** @type {string} */ points, /** @type {number} */ seat) => {
      lines.push(t("result.dreierles.seat_points", { player: name(seat), points }));
    });
    if (o.card_points.blind !== undefined) {
      lines.push(t("result.dreierles.blind_points", { points: o.card_points.blind }));
    }
    if (Array.isArray(o.losers) && o.losers.length) {
      const players = o.losers.map((/** @type {number} */ s) => name(s)).join(", ");
      lines.push(t("result.dreierles.losers", { players }));
    }
  }
  if (o.knocks) lines.push(t("table.result.knocks", { n: o.knocks }));
  for (const p of o.premiums || []) {
    const own = `result.dreierles.premium.${p.name}`;
    const premium = has(own) ? t(own) : p.name;
    if (p.seat !== undefined) {
      lines.push(t("table.result.premium_held", { premium, player: name(p.seat), points: p.points }));
      continue;
    }
    lines.push(t(premiumKey(p.side === "declarer", p.won), { premium, points: p.points }));
  }
  if (o.game_points !== undefined) lines.push(t("table.result.game_points", { points: o.game_points }));
  return lines;
}

/**
 * The text of a side's premium: "Pfeife: vom Alleinspieler gewonnen (2)".
 * @param {boolean} declarer the declarer's side (else the opponents')
 * @param {boolean} won
 * @returns {string}
 */
function premiumKey(declarer, won) {
  if (declarer) return won ? "table.result.premium_won_declarer" : "table.result.premium_lost_declarer";
  return won ? "table.result.premium_won_opponents" : "table.result.premium_lost_opponents";
}

/**
 * In a Räuber, the card points of the cards laid aside, for the replay's info box (the
 * step's `party_points`: `{seats, blind}`; a game with a declarer has the core's line).
 * @param {any} party
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function replayParty(party, _name, ctx) {
  return party.blind !== undefined && party.declarer === undefined
    ? ctx.t("archive.replay.dreierles.party_blind", party)
    : null;
}

/**
 * Who knocked, for the replay's info box.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function replayLines(view, name, ctx) {
  if (!view.knocks || !view.knocks.length) return [];
  return [ctx.t("archive.replay.knocks", { players: view.knocks.map(name).join(", ") })];
}

/** The auction's calls are listed in the replay. */
export function isCall(/** @type {string} */ action) {
  return ["bid", "pass"].includes(action.split(" ")[0]);
}

/**
 * What the player to move is asked to do where the phase's text is not enough: how many
 * cards are still to be laid away (and which may not), "Fertig" alone once the Pfeife
 * lies open or without it in the hand.
 * @param {any} view
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function turnText(view, ctx) {
  if (view.phase === "discard") {
    const n = (view.talon_taken || []).length - (view.discard_count || 0);
    if (n > 0) return ctx.t("turn.dreierles.discard", { n });
  }
  if (view.phase === "declare") {
    const legal = view.legal_actions || [];
    if (view.pfeife_announced) return ctx.t("turn.dreierles.declare_announced");
    if (!legal.some((/** @type {string} */ a) => a.startsWith("announce "))) {
      return ctx.t("turn.dreierles.declare_fertig");
    }
  }
  return null;
}

/**
 * The colours of the suits, for the hand sort "red and black alternating" (hand-sort.js;
 * which cards are trumps comes from the view's `hand_groups`: the tarocks, in a
 * Farbenspiel a group of their own).
 */
export const suitColours = { H: "red", Ka: "red", P: "black", Kr: "black", T: "trump" };
