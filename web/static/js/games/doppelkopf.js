/**
 * What is Doppelkopf's own at the table and in the replay (the interface is documented in
 * ../game-info.js): the Vorbehalt, party, knocks and announcements under the seats, the
 * Hochzeit and Armut lines, the folded Solo and Hochzeit buttons, the party's result.
 */

/**
 * @typedef {import("../game-info.js").GameContext} GameContext
 */

/** The button groups: the long lists of Vorbehalte fold away so that the hand stays in sight. */
export const actionGroups = {
  solo: { label: "table.group.solo", fold: true },
  hochzeit: { label: "table.group.hochzeit", fold: true },
  announce: { label: "table.group.announce", fold: false },
};

/** The parties by their own names (game terms, the same in both languages). */
const PARTY = /** @type {Record<string, string>} */ ({ re: "Re", kontra: "Kontra" });

/**
 * The Vorbehalt said, the party, knocks, announcements, Schweinchen, the Hochzeit's partner.
 * @param {any} view
 * @param {number} seat
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function seatBadges(view, seat, ctx) {
  const badges = [];
  const reservation = (view.reservations || [])[seat];
  if (view.phase === "vorbehalt" && reservation) badges.push(ctx.action(reservation));
  const party = (view.parties || [])[seat];
  if (party) badges.push(PARTY[party] || party);
  if ((view.knocks || []).includes(seat)) badges.push(ctx.t("table.badge.knocked"));
  for (const a of view.announcements || []) {
    if (a.seat === seat) badges.push(ctx.action("announce " + a.level));
  }
  if (view.schweinchen === seat) badges.push(ctx.t("table.badge.schweinchen"));
  if (view.partner === seat && view.contract === "hochzeit") badges.push(ctx.t("table.badge.partner"));
  return badges;
}

/**
 * The Hochzeit's kind, the cards of an Armut pushed and returned, a deal thrown in.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {{text: string, cards?: string[]}[]}
 */
export function infoLines(view, _name, ctx) {
  const { t } = ctx;
  const lines = [];
  if (view.hochzeit) {
    lines.push({ text: t("table.info.hochzeit", { kind: ctx.action("hochzeit " + view.hochzeit) }) });
  }
  if (view.armut) {
    const pushed = view.armut.pushed;
    if (Array.isArray(pushed) && pushed.length) {
      lines.push({ text: t("table.info.armut_pushed"), cards: pushed });
    } else if (typeof pushed === "number" && pushed) {
      lines.push({ text: t("table.info.armut_count", { n: pushed }) });
    }
    const returned = view.armut.returned;
    if (Array.isArray(returned) && returned.length) {
      lines.push({ text: t("table.info.armut_returned"), cards: returned });
    }
  }
  if (view.thrown_in) lines.push({ text: t("table.info.thrown_in") });
  return lines;
}

/**
 * "Re gewinnt (Normalspiel)": the winning party and the contract.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultTitle(view, _name, ctx) {
  const o = view.outcome;
  const contract = ctx.contract(o.contract);
  const party = PARTY[o.winner];
  return party ? ctx.t("table.result.party_won", { party, contract }) : contract || null;
}

/**
 * The Augen of both parties and the deal's value.
 * @param {any} view
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function resultLines(view, _name, ctx) {
  const o = view.outcome;
  const lines = [];
  if (o.augen) lines.push(ctx.t("table.result.augen", { re: o.augen.re, kontra: o.augen.kontra }));
  if (o.value !== undefined) lines.push(ctx.t("table.result.value", { value: o.value }));
  return lines;
}

/**
 * A result line (docs/record-format.md): its text, wrapped in `result.doppelkopf.announced`
 * when `announced`, then the points it adds ("unter 90 (angesagt): 2").
 * @param {any} line
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultLine(line, ctx) {
  const key = `result.${ctx.game}.${line.code}`;
  if (!ctx.has(key)) return null;
  let text = ctx.t(key, line);
  if (line.announced) text = ctx.t(`result.${ctx.game}.announced`, { line: text });
  return line.points === undefined ? text : `${text}: ${line.points}`;
}

/** The Vorbehalte are listed in the replay as calls. */
export function isCall(/** @type {string} */ action) {
  return ["gesund", "solo", "hochzeit", "armut", "schmeissen"].includes(action.split(" ")[0]);
}

/**
 * A replay step's view with every seat's true party (the table learns them only later).
 * @param {any} view
 * @param {any} step
 * @returns {any}
 */
export function replayView(view, step) {
  const extra = step.replay || {};
  if (Array.isArray(extra.parties) && extra.parties.some((/** @type {any} */ p) => p)) {
    return { ...view, parties: extra.parties };
  }
  return view;
}

/**
 * The announcements said so far, for the replay's info box.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function replayLines(view, name, ctx) {
  if (!view.announcements || !view.announcements.length) return [];
  const said = view.announcements.map((/** @type {any} */ a) => `${name(a.seat)}: ${ctx.action("announce " + a.level)}`);
  return [ctx.t("archive.replay.announcements", { list: said.join(", ") })];
}
