"""Cutting a long reply into platform-sized messages at natural boundaries (pure; one splitter for every
platform, each measuring length its own way)."""

from __future__ import annotations

import re
from collections.abc import Callable

# Where a cut reads best, best first. Each pattern matches the separator; the cut goes after it, and the
# piece loses only the whitespace at its end.
_BOUNDARIES = (
    re.compile(r"\n\s*\n"),  # paragraph
    re.compile(r"\n"),  # line
    # Sentence end, closing quotes and brackets kept with their sentence (« non ! » with French spacing).
    re.compile(r"(?<=[.!?…])(?:[ \u00a0\u202f]?[\"'»”)\]])*\s+"),
    re.compile(r"(?<=[;:,])\s+"),  # clause
    re.compile(r"\s+"),  # word
)

CharUnits = Callable[[str], int]


def one_unit(_char: str) -> int:
    return 1


def split_message(text: str, limit: int, units: CharUnits = one_unit) -> list[str]:
    """Pieces of at most `limit` units, cut at the latest paragraph, line, sentence, clause or word boundary
    that keeps a piece at least half full; a hard cut only for one unbroken run. `units` says what one
    character counts for (Telegram counts UTF-16 code units, so an emoji may count twice)."""
    if limit < 1:
        raise ValueError("limit must leave room for a character")
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        window = _longest_prefix(rest, limit, units)
        if not window:
            raise ValueError(f"limit {limit} leaves no room for {rest[0]!r}")
        if len(window) == len(rest):
            pieces.append(rest)
            break
        if rest[len(window)].isspace():
            window = rest[: len(window) + 1]  # a boundary right at the limit still counts
        cut = _best_cut(window)
        piece, rest = rest[:cut].rstrip(), rest[cut:].lstrip()
        if piece:
            pieces.append(piece)
    return pieces


def _longest_prefix(text: str, limit: int, units: CharUnits) -> str:
    """The longest prefix within the limit, never splitting a character."""
    size = 0
    for index, char in enumerate(text):
        size += units(char)
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
