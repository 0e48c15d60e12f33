"""The CLI's logging: one warning per cause per minute, third-party chatter held back."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.logs import RateLimitedWarnings


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def clock() -> _Clock:
    return _Clock()


@pytest.fixture
def shown(clock: _Clock) -> Iterator[list[str]]:
    recorder = _Recorder()
    recorder.addFilter(RateLimitedWarnings(60.0, clock=clock))
    log = logging.getLogger("tests.rate_limited")
    log.addHandler(recorder)
    log.propagate = False
    try:
        yield recorder.lines
    finally:
        log.removeHandler(recorder)
        log.propagate = True


def test_a_repeated_warning_shows_once_a_minute_with_a_count_of_those_held_back(
    clock: _Clock, shown: list[str]
) -> None:
    log = logging.getLogger("tests.rate_limited")
    for attempt in range(5):
        log.warning("extraction failed (attempt %d)", attempt + 1)
        clock.now += 10
    assert shown == ["extraction failed (attempt 1)"]

    clock.now += 15  # 65 s after the first
    log.warning("extraction failed (attempt %d)", 6)

    assert shown[1] == "extraction failed (attempt 6) (4 more like this not shown since the last one)"


def test_each_cause_has_its_own_minute_and_errors_always_show(clock: _Clock, shown: list[str]) -> None:
    log = logging.getLogger("tests.rate_limited")
    for _ in range(3):
        log.warning("LLM call failed: %s", "connection failed", extra={"cause": "connection"})
        log.warning("LLM call failed: %s", "HTTP 500", extra={"cause": "http-500"})
        log.warning("disk almost full")
        log.error("could not store the exchange")

    assert shown == [
        "LLM call failed: connection failed",
        "LLM call failed: HTTP 500",
        "disk almost full",
        *["could not store the exchange"] * 3,
    ]


def test_a_library_that_logs_a_token_shows_a_mask_instead(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.config import load_settings
    from bot.logs import configure_logging, redact_secrets

    token = "123456:AAF-telegram-Zq8Wm4Np"
    settings = load_settings(telegram_token=token, redis_url="redis://souvenir:s3cret-pass-word@localhost:6379/0")
    configure_logging("INFO")
    redact_secrets(settings.secret_values())
    try:
        logging.getLogger("httpx").warning("POST https://api.telegram.org/bot%s/getUpdates failed", token)
        try:
            raise ConnectionError("redis://souvenir:s3cret-pass-word@localhost:6379 refused")
        except ConnectionError:
            logging.getLogger("redis").exception("lost the server")
    finally:
        logging.basicConfig(force=True)
    err = capsys.readouterr().err
    assert "api.telegram.org/bot[secret]/getUpdates" in err and "redis://souvenir:[secret]@localhost" in err
    assert token not in err and "s3cret-pass-word" not in err
