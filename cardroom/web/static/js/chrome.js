// What every signed-in page shares: who you are, your balance, the navigation,
// signing out and your preferences.

import { get, post, whenSignedOut } from "./api.js";
import { $, $$, h } from "./dom.js";
import { money } from "./format.js";
import { showSystemNotification } from "./notify.js";
import { applyPrefs } from "./prefs.js";
import { LiveSocket } from "./ws.js";

let balanceTimer = 0;

export function signInAddress() {
  const here = location.pathname + location.search;
  return here === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(here)}`;
}

/**
 * Where to go after signing in or up: the page's ?next= if it is an address on this
 * site, else the lobby. Resolved as the browser would resolve it, so "//evil.example",
 * "/\\evil.example" or a tab inside "/\t/evil.example" cannot lead to another site.
 */
export function nextAddress(search = location.search, origin = location.origin) {
  const next = new URLSearchParams(search).get("next") || "/";
  if (!next.startsWith("/")) return "/";
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return "/";
  }
  return url.origin === origin ? url.pathname + url.search + url.hash : "/";
}

/** The other of sign-in and sign-up keeps the ?next= of this one. */
export function keepNext(link, search = location.search) {
  const next = new URLSearchParams(search).get("next");
  if (next && nextAddress(search) !== "/") {
    link.setAttribute("href", `${link.getAttribute("href")}?next=${encodeURIComponent(nextAddress(search))}`);
  }
}

/** Set the page up; resolves to the user (or null where signing in is optional). */
export async function startPage({ signedIn = true } = {}) {
  applyPrefs();
  for (const link of $$(".top nav a")) {
    if (link.getAttribute("href") === location.pathname) link.setAttribute("aria-current", "page");
  }
  setUpMenu();
  if (!signedIn) return null;
  whenSignedOut(() => location.assign(signInAddress()));
  let user;
  try {
    user = await get("/api/me");
  } catch (error) {
    // Signed out: the browser is on its way to the sign-in page; the page waits.
    if (error.status === 401) await new Promise(() => {});
    throw error;
  }
  const name = $("[data-user]");
  if (name) name.textContent = user.name;
  setUpUnreadNotices();
  refreshUnreadNotices();
  const adminLink = $("[data-admin-link]");
  if (adminLink) adminLink.hidden = user.role !== "admin";
  const signOut = $("[data-sign-out]");
  if (signOut) {
    signOut.hidden = false;
    signOut.addEventListener("click", async () => {
      try {
        await post("/api/accounts/sign-out", undefined, { quiet401: true });
      } finally {
        location.assign("/sign-in");
      }
    });
  }
  setUpYourMove();
  await Promise.all([refreshBalance(), refreshYourMove()]);
  clearInterval(balanceTimer);
  balanceTimer = setInterval(() => {
    if (!document.hidden) refreshBalance();
  }, 30000);
  return user;
}

/**
 * On a narrow screen the navigation folds behind a Menu button (app.css hides it
 * there): the button opens and closes it; Escape, or choosing a link, closes it.
 */
function setUpMenu() {
  const nav = $(".top nav");
  if (!nav || $(".top .menu-button")) return;
  nav.id = nav.id || "main-nav";
  const button = h("button", {
    type: "button", class: "menu-button", "aria-expanded": "false", "aria-controls": nav.id,
  }, h("span", { "aria-hidden": "true" }, "☰ "), "Menu");
  const open = (yes) => {
    nav.classList.toggle("open", yes);
    button.setAttribute("aria-expanded", String(yes));
  };
  button.addEventListener("click", () => open(!nav.classList.contains("open")));
  nav.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      open(false);
      button.focus();
    }
  });
  nav.before(button);
}

export async function refreshBalance() {
  const out = $("[data-balance]");
  if (!out) return null;
  try {
    const { balance_cents: cents } = await get("/api/me/balance");
    out.textContent = money(cents);
    out.dataset.cents = String(cents);
    return cents;
  } catch {
    return null;
  }
}

// -- your move: how many of your games wait for your action ---------------------------

// The page's own title, before any count is put in front of it.
let pageTitle = document.title;
let yourMoveCount = 0;
let yourMoveAsked = null; // the fetch under way, if any
let yourMoveAgain = false; // a change came during it: ask once more after

function setUpYourMove() {
  const who = $(".top .who");
  if (!who || $("[data-your-move]")) return;
  // The lobby's "Your tables" lists these games first.
  who.prepend(h("a", { class: "your-move", href: "/#mine-h", "data-your-move": "", hidden: true },
    h("span", { class: "your-move-words" }, "Your move "), h("span", { "data-your-move-count": "" }, "")));
}

/**
 * Show how many of the player's games wait for their action: the header's badge
 * (hidden at 0) and the document title, so that a tab in the background says it.
 */
export function showYourMove(games) {
  const count = games.filter((g) => g.your_turn).length;
  const badge = $("[data-your-move]");
  if (badge) {
    badge.hidden = count === 0;
    badge.dataset.count = String(count);
    badge.setAttribute("aria-label", `Games waiting for your move: ${count}`);
    $("[data-your-move-count]", badge).textContent = String(count);
  }
  yourMoveCount = count;
  setTitle(pageTitle);
}

/** Title the page; the count of games waiting for the player's move stays in front. */
export function setTitle(text) {
  pageTitle = text;
  document.title = yourMoveCount ? `(${yourMoveCount}) ${text}` : text;
}

/** Ask the server again; changes arriving while asking are folded into one more ask. */
export async function refreshYourMove() {
  if (yourMoveAsked) {
    yourMoveAgain = true;
    return yourMoveAsked;
  }
  yourMoveAsked = (async () => {
    do {
      yourMoveAgain = false;
      try {
        showYourMove((await get("/api/me/games")).games);
      } catch {
        // the next change, or the next page, asks again
      }
    } while (yourMoveAgain);
  })();
  try {
    await yourMoveAsked;
  } finally {
    yourMoveAsked = null;
  }
}

// -- unread notices: the count on the Notifications link ------------------------------

let unreadAsked = null; // the fetch under way, if any
let unreadAgain = false; // a notice came during it: ask once more after

function setUpUnreadNotices() {
  const link = $('.top nav a[href="/notifications"]');
  if (!link || $("[data-unread-notices]")) return;
  // The link keeps its name; the count is its description ("3 unread").
  link.setAttribute("aria-label", "Notifications");
  link.setAttribute("aria-describedby", "unread-notices");
  link.append(" ", h("span", { class: "nav-count", id: "unread-notices", "data-unread-notices": "", hidden: true },
    h("span", { "data-unread-notices-count": "" }, ""), h("span", { class: "sr-only" }, " unread")));
}

/** Show how many notices are unread on the header's Notifications link (hidden at 0). */
export function showUnreadNotices(count) {
  const badge = $("[data-unread-notices]");
  if (!badge) return;
  badge.hidden = !count;
  badge.dataset.count = String(count);
  $("[data-unread-notices-count]", badge).textContent = String(count);
}

/** Ask the server for the unread count again; notices arriving meanwhile make one more ask. */
export async function refreshUnreadNotices() {
  if (unreadAsked) {
    unreadAgain = true;
    return unreadAsked;
  }
  unreadAsked = (async () => {
    do {
      unreadAgain = false;
      try {
        showUnreadNotices((await get("/api/me/notifications/unread")).unread);
      } catch {
        // the next notice, or the next page, asks again
      }
    } while (unreadAgain);
  })();
  try {
    await unreadAsked;
  } finally {
    unreadAsked = null;
  }
}

/** Say that the page is set up: its controls answer from now on (tests wait for it). */
export function markReady() {
  document.body.dataset.ready = "true";
}

/** Show an error sentence in a page's error box. */
export function showError(box, error) {
  if (!box) return;
  box.textContent = error ? error.message || String(error) : "";
}

/**
 * The player's own stream (/ws/me): notices shown in the page (and by the browser
 * when the page is not in front), and a hint when their games changed. The table
 * page passes its game so that its own turn is not told twice. A page that reloads
 * its games itself on a change (the lobby) passes onGamesChanged and calls
 * showYourMove with them; by default the header's count is asked again. The lobby
 * passes onLobbyChanged too: its socket then also hears when any listed table was
 * created, joined, left, started or finished (`lobby_changed`).
 */
export function listenForNotices({ ignoreGame = null, onGamesChanged = () => refreshYourMove(), onLobbyChanged = null } = {}) {
  let opened = 0;
  const socket = new LiveSocket(onLobbyChanged ? "/ws/me?lobby=1" : "/ws/me", {
    // Back after a drop: a change may have come meanwhile (the page asked on load).
    onOpen: () => {
      document.body.dataset.live = "true"; // the stream is open (tests wait for it)
      if (opened++) {
        onGamesChanged(null);
        if (onLobbyChanged) onLobbyChanged();
        refreshUnreadNotices();
      }
    },
    onMessage: (message) => {
      if (message.type === "games_changed") onGamesChanged(message.game_id);
      if (message.type === "lobby_changed" && onLobbyChanged) onLobbyChanged();
      if (message.type === "notices_read") refreshUnreadNotices(); // read on another page
      if (message.type !== "notification") return;
      refreshUnreadNotices(); // stored unread, even where the page itself says it
      if (message.game_id === ignoreGame) {
        // The player is looking at this very table, which says it already: the notice
        // is seen. Marked read, so that the unread count does not climb with every
        // turn taken here, and nothing is pushed or mailed for it. (The room then
        // sends notices_read, and the count is asked again.)
        if (!document.hidden && !message.read) post(`/api/me/notifications/${message.id}/read`).catch(() => {});
        return;
      }
      if (message.browser && (document.hidden || !document.hasFocus())) {
        showSystemNotification({ title: message.title, body: message.body, url: message.url, tag: `game-${message.game_id}` });
      }
      if (message.in_app) toast(message);
      refreshBalance();
    },
  });
  socket.connect();
  return socket;
}

function toast(notice) {
  let region = document.getElementById("notices");
  if (!region) {
    region = h("div", { id: "notices", class: "notices", role: "status", "aria-live": "polite" });
    document.body.append(region);
  }
  const link = h("a", { href: new URL(notice.url, location.href).pathname }, notice.title);
  const item = h("p", { class: "notice-toast" }, link, notice.body ? h("span", {}, ` ${notice.body}`) : null,
    h("button", { type: "button", class: "linklike", "aria-label": "Dismiss", onclick: () => item.remove() }, "✕"));
  region.append(item);
  setTimeout(() => item.remove(), 15000);
  while (region.childElementCount > 3) region.firstElementChild.remove();
}
