"""SOUVENIR_LOG_FORMAT=json: one JSON object per log line, for a log collector."""

from __future__ import annotations

import json
import logging
import sys

from bot.config import load_settings
from bot.logs import JsonLines


def _record(message: str, *args: object, exc_info: bool = False) -> logging.LogRecord:
    info = sys.exc_info() if exc_info else None
    return logging.LogRecord("bot.engine", logging.WARNING, __file__, 1, message, args, info)


def test_each_log_line_is_one_json_object_with_time_level_logger_and_message() -> None:
    line = JsonLines().format(_record("recall failed for %s: «%s»", "telegram:1", "délai dépassé"))
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.engine"
    assert entry["message"] == "recall failed for telegram:1: «délai dépassé»"
    assert entry["time"].endswith("+00:00")


def test_a_traceback_stays_inside_its_one_line() -> None:
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        line = JsonLines().format(_record("failed", exc_info=True))
    assert "\n" not in line
    assert "ValueError: bad" in json.loads(line)["exception"]


def test_the_log_format_is_a_setting() -> None:
    assert load_settings(log_format="json").log_format == "json"
    assert load_settings().log_format == "text"
