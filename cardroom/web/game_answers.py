"""The games' answers and messages built from the service layer's records, which have
already been through the per-viewer filter (``cardroom.views``): the pydantic models of
``cardroom.web.schemas_games`` for the HTTP answers, and, on the hot path of every
broadcast and socket answer, the same JSON written straight from the records
(``*_text``, ``command_json``): byte for byte what the models would write
(tests/web/test_broadcast_messages.py compares them), without building a model per
viewer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import Any

import orjson
from pydantic_core import to_json

from cardroom.cards import card_text
from cardroom.service.change_views import ChangeViews
from cardroom.service.game_records import (
    GameDetail,
    GameSummary,
    HandView,
    LegalActionsView,
    ListedGame,
    PlayResult,
    SeatedGame,
    SeatView,
    quick_init,
)
from cardroom.service.game_views import ViewedEvent
from cardroom.web.schemas_games import (
    CommandOut,
    DeadlinesOut,
    EventOut,
    FinishOut,
    GameOut,
    GameSummaryOut,
    HandOut,
    HandPlayerOut,
    LegalOut,
    ListedGameOut,
    LobbyOut,
    MyGamesOut,
    PotOut,
    SeatedGameOut,
    SeatEquityOut,
    SeatOut,
    StreetEquityOut,
    WsSnapshot,
)


def event_out(event: ViewedEvent) -> EventOut:
    return EventOut(
        seq=event.seq,
        type=event.kind,
        hand_id=event.hand_id,
        version=event.version,
        created_at=event.created_at,
        data=event.data,
    )


def command_out(result: PlayResult, events: Sequence[ViewedEvent]) -> CommandOut:
    return CommandOut(
        game_id=result.game_id,
        version=result.version,
        status=result.status,
        replayed=result.replayed,
        events=[event_out(e) for e in events],
    )


def summary_out(game: GameSummary) -> GameSummaryOut:
    fields = {name: getattr(game, name) for name in GameSummaryOut.model_fields}
    fields["payouts"] = list(game.payouts)
    return GameSummaryOut(**fields)


def lobby_out(games: Sequence[ListedGame]) -> LobbyOut:
    return LobbyOut(
        games=[
            ListedGameOut(**summary_out(g.summary).model_dump(), viewer_cost=g.viewer_cost)
            for g in games
        ]
    )


def my_games_out(games: Sequence[SeatedGame]) -> MyGamesOut:
    return MyGamesOut(
        games=[
            SeatedGameOut(
                **summary_out(g.summary).model_dump(),
                your_turn=g.your_turn,
                turn_due_at=g.turn_due_at,
            )
            for g in games
        ]
    )


def _seat_out(seat: SeatView) -> SeatOut:
    return SeatOut(**{name: getattr(seat, name) for name in SeatOut.model_fields})


def _legal_out(legal: LegalActionsView | None) -> LegalOut | None:
    if legal is None:
        return None
    return LegalOut(
        actions=list(legal.kinds),
        to_call=legal.to_call,
        call_amount=legal.call_amount,
        min_to=legal.min_to,
        max_to=legal.max_to,
        all_in_to=legal.all_in_to,
    )


def hand_out(hand: HandView) -> HandOut:
    view = hand.view  # cardroom.views.hand_view: the one decision about hole cards
    return HandOut(
        number=hand.number,
        running=hand.running,
        street=view["street"],
        board=view["board"],
        pot=view["pot"],
        pots=[PotOut(**pot) for pot in view["pots"]],
        button_seat=view["button_seat"],
        small_blind_seat=view["small_blind_seat"],
        big_blind_seat=view["big_blind_seat"],
        small_blind=view["small_blind"],
        big_blind=view["big_blind"],
        seat_to_act=hand.seat_to_act,
        players=[HandPlayerOut(**player) for player in view["players"]],
        my_cards=[card_text(c) for c in hand.my_cards],
        legal=_legal_out(hand.legal),
        equity=_equity_out(view.get("equity")),
    )


def _equity_out(steps: list[dict[str, Any]] | None) -> list[StreetEquityOut] | None:
    if steps is None:
        return None
    return [
        StreetEquityOut(
            street=step["street"],
            board=step["board"],
            exact=step["exact"],
            players=[SeatEquityOut(**player) for player in step["players"]],
        )
        for step in steps
    ]


def game_out(detail: GameDetail) -> GameOut:
    return GameOut(
        summary=summary_out(detail.summary),
        version=detail.summary.version,
        last_seq=detail.last_seq,
        seats=[_seat_out(s) for s in detail.seats],
        hand=None if detail.hand is None else hand_out(detail.hand),
        level=detail.level,
        viewer_seat=detail.viewer_seat,
        viewer_cost=detail.viewer_cost,
        deadlines=DeadlinesOut(
            turn_due_at=detail.turn_due_at,
            deal_due_at=detail.deal_due_at,
            cancel_due_at=detail.cancel_due_at,
            next_level_at=detail.next_level_at,
        ),
        finishes=[FinishOut(user_id=u, place=p) for u, p in detail.finishes],
    )


def snapshot_message(detail: GameDetail) -> WsSnapshot:
    return WsSnapshot(version=detail.summary.version, seq=detail.last_seq, game=game_out(detail))


# -- the socket's messages, written without building the models ----------------------
# A table's sockets send every viewer an ``events`` message and a ``snapshot`` after
# every change, and a command's sender its ``result``. What goes out is ours, already
# filtered for the viewer: nothing in it needs validating, and building the models
# (a dozen per snapshot) cost more than writing them. These write plain dicts in the
# models' field order through orjson (``_json``): the same bytes as
# ``snapshot_message(...).model_dump_json()`` and the others
# (tests/web/test_broadcast_messages.py compares them over played hands), for a
# fraction of the CPU. The models stay the wire's definition: the HTTP routes answer
# with them, and the API's schema comes from them.
#
# Given the change's shared views (``change_views.ChangeViews``), what several of its
# viewers are sent alike is written once for all of them and the texts put together:
# an event's view (the command's answer and the sockets of every seat that sees it
# alike), the part of the game every viewer sees alike (the summary, the seats, the
# clocks), a whole snapshot shared by the sockets of one viewer or by spectators. The
# pieces are compact JSON, with nothing between the members of an object or a list
# but a comma, so the put-together text is the same bytes.

# What pydantic's serialiser (``pydantic_core.to_json``, what ``model_dump_json``
# runs) writes of these plain values, orjson writes byte for byte, at a fifth of the
# CPU or less (it spent 18 us on a game's summary, whose enums it hands back to
# Python one by one): compact, UTF-8 unescaped, floats at their shortest, an aware
# time at UTC ending in "Z" (``OPT_UTC_Z``), an enum as its value. Whatever orjson
# does not write (an integer past 64 bits, a set, a duration...) goes to pydantic's.
# tests/web/test_answer_json.py holds the two to the same bytes.
_JSON_OPTIONS = orjson.OPT_UTC_Z


def _json(value: Any) -> bytes:
    """``pydantic_core.to_json(value)``, written by orjson when it can."""
    try:
        return orjson.dumps(value, option=_JSON_OPTIONS)
    except orjson.JSONEncodeError:
        return to_json(value)


def _text(value: Any) -> str:
    """``_json(value)`` as text, orjson called here itself: every message and every
    piece of one is written through here, several a viewer of each change."""
    try:
        return orjson.dumps(value, option=_JSON_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return to_json(value).decode()


_SUMMARY_FIELDS = tuple(GameSummaryOut.model_fields)
_SEAT_FIELDS = tuple(SeatOut.model_fields)


def event_data(event: ViewedEvent) -> dict[str, Any]:
    """``event_out(event)``, as the dict its JSON is written from."""
    return {
        "seq": event.seq,
        "type": event.kind,
        "hand_id": event.hand_id,
        "version": event.version,
        "created_at": event.created_at,
        "data": event.data,
    }


def _event_text(event: ViewedEvent) -> str:
    return _text(event_data(event))


def event_texts(views: ChangeViews, events: Sequence[ViewedEvent]) -> list[str]:
    """The JSON of each of ``events`` (views ``views`` made), written once for every
    viewer sent it."""
    return views.written_each(events, _event_text)


def _with_events(message: dict[str, Any], texts: Sequence[str]) -> str:
    """``message``, whose last member written is its (empty) list of events, written
    with ``texts`` as that list."""
    text = _text(message)
    cut = text.rindex("[]") + 1
    return text[:cut] + ",".join(texts) + text[cut:]


def events_text(
    version: int, events: Sequence[ViewedEvent], views: ChangeViews | None = None
) -> str:
    """``WsEvents(version=version, events=[event_out(e) ...]).model_dump_json()``;
    ``views``: the change's views that made ``events``, whose texts are shared."""
    if views is not None:
        if events and version == events[-1].version:
            # The one tuple every viewer sees alike (``ChangeViews.events``): its
            # message written once for them all.
            return views.written(events, partial(_events_text, version, events, views))
        return _events_text(version, events, views)
    message = {"type": "events", "version": version, "events": [event_data(e) for e in events]}
    return _text(message)


def _events_text(version: int, events: Sequence[ViewedEvent], views: ChangeViews) -> str:
    message = {"type": "events", "version": version, "events": []}
    return _with_events(message, event_texts(views, events))


# The service's summary and seat records have the models' fields in the models'
# order, so orjson writes them as they are, as it writes a dict of their fields
# (tests/web/test_answer_json.py), without the dict made of each.
_AS_THEY_ARE = (
    tuple(f.name for f in fields(GameSummary)) == _SUMMARY_FIELDS
    and tuple(f.name for f in fields(SeatView)) == _SEAT_FIELDS
)


def _summary_data(game: GameSummary) -> object:
    if _AS_THEY_ARE:
        return game
    data = {name: getattr(game, name) for name in _SUMMARY_FIELDS}
    data["payouts"] = list(game.payouts)
    return data


def _seats_data(seats: tuple[SeatView, ...]) -> object:
    if _AS_THEY_ARE:
        return seats
    return [{name: getattr(seat, name) for name in _SEAT_FIELDS} for seat in seats]


def _legal_data(legal: LegalActionsView | None) -> dict[str, Any] | None:
    if legal is None:
        return None
    return {
        "actions": list(legal.kinds),
        "to_call": legal.to_call,
        "call_amount": legal.call_amount,
        "min_to": legal.min_to,
        "max_to": legal.max_to,
        "all_in_to": legal.all_in_to,
    }


def _equity_data(steps: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    if steps is None:
        return None
    return [
        {
            "street": step["street"],
            "board": list(step["board"]),
            "exact": bool(step["exact"]),
            "players": [
                {"seat": player["seat"], "percent": float(player["percent"])}
                for player in step["players"]
            ],
        }
        for step in steps
    ]


def _hand_data(hand: HandView) -> dict[str, Any]:
    view = hand.view  # cardroom.views.hand_view: the one decision about hole cards
    # Its board, pots and players are lists of what the models hold, their keys the
    # models' fields in their order (tests/web/test_answer_json.py): written as
    # they are.
    return {
        "number": hand.number,
        "running": hand.running,
        "street": view["street"],
        "board": view["board"],
        "pot": view["pot"],
        "pots": view["pots"],
        "button_seat": view["button_seat"],
        "small_blind_seat": view["small_blind_seat"],
        "big_blind_seat": view["big_blind_seat"],
        "small_blind": view["small_blind"],
        "big_blind": view["big_blind"],
        "seat_to_act": hand.seat_to_act,
        "players": view["players"],
        "my_cards": [card_text(c) for c in hand.my_cards],
        "legal": _legal_data(hand.legal),
        "equity": _equity_data(view.get("equity")),
    }


def _game_data(detail: GameDetail) -> dict[str, Any]:
    return {
        "summary": _summary_data(detail.summary),
        "version": detail.summary.version,
        "last_seq": detail.last_seq,
        "seats": _seats_data(detail.seats),
        "hand": None if detail.hand is None else _hand_data(detail.hand),
        "level": detail.level,
        "viewer_seat": detail.viewer_seat,
        "viewer_cost": detail.viewer_cost,
        **_closing_data(detail),
    }


def _closing_data(detail: GameDetail) -> dict[str, Any]:
    """The game's last two members, its deadlines and finishes (in this order)."""
    return {
        "deadlines": {
            "turn_due_at": detail.turn_due_at,
            "deal_due_at": detail.deal_due_at,
            "cancel_due_at": detail.cancel_due_at,
            "next_level_at": detail.next_level_at,
        },
        "finishes": [{"user_id": u, "place": p} for u, p in detail.finishes],
    }


def snapshot_text(detail: GameDetail, views: ChangeViews | None = None) -> str:
    """``snapshot_message(detail).model_dump_json()``; ``views``: the change's views
    that made ``detail``, whose texts are shared."""
    if views is not None:
        return views.written(detail, lambda: _shared_snapshot_text(detail, views))
    message = {
        "type": "snapshot",
        "version": detail.summary.version,
        "seq": detail.last_seq,
        "game": _game_data(detail),
    }
    return _text(message)


@quick_init
@dataclass(frozen=True)
class _PublicText:
    """The JSON of what a change's viewers see alike of the game, around what each
    sees for themselves (the hand, their seat, what a seat costs them), and what it
    was written from."""

    detail: GameDetail  # the first viewer's, whose shared parts these are
    head: str  # up to and with the comma before "hand"
    tail: str  # from the comma before "deadlines" to the end

    def fits(self, detail: GameDetail) -> bool:
        """Whether ``detail`` shares all of it (the views made them from one public
        detail: the same summary, seats and finishes, not copies; the same level,
        number and clocks, the very objects, as ``game_details._with_hand`` copies
        them: told apart by identity, cheaper than equality, and an equal copy only
        costs a snapshot written on its own)."""
        mine = self.detail
        return (
            detail.summary is mine.summary
            and detail.seats is mine.seats
            and detail.finishes is mine.finishes
            and detail.level is mine.level
            and detail.last_seq is mine.last_seq
            and detail.turn_due_at is mine.turn_due_at
            and detail.deal_due_at is mine.deal_due_at
            and detail.cancel_due_at is mine.cancel_due_at
            and detail.next_level_at is mine.next_level_at
        )


def _public_text(detail: GameDetail) -> _PublicText:
    version = detail.summary.version
    head = {
        "type": "snapshot",
        "version": version,
        "seq": detail.last_seq,
        "game": {
            "summary": _summary_data(detail.summary),
            "version": version,
            "last_seq": detail.last_seq,
            "seats": _seats_data(detail.seats),
        },
    }
    tail = _closing_data(detail)
    # head: {..."game":{...,"seats":[...]}} less its two closing braces; tail: the
    # members of {"deadlines":...,"finishes":[...]}, closing the game and the message.
    return _PublicText(detail, _text(head)[:-2] + ",", "," + _text(tail)[1:] + "}")


def _shared_snapshot_text(detail: GameDetail, views: ChangeViews) -> str:
    public = views.written(detail.summary, lambda: _public_text(detail))
    if not public.fits(detail):  # not made with the others: written on its own
        return snapshot_text(detail)
    own = {
        "hand": None if detail.hand is None else _hand_data(detail.hand),
        "level": detail.level,
        "viewer_seat": detail.viewer_seat,
        "viewer_cost": detail.viewer_cost,
    }
    return public.head + _text(own)[1:-1] + public.tail


def _command_data(result: PlayResult, events: Sequence[ViewedEvent]) -> dict[str, Any]:
    return {
        "game_id": result.game_id,
        "version": result.version,
        "status": result.status,
        "replayed": result.replayed,
        "events": [event_data(e) for e in events],
    }


def command_json(
    result: PlayResult, events: Sequence[ViewedEvent], views: ChangeViews | None = None
) -> bytes:
    """``command_out(result, events).model_dump_json()``: a command's HTTP answer, its
    bytes written without building the models (FastAPI would build them, check them
    against ``CommandOut`` and write them out again). ``views``: the change's views
    that made ``events``, whose texts are shared with the table's sockets."""
    if views is not None:
        return _with_events(_command_data(result, ()), event_texts(views, events)).encode()
    return _json(_command_data(result, events))


def result_text(
    ref: str,
    result: PlayResult,
    events: Sequence[ViewedEvent],
    views: ChangeViews | None = None,
) -> str:
    """``WsResult(ref=ref, result=command_out(result, events)).model_dump_json()``;
    ``views``: as for ``command_json``."""
    if views is not None:
        message = {"type": "result", "ref": ref, "result": _command_data(result, ())}
        return _with_events(message, event_texts(views, events))
    return _text({"type": "result", "ref": ref, "result": _command_data(result, events)})
