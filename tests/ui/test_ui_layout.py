"""The table's layout, measured: on a phone (390x844) and a desktop (1280x800), with
2, 3, 6 and 10 players, before the flop, at an all-in and at a showdown, no two of
the seat boxes, hole cards, bet chips, the board and the pot overlap, none leaves
the page, and every name shows whole. One table per player count serves every
phase and both screens; a screenshot of each case is kept under artifacts/ui/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.ui.conftest import Room
from tests.ui.kit import visit
from tests.ui.layout_kit import cut_names, long_prefix, overlaps, seated_table, wait_for_version

pytestmark = pytest.mark.slow

SCREENS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}

FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


@pytest.mark.parametrize("count", [2, 3, 6, 10])
def test_nothing_on_the_felt_overlaps(
    room: Room, browser: Browser, artifacts: Path, count: int
) -> None:
    table = seated_table(room.base, count, long_prefix())
    viewer = table.players[0].open(browser, viewport=SCREENS["desktop"])
    visit(viewer.page, room.url(f"/games/{table.game_id}"))
    wait_for_version(viewer.page, table.version)
    problems: list[str] = []

    def check(phase: str) -> None:
        wait_for_version(viewer.page, table.version)
        for screen, size in SCREENS.items():
            viewer.page.set_viewport_size(size)
            # two frames: the table places its seats again once it has its new size
            viewer.page.evaluate(FRAMES)
            case = f"{count} players, {phase}, {screen}"
            problems.extend(f"{case}: {p}" for p in overlaps(viewer.page) + cut_names(viewer.page))
            viewer.shot(artifacts, f"layout-{count}-{phase}-{screen}")

    if count == 2:  # heads up the viewer acts first: the whole action bar is up
        expect(viewer.page.locator("[data-actions] [data-bet]")).to_be_visible()
        check("your-turn")
    # before the flop: everyone but the big blind has called, so every seat has a bet
    for _ in range(count - 1):
        table.act("call")
    check("preflop")
    # the big blind moves all in: the hand runs on, the others to answer
    table.act("all_in")
    check("all-in")
    # everyone calls it: the board runs out and every hand is shown
    for _ in range(count - 1):
        table.act("call")
    expect(viewer.page.locator("[data-result]")).to_be_visible()
    check("showdown")
    assert not table.game()["hand"]["running"]
    shown = viewer.page.locator("[data-seats] .seat .cards .card[data-suit]")
    expect(shown).to_have_count(2 * count)  # the showdown's case has every hand face up

    viewer.context.close()
    assert not viewer.errors, viewer.errors
    assert not problems, "\n".join(problems)
