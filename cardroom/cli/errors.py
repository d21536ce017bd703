"""The CLI's one refusal, apart from the package so every command module can import
it while ``cardroom.cli`` imports them all."""

from __future__ import annotations


class CommandError(Exception):
    """A refusal to show the user as one sentence, with exit code 2."""
