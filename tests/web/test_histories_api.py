"""Hand histories over HTTP, on the room of tests/history/storedkit.py: a player's
hands and games, a hand for its player, another player and an admin, downloads with
their file names, the deck proof that `cardroom verify` accepts, and a sentence for
every bad request."""

from __future__ import annotations

import json
import tomllib
import warnings
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from cardroom.cards import card_text
from cardroom.cli import main
from cardroom.events import HandShown
from cardroom.history.privacy import viewer_named
from cardroom.history.record import replay
from cardroom.service import histories, stored_hands
from cardroom.service.context import ServiceContext
from cardroom.store.models import HandRecord as HandRow
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from cardroom.web.schemas_histories import HandHistoryOut, ProofOut
from tests.history.storedkit import Room, stored_room
from tests.history.test_privacy import appears, secret_cards
from tests.web.kit import assert_refused, bearer, sign_in

__all__ = ["stored_room"]

Played = tuple[ServiceContext, Room]
Json = dict[str, Any]


@pytest.fixture(scope="module")
def web(stored_room: Played) -> Iterator[tuple[TestClient, Room, dict[str, dict[str, str]]]]:
    """The app over the room, and a signed-in header for each player and the admin."""
    ctx, room = stored_room
    app: FastAPI = create_app(ctx, web=WebSettings(trust_proxy=False))
    with TestClient(app) as client:
        headers = {name: bearer(sign_in(client, name)) for name in [*room.users, "boss"]}
        yield client, room, headers


Web = tuple[TestClient, Room, dict[str, dict[str, str]]]


def get(client: TestClient, url: str, who: dict[str, str], status: int = 200) -> Any:
    response = client.get(url, headers=who)
    assert response.status_code == status, response.text
    return response


def test_the_history_page_has_every_game_with_its_last_ten_hands(
    web: Web, stored_room: Played
) -> None:
    client, room, headers = web
    ctx, _ = stored_room
    for name in ("ann", "bob", "cyd", "fay"):
        user_id = room.users[name]
        body = get(client, "/api/me/history", headers[name]).json()
        expected = histories.my_history(ctx, user_id)
        assert [g["game_id"] for g in body["games"]] == [g.game_id for g in expected.games]
        for game, known in zip(body["games"], expected.games, strict=True):
            assert [h["id"] for h in game["hands"]] == [h.id for h in known.hands]
            assert len(game["hands"]) == min(10, game["hands_played"])
            for hand in game["hands"]:
                assert len(hand["cards"]) == 2 and isinstance(hand["cards"][0], str)
                assert hand["deck_root"] and len(hand["deck_root"]) == 64
    body = get(client, "/api/me/history?games=1&per_game=2", headers["ann"]).json()
    assert len(body["games"]) == 1 and len(body["games"][0]["hands"]) == 2
    assert body["next_before"] is not None


def test_my_hands_page_by_page_and_by_game(web: Web, stored_room: Played) -> None:
    client, room, headers = web
    ctx, _ = stored_room
    seen: list[int] = []
    url = "/api/me/hands?limit=5"
    while True:
        body = get(client, url, headers["ann"]).json()
        seen.extend(h["id"] for h in body["hands"])
        if body["next_before"] is None:
            break
        url = f"/api/me/hands?limit=5&before={body['next_before']}"
    assert seen == [h.id for h in histories.my_hands(ctx, room.users["ann"], limit=100).hands]
    game = room.games[1]
    body = get(client, f"/api/me/hands?game_id={game}&limit=100", headers["ann"]).json()
    assert body["hands"] and {h["game_id"] for h in body["hands"]} == {game}


def test_a_hand_as_its_player_another_player_and_an_admin(web: Web, stored_room: Played) -> None:
    client, room, headers = web
    ctx, _ = stored_room
    # (the service-level scan of tests/history/test_stored_privacy.py reads every hand;
    # here, the wire: hands with a showdown, where shown and mucked cards meet, and some
    # won before one)
    records = {h: stored_hands.hand_record(ctx, h) for h in room.hands}
    hands = {h: replay(r) for h, r in records.items()}
    showdowns = [h for h in room.hands if any(isinstance(e, HandShown) for e in hands[h].events)]
    others = [h for h in room.hands if h not in showdowns]
    checked = 0
    for hand_id in showdowns[:8] + others[:4]:
        record, hand = records[hand_id], hands[hand_id]
        dealt = set(record.names.values())
        outsider = next(name for name in room.users if name not in dealt)
        for name in [*(record.names[s] for s in hand.seats), outsider]:
            body = get(client, f"/api/hands/{hand_id}", headers[name]).json()
            HandHistoryOut.model_validate(body)
            viewer = viewer_named(record, name)
            # the scan reads cards; the root is hexadecimal ("7d" may be in it)
            text = json.dumps({k: v for k, v in body.items() if k != "deck_root"})
            for card in secret_cards(hand, viewer):
                assert not appears(card, text), (hand_id, name)
            mine = next((p for p in body["players"] if p["name"] == name), None)
            if mine is not None:
                own = hand.hole[hand.seats.index(mine["seat"])]
                assert mine["cards"] == [card_text(c) for c in own]
                assert body["viewer_seat"] == mine["seat"]
            else:
                assert body["viewer"] == "observer" and body["viewer_seat"] is None
            checked += 1
        # every action with its time; the hand's setup; the root
        times = [datetime.fromisoformat(a["at"]) for a in body["actions"]]
        assert times == [a.at for a in record.actions]
        assert body["deck_root"] == record.deck_root.hex()  # type: ignore[union-attr]
        assert body["button_seat"] == record.setup.button_seat
    assert checked > 30
    hand_id = room.hands[0]
    full = get(client, f"/api/hands/{hand_id}?full=true", headers["boss"]).json()
    assert full["full"] and all(p["cards"] for p in full["players"])
    refused = get(client, f"/api/hands/{hand_id}?full=true", headers["ann"], 403)
    assert (
        assert_refused(refused, 403, "forbidden") == "Only an admin can see every card of a hand."
    )


def test_the_root_is_in_the_table_events_before_the_first_card(
    web: Web, stored_room: Played
) -> None:
    client, room, headers = web
    ctx, _ = stored_room
    with ctx.transaction() as session:
        roots = {i: root for i, root in session.execute(select(HandRow.id, HandRow.deck_root))}
    for game in room.games:
        events = get(client, f"/api/games/{game}/events", headers["boss"]).json()["events"]
        by_hand: dict[int, list[Json]] = {}
        for event in events:
            if event["hand_id"] is not None:
                by_hand.setdefault(event["hand_id"], []).append(event)
        for hand_id, steps in by_hand.items():
            kinds = [e["type"] for e in steps]
            # (a per-hand table's buy-ins come first)
            assert kinds.index("HandDealt") + 1 == kinds.index("DeckCommitted"), kinds[:6]
            assert kinds.index("DeckCommitted") < kinds.index("BlindPosted")
            assert kinds.index("DeckCommitted") < kinds.index("HoleCardDealt")
            assert steps[kinds.index("DeckCommitted")]["data"]["root"] == roots[hand_id]
    hand_id = room.hands[0]
    body = get(client, f"/api/hands/{hand_id}", headers["boss"]).json()
    assert body["deck_root"] == roots[hand_id]


def test_downloads_come_as_files_with_their_names(web: Web, stored_room: Played) -> None:
    client, room, headers = web
    ctx, _ = stored_room
    hand_id = histories.my_hands(ctx, room.users["ann"], limit=1).hands[0].id
    stars = get(client, f"/api/hands/{hand_id}/export?format=pokerstars", headers["ann"])
    assert stars.headers["content-type"].startswith("text/plain")
    assert (
        stars.headers["content-disposition"]
        == f'attachment; filename="cardroom-hand-{hand_id}.txt"'
    )
    assert stars.text.startswith(f"PokerStars Hand #{hand_id}:")
    assert "Dealt to ann [" in stars.text
    phh = get(client, f"/api/hands/{hand_id}/export?format=phh", headers["ann"])
    assert phh.headers["content-type"].startswith("application/toml")
    assert phh.headers["content-disposition"].endswith(f'filename="cardroom-hand-{hand_id}.phh"')
    assert tomllib.loads(phh.text)["hand"] == hand_id
    game = room.games[0]
    whole = get(client, f"/api/games/{game}/export?format=phh", headers["ann"])
    assert whole.headers["content-disposition"].endswith(f'filename="cardroom-game-{game}.phhs"')
    mine = histories.my_hands(ctx, room.users["ann"], game_id=game, limit=100).hands
    assert len(tomllib.loads(whole.text)) == len(mine)
    full = get(client, f"/api/games/{game}/export?format=pokerstars&full=true", headers["boss"])
    assert full.text.count("PokerStars Hand #") == len(
        [h for h in room.hands if stored_hands.hand_record(ctx, h).table.endswith(f" {game}")]
    )


def test_a_downloaded_proof_passes_cardroom_verify(
    web: Web, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, _room, headers = web
    body = get(client, "/api/me/hands?limit=3", headers["eve"]).json()
    for hand in body["hands"]:
        response = get(client, f"/api/hands/{hand['id']}/proof", headers["eve"])
        assert response.headers["content-type"].startswith("application/json")
        name = f"cardroom-hand-{hand['id']}-proof.json"
        assert response.headers["content-disposition"] == f'attachment; filename="{name}"'
        document = ProofOut.model_validate(response.json())
        assert document.root == hand["deck_root"]
        path = tmp_path / name
        path.write_bytes(response.content)
        assert main(["verify", str(path)]) == 0
        assert "Verified: all" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("url", "status", "sentence"),
    [
        ("/api/hands/999999", 404, "There is no hand 999999."),
        ("/api/hands/0", 422, "'hand_id' must be at least 1."),
        ("/api/hands/abc", 422, "'hand_id' must be a whole number."),
        ("/api/hands/{hand}/export", 422, "'format' is required."),
        ("/api/hands/{hand}/export?format=xml", 422, "'format' must be 'phh' or 'pokerstars'."),
        ("/api/games/{game}/export?format=doc", 422, "'format' must be 'phh' or 'pokerstars'."),
        ("/api/games/999999/export?format=phh", 404, "There is no game 999999."),
        ("/api/hands/999999/proof", 404, "There is no hand 999999."),
        ("/api/hands/{running}", 409, "Hand {running} is still being played"),
        ("/api/hands/{running}/proof", 409, "Hand {running} is still being played"),
        ("/api/me/hands?limit=0", 422, "'limit' must be at least 1."),
        ("/api/me/hands?limit=101", 422, "'limit' must be at most 100."),
        ("/api/me/hands?game_id=999999", 404, "There is no game 999999."),
        ("/api/me/history?per_game=0", 422, "'per_game' must be at least 1."),
        ("/api/hands/{hand}?full=maybe", 422, "'full' must be true or false."),
    ],
)
def test_bad_requests_get_a_sentence(web: Web, url: str, status: int, sentence: str) -> None:
    client, room, headers = web
    values = {"hand": room.hands[0], "game": room.games[0], "running": room.running[0]}
    response = client.get(url.format(**values), headers=headers["ann"])
    codes = {404: "not_found", 409: "conflict", 422: "invalid_input"}
    message = assert_refused(response, status, codes[status])
    assert message.startswith(sentence.format(**values)), message


def test_other_refusals(web: Web, stored_room: Played) -> None:
    client, room, headers = web
    ctx, _ = stored_room
    # a game ann never played: nothing of hers to download
    game = next(
        g
        for g in room.games
        if not histories.my_hands(ctx, room.users["ann"], game_id=g, limit=1).hands
    )
    message = assert_refused(
        get(client, f"/api/games/{game}/export?format=phh", headers["ann"], 404), 404, "not_found"
    )
    assert message == f"You were not dealt into any finished hand of game {game}."
    # an observer of a hand won before the flop saw no card: no proof
    for hand_id in room.hands:
        record = stored_hands.hand_record(ctx, hand_id)
        hand = replay(record)
        if hand.board or any(isinstance(e, HandShown) for e in hand.events):
            continue
        outsider = next(n for n in room.users if n not in record.names.values())
        response = client.get(f"/api/hands/{hand_id}/proof", headers=headers[outsider])
        assert "nothing to prove" in assert_refused(response, 404, "not_found")
        break
    else:
        pytest.fail("no hand won before the flop")
    # signed out
    assert client.get("/api/me/hands").status_code == 401
    assert client.get(f"/api/hands/{room.hands[0]}").status_code == 401
    assert client.get(f"/api/hands/{room.hands[0]}/proof").status_code == 401


def test_the_routes_are_in_the_openapi_document(web: Web) -> None:
    client, _, _ = web
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/me/hands",
        "/api/me/history",
        "/api/hands/{hand_id}",
        "/api/hands/{hand_id}/export",
        "/api/hands/{hand_id}/proof",
        "/api/games/{game_id}/export",
    ):
        assert "get" in paths[path], path
    export = paths["/api/hands/{hand_id}/export"]["get"]
    formats = next(p for p in export["parameters"] if p["name"] == "format")
    assert formats["required"] is True
