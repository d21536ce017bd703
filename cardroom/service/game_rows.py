"""The game's row, through Core rather than the unit of work: locked and read by
one pre-built statement, written back by one pre-built UPDATE, and the status a
table's state stands for. ``GameTx`` (``cardroom.service.game_tx``) loads and saves
through these.

A command on a table this process kept (``kept_tables``) locks the row and reads
only its version (``lock_version``; a batch's games all in one statement at its
start, ``lock_versions``); at the kept version, the row is the one this
process committed (``kept_row`` when it was saved, ``game_of`` for the next
command, a new ``Game`` each time). Every write of the row moves the version
(``write_game``, from ``GameTx.save``) but two: the chat's switch
(``chat.switch``: ``chat_on``, which a command never reads), left out of the kept
row so that reading it there fails rather than answer from an old copy; and the
running hand's id written back to a row that lacked it (rows from before migration
0008), the same id a command here finds again by reading the hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, inspect, select, update
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_state

from cardroom.service.game_errors import GameNotFound
from cardroom.service.game_records import GameRow
from cardroom.store.models import Game, GameStatus
from cardroom.store.prepared import Prepared
from cardroom.table import Table, TableStatus


def status_of(table: Table) -> GameStatus:
    if table.status is TableStatus.WAITING:
        return GameStatus.WAITING
    if table.status is TableStatus.FINISHED:
        return GameStatus.FINISHED
    if table.status is TableStatus.CANCELLED:
        return GameStatus.CANCELLED
    if table.held or table.short_of_players:
        return GameStatus.PAUSED
    return GameStatus.RUNNING


# The game's row goes through Core, not the unit of work: read under the lock by one
# pre-built statement, written back by ``save`` with one pre-built UPDATE. Through
# the ORM the row cost every command an identity-map refresh (``populate_existing``),
# change tracking and a unit-of-work flush of its own: a command's CPU went from 6.6
# to 5.5 ms without them (benchmarks/command_path.py, SQLite). The columns' types are
# the model's, so ``state`` is decoded and encoded exactly as the ORM did (the same
# stored JSON).
#
# ``GameTx.game`` stays a ``Game``, the type its callers (the lobby, the clock, the
# notices, ``host_or_admin``) already take, but one the session never holds: built
# from the locked row and detached, so setting its attributes writes nothing and only
# ``save``'s UPDATE does. A ``session.get(Game, id)`` later in the transaction loads
# the row afresh, after that UPDATE; ``session.refresh`` cannot reach it (see
# ``GameTx.reread``).
_GAMES = cast(SqlTable, Game.__table__)
# ``FOR UPDATE`` serialises commands on PostgreSQL; SQLite's dialect leaves it out
# (``BEGIN IMMEDIATE`` has serialised the whole transaction already).
_LOCK_GAME = Prepared(select(_GAMES).where(_GAMES.c.id == bindparam("game_id")).with_for_update())
_ALL_COLUMNS = tuple(column.key for column in _GAMES.c)
_GAME_MAPPER = inspect(Game)
_NEW_GAME = _GAME_MAPPER.class_manager.new_instance
_ROW_COLUMNS = tuple(key for key in _ALL_COLUMNS if key != "state")
# The version alone, for a command on a kept table: whether someone else wrote.
_LOCK_VERSION = Prepared(
    select(_GAMES.c.version).where(_GAMES.c.id == bindparam("game_id")).with_for_update()
)
# What a kept row holds: the row but the state (the kept table is the state) and what
# changes without the version (see the module's docstring).
KEPT_COLUMNS = tuple(key for key in _ROW_COLUMNS if key != "chat_on")
# The kept columns' values read at once (``kept_row``, every command on a kept table):
# one C call, not a Python step a column.
_KEPT_VALUES = itemgetter(*KEPT_COLUMNS)
# ``GameRow``'s fields, in order, from a ``Game``'s dict (``game_row``).
_GAME_ROW_VALUES = itemgetter(*(field.name for field in fields(GameRow)))
# What a ``Game`` of a kept row leaves unloaded: every mapped attribute but those.
_UNKEPT = tuple(
    prop.key for prop in _GAME_MAPPER.attrs if prop.key not in KEPT_COLUMNS and prop.key != "state"
)
# What a ``Game``'s dict holds besides the kept columns: its instance state, the
# state's JSON and the attributes not kept.
_NOT_KEPT = (_GAME_MAPPER.class_manager.STATE_ATTR, "state", *_UNKEPT)
_KEPT_SET = frozenset(KEPT_COLUMNS)


def _update_game(columns: tuple[str, ...]) -> Prepared:
    """The game's UPDATE of ``columns``, each bound as ``new_<column>`` with its type."""
    values = {name: bindparam(f"new_{name}", type_=_GAMES.c[name].type) for name in columns}
    return Prepared(update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(values))


# The columns a command seldom changes: the status (a start, a pause, the end), the
# start and end times and the running hand's id (a deal). Left out of the UPDATE
# when none of them moved (``_SAVE_PLAY``, nearly every command): SQLite checks a
# column's ``CHECK`` only when the statement sets it, and the status's (``IN`` the
# five statuses) builds a table of them on every run, as much again as the rest of
# the UPDATE (about 35k instructions a command).
SELDOM_CHANGED = ("status", "started_at", "ended_at", "hand_id")
_SELDOM_VALUES = itemgetter(*SELDOM_CHANGED)
_PLAY_COLUMNS = ("version", "state", "last_activity_at", "last_seq")
# Every column a command may change, all of them: one statement built once.
_SAVE_GAME = _update_game(_PLAY_COLUMNS + SELDOM_CHANGED)
_SAVE_PLAY = _update_game(_PLAY_COLUMNS)


def lock_game(session: Session, game_id: int) -> Game:
    """The game's row, locked until the transaction ends, as a ``Game`` outside the
    session's unit of work (written back only by ``write_game``)."""
    if type(game_id) is not int:
        raise GameNotFound("There is no such game.")
    row = _LOCK_GAME.first(session, {"game_id": game_id})
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    # Built as the ORM's loader builds a loaded row, the values straight into the
    # instance's dict (the model's constructor sets each through its attribute
    # events: 19 against 4 us here), then made a stored row, not a new one to insert.
    game: Game = _NEW_GAME()
    game.__dict__.update(zip(_ALL_COLUMNS, row, strict=True))
    make_transient_to_detached(game)
    return game


def lock_version(session: Session, game_id: int) -> int:
    """Lock the game's row until the transaction ends and read its version only."""
    if type(game_id) is not int:
        raise GameNotFound("There is no such game.")
    row = _LOCK_VERSION.first(session, {"game_id": game_id})
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    version: int = row[0]
    return version


# The versions of a batch's games, locked in one statement (``lock_versions``): one
# statement a count of games, built once, its ids as plain parameters (a prepared
# statement cannot expand an ``IN`` list). ``ORDER BY id``: the rows locked in the
# order the committer's sort already takes them, as every batch takes them.
_VERSIONS_OF: dict[int, Prepared] = {}


def _lock_versions(count: int) -> Prepared:
    """The lock and read of ``count`` games' versions, built once."""
    found = _VERSIONS_OF.get(count)
    if found is None:
        ids = [bindparam(f"game_{i}", type_=_GAMES.c.id.type) for i in range(count)]
        found = _VERSIONS_OF[count] = Prepared(
            select(_GAMES.c.id, _GAMES.c.version)
            .where(_GAMES.c.id.in_(ids))
            .order_by(_GAMES.c.id)
            .with_for_update()
        )
    return found


def lock_versions(session: Session, game_ids: Sequence[int]) -> dict[int, int]:
    """Lock the games' rows until the transaction ends and read their versions, in
    one statement: ``lock_version`` for a batch's games. A game that is not there
    is left out (its command answers "There is no game N." through ``lock_game``)."""
    if not game_ids:
        return {}
    params = {f"game_{i}": game_id for i, game_id in enumerate(game_ids)}
    return {row[0]: row[1] for row in _lock_versions(len(game_ids)).rows(session, params)}


def kept_row(game: Game) -> dict[str, Any]:
    """The row's columns to keep beside its table once committed (``KEPT_COLUMNS``):
    plain values, read by ``game_of`` and never changed. The instance's dict copied
    and what is not kept taken out (half the cost of a dict built from the names,
    every command on a kept table); by name if that leaves other keys (a column not
    loaded, or something else set on the instance)."""
    row = game.__dict__.copy()
    for key in _NOT_KEPT:
        row.pop(key, None)
    if row.keys() != _KEPT_SET:
        return dict(zip(KEPT_COLUMNS, _KEPT_VALUES(game.__dict__), strict=True))
    return row


def game_row(game: Game) -> GameRow:
    """``GameRow.of(game)``, its columns read from the instance's dict at once, where
    ``lock_game``, ``game_of`` and ``save`` put them (eight reads through the ORM's
    descriptors, every command's result); through the attributes if one is not there
    (a game this transaction inserted through the ORM)."""
    try:
        return GameRow(*_GAME_ROW_VALUES(game.__dict__))
    except KeyError:
        return GameRow.of(game)


def game_of(row: Mapping[str, Any]) -> Game:
    """A ``Game`` of a kept row, as ``lock_game`` builds one (outside the session,
    ``state`` None until the command saves it): a new one every time, so what a
    command sets on it never reaches the kept row. ``chat_on`` is not loaded: read,
    it raises (the instance is detached) rather than answer from an old copy."""
    game: Game = _NEW_GAME()
    values = game.__dict__
    values.update(row)
    values["state"] = None
    # What ``make_transient_to_detached`` does to a new instance, for this mapper
    # (4 us against 11, every command on a kept table): its identity key, and what
    # was not loaded marked expired. tests/service/test_game_row_core.py holds the
    # two to the same instance state.
    state = instance_state(game)
    state.key = _GAME_MAPPER.identity_key_from_primary_key((values["id"],))
    state._expire_attributes(values, _UNKEPT)
    return game


def seldom_changed(game: Game) -> tuple[Any, ...] | None:
    """The row's ``SELDOM_CHANGED`` columns as the instance's dict holds them, for
    ``write_game`` to compare: None if one is not there (a game this transaction
    inserted through the ORM), for a write of every column."""
    try:
        return cast(tuple[Any, ...], _SELDOM_VALUES(game.__dict__))
    except KeyError:
        return None


def write_game(
    session: Session, game: Game, stored: tuple[Any, ...] | None = None
) -> tuple[Any, ...] | None:
    """Write back the columns a command changes on a row ``lock_game`` locked, and
    return its ``seldom_changed`` columns as written. ``stored``: those columns as
    the row holds them (``seldom_changed`` of the row as read, kept or last
    written in this transaction); if none of them moved, they are left out of the
    UPDATE (the row keeps what it holds), else, or not given, every column is
    written."""
    # The row is locked and games are never deleted: one row, or a bug.
    now = seldom_changed(game)
    if stored is not None and now == stored:
        _SAVE_PLAY.write(session, _played(game), rows=1)
    else:
        _SAVE_GAME.write(session, _saved(game), rows=1)
    return now


def _saved(game: Game) -> dict[str, Any]:
    """The UPDATE's parameters: the columns read from the instance's dict, where
    ``lock_game``, ``game_of`` and ``save`` put them (nine attribute reads through
    the ORM's descriptors cost a command about 2 us); through the attributes if one
    is not there (a game this transaction inserted through the ORM)."""
    return _params(game, _SAVED, _SAVED_KEYS, _SAVED_VALUES)


def _played(game: Game) -> dict[str, Any]:
    """``_SAVE_PLAY``'s parameters, as ``_saved`` takes them."""
    return _params(game, _PLAYED, _PLAYED_KEYS, _PLAYED_VALUES)


def _params(
    game: Game,
    pairs: tuple[tuple[str, str], ...],
    keys: tuple[str, ...],
    values: Callable[[dict[str, Any]], tuple[Any, ...]],
) -> dict[str, Any]:
    try:
        return dict(zip(keys, values(game.__dict__), strict=True))
    except KeyError:
        return {key: getattr(game, column) for key, column in pairs}


# Each of the UPDATE's parameters and the column it takes.
_SAVED = (
    ("game_id", "id"),
    ("new_version", "version"),
    ("new_state", "state"),
    ("new_status", "status"),
    ("new_started_at", "started_at"),
    ("new_ended_at", "ended_at"),
    ("new_last_activity_at", "last_activity_at"),
    ("new_last_seq", "last_seq"),
    ("new_hand_id", "hand_id"),
)
_SAVED_KEYS = tuple(key for key, _ in _SAVED)
# The columns' values read at once, as ``_KEPT_VALUES``.
_SAVED_VALUES = itemgetter(*(column for _, column in _SAVED))
# ``_SAVE_PLAY``'s parameters and columns: ``_SAVED`` but the seldom changed ones.
_PLAYED = tuple((key, column) for key, column in _SAVED if column not in SELDOM_CHANGED)
_PLAYED_KEYS = tuple(key for key, _ in _PLAYED)
_PLAYED_VALUES = itemgetter(*(column for _, column in _PLAYED))
