// The table's own links beside Rules: its hands (anyone who may see the table) and
// its ledger, shown only to whom the room lets read it (anyone who has sat at the
// table, now or before, and admins; a spectator would meet a refusal), so nobody is
// sent to a dead end.

import { $ } from "../dom.js";
import { tablePlayers } from "../player-names.js";

/** May this viewer read the table's ledger, by what the snapshot says? Seated now,
 * finished in its tournament, or an admin. (A player who cashed out and left is
 * found in the table's players: `showTableLinks`.) */
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
  if (mayReadLedger(game, me)) {
    ledger.hidden = false;
  } else if (me && ledger.hidden) {
    // Not seated: one who sat here before (cashed out, left) may still read it.
    tablePlayers(id).then(
      (players) => { ledger.hidden = !players.some((p) => p.user_id === me.id); },
      () => {},
    );
  }
}
