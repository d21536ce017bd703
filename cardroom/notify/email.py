"""Email: one plain-text message through the configured SMTP server.

STARTTLS (the default), implicit TLS or none, with a login when a user is set. The
message says it was sent by a machine (RFC 3834 ``Auto-Submitted``), so
out-of-office replies do not answer it.
"""

from __future__ import annotations

import re
import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from cardroom.notify.settings import NotifySettings

EMAIL_MAX_LENGTH = 254  # RFC 5321's limit on a forward path, less the angle brackets

# Deliberately plain: one @, no spaces, quotes, angle brackets or commas (which would
# let one address become several headers' worth), a dot in the domain. The mail
# server is the judge of the rest.
_ADDRESS = re.compile(r"^[^@\s\"<>(),;:\\\[\]]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")


def valid_address(address: str) -> bool:
    return (
        isinstance(address, str)
        and len(address) <= EMAIL_MAX_LENGTH
        and address.isascii()
        and _ADDRESS.match(address) is not None
    )


@dataclass(frozen=True)
class SendResult:
    sent: bool
    detail: str


def compose(
    settings: NotifySettings, to: str, subject: str, text: str, *, now: datetime
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = f"Cardroom <{settings.smtp_from}>"
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(domain=settings.smtp_from.rsplit("@", 1)[-1])
    message["Auto-Submitted"] = "auto-generated"
    message["X-Auto-Response-Suppress"] = "All"  # Exchange's spelling of the same wish
    message.set_content(text)
    return message


def send(
    settings: NotifySettings, message: EmailMessage, *, ssl_context: ssl.SSLContext | None = None
) -> SendResult:
    """Hand ``message`` to the SMTP server. Never raises: a failure is a result with
    the reason (without the server's own words, which may quote the address)."""
    if settings.smtp_host is None:
        return SendResult(False, "no mail server is configured")
    context = ssl_context or ssl.create_default_context()
    timeout = settings.smtp_timeout_seconds
    try:
        client: smtplib.SMTP
        if settings.smtp_tls == "tls":
            client = smtplib.SMTP_SSL(
                settings.smtp_host, settings.smtp_port, timeout=timeout, context=context
            )
        else:
            client = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout)
        with client:
            if settings.smtp_tls == "starttls":
                client.starttls(context=context)
            if settings.smtp_user is not None:
                client.login(settings.smtp_user, settings.smtp_password or "")
            client.send_message(message)
    except smtplib.SMTPRecipientsRefused:
        return SendResult(False, "the mail server refused the address")
    except smtplib.SMTPAuthenticationError:
        return SendResult(False, "the mail server refused the room's login")
    except smtplib.SMTPNotSupportedError:
        return SendResult(False, "the mail server does not offer STARTTLS")
    except smtplib.SMTPResponseException as exc:
        return SendResult(False, f"the mail server answered {exc.smtp_code}")
    except (smtplib.SMTPException, OSError) as exc:
        return SendResult(False, f"no mail server answer: {exc.__class__.__name__}")
    return SendResult(True, "sent")
