"""The storage commands end to end: ``cardroom db``, ``cardroom admin``, ``cardroom
audit``. A refusal is one sentence and exit status 2, never a traceback."""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, update

import cardroom.cli
from cardroom.cli import main
from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine
from cardroom.store.models import LedgerAccount

Unchanged = Callable[[], AbstractContextManager[None]]
MINE = ("db_cmd", "admin_cmd", "audit_cmd")


@pytest.fixture(autouse=True)
def commands(monkeypatch: pytest.MonkeyPatch) -> None:
    # Offer these commands whether or not the dispatcher lists them yet.
    listed = tuple(cardroom.cli.COMMAND_MODULES)
    monkeypatch.setattr(
        cardroom.cli, "COMMAND_MODULES", listed + tuple(m for m in MINE if m not in listed)
    )
    monkeypatch.setenv("CARDROOM_PASSWORD_HASHING", "cheap")
    monkeypatch.delenv("CARDROOM_DATABASE_URL", raising=False)


@pytest.fixture
def url(db: Engine, monkeypatch: pytest.MonkeyPatch) -> str:
    """The migrated test database, made the commands' default."""
    text = db.url.render_as_string(hide_password=False)
    monkeypatch.setenv("CARDROOM_DATABASE_URL", text)
    return text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's own refusals
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_db_upgrade_sets_up_an_empty_database(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "db", "status", "--database-url", empty_database_url)
    assert status == 1 and "no revision (empty)" in out

    status, out, _ = run(capsys, "db", "upgrade", "--database-url", empty_database_url)
    assert status == 0
    assert f"is at revision {migrate.head_revision()}, the latest." in out

    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        assert migrate.is_up_to_date(engine)
        assert "users" in inspect(engine).get_table_names()
    finally:
        engine.dispose()
    assert run(capsys, "db", "status", "--database-url", empty_database_url)[0] == 0


def test_db_upgrade_works_from_any_directory_with_the_default_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "db", "upgrade")
    assert status == 0 and "sqlite:///./var/cardroom.db" in out
    assert (tmp_path / "var" / "cardroom.db").is_file()


def test_the_url_password_is_never_printed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(
        capsys, "db", "upgrade", "--database-url", "postgresql+psycopg://u:hunter2@127.0.0.1:1/x"
    )
    assert status == 2
    assert err.startswith("cardroom: Cannot use the database at postgresql+psycopg://u:***@")
    assert "hunter2" not in err


@pytest.mark.parametrize(
    ("env", "sentence"),
    [
        ({"CARDROOM_DATABASE_URL": "not a url"}, "is not a database URL"),
        ({"CARDROOM_SESSION_HOURS": "forever"}, "CARDROOM_SESSION_HOURS must be a whole number"),
    ],
)
def test_bad_configuration_is_a_sentence(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    sentence: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    status, _, err = run(capsys, "db", "upgrade")
    assert status == 2 and sentence in err


def test_commands_refuse_a_database_that_is_not_set_up(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (
        ("audit",),
        ("admin", "grant", "alice", "1", "--reason", "r"),
        ("admin", "create-user", "alice", "--password", "long enough"),
    ):
        status, _, err = run(capsys, *argv, "--database-url", empty_database_url)
        assert status == 2
        assert "is not up to date; run `cardroom db upgrade` first." in err


def test_create_the_first_admin_then_grant_and_audit(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys, "admin", "create-user", "admin", "--admin", "--password", "s3cret pass"
    )
    assert status == 0
    assert out == "Created admin admin with a balance of $100.00.\n"
    status, out, _ = run(capsys, "admin", "create-user", "Alice", "--password", "hunter2 hunter2")
    assert (status, out) == (0, "Created player Alice with a balance of $100.00.\n")

    status, out, _ = run(capsys, "admin", "grant", "alice", "12.50", "--reason", "welcome back")
    assert (status, out) == (0, "Granted $12.50 to alice; balance now $112.50.\n")
    status, out, _ = run(capsys, "admin", "remove", "alice", "$2", "--reason", "typo fix")
    assert (status, out) == (0, "Removed $2.00 from alice; balance now $110.50.\n")

    status, out, _ = run(capsys, "audit")
    assert status == 0
    assert "granted                $212.50" in out
    assert "money in play          $210.50  (granted minus removed: $210.50)" in out
    assert out.endswith("No differences: every cent is accounted for.\n")


def test_suspend_and_reinstate(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "admin", "create-user", "alice", "--password", "long enough")
    assert run(capsys, "admin", "suspend", "alice", "--reason", "x")[1] == (
        "Suspended alice; their sessions have ended.\n"
    )
    status, _, err = run(capsys, "admin", "suspend", "alice", "--reason", "x")
    assert (status, err) == (2, "cardroom: alice is already suspended.\n")
    assert run(capsys, "admin", "reinstate", "alice", "--reason", "y")[0] == 0


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (("grant", "alice", "-5"), "'-5' is not an amount of money"),
        (("grant", "alice", "12.345"), "is not an amount of money"),
        (("grant", "alice", "ten"), "is not an amount of money"),
        (("grant", "alice", "0"), "An amount must be more than $0.00."),
        (("grant", "alice", "1000000.01"), "moves at most $1,000,000.00"),
        (("grant", "nobody", "1"), "There is no user called 'nobody'."),
        (("remove", "alice", "100.01"), "A balance of $100.00 does not cover $100.01."),
        (("grant", "alice", "1", "--reason", " "), "Give a reason"),
    ],
)
def test_bad_admin_input_is_refused_and_changes_nothing(
    url: str,
    capsys: pytest.CaptureFixture[str],
    unchanged: Unchanged,
    argv: tuple[str, ...],
    sentence: str,
) -> None:
    run(capsys, "admin", "create-user", "alice", "--password", "long enough")
    if "--reason" not in argv:
        argv += ("--reason", "testing")
    with unchanged():
        status, out, err = run(capsys, "admin", *argv)
    assert (status, out) == (2, "")
    assert err == f"cardroom: {sentence}\n" or sentence in err


def test_a_reason_is_required_on_the_command_line(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "admin", "grant", "alice", "1")
    assert status == 2 and "--reason" in err


def test_create_user_refusals(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "admin", "create-user", "alice", "--password", "long enough")
    for argv, sentence in (
        (("alice",), "The name 'alice' is taken"),
        (("al",), "A name has 3 to 20 characters"),
        (("bob", "--password", "short"), "at least 8 characters"),
    ):
        if "--password" not in argv:
            argv += ("--password", "long enough")
        status, _, err = run(capsys, "admin", "create-user", *argv)
        assert status == 2 and sentence in err


def test_create_user_asks_for_the_password_in_a_terminal(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["typed secret", "typed secret"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert run(capsys, "admin", "create-user", "boss", "--admin")[0] == 0

    from cardroom.service import accounts
    from cardroom.service.context import ServiceContext

    ctx = ServiceContext.start(Settings.from_environ())
    try:
        assert accounts.sign_in(ctx, "boss", "typed secret").user.is_admin
    finally:
        ctx.close()


def test_create_user_reads_a_piped_password(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README's `printf ... | cardroom admin create-user NAME --admin`: the first line
    of standard input is the password, its line ending not part of it."""
    monkeypatch.setattr("sys.stdin", io.StringIO("piped secret\r\nignored\n"))
    assert run(capsys, "admin", "create-user", "boss", "--admin")[0] == 0

    from cardroom.service import accounts
    from cardroom.service.context import ServiceContext

    ctx = ServiceContext.start(Settings.from_environ())
    try:
        assert accounts.sign_in(ctx, "boss", "piped secret").user.is_admin
    finally:
        ctx.close()


def test_create_user_refuses_mismatched_or_missing_passwords(
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    unchanged: Unchanged,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # piped, but nothing in it
    with unchanged():
        status, _, err = run(capsys, "admin", "create-user", "boss")
    assert status == 2 and "No password: pipe it in on the first line" in err

    answers = iter(["one password", "another one"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    with unchanged():
        status, _, err = run(capsys, "admin", "create-user", "boss")
    assert status == 2 and "The two passwords differ" in err


def test_audit_lists_differences_and_fails(
    url: str, db: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "admin", "create-user", "alice", "--password", "long enough")
    with db.begin() as connection:
        connection.execute(
            update(LedgerAccount)
            .where(LedgerAccount.name.like("user:%"))
            .values(balance_cents=LedgerAccount.balance_cents + 7)
        )
    status, out, err = run(capsys, "audit")
    assert status == 2
    assert "Differences:" in out
    assert "the stored balance differs from the sum of the account's entries" in out
    assert "(expected $100.00, found $100.07)" in out
    assert err.startswith("cardroom: The ledger has 4 differences")
