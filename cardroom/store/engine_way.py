"""Whether a statement must go the engine's own way, through its execution context,
or may go to the driver's cursor (``prepared``) or its pipeline (``pipelined``) as
the same statement of the engine."""

from __future__ import annotations

from sqlalchemy import Connection


def listened(connection: Connection) -> bool:
    """Whether someone sees each of the connection's cursor statements: a
    ``before_cursor_execute`` or ``after_cursor_execute`` listener on it or its
    engine. Each is asked through SQLAlchemy's joined listeners, some ten calls of
    Python: a session's statements ask once per transaction (``prepared._Held``),
    since the listeners are set up before the work they watch (the engine's at
    start-up, a test's before the statements it counts)."""
    dispatch = connection.dispatch
    return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)


def engine_way_owed(connection: Connection, heard: bool | None = None) -> bool:
    """Whether the engine's own way is owed: someone sees each cursor's statement
    (listeners, echo), execution options may change how it is sent, or the
    connection's transaction is not one under way (the engine begins one, or
    refuses a transaction rolled back under it). ``heard``: ``listened`` as the
    caller found it for this transaction (None: asked now)."""
    transaction = connection._transaction
    nested = connection._nested_transaction
    return bool(
        (listened(connection) if heard is None else heard)
        or connection._echo
        or connection._execution_options
        or transaction is None
        or not transaction.is_active
        or (nested is not None and not nested.is_active)
    )
