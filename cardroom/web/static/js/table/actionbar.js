// The action bar: only the legal actions, a bet/raise slider bounded by the legal
// minimum and maximum, and quick sizes (min, half pot, pot, all-in).

import { betAction, plainActions, sizing } from "../betting.js";
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
    this.slider.addEventListener("input", () => this.setTo(Number(this.slider.value), { from: "slider" }));
    this.input.addEventListener("change", () => this.setTo(this.parse(this.input.value), { from: "input" }));
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.setTo(this.parse(this.input.value), { from: "input" });
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
    if (!this.paysMoney) return Number.parseInt(text, 10);
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
      this.setTo(this.size.min);
    }
    return true;
  }

  setTo(chips, { from } = {}) {
    if (!this.size) return;
    const value = Number.isFinite(chips)
      ? Math.min(this.size.max, Math.max(this.size.min, Math.round(chips)))
      : this.size.min;
    this.value = value;
    if (from !== "slider") this.slider.value = String(value);
    this.slider.setAttribute("aria-valuetext", this.format(value));
    if (from !== "typing") this.input.value = this.writeAmount(value);
    const allIn = value >= this.size.allIn;
    const verb = this.size.kind === "bet" ? "Bet" : "Raise to";
    this.betButton.textContent = allIn ? `All in ${this.format(value)}` : `${verb} ${this.format(value)}`;
  }

  submitBet() {
    if (!this.size) return;
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
    }
  }

  /** Put the keyboard on the most useful button: check or call, else the bet. */
  focus() {
    const target = $("[data-kind=check], [data-kind=call]", this.form) || this.betButton;
    if (target && !this.form.hidden) target.focus();
  }
}
