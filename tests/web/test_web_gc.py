"""A server leaves start-up's objects out of later garbage collections; an app a
test hands its own context to does not (each test's objects would stay frozen)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardroom.config import Settings
from cardroom.service.context import ServiceContext
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_server_freezes_what_start_up_made(settings: Settings, unfrozen: None) -> None:
    app = create_app(settings=settings, web=WebSettings(), clock=False)
    with TestClient(app) as client:
        assert gc.get_freeze_count() > 0
        assert client.get("/healthz").status_code == 200


def test_an_app_given_a_context_freezes_nothing(ctx: ServiceContext, unfrozen: None) -> None:
    with TestClient(create_app(ctx, web=WebSettings())) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_freeze_count() == 0
