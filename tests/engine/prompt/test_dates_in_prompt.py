"""Dates the model can trust: every remembered thing says how long ago it was told or when it happens, counted
in the person's local days, and their birthday or anniversary is known on the day whatever recall finds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import DatedEvent, MonthDay, RecalledMemory
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from memory.service import LongTermMemoryService
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory, Rig
from tests.engine.fakes import RecordingPlanner, ScriptedLLM
from tests.memory.fake_index import FakeMemoryIndex


def _line(system: str, words: str) -> str:
    (line,) = [line for line in system.splitlines() if words in line]
    return line


async def _set_profile(rig: Rig, **changes: object) -> None:
    profile = await rig.profiles.load_profile("telegram:42")
    await rig.profiles.save_profile(replace(profile, **changes))  # type: ignore[arg-type]


# ---- with long-term memory as it is: what was said weeks ago reads as weeks ago ----


@pytest.fixture
async def remembering(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[tuple[Engine, ScriptedLLM]]:
    llm = ScriptedLLM()
    memory = LongTermMemoryService(FakeMemoryIndex(), default_timezone="Europe/Paris")
    engine = Engine(
        llm=llm,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory,
        planner=RecordingPlanner(),
        dated_events=memory,
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"),
    )
    yield engine, llm
    await engine.drain()


async def test_an_episode_told_three_weeks_ago_reads_as_three_weeks_ago_not_yesterday(
    remembering: tuple[Engine, ScriptedLLM], message: MessageFactory, clock: FakeClock
) -> None:
    engine, llm = remembering
    await engine.handle(message("I went to the support group yesterday, it helped a lot"))
    await engine.drain()
    clock.advance(days=21)

    await engine.handle(message("I keep thinking about the support group"))

    line = _line(llm.requests[-1].system, "I went to the support group yesterday")
    assert line.endswith("[told you 3 weeks ago]")
    assert "[told you yesterday]" not in line


async def test_a_yearly_birthday_shows_its_next_occurrence_not_the_year_it_was_told(
    remembering: tuple[Engine, ScriptedLLM], message: MessageFactory, clock: FakeClock
) -> None:
    engine, llm = remembering
    clock.current = datetime(2025, 2, 1, 12, 0, tzinfo=UTC)
    await engine.handle(message("My birthday is on 14 March"))
    await engine.drain()
    clock.current = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    await engine.handle(message("when is my birthday again?"))

    line = _line(llm.requests[-1].system, "Birthday — ")
    assert line == '- "Birthday — every year, next one in 12 days"'


# ---- the prompt as recall hands memories over ----


async def test_recalled_memories_say_how_long_ago_in_the_persons_days(rig: Rig, message: MessageFactory) -> None:
    now = rig.clock.now()  # Saturday 14 March 2026, 13:00 in Paris
    rig.memory.memories = [
        RecalledMemory("m1", "episodic", "I went to the support group yesterday", event_at=now - timedelta(days=21)),
        RecalledMemory("m2", "semantic", "Has a cat named Miso", event_at=now - timedelta(hours=2)),
        RecalledMemory("m3", "emotional", "Feels lonely on Sundays", told_at=datetime(2025, 3, 2, 9, tzinfo=UTC)),
        RecalledMemory("m4", "temporal", "Job interview — 26 March 2026", on=date(2026, 3, 26)),
        RecalledMemory(
            "m5", "temporal", "Sister's wedding anniversary — 14 March (every year)", on=date(2024, 3, 14), yearly=True
        ),
    ]
    await rig.engine.handle(message("hello"))

    system = rig.llm.requests[0].system
    assert _line(system, "support group").endswith("[told you 3 weeks ago]")
    assert _line(system, "Miso").endswith("[told you earlier today]")
    assert _line(system, "lonely").endswith("[told you in March last year]")
    assert _line(system, "Job interview") == '- "Job interview — in 12 days"'
    assert _line(system, "Sister's wedding anniversary") == '- "Sister\'s wedding anniversary — every year, today"'
    assert "never repeat the brackets or turn them into dates" in system


async def test_a_memory_told_late_last_night_is_yesterday_in_the_persons_zone(
    rig: Rig, message: MessageFactory
) -> None:
    await _set_profile(rig, timezone="America/New_York")
    rig.clock.current = datetime(2026, 3, 14, 13, 0, tzinfo=UTC)  # 09:00 in New York
    told = datetime(2026, 3, 14, 3, 30, tzinfo=UTC)  # 23:30 the evening before in New York, the same UTC date
    rig.memory.memories = [RecalledMemory("m1", "episodic", "Couldn't sleep, thinking about mum", event_at=told)]
    await rig.engine.handle(message("morning"))

    assert _line(rig.llm.requests[0].system, "Couldn't sleep").endswith("[told you yesterday]")


# ---- the person's own occasions, whatever recall finds ----


async def test_on_the_persons_local_birthday_the_prompt_says_so_and_not_the_day_before(
    rig: Rig, message: MessageFactory
) -> None:
    await _set_profile(rig, birthday=MonthDay(3, 14), timezone="Pacific/Auckland")  # UTC+13 in March
    rig.clock.current = datetime(2026, 3, 13, 10, 0, tzinfo=UTC)  # 23:00 on 13 March in Auckland
    await rig.engine.handle(message("still up"))
    rig.clock.current = datetime(2026, 3, 13, 12, 0, tzinfo=UTC)  # 01:00 on 14 March in Auckland, same UTC date
    await rig.engine.handle(message("it's past midnight!"))

    day_before, on_the_day = (r.system for r in rig.llm.requests)
    assert 'Today is "Léa"\'s birthday.' not in day_before
    assert '- "Léa"\'s birthday: tomorrow.' in day_before
    assert 'Today is "Léa"\'s birthday.' in on_the_day


async def test_a_birthday_by_utc_date_is_not_the_persons_birthday_yet(rig: Rig, message: MessageFactory) -> None:
    await _set_profile(rig, birthday=MonthDay(3, 14), timezone="America/Los_Angeles")
    rig.clock.current = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)  # 20:00 on 13 March in Los Angeles
    await rig.engine.handle(message("evening"))

    system = rig.llm.requests[0].system
    assert 'Today is "Léa"\'s birthday.' not in system
    assert '- "Léa"\'s birthday: tomorrow.' in system


async def test_a_remembered_anniversary_is_known_on_the_day_without_recall(rig: Rig, message: MessageFactory) -> None:
    rig.dated.events = [
        DatedEvent("a1", "telegram:42", "wedding anniversary", date(2019, 3, 14), True, "anniversary"),
        DatedEvent("a2", "telegram:42", "Marc's birthday", date(2001, 3, 16), True, "birthday", about="Marc"),
        DatedEvent("a3", "telegram:42", "dentist", date(2026, 4, 30), False, "event"),
    ]
    await rig.engine.handle(message("what a day"))

    system = rig.llm.requests[0].system
    assert rig.memory.memories == []  # recall found nothing
    assert 'Today is "Léa"\'s wedding anniversary.' in system
    assert "- Marc's birthday: in 2 days." in system
    assert "dentist" not in system  # weeks away: not worth a line


async def test_a_dated_events_outage_still_gets_a_reply_with_the_profile_birthday(
    rig: Rig, message: MessageFactory
) -> None:
    await _set_profile(rig, birthday=MonthDay(3, 14))
    rig.dated.broken = True
    reply = await rig.engine.handle(message("hi"))

    assert reply is not None and not reply.fallback
    assert rig.dated.asked == ["telegram:42"]
    assert 'Today is "Léa"\'s birthday.' in rig.llm.requests[0].system


async def test_a_birthday_stays_private_in_a_group_unless_shared(rig: Rig, message: MessageFactory) -> None:
    await _set_profile(rig, birthday=MonthDay(3, 14))
    await rig.engine.handle(message("hello all", group="-100"))
    await _set_profile(rig, share_dm_memories_in_groups=True)
    await rig.engine.handle(message("hello again", group="-100"))

    private, shared = (r.system for r in rig.llm.requests)
    assert "birthday" not in private
    assert 'Today is "Léa"\'s birthday.' in shared


async def test_the_birthday_and_a_told_anniversary_are_in_the_prompt_even_with_birthday_wishes_off(
    rig: Rig, message: MessageFactory
) -> None:
    # The temporal layer comes before the conversation: wishes off (or not sent yet) does not hide the day.
    await _set_profile(rig, birthday=MonthDay(3, 14), birthday_wishes=False, checkins=False)
    await rig.engine.handle(message("salut !"))
    assert 'Today is "Léa"\'s birthday.' in rig.llm.requests[-1].system

    await _set_profile(rig, birthday=None)
    rig.dated.events = [
        DatedEvent("a1", "telegram:42", "wedding anniversary", date(2019, 3, 14), True, "anniversary"),
    ]
    await rig.engine.handle(message("hello again"))
    assert 'Today is "Léa"\'s wedding anniversary.' in rig.llm.requests[-1].system


# ---- dated memories say when in words, never as calendar dates ----


@pytest.mark.parametrize(
    ("told", "later", "line"),
    [
        (
            "Claire's wedding is on 9 January 2027, I can't wait",
            "I keep thinking about Claire's wedding",
            '- "Claire\'s wedding — in a month"',
        ),
        (
            "Le mariage de Claire est le 9 janvier 2027, j'ai hâte",
            "je pense au mariage de Claire",
            '- "Mariage (Claire) — in a month"',
        ),
    ],
)
async def test_a_dated_memory_says_when_relatively_not_its_calendar_date(
    remembering: tuple[Engine, ScriptedLLM],
    message: MessageFactory,
    clock: FakeClock,
    told: str,
    later: str,
    line: str,
) -> None:
    engine, llm = remembering
    clock.current = datetime(2026, 11, 12, 12, 0, tzinfo=UTC)
    await engine.handle(message(told))
    await engine.drain()
    clock.current = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)

    await engine.handle(message(later))

    assert line in llm.requests[-1].system.splitlines()


@pytest.mark.parametrize("said", ["My birthday is on 14 March", "Mon anniversaire c'est le 14 mars"])
async def test_a_message_about_a_yearly_date_says_when_the_next_one_is_in_plain_english(
    rig: Rig, message: MessageFactory, said: str
) -> None:
    told = rig.clock.now() - timedelta(days=21)  # Saturday 14 March 2026: the next one is a year away
    rig.clock.current = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    rig.memory.memories = [RecalledMemory("m1", "episodic", said, told_at=told, on=date(2026, 3, 14), yearly=True)]
    await rig.engine.handle(message("hello"))

    line = _line(rig.llm.requests[0].system, said)
    assert line.endswith("[told you 9 months ago; the next one is in 3 months]")


@pytest.mark.parametrize("said", ["dimanche difficile", "Sunday is hard", "le lundi c'est dur"])
async def test_a_weekday_in_a_feeling_is_not_shown_as_a_day_ahead(
    remembering: tuple[Engine, ScriptedLLM],
    message: MessageFactory,
    clock: FakeClock,
    redis_client: aioredis.Redis,
    said: str,
) -> None:
    engine, llm = remembering
    profiles = RedisProfiles(redis_client)
    clock.current = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # a Wednesday
    await engine.handle(message("hello"))
    profile = await profiles.load_profile("telegram:42")
    await profiles.save_profile(replace(profile, timezone="UTC", language="en"))  # English settings, UTC
    await engine.handle(message(said))
    await engine.drain()
    clock.current = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)

    await engine.handle(message(f"again: {said}"))

    assert _line(llm.requests[-1].system, f'"{said}"').endswith("[told you yesterday]")
