// What a seat costs against the balance, pure: the lobby's and the table's Join
// say when the balance cannot pay, instead of offering a join the room refuses.

import { money } from "./format.js";

/**
 * The sentence saying the balance (cents, null when unknown) does not cover `cost`
 * at this game, or null when it does, when it is unknown, or at a points table.
 */
export function joinShortfall(cost, balanceCents, { paysMoney, format }) {
  if (!paysMoney || balanceCents === null || balanceCents === undefined || balanceCents >= cost) return null;
  const what = format === "tournament" ? "entry" : "buy-in";
  return `Your balance, ${money(balanceCents)}, does not cover the ${money(cost)} ${what}.`;
}
