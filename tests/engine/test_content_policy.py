"""`explicit_content_allowed`, the one rule for explicit content (replies now, pictures later), and the ages a
person states in conversation."""

from __future__ import annotations

import pytest

from bot.engine.age import stated_age, with_stated_age
from bot.engine.content_policy import explicit_content_allowed
from bot.engine.model import ChatKind, UserProfile

ADULT, MINOR, UNKNOWN = UserProfile("p", age=25), UserProfile("p", age=16), UserProfile("p")


@pytest.mark.parametrize(
    ("setting", "profile", "chat", "allowed"),
    [
        ("private", ADULT, ChatKind.PRIVATE, True),
        ("private", ADULT, ChatKind.GROUP, False),  # never in groups
        ("private", UNKNOWN, ChatKind.PRIVATE, False),  # not confirmed
        ("private", MINOR, ChatKind.PRIVATE, False),
        ("off", ADULT, ChatKind.PRIVATE, False),
        ("off", MINOR, ChatKind.GROUP, False),
    ],
)
def test_explicit_content_needs_the_setting_a_private_chat_and_a_confirmed_adult(
    setting: str, profile: UserProfile, chat: ChatKind, allowed: bool
) -> None:
    assert explicit_content_allowed(setting, profile, chat) is allowed  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("I'm 25", 25), ("i am 17 years old", 17), ("I'm 16 and bored", 16), ("my age is 30", 30),
        ("j'ai 17 ans", 17), ("J’ai 25 ans, et toi ?", 25), ("je viens d'avoir 18 ans", 18),
        ("I'm 10 steps away", None), ("I'm 5 minutes late", None), ("I'm 100% sure", None),
        ("j'ai 10 ans d'expérience", None), ("I'm on floor 3", None), ("hello", None),
    ],
)  # fmt: skip
def test_an_age_said_in_conversation_is_read_and_other_numbers_are_not(text: str, age: int | None) -> None:
    assert stated_age(text) == age


def test_an_adult_age_said_later_does_not_lift_a_minors_one() -> None:
    assert with_stated_age(MINOR, "I'm 30 now") == (MINOR, ())
    assert with_stated_age(ADULT, "j'ai 15 ans")[0].age == 15  # a lower age always counts


def test_picture_prompts_are_safe_for_work_unless_an_adult_asked_in_private() -> None:
    from bot.engine.picture_rules import picture_prompt_rules

    assert "No nudity" in picture_prompt_rules()
    assert "No nudity" in picture_prompt_rules(explicit_allowed=False)
    assert "No nudity" not in picture_prompt_rules(explicit_allowed=True)
    assert "minors" in picture_prompt_rules(explicit_allowed=True)
