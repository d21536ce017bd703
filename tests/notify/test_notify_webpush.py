"""Web Push against a local push service that checks the VAPID token and decrypts
the payload with the fake browser's private key."""

from __future__ import annotations

import json

import pytest

from cardroom.notify import webpush
from cardroom.notify.vapid import VapidKeys
from cardroom.notify.webpush import EndpointRefused, PushOutcome, check_endpoint, check_keys
from tests.notify.receivers import PushReceiver, b64url, free_port

SUBJECT = "mailto:room@cards.example.org"


def send(keys: VapidKeys, target: webpush.PushTarget, text: bytes) -> webpush.PushResult:
    return webpush.send(keys, SUBJECT, target, text, ttl=600, allow_insecure=True, timeout=5)


def test_a_push_arrives_signed_and_decrypts_to_the_text(receiver: PushReceiver) -> None:
    keys = VapidKeys.generate()
    browser = receiver.browser("alice")
    text = json.dumps({"title": "Your turn in game 3", "body": "Hand 1, preflop."}).encode()

    result = send(keys, browser.target, text)

    assert result == webpush.PushResult(PushOutcome.SENT, 201, "sent")
    assert receiver.errors == []
    [push] = receiver.pushes
    assert push.plaintext == text
    assert push.vapid_key == keys.public_key
    receiver.check_claims(push, SUBJECT)
    assert push.headers["content-encoding"] == "aes128gcm"
    assert push.headers["ttl"] == "600"
    assert push.headers["topic"] == webpush.TOPIC
    assert push.headers["urgency"] == "normal"


def test_each_push_is_encrypted_afresh(receiver: PushReceiver) -> None:
    keys = VapidKeys.generate()
    browser = receiver.browser("alice")
    send(keys, browser.target, b"same words")
    send(keys, browser.target, b"same words")
    assert [p.plaintext for p in receiver.pushes] == [b"same words"] * 2


def test_another_browsers_key_cannot_read_it(receiver: PushReceiver) -> None:
    keys = VapidKeys.generate()
    alice, mallory = receiver.browser("alice"), receiver.browser("mallory")
    # Alice's endpoint, Mallory's keys: Alice's browser cannot decrypt it.
    target = webpush.PushTarget(alice.endpoint, mallory.target.p256dh, mallory.target.auth)
    result = send(keys, target, b"secret")
    assert result.outcome is PushOutcome.FAILED and result.status == 400
    assert receiver.pushes == [] and receiver.errors


@pytest.mark.parametrize("status", [404, 410])
def test_an_expired_subscription_is_gone(receiver: PushReceiver, status: int) -> None:
    browser = receiver.browser("alice")
    receiver.answer["/push/alice"] = status
    result = send(VapidKeys.generate(), browser.target, b"hello")
    assert result.outcome is PushOutcome.GONE and result.status == status


def test_other_refusals_fail_and_keep_the_subscription(receiver: PushReceiver) -> None:
    browser = receiver.browser("alice")
    receiver.answer["/push/alice"] = 429
    result = send(VapidKeys.generate(), browser.target, b"hello")
    assert result == webpush.PushResult(PushOutcome.FAILED, 429, "the push service answered 429")


def test_a_redirect_is_not_followed(receiver: PushReceiver) -> None:
    browser = receiver.browser("alice")
    receiver.redirect["/push/alice"] = "http://169.254.169.254/latest/meta-data"
    result = send(VapidKeys.generate(), browser.target, b"hello")
    assert result.outcome is PushOutcome.FAILED and result.status is None


def test_no_push_service_listening_is_a_failure_not_an_exception(receiver: PushReceiver) -> None:
    browser = receiver.browser("alice")
    target = webpush.PushTarget(
        f"http://127.0.0.1:{free_port()}/push/alice", browser.target.p256dh, browser.target.auth
    )
    result = send(VapidKeys.generate(), target, b"hello")
    assert result.outcome is PushOutcome.FAILED and "no answer" in result.detail


def test_a_payload_too_long_for_web_push_is_not_sent(receiver: PushReceiver) -> None:
    browser = receiver.browser("alice")
    result = send(VapidKeys.generate(), browser.target, b"x" * (webpush.PAYLOAD_MAX_BYTES + 1))
    assert result.outcome is PushOutcome.FAILED and receiver.pushes == []


def test_the_room_refuses_to_post_to_its_own_network_by_default() -> None:
    keys = VapidKeys.generate()
    target = webpush.PushTarget("http://127.0.0.1:9/push", "x", "y")
    result = webpush.send(keys, SUBJECT, target, b"hi", ttl=60)
    assert result.outcome is PushOutcome.FAILED and result.status is None


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQyavXutnMH",
    ],
)
def test_real_push_services_are_accepted(endpoint: str) -> None:
    def public(host: str, port: int) -> list[str]:
        return ["142.250.74.10", "2a00:1450:4001:80b::200a"]  # no network in tests

    assert check_endpoint(endpoint, resolver=public) == endpoint


@pytest.mark.parametrize(
    "endpoint",
    [
        "",
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://localhost/push",
        "https://127.0.0.1/push",
        "https://[::1]/push",
        "https://10.0.0.7/push",
        "https://metadata/computeMetadata",
        "https://printer.local/x",
        "https://user:pw@push.example.com/x",
        "https://push.example.com:notaport/x",
        "ftp://push.example.com/x",
        "https://push.example.com/a b",
        "https://push.example.com/" + "a" * 2048,
        "https://pûsh.example.com/x",
    ],
)
def test_endpoints_the_room_will_not_post_to(endpoint: str) -> None:
    with pytest.raises(EndpointRefused):
        check_endpoint(endpoint)


def test_local_endpoints_are_allowed_when_the_settings_say_so() -> None:
    assert check_endpoint("http://127.0.0.1:8080/p", allow_insecure=True)


def test_browser_keys_are_checked(receiver: PushReceiver) -> None:
    good = receiver.browser("alice").target
    check_keys(good.p256dh, good.auth)
    not_on_curve = b64url(b"\x04" + b"\x01" * 64)
    for p256dh, auth, words in [
        ("%%", good.auth, "base64url"),
        (b64url(b"\x04" + b"\x00" * 10), good.auth, "65 bytes"),
        (not_on_curve, good.auth, "P-256 curve"),
        (good.p256dh, b64url(b"short"), "16-byte"),
        (good.p256dh, "*", "base64url"),
    ]:
        with pytest.raises(ValueError, match=words):
            check_keys(p256dh, auth)
