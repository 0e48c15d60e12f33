"""The mood series and its snapshot: the baseline and the last week follow every reading, and a reading reads
only what changed, not a year of readings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.mood import MoodReading, TimedReading
from memory.mood import series as series_module
from memory.mood.series import RedisMoodSeries

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


def reading(at: datetime, valence: float) -> TimedReading:
    return TimedReading(at, MoodReading("sadness" if valence < 0 else "joy", valence, 0.5), ())


async def test_the_baseline_is_the_mean_of_the_kept_readings_and_old_ones_age_out(redis_client: aioredis.Redis) -> None:
    moods = RedisMoodSeries(redis_client)
    await moods.add("lea", reading(NOW - timedelta(days=399), -1.0), sensitive=False, now=NOW - timedelta(days=399))
    for n in range(4):
        await moods.add("lea", reading(NOW - timedelta(days=3, hours=n), 0.5), sensitive=False, now=NOW)
    snapshot = await moods.mood_snapshot("lea")
    assert snapshot is not None and snapshot.baseline == pytest.approx((-1.0 + 4 * 0.5) / 5)

    later = NOW + timedelta(days=2)  # the first reading is now past the 400 days
    await moods.add("lea", reading(later, 1.0), sensitive=False, now=later)
    snapshot = await moods.mood_snapshot("lea")
    assert snapshot is not None and snapshot.baseline == pytest.approx((4 * 0.5 + 1.0) / 5)
    assert len(snapshot.recent) == 5  # the last week's


async def test_a_new_reading_opens_only_what_changed(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    moods = RedisMoodSeries(redis_client)
    for n in range(300):
        await moods.add("lea", reading(NOW - timedelta(hours=300 - n), 0.1), sensitive=False, now=NOW)
    opened: list[int] = []
    original = series_module.RedisMoodSeries._readings

    async def counting(self: RedisMoodSeries, user_key: str, raw_all: Sequence[bytes | str]) -> list[TimedReading]:
        opened.append(len(raw_all))
        return await original(self, user_key, raw_all)

    monkeypatch.setattr(series_module.RedisMoodSeries, "_readings", counting)
    await moods.add("lea", reading(NOW, 0.4), sensitive=False, now=NOW)
    assert sum(opened) < 5  # not the 300 readings kept
    snapshot = await moods.mood_snapshot("lea")
    assert snapshot is not None and snapshot.baseline == pytest.approx((300 * 0.1 + 0.4) / 301)


async def test_a_snapshot_from_an_earlier_version_is_counted_once_from_the_series(redis_client: aioredis.Redis) -> None:
    moods = RedisMoodSeries(redis_client)
    for valence in (0.2, 0.4):
        await moods.add("lea", reading(NOW - timedelta(hours=1), valence), sensitive=False, now=NOW)
    await redis_client.set("souvenir:mood-state:lea", '{"pending": 2}')  # no running sum
    await moods.add("lea", reading(NOW, 0.9), sensitive=False, now=NOW)
    snapshot = await moods.mood_snapshot("lea")
    assert snapshot is not None and snapshot.baseline == pytest.approx(0.5)
