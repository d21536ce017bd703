// The table drawn from a game as the room sends it (GameOut): seats round the oval,
// the board, the pots and whose turn it is. Rebuilt whole on every snapshot.

import { cardNode, cardsNode } from "../cards.js";
import { secondsUntil } from "../clock.js";
import { fill, h } from "../dom.js";
import { countdown } from "../format.js";
import { seatPositions, towardsCentre } from "../seating.js";

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
  const bottom = game.viewer_seat || 1;
  const positions = seatPositions(count, bottom);
  const seats = seatMap(game);
  const hand = game.hand;
  const canSit = game.viewer_seat === null && game.viewer_cost !== null && onSit &&
    (game.summary.status === "waiting" || game.summary.format !== "tournament");
  const items = [];
  const chipsInFront = [];
  for (let n = 1; n <= count; n += 1) {
    const pos = positions[n];
    const style = { "--x": `${pos.x}%`, "--y": `${pos.y}%` };
    const entry = seats.get(n);
    if (!entry || !entry.seat) {
      items.push(h("li", { class: "seat empty", style, dataset: { seat: String(n) } },
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
    if (hand && player) {
      const known = mine && hand.my_cards.length ? hand.my_cards : player.cards;
      if (known && known.length) {
        cards = cardsNode(known, { label: mine ? "Your cards" : `${seat.name}'s cards` });
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
    if (seat.bet > 0) {
      const b = towardsCentre(pos, 0.34);
      chipsInFront.push(h("span", { class: "bet", dataset: { seat: String(n) }, style: { "--bx": `${b.x}%`, "--by": `${b.y}%` } }, money(seat.bet)));
    }
    items.push(h("li", { class: classes.join(" "), style, dataset: { seat: String(n) }, "aria-current": toAct ? "true" : undefined },
      cards,
      h("div", { class: "seat-box" },
        h("span", { class: "markers" }, markers.map(([cls, text, name]) =>
          h("span", { class: `marker ${cls}`, title: name }, h("span", { "aria-hidden": "true" }, text), h("span", { class: "sr-only" }, `, ${name}`)))),
        h("span", { class: "name" }, seat.name, mine ? h("span", { class: "sr-only" }, " (you)") : null),
        h("span", { class: "stack" }, h("span", { class: "sr-only" }, "stack "), money(seat.stack)),
        seat.bet > 0 ? h("span", { class: "sr-only" }, `, bet ${money(seat.bet)}`) : null,
        noteList.length ? h("span", { class: "note" }, noteList.join(" · ")) : null,
        toAct ? h("span", { class: "sr-only" }, ", to act") : null,
        timer),
    ));
  }
  fill(list, items);
  // The bets sit between the seats and the middle: a layer of their own (a list holds
  // only its items), hidden from screen readers, which hear the bet with the seat.
  let layer = list.parentElement.querySelector(".bets");
  if (!layer) {
    layer = h("div", { class: "bets", "aria-hidden": "true" });
    list.after(layer);
  }
  fill(layer, chipsInFront);
}

export function renderCentre(parts, { game, money, names }) {
  const hand = game.hand;
  fill(parts.board, hand ? cardsNode(hand.board, { count: 5, label: hand.board.length ? "Board" : "Board: no cards yet" }) : "");
  parts.pot.textContent = hand && hand.pot > 0 ? `Pot ${money(hand.pot)}` : "";
  const pots = hand && hand.running && hand.pots.length > 1 ? hand.pots : [];
  fill(parts.pots, pots.map((p, i) => h("li", {},
    `${i === 0 ? "Main pot" : `Side pot ${i}`} ${money(p.amount)}`,
    i > 0 ? h("span", { class: "sr-only" }, `, for ${p.eligible.map((s) => names.seat(s)).join(", ")}`) : null)));
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
