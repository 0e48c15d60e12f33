"""What a message the companion writes first must never say: that it was lonely, missed them or was left, a
reproach for their silence, or a push to come back (no engagement bait; Washington HB 2225).

The fixed texts never do (tests/jobs scan every one); a model's text that does is dropped for the fixed one.
A false alarm costs only the personal touch of one message.
"""

from __future__ import annotations

import re

PRESSURE_PATTERNS: tuple[str, ...] = (
    # English
    r"\bmiss(?:ed|ing)? you\b",
    r"\blonel(?:y|iness)\b",
    r"\balone without you\b",
    r"\bwhy (?:did|would|do) you (?:leave|go)\b",
    r"\babandon",
    r"\bhaven'?t heard from you\b",
    r"\bhaven'?t (?:talked|spoken|written) to me\b",
    r"\b(?:in|for) ages\b",
    r"\bcome back\b",
    r"\byou forgot (?:about )?me\b",
    r"\bdon'?t leave me\b",
    r"\bwhere (?:have you been|did you go)\b",
    r"\bignor(?:e|ed|ing) me\b",
    r"\bwaiting for you\b",
    # French
    r"m'as manqué|m'avez manqué|tu me manques|vous me manquez",
    r"\bseule? sans (?:toi|vous)\b",
    r"pourquoi (?:tu|vous) (?:ne )?me (?:parles|parlez) plus",
    r"\b(?:tu|vous) ne me (?:parles|parlez|réponds|répondez|écris|écrivez) plus\b",
    r"\breviens\b|\brevenez\b",
    r"\b(?:tu m'as|vous m'avez) oubliée?\b",
    r"abandonn",
    r"\bne me laissez? pas\b",
    r"\boù (?:étais|es)-tu\b|\boù étiez-vous\b",
    r"\b(?:tu m'ignores|vous m'ignorez)\b",
    r"\bje (?:t'|vous )attendais\b",
    r"\bune éternité\b",
)
_PRESSURE = [re.compile(p, re.IGNORECASE) for p in PRESSURE_PATTERNS]


def pressing(text: str) -> list[str]:
    """The patterns `text` matches (empty: it presses no one)."""
    plain = text.replace("’", "'")  # models write typographic apostrophes too
    return [p.pattern for p in _PRESSURE if p.search(plain)]
