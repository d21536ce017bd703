"""Helpers that speak to the app as a client would."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardroom.web.schemas import CSRF_COOKIE, CSRF_HEADER

PASSWORD = "correct horse"


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> int:
    response = client.post("/api/accounts/sign-up", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def sign_in(
    client: TestClient, name: str, password: str = PASSWORD, *, keep_cookies: bool = False
) -> str:
    """Sign in and return the bearer token. The client's cookie jar is emptied again
    unless asked, so that only the requests meant to use the cookie do."""
    response = client.post("/api/accounts/sign-in", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    if not keep_cookies:
        client.cookies.clear()
    return str(response.json()["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def csrf(client: TestClient) -> dict[str, str]:
    """The header a browser page adds to a write: the CSRF cookie, echoed."""
    return {CSRF_HEADER: client.cookies[CSRF_COOKIE]}


def assert_refused(response: Any, status: int, code: str) -> str:
    """A refusal in the room's error shape; returns its sentence."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code, body
    message = str(body["error"]["message"])
    assert message.endswith(".") and "Traceback" not in message
    return message
