// The four presets of RULES.md, as players read them: the create form's defaults and
// the table's "Rules" dialog.

import { h } from "./dom.js";
import { chips, duration } from "./format.js";

export const PRESETS = {
  house: {
    title: "House",
    blurb: "The room's own rules (BGC/WSOP based): cash games and tournaments for money.",
    formats: ["cash", "tournament"],
    points: false,
    blindsFixed: false,
    blindsRequired: false,
    schedule: "any",
    clock: 120,
    rules: [
      ["Chips", "1 chip = 1 cent of your balance"],
      ["Minimum raise", "The last full bet or raise, never less than the big blind"],
      ["Raise cap", "3 raises a round, unless only 2 players are left in"],
      ["Pre-flop call against a short all-in big blind", "At least a full big blind"],
      ["Short all-ins", "Do not reopen the betting, unless several add up to a full raise"],
      ["Showdown", "Everyone left shows at once; no mucking"],
      ["Button (cash)", "Moving big blind: the big blind moves one player every hand"],
      ["Button (tournament)", "Dead button (WSOP rule 49)"],
      ["Turn clock", "2 minutes, then check if free, else fold"],
      ["Timeouts (cash)", "3 in a row: cashed out once nothing of yours is in a pot"],
      ["Rebuy (cash)", "At zero chips, for exactly the buy-in"],
      ["Rejoining within 2 hours", "Costs the larger of the buy-in and what you cashed out"],
    ],
  },
  standard: {
    title: "Standard",
    blurb: "Textbook no-limit: every hand its own buy-in, ordered showdown, 30 s clock.",
    formats: ["per_hand"],
    points: false,
    blindsFixed: true,
    blindsRequired: false,
    schedule: "never",
    clock: 30,
    rules: [
      ["Chips", "1 chip = 1 cent; each hand buys in afresh for the buy-in"],
      ["Blinds", "Big blind a fiftieth of the buy-in; never rise"],
      ["Minimum raise", "The last full bet or raise"],
      ["Raise cap", "None"],
      ["Showdown", "Ordered: the last river bettor shows first; losing hands are mucked unseen"],
      ["Button", "Simple rotation"],
      ["Turn clock", "30 seconds, then check if free, else fold"],
      ["Timeouts", "3 in a row: unseated"],
    ],
  },
  arena: {
    title: "Arena",
    blurb: "Elimination tournament for points: random first dealer, blinds double every N hands.",
    formats: ["tournament"],
    points: true,
    blindsFixed: false,
    blindsRequired: true,
    schedule: "hands",
    clock: 120,
    rules: [
      ["Chips", "Points, no money"],
      ["Minimum raise", "Every raise adds at least the big blind"],
      ["Raise cap", "None"],
      ["Showdown", "Everyone left shows at once"],
      ["Button", "Simple rotation; the first dealer is drawn at random"],
      ["Blinds", "Double every N hands (10 unless set)"],
      ["Turn clock", "2 minutes"],
      ["Prizes", "Finishing order only"],
    ],
  },
  legacy: {
    title: "Legacy",
    blurb: "The earlier edition of House: ordered showdown, no raise cap, no automatic clock.",
    formats: ["cash", "tournament"],
    points: false,
    blindsFixed: false,
    blindsRequired: false,
    schedule: "tournament",
    clock: null,
    rules: [
      ["Chips", "1 chip = 1 cent of your balance"],
      ["Minimum raise", "The last full bet or raise"],
      ["Raise cap", "None"],
      ["Showdown", "Ordered: the last river bettor shows first; losing hands are mucked unseen"],
      ["Button", "Simple rotation (cash), dead button (tournament)"],
      ["Turn clock", "None: the host or an admin may fold a player inactive for 24 hours"],
      ["Idle seats", "Removable between hands"],
      ["Rebuy (cash)", "At zero chips, for the buy-in"],
    ],
  },
};

// A game's status as every page's badge reads it: capitalised alike everywhere.
export const STATUS_NAMES = { waiting: "Waiting", running: "Running", paused: "Paused", finished: "Finished", cancelled: "Cancelled" };

/** A listed game's badge: its status, except that a cash table paused because fewer
 * than two can play "Needs players" (the host's pause alone reads "Paused"). */
export function statusBadge(game) {
  if (game.status === "paused" && game.waiting_for_players) return h("span", { class: "badge waiting" }, "Needs players");
  return h("span", { class: `badge ${game.status}` }, STATUS_NAMES[game.status] || game.status);
}

export const FORMAT_NAMES = { cash: "Cash game", per_hand: "Per-hand cash", tournament: "Tournament" };

export function presetTitle(name) {
  return (PRESETS[name] && PRESETS[name].title) || name;
}

export function blindsText(game) {
  const blinds = `${chips(game.small_blind, game.pays_money)}/${chips(game.big_blind, game.pays_money)}`;
  return blinds + scheduleText(game);
}

export function scheduleText(game) {
  const rate = game.blinds_rate_percent;
  if (game.blinds_every_hands) return ` (+${rate}% every ${game.blinds_every_hands} hands)`;
  if (game.blinds_every_minutes) return ` (+${rate}% every ${game.blinds_every_minutes} min)`;
  return "";
}

const BUTTONS = {
  moving_big_blind: "Moving big blind: the big blind moves one player every hand",
  dead_button: "Dead button (WSOP rule 49)",
  simple_rotation: "Simple rotation",
};

/**
 * The rules a game was created with (the `rules` of its GameCreated event, overrides
 * included) as [label, value] rows.
 */
export function rulesRows(rules, format) {
  const rows = [];
  rows.push(["Minimum raise", rules.min_raise === "big_blind"
    ? "Every raise adds at least the big blind"
    : "The last full bet or raise, never less than the big blind"]);
  rows.push(["Raise cap", rules.raise_cap === null || rules.raise_cap === undefined
    ? "None"
    : `${rules.raise_cap} raises a round, unless only 2 players are left in`]);
  rows.push(["Pre-flop call against a short all-in big blind", rules.full_big_blind_call
    ? "At least a full big blind, unless everyone else is all in"
    : "Matches the highest bet"]);
  rows.push(["Short all-ins", rules.short_all_ins_add_up
    ? "Do not reopen the betting, unless several add up to a full raise"
    : "Do not reopen the betting"]);
  rows.push(["Showdown", rules.showdown === "ordered"
    ? "Ordered: the last river bettor shows first; losing hands are mucked unseen"
    : "Everyone left shows at once; no mucking"]);
  const button = format === "tournament" ? rules.tournament_button : rules.cash_button;
  if (button) rows.push(["Button", BUTTONS[button] || button]);
  rows.push(["Turn clock", rules.turn_clock_seconds
    ? `${duration(rules.turn_clock_seconds)}, then check if free, else fold`
    : "None"]);
  if (rules.inactive_fold_after_seconds) {
    rows.push(["Inactive players", `The host or an admin may fold a player inactive for ${duration(rules.inactive_fold_after_seconds)}`]);
  }
  if (format !== "tournament" && rules.cash_timeouts_to_cash_out) {
    rows.push(["Timeouts", `${rules.cash_timeouts_to_cash_out} in a row: cashed out once nothing of yours is in a pot`]);
  }
  if (format === "cash") {
    rows.push(["Rebuy", rules.cash_rebuy ? "At zero chips, for exactly the buy-in" : "None"]);
    if (rules.rejoin_window_seconds) {
      rows.push([`Rejoining within ${duration(rules.rejoin_window_seconds)}`, "Costs the larger of the buy-in and what you cashed out"]);
    }
    if (rules.idle_seats_removable) rows.push(["Idle seats", "Removable between hands"]);
  }
  return rows;
}

/**
 * The table's own settings, then its rules: those it was created with when known
 * (`rules`), else its preset's. [label, value] rows.
 */
export function tableRules(game, rules = null) {
  const preset = PRESETS[game.preset];
  const rows = [
    ["Preset", `${presetTitle(game.preset)}: ${preset ? preset.blurb : ""}`],
    ["Format", FORMAT_NAMES[game.format] || game.format],
    [game.format === "tournament" ? "Entry" : "Buy-in", chips(game.buy_in, game.pays_money)],
    ["Blinds now", blindsText(game)],
    ["Seats", `${game.seat_count}`],
    ["Turn clock", duration(game.turn_clock_seconds)],
    ["Between hands", `${duration(game.between_hands_seconds)} to review and press Continue`],
  ];
  if (game.format === "tournament" && game.pays_money) {
    const payouts = game.payouts && game.payouts.length ? game.payouts : [100];
    rows.push(["Prizes", payouts.map((p, i) => `${ordinal(i + 1)} ${p}%`).join(", ")]);
  }
  if (rules) return rows.concat(rulesRows(rules, game.format));
  return rows.concat(preset ? preset.rules : []);
}

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}
