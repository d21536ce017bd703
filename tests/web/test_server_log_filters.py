"""The log filters of ``cardroom serve`` (the server's own log is read in
tests/reliability/test_server_logs.py)."""

from __future__ import annotations

import logging

from cardroom.web.server_logs import QuietBadFrames, RedactTokens, redact


def test_tokens_are_redacted_wherever_they_stand() -> None:
    assert redact("/ws/me?token=abc-_DEF") == "/ws/me?token=[redacted]"
    assert redact("/ws/games/3?x=1&token=abc&y=2") == "/ws/games/3?x=1&token=[redacted]&y=2"
    assert redact("/ws/me?TOKEN=abc") == "/ws/me?TOKEN=[redacted]"
    assert (
        redact('"GET /a?access_token=zz HTTP/1.1"') == '"GET /a?access_token=[redacted] HTTP/1.1"'
    )
    assert redact("/ws/me?tokens=1&mytoken=2") == "/ws/me?tokens=1&mytoken=2"


def test_a_records_arguments_are_redacted_before_formatting() -> None:
    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        "",
        0,
        '%s - "WebSocket %s"',
        ("1.2.3.4", "/ws/me?token=s3cret"),
        None,
    )
    assert RedactTokens().filter(record)
    assert "s3cret" not in record.getMessage()


def test_a_bad_frame_is_one_warning_without_a_traceback() -> None:
    try:
        b"\xff".decode()
    except UnicodeDecodeError:
        import sys

        info = sys.exc_info()
    record = logging.LogRecord(
        "uvicorn.error",
        logging.ERROR,
        "",
        0,
        "Invalid UTF-8 sequence received from client.",
        (),
        info,
    )
    assert QuietBadFrames().filter(record)
    assert record.levelname == "WARNING" and record.exc_info is None
