"""`explicit_content_allowed`, the one rule for explicit content (replies now, pictures later), and the ages a
person states in conversation."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.engine.model import ChatKind, UserProfile
from bot.engine.safety.age import stated_age, with_stated_age
from bot.engine.safety.content_policy import explicit_content_allowed

ADULT, MINOR, UNKNOWN = UserProfile("p", age=25, age_confirmed=True), UserProfile("p", age=16), UserProfile("p")
SAID_ADULT = UserProfile("p", age=25)  # an adult age kept without /age (an older profile): not confirmed


@pytest.mark.parametrize(
    ("setting", "profile", "chat", "allowed"),
    [
        ("private", ADULT, ChatKind.PRIVATE, True),
        ("private", ADULT, ChatKind.GROUP, False),  # never in groups
        ("private", UNKNOWN, ChatKind.PRIVATE, False),  # not confirmed
        ("private", SAID_ADULT, ChatKind.PRIVATE, False),  # not confirmed with /age
        ("private", replace(MINOR, age_confirmed=True), ChatKind.PRIVATE, False),  # /age 16
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
        ("I'm 15 and I can't wait until I'm 18", 15), ("I'm 25. Ok fine, I'm 16.", 16),
    ],
)  # fmt: skip
def test_an_age_said_in_conversation_is_read_and_other_numbers_are_not(text: str, age: int | None) -> None:
    assert stated_age(text) == age


@pytest.mark.parametrize(
    "text",
    [
        "I can't wait until I'm 18!", "when I'm 16, I'll drive", "once I'm 17, I'm out of here",
        "if I were 16 I'd do it", "if I'm 16, would you still talk to me?", "before I'm 16 and boring",
        "when I was 15 I broke my arm", "at 15 I moved to Lyon", "till I'm 17 now", "by the time I'm 12.",
        "j'ai hâte d'avoir 18 ans", "quand j'aurai 18 ans", "quand j'avais 15 ans, j'étais timide",
        "avant d'avoir 16 ans", "quand j'ai eu 15 ans, on a déménagé", "I can’t wait until I’m 16",
    ],
)  # fmt: skip
def test_an_age_in_a_sentence_about_another_time_is_no_stated_age(text: str) -> None:
    assert stated_age(text) is None
    assert with_stated_age(UNKNOWN, text) == (UNKNOWN, ())


def test_a_wish_to_be_18_never_allows_explicit_content() -> None:
    profile, _ = with_stated_age(UNKNOWN, "I can't wait until I'm 18!")
    assert profile.age is None and not explicit_content_allowed("private", profile, ChatKind.PRIVATE)


@pytest.mark.parametrize("text", ["I'm 25", "j'ai 30 ans", "I just turned 18 today"])
def test_an_adult_age_said_in_conversation_sets_and_confirms_nothing(text: str) -> None:
    assert with_stated_age(UNKNOWN, text) == (UNKNOWN, ())
    assert with_stated_age(MINOR, text) == (MINOR, ())  # nor lifts a minor's
    assert with_stated_age(SAID_ADULT, text)[0] == SAID_ADULT


def test_an_age_under_18_said_in_conversation_marks_a_minor_and_can_only_lower() -> None:
    minor, changed = with_stated_age(UNKNOWN, "I'm 15")
    assert minor.age == 15 and "age" in changed
    assert not explicit_content_allowed("private", minor, ChatKind.PRIVATE)
    assert with_stated_age(minor, "I'm 25") == (minor, ())
    assert with_stated_age(minor, "I'm 17 now") == (minor, ())  # higher, though under 18: not taken
    assert with_stated_age(minor, "j'ai 14 ans")[0].age == 14

    lowered, _ = with_stated_age(ADULT, "j'ai 15 ans")  # even below an /age: no longer a confirmed adult
    assert lowered.age == 15 and not lowered.age_confirmed
    assert not explicit_content_allowed("private", lowered, ChatKind.PRIVATE)


def test_picture_prompts_are_safe_for_work_unless_an_adult_asked_in_private() -> None:
    from bot.engine.media.picture_rules import picture_prompt_rules

    assert "No nudity" in picture_prompt_rules()
    assert "No nudity" in picture_prompt_rules(explicit_allowed=False)
    assert "No nudity" not in picture_prompt_rules(explicit_allowed=True)
    assert "minors" in picture_prompt_rules(explicit_allowed=True)
