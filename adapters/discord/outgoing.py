"""Replies longer than Discord's 2000-character message limit, cut by the shared splitter."""

from __future__ import annotations

from adapters import message_split

DISCORD_MESSAGE_LIMIT = 2000


def split_message(text: str, limit: int = DISCORD_MESSAGE_LIMIT) -> list[str]:
    return message_split.split_message(text, limit)
