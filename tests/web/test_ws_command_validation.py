"""A socket's command message is validated by its model's pydantic validator called
straight (``socket_commands._VALIDATORS``): the same model, or the same errors, as
``model_validate``, which it was validated with before."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from cardroom.web import socket_commands

MESSAGES: list[dict[str, Any]] = [
    {"type": "act", "ref": "1", "kind": "call", "version": 12},
    {"type": "act", "ref": "r", "kind": "raise", "amount": 40, "version": 3},
    {"type": "act", "ref": "r", "kind": "bet", "amount": 2**53, "version": 3},
    {"type": "act", "ref": "r", "kind": "check", "version": 3, "idempotency_key": "k"},
    {"type": "act", "ref": "r", "kind": "check", "version": 3, "idempotency_key": "a\x01"},
    {"type": "act", "ref": "", "kind": "check", "version": 3},
    {"type": "act", "ref": "x" * 65, "kind": "check", "version": 3},
    {"type": "act", "ref": "r", "kind": "nap", "version": 3},
    {"type": "act", "ref": "r", "kind": "call", "version": "3"},
    {"type": "act", "ref": "r", "kind": "call", "version": True},
    {"type": "act", "ref": "r", "kind": "call", "version": 0},
    {"type": "act", "ref": "r", "kind": "call"},
    {"type": "act", "ref": "r", "kind": "call", "version": 1, "seat": 2},
    {"type": "continue", "ref": "r"},
    {"type": "continue", "ref": "r", "version": 9, "idempotency_key": "k"},
    {"type": "continue", "ref": 5},
    {"type": "continue"},
]


def _outcome(validate: Any, data: dict[str, Any]) -> Any:
    try:
        return validate(data)
    except ValidationError as invalid:
        return invalid.errors()


def _same_as_model_validate(data: dict[str, Any]) -> None:
    model = socket_commands.COMMANDS[data["type"]]
    straight = socket_commands._VALIDATORS[data["type"]].validate_python
    assert _outcome(straight, data) == _outcome(model.model_validate, data)


@pytest.mark.parametrize("data", MESSAGES)
def test_a_command_message_validates_as_model_validate_validates_it(
    data: dict[str, Any],
) -> None:
    _same_as_model_validate(data)


_VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["act", "continue"]),
    st.dictionaries(
        st.sampled_from(["ref", "kind", "amount", "version", "idempotency_key", "extra"]),
        _VALUES | st.sampled_from(["call", "check", "raise", "r"]),
    ),
)
def test_any_command_message_validates_as_model_validate_validates_it(
    kind: str, fields: dict[str, Any]
) -> None:
    _same_as_model_validate({"type": kind, **fields})
