"""Refusals. Each carries one sentence a player can read; the web layer picks the HTTP
status from the class, the CLI prints the sentence. A use case that raises one of
these has changed nothing: its transaction is rolled back.

Suggested HTTP statuses: InvalidInput 422, AuthenticationFailed 401, Forbidden 403,
NotFound 404, Conflict 409, InsufficientBalance 409, TooManyAttempts 429.
"""

from __future__ import annotations


class ServiceError(ValueError):
    """A request the room refuses, with the reason as a sentence."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class InvalidInput(ServiceError):
    """A value that breaks a rule on its own: a name too short, an amount of zero."""


class NotFound(ServiceError):
    """Nothing by that name or number."""


class Conflict(ServiceError):
    """Fine on its own, but not with what is already there: a name that is taken."""


class Forbidden(ServiceError):
    """The requester is known but may not do this."""


class AccountSuspended(Forbidden):
    """The account is suspended: it can no longer sign in or act."""


class AuthenticationFailed(ServiceError):
    """Wrong name or password, or a session that is unknown, revoked or expired."""


class InsufficientBalance(ServiceError):
    """A movement that would take a balance below zero."""

    def __init__(self, sentence: str, *, balance_cents: int, amount_cents: int) -> None:
        super().__init__(sentence)
        self.balance_cents = balance_cents
        self.amount_cents = amount_cents


class TooManyAttempts(ServiceError):
    """Too many sign-in attempts in a short time (raised by a LoginThrottle).
    ``retry_after_seconds``: how long until an attempt is checked again, if known."""

    def __init__(self, sentence: str, *, retry_after_seconds: int | None = None) -> None:
        super().__init__(sentence)
        self.retry_after_seconds = retry_after_seconds


class RecordUnreadable(ServiceError):
    """A stored hand whose record cannot be read back (a bug or damaged rows): the
    room's fault, not the request's, and that hand's alone."""
