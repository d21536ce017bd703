"""The JSON the database's JSON columns hold, written and read by orjson.

Every command writes its table's whole state as JSON (about 3 KB for two players in
a hand) and its events' payloads; the standard library's encoder took about 30 us for
the table alone and orjson takes about 4 (docs/benchmarks.md, "JSON through
orjson"). The text is compact (no spaces after ``,`` and ``:``); what it decodes to
is the same. Types the standard encoder refuses stay refused (dates, dataclasses:
a column's value is plain JSON data, never an object that happens to encode), and a
value orjson cannot hold (a whole number past 64 bits) goes through the standard
library as before.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# Dates and dataclasses are handed to ``default`` (there is none, so they are
# refused, as json.dumps refuses them).
_REFUSED = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
# Keys that are not strings become strings, as json.dumps makes them. orjson checks
# every key for this option, about a third of its time on a table's state, whose keys
# are all strings: a value is written without it first, and with it only if a key is
# not a string (orjson refuses such a key then; it writes every other value the same
# either way).
_OPTIONS = _REFUSED | orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=_REFUSED).decode()
    except orjson.JSONEncodeError:
        pass  # a key that is not a string, or what follows
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        # An integer past 64 bits, or a type no JSON holds: the standard library
        # writes the first and refuses the second with its own error.
        return json.dumps(value)


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)  # its NaN and big integers, or its own error
