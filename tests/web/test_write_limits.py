"""Issue 17, item 5: a general limit on writes, per session and per address (one
client was served 366 requests a second). A write past the limit is refused with 429
``too_many_requests`` and ``Retry-After`` before any route runs, so it changes
nothing; reads are not limited; another session keeps its own allowance."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cardroom.config import ConfigError
from cardroom.service.context import ServiceContext
from cardroom.web import write_limits
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from cardroom.web.write_limits import Buckets, Rate
from tests.conftest import Unchanged
from tests.web.kit import assert_refused, bearer, sign_in, sign_up


@pytest.fixture
def still(monkeypatch: pytest.MonkeyPatch) -> None:
    """The buckets' clock stands still: no token comes back during a test."""
    monkeypatch.setattr(write_limits, "monotonic", lambda: 1000.0)


def test_writes_past_a_sessions_limit_are_refused(
    ctx: ServiceContext, unchanged: Unchanged, still: None
) -> None:
    web = WebSettings(trust_proxy=False, writes_per_second=1, writes_per_address_per_second=1000)
    with TestClient(create_app(ctx, web=web)) as client:
        sign_up(client, "alice")
        sign_up(client, "bob")
        alice, bob = bearer(sign_in(client, "alice")), bearer(sign_in(client, "bob"))
        body = {"buy_in": 1000, "seats": 2, "sit": False}
        answers = [client.post("/api/games", json=body, headers=alice) for _ in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 201]  # the burst: 3 seconds
        with unchanged():
            refused = client.post("/api/games", json=body, headers=alice)
            message = assert_refused(refused, 429, "too_many_requests")
        assert "slow down" in message and int(refused.headers["Retry-After"]) >= 1
        assert client.get("/api/games", headers=alice).status_code == 200  # reads are free
        assert client.post("/api/games", json=body, headers=bob).status_code == 201


def test_writes_past_an_addresss_limit_are_refused(ctx: ServiceContext, still: None) -> None:
    web = WebSettings(trust_proxy=False, writes_per_second=0, writes_per_address_per_second=2)
    with TestClient(create_app(ctx, web=web)) as client:
        statuses = [
            client.post("/api/accounts/sign-in", json={"name": f"n{k}", "password": "x" * 8})
            for k in range(7)
        ]
        assert [s.status_code for s in statuses] == [401] * 6 + [429]


def test_a_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    buckets = Buckets(Rate(2, 2), clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(2)] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)
    now[0] += 0.5
    assert buckets.take("a") == 0.0
    assert buckets.take("b") == 0.0


def test_the_limits_come_from_the_environment() -> None:
    chosen = WebSettings.from_environ(
        {"CARDROOM_WRITES_PER_SECOND": "5", "CARDROOM_WRITES_PER_ADDRESS_PER_SECOND": "0"}
    )
    assert (chosen.writes_per_second, chosen.writes_per_address_per_second) == (5, 0)
    with pytest.raises(ConfigError, match="CARDROOM_WRITES_PER_SECOND"):
        WebSettings.from_environ({"CARDROOM_WRITES_PER_SECOND": "fast"})
