"""How a person wants to be addressed, learnt from what they write: a name ("call me Max", "appelle-moi
Max"), pronouns ("my pronouns are she/her") and, in French, tu or vous ("on peut se tutoyer", "vouvoie-moi").

Only clear requests count: a lowercase word after "call me" is a name only when it ends the sentence and is
not an everyday word ("call me later" is not a name). `/profile` sets the same fields explicitly.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.engine.conversation.stated_name import stated_name
from bot.engine.model import UserProfile

MAX_NAME_CHARS = 40
MAX_PRONOUNS_CHARS = 30

_NAME = re.compile(
    r"(?:\bcall me|\bappel(?:le|ez)[- ]moi|\b(?:tu peux|vous pouvez) m'appeler)\s+"
    r"(?P<name>[^\W\d_][\w'-]{0,39})(?P<after>\s*(?:[.!,;?]|$|\s))",  # 40 = MAX_NAME_CHARS
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(
    "later back tomorrow tonight when if maybe anytime now soon again sometime whenever please crazy a an the "
    "what whatever plus demain ce cette quand si ici maintenant tout vite encore ce soir dès après avant "
    "juste vers pas".split()
)
_VOUS = re.compile(
    r"\bvouvoi|\bvouvoy|\bne (?:me |nous )?tuto[iy]\w* pas|\bpas de tutoiement|\bsans (?:me )?tutoyer",
    re.IGNORECASE,
)
_TU = re.compile(r"\btutoi|\btutoy", re.IGNORECASE)
_PRONOUNS = re.compile(
    r"\b(?:my pronouns are|mes pronoms sont|(?:my |mes )?(?:pronouns|pronoms)\s*:)\s*"
    r"(?P<p>[^\W\d_]+(?:\s*/\s*[^\W\d_]+){1,2})",
    re.IGNORECASE,
)
# Pronouns said on their own, as people put them after their name ("I'm Priya btw, she/her"): the usual pairs only.
_PRONOUN_PAIR = re.compile(
    r"(?<![\w/])(?P<p>(?:she|he|they|xe|ze|il|elle|iel)\s*/\s*(?:her|him|them|they|she|he|xem|zir|hir|lui|elle|iel)"
    r"(?:\s*/\s*(?:hers|his|theirs|them|her|him))?)(?![\w/])",
    re.IGNORECASE,
)


def learn_addressing(text: str) -> dict[str, str]:
    """The profile fields (`preferred_name`, `pronouns`, `address_form`) this message asks to set."""
    learnt: dict[str, str] = {}
    name = _NAME.search(text)
    if name and _is_a_name(name.group("name"), name.group("after")):
        word = name.group("name")
        learnt["preferred_name"] = word[0].upper() + word[1:] if word.islower() else word
    elif stated := stated_name(text):  # "My name is Alice", "je m'appelle Alice"
        learnt["preferred_name"] = stated[:MAX_NAME_CHARS]
    pronouns = _PRONOUNS.search(text) or (_PRONOUN_PAIR.search(text) if "?" not in text else None)
    if pronouns:
        learnt["pronouns"] = re.sub(r"\s*/\s*", "/", pronouns.group("p").lower())[:MAX_PRONOUNS_CHARS]
    if _VOUS.search(text):
        learnt["address_form"] = "vous"
    elif _TU.search(text):
        learnt["address_form"] = "tu"
    return learnt


def with_addressing(profile: UserProfile, text: str) -> tuple[UserProfile, tuple[str, ...]]:
    """`profile` with what `text` asks for, and the names of the fields that changed."""
    learnt = learn_addressing(text)
    changed = replace(
        profile,
        preferred_name=learnt.get("preferred_name", profile.preferred_name),
        pronouns=learnt.get("pronouns", profile.pronouns),
        address_form=learnt.get("address_form", profile.address_form),
    )
    return changed, tuple(learnt)


def _is_a_name(word: str, after: str) -> bool:
    if word.lower() in _NOT_NAMES:
        return False
    return word[0].isupper() or not after.strip() or after.strip() in ".!"
