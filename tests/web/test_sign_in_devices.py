"""Issue 17, item 7: the sign-in lockout is no longer a weapon against the owner.

Ten wrong guesses lock a name for 15 minutes, and fifty failures lock an address, for
browsers that never signed in to the name; a browser that did carries a device cookie
(``cardroom.service.devices``) and, with the right password, gets through both,
throttled on its own. Before the fix the owner's correct password was refused (429)
like the attacker's guesses. And a server that sees proxy headers it does not trust
says so in its log."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from cardroom.service.throttle import ADDRESS_ATTEMPTS, NAME_ATTEMPTS, DatabaseThrottle
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from cardroom.web.proxies import forget_warning
from cardroom.web.schemas import DEVICE_COOKIE
from tests.web.kit import PASSWORD, sign_up

WRONG = "not the password"


def throttled(ctx: ServiceContext) -> FastAPI:
    """The app with the room's real throttle (counts in the database)."""
    room = dataclasses.replace(ctx, login_throttle=DatabaseThrottle(ctx.sessions))
    return create_app(room, web=WebSettings(trust_proxy=False))


@pytest.fixture
def browsers(ctx: ServiceContext) -> Iterator[tuple[TestClient, TestClient]]:
    """The owner's browser and the attacker's: two cookie jars, one address, one
    database (so one throttle). Each has its own app, as two server processes would:
    one app's lifespan entered twice, on two event loops, made the second stop wait
    5 s for the first loop's tasks."""
    with TestClient(throttled(ctx)) as owner, TestClient(throttled(ctx)) as attacker:
        yield owner, attacker


def attempt(client: TestClient, name: str, password: str) -> int:
    response = client.post("/api/accounts/sign-in", json={"name": name, "password": password})
    return response.status_code


def test_a_locked_name_still_lets_its_owners_browser_in(
    browsers: tuple[TestClient, TestClient],
) -> None:
    owner, attacker = browsers
    sign_up(owner, "alice")
    assert attempt(owner, "alice", PASSWORD) == 200
    assert DEVICE_COOKIE in owner.cookies
    statuses = [attempt(attacker, "alice", WRONG) for _ in range(NAME_ATTEMPTS)]
    assert statuses == [401] * NAME_ATTEMPTS
    assert attempt(attacker, "alice", PASSWORD) == 429  # a new browser: the name is locked
    assert attempt(owner, "alice", PASSWORD) == 200  # its owner's is not
    assert attempt(owner, "alice", PASSWORD) == 200


def test_a_device_is_throttled_on_its_own(browsers: tuple[TestClient, TestClient]) -> None:
    """Guessing from a browser that once signed in is limited too: per device."""
    owner, _ = browsers
    sign_up(owner, "alice")
    assert attempt(owner, "alice", PASSWORD) == 200
    assert [attempt(owner, "alice", WRONG) for _ in range(NAME_ATTEMPTS)] == [401] * NAME_ATTEMPTS
    assert attempt(owner, "alice", PASSWORD) == 429


def test_a_locked_address_still_lets_a_known_browser_in(
    browsers: tuple[TestClient, TestClient],
) -> None:
    owner, attacker = browsers
    sign_up(owner, "alice")
    assert attempt(owner, "alice", PASSWORD) == 200
    for k in range(ADDRESS_ATTEMPTS):  # one wrong guess each at many names
        assert attempt(attacker, f"name{k}", WRONG) == 401
    assert attempt(attacker, "alice", PASSWORD) == 429  # every new browser of the address
    assert attempt(owner, "alice", PASSWORD) == 200


def test_another_users_or_a_forged_device_cookie_does_not_help(
    browsers: tuple[TestClient, TestClient],
) -> None:
    owner, attacker = browsers
    sign_up(owner, "alice")
    sign_up(attacker, "mallory")
    assert attempt(attacker, "mallory", PASSWORD) == 200  # a device cookie for mallory
    mallorys = attacker.cookies[DEVICE_COOKIE]
    for _ in range(NAME_ATTEMPTS):
        assert attempt(attacker, "alice", WRONG) == 401
    assert attempt(attacker, "alice", PASSWORD) == 429
    version, issued, nonce, mac = mallorys.split(".")
    for forged in (f"{version}.{issued}.{nonce}.{'0' * len(mac)}", "v1.1.x.y", "garbage"):
        attacker.cookies.set(DEVICE_COOKIE, forged, path="/api/accounts")
        assert attempt(attacker, "alice", PASSWORD) == 429


def test_a_password_change_ends_the_devices_trust(
    browsers: tuple[TestClient, TestClient],
) -> None:
    owner, attacker = browsers
    sign_up(owner, "alice")
    signed = owner.post("/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD})
    token = signed.json()["token"]
    changed = owner.post(
        "/api/accounts/password",
        json={"current_password": PASSWORD, "new_password": "another horse"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert changed.status_code == 204, changed.text
    for _ in range(NAME_ATTEMPTS):
        assert attempt(attacker, "alice", WRONG) == 401
    assert attempt(owner, "alice", "another horse") == 429  # the old cookie is void


def test_untrusted_proxy_headers_are_logged_once(
    browsers: tuple[TestClient, TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    owner, _ = browsers
    sign_up(owner, "alice")
    forget_warning()
    with caplog.at_level(logging.WARNING, logger="cardroom.web"):
        for _ in range(3):
            owner.post(
                "/api/accounts/sign-in",
                json={"name": "alice", "password": PASSWORD},
                headers={"X-Forwarded-For": "203.0.113.9", "Forwarded": "for=203.0.113.9"},
            )
    warnings = [r for r in caplog.records if "--trust-proxy" in r.getMessage()]
    assert len(warnings) == 1
    assert "x-forwarded-for, forwarded" in warnings[0].getMessage()
