"""What notices say."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime

import pytest

from cardroom.notify import messages
from cardroom.notify.messages import Item


def test_your_turn_says_what_is_owed_and_until_when_in_utc() -> None:
    text = messages.your_turn(
        12,
        hand_number=5,
        street="flop",
        to_call=150,
        pot=400,
        pays_money=True,
        due_at=datetime(2026, 1, 15, 20, 5, tzinfo=UTC),
    )
    assert text.title == "Your turn in game 12"
    assert text.body == (
        "Hand 5, flop: $1.50 to call, pot $4.00. Your clock runs out at 20:05 UTC on 15 January."
    )


@pytest.mark.parametrize("month", range(1, 13))
def test_times_are_written_as_strftime_writes_them_in_english(month: int) -> None:
    moment = datetime(2026, month, 3, 7, 9, tzinfo=UTC)
    names = "January February March April May June July August September October November"
    expected = f"07:09 UTC on 3 {[*names.split(), 'December'][month - 1]}"
    assert messages.utc_text(moment) == expected == f"{moment:%H:%M} UTC on 3 {moment:%B}"


def test_your_turn_at_a_points_table_without_a_clock() -> None:
    text = messages.your_turn(
        3, hand_number=1, street="river", to_call=0, pot=1, pays_money=False, due_at=None
    )
    assert text.body == "Hand 1, river: you can check, pot 1 point."


def test_a_tournament_result_names_the_place_and_the_prize() -> None:
    won = messages.tournament_finished(
        4, place=1, players=6, prize=5400, winner_name="alice", you_won=True, pays_money=True
    )
    assert (won.title, won.body) == (
        "Game 4 is over",
        "You won the tournament, out of 6 players, and you take $54.00.",
    )
    lost = messages.tournament_finished(
        4, place=3, players=6, prize=0, winner_name="alice", you_won=False, pays_money=True
    )
    assert lost.body == "alice won the tournament; you finished 3rd of 6."


def test_a_cancellation_gives_the_reason_and_the_refund() -> None:
    text = messages.game_cancelled(
        9, reason="No activity for 72 hours", refund=1000, pays_money=True
    )
    assert text.title == "Game 9 was cancelled"
    assert text.body == "No activity for 72 hours. Your buy-in of $10.00 was refunded."


@pytest.mark.parametrize(
    ("n", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (22, "22nd")]
)
def test_ordinals(n: int, text: str) -> None:
    assert messages.ordinal(n) == text


def test_long_text_is_clipped_to_the_columns() -> None:
    text = messages.game_cancelled(1, reason="x" * 900, refund=0, pays_money=True)
    assert len(text.body) == messages.BODY_MAX and text.body.endswith("…")


def test_text_clips_only_what_is_over_its_column_and_stays_frozen() -> None:
    at_limit, over = "b" * messages.BODY_MAX, "t " * messages.TITLE_MAX
    text = messages.Text(over, at_limit)
    assert text.title == over[: messages.TITLE_MAX - 1].rstrip() + "…"
    assert text.body == at_limit
    assert messages.Text("a", "b") == messages.Text("a", "b")
    with pytest.raises(FrozenInstanceError):
        text.title = "changed"  # type: ignore[misc]


def item(n: int, kind: str = "your_turn", game: int | None = None) -> Item:
    game_id = game if game is not None else n
    return Item(
        n,
        kind,
        game_id,
        f"Your turn in game {game_id}",
        "Hand 1.",
        f"/games/{game_id}",
        f"https://r/games/{game_id}",
    )


def test_one_notice_is_one_push() -> None:
    payload = json.loads(messages.push_payload([item(3)]))
    assert payload == {
        "title": "Your turn in game 3",
        "body": "Hand 1.",
        "url": "/games/3",
        "tag": "game-3",
        "notices": [3],
    }


def test_several_notices_are_one_push_that_leads_to_the_lobby() -> None:
    payload = json.loads(messages.push_payload([item(3), item(4)]))
    assert payload["title"] == "Your turn in 2 games"
    assert payload["body"] == "Your turn in game 3; Your turn in game 4"
    assert payload["url"] == "/"
    assert payload["notices"] == [3, 4]
    mixed = json.loads(messages.push_payload([item(3), item(4, "game_started", game=3)]))
    assert mixed["title"] == "2 updates from Cardroom"
    assert mixed["url"] == "/games/3"  # one game: straight to it


def test_an_email_links_to_the_game_and_to_the_settings() -> None:
    subject, text = messages.email([item(3)], account_link="https://r/account")
    assert subject == "Your turn in game 3"
    assert "Open the table: https://r/games/3" in text
    assert text.endswith("Change that here: https://r/account\n")
    subject, text = messages.email([item(n) for n in range(1, 13)], account_link="https://r/a")
    assert subject == "Your turn in 12 games"
    assert "https://r/games/10" in text and "https://r/games/11" not in text
    assert "- and 2 more in the room." in text


@pytest.mark.parametrize("game_id", [1, 7, 42, 10**9])
def test_a_games_path_is_the_template_filled_in(game_id: int) -> None:
    assert messages.game_path(game_id) == messages.GAME_PATH.format(game_id=game_id)


@pytest.mark.parametrize("amount", [0, 1, 5, 99, 100, 101, 150, 12_345, 100_000, 10**9 + 7])
def test_amounts_in_dollars_and_cents_and_in_points(amount: int) -> None:
    whole, cents = divmod(amount, 100)
    assert messages.amount_text(amount, True) == f"${whole:,}.{cents:02d}"
    points = f"{amount:,} point" + ("" if amount == 1 else "s")
    assert messages.amount_text(amount, False) == points
