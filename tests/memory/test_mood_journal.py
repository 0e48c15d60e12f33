"""Each message's mood, kept in the background: the model's reading when the extraction gave one, else the
offline reader's; bounded to 400 days; patterns recomputed every few readings, off the reply path."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.mood import MoodPattern, MoodReading, TimedReading
from memory.mood.journal import MoodJournal
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.mood.series import RedisMoodSeries
from memory.writing.extraction.llm import LlmExtractor
from tests.conftest import FakeClock
from tests.memory.test_llm_extraction import ScriptedModel

USER = "telegram:7"
SUNDAYS = MoodPattern("weekday", mood="sadness", weekday="sunday", evidence=8, p_value=0.01)


class FixedReader:
    """A stand-in offline reader: always the same reading, and what it was asked."""

    def __init__(self, reading: MoodReading) -> None:
        self.reading = reading
        self.asked: list[tuple[str, str]] = []

    async def read(self, text: str, language: str) -> MoodReading:
        self.asked.append((text, language))
        return self.reading


class CountingPatterns:
    """A stand-in pattern finder: records each call (and on which thread) and believes Sundays are hard."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []
        self.threads: set[int] = set()

    def __call__(self, readings: Sequence[TimedReading], timezone: str) -> list[MoodPattern]:
        self.calls.append((len(readings), timezone))
        self.threads.add(threading.get_ident())
        return [SUNDAYS]


def _journal(redis: aioredis.Redis, clock: FakeClock, reader: FixedReader, patterns: CountingPatterns,
             every: int = 3) -> tuple[MoodJournal, RedisMoodSeries]:  # fmt: skip
    series = RedisMoodSeries(redis)
    journal = MoodJournal(series, reader=reader, find_patterns=patterns, sensitive=LexiconSensitiveTopics(),
                          clock=clock, recompute_every=every)  # fmt: skip
    return journal, series


async def _note(journal: MoodJournal, clock: FakeClock, text: str, **extra: object) -> None:
    clock.advance(hours=1)
    await journal.note_message(USER, text=text, at=clock.now(), language="en", timezone="Europe/Paris", epoch=None,
                               **extra)  # type: ignore[arg-type]  # fmt: skip


async def test_the_models_reading_wins_and_the_offline_one_stands_in(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    reader = FixedReader(MoodReading("calm", 0.3, 0.2))
    journal, series = _journal(redis_client, clock, reader, CountingPatterns(), every=100)

    await _note(journal, clock, "ugh", read_by_model=MoodReading("anger", -0.6, 0.9), topics=["Boss", "boss"])
    await _note(journal, clock, "a quiet evening")

    first, second = await series.readings(USER)
    assert (first.reading.label, first.topics) == ("anger", ("boss",))
    assert second.reading.label == "calm"
    assert reader.asked == [("a quiet evening", "en")]  # the model's reading needed no offline one


async def test_patterns_are_recomputed_every_few_readings_in_a_worker_thread_and_cached(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    patterns = CountingPatterns()
    journal, series = _journal(redis_client, clock, FixedReader(MoodReading("neutral", 0.0, 0.1)), patterns, every=3)

    for n in range(7):
        await _note(journal, clock, f"message {n}")

    assert patterns.calls == [(3, "Europe/Paris"), (6, "Europe/Paris")]
    assert threading.get_ident() not in patterns.threads
    snapshot = await series.mood_snapshot(USER)
    assert snapshot is not None and snapshot.patterns == (SUNDAYS,)


async def test_readings_older_than_400_days_are_dropped(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    series = RedisMoodSeries(redis_client)
    old = TimedReading(clock.now() - timedelta(days=401), MoodReading("joy", 0.8, 0.5))
    kept = TimedReading(clock.now() - timedelta(days=399), MoodReading("sadness", -0.5, 0.5))
    for timed in (old, kept):
        await series.add(USER, timed, sensitive=False, now=clock.now())

    assert [r.reading.label for r in await series.readings(USER)] == ["sadness"]
    assert 0 < await redis_client.ttl(f"souvenir:mood:{USER}") <= 400 * 86400


async def test_a_painful_topic_is_remembered_as_such(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    journal, series = _journal(redis_client, clock, FixedReader(MoodReading("sadness", -0.7, 0.8)), CountingPatterns())

    await _note(journal, clock, "we had lunch")
    before = await series.mood_snapshot(USER)
    await _note(journal, clock, "I got laid off this morning")
    after = await series.mood_snapshot(USER)

    assert before is not None and before.sensitive_at is None
    assert after is not None and after.sensitive_at == clock.now()


async def test_a_broken_reader_loses_one_reading_and_raises_nothing(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    class Broken:
        async def read(self, text: str, language: str) -> MoodReading:
            raise RuntimeError("model file missing")

    series = RedisMoodSeries(redis_client)
    journal = MoodJournal(series, reader=Broken(), find_patterns=CountingPatterns(),
                          sensitive=LexiconSensitiveTopics(), clock=clock)  # fmt: skip
    await _note(journal, clock, "hello")
    assert await series.readings(USER) == []


async def test_the_extraction_call_reads_the_mood_and_a_wrong_mood_spoils_nothing() -> None:
    at = datetime(2026, 3, 14, 12, tzinfo=UTC)
    good = '{"facts": [{"text": "likes jazz"}], "mood": {"label": "joy", "valence": 0.6, "intensity": 0.5}}'
    wrong = '{"facts": [{"text": "likes jazz"}], "mood": {"label": "ecstatic", "valence": 7}}'
    moods: list[MoodReading] = []

    found = await LlmExtractor(ScriptedModel(good)).extract("I love jazz", at, "UTC", "en", mood_out=moods)
    assert moods == [MoodReading("joy", 0.6, 0.5)] and found

    moods.clear()
    found = await LlmExtractor(ScriptedModel(wrong)).extract("I love jazz", at, "UTC", "en", mood_out=moods)
    assert moods == [] and found and found[0].text == "likes jazz"
