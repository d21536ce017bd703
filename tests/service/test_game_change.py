"""A command's change as its transaction hands it over (``change_of``) is exactly
what reading it back after the commit gives (``change_after``), for every viewer:
the committing process's sockets skip the read and must not see anything else."""

from __future__ import annotations

from cardroom.service import game_details, game_options, game_views, lobby, play
from cardroom.service.context import ServiceContext
from tests.service.gamekit import players, source


def test_a_change_from_the_transaction_equals_the_change_read_back(
    ctx: ServiceContext,
) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    rng = source(3)
    game = lobby.create_game(ctx, alice, game_options.GameOptions(seats=2, buy_in=1000)).game_id
    lobby.join(ctx, game, bob, source=rng)
    names = {alice: "alice", bob: "bob", carol: "carol"}
    compared = seeded = 0
    for _ in range(60):
        seen = game_details.game_detail(ctx, game)
        if seen.hand is not None and seen.hand.running:
            player = next(s.user_id for s in seen.seats if s.seat == seen.hand.seat_to_act)
            legal = game_details.game_detail(ctx, game, player).hand.legal  # type: ignore[union-attr]
            assert legal is not None
            kind = "call" if "call" in legal.kinds else "check"
            if compared % 7 == 3 and "raise" in legal.kinds:
                result = play.act(ctx, game, player, "raise", legal.min_to, source=rng)
            else:
                result = play.act(ctx, game, player, kind, source=rng)
        else:
            result = play.press_continue(ctx, game, [alice, bob][compared % 2], source=rng)
        compared += 1
        change = game_views.change_of(result, names)
        if change is None:
            continue
        seeded += 1
        read = game_views.change_after(ctx, game, change.after_seq)
        now = ctx.now()
        for viewer in (alice, bob, carol, None):
            assert game_views.update_from(change, viewer, change.after_seq, now) == (
                game_views.update_from(read, viewer, change.after_seq, now)
            ), (viewer, [e.kind for e in result.events])
            assert game_views.result_events(ctx, result, viewer, change.hand_seats) == (
                game_views.result_events(ctx, result, viewer)
            )
    assert seeded >= 40, (seeded, compared)


def test_no_change_without_every_name(ctx: ServiceContext) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, game_options.GameOptions(seats=2, buy_in=1000)).game_id
    result = lobby.join(ctx, game, bob, source=source(1))
    assert game_views.change_of(result, {alice: "alice"}) is None
    assert game_views.change_of(result, {alice: "alice", bob: "bob"}) is not None
