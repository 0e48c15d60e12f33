"""The people and topics a message names, found offline and simply: relation words ("my father", "mon
père" -> "father"), a few everyday topics ("boulot" -> "work") and capitalised first names.

Enough for the pattern finder to notice "mentions their father when anxious"; the engine may hand over
richer topics (from memory extraction) through `TimedReading.topics` instead.
"""

from __future__ import annotations

import re

from memory.mood.cues import normalised

# Canonical (English) key -> words, accent-stripped, matched as whole words. No mood words here (sleep,
# stress): a topic that is the mood itself would co-occur with it by definition.
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "father": ("father", "dad", "daddy", "papa", "pere", "paternel"),
    "mother": ("mother", "mum", "mom", "mommy", "mummy", "maman", "mere"),
    "sister": ("sister", "soeur", "sis"),
    "brother": ("brother", "frere", "bro"),
    "partner": ("boyfriend", "girlfriend", "husband", "wife", "partner", "mari", "copain", "copine", "conjoint",
                "conjointe", "compagnon", "compagne", "ex"),
    "children": ("son", "daughter", "kids", "children", "fils", "enfants", "gamins", "bebe", "baby"),
    "boss": ("boss", "manager", "patron", "patronne", "chef", "cheffe", "superieur"),
    "colleague": ("colleague", "coworker", "collegue", "collegues", "colleagues", "coworkers"),
    "friend": ("friend", "friends", "ami", "amie", "amis", "amies", "pote", "potes"),
    "work": ("work", "job", "office", "boulot", "travail", "bureau", "meeting", "reunion", "taf", "deadline"),
    "money": ("money", "rent", "bills", "debt", "argent", "loyer", "factures", "dettes", "fric"),
    "health": ("doctor", "hospital", "illness", "medecin", "hopital", "maladie", "docteur", "surgery", "operation"),
    "school": ("exam", "exams", "school", "examen", "examens", "ecole", "partiel", "partiels", "fac", "university"),
}  # fmt: skip
_PATTERNS = {key: re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)")
             for key, words in _KEYWORDS.items()}  # fmt: skip

# Capitalised words that are not names: days, months, greetings, pronouns, common sentence words.
_NOT_NAMES = frozenset(
    """i i'm i've i'll i'd im ok okay oh lol monday tuesday wednesday thursday friday saturday sunday january
    february march april may june july august september october november december lundi mardi mercredi jeudi
    vendredi samedi dimanche janvier fevrier mars avril mai juin juillet aout septembre octobre novembre
    decembre noel christmas easter paques hello hi bonjour salut merci thanks je tu il elle on nous vous ils
    elles le la les un une des the a an my mon ma mes it's c'est ca god dieu mdr ptdr haha wow omg""".split()
)
_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)


def topics_of(text: str) -> tuple[str, ...]:
    """Canonical topic keys first (in a fixed order), then capitalised names as written; no repeats."""
    plain = normalised(text)
    found = [key for key, pattern in _PATTERNS.items() if pattern.search(plain)]
    for match in _WORD.finditer(text):
        word = match.group()
        before = text[: match.start()].rstrip()
        sentence_start = not before or before[-1] in ".!?\n:"
        if sentence_start or not word[0].isupper() or len(word) < 2 or word.isupper():
            continue
        if normalised(word) in _NOT_NAMES or normalised(word) in _KEYWORDS:
            continue
        found.append(word)
    return tuple(dict.fromkeys(found))
