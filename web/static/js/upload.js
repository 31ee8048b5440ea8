/**
 * Viewing a deal record from a file (/archive/replay): choose a file or drop it on the
 * zone; the record is checked here for being JSON of a sane size, then strictly by the
 * server (POST /api/records/replay), whose refusal names the place in the record and the
 * rule ("actions[17] (1, 'play HK'): Farbzwang …"). On success the replay viewer shows it.
 * Nothing is stored.
 */

import { ApiError, api, showError } from "./api.js";
import { t } from "./i18n.js";
import { mountReplay } from "./replay.js";

/** The largest record the server accepts (256 KiB). */
export const MAX_RECORD_BYTES = 256 * 1024;

const form = /** @type {HTMLFormElement} */ (document.getElementById("upload-form"));
const input = /** @type {HTMLInputElement} */ (document.getElementById("record-file"));
const zone = /** @type {HTMLElement} */ (document.getElementById("drop-zone"));
const errorBox = /** @type {HTMLElement} */ (document.getElementById("upload-error"));
const status = /** @type {HTMLElement} */ (document.getElementById("upload-status"));
const viewer = /** @type {HTMLElement} */ (document.getElementById("viewer"));

/** @type {{destroy: () => void} | null} */
let mounted = null;

/**
 * Read, check and send one file; show the replay or the reason it was refused.
 * @param {File} file
 * @returns {Promise<void>}
 */
export async function viewFile(file) {
  showError(errorBox, "");
  status.textContent = t("archive.upload.reading", { file: file.name });
  if (file.size > MAX_RECORD_BYTES) {
    fail(t("archive.upload.too_large", { kib: Math.ceil(file.size / 1024), max: MAX_RECORD_BYTES / 1024 }));
    return;
  }
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    fail(t("archive.upload.not_json", { file: file.name }));
    return;
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    fail(t("archive.upload.not_object"));
    return;
  }
  if (record.format === "stammtisch-match") {
    fail(t("archive.upload.match_record"));
    return;
  }
  let replay;
  try {
    replay = await api("POST", "/api/records/replay", record);
  } catch (error) {
    fail(error instanceof ApiError ? t("archive.upload.refused", { reason: error.message }) : t("error.unknown"));
    if (!(error instanceof ApiError)) console.error(error);
    return;
  }
  status.textContent = t("archive.upload.shown", { file: file.name });
  if (mounted) mounted.destroy();
  mounted = await mountReplay(viewer, replay, { useHash: false });
  viewer.scrollIntoView({ block: "start" });
}

/** @param {string} message */
function fail(message) {
  status.textContent = "";
  showError(errorBox, message);
  if (mounted) {
    mounted.destroy();
    mounted = null;
  }
  viewer.hidden = true;
}

input.addEventListener("change", () => {
  const file = input.files && input.files[0];
  if (file) viewFile(file);
});
form.addEventListener("submit", (event) => event.preventDefault());
for (const type of ["dragenter", "dragover"]) {
  zone.addEventListener(type, (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
}
for (const type of ["dragleave", "drop"]) {
  zone.addEventListener(type, () => zone.classList.remove("over"));
}
zone.addEventListener("drop", (event) => {
  event.preventDefault();
  const file = event.dataTransfer && event.dataTransfer.files[0];
  if (file) viewFile(file);
});
