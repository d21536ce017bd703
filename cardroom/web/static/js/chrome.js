// What every signed-in page shares: who you are, your balance, the navigation,
// signing out and your preferences.

import { get, post, whenSignedOut } from "./api.js";
import { $, $$ } from "./dom.js";
import { money } from "./format.js";
import { applyPrefs } from "./prefs.js";

let balanceTimer = 0;

export function signInAddress() {
  const here = location.pathname + location.search;
  return here === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(here)}`;
}

/** Set the page up; resolves to the user (or null where signing in is optional). */
export async function startPage({ signedIn = true } = {}) {
  applyPrefs();
  for (const link of $$(".top nav a")) {
    if (link.getAttribute("href") === location.pathname) link.setAttribute("aria-current", "page");
  }
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
  await refreshBalance();
  clearInterval(balanceTimer);
  balanceTimer = setInterval(() => {
    if (!document.hidden) refreshBalance();
  }, 30000);
  return user;
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

/** Show an error sentence in a page's error box. */
export function showError(box, error) {
  if (!box) return;
  box.textContent = error ? error.message || String(error) : "";
}
