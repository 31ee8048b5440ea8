/**
 * Stammtisch's service worker (served at /sw.js, scope "/"): shows the server's Web Push
 * messages and opens the table on a tap. It caches nothing.
 *
 * A message is JSON {title, body, url, tag}, already in the person's language
 * (server/notify/texts.py); the tag is the match's, so a newer message replaces the
 * older one of the same table.
 */

/* global self, clients */

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", (event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string}} */
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (_error) {
    message = {};
  }
  const title = message.title || "Stammtisch";
  const url = typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || "",
      tag: message.tag || "stammtisch",
      renotify: true,
      icon: "/static/icon-192.png",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || "/";
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      for (const client of open) {
        if (client.url === target && "focus" in client) return client.focus();
      }
      return clients.openWindow(target);
    }),
  );
});
