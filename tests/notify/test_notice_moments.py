"""A turn notice's moment as text (``decide.iso_text``): what ``isoformat`` writes,
for every moment, in UTC or not, with microseconds or none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from cardroom.service.notices.decide import iso_text

ZONES = st.sampled_from(
    [UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5, minutes=-30))]
)


@given(st.datetimes(timezones=ZONES))
def test_a_moment_reads_as_isoformat_writes_it(moment: datetime) -> None:
    assert iso_text(moment) == moment.isoformat()
    whole = moment.replace(microsecond=0)
    assert iso_text(whole) == whole.isoformat()


def test_the_edges_of_the_calendar() -> None:
    for moment in (
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
        datetime(2026, 12, 4, 21, 50, tzinfo=UTC),
    ):
        assert iso_text(moment) == moment.isoformat()
