"""The wire vocabulary: every name a client sees (cookies, headers, error codes) and
every JSON shape that crosses the wire, in one place.

The models are layered by purpose, as in full-stack-fastapi-template:

- ``*In``: what a client sends. ``extra="forbid"``, so a misspelt or unknown field is
  refused rather than silently ignored, and strict types, so ``"100"``, ``100.0`` and
  ``true`` are not taken for the number 100.
- ``*Out``: what the room answers, built from the service layer's frozen records.

Money is always integer cents in fields named ``*_cents``. Times are ISO 8601 in UTC.
The rules (name shapes, amount limits, page sizes) belong to the service layer; the
bounds declared here are the same constants, repeated in the schema so that the
OpenAPI document tells clients (and fuzzers) what the room accepts.
"""

from __future__ import annotations

import enum
import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

from cardroom.service.directory import AdminActionRecord, UserWithBalance
from cardroom.service.money import MAX_ADMIN_MOVEMENT_CENTS, StatementPage
from cardroom.service.passwords import PASSWORD_MAX_LENGTH
from cardroom.service.users import UserInfo
from cardroom.store.audit import AuditReport, Difference
from cardroom.store.ledger import StatementLine
from cardroom.store.models import NAME_MAX_LENGTH, REASON_MAX_LENGTH, Role, TransferKind

# -- names on the wire ------------------------------------------------------------------

SESSION_COOKIE = "cardroom_session"  # HttpOnly: page scripts never see the token
CSRF_COOKIE = "cardroom_csrf"  # readable by the page, which echoes it in CSRF_HEADER
DEVICE_COOKIE = "cardroom_device"  # HttpOnly, sent to /api/accounts only: service.devices
CSRF_HEADER = "X-CSRF-Token"
FORWARDED_PROTO_HEADER = "X-Forwarded-Proto"
FORWARDED_FOR_HEADER = "X-Forwarded-For"

# Row ids are 32-bit integers on PostgreSQL; a larger number in a path or query could
# only reach the database as an overflow error, so it is refused at the door.
MAX_ROW_ID = 2**31 - 1

_DIGITS = re.compile(r"-?[0-9]+")


def _whole_number_text(value: Any) -> Any:
    """A query's number as a person writes it: digits, and a minus. Python's ``int``
    (and pydantic's) also reads ``100.0``, ``+5``, `` 7`` and ``1_000``, which no
    client means as a count and a cache or a log would show as another request."""
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError("must be a whole number written in digits, such as 20")
    return value


# An integer query parameter: ``Annotated[QueryInt, Query(...)]``.
QueryInt = Annotated[int, BeforeValidator(_whole_number_text)]


class ErrorCode(enum.StrEnum):
    """The ``code`` of an error body: stable words a client can branch on (the
    ``message`` is for people and may be reworded)."""

    INVALID_INPUT = "invalid_input"  # 422
    BAD_REQUEST = "bad_request"  # 400: a body that cannot be read at all
    NOT_SIGNED_IN = "not_signed_in"  # 401: no session, or one that is over
    FORBIDDEN = "forbidden"  # 403
    ACCOUNT_SUSPENDED = "account_suspended"  # 403
    CSRF_TOKEN_INVALID = "csrf_token_invalid"  # 403: cookie write without the token
    NOT_FOUND = "not_found"  # 404
    METHOD_NOT_ALLOWED = "method_not_allowed"  # 405
    CONFLICT = "conflict"  # 409
    INSUFFICIENT_BALANCE = "insufficient_balance"  # 409
    BODY_TOO_LARGE = "body_too_large"  # 413
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"  # 415
    TOO_MANY_ATTEMPTS = "too_many_attempts"  # 429
    TOO_MANY_REQUESTS = "too_many_requests"  # 429: writes too fast (web.write_limits)
    INTERNAL_ERROR = "internal_error"  # 500
    RECORD_UNREADABLE = "record_unreadable"  # 500: one stored hand cannot be read back
    UNAVAILABLE = "unavailable"  # 503


# -- shared field types ------------------------------------------------------------------

_NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"

# Free text the room stores or looks up. Control characters are refused: PostgreSQL
# cannot store NUL, and a newline in a reason would forge lines in the admin log.
Name = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=NAME_MAX_LENGTH,
        pattern=_NO_CONTROL_CHARACTERS,
        description="3 to 20 letters, digits, _ or -; unique ignoring case.",
        examples=["alice"],
    ),
]
Password = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=PASSWORD_MAX_LENGTH,
        description="8 to 256 characters.",
        examples=["correct horse battery"],
    ),
]
Reason = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=REASON_MAX_LENGTH,
        pattern=_NO_CONTROL_CHARACTERS,
        description="Why: kept in the ledger and the admin log.",
        examples=["Restored after a server restart"],
    ),
]
AmountCents = Annotated[
    StrictInt,
    Field(
        gt=0,
        le=MAX_ADMIN_MOVEMENT_CENTS,
        description="Whole cents: 1250 is $12.50. At most $1,000,000.00 in one movement.",
        examples=[1250],
    ),
]


# -- requests ------------------------------------------------------------------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SignUpIn(_In):
    name: Name
    password: Password
    invitation: Annotated[StrictStr, Field(min_length=1, max_length=100)] | None = Field(
        default=None, description="The room's invitation code, where sign-up needs one."
    )


class SignInIn(_In):
    name: Name
    password: Password


class PasswordChangeIn(_In):
    current_password: Password
    new_password: Password


class MoneyMovementIn(_In):
    amount_cents: AmountCents
    reason: Reason


class ReasonIn(_In):
    reason: Reason


class RoleChangeIn(_In):
    # Lax for the enum alone: strict mode would take only a Role object, and JSON
    # carries the word.
    role: Role = Field(strict=False, description="player or admin")
    reason: Reason


# -- responses -----------------------------------------------------------------------------


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class UserOut(_Out):
    id: int
    name: str
    role: Role
    suspended: bool
    created_at: datetime

    @classmethod
    def of(cls, user: UserInfo) -> UserOut:
        return cls(
            id=user.id,
            name=user.name,
            role=user.role,
            suspended=user.suspended,
            created_at=user.created_at,
        )


class SignedInOut(_Out):
    token: str = Field(description="Send as `Authorization: Bearer <token>`; shown once.")
    token_type: Literal["bearer"] = "bearer"
    expires_at: datetime
    csrf_token: str = Field(
        description=f"Echo in `{CSRF_HEADER}` on writes authenticated by the session cookie."
    )
    user: UserOut


class BalanceOut(_Out):
    balance_cents: int


class LedgerLineOut(_Out):
    entry_id: int
    transfer_id: int
    created_at: datetime
    kind: TransferKind
    reason: str
    amount_cents: int = Field(description="Signed: what the balance gained (+) or lost (-).")
    balance_after_cents: int
    game_id: int | None
    hand_id: int | None

    @classmethod
    def of(cls, line: StatementLine) -> LedgerLineOut:
        return cls(
            entry_id=line.entry_id,
            transfer_id=line.transfer_id,
            created_at=line.created_at,
            kind=line.kind,
            reason=line.reason,
            amount_cents=line.amount_cents,
            balance_after_cents=line.balance_after_cents,
            game_id=line.game_id,
            hand_id=line.hand_id,
        )


class LedgerPageOut(_Out):
    lines: list[LedgerLineOut] = Field(description="Newest first.")
    balance_cents: int = Field(description="The balance now, whatever the page.")
    next_before_entry_id: int | None = Field(
        description="Pass as `before_entry_id` for the next, older page; null on the last."
    )

    @classmethod
    def of(cls, page: StatementPage) -> LedgerPageOut:
        return cls(
            lines=[LedgerLineOut.of(line) for line in page.lines],
            balance_cents=page.balance_cents,
            next_before_entry_id=page.next_before_entry_id,
        )


class MoneyMovedOut(_Out):
    user: UserOut
    balance_cents: int = Field(description="The user's balance after the movement.")


class UserWithBalanceOut(UserOut):
    balance_cents: int

    @classmethod
    def with_balance(cls, row: UserWithBalance) -> UserWithBalanceOut:
        return cls(**UserOut.of(row.user).model_dump(), balance_cents=row.balance_cents)


class UserListOut(_Out):
    users: list[UserWithBalanceOut]
    next_after_id: int | None = Field(
        description="Pass as `after_id` for the next page; null on the last."
    )


class AdminActionOut(_Out):
    id: int
    created_at: datetime
    admin_id: int | None = Field(description="null: the operator's console.")
    admin_name: str | None
    action: str
    target_user_id: int | None
    target_name: str | None
    reason: str
    before: dict[str, Any]
    after: dict[str, Any]

    @classmethod
    def of(cls, record: AdminActionRecord) -> AdminActionOut:
        return cls(
            id=record.id,
            created_at=record.created_at,
            admin_id=record.admin_id,
            admin_name=record.admin_name,
            action=record.action,
            target_user_id=record.target_user_id,
            target_name=record.target_name,
            reason=record.reason,
            before=record.before,
            after=record.after,
        )


class AdminLogOut(_Out):
    actions: list[AdminActionOut] = Field(description="Newest first.")
    next_before_id: int | None = Field(
        description="Pass as `before_id` for the next, older page; null on the last."
    )


class DifferenceOut(_Out):
    subject: str
    expected_cents: int
    found_cents: int
    explanation: str

    @classmethod
    def of(cls, difference: Difference) -> DifferenceOut:
        return cls(
            subject=difference.subject,
            expected_cents=difference.expected_cents,
            found_cents=difference.found_cents,
            explanation=difference.explanation,
        )


class AuditOut(_Out):
    balanced: bool = Field(description="True when no cent was created or lost.")
    accounts: int
    transfers: int
    entries: int
    granted_cents: int
    removed_cents: int
    player_balances_cents: int
    chips_on_tables_cents: int
    money_in_play_cents: int
    house_balance_cents: int
    differences: list[DifferenceOut]

    @classmethod
    def of(cls, report: AuditReport) -> AuditOut:
        return cls(
            balanced=report.balanced,
            accounts=report.accounts,
            transfers=report.transfers,
            entries=report.entries,
            granted_cents=report.granted_cents,
            removed_cents=report.removed_cents,
            player_balances_cents=report.player_balances_cents,
            chips_on_tables_cents=report.chips_on_tables_cents,
            money_in_play_cents=report.money_in_play_cents,
            house_balance_cents=report.house_balance_cents,
            differences=[DifferenceOut.of(d) for d in report.differences],
        )


class HealthOut(_Out):
    status: Literal["ok"] = "ok"
    database: Literal["ready"] = "ready"


class ErrorDetail(_Out):
    code: ErrorCode
    message: str = Field(description="One sentence a player can read.")


class ErrorOut(_Out):
    error: ErrorDetail
