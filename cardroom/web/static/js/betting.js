// The action bar's arithmetic, pure: what a bet or raise may be, and the sizes the
// quick buttons offer, always inside the legal bounds the room gave.

/** Clamp a total bet into [min_to, max_to]; whole chips. */
export function clampTo(legal, to) {
  const whole = Math.round(Number(to));
  if (!Number.isFinite(whole)) return legal.min_to;
  return Math.min(legal.max_to, Math.max(legal.min_to, whole));
}

/**
 * The sizing offered on the viewer's turn, or null when they can neither bet nor
 * raise. `pot` is every chip in the hand (bets in front of players included) and
 * `myBet` what the viewer already has in front of them this round.
 *
 * A pot-sized raise is the bet to match plus the pot after calling it:
 * to = match + (pot + to_call). Half pot adds half of that. Each size is clamped
 * into the legal range, so "Pot" is all-in when the stack is shorter.
 */
export function sizing(legal, pot, myBet) {
  if (!legal) return null;
  const kind = legal.actions.includes("raise") ? "raise" : legal.actions.includes("bet") ? "bet" : null;
  if (!kind || legal.max_to <= 0) return null;
  const match = myBet + legal.to_call;
  const potAfterCall = pot + legal.to_call;
  const presets = [
    { name: "min", label: "Min", to: legal.min_to },
    { name: "half", label: "½ Pot", to: clampTo(legal, match + Math.floor(potAfterCall / 2)) },
    { name: "pot", label: "Pot", to: clampTo(legal, match + potAfterCall) },
    { name: "all_in", label: "All-in", to: legal.max_to },
  ];
  return { kind, min: legal.min_to, max: legal.max_to, allIn: legal.all_in_to, presets };
}

/**
 * Whether a total the player typed may be sent: "ok", "not_an_amount", "below" the
 * legal minimum or "above" the maximum. Never clamped: 999 typed is not an all-in.
 */
export function checkTo(size, to) {
  if (!Number.isInteger(to)) return "not_an_amount";
  if (to < size.min) return "below";
  if (to > size.max) return "above";
  return "ok";
}

/** What a press of the bet/raise button sends for a chosen total. */
export function betAction(size, to) {
  const amount = Math.min(size.max, Math.max(size.min, to));
  if (amount >= size.allIn && size.allIn > 0) return { kind: "all_in" };
  return { kind: size.kind, amount };
}

/** The buttons besides sizing: [{kind, label, amount}] in the order shown. */
export function plainActions(legal) {
  if (!legal) return [];
  const out = [];
  if (legal.actions.includes("fold")) out.push({ kind: "fold" });
  if (legal.actions.includes("check")) out.push({ kind: "check" });
  if (legal.actions.includes("call")) {
    out.push({ kind: "call", amount: legal.call_amount, allIn: legal.call_amount < legal.to_call });
  }
  // All-in without a bet or raise: a call that takes the whole stack is the call above.
  return out;
}
