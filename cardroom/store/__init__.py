"""Storage: the database engine, the SQLAlchemy models, their Alembic migrations and
the double-entry ledger. Everything here runs inside a transaction that a use case in
``cardroom.service`` opened; nothing here commits."""
