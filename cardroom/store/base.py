"""What every model module builds on: the declarative ``Base`` and its metadata (one
for all the room's tables), the constraint names, and how an enum is stored. The
model modules import this and nothing of each other; ``cardroom.store.schema``
gathers them all."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, Enum, MetaData
from sqlalchemy.orm import DeclarativeBase

from cardroom.store.columns import UtcDateTime

# Named constraints: Alembic can only alter or drop a constraint it can name, and
# SQLite and PostgreSQL would otherwise invent different names.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UtcDateTime(),
        dict[str, Any]: JSON(),
    }


def enum_column(enum_type: type[enum.Enum], name: str) -> Enum:
    # Stored as short text with a CHECK constraint (not a PostgreSQL ENUM type) so a
    # later migration can add a value on both databases the same way; the stored text
    # is the member's value, which is also what the API shows.
    return Enum(
        enum_type,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=20,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )
