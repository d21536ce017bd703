"""A change's views as each viewer asks for them (``change_views.ChangeViews``): the
events of a change joined to the ones before it, as the sockets hold it
(``cardroom.web.game_reads.joined``), are seen alike once the hole cards of the
hand's deal are behind what a viewer asks for, and are always what the per-viewer
filter makes of them."""

from __future__ import annotations

from dataclasses import replace

from cardroom.service import game_views, play
from cardroom.service.change_views import ChangeViews
from cardroom.service.context import ServiceContext
from cardroom.service.game_views import GameChange
from tests.service.gamekit import heads_up, to_act


def _dealt_then_called(ctx: ServiceContext) -> tuple[GameChange, GameChange, int, int]:
    """The first hand's deal (hole cards among its events), then the first call."""
    game, alice, bob = heads_up(ctx)
    dealt = game_views.change_after(ctx, game, 0)
    acting = to_act(ctx, game)
    assert acting is not None
    play.act(ctx, game, acting[0], "call")
    called = game_views.change_after(ctx, game, dealt.moment.last_seq)
    assert called.events and called.after_seq == dealt.moment.last_seq
    return dealt, called, alice, bob


def _joined(older: GameChange, newer: GameChange) -> ChangeViews:
    """``game_reads.joined``'s change: the newer one, reaching back over the older."""
    change = GameChange(
        older.after_seq,
        older.events + newer.events,
        {**older.hand_seats, **newer.hand_seats},
        newer.moment,
    )
    return ChangeViews(newer).joined_to(change, {})


def test_a_joined_change_is_seen_alike_after_its_hole_cards(ctx: ServiceContext) -> None:
    dealt, called, alice, bob = _dealt_then_called(ctx)
    assert any(e.kind == "HoleCardDealt" for e in dealt.events)
    views = _joined(dealt, called)
    now = ctx.now()
    after = called.after_seq
    seen = [views.events(v, after) for v in (alice, bob, None)]
    # The one tuple for every viewer: its JSON is written once for them all.
    assert seen[0] is seen[1] is seen[2]
    for viewer in (alice, bob, None):
        assert views.events(viewer, after) == (
            game_views.update_from(called, viewer, after, now).events
        )
    # From before the deal, each seat still sees its own hole cards.
    mine, theirs = views.events(alice, 0), views.events(bob, 0)
    assert mine != theirs
    assert mine == game_views.update_from(dealt, alice, 0, now).events + seen[0]


def test_events_numbered_out_of_step_are_picked_one_by_one(ctx: ServiceContext) -> None:
    """A change whose numbers do not run one by one from its ``after_seq`` (none
    does; should one) still gives exactly the events numbered above what is asked."""
    dealt, _, alice, _ = _dealt_then_called(ctx)
    gapped = replace(dealt, events=dealt.events[:3] + dealt.events[4:])
    now = ctx.now()
    for after in range(len(dealt.events) + 2):
        wanted = tuple(e.seq for e in gapped.events if e.seq > after)
        events = ChangeViews(gapped).events(alice, after)
        assert tuple(e.seq for e in events) == wanted, after
        assert events == game_views.update_from(gapped, alice, after, now).events


def test_a_joined_change_keeps_what_every_viewer_saw_alike(ctx: ServiceContext) -> None:
    """The command's answer asks the change's own views first; the sockets' joined
    views then hand out the very tuple made for it, not a walk of their own, and
    from before the deal each seat still sees its own hole cards."""
    dealt, called, alice, bob = _dealt_then_called(ctx)
    own = ChangeViews(called)
    after = called.after_seq
    answered = own.events(alice, after)
    change = GameChange(
        dealt.after_seq,
        dealt.events + called.events,
        {**dealt.hand_seats, **called.hand_seats},
        called.moment,
    )
    joined = own.joined_to(change, own.kept_events())
    now = ctx.now()
    for viewer in (alice, bob, None):
        assert joined.events(viewer, after) is answered
        assert answered == game_views.update_from(called, viewer, after, now).events
    assert joined.events(alice, 0) == game_views.update_from(change, alice, 0, now).events
    assert joined.events(bob, 0) == game_views.update_from(change, bob, 0, now).events
    assert joined.events(alice, 0) != joined.events(bob, 0)
