/**
 * The account page: change the display name and the language (PATCH /api/me), claim a
 * guest account (POST /api/claim), log out (POST /api/logout); notifications on this
 * device (Web Push) and the e-mail address with its daily digest.
 */

import { ApiError, api, showError } from "./api.js";
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

// ---------------------------------------------------------------- notifications

const pushForm = form("push-form");
if (pushForm) setUpPush(pushForm);

/**
 * "Benachrichtigungen auf diesem Gerät": subscribe this browser with the server's VAPID
 * key (GET /api/push/key, POST /api/push/subscriptions) or unsubscribe it (DELETE);
 * the service worker (/sw.js) shows the messages.
 * @param {HTMLFormElement} panel
 */
async function setUpPush(panel) {
  const state = /** @type {HTMLElement} */ (panel.querySelector(".push-state"));
  const button = /** @type {HTMLButtonElement} */ (panel.querySelector("button"));
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    state.textContent = t("notify.account.push_unsupported");
    return;
  }
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  /** @param {PushSubscription | null} subscription */
  const show = (subscription) => {
    if (Notification.permission === "denied") {
      state.textContent = t("notify.account.push_denied");
      button.hidden = true;
      return;
    }
    state.textContent = t(subscription ? "notify.account.push_state_on" : "notify.account.push_state_off");
    button.textContent = t(subscription ? "notify.account.push_off" : "notify.account.push_on");
    button.hidden = false;
  };
  show(await registration.pushManager.getSubscription());
  const devices = new DeviceList(panel, registration, show);
  await devices.load();
  onSubmit(panel, async () => {
    const current = await registration.pushManager.getSubscription();
    if (current) {
      await api("DELETE", "/api/push/subscriptions", { endpoint: current.endpoint }).catch((error) => {
        if (!(error instanceof ApiError) || error.code !== "push_subscription_unknown") throw error;
      });
      await current.unsubscribe();
      show(null);
      await devices.load();
      return;
    }
    if ((await Notification.requestPermission()) !== "granted") {
      show(null);
      return;
    }
    const { key } = await api("GET", "/api/push/key");
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    });
    try {
      await api("POST", "/api/push/subscriptions", { ...subscription.toJSON(), label: deviceLabel() });
    } catch (error) {
      await subscription.unsubscribe();
      throw error;
    }
    show(subscription);
    await devices.load();
  });
}

/**
 * "Deine Geräte": every device of the person that gets notifications (GET
 * /api/push/subscriptions), each with a button that forgets it (DELETE; this browser's
 * own subscription is ended too). The list is hidden while there is none.
 */
class DeviceList {
  /**
   * @param {HTMLFormElement} panel
   * @param {ServiceWorkerRegistration} registration
   * @param {(subscription: PushSubscription | null) => void} show
   */
  constructor(panel, registration, show) {
    this.box = /** @type {HTMLElement} */ (panel.querySelector("#push-devices"));
    this.list = /** @type {HTMLUListElement} */ (panel.querySelector(".devices"));
    this.error = /** @type {HTMLElement} */ (panel.querySelector(".form-error"));
    this.registration = registration;
    this.show = show;
  }

  /** Ask the server for the devices and show them. */
  async load() {
    if (!this.box) return;
    /** @type {{devices: {endpoint: string, label: string | null, created_at: string}[]}} */
    const answer = await api("GET", "/api/push/subscriptions");
    const current = await this.registration.pushManager.getSubscription();
    this.list.replaceChildren(
      ...answer.devices.map((device) => this.item(device, current !== null && current.endpoint === device.endpoint)),
    );
    this.box.hidden = answer.devices.length === 0;
  }

  /**
   * One device: its name, since when, "dieses Gerät", and the button that forgets it.
   * @param {{endpoint: string, label: string | null, created_at: string}} device
   * @param {boolean} here
   */
  item(device, here) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    const since = new Date(device.created_at).toLocaleDateString(document.documentElement.lang || undefined);
    const label = device.label || t("notify.account.device_unnamed");
    name.textContent = here
      ? t("notify.account.device_here", { label, since })
      : t("notify.account.device", { label, since });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary";
    remove.textContent = t("notify.account.device_remove");
    remove.setAttribute("aria-label", `${t("notify.account.device_remove")}: ${label}`);
    remove.addEventListener("click", () => this.forget(device.endpoint, here, remove));
    item.append(name, " ", remove);
    return item;
  }

  /**
   * Forget one device (and end this browser's subscription when it is this one).
   * @param {string} endpoint
   * @param {boolean} here
   * @param {HTMLButtonElement} button
   */
  async forget(endpoint, here, button) {
    button.disabled = true;
    try {
      await api("DELETE", "/api/push/subscriptions", { endpoint }).catch((error) => {
        if (!(error instanceof ApiError) || error.code !== "push_subscription_unknown") throw error;
      });
      if (here) {
        const current = await this.registration.pushManager.getSubscription();
        if (current) await current.unsubscribe();
        this.show(null);
      }
      await this.load();
    } catch (error) {
      button.disabled = false;
      showError(this.error, error instanceof Error ? error.message : String(error));
    }
  }
}

/** A short name for this device: the browser's platform, as far as it tells. */
function deviceLabel() {
  const data = /** @type {any} */ (navigator).userAgentData;
  const platform = (data && data.platform) || navigator.platform || "";
  return String(platform).slice(0, 120) || null;
}

const emailForm = form("email-form");
if (emailForm) setUpEmail(emailForm);

/**
 * The e-mail address (PUT /api/account/email sends the confirmation link) and the daily
 * digest (PUT /api/account/email-digest); the panel stays hidden when the server sends
 * no e-mail.
 * @param {HTMLFormElement} panel
 */
async function setUpEmail(panel) {
  const input = /** @type {HTMLInputElement} */ (panel.elements.namedItem("email"));
  const digest = /** @type {HTMLInputElement} */ (panel.elements.namedItem("digest"));
  const status = /** @type {HTMLElement} */ (panel.querySelector(".email-state"));
  const box = /** @type {HTMLElement} */ (panel.querySelector(".form-error"));
  /** @param {{email_available: boolean, email: string | null, email_verified: boolean, email_digest: boolean}} mail */
  const show = (mail) => {
    panel.hidden = !mail.email_available;
    input.value = mail.email || "";
    status.textContent = mail.email
      ? t(mail.email_verified ? "notify.account.email_verified" : "notify.account.email_unverified")
      : "";
    digest.checked = mail.email_digest;
    digest.disabled = !mail.email_verified;
  };
  show(await api("GET", "/api/account/notifications"));
  onSubmit(panel, async (values) => {
    const mail = await api("PUT", "/api/account/email", { email: values.email });
    show(mail);
    status.textContent = t("notify.account.email_sent", { email: mail.email });
  });
  digest.addEventListener("change", async () => {
    showError(box, "");
    try {
      show(await api("PUT", "/api/account/email-digest", { on: digest.checked }));
    } catch (error) {
      digest.checked = !digest.checked;
      showError(box, error instanceof ApiError ? error.message : t("error.unknown"));
    }
  });
}
