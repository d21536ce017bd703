// The create-game form's values -> the body of POST /api/games (CreateGameIn).
// Pure: refuses with a sentence what the room would refuse, before asking it.

import { parseMoney } from "./format.js";
import { PRESETS } from "./rules.js";

const SECONDS_OPTIONS = ["turn_clock_seconds", "between_hands_seconds"];
const COUNT_OPTIONS = ["raise_cap", "cash_timeouts_to_cash_out"];
const BOOL_OPTIONS = ["full_big_blind_call", "short_all_ins_add_up", "cash_rebuy", "idle_seats_removable"];
const WORD_OPTIONS = ["showdown", "min_raise"];

/** Chips from what was typed: dollars at money tables ("0.25"), whole points at arena. */
function amount(text, points, what) {
  if (points) {
    if (!/^\d+$/.test(text)) throw new Error(`${what} is a whole number of points.`);
    return Number(text);
  }
  const cents = parseMoney(text);
  if (cents === null) throw new Error(`${what} is an amount such as 10 or 2.50.`);
  return cents;
}

export function createRequest(v) {
  const preset = PRESETS[v.preset];
  if (!preset) throw new Error("Choose the rules.");
  const body = { preset: v.preset, seats: Number(v.seats), sit: Boolean(v.sit) };
  if (v.private) body.private = true; // found only through its invite link
  if (v.spectators === false) body.spectators = false; // only its players watch it
  if (v.spectators_chat) body.spectators_chat = true; // spectators write in its chat too
  if (v.format) body.format = v.format;
  body.buy_in = amount(v.buy_in, preset.points, preset.points ? "The starting points" : "The buy-in");
  if (!preset.points && body.buy_in < 100) throw new Error("The buy-in is at least $1.00.");
  if (body.buy_in < 1) throw new Error("The starting points are at least 1.");

  if (!preset.blindsFixed) {
    const sb = v.small_blind ? amount(v.small_blind, preset.points, "The small blind") : null;
    const bb = v.big_blind ? amount(v.big_blind, preset.points, "The big blind") : null;
    if (preset.blindsRequired && (!sb || !bb)) throw new Error("Arena tables need both blinds.");
    if ((sb === null) !== (bb === null)) throw new Error("Give both blinds, or neither.");
    if (sb !== null) {
      if (sb < 1 || bb < 1) throw new Error("A blind is at least one chip.");
      if (sb > bb) throw new Error("The small blind is at most the big blind.");
      if (bb > body.buy_in) throw new Error("The big blind is at most the buy-in.");
      body.small_blind = sb;
      body.big_blind = bb;
    }
  }

  const schedules = allowedSchedules(v.preset, v.format);
  if (schedules.length && v.schedule && v.schedule !== "never") {
    if (!schedules.includes(v.schedule)) throw new Error("These rules do not raise the blinds that way.");
    const every = Number(v.every);
    if (!Number.isInteger(every) || every < 1) throw new Error("Raise the blinds every 1 or more.");
    body[v.schedule === "hands" ? "blinds_every_hands" : "blinds_every_minutes"] = every;
    if (v.preset !== "arena") {
      const rate = Number(v.rate);
      if (!Number.isInteger(rate) || rate < 1 || rate > 1000) {
        throw new Error("The rate is a whole percentage from 1 to 1000.");
      }
      body.blinds_rate_percent = rate;
    }
  }

  const format = v.format || preset.formats[0];
  if (format === "tournament" && !preset.points && v.payouts) {
    const parts = v.payouts.split(/[\s/,;]+/).filter(Boolean);
    if (!parts.every((p) => /^\d+$/.test(p))) throw new Error("Prizes are whole percentages, such as 65/35.");
    const payouts = parts.map(Number);
    if (payouts.reduce((a, b) => a + b, 0) !== 100) throw new Error("The prize percentages add up to 100.");
    if (payouts.some((p, i) => i > 0 && p > payouts[i - 1])) {
      throw new Error("A lower place never pays more than a higher one.");
    }
    body.payouts = payouts;
  }

  const rules = {};
  for (const name of SECONDS_OPTIONS.concat(COUNT_OPTIONS)) {
    if (!v[name]) continue;
    rules[name] = v[name] === "off" ? null : Number(v[name]);
  }
  for (const name of BOOL_OPTIONS) if (v[name]) rules[name] = v[name] === "yes";
  for (const name of WORD_OPTIONS) if (v[name]) rules[name] = v[name];
  if (Object.keys(rules).length) body.rules = rules;
  return body;
}

/** How the blinds may rise under a preset and format: some of "hands", "minutes". */
export function allowedSchedules(presetName, format) {
  const preset = PRESETS[presetName];
  if (!preset) return [];
  switch (preset.schedule) {
    case "any":
      return ["hands", "minutes"];
    case "hands":
      return ["hands"];
    case "tournament":
      return (format || preset.formats[0]) === "tournament" ? ["hands", "minutes"] : [];
    default:
      return [];
  }
}

/**
 * The body of POST /api/games for a practice table against `count` bots: bots sit
 * only at points (arena) tables (cardroom/service/bot_seats.py), so no money moves.
 * One seat for the player and one per bot: the bots fill it and it deals at once.
 */
export function practiceRequest(count) {
  if (!Number.isInteger(count) || count < 1 || count > 9) throw new Error("Play against 1 to 9 bots.");
  return {
    preset: "arena", format: "tournament", seats: count + 1, sit: true,
    buy_in: 1000, small_blind: 10, big_blind: 20, blinds_every_hands: 10,
  };
}
