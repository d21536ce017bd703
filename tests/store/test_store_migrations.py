"""The migrations build the schema the models describe, on both databases."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, select, text

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine
from cardroom.store.models import AccountKind, LedgerAccount
from cardroom.store.schema import metadata


def test_upgrade_builds_every_table_on_an_empty_database(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        assert migrate.current_revision(engine) is None
        assert not migrate.is_up_to_date(engine)

        migrate.upgrade(engine)

        assert migrate.current_revision(engine) == migrate.head_revision()
        assert migrate.is_up_to_date(engine)
        tables = set(inspect(engine).get_table_names())
        assert set(metadata.tables) <= tables
        assert "alembic_version" in tables
    finally:
        engine.dispose()


def test_upgrade_twice_is_harmless(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine)
        migrate.upgrade(engine)
        with engine.connect() as connection:
            houses = connection.execute(
                select(LedgerAccount.__table__).where(LedgerAccount.__table__.c.kind == "house")
            ).all()
        assert len(houses) == 1
    finally:
        engine.dispose()


def test_models_match_migrations(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine)
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()


def test_schema_comparison_notices_drift(empty_database_url: str) -> None:
    # The comparison above must be able to fail: remove an index the models declare.
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine)
        with engine.begin() as connection:
            connection.execute(text("DROP INDEX ix_ledger_transfers_hand_id"))
        differences = migrate.schema_differences(engine)
        assert [d[0] for d in differences] == ["add_index"]
        assert differences[0][1].name == "ix_ledger_transfers_hand_id"
    finally:
        engine.dispose()


def test_downgrade_to_base_and_back(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine)
        migrate.downgrade(engine, "base")
        assert set(inspect(engine).get_table_names()) == {"alembic_version"}
        assert migrate.current_revision(engine) is None
        migrate.upgrade(engine)
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()


def test_the_house_exists_after_migrating(db: Engine) -> None:
    with db.connect() as connection:
        rows = connection.execute(
            select(LedgerAccount.name, LedgerAccount.kind, LedgerAccount.balance_cents)
        ).all()
    assert [tuple(row) for row in rows] == [("house", AccountKind.HOUSE, 0)]


@pytest.mark.parametrize("revision_file", sorted(migrate.MIGRATIONS_DIR.glob("versions/r*.py")))
def test_migration_files_are_importable_module_names(revision_file: Path) -> None:
    # mypy and setuptools treat the versions folder as a package: no "0001_x.py".
    assert revision_file.stem.isidentifier()
