// The five cards a hand plays at a showdown, pure: the best five of a player's cards
// and the board, to mark on the table (the server names the hand; which cards make
// it is found here, by trying each five of the seven).

import { parseCard } from "../cards.js";

const RANKS = "23456789TJQKA";

/** A comparable score of five cards: [category, ranks that decide, best first]. */
function score(five) {
  const ranks = five.map((c) => RANKS.indexOf(c.rank)).sort((a, b) => b - a);
  const flush = five.every((c) => c.suit === five[0].suit);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const distinct = groups.length === 5;
  let high = -1;
  if (distinct && ranks[0] - ranks[4] === 4) high = ranks[0];
  if (distinct && ranks[0] === 12 && ranks[1] === 3) high = 3; // A-2-3-4-5: five high
  const order = groups.map(([r]) => r);
  const shape = groups.map(([, n]) => n).join("");
  if (high >= 0 && flush) return [8, high];
  if (shape === "41") return [7, ...order];
  if (shape === "32") return [6, ...order];
  if (flush) return [5, ...ranks];
  if (high >= 0) return [4, high];
  if (shape === "311") return [3, ...order];
  if (shape === "221") return [2, ...order];
  if (shape === "2111") return [1, ...order];
  return [0, ...ranks];
}

function better(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) > (b[i] ?? -1);
  }
  return false;
}

/** The best five of 5 to 7 cards ("As", ...), as the cards' text; [] if too few. */
export function bestFive(cards) {
  const known = cards.map((text) => ({ text, ...parseCard(text) })).filter((c) => c.rank);
  if (known.length < 5) return [];
  let best = null;
  let bestScore = null;
  const n = known.length;
  // every way to leave out n - 5 cards (at most 21 for seven)
  for (let a = 0; a < n; a += 1) {
    for (let b = a + 1; b < n; b += 1) {
      for (let c = b + 1; c < n; c += 1) {
        for (let d = c + 1; d < n; d += 1) {
          for (let e = d + 1; e < n; e += 1) {
            const five = [known[a], known[b], known[c], known[d], known[e]];
            const s = score(five);
            if (!bestScore || better(s, bestScore)) {
              best = five;
              bestScore = s;
            }
          }
        }
      }
    }
  }
  return best.map((c) => c.text);
}
