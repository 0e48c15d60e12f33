"""A person's mood series on real Redis, seeded by tests: for /mood on every front end and for export."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.mood import MoodReading, TimedReading
from bot.engine.ports import Clock
from memory.mood.history import MoodHistoryService
from memory.mood.series import RedisMoodSeries

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def mood_history(redis: aioredis.Redis, clock: Clock) -> tuple[MoodHistoryService, RedisMoodSeries]:
    series = RedisMoodSeries(redis)
    return MoodHistoryService(series, clock), series


async def seed_readings(
    series: RedisMoodSeries, clock: Clock, user_key: str, valences: Sequence[float], *, hours_apart: float = 20
) -> None:
    """Readings ending now, `hours_apart` apart, the last one newest."""
    now = clock.now()
    for n, valence in enumerate(valences):
        at = now - timedelta(hours=hours_apart * (len(valences) - 1 - n))
        label = "joy" if valence > 0.2 else "sadness" if valence < -0.2 else "neutral"
        await series.add(user_key, TimedReading(at, MoodReading(label, valence, 0.5)), sensitive=False, now=now)
