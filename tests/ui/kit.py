"""What a player does in the browser, for the UI tests."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

PASSWORD = "correct horse"
_names = itertools.count(1)
# Every browser context ``open_player`` made, so that tests/ui/conftest.py closes
# those a test opened when it ends: a context left open keeps its page running (its
# sockets reconnecting, its animations drawn) in a browser that lives for the
# worker's whole run, and a dozen such pages took a core of the suite's two.
OPENED: list[BrowserContext] = []


def unique_name(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page
    errors: list[str]

    def visit(self, address: str) -> None:
        visit(self.page, address)

    def game(self) -> dict[str, Any]:
        """The table's state as the page holds it (from its last snapshot)."""
        game: dict[str, Any] = self.page.evaluate("window.cardroomTable.game")
        return game

    def shot(self, folder: Path, name: str) -> Path:
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=False)
        return path


def ready(page: Page) -> None:
    """Wait until the page's script has set it up (its controls answer)."""
    page.locator("body[data-ready]").wait_for(state="attached")


def visit(page: Page, address: str) -> None:
    page.goto(address)
    ready(page)


def open_player(
    browser: Browser, name: str, *, viewport: ViewportSize | None = None, **options: Any
) -> Player:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **options)
    OPENED.append(context)
    page = context.new_page()
    errors: list[str] = []
    # Exceptions, console errors and server errors are failures. A refusal (4xx) is
    # not: the pages show them; the browser's own note about one is ignored.
    page.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: Any) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(message.text)

    def response(answer: Any) -> None:
        if answer.status >= 500:
            errors.append(f"{answer.status} from {answer.url}")

    page.on("console", console)
    page.on("response", response)
    return Player(name, context, page, errors)


def sign_up(player: Player, base: str) -> None:
    """Create the account on the sign-up page; it signs in and lands in the lobby."""
    page = player.page
    visit(page, base + "/sign-up")
    page.get_by_label("Name").fill(player.name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.wait_for_url(base + "/")
    ready(page)
    expect(page.locator("[data-balance]")).to_have_text(re.compile(r"^\$\d"))


def seat(player: Player, name: str) -> Any:
    """The seat of the player called ``name`` on this player's table."""
    return player.page.locator(".seat", has=player.page.locator(".name", has_text=name))


class Account:
    """A player made and signed in over the API (quicker than the pages), whose
    session a browser context can then borrow."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        body = {"name": name, "password": PASSWORD}
        made = httpx.post(f"{base}/api/accounts/sign-up", json=body, timeout=10)
        assert made.status_code == 201, made.text
        self.id = int(made.json()["id"])
        session = httpx.post(f"{base}/api/accounts/sign-in", json=body, timeout=10).json()
        self.token = str(session["token"])
        self.csrf = str(session["csrf_token"])

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = httpx.request(
            method,
            self.base + path,
            json=body,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        assert answer.is_success, answer.text
        return answer.json() if answer.content else None

    def open(
        self,
        browser: Browser,
        *,
        viewport: ViewportSize | None = None,
        init_script: str | None = None,
        **options: Any,
    ) -> Player:
        """A browser context signed in as this player (the session's cookies)."""
        player = open_player(browser, self.name, viewport=viewport, **options)
        player.context.add_cookies(
            [
                {"name": "cardroom_session", "value": self.token, "url": self.base},
                {"name": "cardroom_csrf", "value": self.csrf, "url": self.base},
            ]
        )
        if init_script:
            player.context.add_init_script(init_script)
        return player


def heads_up_game(host: Account, guest: Account, **options: Any) -> int:
    """A started two-player House cash game ($10 buy-in): the host has seat 1, the
    button and the small blind, and acts first."""
    body = {"preset": "house", "format": "cash", "seats": 2, "buy_in": 1000, **options}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    joined = guest.call("POST", f"/api/games/{game_id}/join", {})
    if joined["status"] == "waiting":  # a full table starts by itself
        host.call("POST", f"/api/games/{game_id}/start", {})
    return game_id


def admin_user_row(page: Page, user_id: int) -> Any:
    """The admin page's row of a player, pressing "More players" until it is listed
    (the page lists 50 players at a time, oldest first)."""
    row = page.locator(f"[data-users] tr[data-user='{user_id}']")
    more = page.get_by_role("button", name="More players")
    for _ in range(40):
        if row.count():
            return row
        # Counted before the click: counted after it, rows that came in at once
        # would be counted, and the wait would be for a page more that never comes.
        listed = page.locator("[data-users] tr").count()
        more.click()
        page.wait_for_function(
            "([id, n]) => document.querySelector(`[data-users] tr[data-user='${id}']`)"
            " || document.querySelectorAll('[data-users] tr').length > n",
            arg=[user_id, listed],
        )
    raise AssertionError(f"player #{user_id} is not on the admin page")


def sign_in(player: Player, base: str, name: str, password: str) -> None:
    """Sign in on the sign-in page; it lands in the lobby."""
    page = player.page
    visit(page, base + "/sign-in")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(base + "/")
    ready(page)


# Boxes that only touch (sub-pixel rounding) do not overlap.
OVERLAP_TOLERANCE = 1.0  # px

# The boxes a person reads under one element: each shown piece's boxes, and each of
# the words of the ``texts`` elements (their own text nodes, measured by a Range, so
# that a label's words and the box it holds are measured apart). A piece is a box
# per line it is drawn on (getClientRects): words wrapped onto a second line are not
# the rectangle around both lines, which would cover what follows them on the second.
_PIECES = """
(root, [pieces, texts]) => {
  const shown = (el) => {
    const style = getComputedStyle(el);
    return !el.closest("[hidden]") && style.display !== "none" && style.visibility !== "hidden";
  };
  const words = (text) => (text || "").replace(/\\s+/g, " ").trim().slice(0, 40);
  const nameOf = (el) => {
    const said = words(el.getAttribute("aria-label") || el.textContent);
    if (said) return `${el.tagName.toLowerCase()} "${said}"`;
    const label = el.labels && el.labels.length ? words(el.labels[0].textContent) : "";
    return label ? `the box of "${label}"` : el.tagName.toLowerCase();
  };
  const out = [];
  const x = window.scrollX; // sideways from the page's left edge, scrolled or not
  const add = (rects, label) => {
    const lines = [...rects].filter((r) => r.width > 0 && r.height > 0)
      .map((r) => ({left: r.left + x, top: r.top, right: r.right + x, bottom: r.bottom}));
    if (lines.length) out.push({label, lines});
  };
  if (pieces) {
    for (const el of root.querySelectorAll(pieces)) {
      if (shown(el)) add(el.getClientRects(), nameOf(el));
    }
  }
  if (texts) {
    for (const el of root.querySelectorAll(texts)) {
      if (!shown(el)) continue;
      for (const node of el.childNodes) {
        if (node.nodeType !== 3 || !node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        add(range.getClientRects(), `the words "${words(node.textContent)}"`);
      }
    }
  }
  return {pieces: out, width: document.documentElement.clientWidth};
}
"""


def overlaps_within(root: Locator, pieces: str, texts: str = "") -> list[str]:
    """Where the shown ``pieces`` (a CSS selector: buttons, boxes, badges) and the
    words of the ``texts`` elements under ``root`` overlap one another by more than
    the tolerance, or leave the screen sideways (the viewport's width from the page's
    left edge, however far the page was scrolled), as sentences. A piece must not hold
    another piece (it would overlap what it holds): name the holder in ``texts``,
    whose own words are measured, not its box. Nothing to measure is a problem too."""
    found: dict[str, Any] = root.evaluate(_PIECES, [pieces, texts])
    shown: list[dict[str, Any]] = found["pieces"]
    if not shown:
        return [f"nothing shown to measure ({pieces!r}, {texts!r})"]
    problems = []
    for i, a in enumerate(shown):
        for b in shown[i + 1 :]:
            crossed = [_crossing(x, y) for x, y in itertools.product(a["lines"], b["lines"])]
            if any(crossed):
                wide, high = max(c for c in crossed if c)
                problems.append(f"{a['label']} overlaps {b['label']} by {wide:.0f}x{high:.0f} px")
        for line in a["lines"]:
            if (
                line["left"] < -OVERLAP_TOLERANCE
                or line["right"] > found["width"] + OVERLAP_TOLERANCE
            ):
                where = f"{line['left']:.0f} to {line['right']:.0f} px of {found['width']}"
                problems.append(f"{a['label']} leaves the screen ({where})")
    return problems


def _crossing(one: dict[str, float], other: dict[str, float]) -> tuple[float, float] | None:
    """How far two boxes overlap (width, height), or None if by no more than the
    tolerance."""
    wide = min(one["right"], other["right"]) - max(one["left"], other["left"])
    high = min(one["bottom"], other["bottom"]) - max(one["top"], other["top"])
    return (wide, high) if wide > OVERLAP_TOLERANCE and high > OVERLAP_TOLERANCE else None
