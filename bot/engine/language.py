"""Which language a person writes in. Souvenir speaks French and English; anything else gets English."""

from __future__ import annotations

import re

SUPPORTED = ("en", "fr")
LANGUAGE_NAMES = {"en": "English", "fr": "French"}  # as the model is told which one to write

_FR = frozenset(
    "je j tu il elle nous vous ils elles le la les un une des du de au aux et ou mais donc est suis es sommes "
    "êtes sont ai as avons avez ont mon ma mes ton ta tes son sa ses notre votre leur ce cette ces qui que quoi "
    "pas ne plus très bien merci bonjour salut bonsoir oui non avec pour dans sur chez aujourd hui demain hier "
    "c ça ca moi toi comment pourquoi quand où aime adore j'ai c'est qu'il anniversaire soeur sœur frère "
    "chat chien travail semaine mois année coucou d l m n s t qu".split()
)
_EN = frozenset(
    "i you he she we they the a an and or but so is am are was were have has had my your his her our their "
    "this that these those who what which not no yes very well thanks thank hello hi hey with for in on at "
    "today tomorrow yesterday me how why when where love like it's i'm don't birthday sister brother cat dog "
    "work week month year of to do does did".split()
)
_WORD = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ']+", re.IGNORECASE)
_FR_MARKS = re.compile(r"[àâçéèêëîïôùûœ]", re.IGNORECASE)


def normalise_language(code: str | None) -> str | None:
    """`fr-CA` → `fr`; unsupported or empty codes → None."""
    if not code:
        return None
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in SUPPORTED else None


def detect_language(text: str, hint: str | None = None, default: str = "en") -> str:
    """French or English from the words used; short or ambiguous text falls back to the hint, then default."""
    words = [w.lower() for w in _WORD.findall(text)]
    parts = [p for w in words for p in w.split("'") if p]
    fr = sum(1 for p in parts if p in _FR) + len(_FR_MARKS.findall(text)) * 0.5
    en = sum(1 for p in parts if p in _EN)
    if fr >= 1 and fr > en * 1.2:
        return "fr"
    if en >= 1 and en > fr * 1.2:
        return "en"
    return normalise_language(hint) or normalise_language(default) or "en"
