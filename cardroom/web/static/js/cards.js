// Cards as the room writes them ("As", "Td"; or 0..51, rank * 4 + suit) and as
// players and screen readers read them ("Ace of spades").

import { h } from "./dom.js";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const RANK_NAMES = {
  2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** "As" or 51 -> {rank: "A", suit: "s"}; null for a hidden or unknown card. */
export function parseCard(card) {
  if (card === null || card === undefined) return null;
  if (typeof card === "number") {
    if (!Number.isInteger(card) || card < 0 || card > 51) return null;
    return { rank: RANKS[card >> 2], suit: SUITS[card & 3] };
  }
  const text = String(card);
  if (text.length !== 2 || !RANKS.includes(text[0]) || !SUITS.includes(text[1])) return null;
  return { rank: text[0], suit: text[1] };
}

export function cardName(card) {
  const c = parseCard(card);
  return c ? `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}` : "Hidden card";
}

export function cardsName(cards) {
  return cards.map(cardName).join(", ");
}

/** A card face, or its back when hidden; labelled for screen readers. */
export function cardNode(card, { size } = {}) {
  const c = parseCard(card);
  const style = size ? { "--w": size } : undefined;
  if (!c) return h("span", { class: "card back", role: "img", "aria-label": "Hidden card", style });
  const rank = c.rank === "T" ? "10" : c.rank;
  return h(
    "span",
    { class: "card", role: "img", "aria-label": cardName(card), "data-suit": c.suit, style },
    h("span", { class: "rank", "aria-hidden": "true" }, rank),
    h("span", { class: "suit", "aria-hidden": "true" }, SUIT_SYMBOLS[c.suit]),
  );
}

/** A row of cards; `count` pads with empty places (the board before the river). */
export function cardsNode(cards, { count = 0, size, label } = {}) {
  const nodes = cards.map((c) => cardNode(c, { size }));
  for (let i = cards.length; i < count; i += 1) {
    nodes.push(h("span", { class: "card empty", "aria-hidden": "true", style: size ? { "--w": size } : undefined }));
  }
  return h("span", { class: "cards", role: "group", "aria-label": label || undefined }, nodes);
}
