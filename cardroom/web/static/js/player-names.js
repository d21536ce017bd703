// The names of players who have left a table. A snapshot names only who sits there
// now, so after a reload a player who cashed out, left or was knocked out would read
// "Player 7" in the log, a hand's result and its replay. GET /api/games/{id}/players
// names everyone who ever sat there, to anyone who may open the table (spectators
// too: names only, no money); it is asked at most once a page.

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

const asked = new Map(); // game id -> the players' list, once asked

/** Everyone who has sat at the table, now or before (`[{user_id, name}]`); asked
 * once a page. */
export function tablePlayers(gameId) {
  if (!asked.has(gameId)) {
    const list = get(`/api/games/${gameId}/players`).then((answer) => answer.players);
    list.catch(() => asked.delete(gameId)); // a refusal or a drop: ask again next time
    asked.set(gameId, list);
  }
  return asked.get(gameId);
}

/** Teach `names` the players `events` name that it does not know. */
export async function learnLeavers(names, gameId, events) {
  if (![...playersNamed(events)].some((id) => !names.knows(id))) return;
  try {
    names.learn(await tablePlayers(gameId));
  } catch {
    // the table is closed to this viewer now: "Player 7" it stays
  }
}
