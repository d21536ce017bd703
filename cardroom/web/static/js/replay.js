// A finished hand replayed from its events, pure: the table after each step, for the
// hand history's street-by-street, card-by-card viewer.

/** Split a game's events into hands: [{number, events, handId}], oldest first. */
export function splitHands(events) {
  const hands = [];
  let current = null;
  for (const event of events) {
    if (event.type === "HandDealt") {
      current = { number: event.data.number, handId: event.hand_id, events: [event], at: event.created_at };
      hands.push(current);
    } else if (current) {
      current.events.push(event);
      if (event.type === "HandFinished") current = null;
    }
  }
  return hands;
}

function copy(state) {
  return {
    ...state,
    board: [...state.board],
    players: state.players.map((p) => ({ ...p, cards: [...p.cards] })),
  };
}

function collect(state) {
  for (const p of state.players) {
    state.collected += p.bet;
    p.bet = 0;
  }
}

/**
 * The steps of one hand: [{state, event, street, notes?}], the first being the deal.
 * Each board card is a step of its own (card by card); hole cards are one step; burns
 * are not steps; the deck's commitment (DeckCommitted) is a note of the deal's step.
 * `state` has the players (seat, player, stack, bet, folded, allIn, cards, shown hand
 * name), the board, the pot, whose action it was and the committed root (`deckRoot`).
 */
export function replay(hand) {
  const dealt = hand.events[0].data;
  let state = {
    number: dealt.number,
    button: dealt.button,
    smallBlind: dealt.small_blind,
    bigBlind: dealt.big_blind,
    blinds: dealt.blinds,
    street: "preflop",
    board: [],
    collected: 0,
    actor: null,
    over: false,
    deckRoot: null,
    players: dealt.players.map(([seat, player, stack]) => ({
      seat, player, stack, bet: 0, folded: false, allIn: false, cards: [], hidden: 0, handName: "", won: 0,
    })),
  };
  const steps = [{ state: copy(state), event: hand.events[0], street: "preflop" }];
  let dealing = null;
  for (const event of hand.events.slice(1)) {
    const d = event.data || {};
    state = copy(state);
    state.actor = null;
    let step = true;
    switch (event.type) {
      case "BlindPosted": {
        const p = state.players.find((x) => x.seat === d.seat);
        p.stack -= d.amount;
        if (d.blind === "ante") state.collected += d.amount;
        else p.bet += d.amount;
        p.allIn = d.all_in;
        state.actor = d.seat;
        break;
      }
      case "HoleCardDealt": {
        const p = state.players.find((x) => x.seat === d.seat);
        if (d.card) p.cards.push(d.card);
        else p.hidden += 1;
        // all the hole cards are one step: merge into the step that started the deal
        if (dealing) {
          dealing.state = copy(state);
          step = false;
        }
        break;
      }
      case "CardBurned":
        step = false;
        break;
      case "DeckCommitted":
        // the deck's commitment, published right after the deal and before the first
        // card: not a step of its own, told with the deal (`notes`)
        state.deckRoot = d.root || null;
        steps[steps.length - 1].notes = [...(steps[steps.length - 1].notes || []), event];
        step = false;
        break;
      case "BoardDealt":
        collect(state);
        state.street = d.street;
        for (const card of d.cards) {
          state.board.push(card);
          steps.push({ state: copy(state), event: { ...event, data: { ...d, cards: [card] } }, street: d.street });
        }
        step = false;
        break;
      case "PlayerActed": {
        const p = state.players.find((x) => x.seat === d.seat);
        p.stack -= d.amount;
        p.bet = d.bet;
        p.allIn = d.all_in;
        if (d.action === "fold") p.folded = true;
        state.actor = d.seat;
        break;
      }
      case "BetReturned": {
        const p = state.players.find((x) => x.seat === d.seat);
        p.stack += d.amount;
        if (p.bet >= d.amount) p.bet -= d.amount;
        else state.collected -= d.amount;
        break;
      }
      case "HandShown": {
        const p = state.players.find((x) => x.seat === d.seat);
        p.cards = [...d.cards];
        p.hidden = 0;
        p.handName = d.name;
        break;
      }
      case "HandMucked":
        break;
      case "PotAwarded":
        collect(state);
        d.winners.forEach((seat, i) => {
          const p = state.players.find((x) => x.seat === seat);
          const share = d.shares ? d.shares[i] : Math.floor(d.amount / d.winners.length);
          p.stack += share;
          p.won += share;
        });
        state.collected -= d.amount;
        break;
      case "HandEnded":
        state.over = true;
        step = false;
        break;
      default:
        step = false; // the table's records (HandFinished, cash-outs...) are not steps
    }
    if (step) {
      const entry = { state: copy(state), event, street: state.street };
      if (event.type === "HoleCardDealt") dealing = entry;
      steps.push(entry);
    } else if (event.type !== "HoleCardDealt" && event.type !== "CardBurned") {
      dealing = null;
      if (steps.length) steps[steps.length - 1].state = copy(state);
    }
  }
  return steps;
}

/** The index of the first step of the next (+1) or previous (-1) street from `i`. */
export function streetStep(steps, i, direction) {
  if (direction > 0) {
    for (let j = i + 1; j < steps.length; j += 1) if (steps[j].street !== steps[i].street) return j;
    return steps.length - 1;
  }
  // back: to the start of this street, or of the one before if already there
  let start = i;
  while (start > 0 && steps[start - 1].street === steps[i].street) start -= 1;
  if (start < i) return start;
  if (start === 0) return 0;
  const prev = steps[start - 1].street;
  let j = start - 1;
  while (j > 0 && steps[j - 1].street === prev) j -= 1;
  return j;
}

/** What a viewer's table drawing needs (the shape of GameOut) for one step. */
export function stepAsGame(step, { seatCount, names, me, paysMoney, format }) {
  const s = step.state;
  const mine = s.players.find((p) => p.player === me);
  const inBets = s.players.reduce((a, p) => a + p.bet, 0);
  return {
    summary: { seat_count: seatCount, format, pays_money: paysMoney, status: "finished", turn_clock_seconds: null },
    seats: s.players.map((p) => ({
      seat: p.seat, user_id: p.player, name: names.player(p.player), stack: p.stack, bet: p.bet,
      sitting_out: false, waiting_for_big_blind: false, leaving: null, timeouts_in_a_row: 0,
      in_hand: true, folded: p.folded, all_in: p.allIn && !p.folded, continued: false,
    })),
    hand: {
      number: s.number,
      running: !s.over,
      street: s.street,
      board: s.board,
      pot: s.collected + inBets,
      pots: [],
      button_seat: s.button,
      small_blind_seat: s.smallBlind,
      big_blind_seat: s.bigBlind,
      seat_to_act: s.actor,
      players: s.players.map((p) => ({
        seat: p.seat, stack: p.stack, bet: p.bet, folded: p.folded, all_in: p.allIn && !p.folded,
        has_cards: !p.folded && (p.cards.length > 0 || p.hidden > 0),
        cards: p.cards.length ? p.cards : null,
      })),
      my_cards: mine ? mine.cards : [],
      legal: null,
    },
    viewer_seat: mine ? mine.seat : null,
    viewer_cost: null,
    deadlines: { turn_due_at: null, deal_due_at: null },
  };
}
