/**
 * The start page, logged out: log in, register or play as a guest. Afterwards the page
 * goes to `?next=` (when it is a local path) or shows itself logged in. Logged in, the
 * "du bist dran" markers of "Meine Räume" are re-read from GET /api/rooms every few
 * seconds while the page is visible. Each playable game offers a practice room with
 * computer players ("Üben mit Computerspielern"), started at once. At the top, "Du bist
 * dran" lists every table that waits for the person's move (turns-list.js).
 */

import { api } from "./api.js";
import { el, nextPath, onSubmit } from "./forms.js";
import { t } from "./i18n.js";
import { watchTurns } from "./turns-list.js";

const TURN_POLL_MS = 5000;

/** Go where the visitor wanted to go, or reload the start page (now logged in). */
function done() {
  const next = nextPath();
  if (next) location.assign(next);
  else location.assign("/");
}

const login = /** @type {HTMLFormElement | null} */ (document.getElementById("login-form"));
const register = /** @type {HTMLFormElement | null} */ (
  document.getElementById("register-form")
);
const guest = /** @type {HTMLFormElement | null} */ (document.getElementById("guest-form"));

if (login) {
  onSubmit(login, async (values) => {
    await api("POST", "/api/login", { login: values.login, password: values.password });
    done();
  });
}
if (register) {
  onSubmit(register, async (values) => {
    await api("POST", "/api/register", {
      login: values.login,
      display_name: values.display_name,
      password: values.password,
    });
    done();
  });
}
if (guest) {
  onSubmit(guest, async (values) => {
    await api("POST", "/api/guest", { display_name: values.display_name });
    done();
  });
}

// "Üben mit Computerspielern": a practice room of the game, started at once, then its table
for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (
  document.querySelectorAll("form.practice[data-game]")
)) {
  onSubmit(form, async (values) => {
    const answer = await api("POST", "/api/practice", {
      game: form.dataset.game,
      level: values.level,
    });
    location.assign(`/rooms/${answer.room.id}/table`);
  });
}

/**
 * Mark the listed rooms whose running match waits for me; their link leads to the table.
 * @param {{id: number, your_turn: boolean}[]} rooms
 */
function markTurns(rooms) {
  for (const room of rooms) {
    const item = document.querySelector(`.room-item[data-room="${room.id}"]`);
    if (!item) continue;
    const link = item.querySelector("a.room-link");
    let badge = item.querySelector(".badge.turn");
    item.classList.toggle("your-turn", room.your_turn);
    if (link) link.setAttribute("href", `/rooms/${room.id}${room.your_turn ? "/table" : ""}`);
    if (room.your_turn && !badge && link) {
      let badges = link.querySelector(".room-badges");
      if (!badges) {
        badges = el("span", "room-badges");
        link.append(badges);
      }
      badge = el("span", "badge turn", t("rooms.your_turn"));
      badges.prepend(badge);
    } else if (!room.your_turn && badge) {
      badge.remove();
    }
  }
}

if (document.querySelector(".room-item[data-room]")) {
  setInterval(async () => {
    if (document.hidden) return;
    try {
      markTurns((await api("GET", "/api/rooms")).rooms);
    } catch {
      // a network hiccup or a restart: try again at the next tick
    }
  }, TURN_POLL_MS);
}

const turnsSection = document.getElementById("turns");
if (turnsSection) watchTurns(turnsSection);
