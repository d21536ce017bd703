"""The notification routes, through the real app (with this router included) on both
databases: answers, refusals as sentences, and no 5xx for any input."""

from __future__ import annotations

import json
import stat
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.notify import vapid
from cardroom.notify.settings import NotifySettings
from cardroom.service import lobby
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.service.notices import record as outbox
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from cardroom.web.routes import notifications as routes
from tests.notify.receivers import PushReceiver, unb64url
from tests.service.gamekit import source
from tests.web.kit import assert_refused, bearer, csrf, sign_in, sign_up

with warnings.catch_warnings():
    # As in tests/web/conftest.py: the test client may warn about plain httpx.
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

SETTINGS = "/api/me/notification-settings"
SUBSCRIPTIONS = "/api/me/push-subscriptions"
NOTICES = "/api/me/notifications"
KEY = "/api/notifications/vapid-public-key"


@pytest.fixture
def app(ctx: ServiceContext, notify: NotifySettings) -> FastAPI:
    app = create_app(ctx, web=WebSettings(trust_proxy=False))
    if not any(getattr(r, "path", None) == SETTINGS for r in app.routes):
        app.include_router(routes.router)  # until create_app includes it itself
    app.state.notify = notify
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def alice(client: TestClient) -> tuple[int, dict[str, str]]:
    user_id = sign_up(client, "alice")
    return user_id, bearer(sign_in(client, "alice"))


Who = tuple[int, dict[str, str]]


def test_settings_start_with_the_defaults(client: TestClient, alice: Who) -> None:
    response = client.get(SETTINGS, headers=alice[1])
    assert response.status_code == 200
    assert response.json() == {
        "in_app": True,
        "browser": True,
        "web_push": False,
        "email": False,
        "email_address": None,
        "email_available": False,
        "push_subscriptions": 0,
        "reminders": ["50%", "1h"],
    }


def test_settings_need_a_session(client: TestClient) -> None:
    assert_refused(client.get(SETTINGS), 401, "not_signed_in")
    assert_refused(client.get(NOTICES), 401, "not_signed_in")


def test_settings_are_replaced_and_email_needs_a_server_and_an_address(
    app: FastAPI, client: TestClient, alice: Who, notify: NotifySettings
) -> None:
    wanted = {
        "in_app": True,
        "browser": False,
        "web_push": False,
        "email": True,
        "email_address": "alice@example.com",
    }
    message = assert_refused(client.put(SETTINGS, json=wanted, headers=alice[1]), 409, "conflict")
    assert message == "This room has no mail server, so it cannot send email."
    app.state.notify = replace(notify, smtp_host="mail.example.org")
    response = client.put(SETTINGS, json=wanted, headers=alice[1])
    assert response.status_code == 200
    assert response.json() == {
        **wanted,
        "email_available": True,
        "push_subscriptions": 0,
        "reminders": ["50%", "1h"],  # left out: kept
    }
    assert client.get(SETTINGS, headers=alice[1]).json() == response.json()
    no_address = {**wanted, "email_address": None}
    message = assert_refused(
        client.put(SETTINGS, json=no_address, headers=alice[1]), 422, "invalid_input"
    )
    assert message == "Give an email address to get notices by email."
    bad = {**wanted, "email_address": "alice at example"}
    assert_refused(client.put(SETTINGS, json=bad, headers=alice[1]), 422, "invalid_input")


BAD_SETTINGS: list[tuple[Any, str]] = [
    ({"in_app": True}, "'browser' is required"),
    (
        {"in_app": "true", "browser": True, "web_push": False, "email": False},
        "'in_app' must be true or false",
    ),
    (
        {"in_app": 1, "browser": True, "web_push": False, "email": False},
        "'in_app' must be true or false",
    ),
    (
        {"in_app": True, "browser": True, "web_push": False, "email": False, "sms": True},
        "'sms' is not a field",
    ),
    (
        {
            "in_app": True,
            "browser": True,
            "web_push": False,
            "email": False,
            "email_address": "a@b.c\nBcc: x@y.z",
        },
        "control characters",
    ),
    ([], "must be a JSON object"),
]


CHANNELS = {"in_app": True, "browser": True, "web_push": False, "email": False}


def test_reminder_points_are_replaced_kept_or_refused_with_a_sentence(
    client: TestClient, alice: Who
) -> None:
    response = client.put(SETTINGS, json={**CHANNELS, "reminders": ["1H", "25%"]}, headers=alice[1])
    assert response.status_code == 200 and response.json()["reminders"] == ["25%", "1h"]
    kept = client.put(SETTINGS, json={**CHANNELS, "reminders": None}, headers=alice[1])
    assert kept.json()["reminders"] == ["25%", "1h"]
    none = client.put(SETTINGS, json={**CHANNELS, "reminders": []}, headers=alice[1])
    assert none.json()["reminders"] == []
    for points, words in [
        (["soon"], "is not a reminder point"),
        (["100%"], "1% to 99%"),
        (["1m"], "5 minutes to 14 days"),
        (["1%", "2%", "3%", "4%", "5%", "6%", "7%"], "at most 6"),
        ("50%", "should be a valid list"),
        ([50], "must be text"),
    ]:
        response = client.put(SETTINGS, json={**CHANNELS, "reminders": points}, headers=alice[1])
        assert words in assert_refused(response, 422, "invalid_input"), points
    assert client.get(SETTINGS, headers=alice[1]).json()["reminders"] == []  # nothing changed


def test_bad_settings_are_refused_with_a_sentence(client: TestClient, alice: Who) -> None:
    for body, words in BAD_SETTINGS:
        response = client.put(SETTINGS, json=body, headers=alice[1])
        assert words in assert_refused(response, 422, "invalid_input")
    assert client.get(SETTINGS, headers=alice[1]).json()["in_app"] is True


def test_a_cookie_write_needs_the_csrf_token(client: TestClient, alice: Who) -> None:
    sign_in(client, "alice", keep_cookies=True)
    body = {"in_app": False, "browser": True, "web_push": False, "email": False}
    assert_refused(client.put(SETTINGS, json=body), 403, "csrf_token_invalid")
    assert client.put(SETTINGS, json=body, headers=csrf(client)).status_code == 200


def test_the_vapid_key_is_made_once_and_private_on_disk(
    client: TestClient, alice: Who, notify: NotifySettings
) -> None:
    assert_refused(client.get(KEY), 401, "not_signed_in")
    vapid._cache.clear()
    first = client.get(KEY, headers=alice[1])
    assert first.status_code == 200
    key = first.json()["public_key"]
    point = unb64url(key)
    assert len(point) == 65 and point[0] == 4
    assert stat.S_IMODE(notify.vapid_file.stat().st_mode) == 0o600
    vapid._cache.clear()
    assert client.get(KEY, headers=alice[1]).json() == {"public_key": key}


def test_a_damaged_key_file_is_a_503_with_a_sentence(
    app: FastAPI, client: TestClient, alice: Who, tmp_path: Path, notify: NotifySettings
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    app.state.notify = replace(notify, vapid_file=broken)
    message = assert_refused(client.get(KEY, headers=alice[1]), 503, "unavailable")
    assert message == "Web Push is not available in this room right now."


def test_browsers_subscribe_and_unsubscribe(
    client: TestClient, alice: Who, receiver: PushReceiver
) -> None:
    browser = receiver.browser("alice")
    subscription = browser.subscription_json()
    created = client.post(SUBSCRIPTIONS, json=subscription, headers=alice[1])
    assert created.status_code == 201
    assert created.json()["endpoint"] == browser.endpoint
    # The page may send toJSON() without expirationTime, and again later.
    again = {"endpoint": browser.endpoint, "keys": subscription["keys"]}
    assert client.post(SUBSCRIPTIONS, json=again, headers=alice[1]).status_code == 200
    assert client.get(SETTINGS, headers=alice[1]).json()["push_subscriptions"] == 1
    gone = client.request("DELETE", SUBSCRIPTIONS, json=subscription, headers=alice[1])
    assert gone.status_code == 204
    assert client.get(SETTINGS, headers=alice[1]).json()["push_subscriptions"] == 0
    repeat = client.request(
        "DELETE", SUBSCRIPTIONS, json={"endpoint": browser.endpoint}, headers=alice[1]
    )
    assert repeat.status_code == 204


BAD_SUBSCRIPTIONS: list[tuple[dict[str, Any], str]] = [
    ({"endpoint": "ftp://push.example.com/x"}, "https"),
    ({"keys": {"p256dh": "AAAA", "auth": "AAAA"}}, "P-256"),
    ({"keys": {"p256dh": "x"}}, "'keys.auth' is required"),
    ({"keys": None}, "keys"),
    ({"expirationTime": "soon"}, "expirationTime"),
    ({"endpoint": "x" * 3000}, "at most 2048 characters"),
]


def test_bad_subscriptions_are_refused(
    client: TestClient, alice: Who, receiver: PushReceiver
) -> None:
    for change, words in BAD_SUBSCRIPTIONS:
        body = {**receiver.browser("alice").subscription_json(), **change}
        response = client.post(SUBSCRIPTIONS, json=body, headers=alice[1])
        assert words in assert_refused(response, 422, "invalid_input"), change
    assert client.get(SETTINGS, headers=alice[1]).json()["push_subscriptions"] == 0


def test_notices_list_page_and_read(
    ctx: ServiceContext, client: TestClient, alice: Who, notify: NotifySettings
) -> None:
    alice_id, headers = alice
    bob_id = sign_up(client, "bob")
    bob = bearer(sign_in(client, "bob"))
    game = lobby.create_game(ctx, bob_id, GameOptions()).game_id
    lobby.join(ctx, game, alice_id)
    started = lobby.start(ctx, game, bob_id, source=source(1))
    outbox.on_game_change(ctx, game, started.events, actor_id=bob_id, notify=notify)

    page = client.get(NOTICES, headers=headers).json()
    assert page["unread"] == 1 and page["next_before_id"] is None
    [notice] = page["notices"]
    assert notice["kind"] == "game_started"
    assert notice["url"] == f"/games/{game}"
    assert notice["read"] is False

    read = client.post(f"{NOTICES}/{notice['id']}/read", headers=headers)
    assert read.status_code == 200 and read.json()["read"] is True
    assert client.get(NOTICES, headers=headers).json()["unread"] == 0
    message = assert_refused(
        client.post(f"{NOTICES}/{notice['id']}/read", headers=bob), 404, "not_found"
    )
    assert message == f"You have no notice {notice['id']}."
    bobs = client.get(NOTICES, params={"limit": 1}, headers=bob).json()
    assert [n["kind"] for n in bobs["notices"]] == ["your_turn"]  # the button acts first
    assert bobs["next_before_id"] is None
    assert_refused(client.get(NOTICES, params={"limit": 0}, headers=bob), 422, "invalid_input")
    assert_refused(client.post(f"{NOTICES}/0/read", headers=bob), 422, "invalid_input")


# -- no input makes a 5xx ---------------------------------------------------------------------

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = ["in_app", "browser", "web_push", "email", "email_address", "endpoint", "keys"]
ROUTES = [
    ("GET", SETTINGS),
    ("PUT", SETTINGS),
    ("POST", SUBSCRIPTIONS),
    ("DELETE", SUBSCRIPTIONS),
    ("GET", NOTICES),
    ("POST", NOTICES + "/{id}/read"),
    ("GET", KEY),
]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_input_makes_a_5xx(client: TestClient, alice: Who, data: st.DataObject) -> None:
    method, path = data.draw(st.sampled_from(ROUTES))
    notice_id = data.draw(st.text(min_size=1, max_size=12) | st.integers().map(str))
    path = path.replace("{id}", quote(notice_id, safe=""))
    body = data.draw(json_values | st.fixed_dictionaries({f: json_values for f in FIELDS}))
    query = data.draw(st.dictionaries(st.sampled_from(["limit", "before_id"]), st.text(max_size=8)))
    response = client.request(
        method,
        path,
        params=query,
        content=json.dumps(body),
        headers={**alice[1], "Content-Type": "application/json"},
    )
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert_refused(response, response.status_code, response.json()["error"]["code"])
