"""One read per change per process, shared by every socket watching the game.

After a command the game's sockets all need the same thing: the events they have not
seen and the table as it is now, each through its own viewer's filter. Reading it
once per socket made a two-player table cost two reads per action and a table with
spectators more; the read, not the filter, is the cost (docs/benchmarks.md, "Load
test"). So the first socket woken by a change reads the game once
(``game_views.change_after``, from the oldest event any of the game's sockets
lacks), and the others, waiting on the same lock, find that read fresh and only
filter it (``game_views.update_from``, no database).

In the process that made the change there is not even that read: the command's
transaction hands its result over (``seed``, from ``game_views.change_of``).

Nor is what the viewers share filtered once per socket: the read is kept as a
``change_views.ChangeViews``, which makes each event's view from one seat and the
part of the table every viewer sees alike once for all the game's sockets here (and
for the command's answer, in the process that made the change).

A seeded change reaches back over the one seeded before it when they meet (the
first ends at the event the second starts after): under load the event loop may
wake a table's sockets only after the next command was committed, and a socket
still short of the first change would otherwise read both from the database. Up to
``JOINED_EVENTS_MAX`` events are kept so; a socket further behind reads.

A read is fresh for a socket if it began after the socket's wake: every wake
(``invalidate``) moves the game's epoch on, and a read remembers the epoch it began
in. A wake that comes during a read therefore causes one more read, never a stale
answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from cardroom.service.change_views import ChangeViews
from cardroom.service.context import ServiceContext
from cardroom.service.game_views import GameChange, change_after

# A seeded change joined to the ones before it holds at most this many events: a few
# hands of heads-up play, about as many as one page of a read.
JOINED_EVENTS_MAX = 64


class SharedRead:
    """The last read of one game in this process, and the lock that makes one read
    serve every socket woken by the same change."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.epoch = 0  # moves on at every wake
        self.views: ChangeViews | None = None  # the last read, as its viewers see it
        self.read_in_epoch = -1  # the epoch the last read began in

    def invalidate(self) -> None:
        self.epoch += 1

    @property
    def change(self) -> GameChange | None:
        return None if self.views is None else self.views.change

    def seed(self, views: ChangeViews) -> None:
        """The change a command in this process made, as fresh as a read begun now:
        the sockets woken for it filter it without reading (``Live.committed``),
        joined to the change before it when they meet."""
        before = self.views
        if before is not None:
            views = joined(before, views)
        self.views, self.read_in_epoch = views, self.epoch

    def fresh(self, after_seq: int) -> ChangeViews | None:
        """What ``after`` would answer a caller woken by now without waiting: the last
        read, if it began after the last wake, holds every event after
        ``after_seq`` and no read is under way; else None (await ``after``). The
        usual case of a change made here (``seed``), without ``after``'s coroutine
        and its lock's: two sockets or more per change."""
        views = self.views
        if (
            views is not None
            and self.read_in_epoch >= self.epoch
            and views.change.after_seq <= after_seq
            and not self.lock.locked()
        ):
            return views
        return None

    async def after(
        self,
        ctx: ServiceContext,
        game_id: int,
        after_seq: int,
        oldest_needed: Callable[[], int],
    ) -> ChangeViews:
        """A read of the game that began after the caller's wake and holds every
        event after ``after_seq``; ``oldest_needed``: the lowest ``after_seq`` of the
        game's sockets, so the one read serves them all."""
        woken_in = self.epoch
        async with self.lock:
            views = self.views
            fresh = views is not None and self.read_in_epoch >= woken_in
            if fresh and views is not None and views.change.after_seq <= after_seq:
                return views
            began_in = self.epoch
            start = min(after_seq, oldest_needed())
            change = await asyncio.to_thread(change_after, ctx, game_id, start)
            views = ChangeViews(change)
            if began_in >= self.read_in_epoch:  # a change seeded meanwhile is newer
                self.views, self.read_in_epoch = views, began_in
            return views


def joined(before: ChangeViews, after: ChangeViews) -> ChangeViews:
    """``after``, reaching back over ``before`` when ``before`` ends at the event
    ``after`` starts after (nothing between them was missed) and the two hold at most
    ``JOINED_EVENTS_MAX`` events; else ``after`` as it is. The views ``before`` made
    of its events are kept."""
    older, newer = before.change, after.change
    if older.moment.last_seq != newer.after_seq or not older.events:
        return after
    if len(older.events) + len(newer.events) > JOINED_EVENTS_MAX:
        return after
    change = GameChange(
        older.after_seq,
        older.events + newer.events,
        {**older.hand_seats, **newer.hand_seats},
        newer.moment,
    )
    return after.joined_to(change, {**before.kept_events(), **after.kept_events()})
