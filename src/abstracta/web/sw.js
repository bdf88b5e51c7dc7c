// The service worker of abstracta's Web Push notices (issue 43 §1): a correspondence game's
// "your move" arrives here while no page of the game is open, and is shown as a notification;
// a tap on it opens (or brings forward) the game's page. The message is {title, body, url, tag},
// decrypted by the browser (the server encrypted it to this subscription's keys).
self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch { notice = { title: event.data ? event.data.text() : "" }; }
  const url = typeof notice.url === "string" && notice.url.startsWith("/") ? notice.url : "/";
  event.waitUntil(self.registration.showNotification(notice.title || "abstracta", {
    body: notice.body || "", tag: notice.tag || undefined, data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
    const open = pages.find((p) => p.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
