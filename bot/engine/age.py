"""A person's age: said in conversation ("I'm 25", "j'ai 17 ans") or set with /age. It decides explicit content
(`bot.engine.content_policy`) and the break reminders given to minors (`bot.engine.breaks`).

Said in conversation, an age under 18 always counts; an adult age said later does not lift it (a minor
could say anything): only /age, an explicit statement, changes it back.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.engine.command_results import CommandResult
from bot.engine.content_policy import ADULT_AGE, is_minor
from bot.engine.model import UserProfile
from bot.engine.ports import ProfileStore
from bot.engine.safety_texts import say_safety as say

MIN_AGE, MAX_AGE = 5, 120
# What may follow "I'm 25" for it to be an age ("I'm 10 steps away" is not one).
_AFTER_AGE = (
    r"(?=\s*(?:$|[.,!?;:)]|years?\b|yrs?\b|y/?o\b|and\b|&|but\b|now\b|today\b|btw\b|lol\b|haha|so\b|too\b|ans\b))"
)
_STATED = re.compile(
    r"\b(?:i'?m|i am|im|my age is|i just turned|i turned)\s+(?P<en>\d{1,3})"
    + _AFTER_AGE
    + r"|\bj'?\s?ai\s+(?:eu\s+)?(?P<fr>\d{1,3})\s*ans\b(?!\s*(?:de\b|d'|d’))"
    r"|\bd'avoir\s+(?P<fr2>\d{1,3})\s*ans\b",
    re.IGNORECASE,
)


def stated_age(text: str) -> int | None:
    """The age the person says they are, or None ("I'm 5 minutes away" and "j'ai 10 ans d'expérience" are not)."""
    found = _STATED.search(text.replace("’", "'"))
    if found is None:
        return None
    age = int(found.group("en") or found.group("fr") or found.group("fr2"))
    return age if MIN_AGE <= age <= MAX_AGE else None


def with_stated_age(profile: UserProfile, text: str) -> tuple[UserProfile, tuple[str, ...]]:
    """The profile with the age this message states, and the names of the fields that changed."""
    age = stated_age(text)
    if age is None or age == profile.age or (is_minor(profile) and age >= ADULT_AGE):
        return profile, ()
    return replace(profile, age=age), ("age",)


async def set_age(profiles: ProfileStore, user_key: str, text: str, language: str) -> CommandResult:
    """/age <years>: what the person confirms; /age alone says what is kept."""
    profile = await profiles.load_profile(user_key)
    word = text.strip()
    if not word:
        if profile.age is None:
            return CommandResult(say("usage_age", language), ok=False)
        return CommandResult(say("age_is", language, age=profile.age))
    if not word.isdigit() or not MIN_AGE <= int(word) <= MAX_AGE:
        return CommandResult(say("age_invalid", language, text=word[:20]), ok=False)
    age = int(word)
    await profiles.save_profile_fields(replace(profile, age=age), ("age",))
    return CommandResult(say("age_set_minor" if age < ADULT_AGE else "age_set_adult", language, age=age))
