"""Who may get explicit content, where: one rule for the reply prompt and for anything else that makes content.

SOUVENIR_ADULT_CONTENT=off (the default) allows it nowhere. With `private`, only in a private chat with a person
who confirmed being 18 or older with `/age` (an adult age said in conversation never counts: `bot.engine.safety.age`);
never in a group; never to a person who said they are under 18, whatever the setting.
"""

from __future__ import annotations

from typing import Literal

from bot.engine.model import ChatKind, UserProfile

AdultContent = Literal["off", "private"]
ADULT_AGE = 18


def is_minor(profile: UserProfile) -> bool:
    return profile.age is not None and profile.age < ADULT_AGE


def confirmed_adult(profile: UserProfile) -> bool:
    """18 or older, set with /age: only /age confirms an age (what is said in conversation can only lower it)."""
    return profile.age_confirmed and profile.age is not None and profile.age >= ADULT_AGE


def explicit_content_allowed(setting: AdultContent, profile: UserProfile, chat_kind: ChatKind) -> bool:
    """Whether sexually explicit content (text or pictures) may be made for this person in this chat."""
    return setting == "private" and chat_kind is ChatKind.PRIVATE and confirmed_adult(profile)
