// Hand history: your games with your last ten hands of each (GET /api/me/history),
// older ones page by page (GET /api/me/hands), and any hand replayed street by street,
// card by card: from its stored record (GET /api/hands/{id}) in the list, from the
// game's events (GET /api/games/{id}/events) on a table's page, which shows every hand
// of the table as this viewer may see it (their own cards, and shown hands). Each
// hand's deck proof is checked in the page ("Verify this hand", verify.js).

import { get } from "../api.js";
import { cardsName, cardsNode } from "../cards.js";
import { listenForNotices, markReady, setTitle, showError, startPage } from "../chrome.js";
import { $, announce, fill, h } from "../dom.js";
import { chips, dateTime, plural } from "../format.js";
import { replay, splitHands, stepAsGame, streetStep } from "../replay.js";
import { STATUS_NAMES, presetTitle } from "../rules.js";
import { learnLeavers } from "../player-names.js";
import { Names, describe, handResult, resultLines } from "../story.js";
import { renderCentre, renderSeats } from "../table/render.js";
import { commitmentNode, publishedRoot, verifyHand } from "../verify.js";

const parts = location.pathname.split("/");
const gameId = parts[1] === "games" ? Number(parts[2]) : null;
const names = new Names();
const PAGE = 10; // hands a game shows, and each "More hands" adds
let me = null;
let table = { seatCount: 9, paysMoney: true, format: "cash" };
let current = null; // {hand, steps, index}
let opener = null; // what opened the replay: "Back to the hands" returns there

// -- your games and hands (GET /api/me/history) ------------------------------------------

function signed(n, money) {
  if (n > 0) return `+${money(n)}`;
  if (n < 0) return `−${money(-n)}`;
  return money(0);
}

function unreadableRow(hand) {
  // The room could not read this hand's record (issue 17): say so here, instead of a
  // replay that can only answer the error; the player's other hands are unharmed.
  return h("tr", { class: "unreadable", dataset: { handId: String(hand.id), hand: String(hand.number), unreadable: "" } },
    h("th", { scope: "row", "data-label": "Hand" }, `#${hand.number}`),
    h("td", { colspan: "3", class: "muted" }, "This hand's record cannot be read; the room's operator has been told."),
    h("td", { class: "go" }, h("button", { type: "button", disabled: true, "aria-label": `Hand ${hand.number} cannot be replayed` }, "Replay")));
}

function handRow(hand) {
  if (hand.unreadable) return unreadableRow(hand);
  const money = (n) => chips(n, hand.pays_money);
  const label = `Replay hand ${hand.number} of game #${hand.game_id}`;
  return h("tr", { dataset: { handId: String(hand.id), hand: String(hand.number) } },
    h("th", { scope: "row", "data-label": "Hand" }, `#${hand.number}`),
    h("td", { class: "you", "data-label": "You" }, hand.cards.length
      ? cardsNode(hand.cards, { size: "1.6rem", label: `Your cards: ${cardsName(hand.cards)}` })
      : h("span", { class: "muted" }, "—")),
    h("td", { class: "board-cell", "data-label": "Board" }, hand.board.length
      ? cardsNode(hand.board, { size: "1.6rem", label: `Board: ${cardsName(hand.board)}` })
      : h("span", { class: "muted" }, "no flop")),
    h("td", { class: `num ${hand.net > 0 ? "net-up" : hand.net < 0 ? "net-down" : ""}`, "data-label": "Result", "data-net": "" },
      signed(hand.net, money)),
    h("td", { class: "go" }, h("button", { type: "button", "aria-label": label, onclick: (event) => openStored(hand.id, event.currentTarget) }, "Replay")));
}

function gameNode(game) {
  const id = game.game_id;
  const heading = `game-${id}-h`;
  const body = h("tbody", { "data-game-hands": "" }, game.hands.map(handRow));
  const more = h("button", { type: "button", "data-more-hands": "", hidden: game.hands.length >= game.hands_played }, "More hands");
  more.addEventListener("click", () => moreHands(id, body, more));
  return h("section", { class: "history-game", dataset: { game: String(id) }, "aria-labelledby": heading },
    h("h3", { id: heading }, h("a", { href: `/games/${id}/history` }, `#${id} · ${presetTitle(game.preset)}`)),
    h("p", { class: "muted" },
      `${STATUS_NAMES[game.status] || game.status} · ${plural(game.hands_played, "hand")} dealt to you · last ${dateTime(game.last_played_at)}`),
    h("table", { class: "data hand-list" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Your cards"), h("th", { scope: "col" }, "Board"),
        h("th", { scope: "col", class: "num" }, "Result"), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Replay")))),
      body),
    h("p", { class: "row" }, more),
    h("p", { class: "muted", "data-game-downloads": "" }, "Your hands of this game in one file: ",
      h("a", { href: `/api/games/${id}/export?format=phh`, download: `cardroom-game-${id}.phhs` }, "PHH"), " · ",
      h("a", { href: `/api/games/${id}/export?format=pokerstars`, download: `cardroom-game-${id}.txt` }, "PokerStars text")));
}

async function moreHands(id, body, button) {
  const last = body.lastElementChild;
  if (!last) return;
  button.disabled = true;
  try {
    const page = await get(`/api/me/hands?game_id=${id}&before=${last.dataset.handId}&limit=${PAGE}`);
    const rows = page.hands.map(handRow);
    body.append(...rows);
    button.hidden = page.next_before === null;
    announce(`${plural(rows.length, "older hand")} of game #${id} listed.`);
    if (button.hidden && rows.length) rows[0].querySelector("button").focus();
  } catch (error) {
    showError($("[data-error]"), error);
  } finally {
    button.disabled = false;
  }
}

async function listHistory(before = null) {
  const page = await get(before ? `/api/me/history?before=${before}` : "/api/me/history");
  $("[data-history-games]").append(...page.games.map(gameNode));
  const more = $("[data-more-games]");
  more.hidden = page.next_before === null;
  more.dataset.before = String(page.next_before || "");
  return page;
}

async function showHistory() {
  $("[data-history-section]").hidden = false;
  const page = await listHistory();
  $("[data-history-empty]").hidden = page.games.length > 0;
  $("[data-more-games]").addEventListener("click", async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const shown = $("[data-history-games]").children.length;
      await listHistory(button.dataset.before);
      const first = $("[data-history-games]").children[shown];
      if (first) first.querySelector("a").focus();
    } catch (error) {
      showError($("[data-error]"), error);
    } finally {
      button.disabled = false;
    }
  });
  $("[data-open-game]").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = Number(event.currentTarget.elements.game.value.replace("#", ""));
    if (Number.isInteger(id) && id > 0) location.assign(`/games/${id}/history`);
  });
  const wanted = Number((location.hash.match(/^#replay-(\d+)$/) || [])[1]);
  if (wanted) await openStored(wanted, null);
}

/**
 * A stored hand (GET /api/hands/{id}, HandHistoryOut) as the replay walks a game's
 * events: its HandDealt and DeckCommitted records, then the engine's events, which
 * the room has already filtered for this viewer (another's unshown cards are null).
 */
function storedHand(data) {
  const player = (p) => (p.user_id === null ? -p.seat : p.user_id); // an account gone
  const seats = [...data.players].sort((a, b) => a.seat - b.seat);
  const dealt = {
    type: "HandDealt",
    data: {
      number: data.number,
      button: data.button_seat,
      small_blind: data.small_blind_seat,
      big_blind: data.big_blind_seat,
      blinds: [data.small_blind, data.big_blind],
      players: seats.map((p) => [p.seat, player(p), p.starting_stack]),
    },
  };
  const committed = data.deck_root ? [{ type: "DeckCommitted", data: { number: data.number, root: data.deck_root } }] : [];
  return {
    number: data.number,
    handId: data.id,
    gameId: data.game_id,
    at: data.started_at,
    anchor: `replay-${data.id}`,
    title: `Hand #${data.number} · game #${data.game_id}`,
    users: seats.map((p) => ({ seat: p.seat, user_id: player(p), name: p.name })),
    table: { seatCount: data.seat_count, paysMoney: data.pays_money, format: data.pays_money ? "cash" : "tournament" },
    events: [dealt, ...committed, ...data.events.map((e) => ({ type: e.type, data: e.data, created_at: e.at }))],
  };
}

async function openStored(handId, from) {
  try {
    const hand = storedHand(await get(`/api/hands/${handId}`));
    table = hand.table;
    names.setUsers(hand.users);
    open(hand, replay(hand), from);
  } catch (error) {
    showError($("[data-error]"), error);
  }
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
  await learnLeavers(names, gameId, events);
  const created = events.find((e) => e.type === "GameCreated");
  table = {
    seatCount: (created && created.data.config && created.data.config.seat_count) || game.summary.seat_count,
    paysMoney: game.summary.pays_money,
    format: game.summary.format,
  };
  $("[data-title]").textContent = `Hand history · table #${gameId}`;
  $("[data-back-to-table]").href = `/games/${gameId}`;
  $("[data-back-to-table]").parentElement.hidden = false;
  setTitle(`Hands of table #${gameId} · Cardroom`);
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
      h("td", {}, h("button", { type: "button", onclick: (event) => open(hand, steps, event.currentTarget), "aria-label": `Replay hand ${hand.number}` }, "Replay")));
  });
  fill($("[data-hands]"), rows);
  $("[data-hands-empty]").hidden = rows.length > 0;
  const wanted = Number((location.hash.match(/^#hand-(\d+)$/) || [])[1]);
  const chosen = hands.find((hand) => hand.number === wanted);
  if (chosen) open(chosen, replay(chosen));
}

// -- the replay ------------------------------------------------------------------------------

function open(hand, steps, from = null) {
  names.setHand(hand.events[0].data);
  current = { hand, steps, index: 0 };
  opener = from;
  $("[data-back]").hidden = !from;
  $("[data-replay]").hidden = false;
  $("[data-replay-title]").textContent = hand.title || `Hand #${hand.number}`;
  history.replaceState(null, "", `#${hand.anchor || `hand-${hand.number}`}`);
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
  const name = `hand-${hand.gameId || gameId}-${hand.number}`;
  fill($("[data-downloads]"), hand.handId
    ? [h("a", { class: "button", href: EXPORT_ADDRESS(hand, "phh"), download: `${name}.phh` }, "Download PHH"),
      h("a", { class: "button", href: EXPORT_ADDRESS(hand, "pokerstars"), download: `${name}.txt` }, "Download PokerStars text"),
      h("a", { class: "button", href: PROOF_ADDRESS(hand), download: `${name}-proof.json` }, "Download deck proof")]
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
  $("[data-back]").addEventListener("click", () => {
    if (opener && opener.isConnected) opener.focus();
  });
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
    else await showHistory();
  } catch (error) {
    showError($("[data-error]"), error);
  }
  markReady();
}

main();
