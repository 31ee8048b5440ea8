/**
 * The account page: change the display name and the language (PATCH /api/me), claim a
 * guest account (POST /api/claim), log out (POST /api/logout).
 */

import { api } from "./api.js";
import { onSubmit } from "./forms.js";
import { t } from "./i18n.js";

/**
 * The form with `id`, if the page has it.
 * @param {string} id
 * @returns {HTMLFormElement | null}
 */
function form(id) {
  return /** @type {HTMLFormElement | null} */ (document.getElementById(id));
}

const nameForm = form("name-form");
if (nameForm) {
  onSubmit(nameForm, async (values, current) => {
    const user = await api("PATCH", "/api/me", { display_name: values.display_name });
    const input = /** @type {HTMLInputElement} */ (current.elements.namedItem("display_name"));
    input.value = user.display_name;
    const shown = document.querySelector(".nav-user");
    if (shown) shown.textContent = user.display_name;
    const saved = current.querySelector(".saved");
    if (saved) saved.textContent = t("account.saved");
  });
}

const languageForm = form("language-form");
if (languageForm) {
  onSubmit(languageForm, async (values) => {
    const user = await api("PATCH", "/api/me", { language: values.language });
    // ?lang= also replaces a language chosen earlier with the switch in the header.
    location.assign(`/account?lang=${encodeURIComponent(user.language)}`);
  });
}

const claimForm = form("claim-form");
if (claimForm) {
  onSubmit(claimForm, async (values) => {
    await api("POST", "/api/claim", { login: values.login, password: values.password });
    location.reload();
  });
}

const logoutForm = form("logout-form");
if (logoutForm) {
  onSubmit(logoutForm, async () => {
    await api("POST", "/api/logout");
    location.assign("/");
  });
}
