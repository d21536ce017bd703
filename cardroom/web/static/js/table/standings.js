// A tournament's finishing places (GET /api/games/{id}/standings): the winner, every
// place and the prizes paid at the end, and an eliminated player's own result while
// the others play on. Read again only when a place is added or the game ends.

import { get } from "../api.js";
import { fill, h } from "../dom.js";
import { ordinal } from "../rules.js";

export class Standings {
  constructor(gameId, onChange) {
    this.gameId = gameId;
    this.onChange = onChange;
    this.key = "";
    this.current = null; // the last answer: {finished, places}
  }

  /** Read the standings again if `game` has a new finish; `onChange` once read. */
  update(game) {
    if (game.summary.format !== "tournament") return;
    const key = `${game.finishes.length}:${game.summary.status}`;
    if (key === this.key || !game.finishes.length) return;
    this.key = key;
    get(`/api/games/${this.gameId}/standings`).then((answer) => {
      this.current = answer;
      this.onChange();
    }, () => {
      this.key = ""; // tried again with the next snapshot
    });
  }

  /** The viewer's own finish, if they have finished. */
  mine(me) {
    return (this.current && me && this.current.places.find((p) => p.user_id === me.id)) || null;
  }

  /** The seat a finished player last sat at, by seat number. */
  bySeat() {
    const out = new Map();
    for (const p of (this.current && this.current.places) || []) if (p.seat) out.set(p.seat, p);
    return out;
  }
}

function finishText(place, money, { you = false } = {}) {
  const prize = place.prize > 0 ? `, won ${money(place.prize)}` : "";
  return `${you ? "You" : place.name} finished ${ordinal(place.place)}${prize}.`;
}

/** The status line once the game is over, or for a player who is out of it. */
export function standingsHeadline(standings, me, money) {
  const now = standings.current;
  if (!now) return null;
  const winner = now.finished ? now.places.find((p) => p.place === 1) : null;
  const mine = standings.mine(me);
  const parts = [];
  if (winner) {
    const prize = winner.prize > 0 ? ` and ${money(winner.prize)}` : "";
    parts.push(winner.user_id === (me && me.id) ? `You win the tournament${prize}!` : `${winner.name} wins the tournament${prize}.`);
  }
  if (mine && mine.place !== 1) parts.push(finishText(mine, money, { you: true }));
  return parts.length ? parts.join(" ") : null;
}

/** The list of places under the table: every place so far, the viewer's marked. */
export function renderStandings(section, standings, { me, money }) {
  const now = standings.current;
  section.hidden = !now || !now.places.length;
  if (section.hidden) return;
  section.querySelector("[data-standings-title]").textContent = now.finished ? "Final standings" : "Out of the tournament";
  fill(section.querySelector("[data-standings-list]"), now.places.map((p) => {
    const you = p.user_id === (me && me.id);
    return h("li", { dataset: { place: String(p.place), player: String(p.user_id) }, class: you ? "you" : undefined },
      h("span", { class: "place" }, ordinal(p.place)),
      h("span", { class: "who" }, p.name, you ? h("span", { class: "muted" }, " (you)") : null),
      h("span", { class: "prize" }, p.prize > 0 ? money(p.prize) : "no prize"));
  }));
}
