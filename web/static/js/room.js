/**
 * The room page: the invite link with a copy button, the seats and members (re-read from
 * GET /api/rooms/{id} every 2 seconds), and for the host the seat order, removing members
 * and starting the match. When the match starts everybody is taken to the table page.
 * Around the table: after a finished match a player offers or accepts the Revanche (the
 * new match starts when all accepted), during a match a player agrees to end it early,
 * and anybody leaves the room where allowed (a player of a running match only by ending
 * it by agreement). The host seats computer players ("Computer hinzufügen", with a level),
 * moves and removes them like members; each shows its mark (icon and text). A
 * correspondence room's players take holiday days here (room-holidays.js).
 */

import { api, ApiError, showError } from "./api.js";
import { el, pageData } from "./forms.js";
import { t } from "./i18n.js";
import { COMPUTER_LEVELS, computerMark } from "./computer-mark.js";
import { giveSeed } from "./fair.js";
import { watchHolidays } from "./room-holidays.js";

const POLL_MS = 2000;

/**
 * @typedef {{user_id: number, display_name: string, role: string, seat_order: number|null,
 *            is_host: boolean, kind?: string, level?: string|null,
 *            computer_id?: number|null}} Member
 * @typedef {{id: number, status: string, host_id: number, seats: number, seats_free: number,
 *            invite_url: string, members: Member[],
 *            rematch: {by: number, accepted: number[]}|null, end_votes: number[],
 *            fair?: {commitment: string, seeded: number[]}|null}} Room
 */

/** @type {{room: Room, me: number, start_with: number[]}} */
const data = pageData("room-data");
const roomId = data.room.id;
const tablePath = `/rooms/${roomId}/table`;
const errorBox = /** @type {HTMLElement} */ (document.getElementById("room-error"));
let lastSeen = "";
let lastStatus = data.room.status;
let busy = false;
/** @type {number | undefined} */
let timer;

/**
 * Run a host action; the answer (the room) is shown at once, a refusal below the seats.
 * @param {() => Promise<Room | null>} action
 */
async function act(action) {
  if (busy) return;
  busy = true;
  showError(errorBox, "");
  try {
    const room = await action();
    if (room) show(room);
  } catch (error) {
    showError(errorBox, error instanceof ApiError ? error.message : t("error.unknown"));
  } finally {
    busy = false;
  }
}

/**
 * A small button with a visible symbol and a spoken label.
 * @param {string} symbol
 * @param {string} label
 * @param {() => void} onClick
 * @param {boolean} [disabled]
 */
function iconButton(symbol, label, onClick, disabled = false) {
  const button = el("button", "icon", symbol);
  button.setAttribute("type", "button");
  button.setAttribute("aria-label", label);
  button.title = label;
  button.toggleAttribute("disabled", disabled);
  button.addEventListener("click", onClick);
  return button;
}

/**
 * A member's line: name (as text), marks, and the host's controls.
 * @param {Room} room
 * @param {Member} member
 * @param {Member[]} players
 */
function memberLine(room, member, players) {
  const line = el("li", member.role === "player" ? "seat" : "");
  line.append(el("span", "person-name", member.display_name));
  const computer = member.kind === "computer" && member.level ? member.level : null;
  if (computer) {
    line.classList.add("computer");
    line.append(" ", computerMark(computer));
  }
  const marks = [];
  if (member.is_host) marks.push(t("role.host"));
  if (member.user_id === data.me) marks.push(t("room.you"));
  if (marks.length) line.append(" ", el("span", "meta", marks.join(" · ")));
  const iHost = room.host_id === data.me && room.status === "open";
  if (!iHost) return line;
  const controls = el("span", "controls");
  if (member.role === "player") {
    const index = players.indexOf(member);
    const order = players.map((p) => p.user_id);
    /** @param {number} delta */
    const move = (delta) => {
      const next = order.slice();
      [next[index], next[index + delta]] = [next[index + delta], next[index]];
      act(() => api("PUT", `/api/rooms/${roomId}/seats`, { order: next }));
    };
    const name = member.display_name;
    controls.append(
      iconButton("↑", t("room.move_up", { name }), () => move(-1), index === 0),
      iconButton("↓", t("room.move_down", { name }), () => move(1), index === players.length - 1),
    );
  }
  if (computer) {
    controls.append(
      iconButton("✕", t("room.remove", { name: member.display_name }), () =>
        act(() => api("DELETE", `/api/rooms/${roomId}/computers/${member.computer_id}`)),
      ),
    );
  } else if (!member.is_host) {
    controls.append(
      iconButton("✕", t("room.remove", { name: member.display_name }), () => {
        if (!confirm(t("room.remove_confirm", { name: member.display_name }))) return;
        act(() => api("DELETE", `/api/rooms/${roomId}/members/${member.user_id}`));
      }),
    );
  }
  line.append(controls);
  return line;
}

/**
 * The start button (host) or what everyone else waits for.
 * @param {Room} room
 * @param {Member[]} players
 */
function startArea(room, players) {
  const area = /** @type {HTMLElement} */ (document.getElementById("start-area"));
  area.replaceChildren();
  if (room.status !== "open") return;
  const ready = data.start_with.includes(players.length);
  if (room.host_id === data.me) {
    const button = el("button", "primary", t("room.start"));
    button.setAttribute("type", "button");
    button.id = "start-match";
    button.toggleAttribute("disabled", !ready);
    button.addEventListener("click", () =>
      act(async () => {
        await api("POST", `/api/rooms/${roomId}/start`);
        location.assign(tablePath);
        return null;
      }),
    );
    area.append(button);
    if (room.seats_free > 0) area.append(addComputer());
  }
  const needed = Math.min(...data.start_with);
  const hint = ready
    ? room.host_id === data.me
      ? t("room.ready")
      : t("room.wait_for_host")
    : t("room.need_players", { count: players.length, needed });
  area.append(el("p", "hint", hint));
}

/** The level the host chose last for a computer player (kept across the page's redraws). */
let chosenLevel = COMPUTER_LEVELS[0];

/**
 * The host's "Computer hinzufügen": a level to choose and the button that seats a computer
 * player of that level on the next free seat.
 */
function addComputer() {
  const row = el("div", "add-computer");
  const label = el("label", "", t("computer.level"));
  label.setAttribute("for", "computer-level");
  const select = /** @type {HTMLSelectElement} */ (el("select"));
  select.id = "computer-level";
  for (const level of COMPUTER_LEVELS) {
    const option = /** @type {HTMLOptionElement} */ (el("option", "", t(`computer.level.${level}`)));
    option.value = level;
    option.selected = level === chosenLevel;
    select.append(option);
  }
  select.addEventListener("change", () => (chosenLevel = select.value));
  const button = el("button", "", t("computer.add"));
  button.setAttribute("type", "button");
  button.id = "add-computer";
  button.addEventListener("click", () =>
    act(() => api("POST", `/api/rooms/${roomId}/computers`, { level: select.value })),
  );
  row.append(label, " ", select, " ", button);
  return row;
}

/**
 * Show `room` (members, seats, status); go to the table when the match has started since
 * the page was opened.
 * @param {Room} room
 * @param {boolean} [initial]
 */
function show(room, initial = false) {
  if (room.status === "playing" && !initial && lastStatus !== "playing") {
    stop();
    location.assign(tablePath);
    return;
  }
  lastStatus = room.status;
  // the commitment is shown: this player's own seed for the fair shuffle goes with it
  giveSeed(roomId, room, data.me);
  const seen = JSON.stringify(room);
  if (seen === lastSeen) return;
  lastSeen = seen;
  const players = room.members.filter((m) => m.role === "player");
  const spectators = room.members.filter((m) => m.role !== "player");
  const seats = /** @type {HTMLElement} */ (document.getElementById("seats"));
  seats.replaceChildren(...players.map((m) => memberLine(room, m, players)));
  for (let i = 0; i < room.seats_free; i++) seats.append(el("li", "seat free", t("room.seat_free")));
  const watchers = /** @type {HTMLElement} */ (document.getElementById("spectators"));
  watchers.replaceChildren(...spectators.map((m) => memberLine(room, m, players)));
  /** @type {HTMLElement} */ (document.getElementById("spectators-block")).hidden =
    spectators.length === 0;
  const status = document.getElementById("room-status");
  if (status) {
    status.textContent =
      room.status === "open"
        ? t("status.open")
        : room.status === "playing"
          ? t("status.playing")
          : t("status.finished");
    status.className = "status status-" + room.status;
  }
  startArea(room, players);
  aroundArea(room, players);
  fairLine(room);
  if (room.status !== "open") {
    /** @type {HTMLElement} */ (document.getElementById("invite-panel")).hidden = true;
    const label = room.status === "finished" ? t("room.to_sheet") : t("room.to_table");
    const link = el("a", "button primary", label);
    link.setAttribute("href", tablePath);
    notice([link]);
  }
}

/**
 * The fair shuffle of the room's next match: its commitment, and whether this player's own
 * seed is in.
 * @param {Room} room
 */
function fairLine(room) {
  const line = /** @type {HTMLElement} */ (document.getElementById("fair-room"));
  const fair = room.fair;
  line.hidden = !fair;
  if (!fair) return;
  const mine = fair.seeded.includes(data.me) ? " " + t("fair.room_seeded") : "";
  line.textContent = t("fair.room_commitment", { commitment: fair.commitment.slice(0, 16) }) + mine;
}

/**
 * A button of the "around the table" area.
 * @param {string} id
 * @param {string} label
 * @param {() => Promise<Room | null>} action
 * @param {string} [kind]
 */
function aroundButton(id, label, action, kind = "") {
  const button = el("button", kind, label);
  button.setAttribute("type", "button");
  button.id = id;
  button.addEventListener("click", () => act(action));
  return button;
}

/**
 * Names of the players whose ids are (or are not) in `ids`.
 * @param {Member[]} players
 * @param {number[]} ids
 * @param {boolean} inside
 */
function namesOf(players, ids, inside) {
  return players
    .filter((p) => ids.includes(p.user_id) === inside)
    .map((p) => p.display_name)
    .join(", ");
}

/**
 * Revanche after a finished match, ending a running match by agreement, leaving.
 * @param {Room} room
 * @param {Member[]} players
 */
function aroundArea(room, players) {
  const area = /** @type {HTMLElement} */ (document.getElementById("around-area"));
  area.replaceChildren();
  const iPlay = players.some((p) => p.user_id === data.me);
  if (room.status === "finished" && iPlay) {
    const block = el("div", "rematch-area");
    block.append(el("h3", undefined, t("rooms.rematch")), el("p", "hint", t("rooms.rematch_hint")));
    const offer = room.rematch;
    if (offer) {
      const line = el("p", "rematch-status", t("rooms.rematch_waiting", {
        accepted: namesOf(players, offer.accepted, true),
        missing: namesOf(players, offer.accepted, false),
      }));
      line.id = "rematch-status";
      line.setAttribute("role", "status");
      block.append(line);
    }
    if (!offer || !offer.accepted.includes(data.me)) {
      const label = offer ? t("rooms.rematch_accept") : t("rooms.rematch_offer");
      block.append(aroundButton("rematch", label, async () => {
        const answer = await api("POST", `/api/rooms/${roomId}/rematch`);
        if (answer.match_id) {
          stop();
          location.assign(tablePath);
          return null;
        }
        return answer.room;
      }, "primary"));
    }
    area.append(block);
  }
  if (room.status === "playing" && iPlay) {
    const block = el("div", "end-area");
    const agreed = room.end_votes.includes(data.me);
    block.append(el("p", "hint", t("rooms.end_vote_hint")));
    if (room.end_votes.length) {
      const line = el("p", undefined, t("rooms.end_votes", { names: namesOf(players, room.end_votes, true) }));
      line.id = "end-votes";
      block.append(line);
    }
    const button = aroundButton("end-vote", t("rooms.end_vote"), async () => {
      const answer = await api(agreed ? "DELETE" : "POST", `/api/rooms/${roomId}/end`);
      return answer.room;
    });
    button.setAttribute("aria-pressed", String(agreed));
    block.append(button);
    area.append(block);
  }
  if (room.status !== "playing" || !iPlay) {
    const block = el("div", "leave-area");
    block.append(aroundButton("leave-room", t("rooms.leave"), async () => {
      if (!confirm(t("rooms.leave_confirm"))) return null;
      await api("POST", `/api/rooms/${roomId}/leave`);
      stop();
      location.assign("/");
      return null;
    }));
    area.append(block);
  }
}

/**
 * Show `nodes` in the notice line above the room.
 * @param {(Node|string)[]} nodes
 */
function notice(nodes) {
  const box = /** @type {HTMLElement} */ (document.getElementById("room-notice"));
  box.replaceChildren(...nodes);
  box.hidden = nodes.length === 0;
}

function stop() {
  if (timer !== undefined) clearInterval(timer);
  timer = undefined;
}

async function poll() {
  if (busy || document.hidden) return;
  try {
    show(await api("GET", `/api/rooms/${roomId}`));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      stop();
      // Removed by the host: the server's message names who did it.
      const removed = error.code === "removed_from_room";
      const home = el("a", undefined, t("room.back_home"));
      home.setAttribute("href", "/");
      notice([removed ? error.message : t("room.gone"), " ", home]);
    }
    // Anything else (network, a restart): try again at the next tick.
  }
}

// ------------------------------------------------------------------ the invite link

const linkField = /** @type {HTMLInputElement} */ (document.getElementById("invite-link"));
const feedback = /** @type {HTMLElement} */ (document.getElementById("copy-feedback"));
linkField.value = new URL(linkField.dataset.path || "", location.origin).href;
linkField.addEventListener("focus", () => linkField.select());

document.getElementById("copy-invite")?.addEventListener("click", async () => {
  let copied = false;
  try {
    await navigator.clipboard.writeText(linkField.value);
    copied = true;
  } catch {
    linkField.focus();
    linkField.select();
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  feedback.textContent = copied ? t("room.copied") : t("room.copy_by_hand");
  setTimeout(() => (feedback.textContent = ""), 4000);
});

show(data.room, true);
{
  timer = setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer !== undefined) poll();
  });
}

// a correspondence room: the holidays (the section is there for its players only)
const holidays = document.getElementById("holidays");
if (holidays) watchHolidays(holidays, roomId, data.me);
