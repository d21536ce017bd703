"""The table's layout measured in the browser, for the layout tests: which of the
things a player must read (seat boxes, hole cards, bet chips, the board, the pot,
and on their turn the action bar) overlap, which names are cut, and tables seated
and played over the API (quicker than the pages, and the phases chosen exactly)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page

from tests.ui.kit import Account, unique_name

TOLERANCE = 1.0  # px: boxes that only touch (sub-pixel rounding) do not overlap

# Every box a player reads on the felt, with a label that says which one it is.
_BOXES = """
() => {
  const out = [];
  const add = (el, label) => {
    if (!el) return;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) {
      out.push({label, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
    }
  };
  for (const seat of document.querySelectorAll("[data-seats] > .seat")) {
    const n = seat.dataset.seat;
    add(seat.querySelector(".seat-box"), `seat ${n}'s box`);
    add(seat.querySelector(":scope > .cards"), `seat ${n}'s cards`);
  }
  for (const bet of document.querySelectorAll("[data-seats] .bet, .bets .bet")) {
    add(bet, `seat ${bet.dataset.seat}'s bet`);
  }
  add(document.querySelector("[data-board] .cards"), "the board");
  const pot = document.querySelector("[data-pot]");
  if (pot && pot.textContent.trim()) add(pot, "the pot");
  const pots = document.querySelector("[data-pots]");
  if (pots && pots.childElementCount) add(pots, "the side pots");
  // on your turn the action bar (pinned to a phone's bottom) must cover nothing
  const bar = document.querySelector("[data-actions]");
  if (bar && !bar.hidden) add(bar, "the action bar");
  return {boxes: out, width: document.documentElement.clientWidth};
}
"""

# Each seated player's name as drawn: cut (by an ellipsis or a clip) when the text
# is wider or taller than the box that shows it.
_NAMES = """
() => [...document.querySelectorAll("[data-seats] > .seat:not(.empty) .name")].map((el) => {
  const texts = [...el.childNodes].filter((n) => n.nodeType === 3);
  const text = texts.map((n) => n.textContent).join("");
  return {text, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth,
          scrollHeight: el.scrollHeight, clientHeight: el.clientHeight};
})
"""


def overlaps(page: Page) -> list[str]:
    """Every pair of the felt's boxes that overlap by more than the tolerance, and
    every box that leaves the page's width, as sentences."""
    found: dict[str, Any] = page.evaluate(_BOXES)
    boxes: list[dict[str, Any]] = found["boxes"]
    problems = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            wide = min(a["right"], b["right"]) - max(a["left"], b["left"])
            high = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if wide > TOLERANCE and high > TOLERANCE:
                problems.append(f"{a['label']} overlaps {b['label']} by {wide:.0f}x{high:.0f} px")
        if a["left"] < -TOLERANCE or a["right"] > found["width"] + TOLERANCE:
            problems.append(f"{a['label']} leaves the page ({a['left']:.0f} to {a['right']:.0f})")
    return problems


def cut_names(page: Page) -> list[str]:
    """The seated names not shown whole. Names are at most 20 characters, so a name
    shown whole shows its first ten too."""
    names: list[dict[str, Any]] = page.evaluate(_NAMES)
    return [
        f"{n['text']!r} is cut ({n['scrollWidth']}x{n['scrollHeight']} px of text in"
        f" {n['clientWidth']}x{n['clientHeight']})"
        for n in names
        if n["scrollWidth"] > n["clientWidth"] + TOLERANCE
        or n["scrollHeight"] > n["clientHeight"] + TOLERANCE
    ]


@dataclass
class SeatedTable:
    """A started House cash table ($10 buy-in) of API players, every seat taken;
    ``players[0]`` is the host, at seat 1."""

    game_id: int
    players: list[Account]
    version: int = 0

    def game(self) -> dict[str, Any]:
        game: dict[str, Any] = self.players[0].call("GET", f"/api/games/{self.game_id}")
        return game

    def act(self, kind: str) -> dict[str, Any]:
        """The player to act does ``kind`` (fold, check, call, all_in)."""
        game = self.game()
        hand = game["hand"]
        assert hand and hand["running"], "no hand is running"
        by_seat = {s["seat"]: s["user_id"] for s in game["seats"]}
        actor = next(p for p in self.players if p.id == by_seat[hand["seat_to_act"]])
        body = {"kind": kind, "version": game["version"]}
        answer: dict[str, Any] = actor.call("POST", f"/api/games/{self.game_id}/actions", body)
        self.version = int(answer["version"])
        return answer


def seated_table(base: str, count: int, prefix: str) -> SeatedTable:
    """``count`` players whose names share their first 15 characters (as practice
    bots' do: bot-beginner-1...), sat at a table of ``count`` seats, which starts
    when the last one sits down."""
    players = [Account(base, unique_name(f"{prefix}-")[:20]) for _ in range(count)]
    body = {"preset": "house", "format": "cash", "seats": count, "buy_in": 1000}
    game_id = int(players[0].call("POST", "/api/games", body)["game_id"])
    version = 0
    for guest in players[1:]:
        version = int(guest.call("POST", f"/api/games/{game_id}/join", {})["version"])
    return SeatedTable(game_id, players, version)


def long_prefix() -> str:
    """Fifteen characters shared by a table's names, then a number that tells them
    apart."""
    return unique_name("regular-player")[:15]


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => window.cardroomTable && window.cardroomTable.game"
        " && window.cardroomTable.game.version >= v",
        arg=version,
    )


# The chat panel and what it must stay off: the felt (its whole section) and every
# box drawn on it.
_CHAT_AND_FELT = """
() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height};
  };
  const chat = document.querySelector("[data-chat]");
  const felt = document.querySelector("[data-felt-wrap]");
  const drawn = [...document.querySelectorAll(
    "[data-seats] .seat-box, [data-seats] > .seat > .cards, [data-seats] .bet, [data-board] .cards"
  )].map(box);
  return {chat: chat && !chat.hidden ? box(chat) : null, felt: felt ? [box(felt)] : [], drawn,
          width: document.documentElement.clientWidth};
}
"""


def chat_off_the_felt(page: Page) -> list[str]:
    """Where the table's chat panel covers the felt or a box on it, or leaves the
    page's width, as sentences; a page without its chat shown is a problem too."""
    found: dict[str, Any] = page.evaluate(_CHAT_AND_FELT)
    chat = found["chat"]
    if chat is None or chat["width"] <= 0 or chat["height"] <= 0:
        return ["the chat panel is not shown"]
    problems = []
    for label, boxes in (("the felt", found["felt"]), ("a box on the felt", found["drawn"])):
        for other in boxes:
            wide = min(chat["right"], other["right"]) - max(chat["left"], other["left"])
            high = min(chat["bottom"], other["bottom"]) - max(chat["top"], other["top"])
            if wide > TOLERANCE and high > TOLERANCE:
                problems.append(f"the chat overlaps {label} by {wide:.0f}x{high:.0f} px")
    if chat["left"] < -TOLERANCE or chat["right"] > found["width"] + TOLERANCE:
        problems.append(f"the chat leaves the page ({chat['left']:.0f} to {chat['right']:.0f})")
    return problems


def out_of_width(page: Page) -> list[str]:
    """What sticks out sideways on a page of text and tables: the document wider than
    the viewport, or a heading, table, figure or link of the main content reaching past
    the viewport's right edge (a phone would have to scroll sideways to read it)."""
    return list(
        page.evaluate(
            """() => {
              const width = document.documentElement.clientWidth;
              const out = [];
              const wide = document.documentElement.scrollWidth;
              if (wide > width + 1) out.push(`the page is ${wide}px wide in ${width}px`);
              for (const el of document.querySelectorAll(
                  'header.top, main h1, main table, main dl, main svg, main a, main button')) {
                const box = el.getBoundingClientRect();
                const text = (el.textContent || "").trim().slice(0, 30);
                if (box.width && box.right > width + 1)
                  out.push(`${el.tagName} "${text}" ends at ${Math.round(box.right)}px`);
              }
              return out;
            }"""
        )
    )


# The header's own pieces, each a box a player reads or taps: the brand, the Menu
# button, the navigation's links, the your-move badge, the balance, the name and
# Sign out.
_HEADER_BOXES = """
() => {
  const out = [];
  const top = document.querySelector("header.top");
  if (!top) return {boxes: out, width: document.documentElement.clientWidth, header: null};
  const pieces = top.querySelectorAll(
    ".brand, .menu-button, nav a, [data-your-move], .balance, [data-user], [data-sign-out]"
  );
  for (const el of pieces) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const gone = style.display === "none" || style.visibility === "hidden";
    if (el.closest("[hidden]") || gone) continue;
    if (r.width > 0 && r.height > 0) {
      const label = (el.getAttribute("aria-label") || el.textContent || el.className).trim();
      out.push({label, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
    }
  }
  const h = top.getBoundingClientRect();
  const main = document.querySelector("main");
  const m = main ? main.getBoundingClientRect() : null;
  return {boxes: out, width: document.documentElement.clientWidth,
          header: {bottom: h.bottom}, mainTop: m ? m.top : null};
}
"""


def header_overlaps(page: Page) -> list[str]:
    """Where the header's pieces overlap each other, leave the page's width, or the
    header runs into the page under it, as sentences."""
    found: dict[str, Any] = page.evaluate(_HEADER_BOXES)
    boxes: list[dict[str, Any]] = found["boxes"]
    if not boxes:
        return ["the page has no header"]
    problems = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            wide = min(a["right"], b["right"]) - max(a["left"], b["left"])
            high = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if wide > TOLERANCE and high > TOLERANCE:
                size = f"{wide:.0f}x{high:.0f} px"
                problems.append(f"{a['label']!r} overlaps {b['label']!r} by {size}")
        if a["left"] < -TOLERANCE or a["right"] > found["width"] + TOLERANCE:
            problems.append(f"{a['label']!r} leaves the page ({a['left']:.0f} to {a['right']:.0f})")
    main_top = found["mainTop"]
    if main_top is not None and found["header"]["bottom"] > main_top + TOLERANCE:
        problems.append("the header runs into the page under it")
    return problems
