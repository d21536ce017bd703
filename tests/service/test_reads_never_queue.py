"""Pages that only read (the history, the statement, the balance, the sign-in
lookup) do not wait for a command holding the database: on SQLite a write
transaction holds the one writer lock for as long as it runs, and a read that began
``BEGIN IMMEDIATE`` would queue behind every command of every table."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from cardroom.service import accounts, histories, money
from cardroom.service.context import ServiceContext
from tests.service.gamekit import PASSWORD, players

HOLD_SECONDS = 1.5


def test_reads_run_while_a_command_holds_the_database(ctx: ServiceContext) -> None:
    (alice,) = players(ctx, "alice")
    token = accounts.sign_in(ctx, "alice", PASSWORD).token
    reads: dict[str, Callable[[], object]] = {
        "history": lambda: histories.my_history(ctx, alice),
        "statement": lambda: money.statement(ctx, alice),
        "balance": lambda: money.balance(ctx, alice),
        "sign-in lookup": lambda: accounts.user_for_token(ctx, token),
    }
    holding, release = threading.Event(), threading.Event()

    def command() -> None:  # a write transaction that takes its time
        with ctx.transaction() as session:
            accounts._session_for_token(ctx, session, token)
            holding.set()
            release.wait(HOLD_SECONDS)

    writer = threading.Thread(target=command)
    writer.start()
    try:
        assert holding.wait(5)
        for name, read in reads.items():
            began = time.monotonic()
            read()
            took = time.monotonic() - began
            assert took < HOLD_SECONDS / 2, f"the {name} waited {took:.2f} s for the writer"
    finally:
        release.set()
        writer.join()


def test_a_write_does_wait(ctx: ServiceContext) -> None:
    """The other side, so the test above can fail: a second write transaction on
    SQLite does wait for the first (PostgreSQL locks rows, not the database)."""
    players(ctx, "bob")
    holding, release = threading.Event(), threading.Event()

    def command() -> None:
        with ctx.transaction() as session:
            money.ledger.house_account(session)
            holding.set()
            release.wait(HOLD_SECONDS)

    writer = threading.Thread(target=command)
    writer.start()
    try:
        assert holding.wait(5)
        began = time.monotonic()
        threading.Timer(0.5, release.set).start()
        with ctx.transaction() as session:
            money.ledger.house_account(session)
        waited = time.monotonic() - began
    finally:
        release.set()
        writer.join()
    if ctx.engine.dialect.name == "sqlite":
        assert waited >= 0.4
    else:
        assert waited < 0.4
