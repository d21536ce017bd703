// Notifications in the browser: a system notification when it becomes your turn
// while the page is open but not in front, and Web Push through the service worker
// for when it is closed (the notifications routes of docs/api.md).

import { del, get, post, put } from "./api.js";

export function permission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

export function turnNotificationState() {
  switch (permission()) {
    case "granted":
      return "This browser may show notifications.";
    case "denied":
      return "This browser blocks notifications from the room: allow them in the site settings.";
    case "unsupported":
      return "This browser cannot show notifications.";
    default:
      return "The browser will ask whether the room may show notifications.";
  }
}

export async function askPermission() {
  if (permission() === "default") await Notification.requestPermission();
  return permission();
}

/** A system notification; a click brings the room's page to the front. */
export async function showSystemNotification({ title, body = "", url = location.href, tag = "cardroom" }) {
  if (permission() !== "granted") return false;
  try {
    const shown = new Notification(title, { body, tag, icon: "/favicon.ico" });
    shown.addEventListener("click", () => {
      window.focus();
      if (url && url !== location.href) location.assign(url);
      shown.close();
    });
    return true;
  } catch {
    // Some phones allow notifications only through the service worker.
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    if (!registration) return false;
    await registration.showNotification(title, { body, tag, data: { url } });
    return true;
  }
}

/** Your turn at this table: only when the page is not what you are looking at. */
export function notifyTurn(game, cards) {
  if (!document.hidden && document.hasFocus()) return false;
  const s = game.summary;
  showSystemNotification({
    title: "Your turn",
    body: `Table #${s.id}${cards ? `: you hold ${cards}` : ""}`,
    url: location.href,
    tag: `game-${s.id}`,
  });
  return true;
}

// -- the room's settings and Web Push --------------------------------------------------

export const loadSettings = () => get("/api/me/notification-settings");
export const saveSettings = (settings) => put("/api/me/notification-settings", settings);

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && window.isSecureContext;
}

export async function serviceWorker() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

/** Subscribe this browser and tell the room where to push. */
export async function enablePush() {
  if (!pushSupported()) throw new Error("This browser cannot receive Web Push here (it needs HTTPS).");
  if ((await askPermission()) !== "granted") throw new Error("The browser did not allow notifications.");
  const registration = await serviceWorker();
  await navigator.serviceWorker.ready;
  const { public_key: key } = await get("/api/notifications/vapid-public-key");
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key),
    });
  }
  const json = subscription.toJSON();
  await post("/api/me/push-subscriptions", { endpoint: json.endpoint, keys: json.keys });
  return subscription;
}

/** Unsubscribe this browser, and tell the room to forget it. */
export async function disablePush() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = registration && (await registration.pushManager.getSubscription());
  if (!subscription) return;
  await del("/api/me/push-subscriptions", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}
