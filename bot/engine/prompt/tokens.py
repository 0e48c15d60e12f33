"""A rough token count: about four characters a token, close enough to keep a prompt within a context budget."""

from __future__ import annotations

CHARS_PER_TOKEN = 4


def rough_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)
