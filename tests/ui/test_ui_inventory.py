"""Every control the pages render is named by a test that clicks it.

The room is walked through the states a player meets (see tests/ui/inventory.py):
each page is opened in each, and every visible button, link, field and menu is read.
A control missing from ``CONTROLS``, a listed control that no state shows, a listed
test that does not exist, or a page error fails this test.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.controls_inventory import CONTROLS
from tests.ui.inventory import controls_on
from tests.ui.kit import (
    Account,
    Player,
    admin_user_row,
    open_player,
    ready,
    unique_name,
    visit,
)

pytestmark = pytest.mark.slow

UI_TESTS = Path(__file__).resolve().parent
TESTS = UI_TESTS.parent


# The buttons that open a dialog, by page. Where a state shows one, the walk clicks
# it, reads the open dialog's own controls ("table dialog | button | Yes": a
# confirmation's answers, a form's fields) and closes it with Escape, which answers
# nothing: no command is sent. A dialog's controls are controls like any other, each
# named by a test that uses it.
DIALOG_OPENERS: dict[str, tuple[str, ...]] = {
    "table": ("Rules", "Settings", "Cash out", "Leave the table", "Pause the table"),
    "admin": ("Grant", "Fold a player", "Pause", "Mute in chat"),
}


class Walk:
    """What each state of the room showed: control key -> the states that showed it."""

    def __init__(self, room: Room, browser: Browser) -> None:
        self.room = room
        self.browser = browser
        self.seen: dict[str, set[str]] = defaultdict(set)
        self.players: set[str] = {ADMIN}
        self.errors: list[str] = []
        self._open: list[Player] = []
        self._admin: Account | None = None

    def room_admin(self) -> Account:
        """The room's first admin (made by the fixture), signed in over the API."""
        if self._admin is None:
            admin = Account.__new__(Account)  # signed in, not signed up
            admin.base, admin.name = self.room.base, ADMIN
            body = {"name": ADMIN, "password": ADMIN_PASSWORD}
            session = httpx.post(f"{self.room.base}/api/accounts/sign-in", json=body).json()
            admin.token, admin.csrf = str(session["token"]), str(session["csrf_token"])
            admin.id = int(admin.call("GET", "/api/me")["id"])
            self._admin = admin
        return self._admin

    def account(self, prefix: str) -> Account:
        made = Account(self.room.base, unique_name(prefix))
        self.players.add(made.name)
        return made

    def browser_of(self, account: Account, **options: Any) -> Player:
        player = account.open(self.browser, **options)
        self._open.append(player)
        return player

    def look(self, page: Page, where: str, state: str, path: str | None = None) -> None:
        if path is not None:
            visit(page, self.room.url(path))
        else:
            ready(page)
        # the lists (tables, users, hands) arrive after the page is ready
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(150)
        for key in controls_on(page, where, self.players):
            self.seen[key].add(state)
        self.look_in_dialogs(page, where, state)

    def look_in_dialogs(self, page: Page, where: str, state: str) -> None:
        for name in DIALOG_OPENERS.get(where, ()):
            opener = page.get_by_role("button", name=name, exact=True).first
            folded = page.locator("details[data-host-tools]:not([open]) > summary")
            host_tool = name.endswith("the table") and name != "Leave the table"
            if host_tool and folded.count():
                folded.click()  # the host's tools sit folded under "Host"
            if opener.count() and opener.is_visible():
                opener.click()
                page.locator("dialog[open]").wait_for()
                for key in controls_on(page, f"{where} dialog", self.players, "dialog[open]"):
                    self.seen[key].add(f"{state}, {name}")
                page.keyboard.press("Escape")
                page.locator("dialog[open]").wait_for(state="detached")
            if host_tool and page.locator("details[data-host-tools][open]").count():
                page.locator("details[data-host-tools] > summary").click()

    def close(self) -> None:
        for player in self._open:
            self.errors.extend(f"{player.name}: {e}" for e in player.errors)
            player.context.close()


def game_of(account: Account, game_id: int) -> dict[str, Any]:
    game: dict[str, Any] = account.call("GET", f"/api/games/{game_id}")
    return game


def command(account: Account, game_id: int, name: str, body: dict[str, Any] | None = None) -> Any:
    version = game_of(account, game_id)["version"]
    return account.call(
        "POST", f"/api/games/{game_id}/{name}", {"version": version, **(body or {})}
    )


def to_act(accounts: list[Account], game_id: int) -> Account | None:
    for account in accounts:
        game = game_of(account, game_id)
        hand = game.get("hand")
        if hand and hand.get("running") and hand.get("legal"):
            return account
    return None


def play_hand(accounts: list[Account], game_id: int, kind: Callable[[dict[str, Any]], str]) -> None:
    """Whoever is to act does ``kind(legal)`` until the hand is over."""
    for _ in range(40):
        actor = to_act(accounts, game_id)
        if actor is None:
            return
        legal = game_of(actor, game_id)["hand"]["legal"]
        command(actor, game_id, "actions", {"kind": kind(legal)})
    raise AssertionError("the hand did not end in 40 actions")


def fold_or_check(legal: dict[str, Any]) -> str:
    return "fold" if "fold" in legal["actions"] else "check"


def check_or_call(legal: dict[str, Any]) -> str:
    return "check" if "check" in legal["actions"] else "call"


def shove_or_call(legal: dict[str, Any]) -> str:
    return "all_in" if "all_in" in legal["actions"] else "call"


def everyone_continues(accounts: list[Account], game_id: int) -> None:
    for account in accounts:
        game = game_of(account, game_id)
        if game.get("viewer_seat") is not None and game["summary"]["status"] == "running":
            hand = game.get("hand")
            if hand is not None and not hand.get("running"):
                command(account, game_id, "continue")


def walk_signed_out(walk: Walk) -> None:
    stranger = open_player(walk.browser, "stranger")
    walk._open.append(stranger)
    walk.look(stranger.page, "sign-in", "signed out", "/sign-in")
    walk.look(stranger.page, "sign-up", "signed out", "/sign-up")


def walk_invite(walk: Walk) -> None:
    """An invite link opened signed out (sign in or sign up), and a wrong one."""
    host = walk.account("ihost")
    body = {"preset": "house", "format": "cash", "seats": 3, "buy_in": 1000, "private": True}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    path = host.call("GET", f"/api/games/{game_id}/invite")["path"]
    stranger = open_player(walk.browser, "istranger")
    walk._open.append(stranger)
    walk.look(stranger.page, "invite", "invite link, signed out", path)
    member = walk.browser_of(walk.account("iwrong")).page
    walk.look(member, "invite", "a wrong invite link", "/invite/no-such-link")


def walk_lobby(walk: Walk) -> None:
    """A player's lobby: a table to join, one too dear for the balance, one's own."""
    host = walk.account("lhost")
    rich_host = walk.account("lrich")
    walk.room_admin().call(
        "POST", f"/api/admin/users/{rich_host.id}/grant", {"amount_cents": 50_000, "reason": "x"}
    )
    player = walk.account("lplayer")
    host.call(
        "POST", "/api/games", {"preset": "house", "format": "cash", "seats": 6, "buy_in": 1000}
    )
    rich_host.call(
        "POST", "/api/games", {"preset": "house", "format": "cash", "seats": 6, "buy_in": 20_000}
    )
    player.call("POST", "/api/games", {"preset": "standard", "seats": 6, "buy_in": 500})
    page = walk.browser_of(player).page
    walk.look(page, "lobby", "lobby with tables", "/")
    phone = walk.browser_of(player, viewport={"width": 390, "height": 844}).page
    walk.look(phone, "lobby", "lobby on a phone", "/")
    # the create form shows other fields for each rule set and format
    presets = page.locator("#preset option").evaluate_all("o => o.map(x => x.value)")
    for preset in presets:
        page.locator("#preset").select_option(preset)
        formats = page.locator("#format option").evaluate_all("o => o.map(x => x.value)")
        for format_ in formats:
            page.locator("#format").select_option(format_)
            walk.look(page, "lobby", f"create {preset} {format_}")


def walk_cash_table(walk: Walk) -> None:
    """A House cash table: waiting (host, viewer), during a hand (to act, waiting),
    after it, and a player at zero chips."""
    host = walk.account("chost")
    guest = walk.account("cguest")
    viewer = walk.account("cview")
    body = {"preset": "house", "format": "cash", "seats": 3, "buy_in": 1000}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    path = f"/games/{game_id}"
    host_page = walk.browser_of(host).page
    viewer_page = walk.browser_of(viewer).page
    walk.look(host_page, "table", "waiting, host", path)
    walk.look(viewer_page, "table", "waiting, standing", path)
    guest.call("POST", f"/api/games/{game_id}/join", {})
    command(host, game_id, "start")
    # a chat message: its Delete and Mute buttons for the admin below
    host.call("POST", f"/api/games/{game_id}/chat", {"text": "good luck"})
    guest_page = walk.browser_of(guest).page
    walk.look(guest_page, "table", "hand, seated", path)
    walk.look(host_page, "table", "hand, seated", path)
    walk.look(viewer_page, "table", "hand, standing", path)
    admin_page = walk.browser_of(walk.room_admin()).page
    walk.look(admin_page, "table", "hand, admin", path)
    # the flop, checked to: check and bet; then folded
    for _ in range(4):
        actor = to_act([host, guest], game_id)
        assert actor is not None
        if game_of(actor, game_id)["hand"]["street"] != "preflop":
            break
        command(
            actor,
            game_id,
            "actions",
            {"kind": check_or_call(game_of(actor, game_id)["hand"]["legal"])},
        )
    for page in (host_page, guest_page):
        walk.look(page, "table", "flop, seated", path)
    play_hand([host, guest], game_id, fold_or_check)
    for page in (host_page, guest_page, viewer_page):
        walk.look(page, "table", "after a hand", path)
    command(guest, game_id, "sit-out")
    walk.look(guest_page, "table", "sat out", path)
    command(guest, game_id, "sit-in")
    walk.look(admin_page, "table", "after a hand, admin", path)
    # all in until one of them has no chips: the rebuy
    for _ in range(12):
        everyone_continues([host, guest], game_id)
        play_hand([host, guest], game_id, shove_or_call)
        stacks = [s["stack"] for s in game_of(host, game_id)["seats"] if s.get("user_id")]
        if 0 in stacks:
            break
    else:
        raise AssertionError("twelve all-ins and nobody busted")
    for page in (host_page, guest_page, viewer_page):
        walk.look(page, "table", "a player at zero", path)
    command(host, game_id, "pause", {"reason": "the walk"})
    walk.look(host_page, "table", "paused, host", path)


def walk_tournament(walk: Walk) -> None:
    """A heads-up Arena sit-and-go played to its end: the winner and the eliminated."""
    host = walk.account("thost")
    guest = walk.account("tguest")
    body = {"preset": "arena", "format": "tournament", "seats": 2, "buy_in": 1000}
    game_id = int(
        host.call("POST", "/api/games", {**body, "small_blind": 10, "big_blind": 20})["game_id"]
    )
    guest.call("POST", f"/api/games/{game_id}/join", {})
    if game_of(host, game_id)["summary"]["status"] == "waiting":
        command(host, game_id, "start")
    path = f"/games/{game_id}"
    host_page = walk.browser_of(host).page
    guest_page = walk.browser_of(guest).page
    walk.look(host_page, "table", "tournament hand", path)
    for _ in range(30):
        if game_of(host, game_id)["summary"]["status"] == "finished":
            break
        everyone_continues([host, guest], game_id)
        play_hand([host, guest], game_id, shove_or_call)
    else:
        raise AssertionError("thirty all-ins and the tournament did not end")
    walk.look(host_page, "table", "tournament over", path)
    walk.look(guest_page, "table", "tournament over", path)
    walk.look(host_page, "game-history", "a game's hands", f"{path}/history")
    walk.look(host_page, "history", "your hands", "/history")
    walk.look(host_page, "stats", "your statistics", "/stats")
    walk.look(host_page, "ledger", "a tournament's ledger", f"{path}/ledger")
    walk.look(host_page, "account", "your account", "/account")


def walk_per_hand_and_bots(walk: Walk) -> None:
    host = walk.account("phost")
    guest = walk.account("pguest")
    game_id = int(
        host.call("POST", "/api/games", {"preset": "standard", "seats": 2, "buy_in": 500})[
            "game_id"
        ]
    )
    guest.call("POST", f"/api/games/{game_id}/join", {})
    if game_of(host, game_id)["summary"]["status"] == "waiting":
        command(host, game_id, "start")
    page = walk.browser_of(host).page
    walk.look(page, "table", "per-hand hand", f"/games/{game_id}")
    play_hand([host, guest], game_id, fold_or_check)
    walk.look(page, "table", "per-hand after a hand", f"/games/{game_id}")
    body = {"preset": "arena", "format": "tournament", "seats": 3, "buy_in": 1000}
    bots_game = host.call("POST", "/api/games", {**body, "small_blind": 10, "big_blind": 20})
    walk.look(page, "table", "waiting for bots", f"/games/{bots_game['game_id']}")


def walk_notifications(walk: Walk) -> None:
    """The notification centre with more notices than one page lists: each street
    the action reaches the host is a "your turn" notice."""
    host = walk.account("nhost")
    guest = walk.account("nguest")
    body = {"preset": "house", "format": "cash", "seats": 2, "buy_in": 1000}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{game_id}/join", {})
    if game_of(host, game_id)["summary"]["status"] == "waiting":
        command(host, game_id, "start")
    for _ in range(20):
        if len(host.call("GET", "/api/me/notifications?limit=100")["notices"]) > 20:
            break
        everyone_continues([host, guest], game_id)
        play_hand([host, guest], game_id, check_or_call)
    else:
        raise AssertionError("twenty hands and the host has fewer than 21 notices")
    page = walk.browser_of(host).page
    walk.look(page, "notifications", "notices", "/notifications")
    page.get_by_role("button", name="More").click()
    page.locator("[data-notices] > li").nth(20).wait_for()
    walk.look(page, "notifications", "notices, all listed")
    stranger = walk.browser_of(walk.account("nnone")).page
    walk.look(stranger, "notifications", "no notices", "/notifications")
    # the next hand dealt and left running: the admin walk's open tables need a hand
    # in play to show "Fold a player", and this table is the newest
    everyone_continues([host, guest], game_id)


def walk_admin(walk: Walk) -> None:
    admin = walk.room_admin()
    # More players shows only past the page's 50; run alone, the walk has made fewer
    while admin.call("GET", "/api/admin/users?limit=50")["next_after_id"] is None:
        walk.account("filler")
    # a player muted in every table's chat: their row offers Unmute in chat
    muted = walk.account("muted")
    admin.call("POST", "/api/admin/chat/mute", {"user_id": muted.id, "reason": "the walk"})
    page = walk.browser_of(admin).page
    walk.look(page, "lobby", "admin lobby", "/")
    walk.look(page, "admin", "admin", "/admin")
    page.locator("[data-users] tr").first.wait_for()
    walk.look(page, "admin", "admin with users")
    admin_user_row(page, muted.id)  # "More players" until the muted one is listed
    walk.look(page, "admin", "admin with a muted player")


def test_every_rendered_control_is_named_by_a_test(room: Room, browser: Browser) -> None:
    walk = Walk(room, browser)
    try:
        walk_signed_out(walk)
        walk_invite(walk)
        walk_lobby(walk)
        walk_cash_table(walk)
        walk_tournament(walk)
        walk_per_hand_and_bots(walk)
        walk_notifications(walk)
        walk_admin(walk)
    finally:
        walk.close()
    assert walk.errors == [], walk.errors

    unnamed = sorted(set(walk.seen) - set(CONTROLS))
    stale = sorted(set(CONTROLS) - set(walk.seen))
    missing_tests = {
        key: [t for t in tests if not _test_mentions(t, key)]
        for key, tests in CONTROLS.items()
        if not tests or any(not _test_mentions(t, key) for t in tests)
    }
    problems = []
    if unnamed:
        problems.append(
            "controls no test names (add each to tests/ui/controls_inventory.py with the "
            "tests, as file::function under tests/, that click it):\n"
            + "\n".join(f"  {key!r}: shown in {sorted(walk.seen[key])}" for key in unnamed)
        )
    if stale:
        problems.append("listed controls that no state shows any more:\n  " + "\n  ".join(stale))
    if missing_tests:
        problems.append(
            "listed tests that do not exist or never mention their control:\n"
            + "\n".join(f"  {key!r}: {tests}" for key, tests in missing_tests.items())
        )
    assert not problems, "\n\n".join(problems)


_functions: dict[str, dict[str, str]] = {}


def _functions_of(file: str) -> dict[str, str]:
    if file not in _functions:
        path = TESTS / file
        text = path.read_text() if path.exists() else ""
        _functions[file] = {
            node.name: ast.get_source_segment(text, node) or ""
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.FunctionDef)
        }
    return _functions[file]


def _test_mentions(test: str, key: str) -> bool:
    """Does ``file::function`` (under tests/) exist, and does its source, with the
    helpers it calls from its own file and the UI kits, mention the control's words?"""
    file, _, function = test.partition("::")
    functions = _functions_of(file)
    if function not in functions:
        return False
    source = functions[function]
    helpers = dict(functions)
    for kit in sorted(UI_TESTS.glob("*kit*.py")):
        helpers.update(_functions_of(str(kit.relative_to(TESTS))))
    called = [body for name, body in helpers.items() if name != function and f"{name}(" in source]
    source = "\n".join([source, *called])
    name = key.split(" | ", 2)[2]
    words = [_letters(w) for w in re.sub(r"\{\w+\}", " ", name).split()]
    words = [w for w in words if len(w) > 2]
    letters = _letters(source)  # "All-in" is named all_in in a selector
    return not words or any(w in letters for w in words)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())
