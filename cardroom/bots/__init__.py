"""Practice bots: a policy that sees only what its seat may see and plays at a few
levels (see ``docs/bots.md``).

>>> from cardroom.bots import Bot, view_for
"""

from cardroom.bots.levels import LEVELS, Level, level
from cardroom.bots.policy import Bot, Decision, bot_action, decide
from cardroom.bots.view import PlayerView, PublicAction, SeatView, view_for

__all__ = [
    "LEVELS",
    "Bot",
    "Decision",
    "Level",
    "PlayerView",
    "PublicAction",
    "SeatView",
    "bot_action",
    "decide",
    "level",
    "view_for",
]
