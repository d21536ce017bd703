"""Password hashing with argon2id, and the rules a new password must meet."""

from __future__ import annotations

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from cardroom.config import PasswordHashing
from cardroom.service.errors import InvalidInput

PASSWORD_MIN_LENGTH = 8
# argon2 takes any length, but hashing a megabyte "password" on every attempt is a
# cheap way to tie up the server; 256 characters fits every password manager.
PASSWORD_MAX_LENGTH = 256


def make_hasher(costs: PasswordHashing) -> PasswordHasher:
    return PasswordHasher(
        time_cost=costs.time_cost,
        memory_cost=costs.memory_cost_kib,
        parallelism=costs.parallelism,
        type=Type.ID,
    )


def check_new_password(password: str) -> None:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise InvalidInput(f"A password needs at least {PASSWORD_MIN_LENGTH} characters.")
    if len(password) > PASSWORD_MAX_LENGTH:
        raise InvalidInput(f"A password can have at most {PASSWORD_MAX_LENGTH} characters.")


def password_matches(hasher: PasswordHasher, password_hash: str, password: str) -> bool:
    if len(password) > PASSWORD_MAX_LENGTH:
        return False  # never hash an oversized guess
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
