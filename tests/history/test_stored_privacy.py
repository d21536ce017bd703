"""What leaves the server from stored hands: each viewer's deck proofs verify (with
``cardroom verify`` too) and a tampered one does not; a player's downloads never hold
another player's unshown or mucked cards, nor a burn or an undealt card; an admin's
full record holds every card; PHH exports load in PokerKit to the same finishing
stacks; PokerStars text of a stored hand matches its golden file."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.cards import card_text
from cardroom.cli import main
from cardroom.events import HandShown
from cardroom.hand import Hand
from cardroom.history import fairness, pokerstars
from cardroom.history.privacy import Viewer
from cardroom.history.record import HandRecord, replay
from cardroom.service import hand_exports, histories, stored_hands
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Forbidden, InvalidInput, NotFound
from cardroom.service.users import UserInfo
from cardroom.store.models import HandRecord as HandRow
from cardroom.store.models import User
from tests.history.storedkit import Room, stored_room
from tests.history.test_privacy import appears, phh_plain, secret_cards

__all__ = ["stored_room"]

Played = tuple[ServiceContext, Room]
GOLDEN = Path(__file__).parent / "golden"


def user(ctx: ServiceContext, user_id: int) -> UserInfo:
    with ctx.transaction() as session:
        row = session.get(User, user_id)
        assert row is not None
        return UserInfo.of(row)


def viewers(ctx: ServiceContext, room: Room, record: HandRecord) -> list[UserInfo]:
    """Every player dealt in and one who was not (who sees what an observer sees)."""
    hand = replay(record)
    dealt = [room.users[record.names[seat]] for seat in hand.seats]
    outsider = next(u for u in room.users.values() if u not in dealt)
    return [user(ctx, u) for u in (*dealt, outsider)]


def as_viewer(record: HandRecord, who: UserInfo) -> Viewer:
    for seat, name in record.names.items():
        if name == who.name:
            return Viewer.player(seat)
    return Viewer.observer()


def expected_positions(hand: Hand, viewer: Viewer) -> set[int]:
    """Worked out from the dealing order, not from fairness.py: own hole cards, the
    board, the hands shown."""
    n = len(hand.seats)
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    out = set()
    for i, seat in enumerate(hand.seats):
        if seat == viewer.seat or seat in shown:
            out |= {i, n + i}
    position = 2 * n
    for street in fairness.streets_dealt(hand):
        count = 3 if street == "flop" else 1
        out |= set(range(position + 1, position + 1 + count))
        position += 1 + count
    return out


def test_every_viewers_proof_verifies_and_reveals_only_what_they_may_see(
    stored_room: Played,
) -> None:
    ctx, room = stored_room
    checked = nothing = 0
    for hand_id in room.hands:
        record = stored_hands.hand_record(ctx, hand_id)
        hand = replay(record)
        for who in viewers(ctx, room, record):
            viewer = as_viewer(record, who)
            if not expected_positions(hand, viewer):  # an observer of a hand won preflop
                with pytest.raises(stored_hands.NoDeckProof, match="nothing to prove"):
                    hand_exports.proof_document(ctx, who, hand_id)
                nothing += 1
                continue
            document = hand_exports.proof_document(ctx, who, hand_id)
            verdict = fairness.verify_document(json.loads(json.dumps(document)))
            assert verdict.ok, (hand_id, who.name, verdict.verdict.failures)
            # the root in the file is the one published before the deal
            assert document["root"] == record.deck_root.hex()  # type: ignore[union-attr]
            positions = {leaf["position"] for leaf in document["leaves"]}
            assert positions == expected_positions(hand, viewer), (hand_id, who.name)
            revealed = {leaf["card"] for leaf in document["leaves"]}
            assert not revealed & {card_text(c) for c in secret_cards(hand, viewer)}
            # salts only for the revealed positions
            salts = {leaf["salt"] for leaf in document["leaves"]}
            assert salts == {record.deck_salts[p].hex() for p in positions}  # type: ignore[index]
            checked += 1
    assert checked > 100 and nothing > 0


def test_an_admin_proves_the_whole_deck(stored_room: Played) -> None:
    ctx, room = stored_room
    boss = user(ctx, room.admin)
    for hand_id in room.hands[:5]:
        document = hand_exports.proof_document(ctx, boss, hand_id, full=True)
        assert len(document["leaves"]) == 52 and document["viewer"] == "admin"
        assert fairness.verify_document(document).ok
    ann = user(ctx, room.users["ann"])
    with pytest.raises(Forbidden, match="Only an admin"):
        hand_exports.proof_document(ctx, ann, room.hands[0], full=True)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_downloaded_proofs_pass_cardroom_verify_and_tampered_ones_fail(
    stored_room: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx, room = stored_room
    ann = user(ctx, room.users["ann"])
    hands = histories.my_hands(ctx, ann.id, limit=100).hands
    for summary in hands[:8]:
        download = hand_exports.proof_file(ctx, ann, summary.id)
        assert download.filename == f"cardroom-hand-{summary.id}-proof.json"
        path = tmp_path / download.filename
        path.write_text(download.text, encoding="utf-8")
        status, out, _ = run(["verify", str(path)], capsys)
        assert status == 0 and "Verified: all" in out, out
        assert f"seat {summary.seat} (ann), hole card 1" in out

        document = json.loads(download.text)
        own = next(
            leaf for leaf in document["leaves"] if leaf["dealt_as"].get("seat") == summary.seat
        )
        # another revealed card (the board's, or the player's other one)
        board = next(x for x in document["leaves"] if x["position"] != own["position"])

        def tampered(
            change: str, text: str, own: dict[str, Any], board: dict[str, Any]
        ) -> dict[str, Any]:
            copy: dict[str, Any] = json.loads(text)
            leaf = next(x for x in copy["leaves"] if x["position"] == own["position"])
            if change == "card":  # claim another card was dealt there
                others = {x["card"] for x in copy["leaves"]}
                leaf["card"] = next(card_text(c) for c in range(52) if card_text(c) not in others)
            elif change == "salt":
                leaf["salt"] = ("0" if leaf["salt"][0] != "0" else "1") + leaf["salt"][1:]
            elif change == "root":
                copy["root"] = ("0" if copy["root"][0] != "0" else "1") + copy["root"][1:]
            elif change == "proof":
                step = leaf["proof"][0]
                step["hash"] = ("0" if step["hash"][0] != "0" else "1") + step["hash"][1:]
            elif change == "swap":  # another position's card and salt passed off as this one
                leaf["card"], leaf["salt"] = board["card"], board["salt"]
            return copy

        for change in ("card", "salt", "root", "proof", "swap"):
            bad = tmp_path / f"bad-{change}.json"
            bad.write_text(
                json.dumps(tampered(change, download.text, own, board)), encoding="utf-8"
            )
            status, out, _ = run(["verify", str(bad)], capsys)
            assert status == 1 and "NOT VERIFIED" in out, (change, out)


def scan(hand: Hand, viewer: Viewer, text: str) -> tuple[int, int]:
    """No card the viewer may not see is in the text; their own cards, the board and
    every shown hand are. (cards checked, shown hands found)"""
    secret = secret_cards(hand, viewer)
    for card in secret:
        assert not appears(card, text), (viewer, card_text(card), text)
    assert all(appears(c, text) for c in hand.board)
    shown = [e for e in hand.events if isinstance(e, HandShown)]
    for e in shown:
        assert all(appears(c, text) for c in e.cards)
    if viewer.seat is not None:
        assert all(appears(c, text) for c in hand.hole[hand.seats.index(viewer.seat)])
    return len(secret), len(shown)


def pieces(stars: str, phhs: str) -> list[tuple[int, str]]:
    """A game download cut into its hands: (hand id, text)."""
    out = []
    for text in stars.split(pokerstars.HAND_SEPARATOR):
        out.append((int(re.search(r"Hand #(\d+):", text).group(1)), text))  # type: ignore[union-attr]
    for text in re.split(r"^\[\d+\]$", phhs, flags=re.MULTILINE)[1:]:
        out.append((int(re.search(r"^hand = (\d+)$", text, re.MULTILINE).group(1)), text))  # type: ignore[union-attr]
    return out


def test_a_players_downloads_never_hold_a_card_they_may_not_see(stored_room: Played) -> None:
    ctx, room = stored_room
    records = {h: stored_hands.hand_record(ctx, h) for h in room.hands}
    hands = {h: replay(r) for h, r in records.items()}
    people = {u: user(ctx, u) for u in (*room.users.values(), room.admin)}
    checked = shown = texts = 0
    # every player's game downloads, in both formats, hand by hand
    for uid in room.users.values():
        who = people[uid]
        for game in room.games:
            try:
                stars = hand_exports.export_game(ctx, who, game, "pokerstars").text
                phhs = hand_exports.export_game(ctx, who, game, "phh").text
            except NotFound:
                continue
            for hand_id, text in pieces(stars, phhs):
                counted = scan(hands[hand_id], as_viewer(records[hand_id], who), text)
                checked, shown, texts = checked + counted[0], shown + counted[1], texts + 1
    # the street-by-street view of every hand for every player in it, a player who
    # was not and the admin; and single-hand downloads for those two
    for hand_id, record in records.items():
        dealt = [room.users[record.names[seat]] for seat in hands[hand_id].seats]
        outsider = next(u for u in room.users.values() if u not in dealt)
        # (the admin, not asking for the full record, is an observer like the outsider)
        others = (outsider, room.admin) if hand_id in room.hands[:8] else (outsider,)
        for uid in (*dealt, *others):
            who = people[uid]
            viewer = as_viewer(record, who)
            view = histories.hand_history(ctx, who, hand_id)
            assert view.viewer_seat == viewer.seat
            seen = [json.dumps([e.data for e in view.events]), json.dumps(view.board)]
            seen.append(json.dumps([p.cards for p in view.players]))
            if uid in others and hand_id in room.hands[:8]:
                seen.append(hand_exports.export_hand(ctx, who, hand_id, "pokerstars").text)
                seen.append(hand_exports.export_hand(ctx, who, hand_id, "phh").text)
            for text in seen:
                assert not any(appears(c, text) for c in secret_cards(hands[hand_id], viewer))
            scan(hands[hand_id], viewer, "\n".join(seen))
            texts += 1
    assert texts > 200 and checked > 5000 and shown > 20


def test_a_players_game_download_is_their_hands_as_they_saw_them(stored_room: Played) -> None:
    ctx, room = stored_room
    for name in ("ann", "cyd"):
        who = user(ctx, room.users[name])
        for game in room.games:
            mine = sorted(
                h.id for h in histories.my_hands(ctx, who.id, game_id=game, limit=100).hands
            )
            if not mine:
                with pytest.raises(NotFound, match="You were not dealt"):
                    hand_exports.export_game(ctx, who, game, "pokerstars")
                continue
            stars = hand_exports.export_game(ctx, who, game, "pokerstars")
            assert stars.filename == f"cardroom-game-{game}.txt"
            assert stars.media_type.startswith("text/plain")
            phhs = hand_exports.export_game(ctx, who, game, "phh")
            assert phhs.filename == f"cardroom-game-{game}.phhs"
            data = tomllib.loads(phhs.text)
            assert [data[str(k)]["hand"] for k in range(1, len(mine) + 1)] == mine
            # the file is the player's single-hand downloads, in order
            sample = mine[:3]
            singles = [hand_exports.export_hand(ctx, who, h, "pokerstars").text for h in sample]
            assert stars.text.startswith(pokerstars.hands_text(singles))
            assert stars.text.count("PokerStars Hand #") == len(mine)
            for k, hand_id in enumerate(sample, 1):
                single = hand_exports.export_hand(ctx, who, hand_id, "phh")
                assert single.filename == f"cardroom-hand-{hand_id}.phh"
                assert data[str(k)] == tomllib.loads(single.text)


def test_an_admins_full_record_holds_every_card_and_nobody_elses_does(
    stored_room: Played,
) -> None:
    ctx, room = stored_room
    boss = user(ctx, room.admin)
    ann = user(ctx, room.users["ann"])
    for game in room.games:
        full = hand_exports.export_game(ctx, boss, game, "pokerstars", full=True).text
        texts = full.split(pokerstars.HAND_SEPARATOR)
        with ctx.transaction() as session:
            numbers = session.scalars(select(HandRow.id).where(HandRow.game_id == game)).all()
        assert len(texts) == len([n for n in numbers if n in room.hands])
        for text in texts:
            number = int(re.search(r"PokerStars Hand #(\d+):", text).group(1))  # type: ignore[union-attr]
            hand = replay(stored_hands.hand_record(ctx, number))
            for cards in hand.hole:
                assert all(appears(c, text) for c in cards)
            assert text.count("Dealt to ") == len(hand.seats)
        with pytest.raises(Forbidden, match="Only an admin can see every card"):
            hand_exports.export_game(ctx, ann, game, "phh", full=True)
    hand_id = room.hands[0]
    with pytest.raises(Forbidden):
        hand_exports.export_hand(ctx, ann, hand_id, "phh", full=True)
    full_view = histories.hand_history(ctx, boss, hand_id, full=True)
    assert full_view.full and all(p.cards is not None for p in full_view.players)
    # without asking, an admin who did not play sees what an observer sees
    plain = histories.hand_history(ctx, boss, hand_id)
    assert plain.viewer == "observer" and not plain.full


def test_phh_exports_of_stored_standard_hands_load_in_pokerkit_to_the_same_stacks(
    stored_room: Played,
) -> None:
    pokerkit = pytest.importorskip("pokerkit")  # a test dependency: always installed
    ctx, room = stored_room
    loaded = 0
    for hand_id in room.hands:
        record = stored_hands.hand_record(ctx, hand_id)
        hand = replay(record)
        if hand.rules.name != "standard" or not phh_plain(hand):
            continue
        for seat in hand.seats:
            who = user(ctx, room.users[record.names[seat]])
            text = hand_exports.export_hand(ctx, who, hand_id, "phh").text
            state = list(pokerkit.HandHistory.loads(text))[-1]
            assert list(state.stacks) == hand.stacks, (hand_id, seat)
            assert tomllib.loads(text)["finishing_stacks"] == hand.stacks
            loaded += 1
    assert loaded >= 20


def normalised(text: str) -> str:
    """The hand and table numbers depend on what the database held before."""
    text = re.sub(r"PokerStars Hand #\d+:", "PokerStars Hand #N:", text)
    return re.sub(r"Table 'Cardroom \d+'", "Table 'Cardroom G'", text)


def test_pokerstars_text_of_a_stored_hand_matches_its_golden_file(stored_room: Played) -> None:
    ctx, room = stored_room
    eve = user(ctx, room.users["eve"])
    standard = room.games[1]  # ann, eve, fay at a standard per-hand table, money
    hands = histories.my_hands(ctx, eve.id, game_id=standard, limit=100).hands
    chosen = next(h for h in reversed(hands) if h.showdown)  # the first with a showdown
    text = hand_exports.export_hand(ctx, eve, chosen.id, "pokerstars").text
    golden = GOLDEN / "stored_standard_showdown.txt"
    if not golden.exists():  # pragma: no cover - writing the golden file once
        golden.write_text(normalised(text), encoding="utf-8")
    assert normalised(text) == golden.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert re.fullmatch(
        r"PokerStars Hand #\d+:  Hold'em No Limit \(\$0\.10/\$0\.20 USD\) - "
        r"\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET",
        lines[0],
    )
    assert lines[1].startswith(f"Table 'Cardroom {standard}' 9-max Seat #")
    assert sum(line.startswith("Dealt to ") for line in lines) == 1
    assert any(line.startswith("Dealt to eve [") for line in lines)
    assert "*** SHOW DOWN ***" in lines and "*** SUMMARY ***" in lines


@pytest.mark.parametrize("fmt", ["xml", "PHH ", "", "stars"])
def test_a_bad_format_is_refused_with_a_sentence(stored_room: Played, fmt: str) -> None:
    ctx, room = stored_room
    ann = user(ctx, room.users["ann"])
    with pytest.raises(InvalidInput, match="exported as phh or pokerstars"):
        hand_exports.export_hand(ctx, ann, room.hands[0], fmt)
    with pytest.raises(InvalidInput, match="exported as phh or pokerstars"):
        hand_exports.export_game(ctx, ann, room.games[0], fmt)
