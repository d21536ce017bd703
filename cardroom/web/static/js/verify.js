// "Verify this hand": a hand's deck proof (GET /api/hands/{id}/proof) checked in the
// page with the browser's own SHA-256 (Web Crypto), as `cardroom verify FILE` checks it
// (cardroom/history/fairness.py, docs/fairness.md):
//
//   leaf = SHA-256(0x00 || position byte || card, 2 ASCII bytes || 32-byte salt)
//   node = SHA-256(0x01 || left || right)
//
// over the 52 positions in the tree shape of RFC 6962. Every revealed card is hashed
// and walked up its audit path; the result must be the committed root, and that root
// the one the table published (DeckCommitted) before the first card was dealt.
//
// Web Crypto exists only in a secure context (HTTPS, or http://localhost and
// http://127.0.0.1): elsewhere the page says so and points to `cardroom verify`.

import { get } from "./api.js";
import { cardNode } from "./cards.js";
import { fill, h } from "./dom.js";

export const DECK_SIZE = 52;
const SALT_BYTES = 32;
const HASH_BYTES = 32;
const FORMAT = "cardroom-deck-proof";
const VERSION = 1;
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const STREETS = [[], ["flop"], ["flop", "turn"], ["flop", "turn", "river"]];

/** A file that is not a verification file; the message says what is wrong. */
export class ProofFormatError extends Error {}

/** Whether this page may hash: `crypto.subtle` is there only in a secure context. */
export function canVerify() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle && typeof globalThis.crypto.subtle.digest === "function");
}

export const NO_WEB_CRYPTO =
  "This page cannot check the proof itself: the browser offers its SHA-256 (Web Crypto) only " +
  "to pages served over HTTPS or from localhost, and this one is not. Download the deck proof " +
  "and check it with `cardroom verify FILE` or the script in docs/fairness.md.";

// -- bytes -------------------------------------------------------------------------------------

async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Hexadecimal text to bytes, read as Python's bytes.fromhex reads it (whitespace
 * allowed between bytes, not inside one). */
function fromHex(value, what) {
  if (typeof value !== "string") throw new ProofFormatError(`The ${what} must be a hexadecimal string.`);
  const out = [];
  const space = /[ \t\n\r\f\v]/;
  const digit = /^[0-9a-fA-F]{2}$/;
  for (let i = 0; i < value.length;) {
    if (space.test(value[i])) {
      i += 1;
    } else {
      const pair = value.slice(i, i + 2);
      if (!digit.test(pair)) throw new ProofFormatError(`The ${what} is not hexadecimal.`);
      out.push(parseInt(pair, 16));
      i += 2;
    }
  }
  return new Uint8Array(out);
}

function wholeNumber(value, what) {
  if (typeof value !== "number" || !Number.isInteger(value)) throw new ProofFormatError(`The ${what} must be a whole number.`);
  return value;
}

/** A card as the leaf hashes it ("As"), read as cardroom.cards.parse_card reads it. */
function cardText(value, where) {
  const given = String(value === undefined || value === null ? "" : value);
  let t = given.trim();
  if (t.startsWith("10")) t = "T" + t.slice(2);
  const bad = (why) => new ProofFormatError(`${where}: '${given}' is not a card: ${why}`);
  if ([...t].length !== 2) throw bad("write a rank and a suit, like 'As' or 'Td'.");
  const rank = t[0].toUpperCase();
  const suit = t[1].toLowerCase();
  if (rank.length !== 1 || !RANKS.includes(rank)) throw bad(`'${t[0]}' is not a rank (use 2-9, T, J, Q, K, A).`);
  if (suit.length !== 1 || !SUITS.includes(suit)) throw bad(`'${t[1]}' is not a suit (use c, d, h, s).`);
  return rank + suit;
}

/** SHA-256(0x00 || position || card || salt): 36 bytes in. */
export async function leafHash(position, card, salt) {
  const data = new Uint8Array(4 + salt.length);
  data[0] = 0x00;
  data[1] = position;
  data[2] = card.charCodeAt(0);
  data[3] = card.charCodeAt(1);
  data.set(salt, 4);
  return sha256(data);
}

/** SHA-256(0x01 || left || right): 65 bytes in. */
export async function nodeHash(left, right) {
  const data = new Uint8Array(1 + left.length + right.length);
  data[0] = 0x01;
  data.set(left, 1);
  data.set(right, 1 + left.length);
  return sha256(data);
}

/** Where each sibling on the way up from `position` sits, leaf level first (RFC 6962). */
export function pathSides(position, size = DECK_SIZE) {
  const sides = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    let k = 1;
    while (k * 2 < hi - lo) k *= 2;
    if (position - lo < k) {
      sides.push("right");
      hi = lo + k;
    } else {
      sides.push("left");
      lo += k;
    }
  }
  return sides.reverse();
}

// -- what each position was used for -----------------------------------------------------------

/** The use of each of the 52 positions (fairness.dealing_map): two rounds of hole cards
 * from the first seat left of the button, then each street's burn and board cards. */
export function dealingMap(seats, streets) {
  const n = seats.length;
  const out = [];
  for (let r = 0; r < 2; r += 1) {
    seats.forEach((seat, i) => out.push({ position: r * n + i, kind: "hole", seat, number: r + 1 }));
  }
  let position = 2 * n;
  for (const street of streets) {
    out.push({ position, kind: "burn", street });
    const count = street === "flop" ? 3 : 1;
    for (let k = 0; k < count; k += 1) out.push({ position: position + 1 + k, kind: "board", street, number: k + 1 });
    position += 1 + count;
  }
  for (let p = position; p < DECK_SIZE; p += 1) out.push({ position: p, kind: "undealt" });
  return out;
}

/** A dealt place in words, as the command line writes it ("seat 6 (fay), hole card 1"). */
export function describeDealt(dealt, names = {}) {
  if (dealt.kind === "hole") {
    const name = names[dealt.seat];
    return `seat ${dealt.seat}${name !== undefined ? ` (${name})` : ""}, hole card ${dealt.number}`;
  }
  if (dealt.kind === "burn") return `burnt before the ${dealt.street}`;
  if (dealt.kind === "board") return dealt.street === "flop" ? `flop card ${dealt.number}` : dealt.street;
  return "not dealt";
}

function dealtAsDict(dealt) {
  const out = { kind: dealt.kind };
  for (const key of ["seat", "street", "number"]) if (dealt[key] !== undefined) out[key] = dealt[key];
  return out;
}

/** A JSON value as Python writes it (repr), so that sentences match `cardroom verify`'s. */
function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  return String(value);
}

function sameDict(a, b) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

// -- reading and checking a file ---------------------------------------------------------------

/** The file read as fairness.verify_document reads it; throws ProofFormatError. */
export function readProof(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new ProofFormatError("A verification file is a JSON object.");
  if (data.format !== FORMAT) throw new ProofFormatError(`This is not a deck verification file (format '${FORMAT}').`);
  if (data.version !== VERSION) throw new ProofFormatError(`Only version ${VERSION} verification files can be checked.`);
  const root = fromHex(data.root, "root");
  const dealing = data.dealing;
  if (!dealing || typeof dealing !== "object" || Array.isArray(dealing)) {
    throw new ProofFormatError("The file does not say how the hand was dealt ('dealing').");
  }
  const { seats, streets } = dealing;
  if (!Array.isArray(seats) || !seats.every((s) => Number.isInteger(s)) || seats.length < 2 || seats.length > 10) {
    throw new ProofFormatError("'dealing.seats' must list 2 to 10 seat numbers.");
  }
  if (!Array.isArray(streets) || !STREETS.some((s) => s.length === streets.length && s.every((x, i) => x === streets[i]))) {
    throw new ProofFormatError("'dealing.streets' must be the streets dealt, in order.");
  }
  const rawNames = dealing.names || {};
  if (typeof rawNames !== "object" || Array.isArray(rawNames)) throw new ProofFormatError("'dealing.names' must map seats to names.");
  const names = {};
  for (const [k, v] of Object.entries(rawNames)) if (/^\d+$/.test(k)) names[Number(k)] = String(v);
  const meaning = new Map(dealingMap(seats, streets).map((d) => [d.position, d]));
  if (!Array.isArray(data.leaves)) throw new ProofFormatError("'leaves' must be a list of revealed positions.");
  const problems = [];
  const leaves = data.leaves.map((leaf, i) => {
    const where = `Leaf ${i + 1}`;
    if (!leaf || typeof leaf !== "object" || Array.isArray(leaf)) throw new ProofFormatError(`${where} is not an object.`);
    const position = wholeNumber(leaf.position, `${where}'s position`);
    const card = cardText(leaf.card, where);
    const salt = fromHex(leaf.salt, `${where}'s salt`);
    if (!Array.isArray(leaf.proof)) throw new ProofFormatError(`${where} has no proof (a list of steps).`);
    const path = leaf.proof.map((step, k) => {
      if (!step || typeof step !== "object" || (step.side !== "left" && step.side !== "right")) {
        throw new ProofFormatError(`${where}, step ${k + 1}: give a side (left or right) and a hash.`);
      }
      return { side: step.side, hash: fromHex(step.hash, `${where}, step ${k + 1}`) };
    });
    const dealt = meaning.get(position) || { position, kind: "undealt" };
    const claimed = leaf.dealt_as;
    const expected = meaning.get(position);
    if (expected && claimed && typeof claimed === "object" && !Array.isArray(claimed) && !sameDict(claimed, dealtAsDict(expected))) {
      problems.push(`Position ${position}: the file says it was dealt as ${pyRepr(claimed)}, but by the dealing order it is ${describeDealt(expected)}.`);
    }
    return { position, card, salt, path, dealt };
  });
  return {
    root,
    rootHex: toHex(root),
    table: String(data.table ?? ""),
    handNumber: data.hand_number === undefined ? 0 : wholeNumber(data.hand_number, "hand_number"),
    viewer: String(data.viewer ?? ""),
    names,
    leaves,
    problems,
  };
}

/** One revealed card against the root: {ok, reason} (fairness._check). */
async function checkLeaf(root, leaf) {
  const fail = (reason) => ({ ok: false, reason: `Position ${leaf.position}: ${reason}` });
  if (leaf.position < 0 || leaf.position >= DECK_SIZE) return fail(`outside the deck (0 to ${DECK_SIZE - 1}).`);
  if (leaf.salt.length !== SALT_BYTES) return fail(`the salt is ${leaf.salt.length} bytes, not ${SALT_BYTES}.`);
  const sides = pathSides(leaf.position);
  if (leaf.path.length !== sides.length) return fail(`the proof has ${leaf.path.length} steps; this position needs ${sides.length}.`);
  let digest = await leafHash(leaf.position, leaf.card, leaf.salt);
  for (let i = 0; i < sides.length; i += 1) {
    const step = leaf.path[i];
    if (step.side !== sides[i]) return fail(`step ${i + 1} puts the sibling on the ${step.side}; it belongs ${sides[i]}.`);
    if (step.hash.length !== HASH_BYTES) return fail(`step ${i + 1} is not a SHA-256 hash.`);
    digest = sides[i] === "left" ? await nodeHash(step.hash, digest) : await nodeHash(digest, step.hash);
  }
  if (toHex(digest) !== toHex(root)) {
    return fail(`${leaf.card} with this salt and proof does not lead to the committed root: the card, its salt, a proof step or the root has been changed.`);
  }
  return { ok: true, reason: "" };
}

/**
 * Check a verification file (parsed JSON) as `cardroom verify` does, and, when the page
 * knows them, against the root the table published before the deal (`published`) and
 * the cards the table showed (`seen`, from cardsSeen). Throws ProofFormatError for a
 * file that is not one. Returns {ok, root, published, leaves: [{position, card,
 * meaning, ok, reason}], problems, failures}.
 */
export async function checkProof(data, { published = null, seen = null } = {}) {
  const proof = readProof(data);
  const problems = [...proof.problems];
  if (proof.root.length !== HASH_BYTES) problems.push(`The root is ${proof.root.length} bytes; a SHA-256 hash is ${HASH_BYTES}.`);
  if (!proof.leaves.length) problems.push("Nothing is revealed: there is no card to check.");
  const positions = new Set();
  const cards = new Map();
  const leaves = [];
  for (const leaf of proof.leaves) {
    if (positions.has(leaf.position)) problems.push(`Position ${leaf.position} is revealed twice.`);
    positions.add(leaf.position);
    if (cards.has(leaf.card)) {
      problems.push(`${leaf.card} is revealed at positions ${cards.get(leaf.card)} and ${leaf.position}: a deck holds each card once.`);
    } else cards.set(leaf.card, leaf.position);
    const check = await checkLeaf(proof.root, leaf);
    if (check.ok && seen) {
      const shown = seenAt(seen, leaf.dealt);
      if (shown && !shown.includes(leaf.card)) {
        check.ok = false;
        check.reason = `Position ${leaf.position}: the proof reveals ${leaf.card}, but the table showed ${shown.join(" or ")} as ${describeDealt(leaf.dealt)}.`;
      }
    }
    leaves.push({ position: leaf.position, card: leaf.card, meaning: describeDealt(leaf.dealt, proof.names), ...check });
  }
  if (published && published.toLowerCase() !== proof.rootHex) {
    problems.push(`The proof's root ${proof.rootHex} is not the root published before the deal (${published}): the proofs hold for another deck.`);
  }
  const ok = leaves.length > 0 && problems.length === 0 && leaves.every((l) => l.ok);
  return {
    ok,
    root: proof.rootHex,
    published,
    handNumber: proof.handNumber,
    table: proof.table,
    viewer: proof.viewer,
    leaves,
    problems,
    failures: [...problems, ...leaves.filter((l) => !l.ok).map((l) => l.reason)],
  };
}

// -- what the table showed ------------------------------------------------------------------

/** The root a hand's DeckCommitted event published, or null. */
export function publishedRoot(events) {
  const committed = events.find((e) => e.type === "DeckCommitted");
  return committed && committed.data ? committed.data.root : null;
}

/** The cards a viewer saw in a hand's events: own hole cards in the order dealt, shown
 * hands, the board by street. */
export function cardsSeen(events) {
  const hole = new Map();
  const shown = new Map();
  const board = {};
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "HoleCardDealt" && d.card) {
      if (!hole.has(d.seat)) hole.set(d.seat, []);
      hole.get(d.seat).push(d.card);
    } else if (e.type === "HandShown") shown.set(d.seat, [...d.cards]);
    else if (e.type === "BoardDealt") board[d.street] = [...d.cards];
  }
  return { hole, shown, board };
}

/** The card(s) the table showed at a dealt place, or null when it showed none there. */
function seenAt(seen, dealt) {
  if (dealt.kind === "hole") {
    const own = seen.hole.get(dealt.seat);
    if (own && own[dealt.number - 1]) return [own[dealt.number - 1]];
    return seen.shown.get(dealt.seat) || null; // a shown hand: either of its cards
  }
  if (dealt.kind === "board") {
    const cards = seen.board[dealt.street];
    return cards && cards[dealt.number - 1] ? [cards[dealt.number - 1]] : null;
  }
  return null;
}

// -- the view ----------------------------------------------------------------------------------

const short = (root) => `${root.slice(0, 12)}…`;

/** The commitment line shown as soon as a hand is opened. */
export function commitmentNode(published) {
  return published
    ? h("p", {}, "Deck committed before the first card: root ", h("code", { class: "root", "data-published-root": "" }, published))
    : h("p", { class: "muted" }, "This hand has no deck commitment in its events: it was dealt before the room committed to its decks.");
}

function resultNode(result) {
  const count = result.leaves.length;
  const failed = result.leaves.filter((l) => !l.ok).length;
  const verdict = result.ok
    ? `Verified: all ${count} revealed card${count === 1 ? "" : "s"} match the commitment, so they were fixed before the hand began.`
    : failed
      ? `Not verified: ${failed} of ${count} revealed card${count === 1 ? "" : "s"} failed the check, so this proof does not show the cards were fixed before the hand began.`
      : "Not verified: the proof as a whole fails, so it does not show the cards were fixed before the hand began.";
  const rootLine = [
    h("p", {}, "Root in the proof: ", h("code", { class: "root", "data-verify-root": "" }, result.root)),
    result.published
      ? h("p", { class: result.published.toLowerCase() === result.root ? "" : "error" },
        result.published.toLowerCase() === result.root
          ? `The same root the table published before the deal (Deck committed: root ${short(result.published)}).`
          : `Not the root the table published before the deal (${short(result.published)}).`)
      : h("p", { class: "muted" }, "The page has no published root to compare it with: compare it with the one your table showed when the hand began."),
  ];
  const rows = result.leaves.map((leaf) => h("tr", { dataset: { position: String(leaf.position), ok: String(leaf.ok) } },
    h("td", { class: "num", "data-label": "Position" }, String(leaf.position)),
    h("td", { "data-label": "Card" }, cardNode(leaf.card, { size: "1.6rem" }), " ", h("span", { "data-card": "" }, leaf.card)),
    h("td", { "data-label": "Dealt as" }, leaf.meaning),
    h("td", { "data-label": "Check", "data-result": "" }, h("span", { class: leaf.ok ? "verify-ok" : "verify-failed" }, leaf.ok ? "verified" : "failed"))));
  return [
    h("p", { class: result.ok ? "verify-verdict verify-ok" : "verify-verdict verify-failed", "data-verify-verdict": "", dataset: { ok: String(result.ok) } }, verdict),
    rootLine,
    h("table", { class: "data verify-cards" },
      h("thead", {}, h("tr", {}, h("th", { class: "num" }, "Position"), h("th", {}, "Card"), h("th", {}, "Dealt as"), h("th", {}, "Check"))),
      h("tbody", { "data-verify-cards": "" }, rows)),
    result.failures.length ? h("ul", { class: "error verify-failures", "data-verify-failures": "" }, result.failures.map((f) => h("li", {}, f))) : null,
  ];
}

function messageNode(text, kind = "notice") {
  return h("p", { class: kind, "data-verify-message": "" }, text);
}

/**
 * Fetch a hand's proof and check it in the page, drawing the result into `box`.
 * `events` are the hand's events as the page has them (for the published root and the
 * cards shown). A refusal of the room (404: no commitment, nothing seen) is a sentence.
 */
export async function verifyHand(box, { handId, events = [] }) {
  if (!canVerify()) {
    fill(box, messageNode(NO_WEB_CRYPTO));
    return null;
  }
  fill(box, h("p", { class: "muted" }, "Checking the proof…"));
  let data;
  try {
    data = await get(`/api/hands/${handId}/proof`);
  } catch (error) {
    fill(box, messageNode(error && error.message ? error.message : "The room did not send the proof."));
    return null;
  }
  try {
    const result = await checkProof(data, { published: publishedRoot(events), seen: cardsSeen(events) });
    fill(box, resultNode(result));
    return result;
  } catch (error) {
    if (!(error instanceof ProofFormatError)) throw error;
    fill(box, messageNode(`The proof cannot be checked: ${error.message}`, "error"));
    return null;
  }
}
