"""Schema migrations, driven from code: the Alembic configuration is built here rather
than read from an ``alembic.ini``, so it works from any working directory and from an
installed package."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from cardroom.store.schema import metadata

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # Files named r0001_<slug>.py: a module name must not start with a digit.
    config.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships revision 0001
        raise RuntimeError("no migrations found in the package")
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; ``None`` for an empty database."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def is_up_to_date(engine: Engine) -> bool:
    return current_revision(engine) == head_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to ``revision``, in one transaction (SQLite and PostgreSQL
    both have transactional DDL, so a failed migration leaves nothing half done)."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), revision)


def downgrade(engine: Engine, revision: str) -> None:
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), revision)


def schema_differences(engine: Engine) -> list[Any]:
    """What Alembic's autogenerate would change to make the database match the
    models; empty when the migrations and the models agree."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))
