"""Which language a person writes in. Souvenir speaks French and English; anything else gets English.

The reply follows the person, not one line: a language chosen with /language wins; else a message that reads
clearly in one language (`CLEAR` points more than in the other) is answered in it, so "oui merci" after English
lines gets French; else the message is weighed with the person's last messages (the newest counting most) and
the language of the last reply, so a one-word "ok", "merci" or "thanks" does not flip the conversation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

SUPPORTED = ("en", "fr")
LANGUAGE_NAMES = {"en": "English", "fr": "French"}  # as the model is told which one to write

_FR = frozenset(
    "je j tu il elle nous vous ils elles le la les un une des du de au aux et ou mais donc est suis es sommes "
    "êtes sont ai as avons avez ont mon ma mes ton ta tes son sa ses notre votre leur ce cette ces qui que quoi "
    "pas ne plus très bien merci bonjour salut bonsoir oui non avec pour dans sur chez aujourd hui demain hier "
    "c ça ca moi toi comment pourquoi quand où aime adore j'ai c'est qu'il anniversaire soeur sœur frère "
    "chat chien travail semaine mois année coucou d l m n s t qu "
    # the words of short chat lines, and the days: "dimanche difficile", "bonne nuit", "à demain"
    "va vais fait faire suis sais peux veux beaucoup trop vraiment aussi encore toujours jamais rien tout "
    "bonne bon nuit soir matin journée soirée génial super chouette nul dur dure difficile triste fatigué "
    "fatiguée content contente heureux heureuse désolé désolée accord bisous bises enfin voilà alors parce "
    "lundi mardi mercredi jeudi vendredi samedi dimanche à".split()
)
_EN = frozenset(
    "i you he she we they the a an and or but so is am are was were have has had my your his her our their "
    "this that these those who what which not no yes very well thanks thank hello hi hey with for in on at "
    "today tomorrow yesterday me how why when where love like it's i'm don't birthday sister brother cat dog "
    "work week month year of to do does did "
    # the words of short chat lines, and the days: "good night", "see you", "Sunday is hard"
    "good night morning evening great nice fine sure sorry please see going got just really too much also "
    "again always never nothing all tired happy sad hard glad can can't will would yeah yep "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)
_WORD = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ']+", re.IGNORECASE)
_FR_MARKS = re.compile(r"[àâçéèêëîïôùûœ]", re.IGNORECASE)
CLEAR = 2.0  # points ahead that make a message's own language plain, whatever came before
_EARLIER = (0.8, 0.4, 0.2, 0.1)  # what each of the person's last messages weighs, newest first
_LAST_REPLY = 0.5  # the language of the last reply (the one thing known when the window is empty)


def normalise_language(code: str | None) -> str | None:
    """`fr-CA` → `fr`; unsupported or empty codes → None."""
    if not code:
        return None
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in SUPPORTED else None


def _points(text: str) -> tuple[float, float]:
    """(French, English): one point a word known in that language, half a point a French accent."""
    parts = [p for w in _WORD.findall(text.lower()) for p in w.split("'") if p]
    fr = sum(1 for p in parts if p in _FR) + len(_FR_MARKS.findall(text)) * 0.5
    return fr, sum(1 for p in parts if p in _EN)


def _leaning(fr: float, en: float) -> str | None:
    """The language the words lean to, if they lean: at least a point, and a fifth more than the other."""
    if fr >= 1 and fr > en * 1.2:
        return "fr"
    if en >= 1 and en > fr * 1.2:
        return "en"
    return None


def detect_language(text: str, hint: str | None = None, default: str = "en") -> str:
    """French or English from the words used; short or ambiguous text falls back to the hint, then default."""
    return _leaning(*_points(text)) or normalise_language(hint) or normalise_language(default) or "en"


def reply_language(
    text: str, earlier: Sequence[str] = (), *, chosen: str | None = None, last_reply: str | None = None,
    hint: str | None = None, default: str = "en",
) -> str:  # fmt: skip
    """The language to answer `text` in. `earlier`: the person's previous messages still in the conversation,
    oldest first; `chosen`: set with /language; `last_reply`: the language of the last reply; `hint`: the
    platform's (Telegram's language code, Discord's locale)."""
    if (picked := normalise_language(chosen)) is not None:
        return picked
    fr, en = _points(text)
    if abs(fr - en) >= CLEAR and (plain := _leaning(fr, en)) is not None:
        return plain
    weight = {"fr": fr, "en": en}
    for said, counts in zip(reversed(earlier), _EARLIER, strict=False):
        if (leaning := _leaning(*_points(said))) is not None:
            weight[leaning] += counts
    before = normalise_language(last_reply) or normalise_language(hint)
    if before is not None:
        weight[before] += _LAST_REPLY
    if weight["fr"] != weight["en"]:
        return max(weight, key=lambda code: weight[code])
    return before or normalise_language(default) or "en"
