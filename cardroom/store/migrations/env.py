"""Alembic's entry point, run by ``cardroom.store.migrate``.

The caller hands over an open connection (``config.attributes["connection"]``) so
that migrations run on the engine Cardroom made, with its SQLite settings, inside the
caller's transaction. Without one (a developer running Alembic by hand), the engine
comes from the ``CARDROOM_*`` settings.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from cardroom.config import Settings
from cardroom.store.db import make_engine
from cardroom.store.schema import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead, so
        # later migrations are written once for both databases.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    if context.is_offline_mode():
        raise SystemExit("Cardroom migrations run against a live database only.")
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
        return
    engine = make_engine(Settings.from_environ())
    try:
        with engine.begin() as own_connection:
            run_migrations(own_connection)
    finally:
        engine.dispose()


main()
