"""A person's age: set with /age, or said in conversation ("I'm 15", "j'ai 16 ans"). It decides explicit content
(`bot.engine.safety.content_policy`) and the break reminders given to minors (`bot.engine.safety.breaks`).

What is said in conversation can only lower what is known: an age under 18 marks a minor (anyone could be
role-playing or joking, and taking a minor's word for it is the safe side); an adult age said in conversation
never sets or confirms anything, and neither does an age in a sentence about another time ("when I'm 18",
"quand j'aurai 18 ans"). Only /age sets an adult age. When the person is marked under 18, an adult /age is
applied only once the same /age comes again within 10 minutes, so a single slip of the keyboard — or a
minor trying it once — does not lift the mark.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import replace
from datetime import datetime, timedelta

from bot.engine.commands.results import CommandResult
from bot.engine.model import UserProfile
from bot.engine.ports import ProfileStore
from bot.engine.safety.content_policy import ADULT_AGE, is_minor
from bot.engine.texts.safety import say_safety as say

log = logging.getLogger(__name__)

MIN_AGE, MAX_AGE = 5, 120
CONFIRM_WITHIN = timedelta(minutes=10)
# What may follow "I'm 25" for it to be an age ("I'm 10 steps away" is not one).
_AFTER_AGE = (
    r"(?=\s*(?:$|[.,!?;:)]|years?\b|yrs?\b|y/?o\b|and\b|&|but\b|now\b|today\b|btw\b|lol\b|haha|so\b|too\b|ans\b))"
)
_STATED = re.compile(
    r"\b(?:i'?m|i am|im|my age is|i just turned|i turned)\s+(?P<en>\d{1,3})"
    + _AFTER_AGE
    + r"|\bj'?\s?ai\s+(?:eu\s+)?(?P<fr>\d{1,3})\s*ans\b(?!\s*(?:de\b|d'))"
    # "je viens d'avoir 16 ans" only: "hâte d'avoir", "avant d'avoir 18 ans" speak of another time.
    r"|\bviens\s+d'avoir\s+(?P<fr2>\d{1,3})\s*ans\b",
    re.IGNORECASE,
)
# Words just before "I'm 18" / "j'ai 18 ans" that put it in another time or in a supposition: "until I'm 18",
# "when I'm 21", "once I'm 18", "if I'm 18", "quand j'ai eu 15 ans", "si j'ai 18 ans". (The past and the
# French future — "when I was 15", "quand j'aurai 18 ans" — never read as a stated age in the first place.)
_OTHER_TIME = re.compile(
    r"\b(?:until|till|til|untill|when|whenever|once|before|after|if|unless|by the time|as soon as|the day"
    r"|quand|lorsque|si|dès que|une fois que|avant que|jusqu'à ce que|le jour où)\s*$",
    re.IGNORECASE,
)


def _now_stated(text: str) -> list[int]:
    """Every age the text says the person is now, in order."""
    ages = []
    for found in _STATED.finditer(text):
        if _OTHER_TIME.search(text, 0, found.start()):
            continue
        age = int(found.group("en") or found.group("fr") or found.group("fr2"))
        if MIN_AGE <= age <= MAX_AGE:
            ages.append(age)
    return ages


def stated_age(text: str) -> int | None:
    """The age the person says they are now, or None ("I'm 5 minutes away", "j'ai 10 ans d'expérience" and
    "I can't wait until I'm 18" are not); the lowest when they say several."""
    ages = _now_stated(text.replace("’", "'"))
    return min(ages) if ages else None


def with_stated_age(profile: UserProfile, text: str) -> tuple[UserProfile, tuple[str, ...]]:
    """The profile after this message, and the fields that changed: only an age under 18 below what is known
    is taken; it replaces any /age (so it is no longer confirmed) and drops an adult /age waiting to be
    confirmed."""
    age = stated_age(text)
    if age is None or age >= ADULT_AGE or (profile.age is not None and age >= profile.age):
        return profile, ()
    lowered = replace(profile, age=age, age_confirmed=False, age_pending=None, age_pending_at=None)
    return lowered, ("age", "age_confirmed", "age_pending", "age_pending_at")


async def set_age(profiles: ProfileStore, user_key: str, text: str, language: str, now: datetime) -> CommandResult:
    """/age <years>: the age the person confirms; /age alone says what is kept. An adult age for someone
    marked under 18 waits for the same /age again within `CONFIRM_WITHIN`."""
    profile = await profiles.load_profile(user_key)
    word = text.strip()
    if not word:
        if profile.age is None:
            return CommandResult(say("usage_age", language), ok=False)
        return CommandResult(say("age_is", language, age=profile.age))
    if not word.isdigit() or not MIN_AGE <= int(word) <= MAX_AGE:
        return CommandResult(say("age_invalid", language, text=word[:20]), ok=False)
    age = int(word)
    if age >= ADULT_AGE and is_minor(profile):
        if not _confirms(profile, age, now):
            asked = replace(profile, age_pending=age, age_pending_at=now)
            await profiles.save_profile_fields(asked, ("age_pending", "age_pending_at"))
            minutes = int(CONFIRM_WITHIN.total_seconds() // 60)
            return CommandResult(say("age_confirm_adult", language, age=age, minutes=minutes))
        # Someone may ask why explicit content became possible for a person once marked under 18.
        log.warning("the under-18 mark of %s was lifted with /age: %s -> %s", _hashed(user_key), profile.age, age)
    applied = replace(profile, age=age, age_confirmed=True, age_pending=None, age_pending_at=None)
    await profiles.save_profile_fields(applied, ("age", "age_confirmed", "age_pending", "age_pending_at"))
    return CommandResult(say("age_set_minor" if age < ADULT_AGE else "age_set_adult", language, age=age))


def _confirms(profile: UserProfile, age: int, now: datetime) -> bool:
    """This /age repeats the one asked within `CONFIRM_WITHIN`."""
    at = profile.age_pending_at
    return profile.age_pending == age and at is not None and timedelta(0) <= now - at <= CONFIRM_WITHIN


def _hashed(user_key: str) -> str:
    # Keys may be platform ids: the log gets a stable token to match with other lines, not the account.
    return "user-" + hashlib.sha256(user_key.encode()).hexdigest()[:12]
