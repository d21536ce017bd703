"""Fixtures for the web tests: the real app over the ``ctx`` of tests/conftest.py, so
every test runs on SQLite and on PostgreSQL, with cheap argon2 and a fake clock."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from fastapi import FastAPI

with warnings.catch_warnings():
    # Starlette's test client wants httpx2 and warns (an error in this suite) when it
    # falls back to httpx. Until every machine has httpx2 installed, the fallback is
    # fine for these tests; this first import is the one that would warn.
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.store.models import Role
from cardroom.web import committer
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from tests.web.committer_kit import Gate
from tests.web.games_kit import Player, heads_up, new_player, to_act
from tests.web.kit import PASSWORD, sign_in, sign_up


@pytest.fixture
def app(ctx: ServiceContext) -> FastAPI:
    return create_app(ctx, web=WebSettings(trust_proxy=False))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    # raise_server_exceptions (the default): a 500 fails the test with its traceback.
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def player(client: TestClient) -> tuple[int, str]:
    """alice, signed up and signed in: (user id, bearer token)."""
    user_id = sign_up(client, "alice")
    return user_id, sign_in(client, "alice")


@pytest.fixture
def admin(ctx: ServiceContext, client: TestClient) -> tuple[int, str]:
    """boss, an admin made at the console and signed in: (user id, bearer token)."""
    boss = accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN)
    return boss.id, sign_in(client, "boss")


@pytest.fixture
def table(client: TestClient) -> tuple[int, Player, Player]:
    """A heads-up hand in progress, alice (small blind) to act."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    assert to_act(client, game, [alice, bob]) == alice
    return game, alice, bob


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    """The committer's batches, counted and, once armed, the next one held."""
    gate = Gate()
    monkeypatch.setattr(committer, "run_together", gate.run_together)
    return gate
