/**
 * The JSON API (docs/api.md) for the page modules: one `api()` call that throws an
 * `ApiError` with the server's code and message in the page's language.
 */

import { errorText, t } from "./i18n.js";

/** A refusal of the API (or a network failure: code "network"). */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status
   */
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * Call the API: `api("POST", "/api/rooms", {...})` → the answer's JSON (null for 204).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("network", t("error.network"), 0);
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || { code: "http_" + response.status };
    throw new ApiError(error.code, errorText(error), response.status);
  }
  return data;
}

/**
 * Show `message` in the element `[data-error-for=form.id]` (or the form's `.form-error`).
 * @param {HTMLElement} box
 * @param {string} message
 */
export function showError(box, message) {
  box.textContent = message;
  box.hidden = !message;
}
