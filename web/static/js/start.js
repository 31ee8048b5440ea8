/**
 * The start page, logged out: log in, register or play as a guest. Afterwards the page
 * goes to `?next=` (when it is a local path) or shows itself logged in.
 */

import { api } from "./api.js";
import { nextPath, onSubmit } from "./forms.js";

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
