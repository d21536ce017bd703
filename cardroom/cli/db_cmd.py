"""``cardroom db``: the database schema.

    $ cardroom db upgrade
    Database sqlite:///./var/cardroom.db is at revision 0001, the latest.
    $ cardroom db status

The database comes from ``--database-url`` or ``CARDROOM_DATABASE_URL`` (default: a
SQLite file under ``./var/``). This module also holds what the other storage commands
(``admin``, ``audit``) share: reading the settings and opening the room, with every
failure turned into a one-sentence ``CommandError``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError, OperationalError

from cardroom.cli.errors import CommandError
from cardroom.config import ConfigError, Settings
from cardroom.service.context import ServiceContext
from cardroom.service.errors import ServiceError
from cardroom.store import migrate
from cardroom.store.db import make_engine


def add_database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="SQLAlchemy database URL (default: $CARDROOM_DATABASE_URL, "
        "else sqlite:///./var/cardroom.db)",
    )


def load_settings(args: argparse.Namespace) -> Settings:
    try:
        settings = Settings.from_environ()
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    url = getattr(args, "database_url", None)
    return replace(settings, database_url=url) if url else settings


def shown_url(settings: Settings) -> str:
    """The database URL with any password masked, for messages."""
    try:
        return make_url(settings.database_url).render_as_string(hide_password=True)
    except ArgumentError:
        return settings.database_url


@contextmanager
def database_errors(settings: Settings) -> Iterator[None]:
    """Turn the ways a database can be unusable into sentences."""
    try:
        yield
    except ArgumentError:
        raise CommandError(f"{settings.database_url!r} is not a database URL.") from None
    except OperationalError as exc:
        raise CommandError(
            f"Cannot use the database at {shown_url(settings)}: {exc.orig}".rstrip()
        ) from None
    except ServiceError as exc:
        raise CommandError(exc.sentence) from None


@contextmanager
def open_room(args: argparse.Namespace) -> Iterator[ServiceContext]:
    """The service context for a command, on a database whose schema is current."""
    settings = load_settings(args)
    with database_errors(settings):
        ctx = ServiceContext.start(settings)
        try:
            if not migrate.is_up_to_date(ctx.engine):
                raise CommandError(
                    f"The database at {shown_url(settings)} is not up to date; "
                    "run `cardroom db upgrade` first."
                )
            yield ctx
        finally:
            ctx.close()


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "db",
        help="set up or upgrade the database",
        description="Manage the database schema (Alembic migrations shipped with Cardroom).",
    )
    actions = parser.add_subparsers(dest="db_action", required=True, metavar="ACTION")
    upgrade = actions.add_parser("upgrade", help="create or upgrade the tables to the latest")
    add_database_option(upgrade)
    upgrade.set_defaults(handler=run_upgrade)
    status = actions.add_parser("status", help="show the database's schema revision")
    add_database_option(status)
    status.set_defaults(handler=run_status)


def run_upgrade(args: argparse.Namespace) -> int:
    settings = load_settings(args)
    with database_errors(settings):
        engine = make_engine(settings)
        try:
            migrate.upgrade(engine)
            revision = migrate.current_revision(engine)
        finally:
            engine.dispose()
    print(f"Database {shown_url(settings)} is at revision {revision}, the latest.")
    return 0


def run_status(args: argparse.Namespace) -> int:
    settings = load_settings(args)
    with database_errors(settings):
        engine = make_engine(settings)
        try:
            current = migrate.current_revision(engine)
        finally:
            engine.dispose()
    head = migrate.head_revision()
    if current == head:
        print(f"Database {shown_url(settings)} is at revision {current}, the latest.")
        return 0
    shown = "no revision (empty)" if current is None else f"revision {current}"
    print(
        f"Database {shown_url(settings)} is at {shown}; the latest is {head}: "
        "run `cardroom db upgrade`."
    )
    return 1
