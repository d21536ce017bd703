"""Every table of the room: importing this imports every model module, so
``metadata`` holds them all. Alembic's comparison and the fixtures that empty every
table read it; the model modules themselves import only ``cardroom.store.base``."""

from __future__ import annotations

from cardroom.store import bot_models, chat_models, models, notify_models, throttle_models
from cardroom.store.base import Base

MODEL_MODULES = (models, bot_models, notify_models, throttle_models, chat_models)
metadata = Base.metadata
