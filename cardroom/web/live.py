"""What keeps a running room live: the WebSockets connected to this process, the
clock, and the fan-out of changes between processes.

After every committed command (a player's request, the clock firing a deadline) the
process that committed calls ``Live.committed(result)``. That

1. wakes the game's WebSockets in this process, each of which then reads what its
   viewer has not seen yet (events and a fresh snapshot, through the per-viewer
   filter) and sends it;
2. publishes ``game_id:last_seq:version`` to the other processes (PostgreSQL
   ``NOTIFY``; see ``cardroom.web.fanout``), whose listeners wake their own sockets
   the same way;
3. pushes the notices the command recorded in its own transaction
   (``PlayResult.notices``) to the users' ``/ws/me`` sockets, in every process;
4. tells the open lobby pages, in every process, to look again when the command
   changed what the lobby lists (``PlayResult.lobby_changed``: a game created,
   joined, left, started, finished...; never an ordinary bet), at most once per
   ``LOBBY_PUSH_SECONDS`` per process however many such commands come;
5. wakes the clock, which may now have a sooner deadline.

A socket reads from the database rather than being handed the events, so a wake is
only a hint: a duplicate (our own NOTIFY coming back) or a lost one (a listener that
reconnected) costs nothing or is made good by the next, and the response and the
broadcast both come from the same committed rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import operator
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, Protocol

from fastapi import Depends, Request

from cardroom.service import deadlines, runner
from cardroom.service.change_views import ChangeViews
from cardroom.service.context import ServiceContext
from cardroom.service.game.commands import Command
from cardroom.service.game.together import Done, Fire
from cardroom.service.game_records import PlayResult
from cardroom.service.game_views import GameChange, change_of, seated_players
from cardroom.web import session_ends, watchers
from cardroom.web.committer import Committer
from cardroom.web.fanout import Fanout, LocalFanout, UserMessage, fanout_for
from cardroom.web.game_answers import event_texts
from cardroom.web.game_reads import SharedRead
from cardroom.web.open_sockets import OpenSockets

log = logging.getLogger(__name__)

# The clock sleeps at most this long: a bound on how late a deadline fires if a wake
# is missed (another process scheduled it, or the system clock jumped).
CLOCK_MAX_SLEEP = 1.0
STOP_TIMEOUT_SECONDS = 5.0
EVERYTHING = 2**62  # a sequence number above any real one: "look, whatever you have"
# Lobby changes heard within this long go to the lobby pages as one message: a busy
# room's joins and starts cost each open lobby one re-read per window, not one each.
LOBBY_PUSH_SECONDS = 0.25
LOBBY_CHANGED: Mapping[str, Any] = {"type": "lobby_changed"}
_SEQ = operator.attrgetter("seq")


class GameWatcher(Protocol):
    """A game's WebSocket: told that the game changed, it catches up by itself."""

    @property
    def viewer_id(self) -> int: ...

    def changed(self, seq: int, version: int) -> None: ...

    def tell(self, message: Mapping[str, Any]) -> None:
        """A table message (chat, watchers) to send as it is."""


class UserWatcher(Protocol):
    """A ``/ws/me`` socket: messages are queued to it as they are."""

    def push(self, message: Mapping[str, Any]) -> None: ...


class Live:
    """This process's live state. Built by ``create_app``; ``start`` and ``stop`` run
    in the app's lifespan, on the event loop. ``committed`` may be called from any
    thread (sync routes run in a worker thread)."""

    def __init__(self, ctx_of: Callable[[], ServiceContext], *, clock: bool) -> None:
        self._ctx_of = ctx_of
        # The context while the app serves: asked of the app once at start, not at
        # every socket's every change (``ctx`` is read several times per command).
        self._ctx: ServiceContext | None = None
        self.clock_enabled = clock
        self.games: dict[int, set[GameWatcher]] = {}
        self.reads: dict[int, SharedRead] = {}  # game -> its sockets' shared read
        self.users: dict[int, set[UserWatcher]] = {}
        self.lobby: set[UserWatcher] = set()  # the /ws/me sockets of open lobby pages
        self._lobby_push: asyncio.TimerHandle | None = None  # the next lobby message
        self.sockets = OpenSockets()  # every socket here, by user and session
        self.fanout: Fanout = LocalFanout()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._clock_wake: asyncio.Event | None = None
        self._clock_at: datetime | None = None  # when the clock looks next (None: now)
        self._deliveries_wake: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._heard: dict[int, tuple[int, int]] = {}  # game -> last (seq, version) heard
        self.fired: list[deadlines.Fired] = []  # what this process's clock fired (tests)
        self.spectators = watchers.Spectators()  # who watches which table (web/watchers.py)
        # Every command on this process's tables (the players', the clock's), committed
        # together (web/committer.py).
        self.committer = Committer(ctx_of, lambda: self.fanout.gathered())

    @property
    def ctx(self) -> ServiceContext:
        ctx = self._ctx
        return self._ctx_of() if ctx is None else ctx

    # -- lifecycle ------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._ctx = self._ctx_of()  # the lifespan has made it: the same until stop
        self._clock_wake = asyncio.Event()
        self._deliveries_wake = asyncio.Event()
        self.fanout = fanout_for(self.ctx.settings.database_url)
        self._tasks.append(asyncio.create_task(self.fanout.listen(self), name="fanout"))
        if self.clock_enabled:
            self._tasks.append(asyncio.create_task(self._run_clock(), name="clock"))
            deliveries = runner.deliver_notices(self._ctx_of, self._deliveries_wake)
            self._tasks.append(asyncio.create_task(deliveries, name="deliveries"))

    async def stop(self) -> None:
        await asyncio.to_thread(self.committer.stop)  # its last batch answered
        for game_id in self.spectators.games_here():  # this process's spectators leave
            self.spectators.here.pop(game_id, None)
            report = self.spectators.report(game_id)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    asyncio.to_thread(self.tell_table, game_id, report), STOP_TIMEOUT_SECONDS
                )
        if self._lobby_push is not None:
            self._lobby_push.cancel()
            self._lobby_push = None
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        if tasks:
            # Bounded: a task that will not end must not keep the server from stopping.
            _, stuck = await asyncio.wait(tasks, timeout=STOP_TIMEOUT_SECONDS)
            for task in stuck:
                log.error("live task %s did not stop", task.get_name())
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                log.error("live task %s failed", task.get_name(), exc_info=task.exception())
        self._loop = None
        self._ctx = None  # a later start (the same app served again) asks anew

    # -- after a commit (any thread) ------------------------------------------------

    def committed(self, result: PlayResult) -> GameChange | None:
        """Tell everyone about a committed change to ``result.game_id``. A replayed
        answer changed nothing and tells nobody. Never raises: the change is
        already committed, and the client must get its answer. Returns the change as
        the game's sockets here get it, when it was made from the command's own
        transaction (no read)."""
        views = self.announce(result)
        return None if views is None else views.change

    def announce(self, result: PlayResult, answering: int | None = None) -> ChangeViews | None:
        """``committed``, returning the change as the sockets here show it to their
        viewers: an answer made from it shares their views (the actor's events are
        filtered and written once for the answer and the actor's socket).
        ``answering``: the viewer an answer is then made for from these views, whose
        events are made (and their JSON written) before the sockets get them: made
        after the sockets are done with the change and let its views go, they would
        be kept until the next."""
        if result.replayed:
            return None
        seq = max(map(_SEQ, result.events), default=0)
        views = None
        try:
            change = self._change_of(result)
            views = None if change is None else ChangeViews(change)
            if views is not None and result.after is not None and result.after.kept:
                # The committer's next command on this table changes this very
                # ``Table``: the views of everyone watching here are made now.
                watching = list(self.games.get(result.game_id, ()))
                views.seal({watcher.viewer_id for watcher in watching}, self.ctx.now())
            if views is not None and answering is not None:
                event_texts(views, views.events(answering, views.change.after_seq))
            seated = None
            if result.after is not None:  # who sits there, from the table as saved
                seated = tuple(sorted([s.player for s in result.after.table.seats.values()]))
            self._threadsafe(self.game_changed, result.game_id, seq, result.version, views, seated)
            if result.lobby_changed:
                self._threadsafe(self.lobby_changed)
        except Exception:
            log.exception("could not announce a change to game %s", result.game_id)
        messages = self._notices(result)
        try:
            game = (result.game_id, seq, result.version)
            self.fanout.publish(self.ctx, self, game, messages, lobby=result.lobby_changed)
        except Exception:
            # A notice is a courtesy, and the other processes' sockets look again on
            # the next change; the move is committed either way.
            log.exception("could not publish a change to game %s", result.game_id)
        self._wake_clock_for(result)
        return views

    def _wake_clock_for(self, result: PlayResult) -> None:
        """Wake the clock if the command set a deadline before the clock's next look
        (it looks at least every ``CLOCK_MAX_SLEEP``): waking it after every command
        cost two reads each (what is due, what is next) for nothing."""
        after = result.after
        if after is None:  # not known: wake
            self.wake_clock()
            return
        planned = self._clock_at
        if after.next_due is not None and (planned is None or after.next_due < planned):
            self.wake_clock()

    def _change_of(self, result: PlayResult) -> GameChange | None:
        """The change from the command's transaction, for sockets watching here; the
        names come from their last read (a newcomer's name is not known: they read)."""
        read = self.reads.get(result.game_id)
        last = None if read is None else read.change
        if last is None:
            return None
        return change_of(result, last.moment.names)

    def _notices(self, result: PlayResult) -> list[UserMessage]:
        """The ``/ws/me`` messages of the notices the command recorded in its own
        transaction (``PlayResult.notices``), and a wake for the deliveries (Web
        Push, email) if any goes further. No database here."""
        messages: list[UserMessage] = []
        wake = False
        for notice in result.notices:
            if notice.live:
                message = notice.to_wire()  # a dict of its own, to add the type to
                message["type"] = "notification"
                messages.append((notice.user_id, message))
            wake = wake or notice.deliver_at is not None
        if wake:
            self._wake(self._deliveries_wake)
        return messages

    def wake_clock(self) -> None:
        self._wake(self._clock_wake)

    def _wake(self, event: asyncio.Event | None) -> None:
        if event is not None:
            self._threadsafe(event.set)

    def _threadsafe(self, callback: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not serving (a script, or the app's lifespan has ended)
        with contextlib.suppress(RuntimeError):  # the loop closed in between
            loop.call_soon_threadsafe(callback, *args)

    # -- on the event loop ----------------------------------------------------------

    def game_changed(
        self,
        game_id: int,
        seq: int,
        version: int,
        views: ChangeViews | None = None,
        seated: tuple[int, ...] | None = None,
    ) -> None:
        """Wake the game's sockets here, and hint the seated players' ``/ws/me``.
        Once per change: our own NOTIFY comes back to us after the direct call.
        ``views``: the change itself, from the committing transaction, as its viewers
        see it (shared with the command's answer); the sockets then need no read
        (changes heard out of order are ignored here, so a seeded change is never
        older than one seeded before it). ``seated``: the players seated now, when
        the committing transaction said (else they are read)."""
        heard = self._heard.get(game_id)
        if heard is not None and seq <= heard[0] and version <= heard[1]:
            return
        if len(self._heard) > 100_000:
            self._heard.clear()  # a bound; forgetting only costs a repeated wake
        self._heard[game_id] = (seq, version)
        self._invalidate(game_id)
        if views is not None and game_id in self.reads:
            self.reads[game_id].seed(views)
        for watcher in list(self.games.get(game_id, ())):
            watcher.changed(seq, version)
        if self.users and seated is not None:
            self._push_hints(game_id, seated)
        elif self.users:
            task = asyncio.create_task(self._hint_players(game_id))
            self._tasks.append(task)
            task.add_done_callback(self._forget)

    def lobby_changed(self) -> None:
        """A listed game changed (here or in another process): the open lobby pages
        here are told ``lobby_changed`` once ``LOBBY_PUSH_SECONDS`` have passed, one
        message for every change heard meanwhile. They then read ``GET /api/games``
        themselves, as the viewer sees it. On the event loop."""
        if self._lobby_push is not None or not self.lobby or self._loop is None:
            return
        self._lobby_push = self._loop.call_later(LOBBY_PUSH_SECONDS, self._push_lobby)

    def _push_lobby(self) -> None:
        self._lobby_push = None
        for watcher in list(self.lobby):
            watcher.push(LOBBY_CHANGED)

    def _forget(self, task: asyncio.Task[None]) -> None:
        if task in self._tasks:
            self._tasks.remove(task)

    async def _hint_players(self, game_id: int) -> None:
        try:
            players = await asyncio.to_thread(seated_players, self.ctx, game_id)
        except Exception:
            log.exception("could not list the players of game %s", game_id)
            return
        self._push_hints(game_id, players)

    def _push_hints(self, game_id: int, players: tuple[int, ...]) -> None:
        for user in players:
            self.push_user(user, {"type": "games_changed", "game_id": game_id})

    def push_user(self, user_id: int, message: Mapping[str, Any]) -> None:
        if session_ends.is_session_end(message):
            self._end_sessions_here(user_id, message)
            return
        for watcher in list(self.users.get(user_id, ())):
            watcher.push(message)

    def tell_user(self, user_id: int, message: Mapping[str, Any]) -> None:
        """A message to the user's ``/ws/me`` sockets in every process, after a commit
        (any thread; it may block on the database to publish). Never raises: it is a
        courtesy, and the pages ask again on their next look."""
        try:
            self.fanout.publish(self.ctx, self, None, [(user_id, message)])
        except Exception:
            log.exception("could not tell user %s", user_id)

    def push_user_soon(self, user_id: int, message: Mapping[str, Any]) -> None:
        """``push_user`` from any thread (the fan-out publishes after a commit)."""
        self._threadsafe(self.push_user, user_id, message)

    def end_sessions(self, user_id: int, message: Mapping[str, Any]) -> None:
        """After a commit that ended sessions of ``user_id`` (any thread; it may
        block on the database to publish): their sockets close here and in every
        other process (``cardroom.web.session_ends``). Never raises: the sessions
        are over already, and a socket that is not told closes at its own recheck."""
        try:
            self.fanout.publish(self.ctx, self, None, [(user_id, message)])
        except Exception:
            log.exception("could not announce the end of sessions of user %s", user_id)

    def _end_sessions_here(self, user_id: int, message: Mapping[str, Any]) -> None:
        """On the event loop: forget what this process proved of the user's sessions
        (another process ended them) and close the matching sockets now."""
        self.ctx.recent_sessions.forget_user(user_id)
        session, keep = session_ends.sessions_of(message)
        code, sentence = session_ends.close_of(message)
        for socket in self.sockets.of(user_id, session, keep):
            task = asyncio.create_task(socket.end(code, sentence))
            self._tasks.append(task)
            task.add_done_callback(self._forget)

    def everything_changed(self) -> None:
        """After a gap in what we heard (a listener reconnected): every local socket
        catches up, whatever it missed."""
        for game_id, watching in list(self.games.items()):
            self._invalidate(game_id)
            for watcher in list(watching):
                watcher.changed(EVERYTHING, EVERYTHING)
        self.lobby_changed()
        for game_id in self.spectators.games_here():  # and the watchers are counted anew
            self._publish_soon(game_id, self.spectators.ask())

    # -- table messages: chat and watchers (never a game change) ---------------------

    def tell_table(self, game_id: int, message: Mapping[str, Any]) -> None:
        """A message to the game's table sockets in every process, after a commit (any
        thread; it may block on the database to publish). Never raises: chat is a
        courtesy, and a page that missed it reads the chat again when it opens."""
        try:
            self.fanout.publish_table(self.ctx, self, (game_id, message))
        except Exception:
            log.exception("could not tell the table of game %s", game_id)

    def table_message_soon(self, game_id: int, message: Mapping[str, Any]) -> None:
        self._threadsafe(self.table_message, game_id, message)

    def table_message(self, game_id: int, message: Mapping[str, Any]) -> None:
        """On the event loop: a table message heard (from this process or another)."""
        kind = message.get("type")
        if kind == watchers.WATCHING_ASK:
            asker = message.get("process")
            if asker != self.spectators.process and game_id in self.spectators.here:
                self._publish_soon(game_id, self.spectators.report(game_id))
            return
        if kind == watchers.WATCHING:
            count = self.spectators.hear(game_id, message)
            if count is None:
                return
            message = watchers.watchers_message(game_id, count)
        for watcher in list(self.games.get(game_id, ())):
            watcher.tell(message)

    def spectating(self, game_id: int, user_id: int, watching: bool) -> None:
        """On the event loop: a socket of ``user_id``, without a seat, opened on the
        game (``watching``) or closed (or its user sat down)."""
        first = game_id not in self.spectators.here
        changed = (
            self.spectators.opened(game_id, user_id)
            if watching
            else self.spectators.closed(game_id, user_id)
        )
        if watching and first:
            self._publish_soon(game_id, self.spectators.ask())
        if changed:
            self._publish_soon(game_id, self.spectators.report(game_id))

    def _publish_soon(self, game_id: int, message: Mapping[str, Any]) -> None:
        """``tell_table`` off the event loop (publishing may wait on the database)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        future = loop.run_in_executor(None, self.tell_table, game_id, message)
        future.add_done_callback(lambda _: None)

    def _invalidate(self, game_id: int) -> None:
        read = self.reads.get(game_id)
        if read is not None:
            read.invalidate()

    def shared_read(self, game_id: int) -> SharedRead:
        """The read the game's sockets in this process share (``game_reads``)."""
        read = self.reads.get(game_id)
        if read is None:
            read = self.reads[game_id] = SharedRead()
        return read

    def watch_game(self, game_id: int, watcher: GameWatcher) -> None:
        self.games.setdefault(game_id, set()).add(watcher)

    def unwatch_game(self, game_id: int, watcher: GameWatcher) -> None:
        watchers = self.games.get(game_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self.games[game_id]
                self.reads.pop(game_id, None)

    def watch_user(self, user_id: int, watcher: UserWatcher) -> None:
        self.users.setdefault(user_id, set()).add(watcher)

    def unwatch_user(self, user_id: int, watcher: UserWatcher) -> None:
        watchers = self.users.get(user_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self.users[user_id]
        self.lobby.discard(watcher)

    def watch_lobby(self, watcher: UserWatcher) -> None:
        """A ``/ws/me`` socket of a lobby page (``?lobby=1``): told ``lobby_changed``
        too (until ``unwatch_user``)."""
        self.lobby.add(watcher)

    # -- the clock --------------------------------------------------------------------

    def fire_and_announce(self, now: datetime | None = None) -> list[deadlines.Fired]:
        """Fire what is due and tell everyone (in a worker thread: both touch the
        database). Each deadline fires once even with several processes: fire_due
        claims each row in the transaction that does its work. The commands go to the
        committer with the players' (a table's commands all take one way, and the
        committer's kept table stays its own), which announces each change in order,
        on its thread, before its next batch changes the table again."""

        def announce(done: Done) -> PlayResult | None:
            if done.refused is not None:
                raise done.refused
            if done.result is not None:
                self.committed(done.result)
            return done.result

        def attempts(
            commands: Sequence[tuple[int, Command, datetime]],
        ) -> list[PlayResult | None]:
            fires = [Fire(game_id, command, at) for game_id, command, at in commands]
            return self.committer.fire_all(fires, announce)

        fired = deadlines.fire_due(self.ctx, now, attempts=attempts)
        self.fired.extend(fired)
        del self.fired[:-1000]
        return fired

    async def _run_clock(self) -> None:
        assert self._clock_wake is not None
        await runner.every_due(
            "the clock",
            self._clock_wake,
            lambda: self.fire_and_announce(),
            lambda: deadlines.next_due(self.ctx),
            self.ctx,
            CLOCK_MAX_SLEEP,
            planned=self._plan_clock,
        )

    def _plan_clock(self, moment: datetime | None) -> None:
        self._clock_at = moment


def live_of(app: Any) -> Live:
    live = app.state.live
    assert isinstance(live, Live), "create_app sets app.state.live"
    return live


async def get_live(request: Request) -> Live:
    return live_of(request.app)


LiveDep = Annotated[Live, Depends(get_live)]
