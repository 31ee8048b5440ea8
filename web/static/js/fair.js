/**
 * Fair shuffling in the browser (docs/record-format.md, "Fair shuffling"): the player's
 * own seed for a room's next match, drawn with crypto.getRandomValues once the room shows
 * its commitment and sent with it (PUT /api/rooms/{id}/fair-seed); the hand this device
 * saw at a deal's start; and, when a deal has ended, the check of its revealed seed
 * against the published chain, the deal shuffled again and compared with that hand:
 * "Fair gemischt ✓", with the details one tap away.
 */

import { api } from "./api.js";
import { checkReveal, dealOrder, dealPackets, newSeed } from "./fair-core.js";
import { el } from "./forms.js";
import { t } from "./i18n.js";

const SEED_KEY = "stammtisch-fair-seed:";
const HAND_KEY = "stammtisch-fair-hand:";
const GIVEN_KEY = "stammtisch-fair-given:";

/**
 * localStorage, or null where the browser refuses it.
 * @returns {Storage | null}
 */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Commitments this page has sent a seed for (or is sending one). */
const sent = new Set();

/**
 * The player's own seed for `commitment` (drawn and kept on this device at first use).
 * @param {string} commitment
 * @returns {string}
 */
function ownSeed(commitment) {
  const store = storage();
  const kept = store && store.getItem(SEED_KEY + commitment);
  if (kept && /^[0-9a-f]{64}$/.test(kept)) return kept;
  const seed = newSeed();
  if (store) {
    store.setItem(SEED_KEY + commitment, seed);
    // which commitment this seed was drawn after: a match must show that very one
    store.setItem(GIVEN_KEY + seed, commitment);
  }
  return seed;
}

/**
 * Give the room's next match the player's own seed, once its commitment is shown (the
 * room page, and the table after a match for a Revanche). Nothing for a spectator, for a
 * seed given already, or for a room without fair shuffling; a refusal is tried again at
 * the next call (a new commitment after a match started).
 * @param {number} roomId
 * @param {{fair?: {commitment: string, seeded: number[]} | null, members?: {user_id: number, role: string}[]}} room
 * @param {number} me
 */
export async function giveSeed(roomId, room, me) {
  const fair = room.fair;
  if (!fair || !room.members) return;
  const player = room.members.some((m) => m.user_id === me && m.role === "player");
  if (!player || fair.seeded.includes(me) || sent.has(fair.commitment)) return;
  sent.add(fair.commitment);
  try {
    await api("PUT", `/api/rooms/${roomId}/fair-seed`, {
      commitment: fair.commitment,
      seed: ownSeed(fair.commitment),
    });
  } catch {
    sent.delete(fair.commitment);
  }
}

/**
 * The same for the room of a table: read the room, then give the seed.
 * @param {number} roomId
 * @param {number} me
 */
export async function giveSeedForRoom(roomId, me) {
  try {
    await giveSeed(roomId, await api("GET", `/api/rooms/${roomId}`), me);
  } catch {
    /* the room page or the next match's end tries again */
  }
}

/** The last snapshot between deals: its deal number and version. */
let betweenAt = /** @type {{match: number, deal: number, v: number} | null} */ (null);

/**
 * Keep the hand this device sees first for each deal, and whether it saw it at the deal's
 * start (the first deal at version 0, or the deal shown right after the pause that ended
 * the one before): only such a hand can be compared with the shuffle at the end.
 * @param {any} snapshot a table snapshot
 */
export function rememberHand(snapshot) {
  const match = snapshot && snapshot.match;
  if (!match || !match.fair) return;
  const store = storage();
  if (snapshot.between_deals) {
    betweenAt = { match: match.id, deal: match.deal_number, v: snapshot.v };
    return;
  }
  const view = snapshot.view;
  if (!store || !view || !Array.isArray(view.hand) || !view.hand.length) return;
  const deal = match.deal_number;
  const fromStart =
    (deal === 1 && snapshot.v === 0) ||
    (betweenAt !== null && betweenAt.match === match.id && betweenAt.deal === deal - 1 && betweenAt.v === snapshot.v);
  const key = `${HAND_KEY}${match.id}:${deal}`;
  const kept = store.getItem(key);
  if (kept && (JSON.parse(kept).fromStart || !fromStart)) return;
  store.setItem(key, JSON.stringify({ hand: view.hand, fromStart }));
}

/** The games' packs and dealing, read once: name → promise. */
const shuffles = new Map();

/**
 * The pack (card codes by index) and the dealing (`[seat, count]` packets, seat -1 the
 * talon) of `game`, from its description (GET /api/games/{name}, `shuffle`); null if
 * it cannot be read.
 * @param {string} game
 * @returns {Promise<{pack: string[], dealing: [number, number][]} | null>}
 */
function shuffleOf(game) {
  if (!shuffles.has(game)) {
    shuffles.set(
      game,
      api("GET", `/api/games/${encodeURIComponent(game)}`).then(
        (info) => (info && info.shuffle) || null,
        () => null,
      ),
    );
  }
  return shuffles.get(game);
}

/** Checks made, by match and deal: each deal is checked once per page. */
const checks = new Map();

/**
 * @typedef {{ok: boolean, deal: number, lines: string[]}} FairResult
 */

/**
 * Check the deal whose seed the snapshot reveals.
 * @param {any} snapshot a snapshot between deals or after the match
 * @param {number} me the user id
 * @returns {Promise<FairResult> | null} null when there is nothing to check
 */
export function checkDeal(snapshot, me) {
  const match = snapshot && snapshot.match;
  const fair = match && match.fair;
  // only with the finished deal on show (not the deal before it, while a deal ends)
  if (!fair || !fair.revealed || fair.version !== 1 || fair.revealed.deal !== match.deal_number) return null;
  const key = `${match.id}:${fair.revealed.deal}`;
  if (!checks.has(key)) checks.set(key, runCheck(match, fair, snapshot.you, me));
  return checks.get(key);
}

/**
 * @param {any} match
 * @param {any} fair
 * @param {any} you
 * @param {number} me
 * @returns {Promise<FairResult>}
 */
async function runCheck(match, fair, you, me) {
  const { deal, seed } = fair.revealed;
  const lines = [];
  let ok = await checkReveal(seed, deal, fair.commitment);
  lines.push(t(ok ? "fair.chain_ok" : "fair.chain_bad", { deal, commitment: fair.commitment.slice(0, 16) }));
  // the player's own seed: the one this device drew for the commitment
  const index = match.player_ids.indexOf(me);
  const store = storage();
  if (index >= 0) {
    const listed = fair.player_seeds[index];
    // the seed listed as ours was drawn here after another commitment than this match's
    // (the room showed us another one), or ours for this commitment is not the one listed
    const givenFor = store && listed ? store.getItem(GIVEN_KEY + listed) : null;
    const mine = store && store.getItem(SEED_KEY + fair.commitment);
    if (givenFor || mine) {
      const there = givenFor ? givenFor === fair.commitment : listed === mine;
      ok = ok && there;
      lines.push(t(there ? "fair.seed_ok" : "fair.seed_bad"));
    } else {
      lines.push(t("fair.seed_unknown"));
    }
  }
  // the deal shuffled again: this device's hand at the deal's start must be the dealt one
  const kept = store && store.getItem(`${HAND_KEY}${match.id}:${deal}`);
  const seat = you ? you.seat : null;
  const shown = match.deal_number === deal && seat !== null && seat !== undefined;
  const shuffle = ok && kept && shown && JSON.parse(kept).fromStart ? await shuffleOf(match.game) : null;
  if (shuffle) {
    const order = await dealOrder(shuffle.pack.length, seed, fair.player_seeds);
    const dealt = dealPackets(shuffle.pack, order, shuffle.dealing);
    const want = [...(dealt.hands[seat] || [])].sort().join(" ");
    const had = [...JSON.parse(kept).hand].sort().join(" ");
    const same = want === had;
    ok = ok && same;
    lines.push(t(same ? "fair.hand_ok" : "fair.hand_bad"));
  } else if (ok) {
    lines.push(t("fair.hand_unseen"));
  }
  lines.push(t("fair.limits"));
  return { ok, deal, lines };
}

/**
 * The result's line "Fair gemischt ✓" with its details one tap away (a <details>),
 * filled in once the check is done; null when the snapshot reveals nothing.
 * @param {any} snapshot
 * @param {number} me
 * @returns {HTMLElement | null}
 */
export function fairBadge(snapshot, me) {
  const check = checkDeal(snapshot, me);
  if (!check) return null;
  const box = /** @type {HTMLDetailsElement} */ (el("details", "fair-check"));
  box.id = "fair-check";
  const summary = el("summary", "", t("fair.checking"));
  box.append(summary);
  check.then((result) => {
    box.classList.add(result.ok ? "fair-ok" : "fair-bad");
    summary.textContent = t(result.ok ? "fair.ok" : "fair.bad");
    const list = el("ul", "fair-details");
    for (const line of result.lines) list.append(el("li", "", line));
    box.append(list);
  });
  return box;
}
