"""A weekday that names no day: a habit ("every Sunday", "le lundi c'est dur") or a feeling ("dimanche
difficile", "Sunday is hard"), said in French or English.

A bare weekday is otherwise read as the next one ("on Sunday I have my exam"); taken that way, "dimanche
difficile" said on a Wednesday would be remembered as something happening in four days.
"""

from __future__ import annotations

import re

# "every Sunday", "chaque dimanche", "le lundi" (French for "on Mondays") — unless a date follows: "le lundi 7".
_HABIT_BEFORE = re.compile(r"\b(?:every|each|chaque|tous les|le)\s+$", re.I)
_DATE_AFTER = re.compile(r"^\s+\d", re.I)
_HABIT_AFTER = re.compile(r"^\s+(?:mornings|afternoons|evenings|nights|matins|soirs|après-midis?)\b", re.I)
_FEELING = re.compile(
    r"\b(?:hard|tough|difficult|rough|lonely|sad|awful|horrible|terrible|depressing|boring|blues?|hate|"
    r"durs?|dures?|difficiles?|compliquée?s?|tristes?|déprim\w*|pénibles?|cafard|horribles?|ennuyeu\w*|"
    r"angoiss\w*|déteste)\b",
    re.I,
)
# Words that make a weekday a plan even beside a feeling: "Sunday is going to be hard", "dimanche j'ai mon examen".
_PLANNED = re.compile(
    r"\b(?:will|going to|gonna|i have|i've got|we have|i'm \w+ing|j'ai|on a|je vais|on va|ça va être|sera|"
    r"prévu)\b|'ll\b",
    re.I,
)


def names_no_day(text: str, start: int, end: int, sentence: str) -> bool:
    """Whether the bare weekday at `text[start:end]`, in `sentence`, is a habit or a feeling, not a date."""
    before, after = text[:start], text[end:]
    if _HABIT_BEFORE.search(before) and not _DATE_AFTER.match(after):
        return True
    if _HABIT_AFTER.match(after):
        return True
    return _FEELING.search(sentence) is not None and _PLANNED.search(sentence) is None
