"""The hidden-card scanner: which cards a viewer may not see, read from the full log
(hole cards and burns included), and a check of anything a client received.

A hole card is hidden from everyone but its owner until a ``HandShown`` reveals it;
one folded or mucked is never shown, so it stays hidden for good. A burnt card is
hidden from everyone. A card is looked for as a JSON string (``"As"``), the only way
the API writes cards, so words that happen to spell a card do not count.

Within a hand a card hidden there may legitimately appear elsewhere (the next hand
deals the deck again), so a message is checked against the cards of the hand it is
about: an event against its ``hand_id``, a table against the hand it shows. What is
about no hand (a notice, an event between hands) is checked against every card that
was never shown and was not the viewer's.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import card_text
from cardroom.hand import Hand
from cardroom.history.privacy import Viewer, phh_export, pokerstars_export
from cardroom.history.record import HandRecord, record_of
from cardroom.service import play
from cardroom.service.context import ServiceContext
from cardroom.store.models import HandRecord as HandRow
from cardroom.store.models import User

EVER = math.inf
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


@dataclass(frozen=True)
class Secret:
    game: int
    hand_id: int
    seat: int | None  # None: a burnt card
    card: str
    shown_at: float  # the seq of the HandShown that revealed it, or EVER


@dataclass
class Truth:
    """Every secret card of some games, from their full logs."""

    secrets: dict[tuple[int, int], list[Secret]] = field(default_factory=dict)  # (game, hand id)
    by_game: dict[int, list[Secret]] = field(default_factory=dict)
    seats: dict[tuple[int, int], int] = field(default_factory=dict)  # (hand id, user) -> seat
    hand_ids: dict[tuple[int, int], int] = field(default_factory=dict)  # (game, number) -> id
    events: dict[int, list[Any]] = field(default_factory=dict)  # game -> its stored events
    finished: set[int] = field(default_factory=set)  # hand ids whose end is in the log

    @classmethod
    def of(cls, ctx: ServiceContext, games: Iterable[int]) -> Truth:
        truth = cls()
        for game in games:
            events: list[Any] = []
            while True:
                page = play.events_since(ctx, game, events[-1].seq if events else 0)
                if not page:
                    break
                events.extend(page)
            truth.events[game] = events
            shown: dict[tuple[int, int], int] = {}
            for e in events:
                if e.kind == "HandEnded" and e.hand_id is not None:
                    truth.finished.add(e.hand_id)
                if e.kind == "HandShown" and e.hand_id is not None:
                    shown[(e.hand_id, e.payload["seat"])] = e.seq
                if e.kind == "HandDealt" and e.hand_id is not None:
                    truth.hand_ids[(game, e.payload["number"])] = e.hand_id
                    for seat, user, _stack in e.payload["players"]:
                        truth.seats[(e.hand_id, user)] = seat
            for e in events:
                if e.hand_id is None:
                    continue
                secret: Secret | None = None
                if e.kind == "HoleCardDealt":
                    seat = e.payload["seat"]
                    card = card_text(e.payload["card"])
                    secret = Secret(game, e.hand_id, seat, card, shown.get((e.hand_id, seat), EVER))
                elif e.kind == "CardBurned":
                    secret = Secret(game, e.hand_id, None, card_text(e.payload["card"]), EVER)
                if secret is not None:
                    truth.secrets.setdefault((game, e.hand_id), []).append(secret)
                    truth.by_game.setdefault(game, []).append(secret)
        return truth

    # -- what a viewer may not see -------------------------------------------------

    def hidden(self, game: int, hand_id: int | None, viewer: int | None, seq: float) -> set[str]:
        """The cards of ``hand_id`` (every hand's, for None) that ``viewer`` may not
        see in something as of event ``seq``."""
        pool = (
            self.by_game.get(game, []) if hand_id is None else self.secrets.get((game, hand_id), [])
        )
        out = set()
        for secret in pool:
            mine = viewer is not None and self.seats.get((secret.hand_id, viewer)) == secret.seat
            if secret.seat is not None and mine:
                continue  # the viewer's own card
            if secret.shown_at <= seq:
                continue
            out.add(secret.card)
        return out

    # -- checks ---------------------------------------------------------------------

    def check_event(self, game: int, event: Mapping[str, Any], viewer: int | None) -> None:
        hand_id = event.get("hand_id")
        assert_absent(self.hidden(game, hand_id, viewer, event["seq"]), event, viewer)

    def check_table(
        self, game: int, table: Mapping[str, Any], seq: float, viewer: int | None
    ) -> None:
        hand = table.get("hand")
        hand_id = None if hand is None else self.hand_ids[(game, hand["number"])]
        assert_absent(self.hidden(game, hand_id, viewer, seq), table, viewer)

    def check(self, game: int, message: Mapping[str, Any], viewer: int | None) -> int:
        """Anything a client of ``game`` received: a socket message, or the body of
        an HTTP answer. Returns how many tables and events it checked."""
        if message.get("type") == "snapshot":
            self.check_table(game, message["game"], message["seq"], viewer)
            return 1
        if "summary" in message and "last_seq" in message:  # GET /api/games/{id}
            self.check_table(game, message, message["last_seq"], viewer)
            return 1
        if "events" in message:  # socket events, GET .../events, a command's answer
            for event in message["events"]:
                self.check_event(game, event, viewer)
            return len(message["events"])
        # A notice, a hint, a pong, a refusal: about no hand in particular.
        assert_absent(self.hidden(game, None, viewer, EVER), message, viewer)
        return 1

    # -- hand histories -----------------------------------------------------------

    def records(self, ctx: ServiceContext, game: int) -> list[tuple[HandRecord, dict[int, int]]]:
        """Each finished hand of ``game`` as a history record, with seat -> user."""
        out = []
        with ctx.transaction() as session:
            names = dict(session.query(User.id, User.name).all())
            rows = (
                session.query(HandRow)
                .filter(HandRow.game_id == game, HandRow.final_state.is_not(None))
                .order_by(HandRow.number)
                .all()
            )
            finished = [(row.id, row.final_state, row.started_at) for row in rows]
        events = self.events[game]
        for hand_id, final_state, started_at in finished:
            assert final_state is not None
            hand = Hand.from_dict(final_state)
            users = {seat: user for (h, user), seat in self.seats.items() if h == hand_id}
            times = [
                e.created_at for e in events if e.hand_id == hand_id and e.kind == "PlayerActed"
            ]
            record = record_of(
                hand,
                {seat: names[user] for seat, user in users.items()},
                times,
                table=f"Cardroom {game}",
                hand_number=hand_id,
                started_at=started_at,
                seat_count=10,
            )
            out.append((record, users))
        return out

    def check_exports(self, ctx: ServiceContext, game: int, viewers: Iterable[int]) -> int:
        """PHH and PokerStars exports of every finished hand, for each viewer (a
        player in their seat, or as an observer) and for an observer: no card hidden
        from them. Returns how many exports were checked."""
        checked = 0
        for record, users in self.records(ctx, game):
            hand_id = record.hand_number
            seat_of = {user: seat for seat, user in users.items()}
            for viewer in [None, *viewers]:
                seat = None if viewer is None else seat_of.get(viewer)
                who = Viewer.observer() if seat is None else Viewer.player(seat)
                hidden = self.hidden(game, hand_id, viewer if seat is not None else None, EVER)
                for text, cards in (
                    (phh_export(record, who), phh_cards),
                    (pokerstars_export(record, who), pokerstars_cards),
                ):
                    leaked = hidden & cards(text)
                    assert not leaked, (viewer, hand_id, leaked, text)
                    checked += 1
        return checked


def assert_absent(hidden: set[str], blob: Any, viewer: int | None) -> None:
    if not hidden:
        return
    strings = set(_strings(blob))
    leaked = hidden & strings
    assert not leaked, (
        f"viewer {viewer} was sent hidden cards {sorted(leaked)}: {json.dumps(blob)[:3000]}"
    )


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def phh_cards(text: str) -> set[str]:
    """Every card a PHH text names: in its actions (``d dh p1 AsKd``, ``d db 2c3d4h``,
    ``p2 sm QhQs``) and anywhere else a word is made only of cards."""
    found: set[str] = set()
    for token in re.findall(r"(?<![A-Za-z0-9?])(?:[2-9TJQKA?][cdhs?])+(?![A-Za-z0-9?])", text):
        found.update(token[i : i + 2] for i in range(0, len(token), 2))
    return {c for c in found if CARD.match(c)}


def pokerstars_cards(text: str) -> set[str]:
    """Every card a PokerStars text names: they stand in brackets, ``[As Kd]``."""
    found: set[str] = set()
    for group in re.findall(r"\[([^\]]*)\]", text):
        found.update(c for c in group.split() if CARD.match(c))
    return found


def export_sections(text: str, fmt: str) -> list[tuple[int, str]]:
    """A game's export split into its hands: (hand id, that hand's text). A ``.phhs``
    file is TOML tables ``[1]``, ``[2]``... each naming its hand (``hand = 12``); a
    PokerStars file starts each hand with ``PokerStars Hand #12:``."""
    if fmt == "phh":
        parts = re.split(r"^\[\d+\]$", text, flags=re.MULTILINE)[1:]
        number = r"^hand = (\d+)$"
    else:
        parts = re.split(r"(?=^PokerStars Hand #)", text, flags=re.MULTILINE)
        parts = [p for p in parts if p.strip()]
        number = r"^PokerStars Hand #(\d+)"
    out = []
    for part in parts:
        found = re.search(number, part, flags=re.MULTILINE)
        assert found, part[:500]
        out.append((int(found.group(1)), part))
    return out


def cards_in(text: str, fmt: str) -> set[str]:
    return phh_cards(text) if fmt == "phh" else pokerstars_cards(text)
