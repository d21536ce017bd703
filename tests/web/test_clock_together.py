"""The clock's commands go to the process's committer with the players'
(``Live.fire_and_announce``): a deadline that falls due while a batch runs is fired
in the next batch beside the players' commands queued with it, from the table the
committer kept, and its change reaches the table's watchers."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from cardroom.store.models import Deadline, DeadlineKind
from cardroom.web.live import live_of
from tests.conftest import FakeClock
from tests.web.committer_kit import Gate, check_or_call, together_after
from tests.web.games_kit import detail, heads_up, new_player, watching

TURN_CLOCK = timedelta(seconds=120)  # house


def test_a_deadline_fires_in_the_next_batch_beside_the_players_commands(
    client: TestClient, ctx: ServiceContext, gate: Gate, clock: FakeClock
) -> None:
    live = live_of(client.app)
    started = clock.moment
    timed = [new_player(client, "tim"), new_player(client, "tom")]
    timed_game = heads_up(client, *timed)  # its turn falls due first
    clock.advance(timedelta(seconds=60))
    tables = []
    for n in range(2):
        players = [new_player(client, f"host{n}"), new_player(client, f"guest{n}")]
        tables.append((heads_up(client, *players), players))
    timed_version = detail(client, timed_game, timed[0])["version"]
    kept_before = live.committer.kept.hits
    watcher = new_player(client, "carol")

    with watching(client, timed_game, watcher) as seen:
        held, [fired, acted] = together_after(
            client,
            gate,
            check_or_call(client, *tables[0]),
            [
                lambda: live.fire_and_announce(started + TURN_CLOCK + timedelta(seconds=1)),
                check_or_call(client, *tables[1]),
            ],
        )
        events, _snapshot = seen.until_snapshot()

    assert gate.batches == [1, 2] and gate.clock == [0, 1]
    assert held.status_code == 200 and acted.status_code == 200, (held.text, acted.text)
    [turn] = fired
    assert (turn.game_id, turn.kind) == (timed_game, DeadlineKind.TURN)
    assert turn.result.version == timed_version + 1
    folded = next(e for e in events if e["type"] == "PlayerActed")
    assert folded["data"]["timed_out"]
    assert detail(client, timed_game, timed[1])["version"] == timed_version + 1
    # The deadline's row says what was done: the claim's outcome is written in the
    # batch's transaction too.
    with ctx.transaction() as session:
        stored = session.get(Deadline, turn.deadline_id)
        assert stored is not None and stored.outcome == turn.outcome != ""
    # Each of the three took the table the committer kept since its join.
    assert live.committer.kept.hits - kept_before == 3


def test_a_deadline_fired_alone_keeps_its_outcome(
    client: TestClient, ctx: ServiceContext, clock: FakeClock
) -> None:
    """Alone in its batch the fire takes no savepoint, and what its claim wrote on
    the deadline's row must still reach the commit."""
    live = live_of(client.app)
    game = heads_up(client, new_player(client, "tim"), new_player(client, "tom"))
    [turn] = live.fire_and_announce(clock.moment + TURN_CLOCK + timedelta(seconds=1))
    assert turn.game_id == game and turn.outcome
    with ctx.transaction() as session:
        stored = session.get(Deadline, turn.deadline_id)
        assert stored is not None and stored.outcome == turn.outcome


def test_the_clock_may_still_fire_after_the_committer_stopped(
    client: TestClient, clock: FakeClock
) -> None:
    """The process stops its committer before its clock's last look: a fire queued
    after the stop gets a committer of its own (which waits for the stopped one),
    and is fired and answered, not left waiting."""
    live = live_of(client.app)
    game = heads_up(client, new_player(client, "tim"), new_player(client, "tom"))
    live.committer.stop()
    [turn] = live.fire_and_announce(clock.moment + TURN_CLOCK + timedelta(seconds=1))
    assert turn.game_id == game
    live.committer.stop()
    live.committer.stop()  # stopping twice is stopping once
