"""One change as each of its viewers may see it, made once for all of them, and
sealed when its table goes on to the next command.

The committer keeps each table it saved decoded in memory for the table's next
command (``cardroom.service.game.kept_tables``), and that command changes the very
``Table`` object the change's views are made from. So before the next command runs,
the committer seals the change's views (``ChangeViews.seal``): the game as each
viewer watching in this process sees it is made there and then, and the table is
never looked at again. A viewer whose view was not made (a socket that opened
meanwhile) is told so (``Sealed``) and reads the game from the database instead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from cardroom.service.game_details import MomentDetails
from cardroom.service.game_records import GameDetail, StoredEvent
from cardroom.service.game_views import (
    GameChange,
    ViewedEvent,
    ViewerUpdate,
    view_event,
    viewer_seats,
)
from cardroom.views import SEEN_FROM_A_SEAT

_Text = TypeVar("_Text")
_Part = TypeVar("_Part")


class Sealed(LookupError):
    """The change's table went on to the next command before this viewer's view of it
    was made: read the game instead (``game_views.update_for``)."""


@dataclass(slots=True)
class _Seal:
    """Shared by a change's views and the joined views made from them
    (``cardroom.web.game_reads.joined``): sealing one seals both."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    sealed: bool = False
    details: dict[int | None, GameDetail] = field(default_factory=dict)


@dataclass(slots=True)
class ChangeViews:
    """One change as each of its viewers may see it (``game_views.update_from``),
    doing once what several viewers share: each event as seen from one seat of its
    hand (every spectator and every player not dealt in sees it from no seat, and
    every viewer sees an event that shows no hole card alike:
    ``views.SEEN_FROM_A_SEAT``), the part of the game every viewer sees alike
    (``game_details.MomentDetails``: the summary, the seats, the clocks, the
    spectators' hand), made at the first viewer's ``now``, and the JSON the web
    layer writes of what they share (``written``). Held beside the change by the
    process's sockets (``cardroom.web.game_reads``) and by the command's answer. The
    memos are filled from the event loop and the committer's thread at once (a race
    only makes a view or a text twice, alike); what is made from the table is made
    under the seal's lock, so that sealing waits for it."""

    change: GameChange
    _events: dict[tuple[int, int | None], ViewedEvent] = field(default_factory=dict)
    _details: MomentDetails | None = None
    _seal: _Seal = field(default_factory=_Seal)
    # after_seq -> the events after it, when every viewer sees them alike.
    _alike: dict[int, tuple[ViewedEvent, ...]] = field(default_factory=dict)
    # id(part) -> (part, its text): the part is kept with its text, so that its id
    # names no other object while the entry lasts.
    _texts: dict[int, tuple[object, object]] = field(default_factory=dict)

    def events(self, viewer_id: int | None, after_seq: int) -> tuple[ViewedEvent, ...]:
        """The change's events numbered above ``after_seq``, as ``viewer_id`` sees them
        (from the stored events alone: no table)."""
        change = self.change
        if after_seq < change.after_seq:
            raise ValueError("the change starts after what the viewer needs")
        alike = self._alike.get(after_seq)
        if alike is not None:
            return alike
        viewed, alike_to_all = self._viewed(after_seq, viewer_id)
        if alike_to_all:
            # No event asked for depends on the viewer's seat: every viewer who needs
            # the same events gets the one tuple, and its JSON is written once for
            # them all (``cardroom.web.game_answers.events_text``). Asked of the
            # events after ``after_seq`` only: a change joined to the ones before it
            # (``cardroom.web.game_reads.joined``) reaches back over the hole cards
            # of the hand's deal, which its sockets were sent with an earlier change.
            self._alike[after_seq] = viewed
        return viewed

    def _viewed(
        self, after_seq: int, viewer_id: int | None
    ) -> tuple[tuple[ViewedEvent, ...], bool]:
        """The events after ``after_seq`` as ``viewer_id`` sees them, and whether
        every viewer sees them alike (none is seen from a seat: a hole card,
        ``views.SEEN_FROM_A_SEAT``): told by the one walk that views them."""
        viewed = []
        made = self._events
        seats: dict[int, int] | None = None  # the viewer's seat in each hand, once asked
        alike = True
        for event in _numbered_after(self.change, after_seq):
            seat = None
            if event.hand_id is not None and event.kind in SEEN_FROM_A_SEAT:
                alike = False
                if seats is None:
                    seats = viewer_seats(self.change.hand_seats, viewer_id)
                seat = seats.get(event.hand_id)
            view = made.get((event.seq, seat))
            if view is None:
                view = made[event.seq, seat] = view_event(event, seat)
            viewed.append(view)
        return tuple(viewed), alike

    def detail(self, viewer_id: int | None, now: datetime) -> GameDetail:
        """The game once the change has happened, as ``viewer_id`` sees it; once
        sealed, as it was made for them then, or ``Sealed``."""
        seal = self._seal
        with seal.lock:
            if not seal.sealed:
                return self._detail(viewer_id, now)
            made = seal.details.get(viewer_id)
        if made is None:
            raise Sealed(f"the table of game {self.change.moment.game.id} has moved on")
        return made

    def written(self, part: object, write: Callable[[], _Text]) -> _Text:
        """What ``write`` makes of ``part`` (its JSON: ``cardroom.web.game_answers``),
        made once for every viewer who is sent it: ``part`` is something these views
        made and share between viewers (an event's view, the summary of the game),
        and must not change. Made again once the views are forgotten."""
        texts = self._texts
        entry = texts.get(id(part))
        if entry is not None and entry[0] is part:
            return entry[1]  # type: ignore[return-value]
        text = write()
        texts[id(part)] = (part, text)
        return text

    def written_each(self, parts: Sequence[_Part], write: Callable[[_Part], _Text]) -> list[_Text]:
        """``written(part, lambda: write(part))`` for each of ``parts``, in one call."""
        texts = self._texts
        made = []
        for part in parts:
            entry = texts.get(id(part))
            if entry is None or entry[0] is not part:
                entry = texts[id(part)] = (part, write(part))
            made.append(entry[1])
        return made  # type: ignore[return-value]

    def update(self, viewer_id: int | None, after_seq: int, now: datetime) -> ViewerUpdate:
        """``update_from``, sharing what the change's other viewers made."""
        return ViewerUpdate(self.events(viewer_id, after_seq), self.detail(viewer_id, now))

    def seal(self, viewers: Iterable[int | None], now: datetime) -> None:
        """Make the game as each of ``viewers`` sees it, then let the table go: from
        here on the next command may change it."""
        seal = self._seal
        with seal.lock:
            if seal.sealed:
                return
            for viewer_id in viewers:
                seal.details[viewer_id] = self._detail(viewer_id, now)
            seal.sealed = True

    def joined_to(
        self, change: GameChange, events: dict[tuple[int, int | None], ViewedEvent]
    ) -> ChangeViews:
        """These views for ``change``, which ends as this one does and reaches further
        back: sealed with these, sharing what was made from the table."""
        # The events after any number these views were asked from are the same in
        # ``change``, which ends as this one does: what every viewer sees alike of
        # them (the command's answer asked first) is theirs too, not walked again.
        return ChangeViews(
            change,
            events,
            _details=self._details,
            _seal=self._seal,
            _alike=dict(self._alike),
            _texts=dict(self._texts),
        )

    def kept_events(self) -> dict[tuple[int, int | None], ViewedEvent]:
        """The events' views made so far, by event number and seat (a joined change
        keeps them: ``cardroom.web.game_reads.joined``)."""
        return dict(self._events)

    def kept(self) -> int:
        """How many views are kept (events', the public detail, the sealed ones, the
        texts written of them)."""
        kept = len(self._events) + (self._details is not None) + len(self._seal.details)
        return kept + len(self._alike) + len(self._texts)

    def forget(self) -> None:
        """Drop the views made so far (made again if asked for, or read once sealed):
        every viewer has had theirs, and the change is kept until the next one (4 KB
        more per heads-up table while it is)."""
        self._events = {}
        self._alike = {}
        self._details = None
        self._texts = {}
        with self._seal.lock:
            self._seal.details.clear()

    def _detail(self, viewer_id: int | None, now: datetime) -> GameDetail:
        details = self._details
        if details is None:
            details = self._details = MomentDetails(self.change.moment, now)
        return details.detail(viewer_id, now)


def _numbered_after(change: GameChange, after_seq: int) -> Sequence[StoredEvent]:
    """The change's events numbered above ``after_seq``: a slice, as a change's
    events are numbered one by one from ``change.after_seq + 1`` (a sockets' joined
    change may hold up to ``game_reads.JOINED_EVENTS_MAX`` of them, most sent
    already); picked one by one should the numbers say otherwise."""
    events = change.events
    start = after_seq - change.after_seq
    if 0 <= start <= len(events):
        first = events[start].seq if start < len(events) else after_seq + 1
        before = events[start - 1].seq if start > 0 else after_seq
        if first == after_seq + 1 and before == after_seq:
            return events[start:]
    return [e for e in events if e.seq > after_seq]
