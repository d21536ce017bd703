"""Hostile and clumsy input: every refusal is a 4xx with a sentence, never a 500, and
a refused request changes nothing (every table compared before and after)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.web.app import MAX_BODY_BYTES
from tests.web.kit import assert_refused, bearer

Who = tuple[int, str]


def grant(client: TestClient, admin: Who, user_id: int, content: str | bytes) -> Any:
    return client.post(
        f"/api/admin/users/{user_id}/grant",
        content=content,
        headers={**bearer(admin[1]), "Content-Type": "application/json"},
    )


def balance(client: TestClient, token: str) -> int:
    return int(client.get("/api/me/balance", headers=bearer(token)).json()["balance_cents"])


# One test per table of cases (rather than one per case): each case needs the same
# players signed up, and the setup costs more than the request.
BAD_AMOUNTS = (
    ("-100", "'amount_cents' must be more than 0."),
    ("0", "'amount_cents' must be more than 0."),
    ("12.5", "'amount_cents' must be a whole number of cents"),
    ("100.0", "'amount_cents' must be a whole number of cents"),
    ("1e2", "'amount_cents' must be a whole number of cents"),
    ("100000001", "'amount_cents' must be at most 100000000."),
    ("9223372036854775808", "'amount_cents' must be at most 100000000."),
    ("1" + "0" * 400, "'amount_cents' must be at most 100000000."),
    ("1e400", "'amount_cents' must be a whole number of cents"),
    ("NaN", "'amount_cents' must be a whole number of cents"),
    ("-Infinity", "'amount_cents' must be a whole number of cents"),
    ('"100"', "'amount_cents' must be a whole number of cents"),
    ('"$1.00"', "'amount_cents' must be a whole number of cents"),
    ("true", "'amount_cents' must be a whole number of cents"),
    ("null", "'amount_cents' must be a whole number of cents"),
    ("[100]", "'amount_cents' must be a whole number of cents"),
    ('{"cents": 100}', "'amount_cents' must be a whole number of cents"),
)


def test_bad_amounts_are_refused_and_change_nothing(
    client: TestClient, player: Who, admin: Who, unchanged: Any
) -> None:
    before = balance(client, player[1])
    for amount, words in BAD_AMOUNTS:
        with unchanged():
            content = f'{{"amount_cents": {amount}, "reason": "r"}}'
            response = grant(client, admin, player[0], content)
        assert words in assert_refused(response, 422, "invalid_input"), amount
    assert balance(client, player[1]) == before


BAD_BODIES: tuple[tuple[str | bytes, int, str], ...] = (
    ('{"amount_cents": 100, "reason": "r"', 422, "The body is not valid JSON."),
    ("", 422, "The body must be a JSON object."),
    ("[]", 422, "The body must be a JSON object."),
    ('"grant"', 422, "The body must be a JSON object."),
    ("null", 422, "The body must be a JSON object."),
    ('{"amount_cents": 100}', 422, "'reason' is required."),
    ('{"reason": "r"}', 422, "'amount_cents' is required."),
    ('{"amount_cents": 100, "reason": "r", "to": "me"}', 422, "'to' is not a field"),
    ('{"amount_cents": 100, "reason": ""}', 422, "'reason' must not be empty."),
    ('{"amount_cents": 100, "reason": "   "}', 422, "Give a reason"),
    ('{"amount_cents": 100, "reason": 7}', 422, "'reason' must be text."),
    ('{"amount_cents": 100, "reason": "a\\u0000b"}', 422, "control characters"),
    ('{"amount_cents": 100, "reason": "line\\nbreak"}', 422, "control characters"),
    ('{"amount_cents": 100, "reason": "\\ud800"}', 422, "'reason' must be text."),
    ('{"amount_cents": 100, "reason": "' + "x" * 201 + '"}', 422, "at most 200 characters"),
    ('{"amount_cents": ' + "9" * 5000 + ', "reason": "r"}', 400, "could not be read"),
    (b'{"amount_cents": 100, "reason": "\xff"}', 400, "could not be read"),
)


def test_bad_bodies_are_refused_and_change_nothing(
    client: TestClient, player: Who, admin: Who, unchanged: Any
) -> None:
    for content, status, words in BAD_BODIES:
        with unchanged():
            response = grant(client, admin, player[0], content)
        code = "bad_request" if status == 400 else "invalid_input"
        assert words in assert_refused(response, status, code), content


def test_an_oversized_body_is_a_413(client: TestClient, player: Who, admin: Who) -> None:
    reason = "x" * MAX_BODY_BYTES
    response = grant(client, admin, player[0], json.dumps({"amount_cents": 1, "reason": reason}))
    assert response.status_code == 413


BAD_PATHS = (
    ("/api/admin/users/0/grant", "'user_id' must be at least 1."),
    ("/api/admin/users/-3/grant", "'user_id' must be at least 1."),
    ("/api/admin/users/2147483648/grant", "'user_id' must be at most 2147483647."),
    ("/api/admin/users/" + "9" * 30 + "/grant", "'user_id' must be at most"),
    ("/api/admin/users/alice/grant", "'user_id' must be a whole number."),
    ("/api/admin/users/1.5/grant", "'user_id' must be a whole number."),
)


def test_bad_user_ids_in_the_path_are_refused(
    client: TestClient, admin: Who, unchanged: Any
) -> None:
    for path, words in BAD_PATHS:
        with unchanged():
            body = {"amount_cents": 1, "reason": "r"}
            response = client.post(path, json=body, headers=bearer(admin[1]))
        assert words in assert_refused(response, 422, "invalid_input"), path


def test_bad_ledger_queries_are_refused(client: TestClient, player: Who) -> None:
    for query in (
        {"before_entry_id": "0"},
        {"before_entry_id": "x"},
        {"before_entry_id": "9" * 40},
        {"limit": "1.5"},
        {"limit": ""},
    ):
        response = client.get("/api/me/ledger", params=query, headers=bearer(player[1]))
        assert_refused(response, 422, "invalid_input")


BAD_ACCOUNT_BODIES: tuple[dict[str, Any], ...] = (
    {"name": "alice"},
    {"name": "alice", "password": "correct horse", "admin": True},
    {"name": 5, "password": "correct horse"},
    {"name": ["alice"], "password": "correct horse"},
    {"name": "al\u0000ice", "password": "correct horse"},
    {"name": "alice", "password": None},
    {"name": "x" * 10_000, "password": "correct horse"},
)


def test_bad_sign_up_and_sign_in_bodies(client: TestClient, unchanged: Any) -> None:
    with unchanged():
        for body in BAD_ACCOUNT_BODIES:
            for path in ("/api/accounts/sign-up", "/api/accounts/sign-in"):
                assert_refused(client.post(path, json=body), 422, "invalid_input")


def test_a_password_with_unusual_characters_works(client: TestClient) -> None:
    password = "nul\u0000 tab\t é 🂡 " + "x" * 200
    body = {"name": "alice", "password": password}
    assert client.post("/api/accounts/sign-up", json=body).status_code == 201
    assert client.post("/api/accounts/sign-in", json=body).status_code == 200


def test_unknown_addresses_and_methods_are_sentences(client: TestClient) -> None:
    assert_refused(client.get("/api/nowhere"), 404, "not_found")
    response = client.get("/api/accounts/sign-in")
    assert_refused(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"
    assert_refused(client.delete("/api/me"), 405, "method_not_allowed")


# Any JSON value at all, as the amount or as the whole body.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=10), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    body=st.one_of(
        json_values,
        st.fixed_dictionaries({"amount_cents": json_values, "reason": json_values}),
        st.fixed_dictionaries(
            {"amount_cents": st.integers(), "reason": st.text(max_size=250)},
            optional={"extra": json_values},
        ),
    )
)
def test_no_body_makes_the_grant_route_fail(
    client: TestClient, player: Who, admin: Who, body: Any
) -> None:
    before = balance(client, player[1])
    response = grant(client, admin, player[0], json.dumps(body))
    assert response.status_code in {200, 409, 422}, response.text
    after = balance(client, player[1])
    if response.status_code == 200:
        assert after == before + body["amount_cents"]
        # Take it back, so every example starts from the same balance.
        client.post(
            f"/api/admin/users/{player[0]}/remove",
            json={"amount_cents": body["amount_cents"], "reason": "undo"},
            headers=bearer(admin[1]),
        )
    else:
        assert_refused(response, response.status_code, response.json()["error"]["code"])
        assert after == before
