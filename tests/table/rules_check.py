"""Independent checks of where the button and blinds went, written from the rules'
words rather than from the implementation, for scenario and property tests."""

from __future__ import annotations

from dataclasses import dataclass, field

from cardroom.rules import ButtonRule
from cardroom.table.events import HandDealt


def strictly_between(a: int, b: int, seat: int, seat_count: int) -> bool:
    """Is ``seat`` met going clockwise from ``a`` to ``b``, both excluded?"""
    k = a % seat_count + 1
    while k != b:
        if k == seat:
            return True
        k = k % seat_count + 1
    return False


@dataclass
class PositionChecker:
    rule: ButtonRule
    seat_count: int
    previous: HandDealt | None = None
    previous_sb_position: int | None = None
    hands: int = field(default=0)

    def check(self, cur: HandDealt) -> None:
        n = self.seat_count
        seats = [s for s, _, _ in cur.players]
        players = {s: p for s, p, _ in cur.players}
        assert cur.big_blind in seats
        if len(seats) == 2:
            assert cur.button == cur.small_blind, cur  # heads-up: the button posts the SB
            assert cur.button in seats and cur.button != cur.big_blind
        else:
            if cur.small_blind is not None:
                assert cur.small_blind != cur.big_blind
            sb_position = self._sb_position(cur)
            # nobody dealt in sits between the button and the SB or the SB and the BB
            for s in seats:
                assert not strictly_between(cur.button, sb_position, s, n), cur
                assert not strictly_between(sb_position, cur.big_blind, s, n), cur
            if self.rule is not ButtonRule.DEAD_BUTTON and not self._both_blinds_left(cur):
                assert cur.button in seats and cur.small_blind in seats, cur
        prev = self.previous
        if prev is not None:
            self._transition(prev, cur, players)
        self.previous_sb_position = cur.small_blind if len(seats) == 2 else self._sb_position(cur)
        self.previous = cur
        self.hands += 1

    def _both_blinds_left(self, cur: HandDealt) -> bool:
        """Moving big blind, RULES.md: "if the last BB left, button and SB stay put for
        one hand (if the SB's player left too, nobody posts the small blind that
        hand)". With both blinds' seats empty the button stays too, maybe on an
        empty seat."""
        prev, last_sb = self.previous, self.previous_sb_position  # posted or empty
        seats = {s for s, _, _ in cur.players}
        return (
            self.rule is ButtonRule.MOVING_BIG_BLIND
            and prev is not None
            and prev.button != last_sb  # not heads-up before
            and last_sb not in seats
            and prev.big_blind not in seats
            # nobody who came in at once after a pause sits between the blinds
            and not any(strictly_between(last_sb, cur.big_blind, s, self.seat_count) for s in seats)
        )

    def _sb_position(self, cur: HandDealt) -> int:
        if cur.small_blind is not None:
            return cur.small_blind
        assert self.previous is not None
        if self._both_blinds_left(cur):
            assert self.previous_sb_position is not None
            return self.previous_sb_position  # the empty seat of the last SB, not posted
        assert self.rule is ButtonRule.DEAD_BUTTON
        return self.previous.big_blind  # a dead small blind sits on the last BB's seat

    def _transition(self, prev: HandDealt, cur: HandDealt, players: dict[int, int]) -> None:
        n = self.seat_count
        prev_players = {s: p for s, p, _ in prev.players}
        both = {s for s in players if prev_players.get(s) == players[s]}
        last_bb_stays = prev.big_blind in both
        if self.rule is ButtonRule.SIMPLE_ROTATION:
            # the button moves to the next player dealt in
            for s in players:
                assert not strictly_between(prev.button, cur.button, s, n), (prev, cur)
            assert cur.button != prev.button or cur.button not in both or len(players) == 1
            return
        # moving big blind and dead button: the BB moves to the next player, never twice
        if last_bb_stays:
            assert cur.big_blind != prev.big_blind, (prev, cur)
        for s in both:  # nobody skips the big blind
            assert not strictly_between(prev.big_blind, cur.big_blind, s, n), (prev, cur)
        if len(players) == 2:
            return
        if self._both_blinds_left(cur):
            assert cur.small_blind is None and cur.button == prev.button, (prev, cur)
            return
        if self.rule is ButtonRule.DEAD_BUTTON and prev.button != prev.small_blind:
            assert self._sb_position(cur) == prev.big_blind, (prev, cur)
            assert cur.button == self.previous_sb_position, (prev, cur)
        stay_put = (
            self.rule is ButtonRule.MOVING_BIG_BLIND
            and not last_bb_stays
            and prev.small_blind in both
            and prev.button in both
            and len(prev.players) > 2
        )
        if stay_put:  # the last BB left: the button and the small blind stay where they were
            assert cur.small_blind == prev.small_blind, (prev, cur)
            assert cur.button == prev.button, (prev, cur)
