"""Helpers for the game and WebSocket tests: players, tables, sockets with timeouts,
and the hidden-card scanner that every message a client receives goes through."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardroom.cards import card_text
from cardroom.service import play
from cardroom.service.context import ServiceContext
from tests.web.kit import bearer, sign_in, sign_up

Json = dict[str, Any]


@dataclass
class Player:
    name: str
    id: int
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return bearer(self.token)


def new_player(client: TestClient, name: str) -> Player:
    """Signed up (with the $100.00 every new player gets) and signed in."""
    user_id = sign_up(client, name)
    return Player(name, user_id, sign_in(client, name))


def create_game(client: TestClient, host: Player, **options: Any) -> int:
    body = {"buy_in": 1000, "seats": 2, **options}
    response = client.post("/api/games", json=body, headers=host.auth)
    assert response.status_code == 201, response.text
    return int(response.json()["game_id"])


def heads_up(client: TestClient, alice: Player, bob: Player, **options: Any) -> int:
    """A two-seat cash table, full and so started, with the first hand dealt."""
    game = create_game(client, alice, **options)
    response = client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
    assert response.status_code == 200, response.text
    return game


def detail(client: TestClient, game: int, who: Player) -> Json:
    response = client.get(f"/api/games/{game}", headers=who.auth)
    assert response.status_code == 200, response.text
    body: Json = response.json()
    return body


def act(
    client: TestClient, game: int, who: Player, kind: str, amount: int | None = None, **extra: Any
) -> Any:
    """An action at the version the player sees now."""
    version = detail(client, game, who)["version"]
    body: Json = {"kind": kind, "version": version, **extra}
    if amount is not None:
        body["amount"] = amount
    return client.post(f"/api/games/{game}/actions", json=body, headers=who.auth)


def to_act(client: TestClient, game: int, players: list[Player]) -> Player | None:
    """Whoever holds the turn in the running hand, or None between hands."""
    seen = detail(client, game, players[0])
    hand = seen["hand"]
    if hand is None or not hand["running"]:
        return None
    seat = hand["seat_to_act"]
    user = next(s["user_id"] for s in seen["seats"] if s["seat"] == seat)
    return next(p for p in players if p.id == user)


def check_down(client: TestClient, game: int, players: list[Player]) -> None:
    """Call or check every street until the hand ends: a showdown."""
    for _ in range(50):
        player = to_act(client, game, players)
        if player is None:
            return
        legal = detail(client, game, player)["hand"]["legal"]
        kind = "check" if "check" in legal["actions"] else "call"
        response = act(client, game, player, kind)
        assert response.status_code == 200, response.text
    raise AssertionError("the hand did not end")


# -- sockets ----------------------------------------------------------------------------


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> Json:
    """The next message, or TimeoutError: a test never hangs on a silent socket."""

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    ws._raise_on_close(message)
    data: Json = json.loads(message["text"])
    return data


def listening(me: WebSocketTestSession) -> None:
    """Wait until a ``/ws/me`` socket is registered for its user: the server accepts
    it before it reads the session, so a move made right after the connect can
    come before the server listens for that user. The pong comes after."""
    me.send_json({"type": "ping"})
    assert receive(me) == {"type": "pong"}


def silent(ws: WebSocketTestSession, timeout: float = 0.3) -> bool:
    try:
        receive(ws, timeout)
    except TimeoutError:
        return True
    return False


@dataclass
class Watcher:
    """A socket on a table, and every message it got."""

    ws: WebSocketTestSession
    who: Player | None
    messages: list[Json] = field(default_factory=list)

    def next(self, timeout: float = 10.0) -> Json:
        message = receive(self.ws, timeout)
        self.messages.append(message)
        return message

    def until_snapshot(self, timeout: float = 10.0) -> tuple[list[Json], Json]:
        """The events sent before the next snapshot, and that snapshot."""
        events: list[Json] = []
        while True:
            message = self.next(timeout)
            if message["type"] == "snapshot":
                return events, message
            assert message["type"] == "events", message
            events.extend(message["events"])

    def settle(self, game_seq: int, timeout: float = 10.0) -> Json:
        """Read until a snapshot at ``game_seq`` (the game's last event) arrives."""
        while True:
            _, snapshot = self.until_snapshot(timeout)
            if snapshot["seq"] >= game_seq:
                return snapshot


@contextmanager
def watching(client: TestClient, game: int, who: Player) -> Iterator[Watcher]:
    with client.websocket_connect(f"/ws/games/{game}?token={who.token}") as ws:
        watcher = Watcher(ws, who)
        first = watcher.next()
        assert first["type"] == "snapshot", first
        yield watcher


def last_seq(ctx: ServiceContext, game: int) -> int:
    events = play.events_since(ctx, game)
    return events[-1].seq if events else 0


# -- the hidden-card scanner --------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """A card that some viewers may not see: a hole card (``seat``) or a burnt card
    (``seat`` None). ``shown_at``: the seq of the ``HandShown`` that revealed it."""

    hand_id: int
    seat: int | None
    card: str
    shown_at: int | None


@dataclass
class Truth:
    """The full log of a game, read through the service (hole cards included)."""

    secrets: list[Secret]
    seats: dict[tuple[int, int], int]  # (hand id, user id) -> seat in that hand
    hand_ids: dict[int, int]  # hand number -> hand id

    @classmethod
    def of(cls, ctx: ServiceContext, game: int) -> Truth:
        events = play.events_since(ctx, game)
        shown: dict[tuple[int, int], int] = {}
        seats: dict[tuple[int, int], int] = {}
        numbers: dict[int, int] = {}
        for e in events:
            if e.kind == "HandShown" and e.hand_id is not None:
                shown[(e.hand_id, e.payload["seat"])] = e.seq
            if e.kind == "HandDealt" and e.hand_id is not None:
                numbers[e.payload["number"]] = e.hand_id
                for seat, user, _stack in e.payload["players"]:
                    seats[(e.hand_id, user)] = seat
        secrets = []
        for e in events:
            if e.hand_id is None:
                continue
            if e.kind == "HoleCardDealt":
                seat = e.payload["seat"]
                card = card_text(e.payload["card"])
                secrets.append(Secret(e.hand_id, seat, card, shown.get((e.hand_id, seat))))
            elif e.kind == "CardBurned":
                secrets.append(Secret(e.hand_id, None, card_text(e.payload["card"]), None))
        return cls(secrets, seats, numbers)

    def hidden(self, hand_id: int | None, viewer: Player | None, seq: int) -> list[str]:
        """Cards of ``hand_id`` the viewer may not see in something as of ``seq``
        (every hand's, for a record outside any hand: it should hold no card)."""
        out = []
        for secret in self.secrets:
            if hand_id is not None and secret.hand_id != hand_id:
                continue
            mine = viewer is not None and self.seats.get((secret.hand_id, viewer.id)) == secret.seat
            if secret.seat is not None and mine:
                continue
            if secret.shown_at is not None and secret.shown_at <= seq:
                continue
            out.append(secret.card)
        return out

    def check_event(self, event: Json, viewer: Player | None) -> None:
        blob = json.dumps(event)
        for card in self.hidden(event["hand_id"], viewer, event["seq"]):
            assert f'"{card}"' not in blob, (viewer, card, event)

    def check_game(self, game: Json, seq: int, viewer: Player | None) -> None:
        hand = game.get("hand")
        hand_id = None if hand is None else self.hand_ids[hand["number"]]
        blob = json.dumps(game)
        for card in self.hidden(hand_id, viewer, seq):
            assert f'"{card}"' not in blob, (viewer, card, game)

    def check_message(self, message: Json, viewer: Player | None) -> int:
        """Any message a client got: a socket message or an HTTP answer. Returns how
        many events and tables it checked."""
        checked = 0
        if message.get("type") == "snapshot":
            self.check_game(message["game"], message["seq"], viewer)
            return 1
        if "summary" in message and "last_seq" in message:  # GET /api/games/{id}
            self.check_game(message, message["last_seq"], viewer)
            return 1
        for event in message.get("events", ()):
            self.check_event(event, viewer)
            checked += 1
        return checked
