"""Use cases. Each public function takes a ``ServiceContext`` and plain values, opens
its own database transaction (sign-in uses two short ones, so that the slow password
check holds no lock), returns plain frozen records, and refuses a bad request with a
``ServiceError`` carrying a sentence a player can read, leaving the database as it
was."""
