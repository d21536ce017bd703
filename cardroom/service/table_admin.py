"""What the host or an admin does to a table: fold an inactive player, pause and
resume, remove an idle seat. Each is recorded in the admin log with who, when, why,
and the table before and after.

Who may do what (RULES.md, docs/tables.md):

- **fold an inactive player**: an admin, at once (``house``: chips already in stay in
  the pot); where the rules set a wait (``legacy``: 24 hours on the player to act)
  the host too, once the wait is over;
- **pause / resume**: the host or an admin;
- **remove an idle seat** (between hands, or while the player is not in the hand):
  an admin; the host too where the rules make idle seats removable (``legacy``).
"""

from __future__ import annotations

from cardroom.deck import RandomSource
from cardroom.service.admin import Actor
from cardroom.service.context import ServiceContext
from cardroom.service.game import commands, pipeline
from cardroom.service.game_records import PlayResult


def fold_inactive(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    player_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Fold an inactive player's hand now; chips already in stay in the pot."""
    command = commands.fold_inactive(actor, player_id, reason)
    return pipeline.run(ctx, game_id, command, version=expected_version, source=source)


def pause(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
) -> PlayResult:
    """Hold the table: no hand is dealt (the one being played goes on) and the blind
    clock stops, until ``resume``."""
    command = commands.pause(actor, reason)
    return pipeline.run(ctx, game_id, command, version=expected_version)


def resume(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Let the table play again; a hand that is due is dealt at once."""
    command = commands.resume(actor, reason)
    return pipeline.run(ctx, game_id, command, version=expected_version, source=source)


def remove_idle(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    player_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Take an idle player off the table between hands (or while they are not in the
    hand), cashing them out like leaving."""
    command = commands.remove_idle(actor, player_id, reason)
    return pipeline.run(ctx, game_id, command, version=expected_version, source=source)
