"""What a showdown leaves on the table: the five cards that win are marked (to see
and in words for a screen reader), and the table log's line numbers show whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from cardroom.cards import parse_card
from cardroom.evaluator import evaluate
from tests.ui.conftest import Room
from tests.ui.kit import visit
from tests.ui.layout_kit import long_prefix, seated_table, wait_for_version
from tests.ui.test_ui_play import card_text

pytestmark = pytest.mark.slow

# The widest line number of the log, in the log's own font, against the room the list
# leaves for its numbers: a scrolling list cuts off a number wider than its padding.
NUMBERS_FIT = """
() => {
  const log = document.querySelector("[data-log]");
  const style = getComputedStyle(log);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.position = "absolute";
  probe.style.whiteSpace = "pre";
  probe.textContent = `${log.childElementCount}. `;
  document.body.append(probe);
  const wide = probe.getBoundingClientRect().width;
  probe.remove();
  return {lines: log.childElementCount, wide, room: parseFloat(style.paddingLeft)};
}
"""


def test_the_winning_five_are_marked_and_log_numbers_show(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    table = seated_table(room.base, 2, long_prefix())
    viewer = table.players[0].open(browser)
    visit(viewer.page, room.url(f"/games/{table.game_id}"))
    table.act("all_in")
    table.act("call")  # a showdown: both hands face up, the board run out
    page = viewer.page
    wait_for_version(page, table.version)
    expect(page.locator("[data-result]")).to_be_visible()

    game = table.game()
    hand = game["hand"]
    board = hand["board"]
    hands = {p["seat"]: p["cards"] for p in hand["players"]}
    ranks = {
        seat: evaluate([parse_card(c) for c in cards + board]) for seat, cards in hands.items()
    }
    best = max(ranks.values())
    winners = [seat for seat, rank in ranks.items() if rank == best]

    marked = page.locator(".card.best")
    if len(winners) == 1:
        seat = winners[0]
        scopes = (f".seat[data-seat='{seat}']", "[data-board]")
        labels: list[str] = []
        for scope in scopes:
            labels += page.locator(f"{scope} .card.best").evaluate_all(
                "cs => cs.map(c => c.getAttribute('aria-label'))"
            )
        assert len(labels) == 5, labels
        five = [card_text(label) for label in labels]
        # the marked five are a best five of the winner's seven
        assert evaluate([parse_card(c) for c in five]) == best, (five, hands[seat], board)
        # and a screen reader hears which they are, after the cards
        words = " ".join(
            " ".join(page.locator(f"{scope} [data-best-words]").all_text_contents())
            for scope in scopes
        )
        for label in labels:
            assert label in words, (label, words)
        loser = next(s for s in hands if s != seat)
        expect(page.locator(f".seat[data-seat='{loser}'] .card.best")).to_have_count(0)
    expect(marked.first).to_be_visible()
    viewer.shot(artifacts, "showdown-winning-five")

    page.locator("[data-log-box] summary").click()
    fit = page.evaluate(NUMBERS_FIT)
    assert fit["lines"] >= 10, fit
    assert fit["wide"] <= fit["room"], fit  # the widest number fits its margin
    viewer.context.close()
    assert not viewer.errors, viewer.errors
