"""What the server's log may say: uvicorn's logging set-up with two filters.

- ``RedactTokens``: a socket signs in with ``?token=<bearer token>`` (a browser's
  WebSocket cannot send an Authorization header), and uvicorn logs every socket's
  path with its query: one log held 344 live tokens, each good for 14 days (issue
  17, finding 8). Every record's text and arguments have the token's value replaced
  before any handler writes them. (Moving the token off the URL would need every bot
  and script to change; the log is the one place the URL was kept.)
- ``QuietBadFrames``: uvicorn answers a text frame that is not UTF-8 by closing the
  socket with 1007, as it should, but logs an ERROR with a traceback each time: any
  client could fill the log with them. It becomes one WARNING line.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

_TOKEN = re.compile(r"((?:^|[?&;\s])(?:token|access_token)=)[^&\s\"';]+", re.IGNORECASE)
REDACTED = "[redacted]"
_BAD_UTF8 = "Invalid UTF-8 sequence received from client."


def redact(text: str) -> str:
    return _TOKEN.sub(lambda m: m.group(1) + REDACTED, text)


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


class QuietBadFrames(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == _BAD_UTF8:
            record.msg = "A WebSocket client sent a text frame that is not UTF-8; closed with 1007."
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration, with both filters on every handler (a
    filter on a handler sees the records of every logger that reaches it)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {
        "redact_tokens": {"()": RedactTokens},
        "quiet_bad_frames": {"()": QuietBadFrames},
    }
    for handler in config["handlers"].values():
        handler["filters"] = ["quiet_bad_frames", "redact_tokens"]
    return config
