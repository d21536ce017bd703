// Admin: players and balances (grant, remove, suspend, mute in every table's chat),
// open tables (pause, resume, fold an inactive player), the ledger audit and the
// admin log.

import { get, post } from "../api.js";
import { listenForNotices, markReady, showError, startPage } from "../chrome.js";
import { $, announce, fill, h } from "../dom.js";
import { dateTime, money, parseMoney } from "../format.js";
import { FORMAT_NAMES, statusBadge, presetTitle } from "../rules.js";

const notice = (text) => {
  $("[data-notice]").textContent = text;
  announce(text);
};

/**
 * Ask for the reason (and an amount or a seat) in the dialog; resolves to the
 * values, or null when cancelled. `run(values)` does the work; its refusal is shown
 * in the dialog, which stays open for another try.
 */
function ask({ title, text, amount = false, seats = null, run }) {
  const dialog = $("[data-admin-dialog]");
  const form = $("[data-admin-form]");
  form.reset();
  $("[data-admin-title]").textContent = title;
  $("[data-admin-text]").textContent = text || "";
  $("[data-amount-field]").hidden = !amount;
  $("[data-seat-field]").hidden = !seats;
  if (seats) fill(form.elements.seat, seats.map((s) => h("option", { value: String(s.seat) }, s.label)));
  showError($("[data-admin-error]"), null);
  const ok = $("[data-admin-ok]");
  const submit = async (event) => {
    if (event.submitter && event.submitter.value !== "ok") return;
    event.preventDefault();
    const values = { reason: form.elements.reason.value.trim() };
    if (!values.reason) return showError($("[data-admin-error]"), new Error("Give a reason: it goes in the admin log."));
    if (amount) {
      values.amount_cents = parseMoney(form.elements.amount.value);
      if (!values.amount_cents) return showError($("[data-admin-error]"), new Error("Give an amount such as 25 or 2.50."));
    }
    if (seats) values.seat = Number(form.elements.seat.value);
    ok.disabled = true;
    try {
      await run(values);
      dialog.close();
    } catch (error) {
      showError($("[data-admin-error]"), error);
    } finally {
      ok.disabled = false;
    }
    return undefined;
  };
  if (form.current) form.removeEventListener("submit", form.current);
  form.current = submit; // one handler at a time: replaced on every ask
  form.addEventListener("submit", submit);
  dialog.showModal();
  (amount ? form.elements.amount : seats ? form.elements.seat : form.elements.reason).focus();
}

// -- players ----------------------------------------------------------------------------

let usersAfter = null;
let roomMuted = new Set(); // the players muted in every table's chat

async function loadRoomMutes() {
  roomMuted = new Set((await get("/api/admin/chat/mutes")).map((m) => m.user_id));
}

function userRow(user) {
  const act = (verb, path, withAmount) => () => ask({
    title: `${verb}: ${user.name}`,
    text: withAmount ? `Balance now ${money(user.balance_cents)}.` : "",
    amount: withAmount,
    run: async (values) => {
      await post(`/api/admin/users/${user.id}/${path}`, values);
      notice(`${verb}: ${user.name}, done.`);
      await reloadUser(user.id);
    },
  });
  const muted = roomMuted.has(user.id);
  // Room-wide: every table's chat (a mute at one table is given from that table).
  const chatMute = (verb, path) => () => ask({
    title: `${verb} in chat: ${user.name}`,
    text: verb === "Mute"
      ? "They can read every table's chat but write in none until unmuted."
      : "They can write in the tables' chats again.",
    run: async (values) => {
      await post(`/api/admin/chat/${path}`, { user_id: user.id, reason: values.reason });
      notice(`${verb} in chat: ${user.name}, done.`);
      await loadRoomMutes();
      await reloadUser(user.id);
    },
  });
  return h("tr", { dataset: { user: String(user.id) } },
    h("td", { "data-label": "" }, h("strong", {}, user.name), h("span", { class: "muted" }, ` #${user.id}`)),
    h("td", { "data-label": "Role" }, user.role),
    h("td", { "data-label": "" }, user.suspended ? h("span", { class: "badge paused" }, "Suspended") : h("span", { class: "badge running" }, "Active"),
      muted ? [" ", h("span", { class: "badge paused", "data-chat-muted": "" }, "Muted in chat")] : null),
    h("td", { class: "num", "data-label": "Balance" }, money(user.balance_cents)),
    h("td", { class: "wide" }, h("div", { class: "actions" },
      h("button", { type: "button", onclick: act("Grant", "grant", true) }, "Grant"),
      h("button", { type: "button", onclick: act("Remove", "remove", true) }, "Remove"),
      user.suspended
        ? h("button", { type: "button", onclick: act("Reinstate", "reinstate", false) }, "Reinstate")
        : h("button", { type: "button", class: "danger", onclick: act("Suspend", "suspend", false) }, "Suspend"),
      muted
        ? h("button", { type: "button", onclick: chatMute("Unmute", "unmute") }, "Unmute in chat")
        : h("button", { type: "button", onclick: chatMute("Mute", "mute") }, "Mute in chat"))),
  );
}

/** Redraw one player's row in place: reloading the list would drop the pages of
 * players that "More players" had added, and with them the row just acted on. */
async function reloadUser(id) {
  const page = await get(`/api/admin/users?after_id=${id - 1}&limit=1`);
  const row = $(`[data-users] tr[data-user="${id}"]`);
  const fresh = page.users.find((u) => u.id === id);
  if (row && fresh) row.replaceWith(userRow(fresh));
}

async function loadUsers(more = false) {
  const query = more && usersAfter ? `?limit=50&after_id=${usersAfter}` : "?limit=50";
  const page = await get(`/api/admin/users${query}`);
  const rows = page.users.map(userRow);
  if (more) $("[data-users]").append(...rows);
  else fill($("[data-users]"), rows);
  usersAfter = page.next_after_id;
  $("[data-users-more]").hidden = !usersAfter;
}

// -- tables --------------------------------------------------------------------------------

async function tableRow(game) {
  let detail = null;
  try {
    detail = await get(`/api/games/${game.id}`);
  } catch {
    detail = null;
  }
  const hand = detail && detail.hand;
  const toAct = hand && hand.running ? detail.seats.find((s) => s.seat === hand.seat_to_act) : null;
  const inHand = hand && hand.running
    ? detail.seats.filter((s) => hand.players.some((p) => p.seat === s.seat && !p.folded))
    : [];
  const command = (verb, path, seats) => () => ask({
    title: `${verb}: table #${game.id}`,
    text: seats ? "The player's chips already in stay in the pot." : "",
    seats,
    run: async (values) => {
      await post(`/api/admin/games/${game.id}/${path}`, values);
      notice(`${verb}: table #${game.id}, done.`);
      await loadTables();
    },
  });
  const buttons = [h("a", { class: "button", href: `/games/${game.id}` }, "Open")];
  if (inHand.length) {
    buttons.push(h("button", {
      type: "button",
      onclick: command("Fold a player", "fold", inHand.map((s) => ({
        seat: s.seat, label: `${s.name} (seat ${s.seat})${toAct && toAct.seat === s.seat ? ", to act" : ""}`,
      })).sort((a, b) => (b.label.includes("to act") ? 1 : 0) - (a.label.includes("to act") ? 1 : 0))),
    }, "Fold a player"));
  }
  // a table short of players is not held: it may be paused, not resumed
  const held = game.status === "paused" && !game.waiting_for_players;
  if (held) buttons.push(h("button", { type: "button", onclick: command("Resume", "resume") }, "Resume"));
  else if (game.status === "running" || game.status === "paused") buttons.push(h("button", { type: "button", onclick: command("Pause", "pause") }, "Pause"));
  let waiting = "—";
  if (toAct) {
    const since = detail.deadlines.turn_due_at
      ? ` (the clock acts ${dateTime(detail.deadlines.turn_due_at)})` : " (no clock)";
    waiting = `${toAct.name}${since}`;
  }
  return h("tr", { dataset: { game: String(game.id) } },
    h("td", { "data-label": "" }, h("strong", {}, `#${game.id}`), h("span", { class: "muted" }, ` by ${game.host_name}`)),
    h("td", { "data-label": "" }, `${presetTitle(game.preset)} · ${FORMAT_NAMES[game.format] || game.format}`),
    h("td", { "data-label": "" }, statusBadge(game)),
    h("td", { "data-label": "Seats" }, `${game.seats_taken}/${game.seat_count}`),
    h("td", { "data-label": "To act" }, waiting),
    h("td", { class: "wide" }, h("div", { class: "actions" }, buttons)),
  );
}

async function loadTables() {
  const lobby = await get("/api/games");
  fill($("[data-tables]"), await Promise.all(lobby.games.map(tableRow)));
  $("[data-tables-empty]").hidden = lobby.games.length > 0;
}

// -- audit and log -----------------------------------------------------------------------

async function loadAudit() {
  const audit = await get("/api/admin/audit");
  const rows = [
    ["Balanced", audit.balanced ? "Yes: balances plus chips on tables equal everything granted" : "NO"],
    ["Granted", money(audit.granted_cents)],
    ["Removed", money(audit.removed_cents)],
    ["Player balances", money(audit.player_balances_cents)],
    ["Chips on tables", money(audit.chips_on_tables_cents)],
    ["Transfers", String(audit.transfers)],
  ];
  fill($("[data-audit]"),
    h("table", { class: "rules-table" }, h("tbody", {}, rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))))),
    audit.differences && audit.differences.length
      ? h("p", { class: "error" }, `${audit.differences.length} difference(s): ${JSON.stringify(audit.differences)}`)
      : null);
}

let actionsBefore = null;

async function loadActions(more = false) {
  const query = more && actionsBefore ? `?limit=50&before_id=${actionsBefore}` : "?limit=50";
  const page = await get(`/api/admin/actions${query}`);
  const rows = page.actions.map((a) => h("tr", {},
    h("td", { "data-label": "" }, dateTime(a.created_at)),
    h("td", { "data-label": "By" }, a.admin_name || "console"),
    h("td", { "data-label": "" }, a.action),
    h("td", { "data-label": "Player" }, a.target_name || "—"),
    h("td", { class: "wide", "data-label": "Why" }, a.reason)));
  if (more) $("[data-actions]").append(...rows);
  else fill($("[data-actions]"), rows);
  actionsBefore = page.next_before_id;
  $("[data-actions-more]").hidden = !actionsBefore;
}

/** A "More ..." button's click handler: one page on its way at a time. A second click
 * before the page came in would ask for the same page again (where the list ends is
 * known only once it has) and list its rows twice; it is ignored. A page that cannot
 * be loaded says so. */
function oneAtATime(load) {
  let loading = null;
  return () => {
    if (loading) return;
    loading = load()
      .catch((error) => showError($("[data-error]"), error))
      .finally(() => { loading = null; });
  };
}

async function main() {
  const user = await startPage();
  listenForNotices();
  if (user.role !== "admin") {
    showError($("[data-error]"), new Error("Only an admin can see this page."));
    for (const section of document.querySelectorAll("main section")) section.hidden = true;
    return;
  }
  $("[data-users-more]").addEventListener("click", oneAtATime(() => loadUsers(true)));
  $("[data-actions-more]").addEventListener("click", oneAtATime(() => loadActions(true)));
  markReady();
  const users = loadRoomMutes().then(() => loadUsers());
  const results = await Promise.allSettled([users, loadTables(), loadAudit(), loadActions()]);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) showError($("[data-error]"), failed.reason);
}

main();
