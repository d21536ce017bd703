// A game's events told as sentences, and a hand's result, pure. Engine events name
// players by seat, table events by player id: `who` knows both.

import { cardName, parseCard } from "./cards.js";
import { ordinal } from "./rules.js";

const SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

export function shortCard(card) {
  const c = parseCard(card);
  return c ? `${c.rank === "T" ? "10" : c.rank}${SYMBOLS[c.suit]}` : "??";
}

function cardsText(cards, spoken) {
  return cards.map(spoken ? cardName : shortCard).join(spoken ? ", " : " ");
}

/**
 * Names for one game: `setUsers(seats)` learns user names from a snapshot,
 * `setHand(data)` learns which player sits where from a HandDealt event.
 */
export class Names {
  constructor() {
    this.users = new Map();
    this.seats = new Map();
  }

  setUsers(seats) {
    for (const s of seats) {
      this.users.set(s.user_id, s.name);
      if (!this.seats.has(s.seat)) this.seats.set(s.seat, s.user_id);
    }
  }

  /** Names alone (`[{user_id, name}]`, as a table's ledger lists its players): those
   * who have left the table are in no snapshot. */
  learn(players) {
    for (const p of players) this.users.set(p.user_id, p.name);
  }

  knows(id) {
    return this.users.has(id);
  }

  setSeats(seats) {
    this.seats = new Map(seats.map((s) => [s.seat, s.user_id]));
  }

  setHand(data) {
    this.seats = new Map((data.players || []).map(([seat, player]) => [seat, player]));
  }

  player(id) {
    return this.users.get(id) || `Player ${id}`;
  }

  seat(number) {
    const id = this.seats.get(number);
    return id === undefined ? `Seat ${number}` : this.player(id);
  }
}

const POT_NAME = (n) => (n === 0 ? "the main pot" : `side pot ${n}`);
const STREETS = { flop: "Flop", turn: "Turn", river: "River" };
const BLINDS = { small_blind: "the small blind", big_blind: "the big blind", ante: "an ante" };

function list(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** One event as a sentence (null for the ones not worth telling). */
export function describe(event, names, money, { spoken = false } = {}) {
  const d = event.data || {};
  const seat = (n) => names.seat(n);
  const player = (id) => names.player(id);
  switch (event.type) {
    case "GameCreated":
      return "The game is created.";
    case "PlayerSeated":
      return `${player(d.player)} sits down at seat ${d.seat}${d.waits_for_big_blind ? " and waits for the big blind" : ""}.`;
    case "PlayerLeft":
      return d.reason === "eliminated" ? null : `${player(d.player)} leaves seat ${d.seat}${d.reason === "timed_out" ? " (timed out)" : ""}.`;
    case "BoughtIn":
      return `${player(d.player)} buys in for ${money(d.amount)}.`;
    case "HandSettled":
      return `${money(d.amount)} goes back to ${player(d.player)}'s balance.`;
    case "BuyInRefunded":
      return `${player(d.player)} gets the buy-in back: ${money(d.amount)}.`;
    case "Rebought":
      return `${player(d.player)} rebuys for ${money(d.amount)}.`;
    case "CashedOut":
      return `${player(d.player)} cashes out ${money(d.amount)}.`;
    case "CashOutPending":
      return `${player(d.player)} will be cashed out after this hand.`;
    case "CashOutCancelled":
      return `${player(d.player)} is back.`;
    case "PlayerSatOut":
      return `${player(d.player)} sits out.`;
    case "PlayerSatIn":
      return `${player(d.player)} is back in${d.waits_for_big_blind ? " (waiting for the big blind)" : ""}.`;
    case "ClockActed":
      return `The clock acted for ${player(d.player)} (${d.timeouts_in_a_row} in a row).`;
    case "GameStarted":
      return "The game starts.";
    case "SeatsDrawn":
      return "Seats are drawn.";
    case "BlindsRaised":
    case "BlindLevelReached":
      return d.small_blind !== undefined ? `The blinds rise to ${money(d.small_blind)}/${money(d.big_blind)}.` : "The blinds rise.";
    case "HandDealt":
      return `Hand #${d.number}: ${seat(d.button)} has the button; blinds ${money(d.blinds[0])}/${money(d.blinds[1])}.`;
    case "DeckCommitted": // the room's commitment to the deck, before the first card (docs/fairness.md)
      return typeof d.root === "string" ? `Deck committed: root ${d.root.slice(0, 12)}…` : "Deck committed.";
    case "BlindPosted":
      return `${seat(d.seat)} posts ${BLINDS[d.blind] || d.blind} ${money(d.amount)}${d.all_in ? " and is all in" : ""}.`;
    case "HoleCardDealt":
      return null;
    case "CardBurned":
      return null;
    case "BoardDealt":
      return `${STREETS[d.street] || d.street}: ${cardsText(d.cards, spoken)}.`;
    case "PlayerActed": {
      const who = seat(d.seat);
      const tail = `${d.all_in ? " and is all in" : ""}${d.timed_out ? " (the clock acted)" : ""}.`;
      switch (d.action) {
        case "fold": return `${who} folds${tail}`;
        case "check": return `${who} checks${tail}`;
        case "call": return `${who} calls ${money(d.amount)}${tail}`;
        case "bet": return `${who} bets ${money(d.bet)}${tail}`;
        case "raise": return `${who} raises to ${money(d.bet)}${tail}`;
        default: return `${who}: ${d.action}${tail}`;
      }
    }
    case "BetReturned":
      return `${money(d.amount)} goes back to ${seat(d.seat)}.`;
    case "HandShown":
      return `${seat(d.seat)} shows ${cardsText(d.cards, spoken)}: ${d.name}.`;
    case "HandMucked":
      return `${seat(d.seat)} mucks.`;
    case "PotAwarded": {
      const winners = list(d.winners.map(seat));
      const verb = d.winners.length > 1 ? "split" : "wins";
      const what = d.winners.length > 1 ? `${POT_NAME(d.pot)} (${money(d.amount)})` : `${POT_NAME(d.pot)}, ${money(d.amount)}`;
      return `${winners} ${verb} ${what}${d.hand_name ? ` with ${d.hand_name}` : ""}.`;
    }
    case "PlayerBusted":
      return `${player(d.player)} has no chips left.`;
    case "PlayerEliminated":
      return `${player(d.player)} finishes ${ordinal(d.place)}.`;
    case "PrizePaid":
      return `${player(d.player)} wins ${money(d.amount)} for ${ordinal(d.place)} place.`;
    case "TournamentFinished":
      return `${player(d.winner)} wins the tournament.`;
    case "TablePaused":
      return d.reason === "host" ? "The table is paused." : "The table waits for players.";
    case "TableResumed":
      return "The table plays on.";
    case "GameCancelled":
      return `The game is cancelled${d.reason ? `: ${d.reason}` : ""}.`;
    default:
      return null;
  }
}

/** The events of the last hand in `events` (from its HandDealt on), or []. */
export function lastHand(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    if (events[i].type === "HandDealt") return events.slice(i);
  }
  return [];
}

/**
 * A finished hand's result: its number, each pot with its winners, shares and hand
 * name, and the hands shown. Null while the hand has no awarded pot.
 */
export function handResult(events) {
  const hand = lastHand(events);
  if (!hand.length) return null;
  const pots = [];
  const shown = [];
  const mucked = [];
  const settled = []; // per-hand tables: what each player's balance got back
  for (const e of hand) {
    const d = e.data || {};
    if (e.type === "PotAwarded") {
      pots.push({
        pot: d.pot,
        amount: d.amount,
        winners: d.winners.map((seat, i) => ({ seat, share: d.shares ? d.shares[i] : null })),
        handName: d.hand_name || "",
      });
    } else if (e.type === "HandShown") {
      shown.push({ seat: d.seat, cards: d.cards, name: d.name });
    } else if (e.type === "HandMucked") {
      mucked.push(d.seat);
    } else if (e.type === "HandSettled") {
      settled.push({ player: d.player, amount: d.amount });
    }
  }
  if (!pots.length) return null;
  return { number: hand[0].data.number, pots, shown, mucked, settled };
}

/** Won without a showdown: one pot, one winner, no hand named or shown. */
function wonByFold(result) {
  const [only] = result.pots;
  return result.pots.length === 1 && only.winners.length === 1 && !only.handName && !result.shown.length;
}

/** Sentences for a finished hand's pots, for the result panel. */
export function resultLines(result, names, money) {
  if (wonByFold(result)) {
    const [pot] = result.pots;
    return [`Everyone else folded: ${names.seat(pot.winners[0].seat)} wins ${money(pot.amount)}.`];
  }
  return result.pots.map((p) => {
    const who = list(p.winners.map((w) => names.seat(w.seat)));
    const pot = p.pot === 0 ? (result.pots.length > 1 ? "Main pot" : "Pot") : `Side pot ${p.pot}`;
    const split = p.winners.length > 1 ? ` split by ${who}` : `: ${who} wins`;
    const shares = p.winners.length > 1 ? ` (${p.winners.map((w) => money(w.share)).join(" and ")})` : "";
    return `${pot} ${money(p.amount)}${split}${shares}${p.handName ? ` with ${p.handName}` : ""}.`;
  });
}

/**
 * At a per-hand table every stack goes back to its balance when the hand ends (the
 * seats then read zero): what each player won or lost against the hand's buy-in,
 * and what went back. `me` is the viewer's id, told as "You".
 */
export function settlementLines(result, names, money, { buyIn, me = null }) {
  return result.settled.map(({ player, amount }) => {
    const you = player === me;
    const net = amount - buyIn;
    const outcome = net > 0 ? `won ${money(net)}` : net < 0 ? `lost ${money(-net)}` : "broke even";
    return `${you ? "You" : names.player(player)} ${outcome}: ${money(amount)} back to ${you ? "your" : "their"} balance.`;
  });
}
