"""Noting how each message feels, in the background after the reply (with the memory write).

The reading comes from the LLM extraction when it gave one (the same call, no second one), else from the
offline reader. It is fenced like memory writes: when `/forget all` ran meanwhile, what was written goes
again. Patterns are recomputed here, off the reply path, every `recompute_every` new readings.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.engine.mood import MoodPattern, MoodReader, MoodReading, TimedReading
from bot.engine.ports import Clock, ErasureEpochs, SensitiveTopics
from memory.mood.series import RedisMoodSeries

log = logging.getLogger(__name__)

PatternFinder = Callable[[Sequence[TimedReading], str], list[MoodPattern]]
RECOMPUTE_EVERY = 20
_MAX_TOPICS = 6


class MoodJournal:
    def __init__(
        self,
        series: RedisMoodSeries,
        *,
        reader: MoodReader,
        find_patterns: PatternFinder,
        sensitive: SensitiveTopics,
        clock: Clock,
        erasures: ErasureEpochs | None = None,
        recompute_every: int = RECOMPUTE_EVERY,
    ) -> None:
        self._series = series
        self._reader = reader
        self._find_patterns = find_patterns
        self._sensitive = sensitive
        self._clock = clock
        self._erasures = erasures
        self._every = max(1, recompute_every)

    async def note_message(
        self,
        user_key: str,
        *,
        text: str,
        at: datetime,
        language: str,
        timezone: str,
        epoch: int | None,
        read_by_model: MoodReading | None = None,
        topics: Sequence[str] = (),
        sensitive: bool = False,
    ) -> None:
        """Read and keep the mood of one message. Never raises: an error here loses one reading only."""
        try:
            reading = read_by_model or await self._reader.read(text, language)
            shown_topics = tuple(dict.fromkeys(t.strip().lower() for t in topics if t and t.strip()))[:_MAX_TOPICS]
            timed = TimedReading(at, reading, shown_topics)
            painful = sensitive or self._sensitive.touches(text)
            if not await self._same_epoch(user_key, epoch):
                return
            pending = await self._series.add(user_key, timed, sensitive=painful, now=self._clock.now())
            if not await self._same_epoch(user_key, epoch):
                await self._series.forget_user(user_key)  # erased while it was written: the erasure wins
                return
            if pending >= self._every:
                await self.recompute(user_key, timezone)
        except Exception:
            log.exception("could not keep the mood of one message")

    async def recompute(self, user_key: str, timezone: str) -> list[MoodPattern]:
        """The person's patterns from their whole series (CPU work in a thread), cached with the snapshot."""
        readings = await self._series.readings(user_key)
        patterns = await asyncio.to_thread(self._find_patterns, readings, timezone)
        await self._series.set_patterns(user_key, patterns, self._clock.now())
        return patterns

    async def _same_epoch(self, user_key: str, epoch: int | None) -> bool:
        if self._erasures is None or epoch is None:
            return True
        return await self._erasures.epoch(user_key) == epoch
