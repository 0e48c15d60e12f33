"""The one AI-disclosure rule replies and unprompted messages share: at the beginning of every interaction (a
first message, or one after a pause) and at least every three hours of a continuing one."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.config import Settings
from bot.engine.safety.breaks import PAUSE
from bot.engine.safety.disclosure import DisclosurePolicy, names_an_ai
from bot.engine.texts.say import say
from tests.conftest import FakeClock

POLICY = DisclosurePolicy()  # the defaults: every three hours


def _talk(clock: FakeClock, every: timedelta, until: timedelta, *, disclosed: datetime | None = None) -> list[bool]:
    """A person writing every `every` for `until`; whether each reply carried the disclosure."""
    start, seen, shown = clock.now(), None, []
    while clock.now() - start <= until:
        due = POLICY.due(disclosed, seen, clock.now())
        shown.append(due)
        disclosed, seen = (clock.now() if due else disclosed), clock.now()
        clock.current += every
    return shown


def test_said_at_a_persons_first_message_and_not_ten_minutes_later(clock: FakeClock) -> None:
    assert POLICY.due(None, None, clock.now())
    first = clock.now()
    clock.advance(minutes=10)
    assert not POLICY.due(first, first, clock.now())


def test_a_conversation_of_3h10_every_5_minutes_hears_it_at_the_start_and_at_three_hours(clock: FakeClock) -> None:
    shown = _talk(clock, timedelta(minutes=5), timedelta(hours=3, minutes=10))

    said_at = [index * 5 for index, due in enumerate(shown) if due]
    assert said_at == [0, 180]  # minutes into the conversation: the first reply at or past three hours


def test_a_pause_longer_than_a_continued_conversations_starts_a_new_interaction(clock: FakeClock) -> None:
    disclosed = clock.now()
    clock.advance(minutes=40)
    assert POLICY.due(disclosed, disclosed, clock.now())  # 40 minutes of silence, told only 40 minutes ago

    seen = disclosed + timedelta(minutes=20)  # they wrote since: the silence is what counts
    assert not POLICY.due(disclosed, seen, seen + PAUSE)
    assert POLICY.due(disclosed, seen, seen + PAUSE + timedelta(seconds=1))


def test_an_answer_to_a_disclosed_unprompted_message_continues_that_interaction(clock: FakeClock) -> None:
    last_wrote = clock.now() - timedelta(days=3)
    assert POLICY.due(clock.now() - timedelta(hours=1), last_wrote, clock.now())  # a check-in opens one
    checkin = clock.now()
    clock.advance(minutes=10)
    assert not POLICY.due(checkin, last_wrote, clock.now())  # they answer it
    clock.advance(minutes=30)
    assert POLICY.due(checkin, last_wrote, clock.now())  # 40 minutes after the check-in, unanswered


def test_the_operator_interval_and_switch_are_honoured(clock: FakeClock) -> None:
    hourly = DisclosurePolicy(interval=timedelta(hours=1))
    shown = [hourly.due(clock.now() - timedelta(minutes=m), clock.now() - timedelta(minutes=5), clock.now())
             for m in (59, 60)]  # fmt: skip
    assert shown == [False, True]
    assert not DisclosurePolicy(enabled=False).due(None, None, clock.now())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_built_in_texts_say_plainly_it_is_an_ai_and_not_a_person(language: str) -> None:
    text = POLICY.text(language)
    assert names_an_ai(text)
    assert ("not a person" if language == "en" else "pas une personne") in text
    assert text == say("disclosure", language)


def test_the_operator_text_replaces_the_built_in_one_in_its_language_only() -> None:
    policy = Settings(disclosure_text_fr="Je suis une IA, Lune.").disclosure_policy
    assert policy.shown("Coucou", "fr", True) == "Je suis une IA, Lune.\n\nCoucou"
    assert policy.text("en") == say("disclosure", "en")
    assert policy.shown("Hi", "en", False) == "Hi"


@pytest.mark.parametrize(
    "text", ["Hi, it's Lune!", "Salut, c'est Lune, j'ai hâte de te parler.", "   ", "Mais oui, je suis là."]
)
def test_an_operator_text_that_does_not_say_it_is_an_ai_never_replaces_the_disclosure(text: str) -> None:
    policy = Settings(disclosure_text_en=text, disclosure_text_fr=text).disclosure_policy
    assert policy.shown("Hello", "en", True) == f"{say('disclosure', 'en')}\n\nHello"
    assert policy.shown("Coucou", "fr", True) == f"{say('disclosure', 'fr')}\n\nCoucou"


@pytest.mark.parametrize(
    "text",
    ["I'm Lune, an AI.", "Lune is an A.I. companion", "Je suis une IA.", "Une intelligence artificielle te répond",
     "You're talking to artificial intelligence, not a human.", "I'm a chatbot"],
)  # fmt: skip
def test_operator_texts_that_name_an_ai_are_accepted(text: str) -> None:
    assert names_an_ai(text)
