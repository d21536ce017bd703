// The names of players who have left a table. A snapshot names only who sits there
// now, so after a reload a player who cashed out, left or was knocked out would read
// "Player 7" in the log, a hand's result and its replay. The table's ledger lists
// everyone who ever sat there; it is asked once a page, only when an event names
// someone the snapshot does not. A spectator may not read it (the room refuses): the
// number stays.

import { get } from "./api.js";

function playersNamed(events) {
  const ids = new Set();
  for (const { data = {} } of events) {
    if (typeof data.player === "number") ids.add(data.player);
    for (const p of Array.isArray(data.players) ? data.players : []) {
      const id = Array.isArray(p) ? p[1] : p; // HandDealt: [seat, player, stack]
      if (typeof id === "number") ids.add(id);
    }
  }
  return ids;
}

const asked = new Set();

/** Teach `names` the players `events` name that it does not know, from the ledger. */
export async function learnLeavers(names, gameId, events) {
  if (asked.has(gameId)) return;
  if (![...playersNamed(events)].some((id) => !names.knows(id))) return;
  asked.add(gameId);
  try {
    names.learn((await get(`/api/games/${gameId}/ledger`)).players);
  } catch {
    // not a player of this table: "Player 7" it stays
  }
}
