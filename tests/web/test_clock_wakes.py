"""A command wakes the clock only when it set a deadline before the clock's next
look: the clock looks at least every CLOCK_MAX_SLEEP anyway, and a wake costs two
reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cardroom.service.game_records import AfterCommit, PlayResult
from cardroom.store.models import GameStatus
from cardroom.web.live import Live

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _result(next_due: datetime | None, *, known: bool = True) -> PlayResult:
    after = AfterCommit(None, None, None, 0, next_due) if known else None
    return PlayResult(1, 2, GameStatus.RUNNING, (), after=after)


@pytest.mark.parametrize(
    ("clock_at", "next_due", "known", "wakes"),
    [
        (NOW + timedelta(seconds=1), NOW + timedelta(seconds=30), True, False),  # later
        (NOW + timedelta(seconds=1), NOW + timedelta(milliseconds=200), True, True),  # sooner
        (NOW + timedelta(seconds=1), None, True, False),  # no deadline at all
        (None, NOW + timedelta(seconds=30), True, True),  # the clock is at work: tell it
        (NOW + timedelta(seconds=1), None, False, True),  # not known: wake
    ],
)
def test_the_clock_is_woken_only_for_a_sooner_deadline(
    clock_at: datetime | None, next_due: datetime | None, known: bool, wakes: bool
) -> None:
    live = Live(lambda: None, clock=True)  # type: ignore[arg-type, return-value]
    woken: list[bool] = []
    live.wake_clock = lambda: woken.append(True)  # type: ignore[method-assign]
    live._clock_at = clock_at
    live._wake_clock_for(_result(next_due, known=known))
    assert bool(woken) is wakes
