// Hand history: your games, a game's hands with their results, and any hand replayed
// street by street, card by card. Built on GET /api/games/{id}/events, which shows
// each viewer what they may see (their own cards, and shown hands). Each hand's deck
// proof is checked in the page ("Verify this hand", verify.js).

import { get } from "../api.js";
import { listenForNotices, markReady, showError, startPage } from "../chrome.js";
import { $, fill, h } from "../dom.js";
import { chips, dateTime } from "../format.js";
import { replay, splitHands, stepAsGame, streetStep } from "../replay.js";
import { presetTitle } from "../rules.js";
import { Names, describe, handResult, resultLines } from "../story.js";
import { renderCentre, renderSeats } from "../table/render.js";
import { commitmentNode, publishedRoot, verifyHand } from "../verify.js";

const parts = location.pathname.split("/");
const gameId = parts[1] === "games" ? Number(parts[2]) : null;
const names = new Names();
let me = null;
let table = { seatCount: 9, paysMoney: true, format: "cash" };
let current = null; // {hand, steps, index}

// -- your games ------------------------------------------------------------------------------

async function listGames() {
  $("[data-games-section]").hidden = false;
  const [mine, ledger] = await Promise.all([get("/api/me/games"), get("/api/me/ledger?limit=200")]);
  const ids = new Map();
  for (const g of mine.games) ids.set(g.id, `#${g.id} · ${presetTitle(g.preset)} ${g.format} · ${g.status}`);
  for (const line of ledger.lines) {
    if (line.game_id && !ids.has(line.game_id)) ids.set(line.game_id, `#${line.game_id}`);
  }
  const sorted = [...ids.entries()].sort((a, b) => b[0] - a[0]);
  fill($("[data-games]"), sorted.length
    ? sorted.map(([id, label]) => h("li", {}, h("a", { href: `/games/${id}/history` }, label)))
    : h("li", { class: "muted" }, "You have not played yet."));
  $("[data-open-game]").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = Number(event.currentTarget.elements.game.value.replace("#", ""));
    if (Number.isInteger(id) && id > 0) location.assign(`/games/${id}/history`);
  });
}

// -- one game's hands ----------------------------------------------------------------------

async function allEvents() {
  let after = 0;
  let events = [];
  for (;;) {
    const page = await get(`/api/games/${gameId}/events?after=${after}&limit=1000`);
    events = events.concat(page.events);
    if (!page.events.length || page.events[page.events.length - 1].seq >= page.last_seq) return events;
    after = page.events[page.events.length - 1].seq;
  }
}

const money = (n) => chips(n, table.paysMoney);

async function showGame() {
  $("[data-hands-section]").hidden = false;
  const [game, events] = await Promise.all([get(`/api/games/${gameId}`), allEvents()]);
  names.setUsers(game.seats);
  const created = events.find((e) => e.type === "GameCreated");
  table = {
    seatCount: (created && created.data.config && created.data.config.seat_count) || game.summary.seat_count,
    paysMoney: game.summary.pays_money,
    format: game.summary.format,
  };
  $("[data-title]").textContent = `Hand history · table #${gameId}`;
  document.title = `Hands of table #${gameId} · Cardroom`;
  const hands = splitHands(events).filter((hand) => hand.events.some((e) => e.type === "HandEnded"));
  const rows = hands.reverse().map((hand) => {
    names.setHand(hand.events[0].data);
    const result = handResult(hand.events);
    const line = result ? resultLines(result, names, money).join(" ") : "";
    const steps = replay(hand);
    const last = steps[steps.length - 1].state;
    const mine = last.players.find((p) => p.player === me.id);
    const start = hand.events[0].data.players.find(([, player]) => player === me.id);
    const net = mine && start ? mine.stack - start[2] : null;
    return h("tr", { dataset: { hand: String(hand.number) } },
      h("td", { "data-label": "" }, h("strong", {}, `#${hand.number}`)),
      h("td", { "data-label": "" }, dateTime(hand.at)),
      h("td", { class: "wide", "data-label": "" }, line),
      h("td", { class: "num", "data-label": "You" }, net === null ? "—" : `${net > 0 ? "+" : ""}${money(net)}`),
      h("td", {}, h("button", { type: "button", onclick: () => open(hand, steps) , "aria-label": `Replay hand ${hand.number}` }, "Replay")));
  });
  fill($("[data-hands]"), rows);
  $("[data-hands-empty]").hidden = rows.length > 0;
  const wanted = Number((location.hash.match(/^#hand-(\d+)$/) || [])[1]);
  const chosen = hands.find((hand) => hand.number === wanted);
  if (chosen) open(chosen, replay(chosen));
}

// -- the replay ------------------------------------------------------------------------------

function open(hand, steps) {
  names.setHand(hand.events[0].data);
  current = { hand, steps, index: 0 };
  $("[data-replay]").hidden = false;
  $("[data-replay-title]").textContent = `Hand #${hand.number}`;
  history.replaceState(null, "", `#hand-${hand.number}`);
  fill($("[data-replay-log]"), steps.map((step, i) => h("li", { dataset: { step: String(i) } },
    stepText(step, i), (step.notes || []).map((note) => ` ${describe(note, names, money) || ""}`))));
  show(0);
  $("[data-replay-title]").focus();
  downloadLinks(hand);
  verifySection(hand);
}

function show(index) {
  const { steps } = current;
  current.index = Math.max(0, Math.min(steps.length - 1, index));
  const step = steps[current.index];
  const game = stepAsGame(step, { ...table, names, me: me.id });
  renderSeats($("[data-seats]"), { game, money, winners: winnersAt(step), onSit: null, turnDue: null });
  renderCentre({ board: $("[data-board]"), pot: $("[data-pot]"), pots: $("[data-pots]") }, { game, money, names });
  $("[data-step-text]").textContent = stepText(step, current.index);
  $("[data-step-count]").textContent = `Step ${current.index + 1} of ${steps.length} · ${step.street}`;
  for (const item of $("[data-replay-log]").children) {
    const i = Number(item.dataset.step);
    item.classList.toggle("future", i > current.index);
    if (i === current.index) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
}

function stepText(step, i) {
  if (i === 0) return `Hand #${current.hand.number} is dealt.`;
  if (step.event.type === "HoleCardDealt") return "The hole cards are dealt.";
  return describe(step.event, names, money) || "";
}

function winnersAt(step) {
  return new Set(step.state.players.filter((p) => p.won > 0).map((p) => p.seat));
}

function move(how) {
  if (!current) return;
  const i = current.index;
  const to = {
    start: 0,
    end: current.steps.length - 1,
    next: i + 1,
    prev: i - 1,
    "next-street": streetStep(current.steps, i, 1),
    "prev-street": streetStep(current.steps, i, -1),
  }[how];
  show(to);
}

// Downloads come from the room's hand-history routes (docs/histories.md): the file
// holds what this viewer may see, and the deck proof checks with `cardroom verify`.
const EXPORT_ADDRESS = (hand, format) => `/api/hands/${hand.handId}/export?format=${format}`;
const PROOF_ADDRESS = (hand) => `/api/hands/${hand.handId}/proof`;

function downloadLinks(hand) {
  fill($("[data-downloads]"), hand.handId
    ? [h("a", { class: "button", href: EXPORT_ADDRESS(hand, "phh"), download: `hand-${gameId}-${hand.number}.phh` }, "Download PHH"),
      h("a", { class: "button", href: EXPORT_ADDRESS(hand, "pokerstars"), download: `hand-${gameId}-${hand.number}.txt` }, "Download PokerStars text"),
      h("a", { class: "button", href: PROOF_ADDRESS(hand), download: `hand-${gameId}-${hand.number}-proof.json` }, "Download deck proof")]
    : h("span", { class: "muted" }, "This hand has no stored record to download."));
}

// -- verify this hand ------------------------------------------------------------------------

function verifySection(hand) {
  $("[data-verify]").hidden = !hand.handId;
  fill($("[data-verify-commitment]"), commitmentNode(publishedRoot(hand.events)));
  fill($("[data-verify-result]"));
}

async function verifyCurrent() {
  if (!current || !current.hand.handId) return;
  const { hand } = current;
  // a box of this check's own: opening another hand meanwhile drops it from the page
  const box = h("div");
  fill($("[data-verify-result]"), box);
  const button = $("[data-verify-button]");
  button.disabled = true;
  try {
    await verifyHand(box, { handId: hand.handId, events: hand.events });
  } catch (error) {
    fill(box, h("p", { class: "error", "data-verify-message": "" }, `The check could not run: ${error.message || error}`));
  } finally {
    button.disabled = false;
  }
}

async function main() {
  me = await startPage();
  listenForNotices();
  for (const button of document.querySelectorAll("[data-step]")) {
    button.addEventListener("click", () => move(button.dataset.step));
  }
  $("[data-verify-button]").addEventListener("click", verifyCurrent);
  $("[data-replay]").addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    const keys = { ArrowRight: "next", ArrowLeft: "prev", Home: "start", End: "end", PageDown: "next-street", PageUp: "prev-street" };
    if (keys[event.key]) {
      event.preventDefault();
      move(keys[event.key]);
    }
  });
  try {
    if (gameId) await showGame();
    else await listGames();
  } catch (error) {
    showError($("[data-error]"), error);
  }
  markReady();
}

main();
