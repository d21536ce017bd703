"""``game_records.quick_init``: a frozen record built by the quicker ``__init__`` is the
very record the dataclass's own would build: the same fields in the same order, the
same defaults, equal, frozen."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from cardroom.service.game_records import (
    GameDetail,
    GameSummary,
    HandView,
    LegalActionsView,
    SeatView,
    quick_init,
)
from cardroom.service.game_views import ViewedEvent, ViewerUpdate


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
    [GameSummary, SeatView, LegalActionsView, HandView, GameDetail, ViewedEvent, ViewerUpdate],
)
def test_the_views_records_are_quick_and_frozen(record: type) -> None:
    init = record.__init__
    assert "__dict__" in init.__code__.co_names  # the quick one
    assert "__dataclass_builtins_object__" not in init.__code__.co_names
    assert record.__dataclass_params__.frozen  # type: ignore[attr-defined]
