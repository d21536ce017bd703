"""Privacy of exports: a player's PHH and PokerStars files hold their own hole cards and
the hands shown at the table, and never another player's folded, mucked or unshown
cards. The scan looks for every hidden card anywhere in the text."""

from __future__ import annotations

import re
import tomllib

import pytest

from cardroom.cards import card_text
from cardroom.events import CardBurned, HandMucked, HandShown, PlayerActed, PotAwarded
from cardroom.hand import Hand
from cardroom.history import phh
from cardroom.history.privacy import (
    Viewer,
    disclose,
    phh_export,
    phhs_file,
    pokerstars_export,
    pokerstars_file,
    seat_of,
    viewer_for,
)
from cardroom.history.record import HandRecord
from tests.history.test_pokerstars import showdown
from tests.history.test_record import random_record


def appears(card: int, text: str) -> bool:
    """Is the card written anywhere in the text? A card is a rank and a suit not
    followed by a lower-case letter (so the "Ac" of "Aces" is not the ace of clubs,
    while both cards of "AsKd" are found)."""
    return re.search(re.escape(card_text(card)) + r"(?![a-z])", text) is not None


def secret_cards(hand: Hand, viewer: Viewer) -> set[int]:
    """Every card the viewer must not see: other players' unshown hole cards, burns
    and the cards never dealt. Worked out from the hand, not from privacy.py."""
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    secret = set(hand.deck[hand.deck_pos :])
    secret |= {e.card for e in hand.events if isinstance(e, CardBurned)}
    for seat, cards in zip(hand.seats, hand.hole, strict=True):
        if seat != viewer.seat and seat not in shown:
            secret |= set(cards)
    return secret


def exports(record: HandRecord, viewer: Viewer) -> list[str]:
    return [pokerstars_export(record, viewer), phh_export(record, viewer)]


def test_the_scan_finds_cards_and_ignores_words() -> None:
    assert appears(48, "d dh p1 AcKd") and appears(47, "d dh p1 AcKs")  # Ac, Ks
    assert not appears(48, "shows [Ks Kd] (a pair of Aces)")
    assert appears(48, "Board [Ac 2d 3h]")


def test_no_export_for_a_player_or_observer_holds_a_card_they_may_not_see() -> None:
    checked = shown_seen = own_seen = 0
    for seed in range(200):
        hand, record = random_record(seed)
        viewers = [Viewer.player(s) for s in hand.seats] + [Viewer.observer()]
        for viewer in viewers:
            texts = exports(record, viewer)
            for card in secret_cards(hand, viewer):
                for text in texts:
                    assert not appears(card, text), (seed, viewer, card_text(card))
                    checked += 1
            # what they may see is there: their own cards, every shown hand, the board
            for text in texts:
                for card in hand.board:
                    assert appears(card, text)
                for e in hand.events:
                    if isinstance(e, HandShown):
                        assert all(appears(c, text) for c in e.cards)
                        shown_seen += 1
                if viewer.seat is not None:
                    own = hand.hole[hand.seats.index(viewer.seat)]
                    assert all(appears(c, text) for c in own)
                    own_seen += 1
    assert checked > 10_000 and shown_seen > 100 and own_seen > 1000


def test_an_admin_export_holds_every_hole_card() -> None:
    for seed in range(30):
        hand, record = random_record(seed)
        for text in exports(record, Viewer.administrator()):
            for cards in hand.hole:
                assert all(appears(c, text) for c in cards), seed


def test_disclosure_of_folded_mucked_and_shown_hands() -> None:
    hand, _ = showdown()  # ann shows and wins, fay mucks, cy and eve folded
    seats = {"ann": 1, "cy": 3, "eve": 5, "fay": 6}
    assert any(isinstance(e, HandMucked) and e.seat == 6 for e in hand.events)
    fay = disclose(hand, Viewer.player(seats["fay"]))
    assert set(fay.dealt) == {6} and set(fay.shown) == {1}
    assert fay.hidden_seats(hand.seats) == {3, 5}
    cy = disclose(hand, Viewer.player(seats["cy"]))
    assert set(cy.visible) == {1, 3} and cy.hidden_seats(hand.seats) == {5, 6}
    observer = disclose(hand, Viewer.observer())
    assert set(observer.visible) == {1} and not observer.dealt
    assert set(disclose(hand, Viewer.administrator()).dealt) == {1, 3, 5, 6}
    # a seat that is not in the hand sees what an observer sees
    assert disclose(hand, Viewer.player(2)) == observer


def test_a_winner_without_a_showdown_keeps_their_cards_hidden() -> None:
    for seed in range(60):
        hand, _ = random_record(seed)
        if any(isinstance(e, HandShown) for e in hand.events):
            continue
        winner = next(s for s, f in zip(hand.seats, hand.folded, strict=True) if not f)
        others = [s for s in hand.seats if s != winner]
        for seat in others:
            assert winner in disclose(hand, Viewer.player(seat)).hidden_seats(hand.seats)
        return
    pytest.fail("no hand won without a showdown in the sample")


def test_phh_export_writes_hidden_cards_as_unknown_and_names_the_players() -> None:
    hand, record = showdown()
    text = phh_export(record, Viewer.player(6))
    data = tomllib.loads(text)
    assert data["players"] == ["ann", "cy", "eve", "fay"]  # dealing order, p1 first
    assert data["seats"] == [1, 3, 5, 6] and data["seat_count"] == 6
    assert data["table"] == "Oak" and data["hand"] == 1002
    assert (data["year"], data["month"], data["day"]) == (2026, 7, 4)
    assert data["_started_at"] == "2026-07-04T13:05:09+00:00"
    assert "d dh p1 AhKh" in data["actions"] and "d dh p4 8d8c" in data["actions"]
    assert "d dh p2 ????" in data["actions"] and "d dh p3 ????" in data["actions"]
    assert data["finishing_stacks"] == hand.stacks


def phh_plain(hand: Hand) -> bool:
    """Hands whose PHH PokerKit and our reader replay as we do. Left out (found while
    writing these tests; the PHH writer's business, not privacy's): equal heads-up
    blinds and a big-blind ante. Also left out: ties over several pots
    with odd chips, where PokerKit splits the pots' sum once and our rules ("tied hands
    split each pot") split each pot."""
    s = hand.setup
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    odd_split = len(awards) > 1 and any(
        len(a.winners) > 1 and a.amount % len(a.winners) for a in awards
    )
    return not (odd_split or s.small_blind == s.big_blind or s.big_blind_ante)


def test_player_phh_exports_load_in_pokerkit_to_the_same_stacks() -> None:
    pokerkit = pytest.importorskip("pokerkit")  # a test dependency: always installed
    replayed = 0
    for seed in range(2000):
        if replayed == 100:
            break
        hand, record = random_record(seed, "standard", admin=False)
        if not phh_plain(hand):
            continue
        viewer = Viewer.player(hand.seats[seed % len(hand.seats)])
        history = pokerkit.HandHistory.loads(phh_export(record, viewer))
        state = list(history)[-1]
        assert list(state.stacks) == hand.stacks, seed
        replayed += 1
    assert replayed == 100


def test_our_phh_reader_replays_player_exports_of_standard_hands() -> None:
    replayed = 0
    for seed in range(1000):
        if replayed == 40:
            break
        hand, record = random_record(seed, "standard", admin=False)
        if not phh_plain(hand):
            continue
        replayed += 1
        viewer = Viewer.player(hand.seats[0])
        again = phh.replay_text(phh_export(record, viewer))
        # the same actions and board (PHH does not say who the clock acted for);
        # unknown hole cards are stand-ins
        assert again.board == hand.board
        assert [e for e in again.events if isinstance(e, PlayerActed)] == [
            e._replace(seat=hand.seats.index(e.seat) + 1, timed_out=False)
            for e in hand.events
            if isinstance(e, PlayerActed)
        ]
    assert replayed == 40


def test_game_files_take_each_hands_seat_for_the_player() -> None:
    records = [random_record(seed, players=3)[1] for seed in range(6)]
    name = "cy"
    stars = pokerstars_file(records, name)
    assert stars.count("PokerStars Hand #") == 6
    for record in records:
        viewer = viewer_for(record, name)
        assert viewer.seat == seat_of(record, name)
        assert pokerstars_export(record, viewer).rstrip("\n") in stars
        assert (viewer.seat is None) == (name not in record.names.values())
    phhs = phhs_file(records, name)
    data = tomllib.loads(phhs)
    assert sorted(data, key=int) == [str(k) for k in range(1, 7)]
    assert [data[str(k)]["hand"] for k in range(1, 7)] == [r.hand_number for r in records]


def test_an_admin_game_file_holds_every_card_dealt() -> None:
    records = [random_record(seed, players=4)[1] for seed in range(3)]
    stars = pokerstars_file(records, None, admin=True)
    assert stars.count("Dealt to ") == 12
    assert viewer_for(records[0], "nobody") == Viewer.observer()
    assert viewer_for(records[0], None, admin=True) == Viewer.administrator()
