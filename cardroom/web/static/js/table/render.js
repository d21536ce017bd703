// The table drawn from a game as the room sends it (GameOut): seats round the oval,
// the board, the pots and whose turn it is. Rebuilt whole on every snapshot.

import { cardName, cardNode, cardsNode } from "../cards.js";
import { secondsUntil } from "../clock.js";
import { fill, h } from "../dom.js";
import { countdown } from "../format.js";
import { ordinal } from "../rules.js";
import { bestFive } from "./best-five.js";
import { seatPositions } from "../seating.js";

/** seat number -> {seat: SeatOut, player: HandPlayerOut | undefined} */
export function seatMap(game) {
  const map = new Map();
  for (const s of game.seats) map.set(s.seat, { seat: s, player: undefined });
  for (const p of (game.hand && game.hand.players) || []) {
    const entry = map.get(p.seat) || { seat: null, player: undefined };
    entry.player = p;
    map.set(p.seat, entry);
  }
  return map;
}

function notes(seat, player, game) {
  const out = [];
  const hand = game.hand;
  if (seat.leaving) out.push(seat.leaving === "timed_out" ? "Timed out: leaving" : "Leaving");
  if (seat.sitting_out) out.push("Away");
  if (seat.waiting_for_big_blind) out.push("Waits for the big blind");
  if (seat.timeouts_in_a_row > 0 && !seat.sitting_out) out.push(`Missed ${seat.timeouts_in_a_row} turn${seat.timeouts_in_a_row > 1 ? "s" : ""}`);
  if (player && player.folded && hand && hand.running) out.push("Folded");
  if (player && player.all_in) out.push("All in");
  if (hand && !hand.running && seat.continued) out.push("Ready");
  if (seat.stack === 0 && !(player && player.all_in) && game.summary.format === "cash") out.push("Out of chips");
  return out;
}

/**
 * Draw the seats. `view` gives: game, me (user), money (formatter), winners (set of
 * seats that won a pot in the last hand), onSit(seat) for an empty seat the viewer
 * could take, and now.
 */
export function renderSeats(list, view) {
  const { game, money, winners, onSit } = view;
  const count = game.summary.seat_count;
  // A player knocked out of a tournament keeps the table as they saw it: their old
  // seat at the bottom, showing their place (`finished`: seat -> standing).
  const finished = view.finished || new Map();
  const bottom = game.viewer_seat || view.lastSeat || 1;
  const seats = seatMap(game);
  const hand = game.hand;
  const canSit = game.viewer_seat === null && game.viewer_cost !== null && onSit &&
    (game.summary.status === "waiting" || game.summary.format !== "tournament");
  const items = [];
  // the board's cards that make a winner's hand, for renderCentre (called next)
  winningBoard = new Set();
  winningHand = hand ? hand.number : null;
  // many seats: smaller seats (table.css), so ten fit round a phone's oval
  list.dataset.count = String(count);
  list.parentElement.dataset.seatCount = String(count);
  list.dataset.bottom = String(bottom);
  for (let n = 1; n <= count; n += 1) {
    const entry = seats.get(n);
    const out = finished.get(n);
    if ((!entry || !entry.seat) && out) {
      const place = `Finished ${ordinal(out.place)}${out.prize > 0 ? `, won ${money(out.prize)}` : ""}`;
      items.push(h("li", { class: `seat gone${out.user_id === view.meId ? " me" : ""}`, dataset: { seat: String(n) } },
        h("div", { class: "seat-box" },
          h("span", { class: "name" }, out.name, out.user_id === view.meId ? h("span", { class: "sr-only" }, " (you)") : null),
          h("span", { class: "note" }, place))));
      continue;
    }
    if (!entry || !entry.seat) {
      items.push(h("li", { class: "seat empty", dataset: { seat: String(n) } },
        h("div", { class: "seat-box" },
          h("span", { class: "name" }, `Seat ${n}`),
          canSit
            ? h("button", { type: "button", onclick: () => onSit(n), "aria-label": `Sit at seat ${n} for ${money(game.viewer_cost)}` }, "Sit here")
            : h("span", { class: "note" }, "Empty"))));
      continue;
    }
    const { seat, player } = entry;
    const mine = game.viewer_seat === n;
    const toAct = hand && hand.running && hand.seat_to_act === n;
    const classes = ["seat"];
    if (mine) classes.push("me");
    if (toAct) classes.push("turn");
    if (player && player.folded) classes.push("folded");
    if (seat.sitting_out) classes.push("out");
    if (winners && winners.has(n) && hand && !hand.running) classes.push("winner");

    let cards = null;
    let bestWords = null;
    if (hand && player) {
      const known = mine && hand.my_cards.length ? hand.my_cards : player.cards;
      if (known && known.length) {
        cards = cardsNode(known, { label: mine ? "Your cards" : `${seat.name}'s cards` });
        if (winners && winners.has(n) && !hand.running && known.length === 2 && hand.board.length >= 3) {
          const best = bestFive([...known, ...hand.board]);
          bestWords = markBest(cards, known, best);
          for (const card of best) if (hand.board.includes(card)) winningBoard.add(card);
        }
      } else if (player.has_cards && hand.running) {
        cards = h("span", { class: "cards", role: "img", "aria-label": `${seat.name} holds two cards` },
          cardNode(null), cardNode(null));
      }
    }
    const markers = [];
    if (hand && hand.button_seat === n) markers.push(["button", "D", "dealer button"]);
    if (hand && hand.small_blind_seat === n) markers.push(["sb", "SB", "small blind"]);
    if (hand && hand.big_blind_seat === n) markers.push(["bb", "BB", "big blind"]);
    const noteList = notes(seat, player, game);
    let timer = null;
    if (toAct && view.turnDue) {
      timer = h("span", { class: "timer", "data-timer": "", "aria-hidden": "true" }, h("span"));
    }
    // Heard with the seat (the sr-only text in the box), so hidden from screen readers.
    const bet = seat.bet > 0
      ? h("span", { class: "bet", dataset: { seat: String(n) }, "aria-hidden": "true" }, money(seat.bet))
      : null;
    items.push(h("li", { class: classes.join(" "), dataset: { seat: String(n) }, "aria-current": toAct ? "true" : undefined },
      cards,
      bestWords,
      h("div", { class: "seat-box" },
        h("span", { class: "markers" }, markers.map(([cls, text, name]) =>
          h("span", { class: `marker ${cls}`, title: name }, h("span", { "aria-hidden": "true" }, text), h("span", { class: "sr-only" }, `, ${name}`)))),
        h("span", { class: "name" }, seat.name, mine ? h("span", { class: "sr-only" }, " (you)") : null),
        h("span", { class: "stack" }, h("span", { class: "sr-only" }, "stack "), money(seat.stack)),
        seat.bet > 0 ? h("span", { class: "sr-only" }, `, bet ${money(seat.bet)}`) : null,
        noteList.length ? h("span", { class: "note" }, noteList.join(" · ")) : null,
        toAct ? h("span", { class: "sr-only" }, ", to act") : null,
        timer),
      bet,
    ));
  }
  fill(list, items);
  placeSeats(list);
  if (!resized.has(list) && typeof ResizeObserver === "function") {
    resized.add(list);
    new ResizeObserver(() => placeSeats(list)).observe(list);
  }
}

const resized = new WeakSet();

/**
 * Put each seat of `list` in its place round the oval, and its bet just outside it
 * on the way to the middle: never under a seat box, its own cards or the board. The
 * places depend on the table's shape on this screen (wide on a desktop, upright on a
 * phone), so they are set again whenever its size changes.
 */
export function placeSeats(list) {
  const count = Number(list.dataset.count);
  const width = list.clientWidth;
  const height = list.clientHeight;
  const aspect = width > 0 ? height / width : 0;
  // upright (a phone): a little further up and down, where there is room
  const positions = seatPositions(count, Number(list.dataset.bottom), { aspect, ry: aspect > 1 ? 43 : 40 });
  const bets = [];
  for (const item of list.children) {
    const pos = positions[item.dataset.seat];
    if (!pos) continue;
    item.style.setProperty("--x", `${pos.x}%`);
    item.style.setProperty("--y", `${pos.y}%`);
    const bet = item.querySelector(":scope > .bet");
    if (bet) bets.push([item, bet, pos]);
  }
  // Measured once every seat has its place: the seats' boxes and the middle (board,
  // pot) that a bet must keep clear of. A bet goes just outside its seat, towards the
  // middle if there is room there, else straight up or down towards it, else sideways.
  const origin = list.getBoundingClientRect();
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left - origin.left, top: r.top - origin.top, right: r.right - origin.left, bottom: r.bottom - origin.top };
  };
  const taken = [...list.children].map(rect);
  const middle = list.parentElement.querySelector(".centre");
  if (middle) {
    for (const part of middle.querySelectorAll(".board .cards, .pot, .pots, .table-status")) {
      if (part.offsetWidth && part.offsetHeight) taken.push(rect(part));
    }
  }
  for (const [item, bet, pos] of bets) {
    const seat = rect(item);
    const dx = ((50 - pos.x) / 100) * width;
    const dy = ((50 - pos.y) / 100) * height;
    const length = Math.hypot(dx, dy) || 1;
    const up = Math.sign(dy) || -1;
    const side = Math.sign(dx) || 1;
    const ways = [[dx / length, dy / length], [0, up], [side, 0], [0, -up],
      [side * Math.SQRT1_2, -up * Math.SQRT1_2], [side * Math.SQRT1_2, up * Math.SQRT1_2]];
    let chosen = null;
    let least = Infinity;
    search: for (const gap of [GAP, 2 * GAP, 4 * GAP]) {
      for (const [ux, uy] of ways) {
        const spot = beside(seat, bet, ux, uy, gap);
        const covered = taken.reduce((sum, r) => sum + overlap(r, spot), 0);
        if (covered < least) {
          chosen = spot;
          least = covered;
        }
        if (!covered) break search;
      }
    }
    taken.push(chosen);
    bet.style.setProperty("--bx", `${Math.round((chosen.left + chosen.right) / 2 - seat.left)}px`);
    bet.style.setProperty("--by", `${Math.round((chosen.top + chosen.bottom) / 2 - seat.top)}px`);
  }
}

const GAP = 5; // px between a bet and its seat, at the least

/** Where `bet` goes, `gap` px outside the box `seat` in the direction (ux, uy). */
function beside(seat, bet, ux, uy, gap) {
  const w = (seat.right - seat.left) / 2;
  const h = (seat.bottom - seat.top) / 2;
  const out = Math.min(ux ? w / Math.abs(ux) : Infinity, uy ? h / Math.abs(uy) : Infinity);
  const bw = bet.offsetWidth / 2;
  const bh = bet.offsetHeight / 2;
  const d = out + Math.min(ux ? bw / Math.abs(ux) : Infinity, uy ? bh / Math.abs(uy) : Infinity) + gap;
  const x = seat.left + w + ux * d;
  const y = seat.top + h + uy * d;
  return { left: x - bw, right: x + bw, top: y - bh, bottom: y + bh };
}

/** The area two boxes share, 0 if none. */
function overlap(a, b) {
  const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const high = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return wide > 0 && high > 0 ? wide * high : 0;
}

// Which board cards the last renderSeats found in a winning hand, and for which hand.
let winningBoard = new Set();
let winningHand = null;

/**
 * Mark the cards of `node` (a cardsNode of `cards`) that are among `best`, the five
 * that win: a ring to see, and for a screen reader a sentence (returned, to go after
 * the cards) naming the marked ones; the cards' own labels stay their names.
 */
function markBest(node, cards, best) {
  const named = [];
  cards.forEach((card, i) => {
    const face = node.children[i];
    if (!face || !best.includes(card)) return;
    face.classList.add("best");
    named.push(cardName(card));
  });
  return named.length ? h("span", { class: "sr-only", "data-best-words": "" }, `In the winning hand: ${named.join(", ")}.`) : null;
}

export function renderCentre(parts, { game, money, names }) {
  const hand = game.hand;
  fill(parts.board, hand ? cardsNode(hand.board, { count: 5, label: hand.board.length ? "Board" : "Board: no cards yet" }) : "");
  if (hand && !hand.running && winningHand === hand.number && winningBoard.size) {
    const words = markBest(parts.board.firstElementChild, hand.board, [...winningBoard]);
    if (words) parts.board.append(words);
  }
  parts.pot.textContent = hand && hand.pot > 0 ? `Pot ${money(hand.pot)}` : "";
  const pots = hand && hand.running && hand.pots.length > 1 ? hand.pots : [];
  fill(parts.pots, pots.map((p, i) => h("li", {},
    `${i === 0 ? "Main pot" : `Side pot ${i}`} ${money(p.amount)}`,
    i > 0 ? h("span", { class: "sr-only" }, `, for ${p.eligible.map((s) => names.seat(s)).join(", ")}`) : null)));
  // the bets keep clear of the middle as it is now
  const seats = parts.board.closest(".felt-wrap")?.querySelector("[data-seats]");
  if (seats && seats.dataset.count) placeSeats(seats);
}

/** Move the turn timers and say how long is left; called every second. */
export function tickTimers(root, game) {
  const due = game.deadlines.turn_due_at;
  const total = game.summary.turn_clock_seconds;
  const left = secondsUntil(due);
  for (const bar of root.querySelectorAll("[data-timer]")) {
    if (left === null || !total) continue;
    const fraction = Math.max(0, Math.min(1, left / total));
    bar.style.setProperty("--left", String(fraction));
    bar.classList.toggle("low", left < Math.min(10, total / 4));
  }
  return left === null ? null : countdown(left);
}
