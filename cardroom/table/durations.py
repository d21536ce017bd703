"""Durations said the way a refusal should say them: "9 minutes 58 seconds"."""

from __future__ import annotations

import math

_UNITS = (("hour", 3600), ("minute", 60), ("second", 1))


def spoken(seconds: float) -> str:
    """``seconds`` in hours, minutes and seconds (no days: the rules speak of
    "24 hours"), largest first, leaving out
    the parts that are zero. Rounded up to the second: a wait said one second too
    short would invite a command that is refused again."""
    left = max(0, math.ceil(seconds))
    if left == 0:
        return "0 seconds"
    parts: list[str] = []
    for name, size in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count} {name}{'' if count == 1 else 's'}")
    return " ".join(parts)
