"""Email against a local aiosmtpd server."""

from __future__ import annotations

import ipaddress
import ssl
import tempfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cardroom.notify import email
from cardroom.notify.settings import NotifySettings
from tests.notify.receivers import MailServer, free_port

NOW = datetime(2026, 1, 15, 20, 0, tzinfo=UTC)


def message(settings: NotifySettings, to: str = "alice@example.com") -> EmailMessage:
    return email.compose(settings, to, "Your turn in game 3", "Open: https://x/games/3\n", now=NOW)


def test_a_message_arrives_with_its_headers_and_text(
    notify_mail: NotifySettings, mail: MailServer
) -> None:
    result = email.send(notify_mail, message(notify_mail))
    assert result == email.SendResult(True, "sent")
    [(recipients, got)] = mail.messages
    assert recipients == ["alice@example.com"]
    assert got["From"] == "Cardroom <room@cards.example.org>"
    assert got["To"] == "alice@example.com"
    assert got["Subject"] == "Your turn in game 3"
    assert got["Date"] == "Thu, 15 Jan 2026 20:00:00 +0000"
    assert got["Message-ID"].endswith("@cards.example.org>")
    assert got["Auto-Submitted"] == "auto-generated"
    assert got.get_content_type() == "text/plain"
    assert got.get_content().replace("\r\n", "\n") == "Open: https://x/games/3\n"


def test_a_refused_address_is_a_result_not_an_exception(
    notify_mail: NotifySettings, mail: MailServer
) -> None:
    mail.refuse.add("nobody@example.com")
    result = email.send(notify_mail, message(notify_mail, "nobody@example.com"))
    assert result == email.SendResult(False, "the mail server refused the address")
    assert mail.messages == []


def test_no_server_listening_is_a_failure(notify: NotifySettings) -> None:
    settings = replace(notify, smtp_host="127.0.0.1", smtp_port=free_port(), smtp_tls="none")
    result = email.send(settings, message(settings))
    assert not result.sent and "no mail server answer" in result.detail


def test_without_a_mail_server_nothing_is_sent(notify: NotifySettings) -> None:
    assert email.send(notify, message(notify)) == email.SendResult(
        False, "no mail server is configured"
    )


def test_starttls_required_but_not_offered_fails(
    notify_mail: NotifySettings, mail: MailServer
) -> None:
    settings = replace(notify_mail, smtp_tls="starttls")
    result = email.send(settings, message(settings))
    assert result == email.SendResult(False, "the mail server does not offer STARTTLS")
    assert mail.messages == []


def _authenticator(
    server: object, session: object, envelope: object, mechanism: str, data: object
) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"room", b"s3cret")
    # handled=False: aiosmtpd answers the failure itself (535).
    return AuthResult(success=ok, handled=False)


@pytest.mark.parametrize(("password", "sent"), [("s3cret", True), ("wrong", False)])
def test_the_room_signs_in_when_a_user_is_set(
    notify: NotifySettings, password: str, sent: bool
) -> None:
    with MailServer(authenticator=_authenticator, auth_require_tls=False) as mail:
        settings = replace(
            notify,
            smtp_host="127.0.0.1",
            smtp_port=mail.port,
            smtp_tls="none",
            smtp_user="room",
            smtp_password=password,
        )
        result = email.send(settings, message(settings))
    assert result.sent is sent
    assert len(mail.messages) == int(sent)
    if not sent:
        assert result.detail == "the mail server refused the room's login"


@pytest.mark.parametrize(
    ("address", "ok"),
    [
        ("alice@example.com", True),
        ("a.b+cards@mail.example.co.uk", True),
        ("alice@localhost", False),
        ("alice", False),
        ("alice@@example.com", False),
        ("alice@example.com, bob@example.com", False),
        ("Alice <alice@example.com>", False),
        ("alice@example.com\nBcc: x@example.com", False),
        ("älice@example.com", False),
        ("a" * 65 + "@example.com", False),
    ],
)
def test_addresses(address: str, ok: bool) -> None:
    assert email.valid_address(address) is ok


def _self_signed() -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a fresh certificate for 127.0.0.1, and a client context
    that trusts exactly that certificate."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(datetime.now(UTC) - timedelta(hours=1))
        .not_valid_after(datetime.now(UTC) + timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = certificate.public_bytes(serialization.Encoding.PEM)
    with tempfile.TemporaryDirectory() as folder:
        cert_file, key_file = Path(folder, "cert.pem"), Path(folder, "key.pem")
        cert_file.write_bytes(pem)
        key_file.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(cert_file, key_file)
    client = ssl.create_default_context(cadata=pem.decode())
    return server, client


def test_starttls_encrypts_the_session(notify: NotifySettings) -> None:
    server_context, client_context = _self_signed()
    with MailServer(tls_context=server_context, require_starttls=True) as mail:
        settings = replace(notify, smtp_host="127.0.0.1", smtp_port=mail.port)
        assert settings.smtp_tls == "starttls"
        result = email.send(settings, message(settings), ssl_context=client_context)
        # A client that does not trust the certificate gets nowhere.
        untrusting = email.send(settings, message(settings))
    assert result.sent, result.detail
    assert len(mail.messages) == 1
    assert not untrusting.sent
