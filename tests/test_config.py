"""Settings from CARDROOM_* variables, with laptop defaults."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.config import ConfigError, PasswordHashing, Settings


def test_defaults_work_on_a_laptop() -> None:
    settings = Settings.from_environ({})
    assert settings.database_url == "sqlite:///./var/cardroom.db"
    assert settings.starting_balance_cents == 10_000
    assert settings.password_hashing == PasswordHashing.standard()
    assert settings.session_lifetime == timedelta(days=14)
    assert (settings.sign_up, settings.sign_ups_per_address) == ("open", 5)


def test_every_variable_is_read() -> None:
    settings = Settings.from_environ(
        {
            "CARDROOM_DATABASE_URL": "postgresql+psycopg://room@db.internal/cardroom",
            "CARDROOM_STARTING_BALANCE_CENTS": "2500",
            "CARDROOM_PASSWORD_HASHING": "cheap",
            "CARDROOM_SESSION_HOURS": "2",
            "CARDROOM_SIGN_UP": "Invitation",
            "CARDROOM_INVITATION_CODE": "river-card-42",
            "CARDROOM_SIGN_UPS_PER_ADDRESS": "3",
            "UNRELATED": "ignored",
        }
    )
    assert settings == Settings(
        database_url="postgresql+psycopg://room@db.internal/cardroom",
        starting_balance_cents=2500,
        password_hashing=PasswordHashing.cheap(),
        session_lifetime=timedelta(hours=2),
        sign_up="invitation",
        invitation_code="river-card-42",
        sign_ups_per_address=3,
    )


def test_empty_variables_take_the_defaults() -> None:
    assert Settings.from_environ({"CARDROOM_DATABASE_URL": " ", "CARDROOM_SESSION_HOURS": ""}) == (
        Settings()
    )


@pytest.mark.parametrize(
    ("variable", "value", "sentence"),
    [
        ("CARDROOM_STARTING_BALANCE_CENTS", "100.00", "whole number"),
        ("CARDROOM_STARTING_BALANCE_CENTS", "-1", "between 0 and"),
        ("CARDROOM_STARTING_BALANCE_CENTS", "100000001", "between 0 and"),
        ("CARDROOM_PASSWORD_HASHING", "none", "one of cheap, standard"),
        ("CARDROOM_SESSION_HOURS", "0", "positive"),
        ("CARDROOM_SESSION_HOURS", "a week", "whole number"),
        ("CARDROOM_SIGN_UP", "anyone", "one of open, invitation, closed"),
        ("CARDROOM_SIGN_UP", "invitation", "needs CARDROOM_INVITATION_CODE"),
        ("CARDROOM_SIGN_UPS_PER_ADDRESS", "-1", "0 .no limit. or more"),
        ("CARDROOM_SIGN_UPS_PER_ADDRESS", "five", "whole number"),
    ],
)
def test_bad_values_are_refused_with_a_sentence(variable: str, value: str, sentence: str) -> None:
    with pytest.raises(ConfigError, match=sentence):
        Settings.from_environ({variable: value})


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Settings().starting_balance_cents = 1  # type: ignore[misc]
