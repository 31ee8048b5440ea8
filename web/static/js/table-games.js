/**
 * What differs between the games at the table, as text: how a seat's calls read, the
 * lines about the contract and the talon, the labels of the buttons and the deal's
 * result. Everything here only *describes* the server's view; no rule is decided here.
 */

import { cardName } from "./cards.js";
import { has, lang, t } from "./i18n.js";

/** The verbs whose argument is a card: tapping a card in the hand sends them. */
export const CARD_VERBS = ["play", "discard", "push", "return"];

/**
 * A card code without its copy number: "H10.2" → "H10" (the engine's actions name kinds).
 * @param {string} code
 * @returns {string}
 */
export function kindOf(code) {
  return code.replace(/\.\d+$/, "");
}

/**
 * The button label of a non-card action: "bid zweier" → "Zweier" (from the catalogue's
 * `action.bid_zweier`), falling back to the canonical text.
 * @param {string} action
 * @returns {string}
 */
export function actionLabel(action) {
  const key = "action." + action.replace(/\s+/g, "_");
  return has(key) ? t(key) : action;
}

/**
 * How the button groups of the current legal actions are titled ("Solo", "Hochzeit"…).
 * @param {string} action
 * @returns {string} a group key ("" for the main row)
 */
export function actionGroup(action) {
  const verb = action.split(" ")[0];
  return ["solo", "hochzeit", "announce"].includes(verb) ? verb : "";
}

/**
 * The name of a card in the page's language.
 * @param {string} code
 * @param {"tarock"|"doppelkopf"|"german"} [pack] needed for the German pack (cards.js)
 * @returns {string}
 */
export function nameOf(code, pack) {
  return cardName(code, lang, pack);
}

/**
 * A contract's name: "Zweier", "Räuber", "Kreuzsolo", "Normalspiel".
 * @param {string} game
 * @param {string | null} contract
 * @returns {string}
 */
export function contractLabel(game, contract) {
  if (!contract) return "";
  const key = `contract.${game}.${contract}`;
  return has(key) ? t(key) : contract;
}

/**
 * Short texts under a seat's name: its bid, its knock, its party, its announcements.
 * @param {any} view the seat's view from the server
 * @param {number} seat
 * @returns {string[]}
 */
export function seatBadges(view, seat) {
  const badges = [];
  if (view.declarer === seat && view.contract) {
    badges.push(t("table.badge.declarer", { contract: contractLabel(view.game, view.contract) }));
  }
  if (view.game === "dreierles") {
    const calls = (view.calls || []).filter((/** @type {any} */ c) => c.seat === seat);
    if (view.phase === "auction" && calls.length) {
      const call = calls[calls.length - 1].call;
      badges.push(call === "pass" ? t("action.pass") : contractLabel("dreierles", call));
    }
    const knocks = (view.knocks || []).filter((/** @type {number} */ s) => s === seat).length;
    if (knocks) badges.push(t("table.badge.knocked"));
    if (view.pfeife_announced && view.declarer === seat) badges.push(t("table.badge.pfeife"));
  } else if (view.game === "doppelkopf") {
    const reservation = (view.reservations || [])[seat];
    if (view.phase === "vorbehalt" && reservation) badges.push(actionLabel(reservation));
    const party = (view.parties || [])[seat];
    if (party) badges.push(party === "re" ? "Re" : "Kontra");
    if ((view.knocks || []).includes(seat)) badges.push(t("table.badge.knocked"));
    for (const a of view.announcements || []) {
      if (a.seat === seat) badges.push(actionLabel("announce " + a.level));
    }
    if (view.schweinchen === seat) badges.push(t("table.badge.schweinchen"));
    if (view.partner === seat && view.contract === "hochzeit") badges.push(t("table.badge.partner"));
  }
  return badges;
}

/**
 * Lines about the deal for the middle of the table: contract, talon, Hochzeit, Armut.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @returns {{text: string, cards?: string[]}[]}
 */
export function infoLines(view, name) {
  const lines = [];
  if (view.contract && view.declarer !== null && view.declarer !== undefined) {
    const key = view.factor ? "table.info.contract_factor" : "table.info.contract";
    lines.push({
      text: t(key, {
        contract: contractLabel(view.game, view.contract),
        player: name(view.declarer),
        factor: view.factor,
      }),
    });
  } else if (view.contract) {
    lines.push({ text: contractLabel(view.game, view.contract) });
  }
  if (view.game === "dreierles") {
    if (view.talon_taken && view.talon_taken.length) {
      lines.push({ text: t("table.info.talon_taken"), cards: view.talon_taken });
    }
    if (view.talon_rest && view.talon_rest.length) {
      lines.push({ text: t("table.info.talon_rest"), cards: view.talon_rest });
    } else if (view.phase === "auction") {
      lines.push({ text: t("table.info.talon_hidden", { n: view.talon_size }) });
    }
    if (view.open_discards && view.open_discards.length) {
      lines.push({ text: t("table.info.open_discards"), cards: view.open_discards });
    }
    if (view.exposed && view.exposed.length) {
      lines.push({ text: t("table.info.exposed"), cards: view.exposed });
    }
    if (view.pfeife_announced) lines.push({ text: t("table.info.pfeife_announced") });
  } else if (view.game === "doppelkopf") {
    if (view.hochzeit) {
      lines.push({ text: t("table.info.hochzeit", { kind: actionLabel("hochzeit " + view.hochzeit) }) });
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
  }
  return lines;
}

/**
 * What the table is waiting for, as one sentence.
 * @param {any} view
 * @param {(seat: number) => string} name
 * @returns {{text: string, mine: boolean}}
 */
export function turnText(view, name) {
  if (view.phase === "finished") return { text: t("table.turn.finished"), mine: false };
  if (view.to_move === null || view.to_move === undefined) return { text: "", mine: false };
  if (view.seat === view.to_move) {
    const key = `table.turn.you.${view.phase}`;
    return { text: has(key) ? t(key) : t("table.turn.you"), mine: true };
  }
  return { text: t("table.turn.other", { player: name(view.to_move) }), mine: false };
}

/**
 * The deal's result as rows of text for the result panel.
 * @param {any} view the finished view (with `outcome`)
 * @param {(seat: number) => string} name
 * @returns {{title: string, lines: string[], settlement: {player: string, points: number}[]}}
 */
export function outcomeSummary(view, name) {
  const o = view.outcome;
  const settlement = (o.settlement || []).map((/** @type {number} */ points, /** @type {number} */ seat) => ({
    player: name(seat),
    points,
  }));
  const lines = [];
  let title = t("table.result");
  if (view.game === "dreierles") {
    const contract = contractLabel("dreierles", o.contract);
    if (o.declarer === null || o.declarer === undefined) {
      title = contract;
    } else {
      title = t(o.declarer_won ? "table.result.won" : "table.result.lost", {
        player: name(o.declarer),
        contract,
      });
      lines.push(
        t("table.result.card_points", {
          declarer: o.card_points.declarer,
          opponents: o.card_points.opponents,
        }),
      );
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
  } else if (view.game === "doppelkopf") {
    const contract = view.contract_title || contractLabel("doppelkopf", o.contract);
    const winner = o.winner === "re" ? "Re" : o.winner === "kontra" ? "Kontra" : null;
    title = winner ? t("table.result.party_won", { party: winner, contract }) : contract;
    if (o.augen) lines.push(t("table.result.augen", { re: o.augen.re, kontra: o.augen.kontra }));
    for (const [label, value] of o.lines || []) lines.push(`${label}: ${value}`);
    if (o.value !== undefined) lines.push(t("table.result.value", { value: o.value }));
  }
  return { title, lines, settlement };
}
