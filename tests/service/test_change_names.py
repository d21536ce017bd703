"""A change's names (``game_views.change_of``): the last change's own when they name
just who is at the table, else those of them that do; read back, the same."""

from __future__ import annotations

from cardroom.service import game_options, game_views, lobby
from cardroom.service.context import ServiceContext
from tests.service.gamekit import players, source


def test_a_changes_names_are_who_is_at_the_table(ctx: ServiceContext) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    game = lobby.create_game(ctx, alice, game_options.GameOptions(seats=2, buy_in=1000)).game_id
    result = lobby.join(ctx, game, bob, source=source(1))
    read = game_views.change_after(ctx, game, 0).moment.names
    exact = {bob: "bob", alice: "alice"}
    change = game_views.change_of(result, exact)
    assert change is not None
    assert change.moment.names is exact  # shared: nobody changes a moment's names
    assert dict(change.moment.names) == dict(read)
    more = game_views.change_of(result, {alice: "alice", bob: "bob", carol: "carol"})
    assert more is not None
    assert dict(more.moment.names) == dict(read) == {alice: "alice", bob: "bob"}
