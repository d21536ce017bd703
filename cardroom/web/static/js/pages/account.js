// Your account: balance and statement, notification settings, the four-colour deck
// and the password.

import { get, post } from "../api.js";
import { cardsNode } from "../cards.js";
import { listenForNotices, markReady, refreshBalance, showError, startPage } from "../chrome.js";
import { $, $$, fill, h } from "../dom.js";
import { dateTime, money } from "../format.js";
import {
  askPermission, disablePush, enablePush, loadSettings, permission, pushSupported,
  saveSettings, turnNotificationState,
} from "../notify.js";
import { prefs, setPref } from "../prefs.js";

const REASONS = {
  grant: "Granted by an admin",
  remove: "Removed by an admin",
  buy_in: "Buy-in",
  rebuy: "Rebuy",
  refund: "Buy-in refunded",
  cash_out: "Cashed out",
  settlement: "Hand settled",
  prize: "Prize",
};

let nextBefore = null;

async function loadLedger(more = false) {
  const query = more && nextBefore ? `?limit=50&before_entry_id=${nextBefore}` : "?limit=50";
  const page = await get(`/api/me/ledger${query}`);
  const rows = page.lines.map((line) => h("tr", {},
    h("td", { "data-label": "" }, dateTime(line.created_at)),
    h("td", { "data-label": "" }, REASONS[line.kind] || line.reason || line.kind,
      line.reason && REASONS[line.kind] && line.kind !== "buy_in" ? h("span", { class: "muted" }, ` — ${line.reason}`) : null),
    h("td", { "data-label": "Game" }, line.game_id ? h("a", { href: `/games/${line.game_id}` }, `#${line.game_id}`) : "—"),
    h("td", { class: "num", "data-label": "Amount" }, money(line.amount_cents)),
    h("td", { class: "num", "data-label": "Balance" }, money(line.balance_after_cents)),
  ));
  const body = $("[data-ledger]");
  if (more) body.append(...rows);
  else fill(body, rows);
  $("[data-balance-big]").textContent = money(page.balance_cents);
  $("[data-ledger-empty]").hidden = body.childElementCount > 0;
  nextBefore = page.next_before_entry_id;
  $("[data-ledger-more]").hidden = !nextBefore;
}

// -- notifications -----------------------------------------------------------------

let saved = null;

function showSettings(settings) {
  const form = $("[data-notify-form]");
  for (const name of ["in_app", "browser", "web_push", "email"]) form.elements[name].checked = Boolean(settings[name]);
  form.elements.email_address.value = settings.email_address || "";
  showReminders(form, settings.reminders || []);
  form.elements.web_push.disabled = !pushSupported();
  form.elements.email.disabled = !settings.email_available && !settings.email;
  const notes = [turnNotificationState()];
  if (!pushSupported()) notes.push("Web Push needs the room to be served over HTTPS.");
  else if (settings.push_subscriptions) notes.push(`Web Push goes to ${settings.push_subscriptions} browser(s).`);
  if (!settings.email_available) notes.push("This room has no mail server, so it sends no email.");
  $("[data-permission]").textContent = notes.join(" ");
}

// Reminder points the page has no box for (set through the API) are kept as they are.
function reminderBoxes(form) {
  return [...form.querySelectorAll("input[name=reminder]")];
}

function showReminders(form, points) {
  const boxes = reminderBoxes(form);
  for (const box of boxes) box.checked = points.includes(box.value);
  const offered = new Set(boxes.map((box) => box.value));
  const others = points.filter((point) => !offered.has(point));
  const note = form.querySelector("[data-reminder-note]");
  note.dataset.others = JSON.stringify(others);
  note.textContent = "Reminders come on the channels above; none closer than 5 minutes to another, to the start of your turn or to its end."
    + (others.length ? ` Also kept, as set elsewhere: ${others.join(", ")} left.` : "");
}

function wantedReminders(form) {
  const others = JSON.parse(form.querySelector("[data-reminder-note]").dataset.others || "[]");
  return [...reminderBoxes(form).filter((box) => box.checked).map((box) => box.value), ...others];
}

async function setUpNotifications() {
  const form = $("[data-notify-form]");
  try {
    saved = await loadSettings();
    showSettings(saved);
  } catch (error) {
    if (error.status === 404) {
      $("[data-notify-unavailable]").hidden = false;
      $("[data-notify-fields]").hidden = true;
      $("[data-reminder-fields]").hidden = true;
      form.querySelector("button[type=submit]").hidden = true;
      return;
    }
    showError($("[data-notify-error]"), error);
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = $("[data-notify-error]");
    showError(box, null);
    $("[data-notify-saved]").textContent = "";
    const wanted = {
      in_app: form.elements.in_app.checked,
      browser: form.elements.browser.checked,
      web_push: form.elements.web_push.checked,
      email: form.elements.email.checked,
      email_address: form.elements.email_address.value.trim() || null,
      reminders: wantedReminders(form),
    };
    try {
      if (wanted.browser && permission() === "default") await askPermission();
      if (wanted.web_push && !(saved && saved.web_push)) await enablePush();
      if (!wanted.web_push && saved && saved.web_push) await disablePush();
      saved = await saveSettings(wanted);
      setPref("turnNotifications", Boolean(saved.browser));
      showSettings(saved);
      $("[data-notify-saved]").textContent = "Saved.";
    } catch (error) {
      showError(box, error);
    }
  });
}

// -- cards and password ----------------------------------------------------------------

function setUpDeck() {
  const box = $("[data-pref=fourColour]");
  box.checked = Boolean(prefs().fourColour);
  box.addEventListener("change", () => setPref("fourColour", box.checked));
  fill($("[data-deck-sample]"), cardsNode(["As", "Kh", "Qd", "Jc"]));
}

function setUpPassword() {
  const form = $("[data-password-form]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = $("[data-password-error]");
    const done = $("[data-password-saved]");
    showError(box, null);
    done.textContent = "";
    const current = form.elements.current_password.value;
    const next = form.elements.new_password.value;
    if (next.length < 8) return showError(box, new Error("A password has at least 8 characters."));
    if (next !== form.elements.again_password.value) return showError(box, new Error("The two new passwords differ."));
    try {
      await post("/api/accounts/password", { current_password: current, new_password: next }, { quiet401: true });
      form.reset();
      done.textContent = "Your password is changed; your other sessions are signed out.";
    } catch (error) {
      showError(box, error.status === 401 ? new Error("The current password is not right.") : error);
    }
    return undefined;
  });
}

async function main() {
  await startPage();
  listenForNotices();
  setUpDeck();
  setUpPassword();
  markReady();
  $("[data-ledger-more]").addEventListener("click", () => loadLedger(true));
  try {
    await loadLedger();
  } catch (error) {
    showError($("[data-error]"), error);
  }
  await setUpNotifications();
  for (const box of $$("[data-pref]")) box.checked = Boolean(prefs()[box.dataset.pref]);
  refreshBalance();
}

main();
