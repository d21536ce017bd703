"""Every control the pages render, and the tests that click it.

``test_ui_inventory`` walks the room through its states (signed out; the lobby with
tables to join, one too dear and one's own; each table before, during and after a
hand, seated, standing, as host, as admin, eliminated; the history, account and admin
pages), reads every visible button, link, field and menu, and fails on one that
``CONTROLS`` does not list, or on a listed one that no state renders any more.

A control is written as its page, its kind and its name with what changes from game
to game put in braces: a player's name is ``{player}``, a clock ``{time}``, and an
amount (dollars or points) or a game, hand or seat number ``{n}``, so a control
reads the same at a money table and a points table. Each names the tests (``file::function``
under tests/ui) that click or fill it and check what it did on the server; the
inventory test checks that those functions exist and mention the control.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from playwright.sync_api import Page

# What the browser can tell of each visible control: its kind (a tag, and an input's
# type), the name a person would call it by (its label, its text), and whether it sits
# in the header, which every signed-in page shares.
COLLECT_JS = """
(within) => {
  const shown = el => {
    if (el.closest('[hidden]')) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    return el.getClientRects().length > 0;
  };
  const words = text => (text || '').replace(/\\s+/g, ' ').trim();
  const nameOf = el => {
    const aria = el.getAttribute('aria-label');
    if (aria) return words(aria);
    if (el.labels && el.labels.length) return words(el.labels[0].textContent);
    const text = words(el.textContent);
    if (text) return text;
    return words(el.value || el.placeholder || el.title || el.name || '');
  };
  const kindOf = el => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'input') return 'input:' + (el.type || 'text');
    return tag;
  };
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const root = within ? document.querySelector(within) : document;
  return [...root.querySelectorAll(selector)].filter(shown).map(el => ({
    kind: kindOf(el),
    name: nameOf(el),
    header: !!el.closest('header.top'),
  }));
}
"""

_MONEY = re.compile(r"[−-]?\$[\d,]+(?:\.\d+)?")
_TIME = re.compile(r"\b\d+:\d\d\b")
_NUMBER = re.compile(r"\d(?:[\d,]*\d)?")


def normalise(name: str, players: Iterable[str]) -> str:
    """A control's name with what changes between games put in braces."""
    for player in sorted(players, key=len, reverse=True):
        name = name.replace(player, "{player}")
    name = _MONEY.sub("{n}", name)
    name = _TIME.sub("{time}", name)
    return _NUMBER.sub("{n}", name)


def controls_on(
    page: Page, where: str, players: Iterable[str], within: str | None = None
) -> set[str]:
    """The page's visible controls as inventory keys: "lobby | button | Join for
    {money}"; the header's are "header | ..." whatever the page. ``within`` (a CSS
    selector) reads only the controls inside it: an open dialog's."""
    found: list[dict[str, Any]] = page.evaluate(COLLECT_JS, within)
    names = list(players)
    return {
        f"{'header' if c['header'] else where} | {c['kind']} | {normalise(c['name'], names)}"
        for c in found
    }
