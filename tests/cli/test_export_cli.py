"""``cardroom export`` on the room of tests/history/storedkit.py: a player's file is
what they would download, an admin's holds every card, a spectator's only the shown
hands; refusals are a sentence and exit status 2."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import cardroom.cli
from cardroom.cli import main
from cardroom.events import HandShown
from cardroom.history import pokerstars
from cardroom.history.record import replay
from cardroom.service import hand_exports, histories, stored_hands
from cardroom.service.context import ServiceContext
from tests.history.storedkit import Room, stored_room
from tests.history.test_privacy import appears

__all__ = ["stored_room"]

Played = tuple[ServiceContext, Room]


@pytest.fixture(autouse=True)
def offered(monkeypatch: pytest.MonkeyPatch) -> None:
    # Offer the command whether or not the dispatcher lists it yet.
    listed = tuple(cardroom.cli.COMMAND_MODULES)
    if "export_cmd" not in listed:
        monkeypatch.setattr(cardroom.cli, "COMMAND_MODULES", (*listed, "export_cmd"))
    monkeypatch.delenv("CARDROOM_DATABASE_URL", raising=False)


def run(
    capsys: pytest.CaptureFixture[str], ctx: ServiceContext, *argv: str
) -> tuple[int, str, str]:
    try:
        status = main(["export", *argv, "--database-url", ctx.settings.database_url])
    except SystemExit as exit_:  # argparse's own refusals
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_a_players_file_is_what_they_would_download(
    stored_room: Played, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ctx, room = stored_room
    game = room.games[1]
    ann = room.users["ann"]
    for fmt in ("pokerstars", "phh"):
        status, out, _ = run(capsys, ctx, "--game", str(game), "--format", fmt, "--player", "ann")
        assert status == 0
        expected = hand_exports.game_export(ctx, game, fmt, player_id=ann)
        assert out == expected.text
    mine = histories.my_hands(ctx, ann, game_id=game, limit=100).hands
    target = tmp_path / "ann.phhs"
    status, out, _ = run(
        capsys, ctx, "--game", str(game), "--format", "phh", "--player", "ANN", "--output",
        str(target),
    )  # fmt: skip
    assert status == 0
    assert out == (f"Wrote {len(mine)} hands of game {game} to {target} (PHH, as ANN saw them).\n")
    data = tomllib.loads(target.read_text(encoding="utf-8"))
    assert sorted(data[str(k)]["hand"] for k in range(1, len(mine) + 1)) == sorted(
        h.id for h in mine
    )


def test_an_admin_file_holds_every_card_and_a_spectators_only_the_shown_hands(
    stored_room: Played, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx, room = stored_room
    game = room.games[0]
    status, full, _ = run(capsys, ctx, "--game", str(game), "--format", "pokerstars", "--admin")
    assert status == 0
    status, public, _ = run(capsys, ctx, "--game", str(game), "--format", "pokerstars")
    assert status == 0
    for text in (full, public):
        assert text.count("PokerStars Hand #") == len(full.split(pokerstars.HAND_SEPARATOR))
    for admin_text, spectator_text in zip(
        full.split(pokerstars.HAND_SEPARATOR), public.split(pokerstars.HAND_SEPARATOR), strict=True
    ):
        number = int(re.search(r"Hand #(\d+):", admin_text).group(1))  # type: ignore[union-attr]
        hand = replay(stored_hands.hand_record(ctx, number))
        assert all(appears(c, admin_text) for cards in hand.hole for c in cards)
        assert "Dealt to" not in spectator_text
        shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
        for seat, cards in zip(hand.seats, hand.hole, strict=True):
            if seat not in shown:
                assert not any(appears(c, spectator_text) for c in cards)


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--game", "999999", "--format", "phh"], "There is no game 999999."),
        (["--game", "abc", "--format", "phh"], "A game is named by its number, not 'abc'."),
        (["--game", "0", "--format", "phh"], "A game's number is a whole number from 1."),
        (["--game", "{game}", "--format", "phh", "--player", "nobody"],
         "There is no user called 'nobody'."),
        (["--game", "{other}", "--format", "phh", "--player", "ann"],
         "ann was not dealt into any finished hand of game {other}."),
        (["--game", "{game}", "--format", "xml"], "invalid choice: 'xml'"),
        (["--game", "{game}", "--format", "phh", "--player", "ann", "--admin"],
         "not allowed with argument"),
        (["--game", "{game}"], "the following arguments are required: --format"),
        (["--game", "{game}", "--format", "phh", "--output", "{folder}"],
         "is a folder; give a file name."),
    ],
)  # fmt: skip
def test_bad_input_is_a_sentence_and_exit_status_2(
    stored_room: Played,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    argv: list[str],
    sentence: str,
) -> None:
    ctx, room = stored_room
    other = next(
        g
        for g in room.games
        if not histories.my_hands(ctx, room.users["ann"], game_id=g, limit=1).hands
    )
    values = {"game": str(room.games[0]), "other": str(other), "folder": str(tmp_path)}
    status, out, err = run(capsys, ctx, *(a.format(**values) for a in argv))
    assert status == 2 and out == ""
    assert sentence.format(**values) in err
