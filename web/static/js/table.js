/**
 * The card table: one WebSocket to the server (docs/protocol.md), the state it sends, and
 * the page built from it. The server decides every rule: legal cards and buttons come
 * from the view's `legal_actions`; a tap on an illegal card is sent anyway so that the
 * server's refusal names the rule ("Farbzwang: …"), and nothing changes.
 *
 * Reconnects by itself (with growing pauses) and resyncs from a fresh snapshot. An action
 * that was sent but not yet answered when the connection broke is kept and sent again,
 * with the same id and version, once the snapshot is in: the server applies it at most
 * once (answering `ack` if it had arrived before).
 */

import { computerMark, markLedgerRows } from "./computer-mark.js";
import { standinMark, standinMovesText } from "./standin.js";
import { cardBackSvg, cardSvg } from "./cards.js";
import { el } from "./forms.js";
import { loadGame } from "./game-info.js";
import { setUpHandSort } from "./hand-sort-control.js";
import { sortedHand } from "./hand-sort.js";
import { errorText, has, t } from "./i18n.js";
import { fairBadge, giveSeedForRoom, rememberHand } from "./fair.js";
import {
  CARD_VERBS,
  actionGroup,
  actionLabel,
  buttonLabel,
  contractLabel,
  infoLines,
  kindOf,
  nameOf,
  outcomeSummary,
  seatBadges,
  turnText,
} from "./table-games.js";
import { alertTurn, askToNotify, loadSettings, reducedMotion, saveSettings, setTitle } from "./table-feel.js";
import { dealReasonText, finishedLedger, ledgerColumns, ledgerTable } from "./ledger.js";
import { renderSheet, signed } from "./table-sheet.js";
import { applyEvent, wholeSheet } from "./table-state.js";
import { declinedText, renderRequests, takeRequests } from "./table-requests.js";
import { countdownElement, deadline, dueElement, startTicking } from "./table-timer.js";
import { TAKE_BACK, renderTakeBack, takeBackNote } from "./table-takeback.js";

const root = /** @type {HTMLElement} */ (document.getElementById("table"));
const roomId = Number(root.dataset.room);
const userId = Number(root.dataset.user);
/** The game's description and module (game-info.js): pack, direction, seat labels… */
const game = await loadGame(root.dataset.game || "");
// the game's module may read the running score sheet (e.g. an owed solo at the Vorbehalt)
game.ctx.sheet = () => (state.snapshot && state.snapshot.match ? state.snapshot.match.sheet : null);
const pack = game.pack;
/** Clockwise games put the next player on the left, anticlockwise ones on the right. */
const CLOCKWISE = game.clockwise;
root.dataset.pack = pack;

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Everything the server has told us. */
const state = {
  /** @type {any} */ snapshot: null,
  /** @type {any} */ view: null,
  v: /** @type {number | null} */ (null),
  /** @type {number[]} */ online: [],
  /** @type {any[]} */ chat: [],
  /** the action message sent and not yet answered (buttons wait meanwhile) */
  pending: /** @type {{type: string, action: string, v: number | null, id: string, resent?: boolean} | null} */ (null),
  /** the socket the pending action went out on */
  /** @type {WebSocket | null} */ pendingOn: null,
  unread: 0,
  /** the turn timer: the seat to move and when its time ends (performance.now() ms) */
  turn: /** @type {{seat: number | null, end: number | null, forced?: boolean, due?: string | null}} */ ({ seat: null, end: null }),
  /** between two deals (spec13 §2): who we wait for, when the pause ends; else null */
  /** @type {{waiting: number[], end: number | null} | null} */ between: null,
  /** cards of this deal the turn timer played (marked in the trick) */
  /** @type {Set<string>} */ autoCards: new Set(),
  /** seats of this deal for whom the turn timer acted */
  /** @type {Set<number>} */ autoSeats: new Set(),
  /** a pause by agreement: whether the table is paused and who asks to change that */
  pause: /** @type {{paused: boolean, asking: number[]}} */ ({ paused: false, asking: [] }),
  /** the stand-in: whose seat it plays for (user ids) and the time left of one asked for */
  standins: /** @type {{users: number[], asked: Record<string, number>} | null} */ (null),
  /** the moves a stand-in made for us since our last own move */
  standinMoves: /** @type {Array<{action: string}>} */ ([]),
  /** whether it was my turn at the last render (to alert once per turn) */
  mine: false,
};
const baseTitle = document.title;
const feel = loadSettings();

// ------------------------------------------------------------------------- connection

/** @type {WebSocket | null} */
let socket = null;
let attempts = 0;
let nextId = 1;
/** Ids must not repeat after a reload: a random prefix per page, then a counter. */
const idPrefix = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) =>
  b.toString(16).padStart(2, "0"),
).join("");
let stopped = false;
/** between our hello and the server's snapshot */
let greeting = false;
/** we asked for a fresh snapshot because we missed a message */
let resyncing = false;
/** @type {number | undefined} */
let noticeTimer;
/** the version at which the player tapped "Weiter" before the table said it waits */
/** @type {number | null} */
let earlyNext = null;

/** A heartbeat every second: a `ping` every PING_EVERY ms, and a socket that has heard
 * nothing for LOST_AFTER ms (the server answers every ping) counts as lost. */
const PING_EVERY = 2000;
const LOST_AFTER = 4500;
/** when the socket last heard from the server (performance.now() ms) */
let lastHeard = 0;
let lastPing = 0;
/** the connection is lost: the table says so and greys the turn and the countdown */
let lost = false;
/** @type {number | undefined} */
let reconnectTimer;

function connect() {
  if (reconnectTimer !== undefined) window.clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  socket = ws;
  ws.addEventListener("open", () => {
    attempts = 0;
    greeting = true;
    resyncing = false;
    lastHeard = lastPing = performance.now();
    send({ type: "hello", room: roomId, last_version: state.v });
  });
  ws.addEventListener("message", (event) => {
    if (socket === ws) lastHeard = performance.now();
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  ws.addEventListener("close", () => {
    if (socket !== ws) return;
    // state.pending is kept: it is sent again after the next snapshot
    connectionLost();
  });
}

/** The server is out of reach (the socket closed, stayed silent, or the browser went
 * offline): say so at once, grey the turn and the countdown, drop the socket and connect
 * again after a growing pause (at once when the browser says it is back online). */
function connectionLost() {
  const ws = socket;
  socket = null;
  if (ws) {
    try {
      ws.close();
    } catch {
      // closing a socket that never opened
    }
  }
  if (stopped) return;
  lost = true;
  root.classList.add("lost");
  showConnection(t("table.reconnecting"));
  if (reconnectTimer !== undefined) return;
  attempts += 1;
  const delay = Math.min(8000, 400 * 2 ** Math.min(attempts, 5));
  reconnectTimer = window.setTimeout(connect, delay);
}

/** Back in touch: the fresh snapshot is in. */
function connectionBack() {
  lost = false;
  root.classList.remove("lost");
  hideConnection();
}

function heartbeat() {
  const ws = socket;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  const now = performance.now();
  if (now - lastHeard > LOST_AFTER) {
    connectionLost();
    return;
  }
  if (now - lastPing >= PING_EVERY) {
    lastPing = now;
    ws.send(JSON.stringify({ type: "ping" }));
  }
}

window.setInterval(heartbeat, 1000);
window.addEventListener("offline", () => connectionLost());
window.addEventListener("online", () => {
  // back online: connect again at once instead of waiting out the pause
  if (stopped || !lost) return;
  attempts = 0;
  if (socket) return; // a connection is under way
  connect();
});

/** @param {Record<string, unknown>} message */
function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify({ ...message, id: message.id ?? `${idPrefix}.${nextId++}` }));
  return true;
}

/** We missed a message (an event or a sheet that builds on one we do not have): ask for a
 * fresh snapshot and ignore the table's events until it is in. */
function resync() {
  if (resyncing) return;
  resyncing = true;
  if (!send({ type: "hello", room: roomId, last_version: state.v })) resyncing = false;
}

/** @param {string} action */
function act(action) {
  if (state.pending) return;
  const message = { type: "action", action, v: state.v, id: `${idPrefix}.${nextId++}` };
  if (send(message)) {
    state.pending = message;
    state.pendingOn = socket;
    renderActions();
  } else {
    showNotice(t("table.offline_action"));
  }
}

/** @param {any} message */
function receive(message) {
  switch (message.type) {
    case "snapshot": {
      const sheet = wholeSheet(state.snapshot && state.snapshot.match, message.match);
      if (!sheet) {
        resync();
        break;
      }
      message.match.sheet = sheet;
      resyncing = false;
      greeting = false;
      connectionBack();
      hideNotice("error");
      if (dealNumber(state.snapshot) !== dealNumber(message)) {
        state.autoCards.clear();
        state.autoSeats.clear();
      }
      // what the timer played in the deal shown (also after a reload): marked again
      for (const entry of message.auto_actions || []) takeAuto(entry.seat, entry.action);
      state.snapshot = message;
      rememberHand(message); // the hand at the deal's start, for the fair-shuffle check
      // a finished match: the room's next match (a Revanche) gets this player's own seed
      if (message.match && message.match.finished) giveSeedForRoom(roomId, userId);
      // the stand-in: whose seat it plays for, and what it played for us while we were away
      state.standins = message.standins || null;
      state.standinMoves = (message.you && message.you.standin_moves) || [];
      state.v = message.v;
      state.online = message.online || [];
      state.chat = message.chat || [];
      takeTurn(message.turn);
      takeBetween(message.between_deals);
      state.pause = message.pause || { paused: false, asking: [] };
      takeRequests(message.requests);
      renderSetupNote();
      setView(message.view);
      if (state.between && message.view.outcome) showResult(message.view);
      else {
        closeResultOfDealEnd();
        // the match's last deal: the final snapshot brings its ledger to the open panel
        const open = /** @type {HTMLDialogElement} */ ($("result-dialog")).open;
        if (open && message.view.outcome) showResult(message.view);
      }
      renderChat();
      // an action whose answer a broken connection swallowed: the same message again
      if (state.pending && state.pendingOn !== socket) {
        state.pendingOn = socket;
        state.pending.resent = true;
        if (!send(state.pending)) state.pending = null;
      }
      break;
    }
    case "ack":
      // our action had arrived before the connection broke; the snapshot shows it
      if (state.pending && message.id === state.pending.id) state.pending = null;
      renderActions();
      break;
    case "saving":
      if (message.active) showConnection(t("table.saving"));
      else hideConnection();
      break;
    case "event": {
      if (resyncing) break;
      // the event carries what changed in our view since the version before
      const view = applyEvent(state.view, state.v, message);
      if (!view) {
        resync();
        break;
      }
      message.view = view;
      state.v = message.v;
      // the table moved on: a refusal from before says nothing about the new turn
      hideNotice("error");
      // The event of our own action carries its id: that is the acknowledgement.
      if ("id" in message) state.pending = null;
      const forced = !!state.turn.forced; // the event before said: the table moves itself
      takeTurn(message.turn);
      if (message.auto) markAuto(message, forced);
      if (message.standin) markStandin(message);
      if (message.view && message.view.phase === "finished" && message.view.outcome) {
        showResult(message.view);
      }
      setView(message.view);
      // a card taken back: the others read who took it back (the card is in the hand again)
      const takenBack = takeBackNote(message);
      if (takenBack) showNotice(takenBack, "info");
      break;
    }
    case "deal_end":
      takeBetween({ waiting: message.waiting, pause_ends_in: message.pause_ends_in });
      const early = earlyNext !== null && earlyNext === state.v && state.between && state.between.waiting.includes(userId);
      if (early) send({ type: "next" });
      earlyNext = null;
      if (state.view && state.view.outcome) showResult(state.view);
      // "Weiter" was said already: the button waits for the others, as after a tap now
      if (early) /** @type {HTMLButtonElement} */ ($("result-close")).disabled = true;
      break;
    case "error":
      if (state.pending && state.pending.resent && message.id === state.pending.id) {
        // our action sent again after a reconnect, refused because the table moved on
        // meanwhile (the timer played, the deal ended): the snapshot shows where it is
        state.pending = null;
        renderActions();
        break;
      }
      state.pending = null;
      handleError(message);
      break;
    case "new_match":
      // a Revanche started in this room: greet the room again and sit at the new table
      state.pending = null;
      for (const id of ["result-dialog", "sheet-dialog"]) {
        const dialog = /** @type {HTMLDialogElement} */ ($(id));
        if (dialog.open) dialog.close();
      }
      send({ type: "hello", room: roomId, last_version: null });
      break;
    case "pause":
      state.pause = { paused: message.paused, asking: message.asking || [] };
      render();
      break;
    case "requests": {
      // a Revanche offer or agreements to end the match, made here or on the room page
      takeRequests(message);
      const declined = declinedText(message, state.snapshot);
      if (declined) showNotice(declined, "info");
      showRequests();
      break;
    }
    case "presence":
      state.online = message.online || [];
      renderSeats();
      break;
    case "standin":
      state.standins = { users: message.users || [], asked: message.asked || {} };
      if (!state.standins.users.includes(userId)) state.standinMoves = [];
      else if (message.moves) state.standinMoves = message.moves;
      render();
      break;
    case "chat":
      state.chat.push(message);
      if (state.chat.length > 200) state.chat.shift();
      sayAtSeat(message);
      if (!( /** @type {HTMLDialogElement} */ ($("chat-dialog")).open)) state.unread += 1;
      renderChat();
      break;
    default:
      break;
  }
}

/** @param {any} error */
function handleError(error) {
  const code = error.code;
  if (code === "login_required") {
    stopped = true;
    showConnection(t("table.login_required"), "/?next=" + encodeURIComponent(location.pathname));
    return;
  }
  if (code === "logged_out" || code === "replaced" || code === "too_many_connections") {
    stopped = true;
    state.pending = null;
    showConnection(errorText(error), location.pathname);
    return;
  }
  if (code === "match_finished" && greeting) {
    // the match ended while we were away (and the server restarted): it is in the archive
    stopped = true;
    state.pending = null;
    showConnection(errorText(error), "/archive");
    if (socket) socket.close();
    return;
  }
  if (code === "not_a_member" || code === "match_not_started") {
    stopped = true;
    showConnection(t(code === "not_a_member" ? "table.not_a_member" : "table.not_started"), `/rooms/${roomId}`);
    if (socket) socket.close();
    return;
  }
  showNotice(errorText(error));
  renderActions();
}

// ------------------------------------------------------- timer, deal end, setup note

/** The deal number of a snapshot (null before the first). */
function dealNumber(/** @type {any} */ snapshot) {
  return snapshot && snapshot.match ? `${snapshot.match.id}:${snapshot.match.deal_number}` : null;
}

/** Take the `turn` of a snapshot or event: who moves and until when (spec13 §1). */
function takeTurn(/** @type {any} */ turn) {
  if (turn === undefined) return; // a server without timers on screen
  state.turn = turn ? { seat: turn.seat, end: deadline(turn.ends_in), forced: !!turn.forced, due: turn.deadline || null } : { seat: null, end: null };
}

/** Take the between-deals state (spec13 §2), or null when a deal is on. */
function takeBetween(/** @type {any} */ between) {
  state.between = between
    ? { waiting: between.waiting || [], end: deadline(between.pause_ends_in) }
    : null;
}

/**
 * Remember a move the turn timer made for `seat`: a card it played is marked in the
 * trick, the seat gets the "Automatik" badge.
 * @param {unknown} seat
 * @param {unknown} action
 */
function takeAuto(seat, action) {
  const [verb, arg] = String(action || "").split(" ");
  if (verb === "play" && arg) state.autoCards.add(kindOf(arg));
  if (typeof seat === "number") state.autoSeats.add(seat);
}

/**
 * An event the turn timer played: a card it played is marked in the trick, and a toast
 * says what the timer did for whom (`forced`: the table played the only possible move).
 * @param {any} message
 * @param {boolean} [forced]
 */
function markAuto(message, forced = false) {
  // a forced move (nothing else was possible) is said, but the seat gets no timer badge
  if (!forced) takeAuto(message.seat, message.action);
  const [verb, arg] = String(message.action || "").split(" ");
  const player = typeof message.seat === "number" && message.view ? message.view.seats[message.seat] : "";
  const what = verb === "play" && arg ? nameOf(arg, pack) : actionLabel(String(message.action || ""), game.name, pack);
  showNotice(t(forced ? "forced.played" : "tableui.auto_played", { player, action: what }), "info");
}

/**
 * An event a stand-in played for an absent person: a toast says what it played for whom.
 * @param {any} message
 */
function markStandin(message) {
  const [verb, arg] = String(message.action || "").split(" ");
  const player = typeof message.seat === "number" && message.view ? message.view.seats[message.seat] : "";
  const what = verb === "play" && arg ? nameOf(arg, pack) : actionLabel(String(message.action || ""), game.name, pack);
  showNotice(t("standin.played", { player, action: what }), "info");
}

/** The banner of a forced deal (spec13 §3): "Bernd muss den Herzsolo wiederholen". */
function renderSetupNote() {
  const box = $("setup-note");
  const match = state.snapshot && state.snapshot.match;
  const setup = match && match.setup;
  const key = setup && setup.note ? `setup.${game.name}.${setup.note}` : "";
  if (!key || !has(key)) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  const params = { ...(setup.params || {}) };
  if (params.contract) params.contract_name = contractLabel(game.name, String(params.contract));
  box.textContent = t(key, params);
  box.hidden = false;
}

/** The names of the players we wait for between deals. */
function waitingNames() {
  const match = state.snapshot && state.snapshot.match;
  if (!match || !state.between) return [];
  return state.between.waiting.map((/** @type {number} */ id) => {
    const index = match.player_ids.indexOf(id);
    return index >= 0 ? match.players[index] : "?";
  });
}

/** Close the result when the next deal is on (after a deal_end). */
function closeResultOfDealEnd() {
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  if (dialog.dataset.between === "1" && dialog.open) dialog.close();
  dialog.dataset.between = "";
}

// ----------------------------------------------------------------------------- views

/** @param {any} view */
function setView(view) {
  state.view = view;
  render();
}

/** The player name of a seat of the current deal. */
function seatName(/** @type {number} */ seat) {
  return state.view && state.view.seats ? state.view.seats[seat] : "?";
}

/** The user id of a seat (through the match's player list), for presence. */
function seatUser(/** @type {number} */ seat) {
  const match = state.snapshot && state.snapshot.match;
  if (!match) return null;
  const index = match.players.indexOf(seatName(seat));
  return index >= 0 ? match.player_ids[index] : null;
}

/** The computer players of `match` by name, with their levels (the sheet marks them). */
function computersByName(/** @type {any} */ match) {
  /** @type {Record<string, string>} */
  const out = {};
  (match.computers || []).forEach((/** @type {string|null} */ level, /** @type {number} */ i) => {
    if (level) out[match.players[i]] = level;
  });
  return out;
}

/** The level of the computer player at `seat` ("einsteiger", "stark"), or null: a person. */
function seatComputer(/** @type {number} */ seat) {
  const match = state.snapshot && state.snapshot.match;
  if (!match || !match.computers) return null;
  const index = match.players.indexOf(seatName(seat));
  return index >= 0 ? match.computers[index] || null : null;
}

/** How long a chat line stays beside its speaker's seat (ms). */
const BUBBLE_MS = 6000;
/** The latest chat line of each seat while it is shown beside the seat: seat -> line. */
/** @type {Map<number, {text: string, until: number}>} */
const bubbles = new Map();

/** A chat line that just came in appears beside its speaker's seat for a few seconds
 * (spectators and a sitting-out dealer have no seat: theirs stay in the chat). */
function sayAtSeat(/** @type {any} */ line) {
  const view = state.view;
  if (!view || !view.seats) return;
  const seat = view.seats.findIndex((/** @type {string} */ _name, /** @type {number} */ s) => seatUser(s) === line.user_id);
  if (seat < 0) return;
  bubbles.set(seat, { text: line.text, until: performance.now() + BUBBLE_MS });
  renderSeats();
  window.setTimeout(renderSeats, BUBBLE_MS + 50);
}

/** The chat line shown beside `seat` now, if any. */
function bubbleOf(/** @type {number} */ seat) {
  const shown = bubbles.get(seat);
  if (!shown) return null;
  if (shown.until <= performance.now()) {
    bubbles.delete(seat);
    return null;
  }
  const box = el("p", "chat-bubble", shown.text);
  box.setAttribute("aria-label", t("talk.said", { player: seatName(seat), text: shown.text }));
  return box;
}

/** Where a seat sits on screen: 0 = bottom (me), then around the table. */
function position(/** @type {number} */ seat) {
  const view = state.view;
  const n = view.seats.length;
  const me = view.seat === null || view.seat === undefined ? 0 : view.seat;
  const rel = (seat - me + n) % n;
  if (rel === 0) return "bottom";
  if (n === 3) return (rel === 1) === CLOCKWISE ? "left" : "right";
  if (rel === 2) return "top";
  return (rel === 1) === CLOCKWISE ? "left" : "right";
}

/** The pause by agreement: the note above the felt and the "Pause" button's words. */
function renderPause() {
  const note = $("pause-note");
  const button = /** @type {HTMLButtonElement} */ ($("ask-pause"));
  const you = state.snapshot && state.snapshot.you;
  const match = state.snapshot && state.snapshot.match;
  const { paused, asking } = state.pause;
  root.classList.toggle("paused", paused);
  const names = asking.map((/** @type {number} */ id) => {
    const index = match ? match.player_ids.indexOf(id) : -1;
    return index >= 0 ? match.players[index] : "?";
  });
  const of = state.view && state.view.seats ? state.view.seats.length : names.length;
  if (paused) {
    note.textContent = t("pause.paused") + (names.length
      ? " " + t("pause.going_on", { players: names.join(", "), n: names.length, of }) : "");
  } else if (names.length) {
    note.textContent = t("pause.asking", { players: names.join(", "), n: names.length, of });
  } else {
    note.textContent = "";
  }
  note.hidden = !note.textContent;
  const mine = asking.includes(userId);
  button.hidden = !(you && you.role === "player") || !match || match.finished;
  button.textContent = t(paused ? (mine ? "pause.stay" : "pause.go_on") : (mine ? "pause.withdraw" : "pause.ask"));
  button.setAttribute("aria-pressed", String(mine));
  renderStandin();
}

/** The stand-in: the note of what it played for us, and the button that asks for it. */
function renderStandin() {
  const note = $("standin-note");
  const describe = (/** @type {string} */ action) => {
    const [verb, arg] = action.split(" ");
    return verb === "play" && arg ? nameOf(arg, pack) : actionLabel(action, game.name, pack);
  };
  note.textContent = standinMovesText(state.standinMoves || [], describe);
  note.hidden = !note.textContent;
  const button = /** @type {HTMLButtonElement} */ ($("ask-standin"));
  const you = state.snapshot && state.snapshot.you;
  const match = state.snapshot && state.snapshot.match;
  const mine = !!(state.standins && String(userId) in state.standins.asked);
  button.hidden = !(you && you.role === "player") || !match || match.finished || !match.standin;
  button.textContent = t(mine ? "standin.end" : "standin.ask");
  button.setAttribute("aria-pressed", String(mine));
}

/** The requests around the match (Revanche, ending by agreement), answered here. */
function showRequests() {
  renderRequests($("requests"), state.snapshot, roomId, userId, (text) => showNotice(text));
}

function render() {
  if (!state.view) return;
  root.dataset.version = String(state.v);
  renderPause();
  showRequests();
  const match = state.snapshot ? state.snapshot.match : null;
  if (match) {
    $("deal-number").textContent = t("table.deal_number", { n: match.deal_number });
  }
  renderTurn();
  renderSeats();
  renderTrick();
  renderInfo();
  renderActions();
  renderHand();
  const last = /** @type {HTMLButtonElement} */ ($("show-last-trick"));
  last.disabled = !state.view.last_trick;
  if (match) renderSheet($("sheet"), match.sheet, game, computersByName(match));
  measureDock();
  markOverflows();
}

function renderTurn() {
  const view = state.view;
  const turn = $("turn");
  const match = state.snapshot && state.snapshot.match;
  const you = state.snapshot && state.snapshot.you;
  if (match && match.finished) {
    turn.textContent = t(match.ended_early ? "tableui.ended_early" : "table.match_finished");
    turn.className = "turn";
    setTitle(baseTitle, false, "");
    return;
  }
  const turnNow = turnText(view, seatName, game);
  const { text } = turnNow;
  // while the table pauses nobody is to move: the turn waits, said so
  const mine = turnNow.mine && !state.pause.paused;
  let line = text;
  if (you && you.role === "spectator") line = t("table.spectating") + " · " + text;
  else if (you && you.seat === null) line = t("table.sitting_out") + " · " + text;
  if (state.pause.paused) line = t("pause.ask") + " · " + line;
  turn.textContent = line;
  turn.className = mine ? "turn mine" : "turn";
  setTitle(baseTitle, mine, t("tableui.your_turn_title"));
  if (mine && !state.mine) alertTurn(feel, t("tableui.your_turn_title"), text);
  state.mine = mine;
}

function renderSeats() {
  const view = state.view;
  if (!view) return;
  const box = $("seats");
  box.replaceChildren();
  view.seats.forEach((/** @type {string} */ name, /** @type {number} */ seat) => {
    const user = seatUser(seat);
    const computer = seatComputer(seat);
    // a computer player is always there
    const online = computer !== null || (user !== null && state.online.includes(user));
    const div = el("div", `seat seat-${position(seat)}`);
    if (view.to_move === seat && view.phase !== "finished") div.classList.add("to-move");
    if (!online) div.classList.add("offline");
    div.dataset.seat = String(seat);
    const head = el("div", "seat-name");
    // the name (cut with "…" when long) never hides the marks and the countdown after it
    const who = el("span", "seat-who");
    who.append(el("span", online ? "dot on" : "dot off"));
    who.append(el("span", "", name));
    if (seat === view.seat) who.append(el("span", "you", ` (${t("table.you")})`));
    head.append(who);
    if (computer) {
      div.classList.add("computer");
      head.append(computerMark(computer));
    }
    if (user !== null && state.standins && state.standins.users.includes(user)) {
      div.classList.add("stood-in");
      head.append(standinMark(name));
    }
    const label = game.seatLabel(seat);
    if (label) head.append(el("span", "seat-label", label));
    for (const marker of seatMarkers(seat)) {
      const mark = el("span", "seat-marker", marker.short);
      mark.title = marker.long;
      mark.setAttribute("aria-label", marker.long);
      head.append(mark);
    }
    if (state.turn.end !== null && state.turn.seat === seat && view.phase !== "finished") {
      head.append(
        countdownElement(state.turn.end, (left) => t("tableui.timer_label", { player: name, left })),
      );
    }
    if (state.turn.due && state.turn.seat === seat && view.phase !== "finished") {
      head.append(dueElement(state.turn.due, (when, left) => t("turns.table_due_label", { player: name, when, left })));
    }
    div.append(head);
    const bubble = bubbleOf(seat);
    if (bubble) div.append(bubble);
    const meta = el("div", "seat-meta");
    const cards = view.hand_sizes ? view.hand_sizes[seat] : 0;
    meta.append(el("span", "", t("table.cards_count", { n: cards })));
    if (view.tricks_won) meta.append(el("span", "", t("table.tricks_count", { n: view.tricks_won[seat] })));
    if (!online) meta.append(el("span", "offline-label", t("table.offline")));
    div.append(meta);
    const badges = seatBadges(game, view, seat);
    if (state.autoSeats.has(seat)) badges.push(t("tableui.auto_badge"));
    if (badges.length) {
      const list = el("div", "badges");
      for (const b of badges) list.append(el("span", "badge", b));
      div.append(list);
    }
    box.append(div);
  });
  const out = sittingOut();
  if (out) box.append(el("div", "seat seat-out muted", t("table.sits_out", { player: out })));
}

/**
 * The dealer's and the Vorhand's markers of a seat. The view names the dealer (who may sit
 * the deal out); the engine numbers the seats in playing order, so seat 0 leads first.
 */
function seatMarkers(/** @type {number} */ seat) {
  const view = state.view;
  const markers = [];
  if (view.seats[seat] === view.dealer) {
    markers.push({ short: t("tableui.dealer_short"), long: t("tableui.dealer") });
  }
  if (seat === 0) markers.push({ short: t("tableui.vorhand_short"), long: t("tableui.vorhand") });
  return markers;
}

/** The player who sits this deal out (four at a three-player game), or "". */
function sittingOut() {
  const match = state.snapshot && state.snapshot.match;
  if (!match || !state.view) return "";
  const out = match.players.filter((/** @type {string} */ p) => !state.view.seats.includes(p));
  return out.join(", ");
}

/**
 * One card face (or back) as an element.
 * @param {string | null} code
 * @param {string} [tag]
 */
function cardElement(code, tag = "div") {
  const node = el(tag, "card");
  // The SVG strings are built by cards.js from card codes only, never from user text.
  node.innerHTML = code ? cardSvg(code, pack) : cardBackSvg();
  if (code) {
    node.dataset.card = code;
    node.setAttribute("title", nameOf(code, pack));
  }
  return node;
}

/** Card pictures as image URLs, one per code (the hand is redrawn on every update). */
const pictures = new Map();

/**
 * A card of the hand: a button named by the card whose picture is an image without text
 * of its own, so that the button's name ("Herz König") is all a screen reader hears and
 * the drawn corner index is not taken for a visible label.
 * @param {string} code
 */
function handCard(code) {
  const node = el("button", "card");
  node.append(cardPicture(code));
  node.dataset.card = code;
  node.setAttribute("title", nameOf(code, pack));
  return node;
}

/**
 * A card's picture as an image without text of its own (`alt=""`): the control it sits in
 * carries the name.
 * @param {string} code
 * @returns {HTMLImageElement}
 */
function cardPicture(code) {
  let url = pictures.get(code);
  if (!url) {
    url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(cardSvg(code, pack))}`;
    pictures.set(code, url);
  }
  const img = /** @type {HTMLImageElement} */ (el("img"));
  img.alt = "";
  // the card's proportions before the picture is decoded, so the hand is laid out at once
  img.width = 200;
  img.height = 300;
  img.src = url;
  img.draggable = false;
  return img;
}

/**
 * Lay out `trick` ({leader, cards, winner}) in `target` by seat.
 * @param {HTMLElement} target
 * @param {any} trick
 * @param {boolean} done
 */
function layTrick(target, trick, done) {
  const view = state.view;
  const n = view.seats.length;
  target.replaceChildren();
  trick.cards.forEach((/** @type {string} */ code, /** @type {number} */ i) => {
    const seat = (trick.leader + i) % n;
    const slot = el("div", `slot slot-${position(seat)}`);
    const card = cardElement(code);
    if (done && trick.winner === seat) card.classList.add("winner");
    if (state.autoCards.has(kindOf(code))) {
      card.classList.add("auto");
      card.setAttribute("title", `${nameOf(code, pack)} · ${t("tableui.auto_mark")}`);
    }
    slot.append(card, el("span", "slot-name", seatName(seat)));
    target.append(slot);
  });
  if (done && trick.winner !== null && trick.winner !== undefined) {
    // the name kept whole on its line (no-break spaces): "Stich an / Computer 3" where it wraps
    const winner = seatName(trick.winner).replace(/ /g, "\u00a0");
    target.append(el("p", "trick-caption", t("table.trick_to", { player: winner })));
  }
}

/** What the trick showed at the last render ("" none), to animate only what is new. */
let shownTrick = "";
/** @type {number | undefined} */
let collectTimer;

function renderTrick() {
  const view = state.view;
  const target = $("trick");
  target.classList.toggle("idle", view.phase !== "play");
  target.classList.toggle("four", view.seats.length === 4);
  const before = shownTrick;
  window.clearTimeout(collectTimer);
  target.classList.remove("to-winner", "toward-bottom", "toward-top", "toward-left", "toward-right");
  if (view.trick && view.trick.cards.length) {
    layTrick(target, view.trick, false);
    shownTrick = `${view.trick.leader}:${view.trick.cards.join(",")}`;
    // the card just played flies in (not on a reload, not with reduced motion)
    const slots = target.querySelectorAll(".slot");
    if (before && shownTrick.startsWith(before) && shownTrick !== before && !reducedMotion()) {
      slots[slots.length - 1].classList.add("arrive");
    }
  } else if (view.last_trick && view.phase === "play") {
    layTrick(target, view.last_trick, true); // the finished trick stays until the next lead
    target.classList.add("collected");
    const key = `done:${view.last_trick.leader}:${view.last_trick.cards.join(",")}`;
    if (before !== key && !before.startsWith("done:") && !reducedMotion()) {
      // after a moment to see it, the trick slides towards its winner
      const winner = view.last_trick.winner;
      collectTimer = window.setTimeout(() => {
        if (typeof winner === "number") target.classList.add("to-winner", `toward-${position(winner)}`);
      }, 900);
    }
    shownTrick = key;
    return;
  } else {
    target.replaceChildren();
    shownTrick = "";
  }
  target.classList.remove("collected");
}

function renderInfo() {
  const box = $("info");
  box.replaceChildren();
  const offered = new Set(legalActions());
  for (const line of infoLines(game, state.view, seatName)) {
    const p = el("div", "info-line");
    p.append(el("span", "", line.text));
    if (line.cards) {
      const row = el("span", "mini-cards");
      for (const code of line.cards) row.append(cardElement(code));
      p.append(row);
    }
    if (line.choices) p.append(choiceRow(line.choices, offered));
    box.append(p);
  }
}

/**
 * The choices of an info line (the talon's halves, pairs or cards): each a group of cards,
 * a button that sends its action when that is legal now, else only the cards.
 * @param {import("./table-games.js").InfoChoice[]} choices
 * @param {Set<string>} offered the legal actions
 * @returns {HTMLElement}
 */
function choiceRow(choices, offered) {
  const row = el("span", "choices");
  for (const choice of choices) {
    const legal = offered.has(choice.action);
    const node = el(legal ? "button" : "span", legal ? "choice legal" : "choice");
    for (const code of choice.cards) {
      const card = el("span", "card");
      card.dataset.card = code;
      card.append(cardPicture(code));
      node.append(card);
    }
    if (legal) {
      const button = /** @type {HTMLButtonElement} */ (node);
      button.type = "button";
      button.dataset.action = choice.action;
      const names = choice.cards.map((code) => nameOf(code, pack)).join(", ");
      button.setAttribute("aria-label", `${actionLabel(choice.action, game.name, pack)}: ${names}`);
      button.title = actionLabel(choice.action, game.name, pack);
      button.disabled = state.pending !== null;
      button.addEventListener("click", () => act(choice.action));
    } else {
      node.setAttribute("aria-label", choice.cards.map((code) => nameOf(code, pack)).join(", "));
      node.setAttribute("role", "img");
    }
    row.append(node);
  }
  return row;
}

/** The actions my seat may take now (none once the match has ended). */
function legalActions() {
  const match = state.snapshot && state.snapshot.match;
  // a match ended by agreement leaves its last deal unfinished: nothing to do there;
  // nor is there while the table plays a forced move itself (turn.forced)
  if (state.turn.forced) return [];
  return /** @type {string[]} */ ((!(match && match.finished) && state.view && state.view.legal_actions) || []);
}

/** The actions an info line offers as a choice of cards (no button of their own then). */
function choiceActions() {
  const actions = new Set();
  for (const line of infoLines(game, state.view, seatName)) {
    for (const choice of line.choices || []) actions.add(choice.action);
  }
  return actions;
}

/** The legal actions of my seat, split into card actions and buttons. */
function legal() {
  /** @type {Map<string, string>} kind → action */
  const cards = new Map();
  /** @type {string[]} */
  const buttons = [];
  for (const action of legalActions()) {
    const [verb, arg] = action.split(" ");
    if (CARD_VERBS.includes(verb) && arg) cards.set(arg, action);
    else if (action !== TAKE_BACK) buttons.push(action); // its own button, beside the hand
  }
  return { cards, buttons, verb: cards.size ? [...cards.values()][0].split(" ")[0] : null };
}

function renderActions() {
  const box = $("actions");
  box.replaceChildren();
  renderTakeBack(/** @type {HTMLButtonElement} */ ($("take-back")), state.view, state.pending !== null);
  if (!state.view) return;
  const { buttons } = legal();
  const chosen = choiceActions();
  /** @type {Map<string, {row: HTMLElement, group: import("./table-games.js").ActionGroup}>} */
  const groups = new Map();
  for (const action of buttons) {
    if (chosen.has(action)) continue; // tapped as cards in the info line
    const group = actionGroup(game, action);
    let entry = groups.get(group.key);
    if (!entry) {
      entry = { row: el("div", "action-row"), group };
      groups.set(group.key, entry);
    }
    // the game's own words for the button ("Piccolo-bei", not a bare "-bei")
    const button = /** @type {HTMLButtonElement} */ (el("button", "action", buttonLabel(game, state.view, action)));
    button.type = "button";
    button.dataset.action = action;
    button.disabled = state.pending !== null;
    button.addEventListener("click", () => {
      openGroups.delete(group.key); // chosen: its folded list closes (not open next time)
      act(action);
    });
    entry.row.append(button);
  }
  // A group folds when the game says so (some only when long); the others get their label.
  for (const entry of groups.values()) {
    const count = entry.row.querySelectorAll("button").length;
    const fold = entry.group.fold && count > entry.group.foldOver;
    entry.group = { ...entry.group, fold };
    if (entry.group.key && !fold) entry.row.prepend(el("span", "action-group", entry.group.label));
  }
  // The main row first, then the labelled rows, then the folded groups.
  const order = [...groups.values()].sort((a, b) => rank(a.group) - rank(b.group));
  for (const { row, group } of order) {
    if (group.fold) {
      // The long lists of Vorbehalte fold away, so that the hand stays in sight.
      const key = group.key;
      const details = /** @type {HTMLDetailsElement} */ (el("details", "action-fold"));
      const count = row.querySelectorAll("button").length;
      details.append(el("summary", "", `${group.label} (${count})`), row);
      details.open = openGroups.has(key);
      details.addEventListener("toggle", () => {
        if (details.open) openGroups.add(key);
        else openGroups.delete(key);
      });
      box.append(details);
    } else {
      box.append(row);
    }
  }
}

/** Where a button group goes: the main row, labelled rows, folded groups. */
function rank(/** @type {import("./table-games.js").ActionGroup} */ group) {
  return group.fold ? 2 : group.key ? 1 : 0;
}

/** Which folded button groups the player has opened (kept across re-renders). */
const openGroups = new Set();

function renderHand() {
  const view = state.view;
  const box = $("hand");
  box.replaceChildren();
  if (!view.hand) {
    box.classList.add("empty");
    return;
  }
  box.classList.remove("empty");
  const { cards, verb } = legal();
  const n = view.hand.length;
  // in the player's own order (hand-sort.js), from the groups the game's view gives
  for (const code of sortedHand(view, handSort.current(), game.module.suitColours)) {
    const button = /** @type {HTMLButtonElement} */ (handCard(code));
    button.type = "button";
    const action = cards.get(kindOf(code));
    button.setAttribute("aria-label", nameOf(code, pack));
    button.setAttribute("aria-disabled", action ? "false" : "true");
    if (action) button.classList.add("legal");
    else if (verb) button.classList.add("illegal");
    if (state.pending) button.classList.add("waiting");
    button.addEventListener("click", () => tapCard(code, action, verb));
    box.append(button);
  }
  layoutHand(n);
}

/**
 * @param {string} code
 * @param {string | undefined} action
 * @param {string | null} verb
 */
function tapCard(code, action, verb) {
  if (action) {
    act(action);
    return;
  }
  const view = state.view;
  // Ask the server: its refusal names the rule (Farbzwang, not your turn…) and changes nothing.
  const probe = verb || (view.phase === "play" ? "play" : null);
  if (probe) {
    send({ type: "action", action: `${probe} ${kindOf(code)}`, v: state.v });
  } else {
    showNotice(t("table.no_card_now"));
  }
}

/** Overlap the hand's cards so that they fit the width (two rows on narrow screens). */
function layoutHand(/** @type {number} */ n) {
  const box = $("hand");
  // the dock's width (the hand itself grows with its cards in the dock's grid)
  const dock = box.parentElement;
  const width = Math.min((dock && dock.clientWidth) || window.innerWidth, document.documentElement.clientWidth);
  // a phone turned sideways has little height: smaller cards keep both rows in view
  const short = window.innerHeight <= 500;
  const cardWidth = width < 500 ? (short ? 56 : 64) : short ? 64 : window.innerHeight < 820 ? 72 : 88;
  const rows = n > 8 && width < 700 ? 2 : 1;
  const perRow = Math.ceil(n / rows);
  const step = perRow > 1 ? Math.min(cardWidth + 4, (width - cardWidth - 8) / (perRow - 1)) : cardWidth;
  box.style.setProperty("--card-w", `${cardWidth}px`);
  box.style.setProperty("--overlap", `${Math.min(0, step - cardWidth)}px`);
  box.style.setProperty("--per-row", String(perRow));
  // Two rows overlap too: the upper row shows its corner indices above the lower one.
  box.style.setProperty("--lift", `${-Math.round(cardWidth * 0.62)}px`);
  box.querySelectorAll(".card").forEach((card, i) => card.classList.toggle("lower", rows > 1 && i >= perRow));
}

// -------------------------------------------------------------------- panels, notices

/**
 * A toast over the lower felt (an error after a wrong tap, what the timer did): it never
 * moves the hand and never hides the turn. It goes after a while, on a tap, and (an
 * error) as soon as the table moves on.
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
function showNotice(text, kind = "error") {
  const box = $("notice");
  box.textContent = text;
  box.classList.toggle("info", kind === "info");
  box.dataset.kind = kind;
  box.setAttribute("role", kind === "info" ? "status" : "alert");
  box.hidden = false;
  window.clearTimeout(noticeTimer);
  noticeTimer = window.setTimeout(() => (box.hidden = true), 5000);
}

/** Take the toast away (only if it is of `kind`, when given). */
function hideNotice(/** @type {"error" | "info" | undefined} */ kind) {
  const box = $("notice");
  if (box.hidden || (kind && box.dataset.kind !== kind)) return;
  window.clearTimeout(noticeTimer);
  box.hidden = true;
}

/** Mark a box that has more below its lower edge: a shadow there says that it scrolls. */
function markOverflow(/** @type {Element} */ box) {
  const below = box.scrollHeight - box.clientHeight - box.scrollTop > 2;
  box.classList.toggle("more-below", below);
}

/** The scrolling boxes of the page: the felt and the panels' bodies. */
const scrollers = () => [$("felt"), ...document.querySelectorAll(".panel-body")];

function markOverflows() {
  for (const box of scrollers()) markOverflow(box);
}

/**
 * @param {string} text
 * @param {string} [link]
 */
function showConnection(text, link) {
  const box = $("connection");
  box.replaceChildren(el("span", "", text));
  if (link) {
    const a = /** @type {HTMLAnchorElement} */ (el("a", "button", t("table.go_on")));
    a.href = link;
    box.append(" ", a);
  }
  box.hidden = false;
}

function hideConnection() {
  $("connection").hidden = true;
}

/** @param {any} view a finished deal's view */
function showResult(view) {
  const summary = outcomeSummary(game, view, (seat) => view.seats[seat]);
  $("result-title").textContent = summary.title;
  const box = $("result");
  box.replaceChildren();
  const match = state.snapshot ? state.snapshot.match : null;
  const ledger = finishedLedger(match, match ? match.deal_number : null);
  const list = el("ul", "result-lines");
  for (const line of summary.lines) list.append(el("li", "", line));
  for (const reason of (ledger && ledger.reasons) || []) list.append(el("li", "ledger-deal", dealReasonText(reason)));
  box.append(list);
  // "Fair gemischt ✓": the revealed seed checked, the deal shuffled again (details on tap)
  const fair = fairBadge(state.snapshot, userId);
  if (fair) box.append(fair);
  if (ledger) {
    // what each person gets from the deal, as the ledger wrote it (the sheet's numbers)
    const sheet = match ? match.sheet || {} : {};
    const stake = typeof sheet.stake_cents === "number" ? sheet.stake_cents > 0 : false;
    const rows = ledgerTable(ledger, ledgerColumns(ledger, game.info.sheet, stake));
    box.append(match ? markLedgerRows(rows, computersByName(match)) : rows);
  } else if (ledgerAware(match)) {
    // the server writes the deal's ledger with the snapshot that follows
    box.append(el("p", "muted ledger-pending", t("ledger.pending")));
  } else {
    const table = el("table", "settlement");
    for (const row of summary.settlement) {
      const tr = el("tr");
      tr.append(el("td", "", row.player), el("td", "num " + (row.points >= 0 ? "up" : "down"), signed(row.points)));
      table.append(tr);
    }
    box.append(table);
  }
  // the last trick stays in view with the result
  const trickBox = $("result-trick");
  trickBox.classList.toggle("four", view.seats.length === 4);
  if (view.last_trick) layTrick(trickBox, view.last_trick, true);
  else trickBox.replaceChildren();
  trickBox.hidden = !view.last_trick;
  renderWaiting();
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  if (state.between) dialog.dataset.between = "1";
  if (!dialog.open) dialog.showModal();
  markOverflows();
}

/**
 * Whether the server writes ledgers (the snapshot's `match.ledger`, the sheet's
 * `pot_balances`): then a finished deal waits for its own instead of showing the seats' points.
 * @param {any} match
 * @returns {boolean}
 */
function ledgerAware(match) {
  if (!match) return false;
  if (Object.prototype.hasOwnProperty.call(match, "ledger")) return true;
  const sheet = match.sheet || {};
  return "pot_balances" in sheet;
}

/** Who the table still waits for before the next deal, and the pause's countdown. */
function renderWaiting() {
  const box = $("deal-waiting");
  const button = /** @type {HTMLButtonElement} */ ($("result-close"));
  box.replaceChildren();
  if (!state.between) {
    box.hidden = true;
    button.textContent = t("table.continue");
    button.disabled = false;
    return;
  }
  const names = waitingNames();
  const match = state.snapshot && state.snapshot.match;
  const meWaited = state.between.waiting.includes(userId);
  const player = match && match.player_ids.includes(userId);
  box.append(
    el("span", "", names.length ? t("tableui.waiting_for", { players: names.join(", ") }) : t("tableui.next_deal_soon")),
  );
  if (state.between.end !== null) {
    box.append(" ", countdownElement(state.between.end, (left) => t("tableui.pause_label", { left })));
  }
  box.hidden = false;
  // a player who sat this deal out (the dealer of a four) is not asked for "Weiter": he
  // closes the result, as a spectator does; a player who said "Weiter" waits for the others
  const you = state.snapshot && state.snapshot.you;
  const satOut = Boolean(player && you && you.seat === null);
  button.textContent = t(satOut ? "table.close" : "tableui.next");
  button.disabled = Boolean(player) && !meWaited && !satOut;
}

function renderChat() {
  const list = $("chat-lines");
  list.replaceChildren();
  for (const line of state.chat) {
    const li = el("li", line.user_id === userId ? "mine" : "");
    li.append(el("strong", "", line.name), el("span", "", " " + line.text));
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
  markOverflow(list);
  const badge = $("chat-unread");
  badge.textContent = String(state.unread);
  badge.hidden = state.unread === 0;
}

/** Wide screens keep the score sheet and the chat open beside the table. */
const wide = window.matchMedia("(min-width: 1100px)");

/** Open a panel: modal on a phone, beside the table on a wide screen (toggles there). */
function openPanel(/** @type {string} */ id) {
  const dialog = /** @type {HTMLDialogElement} */ ($(id));
  if (!wide.matches) {
    dialog.classList.remove("side", "upper", "lower");
    if (!dialog.open) dialog.showModal();
    markOverflows();
    return;
  }
  if (dialog.open && dialog.classList.contains("side")) {
    dialog.close();
  } else {
    if (dialog.open) dialog.close();
    dialog.classList.add("side");
    dialog.show();
  }
  arrangeSides();
}

/** The open side panels share the right edge: sheet above, chat below. */
function arrangeSides() {
  const sheet = /** @type {HTMLDialogElement} */ ($("sheet-dialog"));
  const chat = /** @type {HTMLDialogElement} */ ($("chat-dialog"));
  const both = sheet.open && chat.open && sheet.classList.contains("side") && chat.classList.contains("side");
  sheet.classList.toggle("upper", both);
  chat.classList.toggle("lower", both);
  document.body.classList.toggle(
    "side-open",
    [sheet, chat].some((d) => d.open && d.classList.contains("side")),
  );
  // the table is narrower or wider now: the hand's cards overlap anew to fit it
  if (state.view && state.view.hand) layoutHand(state.view.hand.length);
  measureDock();
}

/** The height of the dock (buttons and hand): a folded list opens above it. */
function measureDock() {
  const dock = /** @type {HTMLElement | null} */ (document.querySelector(".dock"));
  if (dock) root.style.setProperty("--dock-h", `${Math.ceil(dock.getBoundingClientRect().height) + 8}px`);
}

function setUpFeel() {
  const form = /** @type {HTMLFormElement} */ ($("settings-form"));
  for (const name of /** @type {const} */ (["sound", "vibrate", "notify"])) {
    const box = /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
    box.checked = feel[name];
    box.addEventListener("change", async () => {
      feel[name] = box.checked;
      if (name === "notify" && box.checked && !(await askToNotify())) {
        feel.notify = false;
        box.checked = false;
      }
      saveSettings(feel);
    });
  }
  $("open-settings").addEventListener("click", () => openPanel("settings-dialog"));
}

function setUpPanels() {
  const open = openPanel;
  for (const id of ["sheet-dialog", "chat-dialog"]) $(id).addEventListener("close", arrangeSides);
  $("open-sheet").addEventListener("click", () => open("sheet-dialog"));
  $("open-chat").addEventListener("click", () => {
    state.unread = 0;
    renderChat();
    open("chat-dialog");
    $("chat-text").focus();
  });
  $("result-close").addEventListener("click", (event) => {
    // a tap before the server said the table waits: "Weiter" as soon as it does; a player
    // of the deal keeps the result open meanwhile (it stays until the next deal, as after a
    // tap in the pause), everybody else just closes it
    if (!state.between && state.view && state.view.phase === "finished") {
      earlyNext = state.v;
      const you = state.snapshot && state.snapshot.you;
      if (you && you.role === "player" && you.seat !== null) {
        event.preventDefault();
        /** @type {HTMLButtonElement} */ ($("result-close")).disabled = true;
        return;
      }
    }
    // between deals a player's tap is "Weiter" (spec13 §2); the result stays until the deal
    if (!state.between || !state.between.waiting.includes(userId)) return;
    event.preventDefault();
    if (send({ type: "next" })) /** @type {HTMLButtonElement} */ ($("result-close")).disabled = true;
    else showNotice(t("table.offline_action"));
  });
  // the Schreibe while the result is up (it is modal while the table waits for "Weiter"):
  // the sheet opens above the result, which is still there when the sheet is closed
  $("result-sheet").addEventListener("click", () => {
    const sheet = /** @type {HTMLDialogElement} */ ($("sheet-dialog"));
    if (sheet.open) sheet.close();
    sheet.classList.remove("side", "upper", "lower");
    sheet.showModal();
    markOverflows();
  });
  $("show-last-trick").addEventListener("click", () => {
    if (!state.view || !state.view.last_trick) return;
    layTrick($("last-trick"), state.view.last_trick, true);
    open("last-trick-dialog");
  });
  // taking back the card just played (shown only while the engine allows it)
  $("take-back").addEventListener("click", () => act(TAKE_BACK));
  // a pause by agreement: the button asks (or withdraws the ask) for what the table is not
  $("ask-pause").addEventListener("click", () => {
    const mine = state.pause.asking.includes(userId);
    // asking for what the table does already withdraws one's ask
    const pause = mine ? state.pause.paused : !state.pause.paused;
    if (!send({ type: "pause", pause })) showNotice(t("table.offline_action"));
  });
  // the stand-in: "Vertretung für 5 Minuten", or ending the one we asked for
  $("ask-standin").addEventListener("click", () => {
    const mine = !!(state.standins && String(userId) in state.standins.asked);
    if (!send({ type: "standin", on: !mine })) showNotice(t("table.offline_action"));
  });
  // quick phrases: "Sagen" opens them, one tap sends one as a chat line
  const talk = $("talk");
  const opener = $("open-talk");
  opener.addEventListener("click", () => {
    talk.hidden = !talk.hidden;
    opener.setAttribute("aria-expanded", String(!talk.hidden));
    measureDock();
  });
  talk.addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("button[data-phrase]");
    if (!button) return;
    if (!send({ type: "chat", text: t(/** @type {string} */ (/** @type {HTMLElement} */ (button).dataset.phrase)) })) {
      showNotice(t("table.offline_action"));
      return;
    }
    talk.hidden = true;
    opener.setAttribute("aria-expanded", "false");
    measureDock();
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("chat-text"));
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
    else showNotice(t("table.offline_action"));
  });
  window.addEventListener("resize", () => {
    if (state.view && state.view.hand) layoutHand(state.view.hand.length);
    measureDock();
    markOverflows();
  });
  $("notice").addEventListener("click", () => hideNotice());
  // the felt's size changes with the dock below it (buttons come and go), a panel's when
  // it opens
  const sizes = new ResizeObserver((entries) => entries.forEach((entry) => markOverflow(entry.target)));
  for (const box of scrollers()) {
    box.addEventListener("scroll", () => markOverflow(box), { passive: true });
    sizes.observe(box);
  }
}

/** The player's order of the hand: a choice in the settings re-sorts it at once. */
const handSort = setUpHandSort({
  root,
  game: game.name,
  colours: game.module.suitColours,
  onChange: () => {
    if (state.view) renderHand();
  },
  onError: (reason) => showNotice(t("handsort.not_kept", { reason })),
});

setUpPanels();
setUpFeel();
startTicking();
connect();
