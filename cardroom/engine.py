"""Cardroom's rules engine as a library: one hand of No-Limit Texas Hold'em.

Everything a caller needs is here, and every player is named by table seat::

    from cardroom.engine import Action, Hand, HandSetup, preset

    setup = HandSetup.from_button({1: 1000, 2: 1000, 3: 1000}, button=3,
                                  small_blind=5, big_blind=10)
    hand = Hand.start(preset("standard"), setup, setup.rigged_deck({1: "AsAh"}))
    hand.allowed_actions()             # what the player to act may do, for how much
    Action.raise_to(30) in hand.allowed_actions()
    hand.act(Action.raise_to(30))
    hand.pots()                        # main pot first, eligible table seats

``docs/engine.md`` walks through each part with examples that run as tests. The
modules behind it (``cardroom.hand``, ``actions``, ``pots``, ``dealing``, ``rules``,
``events``, ``history.phh``) stay importable; this module is the stable surface.
"""

from __future__ import annotations

from cardroom.actions import (
    Action,
    ActionKind,
    ActionNotAllowed,
    AllowedActions,
    AmountOutOfRange,
    BetRange,
    BettingNotReopened,
    HandIsOver,
    IllegalAction,
    NotYourTurn,
    RaiseCapReached,
)
from cardroom.cards import CardError, card_text, cards_text, parse_cards
from cardroom.dealing import rigged_deck
from cardroom.deck import SeededRandomSource, SystemRandomSource, shuffled_deck
from cardroom.events import (
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardBurned,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardDealt,
    PlayerActed,
    PotAwarded,
)
from cardroom.hand import Hand, HandSetup, PlayerState, SetupError, Street
from cardroom.history.phh import PHHError, PHHRuleDiffers, replay_text
from cardroom.pots import TablePot
from cardroom.rules import PRESETS, Rules, RulesError, preset

__all__ = [
    "PRESETS",
    "Action",
    "ActionKind",
    "ActionNotAllowed",
    "AllowedActions",
    "AmountOutOfRange",
    "BetRange",
    "BetReturned",
    "BettingNotReopened",
    "BlindPosted",
    "BoardDealt",
    "CardBurned",
    "CardError",
    "Event",
    "Hand",
    "HandEnded",
    "HandIsOver",
    "HandMucked",
    "HandSetup",
    "HandShown",
    "HoleCardDealt",
    "IllegalAction",
    "NotYourTurn",
    "PHHError",
    "PHHRuleDiffers",
    "PlayerActed",
    "PlayerState",
    "PotAwarded",
    "RaiseCapReached",
    "Rules",
    "RulesError",
    "SeededRandomSource",
    "SetupError",
    "Street",
    "SystemRandomSource",
    "TablePot",
    "card_text",
    "cards_text",
    "parse_cards",
    "preset",
    "replay_text",
    "rigged_deck",
    "shuffled_deck",
]
