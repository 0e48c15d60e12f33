"""Logging for the `souvenir` commands: what an operator reads on stderr.

Souvenir's own loggers log at SOUVENIR_LOG_LEVEL; other libraries' (HTTP clients, SDKs, platform libraries)
only from WARNING unless the level is DEBUG. A warning with the same cause shows at most once a minute,
with a count of the ones held back, so a model that keeps failing does not flood the terminal.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import UTC, datetime

OWN_LOGGERS = ("bot", "adapters", "memory", "jobs", "souvenir")
_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RateLimitedWarnings(logging.Filter):
    """Lets one WARNING per cause through every `interval_s` seconds; other levels always pass.

    The cause is the record's `cause` extra when given (`log.warning(..., extra={"cause": ...})`), else its
    logger and message template, so "attempt 1" and "attempt 2" of one failure count as one cause."""

    def __init__(
        self, interval_s: float = 60.0, *, clock: Callable[[], float] = time.monotonic, max_causes: int = 1000
    ) -> None:
        super().__init__()
        self._interval_s = interval_s
        self._clock = clock
        self._max_causes = max_causes
        self._shown_at: OrderedDict[Hashable, float] = OrderedDict()
        self._held: dict[Hashable, int] = {}
        self._lock = threading.Lock()  # handlers filter outside their own lock

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        cause: Hashable = getattr(record, "cause", None) or (record.name, str(record.msg))
        now = self._clock()
        with self._lock:
            shown_at = self._shown_at.get(cause)
            if shown_at is not None and now - shown_at < self._interval_s:
                self._held[cause] = self._held.get(cause, 0) + 1
                return False
            held = self._held.pop(cause, 0)
            self._shown_at[cause] = now
            self._shown_at.move_to_end(cause)
            while len(self._shown_at) > self._max_causes:
                forgotten, _ = self._shown_at.popitem(last=False)
                self._held.pop(forgotten, None)
        if held:
            record.msg = f"{record.msg} ({held} more like this not shown since the last one)"
        return True


class JsonLines(logging.Formatter):
    """One JSON object per line (SOUVENIR_LOG_FORMAT=json), for a log collector: time (UTC, ISO 8601), level,
    logger, message, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = record.exc_text or self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: str, *, quiet: bool = False, json_lines: bool = False) -> None:
    """Log to stderr. `quiet` (the terminal chat, when no level was asked for) shows warnings and errors
    only, so the conversation is not drowned in log lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if json_lines else logging.Formatter(_FORMAT))
    if level != "DEBUG":
        handler.addFilter(RateLimitedWarnings())
    logging.basicConfig(level="DEBUG" if level == "DEBUG" else "WARNING", handlers=[handler], force=True)
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel("WARNING" if quiet else level)


class SecretRedaction(logging.Filter):
    """Replaces the configured secrets (tokens, API keys, passwords) wherever they show in a record's message
    or traceback: a library that puts a URL with a bot token in an error message must not print the token."""

    MASK = "[secret]"

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if len(s) >= 8}, key=len, reverse=True)  # short ones are words

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, self.MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        message = record.getMessage()
        redacted = self._redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._redact(record.exc_text)
        return True


def redact_secrets(secrets: list[str]) -> None:
    """Keep `secrets` out of every line the handlers set up by `configure_logging` write."""
    redaction = SecretRedaction(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redaction)
