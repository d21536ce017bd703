"""Equity at the table: after an all-in run-out, every viewer's game detail shows each
shown hand's chance to win by street, from cards everyone has seen; a folded hand is
neither used nor named, and a hand without a run-out shows none."""

from __future__ import annotations

from cardroom.service import lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.views import hand_view
from tests.service.gamekit import detail, players, source


def test_the_table_shows_equity_after_an_all_in_run_out(ctx: ServiceContext) -> None:
    ann, ben, cat = players(ctx, "ann", "ben", "cat")
    game = lobby.create_game(ctx, ann, GameOptions(buy_in=1000, seats=3)).game_id
    lobby.join(ctx, game, ben)
    lobby.join(ctx, game, cat, source=source(4))
    folded: int | None = None
    for _ in range(10):
        table = detail(ctx, game)
        if table.hand is None or not table.hand.running:
            break
        to_act = next(s for s in table.seats if s.seat == table.hand.seat_to_act)
        mine = detail(ctx, game, to_act.user_id)
        assert mine.hand is not None and mine.hand.legal is not None
        if folded is None:
            folded = to_act.seat
            play.act(ctx, game, to_act.user_id, "fold", expected_version=mine.summary.version)
        elif "all_in" in mine.hand.legal.kinds:
            play.act(ctx, game, to_act.user_id, "all_in", expected_version=mine.summary.version)
        else:
            play.act(ctx, game, to_act.user_id, "call", expected_version=mine.summary.version)
    for viewer in (None, ann, ben, cat):
        hand = detail(ctx, game, viewer).hand
        assert hand is not None and not hand.running
        steps = hand.view["equity"]
        assert [s["street"] for s in steps] == ["preflop", "flop", "turn"]
        board = hand.view["board"]
        for step in steps:
            seats = [p["seat"] for p in step["players"]]
            assert folded not in seats and len(seats) == 2
            assert step["exact"] and abs(sum(p["percent"] for p in step["players"]) - 100) < 0.2
            assert step["board"] == board[: {"preflop": 0, "flop": 3, "turn": 4}[step["street"]]]
    # The web shape carries it too.
    from cardroom.web.game_answers import game_out

    shown = game_out(detail(ctx, game, ann)).hand
    assert shown is not None and shown.equity is not None
    assert [step.street for step in shown.equity] == ["preflop", "flop", "turn"]


def test_no_equity_without_a_run_out(ctx: ServiceContext) -> None:
    ann, ben = players(ctx, "ann", "ben")
    game = lobby.create_game(ctx, ann, GameOptions(buy_in=1000, seats=2)).game_id
    lobby.join(ctx, game, ben, source=source(2))
    table = detail(ctx, game)
    assert table.hand is not None and table.hand.view["equity"] is None
    to_act = next(s for s in table.seats if s.seat == table.hand.seat_to_act)
    play.act(ctx, game, to_act.user_id, "fold", expected_version=table.summary.version)
    over = detail(ctx, game)
    assert over.hand is not None and not over.hand.running and over.hand.view["equity"] is None


def test_the_pure_view_leaves_equity_out_unless_asked() -> None:
    from cardroom.actions import Action
    from cardroom.hand import Hand, HandSetup
    from cardroom.rules import preset

    hand = Hand.start(preset("house"), HandSetup.simple([500, 500], 5, 10), list(range(52)))
    hand.act(Action.raise_to(500))
    hand.act(Action.call())
    assert hand.is_over and hand.ran_out
    assert hand_view(hand, None)["equity"] is None
    steps = hand_view(hand, None, equity=True)["equity"]
    assert [s["street"] for s in steps] == ["preflop", "flop", "turn"]
