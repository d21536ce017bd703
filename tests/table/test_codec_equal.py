"""The table's codec against the one it replaced (``tests/table/codec_before.py``):
over many played tables of every format and preset, at every step, the state it
writes is the same dict, key for key, in the same order and of the same types, so the
same JSON text; a table it reads is the same table; and a state written once does not
change as the table plays on (the new codec reuses what never changes)."""

from __future__ import annotations

import contextlib
import json
import math
import tracemalloc
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.actions import IllegalAction
from cardroom.deck import SeededRandomSource
from cardroom.hand import Hand
from cardroom.rules import PRESETS, Rules, RulesError, preset
from cardroom.store import json_text
from cardroom.table import (
    BlindSchedule,
    Table,
    TableConfig,
    TableError,
    TableStatus,
    table_from_dict,
    table_to_dict,
)
from cardroom.table.codec import hand_json, table_json
from tests.table import codec_before as before
from tests.table.codec_before import same
from tests.table.kit import Ledger
from tests.table.rules_check import PositionChecker
from tests.table.test_properties import BUY_IN, Run, command

# The parts of a hand's state ``json_dict`` keeps as text.
PARTS = ("rules", "setup", "deck", "events")

# A hand's memos of its plain data and its JSON text (``to_dict``, ``json_dict``).
MEMOS = ("_plain", "_json")


def same_hand(new: Hand, old: Hand) -> None:
    """Two hands read from the same data hold the same values (the new one's own
    memos of its plain data aside)."""
    mine = {k: v for k, v in vars(new).items() if not k.startswith(MEMOS)}
    theirs = {k: v for k, v in vars(old).items() if not k.startswith(MEMOS)}
    assert sorted(mine) == sorted(theirs)
    for key in mine:
        if key in ("rules", "setup"):
            assert mine[key] == theirs[key], key
            for name, value in vars_of(mine[key]).items():
                same(value, vars_of(theirs[key])[name], f"hand.{key}.{name}")
        else:
            same(mine[key], theirs[key], f"hand.{key}")
    if not new.is_over and new.to_act >= 0:
        assert new.legal_actions() == old.legal_actions()


def vars_of(obj: Any) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__ if name != "_plain"}


def same_table(new: Table, old: Table) -> None:
    for name in Table.__dataclass_fields__:
        if name == "hand":
            assert (new.hand is None) == (old.hand is None)
            if new.hand is not None and old.hand is not None:
                same_hand(new.hand, old.hand)
        elif name == "config":
            assert new.config == old.config
            same(vars_of(new.config.rules), vars_of(old.config.rules), "config.rules")
        else:
            value = getattr(new, name)
            assert value == getattr(old, name), name
            assert type(value) is type(getattr(old, name)), name


class Checked(Run):
    """A run whose every step's state is held to the old codec's, then played on
    from the table in memory (as the committer keeps it) or from the state read
    back (as a table not kept is), turn about."""

    step_count: int = 0
    snapshots: list[tuple[dict[str, Any], str]]
    saved: list[tuple[orjson.Fragment | dict[str, Any], str]]

    def check(self) -> None:
        assert self.ledger.total() + self.table.money_held() == self.granted
        table = self.table
        data = table_to_dict(table)
        same(data, before.table_to_dict(table), "state")
        text = json_text.dumps(data)
        assert text == json_text.dumps(before.table_to_dict(table))
        # the save's JSON text, the same bytes, and a snapshot too
        saved = table_json(table)
        assert isinstance(saved, orjson.Fragment)
        assert json_text.dumps(saved) == text
        self.saved.append((saved, text))
        for old_saved, old_text in self.saved[-5:]:
            assert json_text.dumps(old_saved) == old_text
        if table.hand is not None:
            same(table.hand.to_dict(), before.hand_to_dict(table.hand), "hand")
        # written once, a state stays as written while the table plays on
        self.snapshots.append((data, text))
        for old_data, old_text in self.snapshots[-5:]:
            assert json_text.dumps(old_data) == old_text
        # read back: from the dict itself and from its JSON text, as the old codec reads
        for source in (data, json_text.loads(text)):
            fresh = table_from_dict(source)
            same_table(fresh, before.table_from_dict(source))
            same(table_to_dict(fresh), data, "read back")
        self.step_count += 1
        if self.step_count % 2 == 0:
            self.table = table_from_dict(json_text.loads(text))


def run_checked(config: TableConfig, commands: list[tuple[str, int, Any]]) -> Checked:
    ledger = Ledger({p: 3 * BUY_IN for p in range(1, 8)})
    table = Table.create(config)
    run = Checked(table, ledger, PositionChecker(config.button_rule, config.seat_count))
    run.snapshots, run.saved = [], []
    run.granted = ledger.total()
    for p in range(1, min(4, config.seat_count) + 1):
        run.apply(table.sit(p, 0.0, balance=ledger.balances[p]))
    run.apply(table.start(0.0, SeededRandomSource(0)))
    run.check()
    for cmd in commands:
        with contextlib.suppress(TableError, IllegalAction):  # a refusal: no change
            run.step(cmd)
        run.check()
    return run


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    st.sampled_from(
        [
            ("cash", "house", 6),
            ("cash", "legacy", 9),
            ("cash", "house", 2),
            ("per_hand", "standard", 6),
        ]
    ),
    st.lists(command, min_size=10, max_size=60),
)
def test_random_play_writes_and_reads_as_before(
    shape: tuple[str, str, int], commands: list[tuple[str, int, Any]]
) -> None:
    fmt, rules, seats = shape
    config = TableConfig.create(fmt, rules, buy_in=BUY_IN, seat_count=seats)
    run_checked(config, commands)


@pytest.mark.parametrize("rules", ["house", "legacy", "arena"])
def test_tournaments_write_and_read_as_before(rules: str) -> None:
    schedule = None if rules == "arena" else BlindSchedule.by_hands(3, 100)
    payouts = None if rules == "arena" else (65, 35)
    config = TableConfig.create(
        "tournament", rules, buy_in=BUY_IN, seat_count=9, blinds=(10, 20),
        schedule=schedule, payouts=payouts,
    )  # fmt: skip
    ledger = Ledger({p: BUY_IN for p in range(1, 10)})
    table = Table.create(config)
    run = Checked(table, ledger, PositionChecker(config.button_rule, config.seat_count))
    run.snapshots, run.saved = [], []
    run.granted = ledger.total()
    for p in range(1, 10):
        run.apply(table.sit(p, 0.0, balance=BUY_IN))
    run.apply(table.start(0.0, SeededRandomSource(7)))
    for k in range(300):
        if run.table.status is TableStatus.FINISHED:
            break
        run.step(("act", k, 1) if k % 3 else ("hand", k, None))
        run.check()
    assert run.table.status is TableStatus.FINISHED


def test_a_hand_kept_in_memory_writes_each_step_as_before() -> None:
    """The committer's way: one hand object written after every action, the events
    logged since the last write converted, the others reused."""
    from tests.handkit import act, deal

    hand = deal([1000, 1000, 1000], rules="legacy")
    written = []
    for move in ["c", "c", "x", "b100", "c", "f", "x", "x", "b100", "r300", "c", "x", "x"]:
        if hand.is_over:
            break
        act(hand, move)
        data = hand.to_dict()
        same(data, before.hand_to_dict(hand), move)
        written.append((data, json.dumps(data)))
    for data, text in written:
        assert json.dumps(data) == text  # none changed by what came after
    # a log replaced (no code does) is converted afresh
    hand.events = hand.events[:3]
    same(hand.to_dict(), before.hand_to_dict(hand), "replaced log")
    assert orjson.dumps(hand.json_dict()) == orjson.dumps(hand.to_dict())


def test_a_hand_kept_in_memory_writes_the_same_json_text_each_step() -> None:
    """``Hand.json_dict`` (the save's way): each step's text is ``to_dict``'s, the
    events logged since the last write joined to the text of those before."""
    from tests.handkit import act, deal

    hand = deal([1000, 1000, 1000], rules="legacy")
    assert orjson.dumps(hand.json_dict()) == orjson.dumps(hand.to_dict())
    for move in ["c", "c", "x", "b100", "c", "f", "x", "x", "b100", "r300", "c", "x", "x"]:
        if hand.is_over:
            break
        act(hand, move)
        assert orjson.dumps(hand.json_dict()) == orjson.dumps(hand.to_dict()), move
        assert orjson.dumps(hand.json_dict()) == orjson.dumps(hand.to_dict()), move  # again
    hand.events = []  # a log replaced, emptied: written afresh
    assert orjson.dumps(hand.json_dict()) == orjson.dumps(hand.to_dict())
    hand.deck = hand.deck[::-1]  # another deck (no code does): written afresh
    assert orjson.dumps(hand.json_dict()) == orjson.dumps(hand.to_dict())


def test_a_finished_hand_writes_its_final_state_as_its_data() -> None:
    """``hand_json`` (a finished hand's row, ``GameTx``): the column writes the same
    text as for ``to_dict``'s data, at every step and at the end, after the save's
    ``json_dict`` made its texts or before."""
    from tests.handkit import act, deal

    hand = deal([1000, 1000, 1000], rules="legacy")
    for move in ["c", "c", "x", "b100", "c", "f", "x", "x", "b100", "r300", "c", "x", "x"]:
        if hand.is_over:
            break
        act(hand, move)
        if move != "x":
            hand.json_dict()  # the save's texts made, as at most commands
        assert json_text.dumps(hand_json(hand)) == json_text.dumps(hand.to_dict()), move
    assert hand.is_over
    assert json_text.dumps(hand_json(hand)) == json_text.dumps(hand.to_dict())


def test_the_texts_a_kept_hand_holds_take_their_own_size() -> None:
    """What ``json_dict`` keeps for the next save (the rules', setup's, deck's and
    events' texts) is traced at about its length, not at orjson's writing buffer of
    4 KB or more a text: a hand is kept for as long as its table is played."""
    from tests.handkit import act, deal

    hands = [deal([1000, 1000, 1000], rules="legacy") for _ in range(20)]
    for hand in hands:
        act(hand, "c")
        hand.to_dict()  # its plain data made and kept first: the texts alone are traced
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for hand in hands:
            hand.json_dict()
        kept = (tracemalloc.get_traced_memory()[0] - before) / len(hands)
    finally:
        tracemalloc.stop()
    length = sum(len(orjson.dumps(hand.to_dict()[part])) for part in PARTS for hand in hands)
    assert kept < 1.5 * length / len(hands) + 512, (kept, length / len(hands))


def test_a_state_orjson_refuses_is_saved_as_its_data() -> None:
    """A whole number past 64 bits (no table holds one in play) leaves the save its
    data, which the column writes through the standard library as before."""
    config = TableConfig.create("cash", "house", buy_in=BUY_IN, seat_count=2)
    table = Table.create(config)
    table.sit(1, 0.0, balance=10 * BUY_IN)
    table.prize_pool = 2**70
    saved = table_json(table)
    assert not isinstance(saved, orjson.Fragment)
    assert saved == table_to_dict(table)
    assert json_text.dumps(saved) == json.dumps(table_to_dict(table))


# --------------------------------------------------------------------- the rules


RULES = [
    *PRESETS.values(),
    preset("house", turn_clock_seconds=600, raise_cap=None),
    preset("standard", formats=("per_hand", "cash")),
    preset("arena", between_hands_seconds=5),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_rules_write_and_read_as_before(rules: Rules) -> None:
    data = rules.to_dict()
    same(data, before.rules_to_dict(rules))
    data["formats"].append("x")  # the caller's own copy: what is kept is not touched
    data["name"] = "changed"
    same(rules.to_dict(), before.rules_to_dict(rules))
    stored = json.loads(json.dumps(rules.to_dict()))
    for _ in range(2):  # read afresh, then found among the rules already read
        read = Rules.from_dict(stored)
        assert read == before.rules_from_dict(stored) == rules
        same(vars_of(read), vars_of(before.rules_from_dict(stored)))


def test_rules_data_that_only_compare_equal_are_read_apart() -> None:
    stored = json.loads(json.dumps(preset("house").to_dict()))
    assert Rules.from_dict(stored).cash_rebuy is True
    as_one = {**stored, "cash_rebuy": 1}  # 1 == True, but another text
    read = vars_of(Rules.from_dict(as_one))
    same(read, vars_of(before.rules_from_dict(as_one)))
    assert type(read["cash_rebuy"]) is int
    as_float = {**stored, "turn_clock_seconds": 120.0}
    assert type(vars_of(Rules.from_dict(as_float))["turn_clock_seconds"]) is float
    not_a_number = {**stored, "raise_cap": float("nan")}  # its JSON text is null
    assert math.isnan(vars_of(Rules.from_dict(not_a_number))["raise_cap"])
    assert Rules.from_dict({**stored, "raise_cap": None}).raise_cap is None
    assert math.isnan(vars_of(Rules.from_dict(not_a_number))["raise_cap"])


def test_rules_data_written_before_an_option_existed_gets_the_presets() -> None:
    for name in PRESETS:
        partial = json.loads(json.dumps(preset(name).to_dict()))
        del partial["rejoin_window_seconds"], partial["cash_rebuy"]
        for _ in range(2):
            same(vars_of(Rules.from_dict(partial)), vars_of(before.rules_from_dict(partial)))


def test_rules_refuse_what_they_refused() -> None:
    stored = preset("house").to_dict()
    with pytest.raises(RulesError, match="Unknown rule option: colour"):
        Rules.from_dict({**stored, "colour": "blue"})
    with pytest.raises(RulesError, match="not a value of showdown"):
        Rules.from_dict({**stored, "showdown": "never"})
    with pytest.raises(RulesError, match="Unknown rule option: _plain"):
        Rules.from_dict({**stored, "_plain": None})
    with pytest.raises(RulesError, match="Unknown rule option: _plain"):
        preset("house").with_options(_plain=None)
