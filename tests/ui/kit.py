"""What a player does in the browser, for the UI tests."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

PASSWORD = "correct horse"
_names = itertools.count(1)


def unique_name(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page
    errors: list[str]

    def goto(self, base: str, path: str) -> None:
        self.page.goto(base + path)

    def game(self) -> dict[str, Any]:
        """The table's state as the page holds it (from its last snapshot)."""
        game: dict[str, Any] = self.page.evaluate("window.cardroomTable.game")
        return game

    def shot(self, folder: Path, name: str) -> Path:
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=False)
        return path


def open_player(
    browser: Browser, name: str, *, viewport: ViewportSize | None = None, **options: Any
) -> Player:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    return Player(name, context, page, errors)


def sign_up(player: Player, base: str) -> None:
    """Create the account on the sign-up page; it signs in and lands in the lobby."""
    page = player.page
    page.goto(base + "/sign-up")
    page.get_by_label("Name").fill(player.name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.wait_for_url(base + "/")
    expect(page.locator("[data-balance]")).to_have_text(re.compile(r"^\$\d"))


def seat(player: Player, name: str) -> Any:
    """The seat of the player called ``name`` on this player's table."""
    return player.page.locator(".seat", has=player.page.locator(".name", has_text=name))
