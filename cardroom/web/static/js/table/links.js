// The table's own links beside Rules: its hands (anyone who may see the table) and
// its ledger, shown only to whom the room lets read it (the players and admins; a
// spectator would meet a refusal), so nobody is sent to a dead end.

import { $ } from "../dom.js";

/** May this viewer read the table's ledger? Seated now, finished in its tournament,
 * or an admin. (A player who cashed out and left still may: the statistics page
 * links it for them.) */
export function mayReadLedger(game, me) {
  if (!me) return false;
  if (me.role === "admin" || game.viewer_seat !== null) return true;
  return game.finishes.some((f) => f.user_id === me.id);
}

export function showTableLinks(game, me) {
  const id = game.summary.id;
  $("[data-history-link]").href = `/games/${id}/history`;
  const ledger = $("[data-ledger-link]");
  ledger.href = `/games/${id}/ledger`;
  ledger.hidden = !mayReadLedger(game, me);
}
