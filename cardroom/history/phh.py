"""PHH, the Poker Hand History format, for No-Limit Texas Hold'em (variant ``NT``).

A PHH file is TOML. Players are listed in dealing order: p1 is first to the button's
left (the small blind), the last is the button; heads-up, p1 is the big blind and the
``blinds_or_straddles`` and ``antes`` arrays apply in reverse. That is exactly the
engine's dealing order, so player ``pN`` is index ``N - 1`` of a ``Hand``.

Actions: ``d dh pN CARDS`` deals hole cards (``????`` when unknown), ``d db CARDS``
deals board cards, ``pN f`` folds, ``pN cc`` checks or calls, ``pN cbr X`` bets or
raises to a total of X for the street, ``pN sm [CARDS]`` shows (or, bare, mucks).
Recorded hands replay under the ``standard`` rules: textbook no-limit. Files that
PokerKit writes replay too: the check PokerKit records from the one player left with
chips (the big blind after the small blind calls all in) changes nothing and is passed
over; a raise that only another rule book allows (PokerKit lets a player who already
acted raise after a short all-in) raises ``PHHRuleDiffers``, naming the rule.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.actions import Action, BettingNotReopened, IllegalAction
from cardroom.cards import CardError, card_text, parse_cards
from cardroom.events import BoardDealt, HandMucked, HandShown, PlayerActed
from cardroom.hand import Hand, HandSetup, SetupError, arrange_deck
from cardroom.rules import STANDARD, Rules


class PHHError(ValueError):
    """A PHH document that is not valid No-Limit Hold'em, or that the engine refuses."""


class PHHRuleDiffers(PHHError):
    """A recorded action that follows a rule the replay's rules do not (the file is
    not wrong: it was played, or written by a program, under another rule book)."""


@dataclass(slots=True)
class HandHistory:
    """The fields of a PHH document that describe the hand itself."""

    antes: list[int]
    blinds_or_straddles: list[int]
    min_bet: int
    starting_stacks: list[int]
    actions: list[str]
    finishing_stacks: list[int] | None = None
    ante_trimming_status: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # players, event, hand, ...


def loads(text: str) -> HandHistory:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"Not a PHH document: {exc}.") from None
    if data.get("variant") != "NT":
        raise PHHError(
            f"Only No-Limit Texas Hold'em (NT) is supported, not {data.get('variant')!r}."
        )
    try:
        history = HandHistory(
            antes=[int(a) for a in data["antes"]],
            blinds_or_straddles=[int(b) for b in data["blinds_or_straddles"]],
            min_bet=int(data["min_bet"]),
            starting_stacks=[int(s) for s in data["starting_stacks"]],
            actions=[str(a) for a in data["actions"]],
            finishing_stacks=(
                [int(s) for s in data["finishing_stacks"]] if "finishing_stacks" in data else None
            ),
            ante_trimming_status=bool(data.get("ante_trimming_status", False)),
        )
    except KeyError as exc:
        raise PHHError(f"The PHH document has no {exc.args[0]!r} field.") from None
    except (TypeError, ValueError):
        raise PHHError("PHH amounts must be whole numbers of chips.") from None
    known = {
        "variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions",
        "finishing_stacks", "ante_trimming_status",
    }  # fmt: skip
    history.extra = {k: v for k, v in data.items() if k not in known}
    return history


def _in_dealing_order(values: list[int]) -> list[int]:
    # heads-up, the arrays apply in reverse: p1 (the big blind) takes the second entry
    return list(reversed(values)) if len(values) == 2 else list(values)


def setup_of(history: HandHistory) -> HandSetup:
    n = len(history.starting_stacks)
    if not 2 <= n <= 10:
        raise PHHError("A hand needs 2 to 10 players.")
    if len(history.blinds_or_straddles) != n or len(history.antes) != n:
        raise PHHError("blinds_or_straddles and antes need one entry per player.")
    blinds = _in_dealing_order(history.blinds_or_straddles)
    antes = _in_dealing_order(history.antes)
    posting = [i for i, b in enumerate(blinds) if b]
    if n == 2:  # heads-up the big blind is first to the button's left
        big_blind_index, small_blind_index = 0, (1 if blinds[1] else None)
    elif len(posting) == 2:
        small_blind_index, big_blind_index = posting
    elif len(posting) == 1:  # a dead small blind: only the big blind posts
        small_blind_index, big_blind_index = None, posting[0]
    else:
        raise PHHError("Straddles are not part of Cardroom's games: give a small and a big blind.")
    big_blind = blinds[big_blind_index]
    small_blind = 0 if small_blind_index is None else blinds[small_blind_index]
    if big_blind <= 0 or history.min_bet != big_blind:
        raise PHHError("The minimum bet must be the big blind.")
    ante, big_blind_ante = 0, False
    if any(antes):
        if len(set(antes)) == 1:
            ante = antes[0]
        elif sum(1 for a in antes if a) == 1 and antes[big_blind_index]:
            ante, big_blind_ante = antes[big_blind_index], True
        else:
            raise PHHError("Antes must be the same for everyone, or a big-blind ante.")
    seats = tuple(range(1, n + 1))  # p1..pn; the button is the last in dealing order
    try:
        return HandSetup(
            seats,
            tuple(history.starting_stacks),
            n,
            None if small_blind_index is None else small_blind_index + 1,
            big_blind_index + 1,
            small_blind,
            big_blind,
            ante,
            big_blind_ante,
        )
    except SetupError as exc:
        raise PHHError(str(exc)) from None


def _player(token: str, n: int) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit():
        raise PHHError(f"{token!r} is not a player (p1 to p{n}).")
    number = int(token[1:])
    if not 1 <= number <= n:
        raise PHHError(f"{token!r} is not a player (p1 to p{n}).")
    return number


def _split_action(line: str) -> list[str]:
    return line.split("#", 1)[0].split()


def replay(history: HandHistory, rules: Rules = STANDARD) -> Hand:
    """Play the recorded actions through the engine and return the finished hand."""
    setup = setup_of(history)
    n = len(setup.seats)
    hole: list[list[int] | None] = [None] * n  # unknown (????) cards stay None
    board: list[int] = []
    try:
        for line in history.actions:
            parts = _split_action(line)
            if parts[:2] == ["d", "dh"] and len(parts) == 4:
                player = _player(parts[2], n)
                if parts[3].strip("?"):
                    hole[player - 1] = list(parse_cards(parts[3]))
            elif parts[:2] == ["d", "db"] and len(parts) == 3:
                board.extend(parse_cards(parts[2]))
        deck = arrange_deck(hole, board)
    except CardError as exc:
        raise PHHError(f"Bad cards in the PHH actions: {exc}") from None
    hand = Hand.start(rules, setup, deck)
    moot_check_skipped = False
    for number, line in enumerate(history.actions, 1):
        parts = _split_action(line)
        if not parts or parts[0] == "d":
            continue
        seat = _player(parts[0], n)
        verb = parts[1] if len(parts) > 1 else ""
        if verb == "sm":
            continue  # the engine decides what is shown; hands are compared by rank
        if hand.is_over:
            if verb == "cc" and not moot_check_skipped and _check_nobody_could_answer(hand, seat):
                moot_check_skipped = True
                continue
            raise PHHError(f"Action {number} ({line!r}) comes after the hand is over.")
        try:
            if verb == "f" and _folded_for_them(hand, seat):
                hand.fold_out_of_turn(seat)
                continue
            hand.act(_action(hand, verb, parts[2:], line), seat=seat)
        except BettingNotReopened:
            raise PHHRuleDiffers(
                f"Action {number} ({line!r}) follows a rule the {rules.name} rules do not: "
                "a player who already acted raises after all-ins short of a full raise, "
                "which here do not reopen the betting."
            ) from None
        except IllegalAction as exc:
            raise PHHError(f"Action {number} ({line!r}) is refused: {exc}") from None
    if not hand.is_over:
        raise PHHError("The recorded actions end before the hand does.")
    return hand


def _folded_for_them(hand: Hand, seat: int) -> bool:
    """A fold the player could not have made (out of turn, or when checking is free)
    is the host's or an admin's fold of an inactive player, as Cardroom's tables allow
    and its exports write it; read it as such, like ``cardroom.history.record``.
    (Other PHH readers refuse such a fold: the format has no word for it.)"""
    return seat != hand.seat_to_act or not hand.legal_actions().can_fold


def _check_nobody_could_answer(hand: Hand, seat: int) -> bool:
    """Is this the check PokerKit records from the one player left with chips, who
    has matched everyone else still in, all of them all in (the big blind after the
    small blind calls all in)? PokerKit asks that player to act; Cardroom deals the
    board out at once, since no bet could be answered, so the check changes nothing."""
    # The board was dealt out because fewer than two players still in had chips, and
    # any bet nobody matched went back: so a player still in with chips behind is that
    # one player, and has matched everyone.
    i = seat - 1  # PHH player pN is dealing-order index N - 1
    return hand.ran_out and not hand.folded[i] and hand.starting_stacks[i] > hand.contributed[i]


def _action(hand: Hand, verb: str, args: Sequence[str], line: str) -> Action:
    if verb == "f":
        return Action.fold()
    if verb == "cc":
        return Action.check() if hand.legal_actions().can_check else Action.call()
    if verb == "cbr" and len(args) == 1 and args[0].isdigit():
        to = int(args[0])
        legal = hand.legal_actions()
        if to == legal.all_in_to and legal.can_all_in:
            return Action.all_in()
        return Action.bet(to) if legal.can_bet else Action.raise_to(to)
    raise PHHError(f"{line!r} is not a No-Limit Hold'em action.")


def replay_text(text: str, rules: Rules = STANDARD) -> Hand:
    return replay(loads(text), rules)


# ---------------------------------------------------------------------- writing


def history_of(hand: Hand, hidden: frozenset[int] = frozenset()) -> HandHistory:
    """The hand as PHH; the hole cards of the ``hidden`` seats are written ``????``
    unless they were shown."""
    setup = hand.setup
    n = len(hand.seats)
    index = {seat: i for i, seat in enumerate(hand.seats)}
    blinds = [0] * n
    if hand.small_blind_index >= 0:
        blinds[hand.small_blind_index] = setup.small_blind
    blinds[hand.big_blind_index] = setup.big_blind
    antes = [0] * n
    if setup.ante:
        if setup.big_blind_ante:
            antes[hand.big_blind_index] = setup.ante
        else:
            antes = [setup.ante] * n
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    actions = []
    for i, seat in enumerate(hand.seats):
        cards = hand.hole[i]
        visible = seat not in hidden or seat in shown
        text = "".join(card_text(c) for c in cards) if visible else "????"
        actions.append(f"d dh p{i + 1} {text}")
    showdown = [
        f"p{index[e.seat] + 1} sm " + "".join(card_text(c) for c in e.cards)
        if isinstance(e, HandShown)
        else f"p{index[e.seat] + 1} sm"
        for e in hand.events
        if isinstance(e, HandShown | HandMucked)
    ]
    # After an all-in the hands are shown before the rest of the board is dealt out
    # (PokerKit and the PHH examples order it so).
    last_action = max(
        (k for k, e in enumerate(hand.events) if isinstance(e, PlayerActed)), default=-1
    )
    for k, event in enumerate(hand.events):
        if hand.ran_out and showdown and k > last_action and isinstance(event, BoardDealt):
            actions.extend(showdown)
            showdown = []
        if isinstance(event, BoardDealt):
            actions.append("d db " + "".join(card_text(c) for c in event.cards))
        elif isinstance(event, PlayerActed):
            player = f"p{index[event.seat] + 1}"
            if event.action == "fold":
                actions.append(f"{player} f")
            elif event.action in ("check", "call"):
                actions.append(f"{player} cc")
            else:
                actions.append(f"{player} cbr {event.bet}")
    actions.extend(showdown)
    return HandHistory(
        antes=_in_dealing_order(antes),
        blinds_or_straddles=_in_dealing_order(blinds),
        min_bet=setup.big_blind,
        starting_stacks=list(hand.starting_stacks),
        actions=actions,
        finishing_stacks=list(hand.stacks) if hand.is_over else None,
        # antes are dead money shared by everyone: PokerKit's "trimmed" antes
        ante_trimming_status=not setup.big_blind_ante,
    )


def dumps(history: HandHistory) -> str:
    def array(values: Sequence[int]) -> str:
        return "[" + ", ".join(str(v) for v in values) + "]"

    lines = [
        'variant = "NT"',
        f"ante_trimming_status = {'true' if history.ante_trimming_status else 'false'}",
        f"antes = {array(history.antes)}",
        f"blinds_or_straddles = {array(history.blinds_or_straddles)}",
        f"min_bet = {history.min_bet}",
        f"starting_stacks = {array(history.starting_stacks)}",
        "actions = [",
        *[f'  "{a}",' for a in history.actions],
        "]",
    ]
    if history.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {array(history.finishing_stacks)}")
    for key, value in history.extra.items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise PHHError(f"Cannot write {type(value).__name__} to PHH.")
