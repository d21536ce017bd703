"""Clients of a real server: players with bearer tokens, and bots that play over HTTP.

A bot sees what its player's client sees, the table from ``GET /api/games/{id}``
(and, if it follows them, the events), and decides with ``cardroom.bots.decide`` on
a ``SeatView`` built from it: its own cards, the board, stacks, bets, the pot and the
legal range the server showed. The action goes back with the version it saw and an
idempotency key, so a retry after a lost answer (a killed server) has one effect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from cardroom.actions import ActionKind, LegalActions
from cardroom.bots import PlayerView, PublicAction, SeatView, decide
from cardroom.bots.view import FLOP, PREFLOP, RIVER, TURN
from cardroom.cards import parse_card
from cardroom.deck import RandomSource
from tests.reliability.servers import PASSWORD

Json = dict[str, Any]
STREETS = {"preflop": PREFLOP, "flop": FLOP, "turn": TURN, "river": RIVER}


@dataclass(frozen=True)
class Player:
    name: str
    id: int
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def sign_up(client: httpx.Client, name: str, password: str = PASSWORD) -> Player:
    body = {"name": name, "password": password}
    made = client.post("/api/accounts/sign-up", json=body)
    assert made.status_code == 201, made.text
    return sign_in(client, name, password)


def sign_in(client: httpx.Client, name: str, password: str = PASSWORD) -> Player:
    signed = client.post("/api/accounts/sign-in", json={"name": name, "password": password})
    assert signed.status_code == 200, signed.text
    client.cookies.clear()
    body = signed.json()
    return Player(name, int(body["user"]["id"]), str(body["token"]))


def create_game(client: httpx.Client, host: Player, **options: Any) -> int:
    made = client.post("/api/games", json=options, headers=host.auth)
    assert made.status_code == 201, made.text
    return int(made.json()["game_id"])


def join(client: httpx.Client, game: int, who: Player) -> Json:
    joined = client.post(f"/api/games/{game}/join", json={}, headers=who.auth)
    assert joined.status_code == 200, joined.text
    body: Json = joined.json()
    return body


# -- a bot's decision from what the client sees ---------------------------------------------


def legal_actions(seat: Mapping[str, Any], legal: Mapping[str, Any]) -> LegalActions:
    kinds = set(legal["actions"])
    return LegalActions(
        seat=int(seat["seat"]),
        stack=int(seat["stack"]),
        bet=int(seat["bet"]),
        to_call=int(legal["to_call"]),
        can_fold="fold" in kinds,
        can_check="check" in kinds,
        can_call="call" in kinds,
        call_amount=int(legal["call_amount"]),
        can_bet="bet" in kinds,
        can_raise="raise" in kinds,
        min_to=int(legal["min_to"]),
        max_to=int(legal["max_to"]),
        can_all_in="all_in" in kinds,
        all_in_to=int(legal["all_in_to"]),
    )


def history_of(hand_events: Sequence[Mapping[str, Any]]) -> tuple[PublicAction, ...]:
    """The public steps of a hand from its events as the client got them."""
    steps: list[PublicAction] = []
    street = PREFLOP
    for event in hand_events:
        data = event["data"]
        if event["type"] == "PlayerActed":
            steps.append(
                PublicAction(
                    street,
                    data["seat"],
                    data["action"],
                    data["amount"],
                    data["bet"],
                    data["all_in"],
                )
            )
        elif event["type"] == "BlindPosted":
            to = 0 if data["blind"] == "ante" else data["amount"]
            steps.append(
                PublicAction(
                    street, data["seat"], data["blind"], data["amount"], to, data["all_in"]
                )
            )
        elif event["type"] == "BoardDealt":
            street = STREETS[data["street"]]
    return tuple(steps)


def seat_view(game: Mapping[str, Any], hand_events: Sequence[Mapping[str, Any]] = ()) -> SeatView:
    """The bot's input from ``GET /api/games/{id}`` on the viewer's turn."""
    hand = game["hand"]
    me = hand["seat_to_act"]
    players = [p for p in hand["players"]]
    # The detail shows the pot (every chip put in) and each bet, not each player's
    # total: only the sum matters to the policy, so the rest goes to the first seat.
    rest = int(hand["pot"]) - sum(int(p["bet"]) for p in players)
    views = tuple(
        PlayerView(
            int(p["seat"]),
            int(p["stack"]),
            int(p["bet"]),
            int(p["bet"]) + (rest if i == 0 else 0),
            bool(p["folded"]),
        )
        for i, p in enumerate(players)
    )
    mine = next(p for p in players if p["seat"] == me)
    cards = [parse_card(c) for c in hand["my_cards"]]
    return SeatView(
        seat=me,
        hole=(cards[0], cards[1]),
        board=tuple(parse_card(c) for c in hand["board"]),
        street=STREETS[hand["street"]],
        players=views,
        button_seat=int(hand["button_seat"]),
        small_blind=int(hand["small_blind"]),
        big_blind=int(hand["big_blind"]),
        legal=legal_actions(mine, hand["legal"]),
        history=history_of(hand_events),
    )


def bot_choice(
    game: Mapping[str, Any],
    level: str,
    source: RandomSource,
    hand_events: Sequence[Mapping[str, Any]] = (),
) -> Json:
    """The body of ``POST /api/games/{id}/actions`` a bot of ``level`` sends now."""
    action = decide(seat_view(game, hand_events), level, source).action
    body: Json = {"kind": action.kind.value, "version": int(game["version"])}
    if action.kind in (ActionKind.BET, ActionKind.RAISE):
        body["amount"] = action.amount
    return body


def my_turn(game: Mapping[str, Any]) -> bool:
    hand = game.get("hand")
    return bool(hand and hand["running"] and hand["legal"] is not None)


def waiting_for_my_continue(game: Mapping[str, Any], player_id: int) -> bool:
    hand = game.get("hand")
    if hand is None or hand["running"] or game["summary"]["status"] != "running":
        return False
    return any(s["user_id"] == player_id and not s["continued"] for s in game["seats"])


def my_seat(game: Mapping[str, Any], player_id: int) -> Mapping[str, Any] | None:
    return next((s for s in game["seats"] if s["user_id"] == player_id), None)
