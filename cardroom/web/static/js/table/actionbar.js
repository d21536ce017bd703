// The action bar: only the legal actions, a bet/raise slider bounded by the legal
// minimum and maximum, quick sizes (min, half pot, pot, all-in), and an amount box
// whose every keystroke the bet button follows. A typed amount outside the legal
// range is said so by the box and never sent: only the player's choice goes all in.

import { betAction, checkTo, plainActions, sizing } from "../betting.js";
import { $, fill, h } from "../dom.js";
import { parseMoney } from "../format.js";

const LABELS = { fold: "Fold", check: "Check", call: "Call" };

export class ActionBar {
  /**
   * `form` is the bar's <form>; `act({kind, amount})` sends an action and resolves
   * when the room has answered; `format(chips)` writes an amount.
   */
  constructor(form, { act, format, paysMoney }) {
    this.form = form;
    this.act = act;
    this.format = format;
    this.paysMoneyNow = paysMoney; // a function: the table may not be loaded yet
    this.key = null;
    this.size = null;
    this.busy = false;
    this.slider = $("[data-slider]", form);
    this.input = $("[data-amount]", form);
    this.betButton = $("[data-bet]", form);
    this.unit = $("[data-amount-unit]", form);
    this.note = $("[data-amount-note]", form);
    this.slider.addEventListener("input", () => this.setTo(Number(this.slider.value), { from: "slider" }));
    this.input.addEventListener("input", () => this.typed());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.submitBet();
      }
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submitBet();
    });
  }

  get paysMoney() {
    return this.paysMoneyNow();
  }

  parse(text) {
    if (!this.paysMoney) return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
    const cents = parseMoney(text);
    return cents === null ? Number.NaN : cents;
  }

  writeAmount(chips) {
    if (!this.paysMoney) return String(chips);
    return (chips / 100).toFixed(2);
  }

  /** Show the bar for `legal` (null hides it). `pot` and `myBet` size the presets. */
  show(legal, pot, myBet) {
    const key = legal ? JSON.stringify([legal, pot, myBet]) : null;
    if (key === this.key) return false;
    this.key = key;
    this.busy = false;
    this.form.hidden = !legal;
    if (!legal) return false;
    this.size = sizing(legal, pot, myBet);
    const plain = plainActions(legal).map((a) => {
      const label = a.kind === "call"
        ? `Call ${this.format(a.amount)}${a.allIn ? " (all in)" : ""}`
        : LABELS[a.kind];
      return h("button", {
        type: "button", "data-kind": a.kind, class: a.kind === "fold" ? "danger" : "",
        onclick: () => this.send({ kind: a.kind }),
      }, label);
    });
    fill($("[data-plain]", this.form), plain);
    const sizingBox = $("[data-sizing]", this.form);
    sizingBox.hidden = !this.size;
    if (this.size) {
      const verb = this.size.kind === "bet" ? "Bet" : "Raise to";
      $("[data-sizing-legend]", this.form).textContent = `${verb}: from ${this.format(this.size.min)} to ${this.format(this.size.max)}`;
      fill($("[data-presets]", this.form), this.size.presets.map((p) => h("button", {
        type: "button", "data-preset": p.name,
        "aria-label": `${p.label}: ${this.format(p.to)}`,
        onclick: () => this.setTo(p.to, { from: "preset" }),
      }, p.label)));
      const fixed = this.size.min === this.size.max;
      this.slider.min = String(this.size.min);
      this.slider.max = String(this.size.max);
      this.slider.step = "1";
      this.slider.disabled = fixed;
      this.slider.setAttribute("aria-label", `${verb} amount`);
      this.input.setAttribute("aria-label", `${verb} amount`);
      this.unit.textContent = this.paysMoney ? "$" : "points";
      this.setTo(this.size.min);
    }
    return true;
  }

  /** What the bet button would do for `to`: "Raise to $0.75", "All in $10.00". */
  betLabel(to) {
    if (to >= this.size.allIn) return `All in ${this.format(to)}`;
    return `${this.verb()} ${this.format(to)}`;
  }

  verb() {
    return this.size.kind === "bet" ? "Bet" : "Raise to";
  }

  /** The range under the box, with its unit, when nothing is wrong. */
  rangeNote() {
    const range = `From ${this.format(this.size.min)} to ${this.format(this.size.max)}`;
    return this.paysMoney ? `${range}, in dollars (1 chip = 1 cent).` : `${range} points.`;
  }

  setNote(problem) {
    this.note.textContent = problem || this.rangeNote();
    this.note.classList.toggle("error", Boolean(problem));
    this.betButton.disabled = Boolean(problem);
  }

  /** A slider, a size or the bar's start: always a legal total. */
  setTo(chips, { from } = {}) {
    if (!this.size) return;
    const value = Number.isFinite(chips)
      ? Math.min(this.size.max, Math.max(this.size.min, Math.round(chips)))
      : this.size.min;
    this.value = value;
    if (from !== "slider") this.slider.value = String(value);
    this.slider.setAttribute("aria-valuetext", this.format(value));
    this.input.value = this.writeAmount(value);
    this.betButton.textContent = this.betLabel(value);
    this.setNote(null);
  }

  /** What the player types is taken as it is, never clamped into the range. */
  typed() {
    if (!this.size) return;
    const to = this.parse(this.input.value);
    const verb = this.verb().toLowerCase();
    const problem = {
      ok: null,
      not_an_amount: this.paysMoney
        ? `Type an amount in dollars, such as ${this.writeAmount(this.size.min)}.`
        : `Type a whole number of points, such as ${this.size.min}.`,
      below: `${this.format(to)} is less than the least you can ${verb}, ${this.format(this.size.min)}.`,
      above: `${this.format(to)} is more than the most you can ${verb}, ${this.format(this.size.max)} (All-in).`,
    }[checkTo(this.size, to)];
    this.value = problem ? null : to;
    this.betButton.textContent = Number.isInteger(to) ? (problem ? `${this.verb()} ${this.format(to)}` : this.betLabel(to)) : `${this.verb()} …`;
    if (!problem) {
      this.slider.value = String(to);
      this.slider.setAttribute("aria-valuetext", this.format(to));
    }
    this.setNote(problem);
  }

  submitBet() {
    if (!this.size) return;
    if (this.value === null) {
      this.input.focus(); // the note says what is wrong; nothing is sent
      return;
    }
    this.send(betAction(this.size, this.value));
  }

  async send(action) {
    if (this.busy) return;
    this.busy = true;
    for (const b of this.form.querySelectorAll("button, input")) b.disabled = true;
    try {
      await this.act(action);
    } finally {
      this.busy = false;
      for (const b of this.form.querySelectorAll("button, input")) b.disabled = false;
      if (this.size && this.size.min === this.size.max) this.slider.disabled = true;
      if (this.size) this.betButton.disabled = this.value === null;
    }
  }

  /** Put the keyboard on the most useful button: check or call, else the bet. */
  focus() {
    const target = $("[data-kind=check], [data-kind=call]", this.form) || this.betButton;
    if (target && !this.form.hidden) target.focus();
  }
}
