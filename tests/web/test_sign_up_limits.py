"""Issue 17, item 5 (sign-up): one address made 20 accounts in 3.8 s, each with $100.00
of play money. Sign-ups are now limited per address, and the operator chooses the
starting balance and whether sign-up is open, by invitation code, or closed
(``cardroom.config``, docs/deployment.md). Each refusal changes nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.throttle import WINDOW, DatabaseThrottle
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from tests.conftest import FakeClock, Unchanged
from tests.web.kit import PASSWORD, assert_refused, bearer, sign_in

Room = Callable[..., Any]


@contextmanager
def room(ctx: ServiceContext, **settings: Any) -> Iterator[TestClient]:
    """The app with the room's real throttle and these settings."""
    changed = dataclasses.replace(ctx.settings, **settings)
    made = dataclasses.replace(ctx, settings=changed, login_throttle=DatabaseThrottle(ctx.sessions))
    with TestClient(create_app(made, web=WebSettings(trust_proxy=False))) as client:
        yield client


def sign_up(client: TestClient, name: str, **extra: Any) -> Any:
    body = {"name": name, "password": PASSWORD, **extra}
    return client.post("/api/accounts/sign-up", json=body)


def test_one_address_makes_a_few_accounts_a_window(
    ctx: ServiceContext, clock: FakeClock, unchanged: Unchanged
) -> None:
    with room(ctx, sign_ups_per_address=3) as client:
        assert sign_up(client, "ann").status_code == 201
        assert sign_up(client, "ANN").status_code == 409  # a taken name makes nothing...
        assert sign_up(client, "bob").status_code == 201  # ...and is not counted
        assert sign_up(client, "cyd").status_code == 201
        with unchanged():
            refused = sign_up(client, "dee")
            message = assert_refused(refused, 429, "too_many_attempts")
        assert "accounts" in message and int(refused.headers["Retry-After"]) > 0
        clock.advance(WINDOW)
        assert sign_up(client, "dee").status_code == 201


def test_the_operator_sets_the_starting_balance(ctx: ServiceContext) -> None:
    with room(ctx, starting_balance_cents=2_500) as client:
        assert sign_up(client, "ann").status_code == 201
        token = sign_in(client, "ann")
        balance = client.get("/api/me/balance", headers=bearer(token))
        assert balance.status_code == 200, balance.text
        assert balance.json()["balance_cents"] == 2_500


def test_sign_up_by_invitation_code(ctx: ServiceContext, unchanged: Unchanged) -> None:
    with room(ctx, sign_up="invitation", invitation_code="river-card-42") as client:
        with unchanged():
            message = assert_refused(sign_up(client, "ann"), 403, "forbidden")
            assert "invitation code" in message
            wrong = sign_up(client, "ann", invitation="river-card-41")
            assert_refused(wrong, 403, "forbidden")
        assert sign_up(client, "ann", invitation="river-card-42").status_code == 201


def test_sign_up_turned_off(ctx: ServiceContext, unchanged: Unchanged) -> None:
    with room(ctx, sign_up="closed") as client:
        with unchanged():
            message = assert_refused(sign_up(client, "ann"), 403, "forbidden")
            assert "admins" in message
        accounts.create_user(ctx, CONSOLE, "ann", PASSWORD)  # an admin still makes accounts
        assert sign_in(client, "ann")
