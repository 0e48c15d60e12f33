"""Cleaning what a person typed, once, before anything is stored or sent to the model.

Every platform's text goes through here (the engine applies it), so a terminal escape sequence, a stray
NUL or bytes that were not UTF-8 are never stored, and a 50,000-character paste is not resent with every
later turn.
"""

from __future__ import annotations

import re
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
CUT_MARK = " […]"
# A cut looks back this far for a space, so the last word is not split.
_WORD_SLACK = 0.1


@dataclass(frozen=True, slots=True)
class CleanText:
    text: str
    original_chars: int  # its length after cleaning, before any cut
    cut: bool = False


def clean_message_text(text: str, max_chars: int) -> CleanText:
    """`text` without escape sequences, control characters (newlines and tabs kept) or lone surrogates,
    cut to at most `max_chars` at a word with a visible mark when longer."""
    text = _SURROGATES.sub("\ufffd", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROLS.sub("", _ESCAPES.sub("", text)).strip()
    if len(text) <= max_chars:
        return CleanText(text, len(text))
    kept = text[: max(0, max_chars - len(CUT_MARK))]
    space = kept.rfind(" ", int(len(kept) * (1 - _WORD_SLACK)))
    if space > 0:
        kept = kept[:space]
    return CleanText(kept.rstrip() + CUT_MARK, len(text), cut=True)
