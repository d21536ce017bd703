"""A socket reads a client's text through orjson where orjson reads it as json does
(``routes.ws._loads``): the same objects, or the same refusal, as ``json.loads``,
which it read with before. Compared by ``repr``: an integer read as a float, or -0.0
as 0, would be equal and still another answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.web.routes import ws as ws_routes
from cardroom.web.schemas_games import WS_MESSAGE_MAX_CHARS


def _reference(text: str) -> str:
    """What ``_read`` answered with ``json.loads``."""
    if len(text) > WS_MESSAGE_MAX_CHARS:
        return repr(f"A message is at most {WS_MESSAGE_MAX_CHARS} characters.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return repr(ws_routes.NOT_JSON)
    return repr(data if isinstance(data, dict) else ws_routes.NOT_JSON)


def _read(text: str) -> str:
    return repr(ws_routes._read({"text": text}))


EDGES = [
    '{"type":"act","ref":"1","kind":"call","version":12}',
    '{"type":"continue","ref":"r"}',
    '{"a":1,"a":2}',
    '{"x":-0}',
    '{"x":-0.0}',
    '{"x":1e400}',
    '{"x":-1e400}',
    '{"x":1.5e-400}',
    "\ufeff{}",
    '{"a":"\x01"}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"version":123456789012345678901234567890}',
    '{"version":9223372036854775807}',
    '{"version":9223372036854775808}',
    '{"version":18446744073709551616}',
    '{"version":-9223372036854775809}',
    '{"version":-9223372036854775808}',
    '{"version":18446744073709551615}',
    '{"ref":"12345678901234567890123","version":1}',
    '{"a":1.12345678901234567890,"a":1}',
    '{"a":1,"a":12345678901234567890123}',
    '{"a":[12345678901234567890123]}',
    '{"a":true,"b":null,"c":"x","d":-12}',
    '{"version":1234567890123456789.5}',
    '{"a":NaN}',
    '{"a":-Infinity}',
    '{"a":01}',
    '{"a":1.}',
    '{"a":.5}',
    ' {"a":1}\r\n\t',
    '{"a":1}\x0c',
    '{"a":1} x',
    "[1]",
    '"text"',
    "12",
    "",
    "[" * 1100 + "]" * 1100,  # deeper than either reads
    "[" * 900 + "]" * 900,
    '{"a":' * 600 + "1" + "}" * 600,
    "[" * 5000 + "]" * 5000,  # longer than a message may be
    '{"a":"\u2028\x7f\\/"}',
    '{"a":0.1,"b":1E2,"c":true,"d":null,"e":[],"f":{}}',
]


@pytest.mark.parametrize("text", EDGES)
def test_an_edge_reads_as_json_read_it(text: str) -> None:
    assert _read(text) == _reference(text)


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _JSON_VALUES, max_size=5))
def test_any_object_reads_as_json_read_it(data: dict[str, Any]) -> None:
    text = json.dumps(data)
    assert _read(text) == _reference(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]":,0123456789.eE+-tfnrulasNIy \\', max_size=40))
def test_any_text_reads_as_json_read_it(text: str) -> None:
    assert _read(text) == _reference(text)
