"""Alembic migrations for the Cardroom schema, shipped inside the package so that
``cardroom db upgrade`` works from any directory and from an installed wheel."""
