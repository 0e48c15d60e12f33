"""A person's own mood history, as /mood and /export give it to them (the engine's `MoodHistory`)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from bot.engine.mood import TimedReading
from bot.engine.ports import Clock
from memory.mood.series import RedisMoodSeries


class MoodHistoryService:
    def __init__(self, series: RedisMoodSeries, clock: Clock) -> None:
        self._series = series
        self._clock = clock

    async def mood_readings(self, user_key: str) -> list[TimedReading]:
        return await self._series.readings(user_key)

    async def mood_chart(self, user_key: str, days: int, language: str, timezone: str) -> bytes | None:
        now = self._clock.now()
        readings = await self._series.readings(user_key, since=now - timedelta(days=days))
        patterns = await self._series.patterns(user_key)
        return await asyncio.to_thread(
            _render_chart, readings, patterns, language=language, timezone=timezone, days=days, now=now
        )


def _render_chart(*args: Any, **kwargs: Any) -> bytes | None:
    # matplotlib takes ~0.5 s to import: only the first chart pays for it, not every start-up.
    from memory.mood.chart import render_chart

    return render_chart(*args, **kwargs)
