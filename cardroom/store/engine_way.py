"""Whether a statement must go the engine's own way, through its execution context,
or may go to the driver's cursor (``prepared``) or its pipeline (``pipelined``) as
the same statement of the engine."""

from __future__ import annotations

from sqlalchemy import Connection


def engine_way_owed(connection: Connection) -> bool:
    """Whether the engine's own way is owed: someone sees each cursor's statement
    (listeners, echo), execution options may change how it is sent, or the
    connection's transaction is not one under way (the engine begins one, or
    refuses a transaction rolled back under it)."""
    dispatch = connection.dispatch
    transaction = connection._transaction
    nested = connection._nested_transaction
    return bool(
        dispatch.before_cursor_execute
        or dispatch.after_cursor_execute
        or connection._echo
        or connection._execution_options
        or transaction is None
        or not transaction.is_active
        or (nested is not None and not nested.is_active)
    )
