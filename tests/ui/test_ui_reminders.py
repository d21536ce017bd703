"""Reminders in the browser: the account page's reminder points, each box clicked and
the points read back from the server (GET /api/me/notification-settings); the account
page at 390x844 and 1280x800, where the reminder boxes, their words and the save
button (and every other box, field and line of the page) overlap nothing and stay on
the screen (kit.overlaps_within), the reminders saved on the phone; and a reminder the
clock sent, shown in the notification centre."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ViewportSize, expect
from sqlalchemy import select

from cardroom.config import Settings
from cardroom.store.db import make_engine, make_sessionmaker
from cardroom.store.models import Deadline, DeadlineKind
from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, overlaps_within, unique_name, visit
from tests.ui.layout_kit import out_of_width

pytestmark = pytest.mark.slow

SETTINGS = "/api/me/notification-settings"
BOXES = {
    "50%": "When half the clock is left",
    "25%": "When a quarter of the clock is left",
    "1d": "With a day left",
    "4h": "With 4 hours left",
    "1h": "With an hour left",
    "15m": "With 15 minutes left",
}
SCREENS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}
# The whole page's boxes, fields, buttons, the balance and the sample cards as boxes;
# the words of its headings, legends, labels, notes and statement (a label holds its
# box: its own words are measured apart from it).
PAGE_PIECES = "input, button, output, .card"
PAGE_TEXTS = "h1, h2, legend, label, p, td, .field-hint"


def test_reminder_points_are_chosen_in_the_settings_and_kept_by_the_server(
    room: Room, browser: Any
) -> None:
    account = Account(room.base, unique_name("remi"))
    player = account.open(browser)
    page = player.page
    visit(page, room.url("/account"))
    form = page.locator("[data-notify-form]")
    boxes = {point: form.get_by_label(label, exact=True) for point, label in BOXES.items()}
    save = form.get_by_role("button", name="Save notification settings")
    saved = form.locator("[data-notify-saved]")
    for point, box in boxes.items():  # the room's default: half-way, an hour left
        if point in ("50%", "1h"):
            expect(box).to_be_checked()
        else:
            expect(box).not_to_be_checked()

    for box in boxes.values():  # every box the other way round
        box.click()
    save.click()
    expect(saved).to_have_text("Saved.")
    assert account.call("GET", SETTINGS)["reminders"] == ["25%", "1d", "4h", "15m"]

    for point in ("25%", "1d", "4h", "15m"):  # none at all
        boxes[point].uncheck()
    save.click()
    expect(saved).to_have_text("Saved.")
    assert account.call("GET", SETTINGS)["reminders"] == []

    # A point set through the API, which has no box here, is shown and kept.
    channels = {"in_app": True, "browser": True, "web_push": False, "email": False}
    account.call("PUT", SETTINGS, {**channels, "reminders": ["2h"]})
    visit(page, room.url("/account"))
    expect(form.locator("[data-reminder-note]")).to_contain_text("2h left")
    boxes["1h"].check()
    save.click()
    expect(saved).to_have_text("Saved.")
    assert account.call("GET", SETTINGS)["reminders"] == ["2h", "1h"]
    assert player.errors == [], player.errors
    player.context.close()


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_reminder_boxes_fit_the_screen_and_save_on_a_phone(
    room: Room, browser: Any, artifacts: Path, screen: str
) -> None:
    account = Account(room.base, unique_name("remfit"))
    player = account.open(browser, viewport=SCREENS[screen])
    page = player.page
    visit(page, room.url("/account"))
    form = page.locator("[data-notify-form]")
    boxes = {point: form.get_by_label(label, exact=True) for point, label in BOXES.items()}
    save = form.get_by_role("button", name="Save notification settings")
    for box in (*boxes.values(), save):
        expect(box).to_be_visible()
    # the settings and the statement drawn: the page at its full size
    expect(boxes["50%"]).to_be_checked()
    expect(page.locator("[data-ledger] tr").first).to_be_visible()
    save.scroll_into_view_if_needed()  # the reminders above it, in the screenshot
    player.shot(artifacts, f"account-reminders-{screen}")
    main = page.locator("main")  # the reminders' form and the rest of the page
    assert overlaps_within(main, PAGE_PIECES, PAGE_TEXTS) == []
    assert out_of_width(page) == []

    if screen == "phone":  # saved from the phone, read back from the server
        for point in ("50%", "4h", "15m"):
            boxes[point].click()
        save.click()
        expect(form.locator("[data-notify-saved]")).to_have_text("Saved.")
        assert account.call("GET", SETTINGS)["reminders"] == ["4h", "1h", "15m"]
        # the page with the form's "Saved." line fits too
        assert overlaps_within(main, PAGE_PIECES, PAGE_TEXTS) == []
    assert player.errors == [], player.errors
    player.context.close()


def test_a_reminder_the_clock_sent_is_in_the_notification_centre(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("remh"))
    guest = Account(room.base, unique_name("remg"))
    game_id = heads_up_game(host, guest, rules={"turn_clock_seconds": 86400})
    # The clock's time, brought forward: the host's pending reminder is due now, at
    # its half-way point (the server fires what is due within a second).
    engine = make_engine(Settings(database_url=room.database_url))
    try:
        with make_sessionmaker(engine).begin() as session:
            row = session.scalars(
                select(Deadline).where(
                    Deadline.game_id == game_id,
                    Deadline.kind == DeadlineKind.REMINDER,
                    Deadline.fired_at.is_(None),
                )
            ).one()
            row.due_at = datetime.now(UTC)
            row.payload = {**row.payload, "point": "50%"}
    finally:
        engine.dispose()
    reminder: dict[str, Any] | None = None
    for _ in range(100):
        told = host.call("GET", "/api/me/notifications")["notices"]
        reminder = next((n for n in told if n["data"].get("reminder")), None)
        if reminder is not None:
            break
        time.sleep(0.1)
    assert reminder is not None, "the clock sent no reminder"
    assert reminder["game_id"] == game_id and reminder["kind"] == "your_turn"
    assert reminder["title"] == f"Reminder: 24 hours left in game {game_id}"
    assert reminder["data"]["reminder"] == "50%" and not reminder["read"]

    player = host.open(browser)
    page = player.page
    visit(page, room.url("/notifications"))
    item = page.locator(f"[data-notices] > li[data-notice='{reminder['id']}']")
    expect(item).to_contain_text(reminder["title"])
    expect(item.locator("[data-state]")).to_have_text("Unread")
    # The reminder superseded the turn's first notice: one unread notice of the turn.
    turns = [
        n
        for n in host.call("GET", "/api/me/notifications")["notices"]
        if n["game_id"] == game_id and n["kind"] == "your_turn" and not n["read"]
    ]
    assert [n["id"] for n in turns] == [reminder["id"]]
    item.get_by_role("link", name=reminder["title"]).click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    opened = {n["id"]: n for n in host.call("GET", "/api/me/notifications")["notices"]}
    assert opened[reminder["id"]]["read"]
    assert player.errors == [], player.errors
    player.context.close()
