"""Admin routes: each refuses players and strangers; grants and removals carry their
reasons into the ledger and the admin log; the audit stays clean."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from cardroom.web.routes import admin as admin_module
from cardroom.web.routes import chat as chat_module
from cardroom.web.routes import table_admin as table_admin_module
from tests.web.kit import assert_refused, bearer, sign_in, sign_up

Who = tuple[int, str]

# A body each admin write accepts, so that a refusal can only be about who asks.
BODIES: dict[str, dict[str, Any]] = {
    "grant": {"amount_cents": 100, "reason": "r"},
    "remove": {"amount_cents": 100, "reason": "r"},
    "suspend": {"reason": "r"},
    "reinstate": {"reason": "r"},
    "role": {"role": "admin", "reason": "r"},
    # /api/admin/games/{game_id}/...
    "fold": {"seat": 1, "reason": "r"},
    "remove-seat": {"seat": 1, "reason": "r"},
    "pause": {"reason": "r"},
    "resume": {"reason": "r"},
    "cancel": {"reason": "r"},
    # /api/admin/chat/...
    "mute": {"user_id": 1, "reason": "r"},
    "unmute": {"user_id": 1, "reason": "r"},
}
ADMIN_ROUTERS = (admin_module.router, table_admin_module.admin, chat_module.admin)


def admin_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) under /api/admin, read from the admin router and from the
    app's OpenAPI document (which must agree), so that a new admin route cannot
    escape these tests."""
    routed = sorted(
        (method, route.path)
        for router in ADMIN_ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
    )
    documented = sorted(
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        if path.startswith("/api/admin")
        for method in operations
    )
    assert routed == documented
    return routed


def call(client: TestClient, method: str, path: str, user_id: int, token: str | None) -> Any:
    url = path.replace("{user_id}", str(user_id)).replace("{game_id}", str(user_id))
    body = BODIES.get(path.rsplit("/", 1)[-1]) if method == "POST" else None
    headers = bearer(token) if token else {}
    return client.request(method, url, json=body, headers=headers)


def test_the_admin_routes_are_the_ones_expected(app: FastAPI) -> None:
    assert admin_routes(app) == [
        ("GET", "/api/admin/actions"),
        ("GET", "/api/admin/audit"),
        ("GET", "/api/admin/chat/mutes"),
        ("GET", "/api/admin/users"),
        ("GET", "/api/admin/users/{user_id}/chat-mutes"),
        ("GET", "/api/admin/users/{user_id}/ledger"),
        ("POST", "/api/admin/chat/mute"),
        ("POST", "/api/admin/chat/unmute"),
        ("POST", "/api/admin/games/{game_id}/cancel"),
        ("POST", "/api/admin/games/{game_id}/fold"),
        ("POST", "/api/admin/games/{game_id}/pause"),
        ("POST", "/api/admin/games/{game_id}/remove-seat"),
        ("POST", "/api/admin/games/{game_id}/resume"),
        ("POST", "/api/admin/users/{user_id}/grant"),
        ("POST", "/api/admin/users/{user_id}/reinstate"),
        ("POST", "/api/admin/users/{user_id}/remove"),
        ("POST", "/api/admin/users/{user_id}/role"),
        ("POST", "/api/admin/users/{user_id}/suspend"),
    ]


def test_every_admin_route_refuses_a_player(
    app: FastAPI, client: TestClient, player: Who, admin: Who, unchanged: Any
) -> None:
    alice, token = player
    with unchanged():
        for method, path in admin_routes(app):
            for target in (alice, admin[0], 999_999):
                response = call(client, method, path, target, token)
                message = assert_refused(response, 403, "forbidden")
                assert message == "Only an admin can do that.", (method, path)


def test_every_admin_route_refuses_a_stranger(
    app: FastAPI, client: TestClient, player: Who, unchanged: Any
) -> None:
    with unchanged():
        for method, path in admin_routes(app):
            assert_refused(call(client, method, path, player[0], None), 401, "not_signed_in")


def test_every_admin_route_refuses_a_demoted_admin(
    app: FastAPI, client: TestClient, player: Who, admin: Who
) -> None:
    # Make alice an admin, let her sign in, then take the role back: her session stays,
    # her authority does not.
    alice, _ = player
    promote = {"role": "admin", "reason": "helping out"}
    boss = bearer(admin[1])
    assert client.post(f"/api/admin/users/{alice}/role", json=promote, headers=boss).is_success
    token = sign_in(client, "alice")
    assert client.get("/api/admin/users", headers=bearer(token)).status_code == 200
    demote = {"role": "player", "reason": "done"}
    assert client.post(f"/api/admin/users/{alice}/role", json=demote, headers=boss).is_success
    for method, path in admin_routes(app):
        assert_refused(call(client, method, path, alice, token), 403, "forbidden")


def test_grant_and_remove_show_their_reasons_in_the_ledger_and_the_admin_log(
    client: TestClient, player: Who, admin: Who
) -> None:
    alice, token = player
    boss_id, boss = admin[0], bearer(admin[1])
    response = client.post(
        f"/api/admin/users/{alice}/grant",
        json={"amount_cents": 12_50, "reason": "lost to a server restart"},
        headers=boss,
    )
    assert response.status_code == 200
    assert response.json()["balance_cents"] == 112_50
    assert response.json()["user"]["name"] == "alice"
    response = client.post(
        f"/api/admin/users/{alice}/remove",
        json={"amount_cents": 2_50, "reason": "duplicate grant"},
        headers=boss,
    )
    assert response.json()["balance_cents"] == 110_00

    # The player's own ledger, newest first.
    ledger = client.get("/api/me/ledger", headers=bearer(token)).json()
    assert ledger["balance_cents"] == 110_00
    assert [
        (line["kind"], line["amount_cents"], line["balance_after_cents"], line["reason"])
        for line in ledger["lines"]
    ] == [
        ("removal", -2_50, 110_00, "duplicate grant"),
        ("grant", 12_50, 112_50, "lost to a server restart"),
        ("grant", 100_00, 100_00, "Starting balance"),
    ]
    assert client.get("/api/me/balance", headers=bearer(token)).json() == {"balance_cents": 110_00}
    # The admin sees the same ledger.
    assert client.get(f"/api/admin/users/{alice}/ledger", headers=boss).json() == ledger

    # The admin log: who, to whom, why, before and after.
    actions = client.get("/api/admin/actions", headers=boss).json()["actions"]
    removal, grant = actions[0], actions[1]
    assert (grant["action"], grant["admin_id"], grant["admin_name"]) == ("grant", boss_id, "boss")
    assert (grant["target_user_id"], grant["target_name"]) == (alice, "alice")
    assert grant["reason"] == "lost to a server restart"
    assert grant["before"] == {"balance_cents": 100_00}
    assert grant["after"]["balance_cents"] == 112_50
    assert (removal["action"], removal["reason"]) == ("removal", "duplicate grant")
    # The console made boss: that entry has no admin.
    assert (actions[-1]["action"], actions[-1]["admin_id"]) == ("create_user", None)

    audit = client.get("/api/admin/audit", headers=boss).json()
    assert audit["balanced"] and audit["differences"] == []
    assert (audit["granted_cents"], audit["removed_cents"]) == (212_50, 2_50)
    assert audit["money_in_play_cents"] == audit["player_balances_cents"] == 210_00


def test_removing_more_than_the_balance_is_a_409_and_changes_nothing(
    client: TestClient, player: Who, admin: Who, unchanged: Any
) -> None:
    with unchanged():
        response = client.post(
            f"/api/admin/users/{player[0]}/remove",
            json={"amount_cents": 100_01, "reason": "too much"},
            headers=bearer(admin[1]),
        )
    message = assert_refused(response, 409, "insufficient_balance")
    assert message == "A balance of $100.00 does not cover $100.01."


def test_suspend_reinstate_and_role(client: TestClient, player: Who, admin: Who) -> None:
    alice, token = player
    boss = bearer(admin[1])
    body = {"reason": "collusion under review"}
    suspended = client.post(f"/api/admin/users/{alice}/suspend", json=body, headers=boss)
    assert suspended.json()["suspended"] is True
    assert_refused(client.get("/api/me", headers=bearer(token)), 403, "account_suspended")
    again = client.post(f"/api/admin/users/{alice}/suspend", json=body, headers=boss)
    assert assert_refused(again, 409, "conflict") == "alice is already suspended."

    back = client.post(f"/api/admin/users/{alice}/reinstate", json=body, headers=boss)
    assert back.json()["suspended"] is False
    sign_in(client, "alice")

    role = client.post(
        f"/api/admin/users/{alice}/role", json={"role": "admin", "reason": "trusted"}, headers=boss
    )
    assert role.json()["role"] == "admin"
    log = client.get("/api/admin/actions", params={"user_id": alice}, headers=boss).json()
    assert [a["action"] for a in log["actions"]] == ["set_role", "reinstate", "suspend"]


def test_an_admin_cannot_suspend_or_demote_the_last_admin(client: TestClient, admin: Who) -> None:
    boss_id, boss = admin[0], bearer(admin[1])
    response = client.post(
        f"/api/admin/users/{boss_id}/suspend", json={"reason": "oops"}, headers=boss
    )
    assert_refused(response, 409, "conflict")
    response = client.post(
        f"/api/admin/users/{boss_id}/role", json={"role": "player", "reason": "x"}, headers=boss
    )
    assert "at least one admin" in assert_refused(response, 409, "conflict")


def test_an_unknown_user_is_a_404(client: TestClient, admin: Who) -> None:
    for path in ("grant", "suspend", "ledger"):
        method = "GET" if path == "ledger" else "POST"
        response = call(client, method, f"/api/admin/users/{{user_id}}/{path}", 424_242, admin[1])
        assert assert_refused(response, 404, "not_found") == "There is no user number 424242."


def test_the_user_list_pages_with_balances(client: TestClient, admin: Who) -> None:
    for name in ("alice", "bob", "carol"):
        sign_up(client, name)
    boss = bearer(admin[1])
    first = client.get("/api/admin/users", params={"limit": 2}, headers=boss).json()
    assert [u["name"] for u in first["users"]] == ["boss", "alice"]
    assert all(u["balance_cents"] == 100_00 for u in first["users"])
    rest = client.get(
        "/api/admin/users", params={"limit": 2, "after_id": first["next_after_id"]}, headers=boss
    ).json()
    assert [u["name"] for u in rest["users"]] == ["bob", "carol"]
    assert rest["next_after_id"] is None


def test_the_admin_log_pages_newest_first(client: TestClient, player: Who, admin: Who) -> None:
    boss = bearer(admin[1])
    for cents in (1, 2, 3):
        client.post(
            f"/api/admin/users/{player[0]}/grant",
            json={"amount_cents": cents, "reason": f"grant {cents}"},
            headers=boss,
        )
    page = client.get("/api/admin/actions", params={"limit": 2}, headers=boss).json()
    assert [a["reason"] for a in page["actions"]] == ["grant 3", "grant 2"]
    older = client.get(
        "/api/admin/actions",
        params={"limit": 2, "before_id": page["next_before_id"]},
        headers=boss,
    ).json()
    assert [a["reason"] for a in older["actions"]][:1] == ["grant 1"]
    assert older["next_before_id"] is None


@pytest.mark.parametrize("limit", [0, 201, -1])
def test_page_sizes_out_of_range_are_refused(client: TestClient, admin: Who, limit: int) -> None:
    for path in ("/api/admin/users", "/api/admin/actions", "/api/me/ledger"):
        response = client.get(path, params={"limit": limit}, headers=bearer(admin[1]))
        assert "'limit' must be" in assert_refused(response, 422, "invalid_input")
