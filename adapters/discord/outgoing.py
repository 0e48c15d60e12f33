"""Replies longer than Discord's 2000-character message limit, cut where a reader would pause."""

from __future__ import annotations

import re

DISCORD_MESSAGE_LIMIT = 2000

# Preferred cut points, best first: paragraph, line, sentence end (after closing quotes), clause, word.
_BOUNDARIES = (
    re.compile(r"\n\s*\n"),
    re.compile(r"\n"),
    re.compile(r"(?:(?<=[.!?…])|(?<=[.!?…][\"'»”)\]])|(?<=[.!?…][ \u00a0\u202f]»))\s+"),
    re.compile(r"(?<=[;:,])\s+"),
    re.compile(r"\s+"),
)


def split_message(text: str, limit: int = DISCORD_MESSAGE_LIMIT) -> list[str]:
    """Pieces of at most `limit` characters, cut at the best boundary in the second half of each piece.

    Only whitespace at the cuts is lost; a run of text without any space is cut hard at the limit.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        end, resume = _cut(rest, limit)
        pieces.append(rest[:end].rstrip())
        rest = rest[resume:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def _cut(text: str, limit: int) -> tuple[int, int]:
    """(end of this piece, start of the next) for text longer than the limit."""
    window = text[: limit + 1]
    for boundary in _BOUNDARIES:
        spans = [(m.start(), m.end()) for m in boundary.finditer(window) if limit // 2 <= m.start() <= limit]
        if spans:
            return spans[-1]
    return limit, limit
