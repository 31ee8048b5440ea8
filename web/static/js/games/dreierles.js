/**
 * What is Dreierles' own at the table and in the replay (the interface is documented in
 * ../game-info.js): the bids under the seats, the knocks and the announced Pfeife, the
 * talon lines, and the declarer's card points and premiums in the result (in a Räuber:
 * every player's card points, the talon's and who loses).
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
  if (view.pfeife_announced && view.declarer === seat) badges.push(ctx.t("table.badge.pfeife"));
  return badges;
}

/**
 * The talon (taken, the rest, still covered), the open discards, exposed cards, the Pfeife.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {{text: string, cards?: string[], hidden?: boolean}[]}
 */
export function infoLines(view, _name, ctx) {
  const lines = [];
  if (view.talon_taken && view.talon_taken.length) {
    lines.push({ text: ctx.t("table.info.talon_taken"), cards: view.talon_taken });
  }
  if (view.talon_rest && view.talon_rest.length) {
    lines.push({ text: ctx.t("table.info.talon_rest"), cards: view.talon_rest, hidden: true });
  } else if (view.phase === "auction") {
    lines.push({ text: ctx.t("table.info.talon_hidden", { n: view.talon_size }), hidden: true });
  }
  if (view.open_discards && view.open_discards.length) {
    lines.push({ text: ctx.t("table.info.open_discards"), cards: view.open_discards });
  }
  if (view.exposed && view.exposed.length) {
    lines.push({ text: ctx.t("table.info.exposed"), cards: view.exposed });
  }
  if (view.pfeife_announced) lines.push({ text: ctx.t("table.info.pfeife_announced") });
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
    const premium = has("premium." + p.name) ? t("premium." + p.name) : p.name;
    if (p.seat !== undefined) {
      lines.push(t("table.result.premium_held", { premium, player: name(p.seat), points: p.points }));
      continue;
    }
    const side = t(p.side === "declarer" ? "table.result.side_declarer" : "table.result.side_opponents");
    const key = p.won ? "table.result.premium_won" : "table.result.premium_lost";
    lines.push(t(key, { premium, side, points: p.points }));
  }
  if (o.game_points !== undefined) lines.push(t("table.result.game_points", { points: o.game_points }));
  return lines;
}

/** The auction's calls are listed in the replay. */
export function isCall(/** @type {string} */ action) {
  return ["bid", "pass"].includes(action.split(" ")[0]);
}

/**
 * What the player to move is asked to do where the phase's text is not enough: how many
 * cards are still to be laid away (and which may not), "fertig" alone without a Pfeife.
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
    if (!legal.some((/** @type {string} */ a) => a.startsWith("announce "))) {
      return ctx.t("turn.dreierles.declare_fertig");
    }
  }
  return null;
}
