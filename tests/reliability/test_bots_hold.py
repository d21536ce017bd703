"""``bots.hold``: once it returns, no bot sends anything until ``go`` is set again,
not even one that looked at ``go`` just before it was cleared (the crash test looks
at the rows after a kill and takes every change until then for the clock's)."""

from __future__ import annotations

import threading
import time

import httpx

from tests.reliability.bots import Bot, BotStats, Seat, hold
from tests.reliability.clients import Player


class SlowBot(Bot):
    """Its step stands for a request sent late: it waits for ``release`` after its
    look at ``go`` let it through, then counts one request sent."""

    def __init__(self, go: threading.Event, stop: threading.Event) -> None:
        player = Player("ann", 1, "token")
        seat = Seat(1, player, "regular")
        super().__init__("http://127.0.0.1:9", seat, go, stop, BotStats(), seed="unused")
        self.entered = threading.Event()
        self.release = threading.Event()
        self.sent: list[bool] = []  # each request sent: whether ``go`` was set then

    def step(self, client: httpx.Client) -> bool:
        self.entered.set()
        self.release.wait(timeout=10)
        self.sent.append(self.go.is_set())
        return False


def test_hold_waits_for_a_request_let_through_before_it() -> None:
    go, stop = threading.Event(), threading.Event()
    bot = SlowBot(go, stop)
    go.set()
    bot.start()
    try:
        assert bot.entered.wait(timeout=10)  # the bot saw ``go`` set and is on its way
        held = threading.Thread(target=hold, args=(go, [bot]))
        held.start()
        held.join(timeout=0.3)
        assert held.is_alive(), "hold returned with a request still on its way"
        bot.release.set()  # the late request goes (to the dead server: it fails)
        held.join(timeout=10)
        assert not held.is_alive()
        sent_by_then = len(bot.sent)
        time.sleep(0.3)
        assert len(bot.sent) == sent_by_then, "a bot sent while held"
        assert bot.sent == [False]  # the one sent late, none after
    finally:
        stop.set()
        bot.release.set()
        bot.join(timeout=10)
    assert bot.error is None
