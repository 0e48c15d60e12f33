"""Telegram Mini App launch data (`tgWebAppData`, `Telegram.WebApp.initData`): who opened the page, signed by
Telegram for this bot.

Telegram's rule: the data-check string is every field but `hash`, as `key=value` lines sorted by key; the
secret key is HMAC-SHA256(key="WebAppData", message=bot token); the hash is HMAC-SHA256 of the string under
that key, in hex. The data is taken only when the hash matches, `auth_date` is recent (by the injected clock:
an old link copied out of a chat opens nothing) and a user is named.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlencode

from bot.engine.ports import Clock

LAUNCH_FRESHNESS = timedelta(minutes=5)
_MAX_LAUNCH_CHARS = 8192


@dataclass(frozen=True, slots=True)
class TelegramLaunch:
    """The account that opened the Mini App, and the language its Telegram is set to."""

    user_id: str
    language_code: str
    auth_date: datetime


def _secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign_launch_data(fields: dict[str, str], bot_token: str) -> str:
    """`fields` with their `hash`, as Telegram would hand them over (the tests' and the browser test's side)."""
    digest = hmac.new(_secret_key(bot_token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def read_launch_data(
    init_data: str, bot_token: str, clock: Clock, freshness: timedelta = LAUNCH_FRESHNESS
) -> TelegramLaunch | None:
    """The launch, when Telegram signed it for this bot within `freshness`; None for anything else."""
    if not init_data or len(init_data) > _MAX_LAUNCH_CHARS:
        return None
    pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=False)
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a field given twice: which one was signed?
        return None
    given = fields.get("hash", "")
    expected = hmac.new(_secret_key(bot_token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.lower(), expected):
        return None
    try:
        auth_date = datetime.fromtimestamp(int(fields.get("auth_date", "")), UTC)
        user = json.loads(fields.get("user", ""))
    except (ValueError, OverflowError):
        return None
    age = clock.now() - auth_date
    if age > freshness or age < -timedelta(minutes=1):  # stale, or from the future beyond clock drift
        return None
    if not isinstance(user, dict) or not isinstance(user.get("id"), int) or isinstance(user.get("id"), bool):
        return None
    language = user.get("language_code")
    return TelegramLaunch(str(user["id"]), language if isinstance(language, str) else "", auth_date)
