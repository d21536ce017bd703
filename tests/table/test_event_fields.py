"""``table_event_to_dict`` (field names found once a type) against the generic way,
``dataclasses.fields`` read for each record, for every table record type."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardroom.table.events import _TYPES, table_event_from_dict, table_event_to_dict


def _generic(event: Any) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        return [plain(v) for v in value] if isinstance(value, tuple) else value

    data: dict[str, Any] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        data[field.name] = plain(getattr(event, field.name))
    return data


def test_every_record_type_writes_as_the_generic_way() -> None:
    for number, cls in enumerate(_TYPES.values()):
        values = [
            ((number, 2), (3, 4)) if "tuple" in str(field.type) else number + k
            for k, field in enumerate(dataclasses.fields(cls))
        ]
        event = cls(*values)
        for _ in range(2):  # the names found, then kept
            assert table_event_to_dict(event) == _generic(event)
        assert table_event_from_dict(table_event_to_dict(event)) == event
