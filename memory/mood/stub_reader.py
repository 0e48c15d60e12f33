"""STAND-IN mood reader, until the trained offline reader (`memory.mood.reader`) is merged.

A handful of FR/EN keywords, nothing more: it only lets the wiring run end to end. The lead replaces it in
`memory.mood.open_mood_reader` at merge; nothing else should import this module.
"""

from __future__ import annotations

import re

from bot.engine.mood import MoodLabel, MoodReading

_WORDS: tuple[tuple[MoodLabel, float, str], ...] = (
    ("tiredness", -0.5, r"\b(?:tired|exhausted|worn out|fatigu\w*|épuisée?|crevée?|naze)\b"),
    ("anxiety", -0.6, r"\b(?:anxious|worried|stressed|scared|nervous|stress\w*|angoiss\w*|inqui\w*|peur)\b"),
    ("sadness", -0.7, r"\b(?:sad|down|lonely|miss (?:him|her)|cry\w*|triste|seule?|pleur\w*|déprim\w*)\b"),
    ("anger", -0.6, r"\b(?:angry|furious|pissed|annoyed|en colère|énervée?|furieu\w*|agacée?)\b"),
    ("joy", 0.7, r"\b(?:happy|great|awesome|glad|excited|yay|heureu\w*|génial|trop bien|contente?|ravie?)\b"),
    ("calm", 0.4, r"\b(?:calm|relaxed|peaceful|serene|calme|détendue?|tranquille|serein\w*)\b"),
)
_KEYWORDS = tuple((label, valence, re.compile(pattern, re.I)) for label, valence, pattern in _WORDS)


class KeywordMoodReader:
    """STAND-IN (see the module docstring)."""

    async def read(self, text: str, language: str) -> MoodReading:
        for label, valence, pattern in _KEYWORDS:
            if pattern.search(text):
                return MoodReading(label, valence, 0.6)
        return MoodReading("neutral", 0.0, 0.1)
