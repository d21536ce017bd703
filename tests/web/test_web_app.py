"""The application as a whole: /healthz, the OpenAPI document, and the lifespan that
makes the database engine at start-up rather than at import."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from cardroom.config import PasswordHashing, Settings
from cardroom.service.context import ServiceContext
from cardroom.web.app import OPTIONAL_ROUTERS, create_app
from cardroom.web.deps import WebSettings
from cardroom.web.routes import (
    accounts,
    admin,
    chat,
    games,
    health,
    invites,
    money,
    table_admin,
)
from tests.web.kit import PASSWORD, assert_refused, bearer, sign_in, sign_up

ROUTERS = (
    health.router,
    accounts.router,
    money.router,
    admin.router,
    games.router,
    invites.router,
    table_admin.host,
    table_admin.admin,
    chat.router,
    chat.admin,
)


def test_healthz(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ready"}


def test_healthz_reports_a_database_that_is_not_migrated(empty_database_url: str) -> None:
    ctx = ServiceContext.start(Settings(database_url=empty_database_url))
    try:
        with TestClient(create_app(ctx, web=WebSettings())) as client:
            response = client.get("/healthz")
            assert "cardroom db upgrade" in assert_refused(response, 503, "unavailable")
    finally:
        ctx.close()


def test_healthz_reports_a_database_that_cannot_be_reached() -> None:
    settings = Settings(database_url="postgresql+psycopg://nobody@127.0.0.1:1/nothing")
    ctx = ServiceContext.start(settings)
    try:
        with TestClient(create_app(ctx, web=WebSettings())) as client:
            response = client.get("/healthz")
            assert "cannot be reached" in assert_refused(response, 503, "unavailable")
            # Any other route: a 503 sentence as well, not a 500.
            response = client.get("/api/me", headers=bearer("x"))
            assert_refused(response, 503, "unavailable")
    finally:
        ctx.close()


def test_the_app_opens_its_database_at_start_up_and_closes_it_after(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = db.url.render_as_string(hide_password=False)
    started: list[ServiceContext] = []
    closed: list[ServiceContext] = []
    real_start, real_close = ServiceContext.start, ServiceContext.close

    def start(settings: Settings, **kwargs: Any) -> ServiceContext:
        started.append(real_start(settings, **kwargs))
        return started[-1]

    def close(ctx: ServiceContext) -> None:
        closed.append(ctx)
        real_close(ctx)

    monkeypatch.setattr(ServiceContext, "start", start)
    monkeypatch.setattr(ServiceContext, "close", close)
    settings = Settings(database_url=url, password_hashing=PasswordHashing.cheap())
    app = create_app(settings=settings, web=WebSettings())
    assert started == []  # building the app touches no database
    with TestClient(app) as client:
        assert len(started) == 1 and closed == []
        sign_up(client, "alice")
        sign_in(client, "alice", PASSWORD)
    assert closed == started


def test_openapi_lists_every_route_with_its_schemas_and_errors(app: FastAPI) -> None:
    document = app.openapi()
    # every API route the app serves, the optional parts' routers included
    routers = list(ROUTERS)
    for name in OPTIONAL_ROUTERS:
        try:
            routers.append(importlib.import_module(f"cardroom.web.routes.{name}").router)
        except ModuleNotFoundError:
            continue
    routed = {
        (method.lower(), route.path)
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
        for method in route.methods or ()
    }
    documented = {
        (method, path) for path, operations in document["paths"].items() for method in operations
    }
    assert routed == documented
    assert len(documented) >= 42

    schemas = document["components"]["schemas"]
    for method, path in documented:
        operation = document["paths"][path][method]
        responses = operation["responses"]
        success = next(code for code in responses if code.startswith("2"))
        if success != "204":
            assert "$ref" in str(responses[success]["content"]), (method, path)
        errors = [code for code in responses if code[0] in "45"]
        assert errors, f"{method} {path} documents no error"
        for code in errors:
            ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/ErrorOut", (method, path, code)
        assert "HTTPValidationError" not in str(operation)
        if "requestBody" in operation:
            body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            schema = schemas[body.rsplit("/", 1)[-1]]
            assert schema["additionalProperties"] is False, body  # unknown fields refused
        if path.startswith("/api/") and not path.startswith("/api/accounts/sign-"):
            assert {"401", "403"} <= set(responses), (method, path)
            assert operation["security"] == [{"bearer": []}, {"session_cookie": []}]


def test_openapi_json_is_served(client: TestClient) -> None:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    assert "/api/admin/users/{user_id}/grant" in response.json()["paths"]
    money_fields = response.json()["components"]["schemas"]["MoneyMovementIn"]["properties"]
    assert money_fields["amount_cents"]["type"] == "integer"
