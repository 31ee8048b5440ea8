/**
 * The invite page: a guest form that logs in and joins in one go, or (logged in) the
 * buttons that join as a player or a spectator. Either way the room page follows.
 */

import { api, showError, ApiError } from "./api.js";
import { onSubmit, pageData } from "./forms.js";
import { t } from "./i18n.js";

/** @type {{token: string, room_id: number, seats_free: number, allow_spectators: boolean,
 *            status: string}} */
const invite = pageData("invite-data");

/**
 * Join the room with `role` and go to the room page.
 * @param {"player" | "spectator"} role
 */
async function join(role) {
  await api("POST", `/api/invite/${encodeURIComponent(invite.token)}/join`, { role });
  // a spectator of a running match sits down at the table at once
  const table = role === "spectator" && invite.status === "playing" ? "/table" : "";
  location.assign(`/rooms/${invite.room_id}${table}`);
}

const guestForm = /** @type {HTMLFormElement | null} */ (
  document.getElementById("invite-guest-form")
);
if (guestForm) {
  onSubmit(guestForm, async (values) => {
    await api("POST", "/api/guest", { display_name: values.display_name });
    const role = invite.seats_free > 0 ? "player" : invite.allow_spectators ? "spectator" : null;
    if (role === null) {
      location.reload();
      return;
    }
    try {
      await join(role);
    } catch (error) {
      // Logged in now, but the seat went meanwhile: show the page logged in, with why.
      if (error instanceof ApiError) sessionStorage.setItem("invite-error", error.message);
      location.reload();
    }
  });
}

const errorBox = /** @type {HTMLElement | null} */ (document.getElementById("join-error"));
const saved = sessionStorage.getItem("invite-error");
if (saved && errorBox) {
  sessionStorage.removeItem("invite-error");
  showError(errorBox, saved);
}

for (const button of document.querySelectorAll("button[data-role]")) {
  button.addEventListener("click", async () => {
    const buttons = document.querySelectorAll("button[data-role]");
    buttons.forEach((b) => /** @type {HTMLButtonElement} */ (b).setAttribute("disabled", ""));
    try {
      await join(/** @type {"player" | "spectator"} */ (button.getAttribute("data-role")));
    } catch (error) {
      if (errorBox) {
        showError(errorBox, error instanceof ApiError ? error.message : t("error.unknown"));
      }
      buttons.forEach((b) => b.removeAttribute("disabled"));
    }
  });
}
