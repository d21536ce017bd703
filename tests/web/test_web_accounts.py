"""Accounts over HTTP: sign up, in and out, the password, and how a request proves who
it is (bearer token or cookie with CSRF token)."""

from __future__ import annotations

from datetime import timedelta
from http.cookies import SimpleCookie
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings, csrf_token_for
from cardroom.web.schemas import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE
from tests.web.kit import PASSWORD, assert_refused, bearer, csrf, sign_in, sign_up


def set_cookies(response: Any) -> dict[str, Any]:
    """The Set-Cookie headers of a response, parsed: name -> Morsel."""
    parsed: dict[str, Any] = {}
    for header in response.headers.get_list("set-cookie"):
        jar: SimpleCookie = SimpleCookie()
        jar.load(header)
        parsed.update(jar)
    return parsed


# -- sign up ----------------------------------------------------------------------------------


def test_sign_up_makes_a_player_with_the_starting_balance(client: TestClient) -> None:
    response = client.post("/api/accounts/sign-up", json={"name": "Alice", "password": PASSWORD})
    assert response.status_code == 201
    body = response.json()
    assert {k: body[k] for k in ("name", "role", "suspended")} == {
        "name": "Alice",
        "role": "player",
        "suspended": False,
    }
    assert body["created_at"].endswith("Z") or body["created_at"].endswith("+00:00")
    assert "password" not in response.text and PASSWORD not in response.text
    token = sign_in(client, "alice")
    assert client.get("/api/me/balance", headers=bearer(token)).json() == {"balance_cents": 10_000}


@pytest.mark.parametrize(
    ("name", "password", "status", "code", "words"),
    [
        ("al", PASSWORD, 422, "invalid_input", "A name has 3 to 20 characters"),
        ("al ice", PASSWORD, 422, "invalid_input", "letters, digits, _ and - only"),
        ("dealer", PASSWORD, 422, "invalid_input", "is reserved"),
        ("bob", "short", 422, "invalid_input", "at least 8 characters"),
        ("bob", "x" * 257, 422, "invalid_input", "at most 256 characters"),
        ("ALICE", PASSWORD, 409, "conflict", "The name 'ALICE' is taken"),
    ],
)
def test_sign_up_refusals_are_sentences(
    client: TestClient, name: str, password: str, status: int, code: str, words: str
) -> None:
    sign_up(client, "alice")
    response = client.post("/api/accounts/sign-up", json={"name": name, "password": password})
    assert words in assert_refused(response, status, code)


# -- sign in: token and cookies ------------------------------------------------------------------


def test_sign_in_returns_a_token_and_sets_the_cookies(
    client: TestClient, ctx: ServiceContext
) -> None:
    alice = sign_up(client, "alice")
    response = client.post("/api/accounts/sign-in", json={"name": "ALICE", "password": PASSWORD})
    assert response.status_code == 200
    body = response.json()
    assert body["token_type"] == "bearer" and len(body["token"]) >= 43
    assert body["user"]["id"] == alice
    assert body["csrf_token"] == csrf_token_for(body["token"]) != body["token"]

    cookies = set_cookies(response)
    session, token = cookies[SESSION_COOKIE], cookies[CSRF_COOKIE]
    assert session.value == body["token"] and token.value == body["csrf_token"]
    assert session["httponly"] and not token["httponly"]
    for cookie in (session, token):
        assert cookie["samesite"].lower() == "lax"
        assert cookie["path"] == "/"
        assert not cookie["secure"]  # plain HTTP here: see the HTTPS tests below
        assert int(cookie["max-age"]) == int(ctx.settings.session_lifetime.total_seconds())


def test_cookies_are_secure_over_https(ctx: ServiceContext) -> None:
    app = create_app(ctx, web=WebSettings())
    with TestClient(app, base_url="https://cardroom.test") as client:
        sign_up(client, "alice")
        response = client.post(
            "/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD}
        )
        cookies = set_cookies(response)
        assert cookies[SESSION_COOKIE]["secure"] and cookies[CSRF_COOKIE]["secure"]
        # ... and the browser sends them back over HTTPS.
        assert client.get("/api/me").json()["name"] == "alice"


@pytest.mark.parametrize(("trust_proxy", "secure"), [(True, True), (False, False)])
def test_x_forwarded_proto_counts_only_from_a_trusted_proxy(
    ctx: ServiceContext, trust_proxy: bool, secure: bool
) -> None:
    app = create_app(ctx, web=WebSettings(trust_proxy=trust_proxy))
    with TestClient(app) as client:
        sign_up(client, "alice")
        response = client.post(
            "/api/accounts/sign-in",
            json={"name": "alice", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert bool(set_cookies(response)[SESSION_COOKIE]["secure"]) is secure


def test_trusting_the_proxy_is_a_setting() -> None:
    assert WebSettings.from_environ({}) == WebSettings(
        trust_proxy=False, writes_per_second=20, writes_per_address_per_second=200
    )
    assert WebSettings.from_environ({"CARDROOM_TRUST_PROXY": "1"}).trust_proxy
    assert not WebSettings.from_environ({"CARDROOM_TRUST_PROXY": "off"}).trust_proxy
    with pytest.raises(ValueError, match="CARDROOM_TRUST_PROXY must be 1 or 0"):
        WebSettings.from_environ({"CARDROOM_TRUST_PROXY": "maybe"})


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "alice")
    wrong = client.post("/api/accounts/sign-in", json={"name": "alice", "password": "nope nope"})
    unknown = client.post("/api/accounts/sign-in", json={"name": "nobody", "password": PASSWORD})
    assert assert_refused(wrong, 401, "not_signed_in") == assert_refused(
        unknown, 401, "not_signed_in"
    )
    assert SESSION_COOKIE not in set_cookies(wrong)


# -- who is asking --------------------------------------------------------------------------------


def test_me_with_a_bearer_token(client: TestClient, player: tuple[int, str]) -> None:
    alice, token = player
    body = client.get("/api/me", headers=bearer(token)).json()
    assert (body["id"], body["name"], body["role"]) == (alice, "alice", "player")


def test_me_with_the_cookie(client: TestClient) -> None:
    sign_up(client, "alice")
    sign_in(client, "alice", keep_cookies=True)
    assert client.get("/api/me").json()["name"] == "alice"


def test_no_valid_session_is_a_401_with_a_sentence(client: TestClient) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer not-a-token"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic YWxpY2U6cGFzc3dvcmQ="},
        {"Authorization": "Bearer " + "x" * 5000},
    ):
        response = client.get("/api/me", headers=headers)
        assert assert_refused(response, 401, "not_signed_in")
        assert response.headers["www-authenticate"] == "Bearer"


def test_a_bearer_token_wins_over_the_cookie(client: TestClient) -> None:
    sign_up(client, "alice")
    sign_up(client, "bob")
    sign_in(client, "alice", keep_cookies=True)
    bob = sign_in(client, "bob", keep_cookies=False)  # clears alice's cookie too
    sign_in(client, "alice", keep_cookies=True)
    assert client.get("/api/me", headers=bearer(bob)).json()["name"] == "bob"
    assert client.get("/api/me").json()["name"] == "alice"


def test_an_expired_session_is_refused(
    client: TestClient, ctx: ServiceContext, clock: Any, player: tuple[int, str]
) -> None:
    _, token = player
    clock.advance(ctx.settings.session_lifetime + timedelta(seconds=1))
    message = assert_refused(client.get("/api/me", headers=bearer(token)), 401, "not_signed_in")
    assert "expired" in message


def test_a_suspended_player_is_shut_out(
    client: TestClient, ctx: ServiceContext, player: tuple[int, str]
) -> None:
    _, token = player
    accounts.suspend(ctx, CONSOLE, "alice", "testing")
    # Suspension ended the session, and the old token says why.
    assert_refused(client.get("/api/me", headers=bearer(token)), 403, "account_suspended")
    response = client.post("/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD})
    assert "suspended" in assert_refused(response, 403, "account_suspended")


# -- CSRF ------------------------------------------------------------------------------------------

CHANGE = {"current_password": PASSWORD, "new_password": "a brand new one"}


def test_a_cookie_write_without_the_csrf_header_is_refused(
    client: TestClient, ctx: ServiceContext
) -> None:
    sign_up(client, "alice")
    sign_in(client, "alice", keep_cookies=True)
    sent: tuple[dict[str, str] | dict[bytes, bytes], ...] = (
        {},
        {CSRF_HEADER: ""},
        {CSRF_HEADER: "0" * 64},
        {CSRF_HEADER.encode(): "é".encode("latin-1")},  # not even ASCII
    )
    for headers in sent:
        response = client.post("/api/accounts/password", json=CHANGE, headers=headers)
        assert CSRF_HEADER in assert_refused(response, 403, "csrf_token_invalid")
    # The password did not change: the old one still signs in.
    accounts.sign_in(ctx, "alice", PASSWORD)
    # Reads need no CSRF token; the echoed cookie lets the write through.
    assert client.get("/api/me").status_code == 200
    assert (
        client.post("/api/accounts/password", json=CHANGE, headers=csrf(client)).status_code == 204
    )


def test_a_csrf_token_from_another_session_does_not_fit(client: TestClient) -> None:
    sign_up(client, "alice")
    other = client.post("/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD})
    stale = other.json()["csrf_token"]
    client.cookies.clear()
    sign_in(client, "alice", keep_cookies=True)
    response = client.post("/api/accounts/password", json=CHANGE, headers={CSRF_HEADER: stale})
    assert_refused(response, 403, "csrf_token_invalid")


def test_bearer_writes_need_no_csrf_token(client: TestClient, player: tuple[int, str]) -> None:
    _, token = player
    response = client.post("/api/accounts/password", json=CHANGE, headers=bearer(token))
    assert response.status_code == 204


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        ("name=alice&password=correct+horse", "application/x-www-form-urlencoded"),
        ('{"name": "alice", "password": "correct horse"}', "text/plain"),
        ('{"name": "alice", "password": "correct horse"}', None),
    ],
)
def test_sign_in_takes_only_json_so_no_other_site_can_sign_a_visitor_in(
    client: TestClient, content: str, content_type: str | None
) -> None:
    # A cross-site form can send these content types without asking; JSON it cannot.
    sign_up(client, "alice")
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post("/api/accounts/sign-in", content=content, headers=headers)
    assert_refused(response, 415, "unsupported_media_type")
    assert not set_cookies(response)


# -- sign out and the password --------------------------------------------------------------------


def test_sign_out_ends_the_session_and_clears_the_cookies(client: TestClient) -> None:
    sign_up(client, "alice")
    token = sign_in(client, "alice", keep_cookies=True)
    response = client.post("/api/accounts/sign-out", headers=csrf(client))
    assert response.status_code == 204
    cleared = set_cookies(response)
    assert cleared[SESSION_COOKIE]["max-age"] == "0" and cleared[CSRF_COOKIE]["max-age"] == "0"
    assert_refused(client.get("/api/me", headers=bearer(token)), 401, "not_signed_in")
    # Signing out again, or with no session at all, is not an error.
    assert client.post("/api/accounts/sign-out", headers=bearer(token)).status_code == 204
    client.cookies.clear()
    assert client.post("/api/accounts/sign-out").status_code == 204


def test_sign_out_by_cookie_needs_the_csrf_token(client: TestClient) -> None:
    sign_up(client, "alice")
    token = sign_in(client, "alice", keep_cookies=True)
    assert_refused(client.post("/api/accounts/sign-out"), 403, "csrf_token_invalid")
    assert client.get("/api/me", headers=bearer(token)).status_code == 200


def test_changing_the_password_ends_the_other_sessions(client: TestClient) -> None:
    sign_up(client, "alice")
    here, elsewhere = sign_in(client, "alice"), sign_in(client, "alice")
    response = client.post("/api/accounts/password", json=CHANGE, headers=bearer(here))
    assert response.status_code == 204
    assert client.get("/api/me", headers=bearer(here)).status_code == 200
    assert_refused(client.get("/api/me", headers=bearer(elsewhere)), 401, "not_signed_in")
    wrong = client.post("/api/accounts/sign-in", json={"name": "alice", "password": PASSWORD})
    assert_refused(wrong, 401, "not_signed_in")
    sign_in(client, "alice", CHANGE["new_password"])


@pytest.mark.parametrize(
    ("change", "status", "words"),
    [
        ({"current_password": "not it at all", "new_password": "another one"}, 401, "not right"),
        ({"current_password": PASSWORD, "new_password": "short"}, 422, "at least 8"),
        ({"current_password": PASSWORD, "new_password": PASSWORD}, 422, "different"),
        ({"current_password": PASSWORD}, 422, "'new_password' is required."),
    ],
)
def test_password_change_refusals(
    client: TestClient,
    player: tuple[int, str],
    unchanged: Any,
    change: dict[str, str],
    status: int,
    words: str,
) -> None:
    _, token = player
    with unchanged():
        response = client.post("/api/accounts/password", json=change, headers=bearer(token))
    code = {401: "not_signed_in", 422: "invalid_input"}[status]
    assert words in assert_refused(response, status, code)
