"""Cleaning what a person typed, once, before anything is stored or sent to the model.

Every platform's text goes through here (the engine applies it), so a terminal escape sequence, a stray
NUL or bytes that were not UTF-8 are never stored, and a 50,000-character paste is not resent with every
later turn.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# ANSI/VT escape sequences: CSI (colours, cursor moves), OSC (window titles, hyperlinks), DCS/SOS/PM/APC
# strings, two-character escapes, and the 8-bit CSI.
_ESCAPES = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]
    | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?
    | \x1b[PX^_][^\x1b]*(?:\x1b\\)?
    | \x1b[@-Z\\-_]
    | \x9b[0-?]*[ -/]*[@-~]
    """,
    re.VERBOSE,
)
# Unicode category Cc (C0, DEL, C1) except tab and newline; format characters (Cf) stay: emoji need ZWJ.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Lone surrogates: undecodable bytes under surrogateescape, or a broken "\ud83d" in JSON. Not storable.
_SURROGATES = re.compile("[\ud800-\udfff]")
# Invisible characters with no use in a chat message, that hide words from search or spoof what is shown:
# zero-width space, word joiner, invisible operators, BOM, Mongolian vowel separator, soft hyphen; and the
# bidi embeddings/overrides/isolates (U+202A-202E, U+2066-2069: "Trojan Source" reordering). The marks that
# make right-to-left text read right (LRM, RLM, ALM) and ZWJ/ZWNJ (emoji sequences, Persian, Indic) stay.
_INVISIBLE = re.compile("[\u00ad\u180e\u200b\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]")
# Tag characters smuggle text a person never sees (but a model reads); they are kept only in the flag
# emoji they belong to (black flag, tags, cancel tag: the flags of England, Scotland, Wales).
_TAGS = re.compile("(\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)|[\U000e0000-\U000e007f]")
# More combining marks than any script stacks on one letter ("Zalgo" text) are dropped past this many.
_MAX_MARKS = 8
_MARK_RUN = re.compile(f"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]{{{_MAX_MARKS + 1},}}")
# What shows nothing by itself: a message made only of these is empty.
_UNSEEN_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Mn", "Me", "Cn"})
CUT_MARK = " […]"
# A cut looks back this far for a space, so the last word is not split.
_WORD_SLACK = 0.1


@dataclass(frozen=True, slots=True)
class CleanText:
    text: str
    original_chars: int  # its length after cleaning, before any cut
    cut: bool = False


def clean_message_text(text: str, max_chars: int) -> CleanText:
    """`text` without escape sequences, control characters (newlines and tabs kept), lone surrogates,
    invisible or reordering characters and piled-up combining marks, cut to at most `max_chars` at a word
    with a visible mark when longer; empty when nothing visible is left."""
    text = _SURROGATES.sub("\ufffd", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROLS.sub("", _ESCAPES.sub("", text))
    text = _without_marks_piled_up(_TAGS.sub(lambda m: m.group(1) or "", _INVISIBLE.sub("", text))).strip()
    if not any(unicodedata.category(c) not in _UNSEEN_CATEGORIES for c in text):
        return CleanText("", 0)
    if len(text) <= max_chars:
        return CleanText(text, len(text))
    kept = text[: max(0, max_chars - len(CUT_MARK))]
    space = kept.rfind(" ", int(len(kept) * (1 - _WORD_SLACK)))
    if space > 0:
        kept = kept[:space]
    return CleanText(kept.rstrip() + CUT_MARK, len(text), cut=True)


def _without_marks_piled_up(text: str) -> str:
    if not _MARK_RUN.search(text):
        return text
    return _MARK_RUN.sub(lambda m: m.group(0)[:_MAX_MARKS], text)
