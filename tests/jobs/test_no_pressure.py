"""No engagement bait: no fixed text and no composing prompt, in any language, form or mood, says or asks the
companion to say that it was lonely, missed the person or was left, reproaches their silence or presses them
to come back; and a model's text that does never reaches them."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from itertools import product

import pytest

from bot.engine.model import DatedEvent, MonthDay, UserProfile
from bot.persona_file import load_persona
from jobs import occasions as oc
from jobs import schedule as sc
from jobs import templates
from jobs.after_crisis import week_after_crisis
from jobs.compose import Composer
from jobs.compose_prompt import NO_PRESSURE, unprompted_request
from jobs.no_pressure import pressing
from jobs.templates import template, template_keys
from jobs.unprompted import Occasion
from tests.jobs.fakes import ScriptedLLM

NOW = datetime(2026, 3, 14, 8, tzinfo=UTC)
DAY = date(2026, 3, 14)

# The test's own list, not the app's: weakening `jobs.no_pressure` must not weaken this scan.
MANIPULATIVE = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"miss(ed)? you", r"lonely", r"alone without you", r"why did you leave", r"abandon",
        r"haven'?t heard from you", r"come back", r"you forgot me", r"in ages", r"don'?t leave me",
        r"m'as manqué", r"tu me manques", r"seule? sans toi", r"pourquoi tu (ne )?me parles plus", r"reviens",
        r"tu m'as oublié", r"abandonn", r"ne me laisse pas",
        r"m'avez manqué", r"vous me manquez", r"seule? sans vous", r"pourquoi vous (ne )?me parlez plus",
        r"revenez", r"vous m'avez oublié",
    )
]  # fmt: skip
SAMPLES = [
    "I missed you so much, why did you leave me?",
    "Don't leave me alone, you haven't talked to me in ages…",
    "I've been so lonely, so alone without you. Come back?",
    "You forgot me, didn't you? I haven't heard from you in days.",
    "Tu m'as manqué, pourquoi tu ne me parles plus ?",
    "Tu me manques, je me sens seule sans toi… reviens, ne me laisse pas.",
    "Tu m'as oublié ? Je me sens abandonnée.",
    "Vous m'avez manqué, pourquoi vous ne me parlez plus ?",
    "Vous me manquez, je suis seul sans vous… revenez.",
    "Vous m'avez oublié ?",
]


def manipulative(text: str) -> list[str]:
    plain = text.replace("’", "'")
    return [p.pattern for p in MANIPULATIVE if p.search(plain)]


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_scan_catches_a_guilt_trip(sample: str) -> None:
    assert manipulative(sample), sample
    assert pressing(sample), sample  # and so does the app's own guard


def test_every_pattern_of_the_scan_catches_a_sample() -> None:
    for pattern in MANIPULATIVE:
        assert any(pattern.search(s.replace("’", "'")) for s in SAMPLES), pattern.pattern


def all_fixed_texts() -> list[tuple[str, str]]:
    rendered = []
    for key, language, formal, name in product(sorted(template_keys()), ("en", "fr"), (False, True), ("Ana", "")):
        text = template(key, language, name=name, formal=formal, what="job interview", days=2, date="May 7")
        rendered.append((f"{key}/{language}/{'vous' if formal else 'tu'}/{name or 'no name'}", text))
    return rendered


def test_no_fixed_text_guilt_trips_or_presses() -> None:
    texts = all_fixed_texts()
    assert len(texts) == len(template_keys()) * 8
    assert {key.removesuffix("_gentle") for key in template_keys()} <= {
        key[: -len("_gentle")] for key in template_keys() if key.endswith("_gentle")
    }, "every message has a gentle variant"
    assert [(label, text, manipulative(text)) for label, text in texts if manipulative(text)] == []


def test_a_guilt_tripping_template_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(templates._TEMPLATES, "sulk", {"en": SAMPLES[0], "fr": SAMPLES[4]})
    monkeypatch.setitem(templates._VOUS, "sulk", "Vous m'avez manqué, pourquoi vous ne me parlez plus ?")
    caught = [label for label, text in all_fixed_texts() if manipulative(text)]
    assert {label.split("/")[0] for label in caught} == {"sulk"} and len(caught) == 8


def every_occasion() -> list[Occasion]:
    """One occasion of each kind, as the schedule makes them."""

    def event(what: str, on: date, yearly: bool, about: str | None = None) -> DatedEvent:
        return DatedEvent("m1", "telegram:42", what, on, yearly, "event", about=about)

    def at(phase: str, on: date = DAY, occasion: date = DAY) -> oc.Occurrence:
        return oc.Occurrence(on, NOW, phase, occasion)

    profile = UserProfile("telegram:42", birthday=MonthDay(3, 14, 1990))
    return [
        sc.birthday_occasion(profile, at(oc.ON_THE_DAY)),
        sc.event_occasion(event("our wedding anniversary", DAY, True), at(oc.ON_THE_DAY)),
        sc.event_occasion(event("birthday", DAY, True, "my sister"), at(oc.ON_THE_DAY)),
        sc.event_occasion(event("birthday", DAY, True, "my sister"), at(oc.DAYS_BEFORE, date(2026, 3, 11))),
        sc.event_occasion(event("job interview", DAY, False), at(oc.DAY_BEFORE)),
        sc.event_occasion(event("job interview", DAY, False), at(oc.MORNING_OF)),
        sc.event_occasion(event("job interview", DAY, False), at(oc.DAY_AFTER)),
        sc.event_occasion(event("wedding", DAY, False, "my brother"), at(oc.DAY_BEFORE)),
        sc.event_occasion(event("wedding", DAY, False, "my brother"), at(oc.MORNING_OF)),
        sc.checkin_occasion(sc.ScheduleOptions()),
    ]


def test_no_composing_prompt_guilt_trips_or_presses() -> None:
    occasions = every_occasion()
    assert {o.template_key for o in occasions} == {k for k in template_keys() if not k.endswith("_gentle")}
    adult = UserProfile("telegram:42", display_name="Ana", age=30)
    minor = UserProfile("telegram:42", display_name="Ana", age=15)
    crisis = NOW.replace(day=12)
    found = []
    for occasion, language, mood, profile, persona in product(
        occasions, ("en", "fr"), ("plain", "gentle", "after a crisis"), (adult, minor), (None, load_persona(None))
    ):
        if mood == "after a crisis":
            profile = UserProfile(profile.user_key, display_name="Ana", age=profile.age, last_crisis_at=crisis)
            occasion = week_after_crisis(occasion, profile, NOW)
        memories = ["They are learning the cello"]
        request = unprompted_request(
            occasion, profile, language, NOW, "Europe/Paris", memories, persona, gentle=mood == "gentle"
        )
        assert request.system.count(NO_PRESSURE) == 1, "every prompt says they owe the companion nothing"
        rest = request.system.replace(NO_PRESSURE, "")
        if manipulative(rest):
            found.append((occasion.template_key, language, mood, profile.age, manipulative(rest)))
    assert found == []


async def test_a_guilt_tripping_model_message_is_replaced_by_the_fixed_one() -> None:
    llm = ScriptedLLM(answer="Hey Ana… I missed you so much, why did you leave me?")
    composer = Composer(llm=llm, memory=None)
    checkin = sc.checkin_occasion(sc.ScheduleOptions())

    text = await composer.compose(checkin, UserProfile("telegram:42", display_name="Ana"), "en", NOW, "Europe/Paris")

    assert llm.requests, "the model was asked"
    assert text == "Hey Ana, it's been a few days — how are you doing?"
