"""Telegram-sized messages: 4096 UTF-16 code units, cut by the shared splitter."""

from __future__ import annotations

from adapters import message_split

TELEGRAM_MESSAGE_LIMIT = 4096


def _utf16_units(char: str) -> int:
    return 2 if ord(char) > 0xFFFF else 1


def telegram_length(text: str) -> int:
    """Telegram counts UTF-16 code units (an emoji may count twice), so measure the same way."""
    return len(text.encode("utf-16-le")) // 2


def split_message(text: str, limit: int = TELEGRAM_MESSAGE_LIMIT) -> list[str]:
    if limit < 2:
        raise ValueError("limit must leave room for any character")
    return message_split.split_message(text, limit, _utf16_units)
