// The table page: the game live over its WebSocket, the action bar on your turn,
// the result after each hand, and the seat's own commands.

import { ApiError, get, post } from "../api.js";
import { cardsName } from "../cards.js";
import { everySecond, secondsUntil } from "../clock.js";
import { listenForNotices, markReady, refreshBalance, setTitle, showError, startPage } from "../chrome.js";
import { $, $$, announce, fill, h } from "../dom.js";
import { chips, countdown } from "../format.js";
import { notifyTurn, turnNotificationState } from "../notify.js";
import { prefs, setPref } from "../prefs.js";
import { FORMAT_NAMES, blindsText, presetTitle, tableRules } from "../rules.js";
import { Names, describe, handResult, resultLines, settlementLines } from "../story.js";
import { joinShortfall } from "../joining.js";
import { ActionBar } from "../table/actionbar.js";
import { renderCentre, renderSeats, tickTimers } from "../table/render.js";
import { setUpInvite } from "../table/invite.js";
import { showTableLinks } from "../table/links.js";
import { learnLeavers } from "../player-names.js";
import { Standings, renderStandings, standingsHeadline } from "../table/standings.js";
import { TableChat } from "../table/chat.js";
import { GameSocket } from "../ws.js";

const gameId = Number(location.pathname.split("/")[2]);
const MONEY_EVENTS = new Set(["BoughtIn", "BuyInRefunded", "Rebought", "CashedOut", "HandBoughtIn", "HandSettled", "PrizePaid"]);
const KEEP_EVENTS = 600;

const state = {
  me: null,
  game: null,
  events: [], // recent events, oldest first, no duplicates
  maxSeq: 0,
  names: new Names(),
  socket: null,
  connection: "connecting",
  wasMyTurn: false,
  bar: null,
};

const money = (n) => chips(n, state.game ? state.game.summary.pays_money : true);
// a tournament's places: drawn again once read (the winner, the eliminated)
const standings = new Standings(gameId, () => state.game && render());
const errorBox = () => $("[data-error]");
let showInvite = null; // the invite section, once set up (table/invite.js)

// -- talking to the room -------------------------------------------------------------

function newKey() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

/**
 * A command on the game. Actions carry the version the player saw (a stale one is
 * refused: the table moved on). The seat's own commands (continue, sit out, cash
 * out...) mean the same whatever happened meanwhile, so they carry only an
 * idempotency key: a double click or a retry has one effect.
 */
async function command(path, body = {}, { versioned = false, keyed = true } = {}) {
  showError(errorBox(), null);
  const sent = keyed ? { idempotency_key: newKey(), ...body } : { ...body };
  if (versioned) sent.version = state.game.version;
  try {
    const answer = await send(path, sent);
    if (answer && answer.events) receiveEvents(answer.events);
    if (state.connection !== "open") await reload();
    return answer;
  } catch (error) {
    showError(errorBox(), error);
    if (error instanceof ApiError && error.status === 409) await reload();
    throw error;
  }
}

// The commands of play go on the table's socket, which is open anyway: no HTTP
// request per action (docs/api.md). When the socket cannot take one, the same body,
// idempotency key included, goes over HTTP and takes effect once.
const ON_THE_SOCKET = { actions: "act", continue: "continue" };

async function send(path, sent) {
  const type = ON_THE_SOCKET[path];
  if (type && state.socket) {
    const answer = await state.socket.command({ type, ...sent });
    if (answer !== undefined) return answer;
  }
  return post(`/api/games/${gameId}/${path}`, sent);
}

async function act(action) {
  try {
    await command("actions", action, { versioned: true });
  } catch {
    // shown in the error box; the bar stays for another try
  }
}

async function reload() {
  try {
    const game = await get(`/api/games/${gameId}`);
    show(game);
    flush();
    if (game.last_seq > state.maxSeq) await fetchEvents(state.maxSeq, game.last_seq);
  } catch (error) {
    showError(errorBox(), error);
  }
}

/** Events after `after` (at most the last few hundred), into the log. */
async function fetchEvents(after, upTo) {
  const from = Math.max(after, upTo - KEEP_EVENTS);
  const page = await get(`/api/games/${gameId}/events?after=${from}&limit=1000`);
  await learnLeavers(state.names, gameId, page.events);
  ingest(page.events);
}

// -- events ------------------------------------------------------------------------------

// The room sends a command's events and then the snapshot after it. Events wait for
// that snapshot (or a quarter of a second) so that the names of newcomers are known.
let pending = [];
let flushTimer = 0;

function receiveEvents(events) {
  pending = pending.concat(events);
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, 250);
}

function flush() {
  clearTimeout(flushTimer);
  const events = pending;
  pending = [];
  if (events.length) ingest(events);
}

let filling = false;

/** Events that skip numbers wait while the missing ones are fetched. */
async function fillGap(waiting) {
  pending = waiting.concat(pending);
  if (filling) return;
  filling = true;
  let fetched = false;
  try {
    const page = await get(`/api/games/${gameId}/events?after=${state.maxSeq}&limit=1000`);
    pending = pending.concat(page.events);
    fetched = true;
  } catch {
    // they wait in `pending`: the next snapshot tries again
  } finally {
    filling = false;
  }
  if (fetched) flush();
}

function ingest(events) {
  const bySeq = new Map(events.filter((e) => e.seq > state.maxSeq).map((e) => [e.seq, e]));
  const fresh = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  if (!fresh.length) return;
  if (state.maxSeq > 0 && fresh[0].seq > state.maxSeq + 1) {
    if (filling) pending = fresh.concat(pending);
    else fillGap(fresh);
    return;
  }
  const quiet = state.maxSeq === 0; // the backlog at page load is not announced
  state.maxSeq = fresh[fresh.length - 1].seq;
  let moneyMoved = false;
  const log = $("[data-log]");
  for (const event of fresh) {
    if (event.type === "HandDealt") state.names.setHand(event.data);
    const line = describe(event, state.names, money);
    if (line) {
      log.append(h("li", {}, line));
      if (!quiet) announceEvent(event);
    }
    if (MONEY_EVENTS.has(event.type) && event.data.player === (state.me && state.me.id)) moneyMoved = true;
  }
  while (log.childElementCount > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
  state.events = state.events.concat(fresh).slice(-KEEP_EVENTS);
  // Drawn again with the new balance: the Join button says whether it covers a seat.
  if (moneyMoved && !quiet) refreshBalance().then(() => state.game && render());
  if (state.game) render(); // the result and its winners come from the events
}

function announceEvent(event) {
  const worth = ["PlayerActed", "BoardDealt", "HandShown", "PotAwarded", "HandDealt", "PlayerSeated", "PlayerLeft", "TablePaused", "TableResumed"];
  if (!worth.includes(event.type)) return;
  const mySeat = state.game && state.game.viewer_seat;
  if (event.type === "PlayerActed" && event.data.seat === mySeat) return; // you know
  announce(describe(event, state.names, money, { spoken: true }));
}

// -- drawing -----------------------------------------------------------------------------

function show(game) {
  if (state.game && game.version < state.game.version) return; // an older answer
  state.game = game;
  state.names.setUsers(game.seats);
  const s = game.summary;
  setTitle(`#${s.id} ${presetTitle(s.preset)} ${blindsText(s)} · Cardroom`);
  $("[data-title]").textContent = `#${s.id} · ${presetTitle(s.preset)} ${FORMAT_NAMES[s.format] || s.format} · ${blindsText(s)}`;
  showTableLinks(game, state.me);
  showInvite ??= setUpInvite(gameId); // asked once the table is known to be open to us
  showInvite(game);
  render();
}

function winners() {
  const result = currentResult();
  const set = new Set();
  if (result) for (const p of result.pots) for (const w of p.winners) set.add(w.seat);
  return set;
}

/** The result of the hand on the table, once it is over. */
function currentResult() {
  const hand = state.game && state.game.hand;
  if (!hand || hand.running) return null;
  const result = handResult(state.events);
  return result && result.number === hand.number ? result : null;
}

function render() {
  const game = state.game;
  const hand = game.hand;
  standings.update(game);
  renderSeats($("[data-seats]"), {
    game, money, winners: winners(), onSit: (seat) => sit(seat),
    turnDue: game.deadlines.turn_due_at,
    finished: standings.bySeat(), lastSeat: standings.mine(state.me)?.seat, meId: state.me?.id,
  });
  renderStandings($("[data-standings]"), standings, { me: state.me, money });
  renderCentre({ board: $("[data-board]"), pot: $("[data-pot]"), pots: $("[data-pots]") }, { game, money, names: state.names });

  const legal = hand && hand.running ? hand.legal : null;
  const mine = hand && hand.players.find((p) => p.seat === game.viewer_seat);
  const changed = state.bar.show(legal, hand ? hand.pot : 0, mine ? mine.bet : 0);
  const myTurn = Boolean(legal);
  if (myTurn && changed) {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected || active.closest("[data-turn-panel]")) {
      state.bar.focus();
    }
    if (!state.wasMyTurn) {
      announce(`Your turn. ${describeChoices(legal)}`);
      if (prefs().turnNotifications) notifyTurn(game, hand ? cardsName(hand.my_cards) : "");
    }
  }
  state.wasMyTurn = myTurn;
  renderResult();
  renderTools();
  tick();
}

function describeChoices(legal) {
  const parts = [];
  if (legal.actions.includes("check")) parts.push("check");
  if (legal.actions.includes("call")) parts.push(`call ${money(legal.call_amount)}`);
  if (legal.actions.includes("bet")) parts.push(`bet ${money(legal.min_to)} to ${money(legal.max_to)}`);
  if (legal.actions.includes("raise")) parts.push(`raise to ${money(legal.min_to)} to ${money(legal.max_to)}`);
  if (legal.actions.includes("fold")) parts.push("fold");
  return `You may ${parts.join(", ")}.`;
}

function renderResult() {
  const game = state.game;
  const panel = $("[data-result]");
  const result = currentResult();
  panel.hidden = !result;
  renderBetween();
  if (!result) return;
  $("[data-result-title]").textContent = `Hand #${result.number}`;
  const lines = resultLines(result, state.names, money).map((line) => h("li", {}, line));
  const settled = settlementLines(result, state.names, money, { buyIn: game.summary.buy_in, me: state.me && state.me.id });
  for (const line of settled) lines.push(h("li", { "data-settled": "" }, line));
  for (const shown of result.shown) {
    lines.push(h("li", {}, `${state.names.seat(shown.seat)} showed `,
      h("span", { class: "sr-only" }, cardsName(shown.cards)),
      h("span", { "aria-hidden": "true" }, shown.cards.map(shortText).join(" ")),
      `: ${shown.name}.`));
  }
  const hand = game.hand;
  for (const step of (hand && hand.equity) || []) {
    const odds = step.players.map((p) => `${state.names.seat(p.seat)} ${formatPercent(p.percent)}`).join(", ");
    lines.push(h("li", { class: "muted" }, `Chances ${STREET_WORDS[step.street] || step.street}: ${odds}${step.exact ? "" : " (estimated)"}.`));
  }
  fill($("[data-result-lines]"), lines);
}

const STREET_WORDS = { preflop: "before the flop", flop: "on the flop", turn: "on the turn" };

function formatPercent(value) {
  return `${value >= 99.95 || value <= 0.05 ? Math.round(value) : value.toFixed(1)}%`;
}

/** Continue and "Skip waiting and deal", between hands. */
function renderBetween() {
  const game = state.game;
  const hand = game.hand;
  const between = Boolean(hand && !hand.running && game.summary.status === "running");
  const seat = game.seats.find((s) => s.seat === game.viewer_seat);
  const inHand = Boolean(hand && hand.players.some((p) => p.seat === game.viewer_seat));
  const cont = $("[data-continue]");
  const skip = $("[data-skip]");
  cont.hidden = !between || !seat || !inHand || seat.continued;
  skip.hidden = !between || !isHostOrAdmin();
  $("[data-between]").hidden = cont.hidden && skip.hidden;
}

const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };
function shortText(card) {
  return `${card[0] === "T" ? "10" : card[0]}${SUIT[card[1]] || ""}`;
}

/** The balance the page's bar shows, in cents (null before it is known). */
function knownBalance() {
  const cents = $("[data-balance]").dataset.cents;
  return cents === undefined ? null : Number(cents);
}

function isHostOrAdmin() {
  return state.me && state.game && (state.me.id === state.game.summary.host_id || state.me.role === "admin");
}

/** The seat's own commands, and the host's Start. */
function renderTools() {
  const game = state.game;
  const s = game.summary;
  const seat = game.seats.find((x) => x.seat === game.viewer_seat);
  const inRunningHand = Boolean(game.hand && game.hand.running && game.hand.players.some((p) => p.seat === game.viewer_seat && !p.folded));
  const tools = [];
  const button = (label, path, { cls = "", confirmText = null } = {}) =>
    h("button", {
      type: "button", class: cls, "data-command": path,
      onclick: async (event) => {
        // The event's currentTarget is null once the handler has awaited anything
        // (the dialog): keep the button itself.
        const target = event.currentTarget;
        if (confirmText && !(await confirm(label, confirmText))) return;
        target.disabled = true;
        try {
          await command(path);
          announce(`${label}: done.`);
        } catch {
          target.disabled = false; // refused (the reason is shown): free to try again
        }
      },
    }, label);
  if (!seat) {
    const open = s.status === "waiting" || (s.format !== "tournament" && ["running", "paused"].includes(s.status));
    if (open && game.viewer_cost !== null && s.seats_taken < s.seat_count) {
      const short = joinShortfall(game.viewer_cost, knownBalance(), { paysMoney: s.pays_money, format: s.format });
      tools.push(h("button", {
        type: "button", class: "primary", "data-command": "join", disabled: Boolean(short),
        "aria-describedby": short ? "join-note" : null, onclick: () => sit(null),
      }, `Join for ${money(game.viewer_cost)}`));
      if (short) tools.push(h("span", { class: "field-hint", id: "join-note", "data-join-note": "" }, short));
    } else if (s.status !== "finished" && s.status !== "cancelled") {
      tools.push(h("span", { class: "muted" }, "You are watching."));
    }
  } else {
    if (s.status === "waiting") {
      if (isHostOrAdmin() && s.preset === "arena" && s.seats_taken < s.seat_count) tools.push(botsForm(s));
      if (state.me.id === s.host_id) {
        tools.push(h("button", { type: "button", class: "primary", "data-command": "start", disabled: s.seats_taken < 2, onclick: () => command("start").catch(() => {}) }, "Start the game"));
      }
      tools.push(button(s.format === "tournament" ? "Leave (refund the entry)" : "Leave (refund the buy-in)", "leave", { cls: "danger" }));
    } else if (s.format !== "tournament" && !["finished", "cancelled"].includes(s.status)) {
      if (s.format === "cash" && seat.stack === 0 && !inRunningHand) tools.push(button(`Rebuy for ${money(s.buy_in)}`, "rebuy", { cls: "primary" }));
      tools.push(seat.sitting_out ? button("I'm back", "sit-in", { cls: "primary" }) : button("Sit out", "sit-out"));
      tools.push(button(s.format === "cash" ? "Cash out" : "Leave the table", "cash-out", {
        cls: "danger",
        confirmText: inRunningHand
          ? "You will be cashed out with your chips when this hand ends."
          : s.format === "cash" ? `Leave the table with ${money(seat.stack)}?` : "Leave the table?",
      }));
    }
  }
  hostTools(tools);
  if (s.status === "waiting") {
    $("[data-status]").textContent = `Waiting for players: ${s.seats_taken} of ${s.seat_count} seats taken.`;
  }
  fill($("[data-seat-tools]"), tools);
}

/** Practice bots for the free seats of a points (arena) table: host or admin. */
function botsForm(s) {
  const free = s.seat_count - s.seats_taken;
  // the form is drawn again with each snapshot: keep what was chosen
  const was = { level: $("#bot-level")?.value || "regular", count: $("#bot-count")?.value || "1" };
  const level = h("select", { id: "bot-level", name: "level" },
    [["beginner", "Beginner"], ["regular", "Regular"], ["shark", "Shark"]].map(([value, label]) =>
      h("option", { value, selected: value === was.level }, label)));
  const count = h("select", { id: "bot-count", name: "count" },
    Array.from({ length: free }, (_, i) => String(i + 1)).map((n) =>
      h("option", { value: n, selected: n === was.count }, n)));
  return h("form", { class: "row bots", "data-bots": "", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await command("bots", { level: level.value, count: Number(count.value) }, { keyed: false });
      announce("The bots sat down.");
    } catch {
      // shown
    }
  } },
  h("label", { for: "bot-count" }, "Practice bots"), count,
  h("label", { for: "bot-level", class: "sr-only" }, "Level"), level,
  h("button", { type: "submit" }, "Seat them"));
}

async function sit(seatNumber) {
  try {
    await command("join", seatNumber ? { seat: seatNumber } : {});
    announce("You sat down.");
    refreshBalance();
  } catch {
    // shown
  }
}

/** The status line, the clocks and the Continue countdown; every second. */
function tick() {
  const game = state.game;
  if (!game) return;
  const hand = game.hand;
  const status = $("[data-status]");
  const clock = tickTimers($("[data-seats]"), game);
  const s = game.summary;
  const waiting = $("[data-waiting-turn]");
  waiting.textContent = "";
  if (s.status === "finished") {
    status.textContent = standingsHeadline(standings, state.me, money) || "The game is over.";
  } else if (s.status === "cancelled") {
    status.textContent = "The game was cancelled.";
  } else if (s.status === "paused" && s.waiting_for_players) {
    // not the host's pause: a cash table left with one player (or one not sitting out)
    status.textContent = "Waiting for players: a hand needs two. The next is dealt when another player sits down or comes back.";
  } else if (s.status === "paused") {
    status.textContent = "Paused by the host: no hand is dealt until the table is resumed.";
  } else if (hand && hand.running) {
    const who = hand.seat_to_act === game.viewer_seat ? "Your turn" : `${state.names.seat(hand.seat_to_act)} to act`;
    status.textContent = clock ? `${who} · ${clock}` : who;
    if (hand.seat_to_act !== game.viewer_seat && game.viewer_seat) {
      waiting.textContent = clock ? `Waiting for ${state.names.seat(hand.seat_to_act)} (${clock})` : `Waiting for ${state.names.seat(hand.seat_to_act)}`;
    }
  } else if (s.status === "running") {
    const left = secondsUntil(game.deadlines.deal_due_at);
    const result = currentResult();
    const headline = result ? `${resultLines(result, state.names, money)[0]} ` : "";
    status.textContent = headline + (left === null ? "Next hand soon." : `Next hand in ${countdown(left)}.`);
  }
  const cont = $("[data-continue]");
  const left = secondsUntil(game.deadlines.deal_due_at);
  cont.textContent = left === null ? "Continue" : `Continue (${countdown(left)})`;
}

// -- dialogs -------------------------------------------------------------------------

function confirm(title, text, { reason = false } = {}) {
  const dialog = $("[data-confirm-dialog]");
  $("[data-confirm-title]").textContent = title;
  $("[data-confirm-text]").textContent = text;
  $("[data-reason-field]").hidden = !reason;
  const input = $("[data-confirm-reason]");
  input.value = "";
  input.required = reason;
  dialog.returnValue = "";
  dialog.showModal();
  if (reason) input.focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const yes = dialog.returnValue === "yes" && (!reason || input.value.trim());
      resolve(yes ? (reason ? input.value.trim() : true) : null);
    }, { once: true });
  });
}

/** The host's (or an admin's) hold on the table, and folding an inactive player. */
function hostTools(tools) {
  const game = state.game;
  const s = game.summary;
  if (!isHostOrAdmin() || ["waiting", "finished", "cancelled"].includes(s.status)) return;
  const mine = [];
  const logged = (label, path, text, body = {}) => h("button", {
    type: "button", "data-command": path,
    onclick: async () => {
      const reason = await confirm(label, text, { reason: true });
      if (!reason) return;
      try {
        await command(path, { ...body, reason }, { versioned: false, keyed: false });
        announce(`${label}: done.`);
      } catch {
        // shown
      }
    },
  }, label);
  // A table short of players is not held: the host may still pause it, not resume it.
  if (s.status === "paused" && !s.waiting_for_players) mine.push(logged("Resume the table", "resume", "Deal again."));
  else mine.push(logged("Pause the table", "pause", "No hand is dealt until the table is resumed."));
  const hand = game.hand;
  const mayFold = state.me.role === "admin" || s.preset === "legacy";
  if (mayFold && hand && hand.running && hand.seat_to_act !== game.viewer_seat) {
    const name = state.names.seat(hand.seat_to_act);
    mine.push(logged(`Fold ${name}`, "fold", `Fold ${name}'s hand for inactivity; the chips already in stay in the pot.`, { seat: hand.seat_to_act }));
  }
  const open = Boolean(document.querySelector("[data-host-tools]")?.open);
  tools.push(h("details", { class: "host-tools", "data-host-tools": "", open },
    h("summary", {}, state.me.id === s.host_id ? "Host" : "Admin"), h("div", { class: "row" }, mine)));
}

function setUpDialogs() {
  $("[data-rules-open]").addEventListener("click", async () => {
    const rules = await createdRules();
    fill($("[data-rules]"), tableRules(state.game.summary, rules).map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v))));
    $("[data-rules-dialog]").showModal();
  });
  const settings = $("[data-settings-dialog]");
  $("[data-settings-open]").addEventListener("click", () => {
    for (const box of $$("[data-pref]", settings)) box.checked = Boolean(prefs()[box.dataset.pref]);
    $("[data-notify-state]").textContent = turnNotificationState();
    settings.showModal();
  });
  for (const box of $$("[data-pref]", settings)) {
    box.addEventListener("change", async () => {
      if (box.dataset.pref === "turnNotifications" && box.checked && "Notification" in window && Notification.permission === "default") {
        await Notification.requestPermission();
      }
      setPref(box.dataset.pref, box.checked);
      $("[data-notify-state]").textContent = turnNotificationState();
      if (box.dataset.pref === "fourColour") render();
    });
  }
}

/** The rules the game was created with (its first event), overrides included. */
async function createdRules() {
  if (state.rules !== undefined) return state.rules;
  let created = state.events.find((e) => e.type === "GameCreated");
  if (!created) {
    try {
      created = (await get(`/api/games/${gameId}/events?after=0&limit=1`)).events[0];
    } catch {
      created = null;
    }
  }
  const config = created && created.type === "GameCreated" ? created.data.config : null;
  state.rules = config && config.rules ? config.rules : null;
  return state.rules;
}

function setConnection(status) {
  state.connection = status;
  const box = $("[data-conn]");
  box.dataset.state = status;
  box.textContent = {
    connecting: "Connecting…",
    open: "Live",
    closed: "Connection lost: reconnecting…",
    offline: "Offline: waiting for the network…",
    refused: "Not live: the room closed this table to you.",
  }[status] || status;
}

// -- start ---------------------------------------------------------------------------

async function main() {
  state.me = await startPage();
  listenForNotices({ ignoreGame: gameId });
  state.bar = new ActionBar($("[data-actions]"), {
    act,
    format: (n) => money(n),
    paysMoney: () => (state.game ? state.game.summary.pays_money : true),
  });
  setUpDialogs();
  $("[data-continue]").addEventListener("click", () => command("continue").catch(() => {}));
  $("[data-skip]").addEventListener("click", () => command("skip-waiting").catch(() => {}));
  try {
    const game = await get(`/api/games/${gameId}`);
    show(game);
    await fetchEvents(0, game.last_seq);
  } catch (error) {
    showError(errorBox(), error);
    // No such table, or a private one this viewer has no invite to: nothing to watch.
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
      $("[data-conn]").hidden = true; // no socket is coming: not "Connecting…" for ever
      return;
    }
  }
  const hostId = state.game ? state.game.summary.host_id : null;
  const chat = new TableChat($("[data-chat]"), gameId, state.me, hostId);
  await chat.load();
  markReady();
  state.socket = new GameSocket(gameId, {
    onSnapshot: (game) => {
      show(game);
      flush();
    },
    onEvents: (events) => receiveEvents(events),
    onStatus: (status) => {
      setConnection(status);
      if (status === "open") chat.load(); // what was said while the socket was down
      // No longer allowed to watch (the host's "no spectators" once the game began):
      // the socket's error message, in the error box, says why; its chat is closed too.
      if (status === "refused") $("[data-chat]").hidden = true;
    },
    onError: (message) => showError(errorBox(), new Error(message)),
    onTable: (message) => chat.receive(message),
  }).start();
  window.cardroomTable = state; // for the browser tests and the curious
  everySecond(tick);
}

main();
