"""One file per schema revision, numbered 0001, 0002, ... (Alembic ignores this file)."""
