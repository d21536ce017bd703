"""Issue 17, finding 3: SSRF through Web Push subscriptions. ``https://127.1:PORT``,
``https://0x7f.0.0.1``, ``https://0177.0.0.1`` and ``https://127.0.0.1.nip.io`` were
accepted, and the next turn notice opened TLS connections to a listener on
127.0.0.1. Names resolve through a resolver the test gives (no network), and a real
listener on 127.0.0.1 must never be connected to."""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
import requests
import urllib3.util.connection
from fastapi.testclient import TestClient
from sqlalchemy import select

from cardroom.config import Settings
from cardroom.notify import webpush
from cardroom.notify.push_address import why_not_public
from cardroom.notify.settings import NotifySettings
from cardroom.notify.vapid import VapidKeys
from cardroom.notify.webpush import EndpointRefused, PushOutcome, check_endpoint
from cardroom.service import lobby
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.service.notices import choices
from cardroom.service.notices import deliver as delivery
from cardroom.service.notices.choices import Preferences
from cardroom.store.notify_models import Channel, DeliveryStatus, NoticeDelivery
from cardroom.web.app import WebSettings, create_app
from tests.notify.receivers import FakeBrowser
from tests.service.gamekit import players, source
from tests.web.kit import assert_refused, bearer, sign_in, sign_up

PUBLIC = "142.250.74.10"


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it is offered."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.port = int(self.sock.getsockname()[1])
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    running = Listener()
    yield running
    running.close()


class Resolver:
    """Names to addresses, as the test says; every question is kept."""

    def __init__(self, answers: dict[str, Sequence[str]]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        return list(self.answers.get(host, ()))


ANY_HOST = ("*",)  # the widest list an operator can set: only the addresses decide


def endpoints(port: int) -> list[str]:
    return [
        f"https://127.1:{port}/push",
        f"https://0x7f.0.0.1:{port}/push",
        f"https://0177.0.0.1:{port}/push",
        f"https://2130706433:{port}/push",
        f"https://[::ffff:127.0.0.1]:{port}/push",
        f"https://127.0.0.1.nip.io:{port}/push",
        f"https://rebound.example.com:{port}/push",
        f"https://mapped.example.com:{port}/push",
        f"https://mixed.example.com:{port}/push",
    ]


def hostile_resolver() -> Resolver:
    return Resolver(
        {
            "127.0.0.1.nip.io": ["127.0.0.1"],
            "rebound.example.com": ["127.0.0.1"],
            "mapped.example.com": ["::ffff:127.0.0.1"],
            "mixed.example.com": [PUBLIC, "127.0.0.1"],  # one bad address is enough
        }
    )


def test_the_issues_endpoints_are_refused(listener: Listener) -> None:
    resolver = hostile_resolver()
    for endpoint in endpoints(listener.port):
        with pytest.raises(EndpointRefused):
            check_endpoint(endpoint, hosts=ANY_HOST, resolver=resolver)
    assert listener.connections == 0


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),  # cloud metadata
        ("fe80::1", "link-local"),
        ("fc00::1", "private"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("240.0.0.1", "reserved"),
        ("100.64.0.1", "not public"),  # carrier-grade NAT
        ("::ffff:10.0.0.1", "private"),  # IPv4-mapped
        ("2002:7f00:1::", "loopback"),  # 6to4 around 127.0.0.1
        ("64:ff9b::a00:1", "private"),  # NAT64 around 10.0.0.1
    ],
)
def test_addresses_that_are_not_public(address: str, kind: str) -> None:
    assert why_not_public(ipaddress.ip_address(address)) == kind
    resolver = Resolver({"push.example.com": [address]})
    with pytest.raises(EndpointRefused, match="public internet"):
        check_endpoint("https://push.example.com/p", hosts=ANY_HOST, resolver=resolver)


def test_public_addresses_of_a_listed_service_are_accepted() -> None:
    resolver = Resolver({"fcm.googleapis.com": [PUBLIC, "2a00:1450:4001:80b::200a"]})
    endpoint = "https://fcm.googleapis.com/fcm/send/abc"
    assert check_endpoint(endpoint, resolver=resolver) == endpoint


def test_only_the_operators_push_services_by_default() -> None:
    resolver = Resolver({"push.example.com": [PUBLIC]})
    with pytest.raises(EndpointRefused, match=r"push\.example\.com is not one of them"):
        check_endpoint("https://push.example.com/p", resolver=resolver)
    assert resolver.asked == []  # refused before any name is resolved
    listed = ("push.example.com", "*.example.org")
    assert check_endpoint("https://push.example.com/p", hosts=listed, resolver=resolver)
    with pytest.raises(EndpointRefused, match="not one of them"):
        check_endpoint("https://evil-example.org/p", hosts=listed, resolver=resolver)


def test_a_name_that_does_not_resolve_is_refused() -> None:
    with pytest.raises(EndpointRefused, match="could not be found"):
        check_endpoint("https://fcm.googleapis.com/x", resolver=Resolver({}))


def send(target: webpush.PushTarget, resolver: Resolver) -> webpush.PushResult:
    keys = VapidKeys.generate()
    return webpush.send(
        keys, "mailto:a@b.c", target, b"hi", ttl=60, hosts=ANY_HOST, resolver=resolver, timeout=2
    )


def test_a_delivery_to_them_is_dropped_and_logged(
    listener: Listener, caplog: pytest.LogCaptureFixture
) -> None:
    resolver = hostile_resolver()
    browser = FakeBrowser("x")
    with caplog.at_level(logging.WARNING, logger="cardroom.notify.webpush"):
        for endpoint in endpoints(listener.port):
            target = replace(browser.target, endpoint=endpoint)
            result = send(target, resolver)
            assert result.outcome is PushOutcome.FAILED and result.status is None, endpoint
    assert listener.connections == 0
    assert len([r for r in caplog.records if "push not sent" in r.getMessage()]) == len(
        endpoints(listener.port)
    )


def test_the_delivery_connects_to_the_address_it_checked(
    listener: Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the name resolves to a public address for the check and to
    127.0.0.1 after it. The connection goes to the checked address, without asking
    again (intercepted here, so the test needs no network)."""
    answers = iter([[PUBLIC], ["127.0.0.1"]])
    asked: list[str] = []

    def rebinding(host: str, port: int) -> list[str]:
        asked.append(host)
        return next(answers)

    connected: list[tuple[Any, ...]] = []

    def refuse(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        connected.append(address)
        raise ConnectionRefusedError("intercepted by the test")

    monkeypatch.setattr(urllib3.util.connection, "create_connection", refuse)
    target = replace(
        FakeBrowser("x").target, endpoint=f"https://push.example.com:{listener.port}/p"
    )
    result = webpush.send(
        VapidKeys.generate(), "mailto:a@b.c", target, b"hi", ttl=60, hosts=ANY_HOST,
        resolver=rebinding, timeout=2,
    )  # fmt: skip
    assert result.outcome is PushOutcome.FAILED
    assert asked == ["push.example.com"]
    assert connected == [(PUBLIC, listener.port)]
    assert listener.connections == 0


def test_the_pinned_session_never_resolves_the_name(listener: Listener) -> None:
    """The pin itself: a name that cannot resolve (``.invalid``) still reaches the
    pinned address, so the name is not what the connection goes to."""
    with (
        webpush._session("127.0.0.1") as session,
        pytest.raises(requests.exceptions.ConnectionError),  # no TLS on the listener's side
    ):
        session.post(f"https://push.invalid:{listener.port}/p", data=b"x", timeout=2)
    deadline = 50
    while listener.connections == 0 and deadline:
        threading.Event().wait(0.02)
        deadline -= 1
    assert listener.connections == 1


# ------------------------------------------------------- subscription and delivery


@pytest.fixture
def open_ctx(ctx: ServiceContext) -> ServiceContext:
    """The room with any push host allowed and names resolved by the test."""
    settings: Settings = replace(ctx.settings, push_hosts=ANY_HOST)
    return replace(ctx, settings=settings, resolver=hostile_resolver())


@pytest.fixture
def strict_notify(notify: NotifySettings, room_notify: Any) -> NotifySettings:
    settings: NotifySettings = room_notify(replace(notify, push_allow_insecure=False))
    return settings


def test_subscribing_them_is_a_422_with_a_sentence(
    open_ctx: ServiceContext, strict_notify: NotifySettings, listener: Listener
) -> None:
    app = create_app(open_ctx, web=WebSettings(trust_proxy=False))
    app.state.notify = strict_notify
    with TestClient(app) as client:
        sign_up(client, "alice")
        auth = bearer(sign_in(client, "alice"))
        for endpoint in endpoints(listener.port):
            body = FakeBrowser(endpoint).subscription_json()
            response = client.post("/api/me/push-subscriptions", json=body, headers=auth)
            message = assert_refused(response, 422, "invalid_input")
            assert "push" in message, message
        settings = client.get("/api/me/notification-settings", headers=auth).json()
        assert settings["push_subscriptions"] == 0
    assert listener.connections == 0


def test_a_stored_subscription_that_now_resolves_inside_is_not_posted_to(
    open_ctx: ServiceContext, strict_notify: NotifySettings, listener: Listener
) -> None:
    """Accepted while its name was public; by the turn notice it resolves to
    127.0.0.1: the delivery fails with the reason and nothing connects."""
    resolver = open_ctx.resolver
    assert isinstance(resolver, Resolver)
    resolver.answers["push.example.com"] = [PUBLIC]
    alice, bob = players(open_ctx, "alice", "bob")
    choices.set_preferences(open_ctx, alice, Preferences(web_push=True), notify=strict_notify)
    target = FakeBrowser(f"https://push.example.com:{listener.port}/p").target
    choices.add_browser(
        open_ctx, alice, target.endpoint, target.p256dh, target.auth, notify=strict_notify
    )
    resolver.answers["push.example.com"] = ["127.0.0.1"]  # the name is rebound
    game = lobby.create_game(open_ctx, alice, GameOptions()).game_id
    lobby.join(open_ctx, game, bob)
    started = lobby.start(open_ctx, game, alice, source=source(1))
    [turn] = [n for n in started.notices if n.user_id == alice and n.deliver_at is not None]
    delivery.deliver(open_ctx, turn, notify=strict_notify)
    with open_ctx.transaction() as session:
        [row] = session.scalars(
            select(NoticeDelivery).where(NoticeDelivery.channel == Channel.WEB_PUSH)
        ).all()
        assert row.status is DeliveryStatus.FAILED, row.outcome
        assert "127.0.0.1 (loopback)" in (row.outcome or "")
    assert listener.connections == 0
