/**
 * Small helpers shared by the page modules: forms that call the API and show refusals
 * next to themselves, the safe `?next=` target, and building DOM without innerHTML.
 */

import { ApiError, showError } from "./api.js";
import { t } from "./i18n.js";

/**
 * Run `action(values)` when `form` is submitted: the submit button is disabled meanwhile
 * and a refusal is shown in the form's `.form-error` box (never an alert).
 * @param {HTMLFormElement} form
 * @param {(values: Record<string, string>, form: HTMLFormElement) => Promise<void>} action
 */
export function onSubmit(form, action) {
  const box = /** @type {HTMLElement} */ (form.querySelector(".form-error"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((button) => (button.disabled = true));
    if (box) showError(box, "");
    /** @type {Record<string, string>} */
    const values = {};
    new FormData(form).forEach((value, key) => (values[key] = String(value)));
    try {
      await action(values, form);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : t("error.unknown");
      if (box) showError(box, message);
      buttons.forEach((button) => (button.disabled = false));
      if (!(error instanceof ApiError)) console.error(error);
      return;
    }
    buttons.forEach((button) => (button.disabled = false));
  });
}

/**
 * The page to go to after logging in: `?next=` when it is a local path ("/…", not "//…"),
 * else null.
 * @returns {string | null}
 */
export function nextPath() {
  const next = new URLSearchParams(location.search).get("next");
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) {
    return null;
  }
  return next;
}

/**
 * A new element with a class and text (text is always set as textContent).
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The data a page embeds as JSON in `<script type="application/json" id=...>`.
 * @param {string} id
 * @returns {any}
 */
export function pageData(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent || "null") : null;
}
