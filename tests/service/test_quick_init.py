"""``game_records.quick_init``: a frozen record built by the quicker ``__init__`` is the
very record the dataclass's own would build: the same fields in the same order, the
same defaults, equal, frozen."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from cardroom.service.game.commands import Command
from cardroom.service.game.together import Done, Fire, Queued
from cardroom.service.game.who import Player
from cardroom.service.game_records import (
    AfterCommit,
    GameDetail,
    GameSummary,
    HandView,
    LegalActionsView,
    PlayResult,
    SeatView,
    StoredEvent,
    Wanted,
    quick_init,
)
from cardroom.service.game_views import ViewedEvent, ViewerUpdate

# The records every command makes on its way through the batch (issue 21).
COMMAND_RECORDS = [
    Queued,
    Fire,
    Done,
    Command,
    Player,
    StoredEvent,
    PlayResult,
    AfterCommit,
    Wanted,
]


@dataclass(frozen=True)
class _Plain:
    a: int
    b: str
    c: bool = False
    d: dict[str, Any] = field(default_factory=dict)


@quick_init
@dataclass(frozen=True)
class _Quick:
    a: int
    b: str
    c: bool = False
    d: dict[str, Any] = field(default_factory=dict)


def test_a_quick_record_is_the_dataclass_own() -> None:
    for args, kwargs in [((1, "x"), {}), ((1, "x", True), {}), ((1, "x"), {"d": {"k": 1}})]:
        plain, quick = _Plain(*args, **kwargs), _Quick(*args, **kwargs)
        assert dataclasses.asdict(plain) == dataclasses.asdict(quick)
        assert list(vars(plain)) == list(vars(quick)) == ["a", "b", "c", "d"]
        assert orjson.dumps(plain) == orjson.dumps(quick)
    assert _Quick(1, "x", c=True).c is True
    assert _Quick(1, "x").d == {} and _Quick(1, "x").d is not _Quick(1, "x").d
    assert _Quick(1, "x") == _Quick(1, "x") != _Quick(2, "x")
    assert hash(SeatView(1, 2, "n", 3, False, False, None, 0, True, False, 0, False, True)) == hash(
        SeatView(1, 2, "n", 3, False, False, None, 0, True, False, 0, False, True)
    )
    assert dataclasses.replace(_Quick(1, "x"), b="y") == _Quick(1, "y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        _Quick(1, "x").a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        _Quick(1)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "record",
    [
        *(GameSummary, SeatView, LegalActionsView, HandView, GameDetail),
        *(ViewedEvent, ViewerUpdate, *COMMAND_RECORDS),
    ],
)
def test_the_views_records_are_quick_and_frozen(record: type) -> None:
    init = record.__init__
    assert "__dict__" in init.__code__.co_names  # the quick one
    assert "__dataclass_builtins_object__" not in init.__code__.co_names
    assert record.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize("record", COMMAND_RECORDS)
def test_a_command_record_holds_its_fields_as_the_dataclass_would(record: type) -> None:
    """Every field given, then only the required ones: the instance's dict is the
    fields in order, each the value given or its default (a fresh one from a
    factory), as the dataclass's own ``__init__`` sets them."""
    fields = dataclasses.fields(record)
    given = {f.name: object() for f in fields}
    built = record(*given.values())
    assert vars(built) == given and list(vars(built)) == [f.name for f in fields]
    assert record(**given) == built
    required = {
        f.name: given[f.name]
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    bare = record(**required)
    for f in fields:
        if f.name in required:
            assert getattr(bare, f.name) is required[f.name]
        elif f.default is not dataclasses.MISSING:
            assert getattr(bare, f.name) is f.default
        else:
            assert getattr(bare, f.name) == f.default_factory()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, fields[0].name, 1)
