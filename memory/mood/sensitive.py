"""Painful topics, in French and English: the extraction lexicon's, plus illness, family conflict, job loss."""

from __future__ import annotations

import re

from memory.words.text_caches import text_cache
from memory.writing.extraction.lexicon import SENSITIVE

_MORE = re.compile(
    r"\b(?:illness|ill|sick|hospital|diagnos\w*|chemo\w*|laid off|got fired|been fired|lost my job|unemployed|"
    r"redundan\w*|fight with my|falling out|not speaking to|estranged|split up|dumped me|left me|"
    r"malade|maladie|hôpital|hopital|diagnosti\w*|chimio\w*|licenci\w*|viré|virée|perdu mon (?:travail|boulot|emploi)|"
    r"chômage|chomage|dispute avec|brouillée? avec|on s'est séparés|séparation|m'a quittée?|largué\w*)\b",
    re.I,
)


@text_cache(maxsize=8192)
def touches_pain(text: str) -> bool:
    # Cached: recall asks it of every memory it shows (~70 µs each for the two patterns).
    return SENSITIVE.search(text) is not None or _MORE.search(text) is not None


class LexiconSensitiveTopics:
    """The engine's `SensitiveTopics` port: a cheap look at the words, fine on the reply path."""

    def touches(self, text: str) -> bool:
        return touches_pain(text)
