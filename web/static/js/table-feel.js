/**
 * The table's feel: "Du bist dran" in the tab title, an optional sound, vibration and
 * (when the tab is hidden and the player allowed it) a browser notification on the
 * player's turn. The settings live in this browser's localStorage and are all off until
 * the player switches them on.
 */

const STORE = "stammtisch.table.feel";

/** @typedef {{sound: boolean, vibrate: boolean, notify: boolean}} FeelSettings */

/** @returns {FeelSettings} */
export function loadSettings() {
  const off = { sound: false, vibrate: false, notify: false };
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    return {
      sound: saved.sound === true,
      vibrate: saved.vibrate === true,
      notify: saved.notify === true,
    };
  } catch {
    return off;
  }
}

/** @param {FeelSettings} settings */
export function saveSettings(settings) {
  try {
    localStorage.setItem(STORE, JSON.stringify(settings));
  } catch {
    // private mode: the settings last for this page only
  }
}

/**
 * The tab title: `mine` puts the "your turn" text in front of the page's own title.
 * @param {string} base the page's title
 * @param {boolean} mine
 * @param {string} yourTurn
 */
export function setTitle(base, mine, yourTurn) {
  const title = mine ? `${yourTurn} · ${base}` : base;
  if (document.title !== title) document.title = title;
}

/** @type {AudioContext | null} */
let audio = null;

/** A short soft double beep (Web Audio; no sound file). */
function beep() {
  try {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    const now = audio.currentTime;
    for (const [start, freq] of [[0, 660], [0.16, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + 0.15);
    }
  } catch {
    // no audio: nothing to do
  }
}

/**
 * Tell the player it is their turn, the ways they chose.
 * @param {FeelSettings} settings
 * @param {string} title the notification's title
 * @param {string} body
 */
export function alertTurn(settings, title, body) {
  if (settings.sound) beep();
  if (settings.vibrate && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  if (
    settings.notify &&
    document.hidden &&
    "Notification" in window &&
    Notification.permission === "granted"
  ) {
    try {
      const note = new Notification(title, { body, tag: "stammtisch-turn" });
      note.onclick = () => window.focus();
    } catch {
      // some browsers allow notifications only from a service worker
    }
  }
}

/** Ask for the permission to notify (after the player switched notifications on). */
export async function askToNotify() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  return (await Notification.requestPermission()) === "granted";
}

/** Whether the player asked for less movement. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
