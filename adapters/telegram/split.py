"""Cutting a long reply into Telegram-sized messages at natural boundaries (pure)."""

from __future__ import annotations

import re

TELEGRAM_MESSAGE_LIMIT = 4096

# Where a cut reads best, best first. Each pattern matches the separator; the cut goes after it.
_BOUNDARIES = (
    re.compile(r"\n\s*\n"),  # paragraph
    re.compile(r"\n"),  # line
    re.compile(r"(?<=[.!?…])[\"'»”)\]]*\s+"),  # sentence end (English or French spacing)
    re.compile(r"(?<=[;:,])\s+"),  # clause
    re.compile(r"\s+"),  # word
)


def telegram_length(text: str) -> int:
    """Telegram counts UTF-16 code units (an emoji may count twice), so measure the same way."""
    return len(text.encode("utf-16-le")) // 2


def split_message(text: str, limit: int = TELEGRAM_MESSAGE_LIMIT) -> list[str]:
    """Pieces of at most `limit` UTF-16 units, cut at the latest paragraph, line, sentence, clause or
    word boundary that keeps a piece at least half full; a hard cut only for one unbroken run."""
    if limit < 2:
        raise ValueError("limit must leave room for a character")
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        if telegram_length(rest) <= limit:
            pieces.append(rest)
            break
        window = _longest_prefix(rest, limit)
        cut = _best_cut(window)
        piece, rest = rest[:cut].rstrip(), rest[cut:].lstrip()
        if piece:
            pieces.append(piece)
    return pieces


def _longest_prefix(text: str, limit: int) -> str:
    """The longest prefix within the limit, never splitting a surrogate pair."""
    size = 0
    for index, char in enumerate(text):
        size += 2 if ord(char) > 0xFFFF else 1
        if size > limit:
            return text[:index]
    return text


def _best_cut(window: str) -> int:
    floor = len(window) // 2
    for boundary in _BOUNDARIES:
        ends = [match.end() for match in boundary.finditer(window) if match.start() > 0]
        good = [end for end in ends if end >= floor]
        if good:
            return good[-1]
    # Nothing late enough: any word boundary beats cutting a word in two.
    words = [match.end() for match in _BOUNDARIES[-1].finditer(window) if match.start() > 0]
    return words[-1] if words else len(window)
