"""The Redis key layout of the short-term stores, and their keys and values read back as text."""

from __future__ import annotations

PREFIX = "souvenir"
USERS_KEY = f"{PREFIX}:users"  # every user key with a profile, for the operator's `memories users`


def profile_key(user_key: str) -> str:
    return f"{PREFIX}:profile:{user_key}"


def window_key(conversation_id: str) -> str:
    return f"{PREFIX}:window:{conversation_id}"


def conversations_key(user_key: str) -> str:
    return f"{PREFIX}:user-conversations:{user_key}"


def glob_escaped(text: str) -> str:
    return "".join(f"\\{ch}" if ch in "*?[]\\" else ch for ch in text)


def text_of(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
