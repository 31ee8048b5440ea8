/**
 * Requests around the match, shown and answered at the table (docs/protocol.md, "Requests
 * around the match"): while the match runs, "Anna möchte die Partie beenden – Zustimmen /
 * Ablehnen"; after its last deal, "Revanche? Anna ist dabei – Ich bin dabei". The answers
 * go to the rooms API, which checks them, stores them and has the table tell everybody;
 * the banner follows the table's `requests` (snapshot and message), never its own taps.
 */

import { api } from "./api.js";
import { el } from "./forms.js";
import { t } from "./i18n.js";

/** @typedef {{rematch: {by: number, accepted: number[]} | null, end_votes: number[]}} Requests */

/** @type {Requests} */
let requests = { rematch: null, end_votes: [] };
/** a request to the API under way: the buttons wait for it */
let busy = false;

/**
 * Take the `requests` of a snapshot or a `requests` message.
 * @param {any} given
 */
export function takeRequests(given) {
  requests = {
    rematch: given && given.rematch ? given.rematch : null,
    end_votes: (given && Array.isArray(given.end_votes) && given.end_votes) || [],
  };
}

/**
 * The names of `ids` among the match's players, joined: "Anna", "Anna und Bernd".
 * @param {any} match
 * @param {number[]} ids
 * @returns {string}
 */
function names(match, ids) {
  const list = ids.map((id) => {
    const index = match.player_ids.indexOf(id);
    return index >= 0 ? match.players[index] : "?";
  });
  if (list.length < 2) return list.join("");
  return t("requests.and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

/**
 * A button that sends one answer to the rooms API; a refusal is said by `notice`.
 * @param {string} label
 * @param {string} kind
 * @param {() => Promise<unknown>} call
 * @param {(text: string) => void} notice
 * @param {() => void} rerender
 * @returns {HTMLButtonElement}
 */
function answer(label, kind, call, notice, rerender) {
  const button = /** @type {HTMLButtonElement} */ (el("button", `tool small-tool request-${kind}`, label));
  button.type = "button";
  button.disabled = busy;
  button.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    rerender();
    try {
      await call();
    } catch (error) {
      notice(error instanceof Error ? error.message : String(error));
    } finally {
      busy = false;
      rerender();
    }
  });
  return button;
}

/**
 * Show the open requests in `box` for the user `userId` at the table of room `roomId`.
 * @param {HTMLElement} box
 * @param {any} snapshot the table's latest snapshot (its match and who we are)
 * @param {number} roomId
 * @param {number} userId
 * @param {(text: string) => void} notice
 */
export function renderRequests(box, snapshot, roomId, userId, notice) {
  latest = { box, snapshot, roomId, userId, notice };
  draw();
}

/** @type {{box: HTMLElement, snapshot: any, roomId: number, userId: number, notice: (text: string) => void} | null} */
let latest = null;

/** Draw the banner from the table's latest snapshot (also after an answer came back). */
function draw() {
  if (!latest) return;
  const { box, snapshot, roomId, userId, notice } = latest;
  const rerender = draw;
  const match = snapshot && snapshot.match;
  box.replaceChildren();
  if (!match) {
    box.hidden = true;
    return;
  }
  const player = match.player_ids.includes(userId);
  const line = el("p", "request-text");
  const buttons = el("div", "request-buttons");
  const votes = requests.end_votes;
  if (!match.finished && votes.length) {
    line.textContent = t(votes.length === 1 ? "requests.end_one" : "requests.end_many", {
      players: names(match, votes),
    });
    if (player && votes.includes(userId)) {
      line.textContent += " " + t("requests.end_agreed", { n: votes.length, of: match.player_ids.length });
      buttons.append(answer(t("requests.withdraw"), "withdraw",
        () => api("DELETE", `/api/rooms/${roomId}/end`), notice, rerender));
    } else if (player) {
      buttons.append(
        answer(t("requests.agree"), "agree", () => api("POST", `/api/rooms/${roomId}/end`), notice, rerender),
        answer(t("requests.decline"), "decline",
          () => api("POST", `/api/rooms/${roomId}/end/decline`), notice, rerender),
      );
    }
  } else if (match.finished && (requests.rematch || player)) {
    const offer = requests.rematch;
    const accepted = offer ? offer.accepted : [];
    line.textContent = offer
      ? t(accepted.length === 1 ? "requests.rematch_one" : "requests.rematch_many", { players: names(match, accepted) })
      : t("requests.rematch_question");
    if (player && !accepted.includes(userId)) {
      const label = t(offer ? "requests.rematch_accept" : "requests.rematch_offer");
      buttons.append(answer(label, "rematch", () => api("POST", `/api/rooms/${roomId}/rematch`), notice, rerender));
    } else if (player) {
      const missing = match.player_ids.filter((/** @type {number} */ id) => !accepted.includes(id));
      line.textContent += " " + t("requests.rematch_waiting", { players: names(match, missing) });
    }
  } else {
    box.hidden = true;
    return;
  }
  box.append(line);
  if (buttons.childElementCount) box.append(buttons);
  box.hidden = false;
}

/**
 * The toast after a player said no to ending the match.
 * @param {any} message a `requests` message
 * @param {any} snapshot
 * @returns {string | null}
 */
export function declinedText(message, snapshot) {
  const match = snapshot && snapshot.match;
  if (!match || typeof message.declined_by !== "number") return null;
  return t("requests.declined", { player: names(match, [message.declined_by]) });
}
