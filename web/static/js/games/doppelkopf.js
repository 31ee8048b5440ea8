/**
 * What is Doppelkopf's own at the table, in the replay and on its sheet (the interface is
 * documented in ../game-info.js): the Vorbehalt, party, knocks and announcements under the
 * seats, the Hochzeit and Armut lines, the folded Solo and Hochzeit buttons, the party's
 * result, the Augen and knocks in the replay, the owed solos, the Vorführung and the
 * Kurzer on the sheet, and the Depot of sheets stored before it was a pot.
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
  if (view.schweinchen === seat) badges.push(ctx.t("info.doppelkopf.badge.schweinchen"));
  if (view.partner === seat && view.contract === "hochzeit") badges.push(ctx.t("info.doppelkopf.badge.partner"));
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
    lines.push({ text: t("info.doppelkopf.hochzeit", { kind: ctx.action("hochzeit " + view.hochzeit) }) });
  }
  if (view.armut) {
    const pushed = view.armut.pushed;
    if (Array.isArray(pushed) && pushed.length) {
      lines.push({ text: t("info.doppelkopf.armut_pushed"), cards: pushed });
    } else if (typeof pushed === "number" && pushed) {
      lines.push({ text: t("info.doppelkopf.armut_count", { n: pushed }) });
    }
    const returned = view.armut.returned;
    if (Array.isArray(returned) && returned.length) {
      lines.push({ text: t("info.doppelkopf.armut_returned"), cards: returned });
    }
  }
  if (view.thrown_in) lines.push({ text: t("table.info.thrown_in") });
  lines.push(...owedSolo(view, _name, ctx));
  return lines;
}

/**
 * At the Vorbehalt, the player's own owed Pflichtsolo (doppelkopf.txt "Pflichtsolo": the
 * others must play a won solo too, when they like, unless somebody falls below 6 points:
 * then the Vorführung plays the owed solos, as at the evening's end; the evening's sheet
 * lists the obligations, which everybody may see there).
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {{text: string}[]}
 */
function owedSolo(view, name, ctx) {
  if (view.phase !== "vorbehalt" || typeof view.seat !== "number" || !ctx.sheet) return [];
  const sheet = ctx.sheet();
  const owed = sheet && sheet.obligations ? sheet.obligations[name(view.seat)] || [] : [];
  if (!owed.length) return [];
  const solos = owed.map((/** @type {string} */ solo) => ctx.contract(solo)).join(", ");
  const below = Number(sheet.vorfuehrung_below) || 0;
  return [
    { text: ctx.t("table.doppelkopf.owes_solo", { solos, n: owed.length }) },
    { text: below ? ctx.t("table.doppelkopf.owes_solo_when", { below }) : ctx.t("table.doppelkopf.owes_solo_end") },
  ];
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
  if (o.augen) lines.push(ctx.t("result.doppelkopf.augen", { re: o.augen.re, kontra: o.augen.kontra }));
  if (o.value !== undefined) lines.push(ctx.t("table.result.value", { value: o.value }));
  return lines;
}

/**
 * A result line (docs/record-format.md): its text with the party by its name ("Extrapunkte
 * Kontra"), wrapped in `result.doppelkopf.announced` when `announced`, then the points it
 * adds ("unter 90 (angesagt): 2", a loss with the minus sign: "Extrapunkte Re: −3").
 * @param {any} line
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function resultLine(line, ctx) {
  const key = `result.${ctx.game}.${line.code}`;
  if (!ctx.has(key)) return null;
  const params = typeof line.party === "string" ? { ...line, party: PARTY[line.party] || line.party } : line;
  let text = ctx.t(key, params);
  if (line.announced) text = ctx.t(`result.${ctx.game}.announced`, { line: text });
  return line.points === undefined ? text : ctx.t(`result.${ctx.game}.line_points`, { line: text, points: line.points });
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
 * The Augen of both parties so far, for the replay's info box (the step's `party_points`:
 * `{re, kontra}`).
 * @param {any} party
 * @param {(seat: number) => string} _name
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function replayParty(party, _name, ctx) {
  return party.re !== undefined ? ctx.t("archive.replay.doppelkopf.party_points", party) : null;
}

/**
 * Who knocked and the announcements said so far, for the replay's info box.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function replayLines(view, name, ctx) {
  const lines = [];
  if (view.knocks && view.knocks.length) {
    lines.push(ctx.t("archive.replay.knocks", { players: view.knocks.map(name).join(", ") }));
  }
  if (view.announcements && view.announcements.length) {
    const said = view.announcements.map((/** @type {any} */ a) => `${name(a.seat)}: ${ctx.action("announce " + a.level)}`);
    lines.push(ctx.t("archive.replay.announcements", { list: said.join(", ") }));
  }
  return lines;
}

/**
 * A sheet stored before the Depot was a pot of the ledger: its `depot_cents` (what each
 * put in) as the pot `depot`.
 * @param {any} sheet
 * @returns {any}
 */
export function storedSheet(sheet) {
  const pots = sheet.pots && Object.keys(sheet.pots).length ? sheet.pots : null;
  if (pots || !sheet.depot_cents) return sheet;
  return { ...sheet, pots: { depot: sheet.depot_cents } };
}

/**
 * The marks of a sheet's row beside its note: an owed solo ("(Pflicht)"), a Kurzer.
 * @param {any} row
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function sheetMarks(row, ctx) {
  const marks = [];
  if (row.obligatory) marks.push(ctx.t("sheet.doppelkopf.obligatory_mark"));
  if (row.kurzer) marks.push(ctx.t("sheet.doppelkopf.kurzer"));
  return marks;
}

/**
 * The notes below the sheet: a running Vorführung; for a sheet stored before it stated
 * its lines (whose `owes_solo` lines say the owed solos), each player's owed solos.
 * @param {any} sheet
 * @param {GameContext} ctx
 * @returns {string[]}
 */
export function sheetNotes(sheet, ctx) {
  const notes = [];
  const obligations = sheet.obligations || {};
  for (const player of sheet.lines && sheet.lines.length ? [] : sheet.players || []) {
    const owed = obligations[player] || [];
    if (owed.length) notes.push(ctx.t("sheet.doppelkopf.pflichtsolo", { player, n: owed.length }));
  }
  if (sheet.vorfuehrung) notes.push(ctx.t("sheet.doppelkopf.vorfuehrung"));
  return notes;
}

/**
 * A line of the sheet that names a solo by its code ("owes_solo": "Herzsolo", not "herz").
 * @param {any} line
 * @param {GameContext} ctx
 * @returns {string | null}
 */
export function sheetLine(line, ctx) {
  const key = `sheet.line.${ctx.game}.${line.code}`;
  if (typeof line.solo !== "string" || !ctx.has(key)) return null;
  return ctx.t(key, { ...line, solo: ctx.contract(line.solo) });
}

/**
 * The colours of the suits, for the hand sort "red and black alternating" (hand-sort.js;
 * which cards are trumps comes from the view's `hand_groups`).
 */
export const suitColours = { C: "black", S: "black", H: "red", D: "red" };
