"""Each person's mood readings in Redis: the time series, and the snapshot the reply path reads in one go.

Keys (one module owns them; `forget_user` removes both):
- `souvenir:mood:<user key>` — a sorted set of readings scored by time (UTC seconds), kept 400 days.
- `souvenir:mood-state:<user key>` — JSON: the last week's readings, the person's baseline, the believed
  patterns, when a painful topic last came up, and how many readings arrived since patterns were computed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import asdict
from datetime import date, datetime, timedelta
from typing import Any, cast

import redis.asyncio as aioredis

from bot.engine.mood import MOOD_LABELS, MoodPattern, MoodReading, TimedReading
from bot.engine.prompt.tone import MoodSnapshot
from bot.errors import UnreadableText
from memory.privacy.crypto import PlainCipher, Sealer, TextCipher

RETENTION = timedelta(days=400)
_RECENT = timedelta(days=7)
_OPENED_ON_LOOP = 64  # sealed readings opened on the event loop at most; more go to a worker thread
_RECENT_MAX = 200  # readings kept in the snapshot (a very talkative week is sampled from its end)


def _series_key(user_key: str) -> str:
    return f"souvenir:mood:{user_key}"


def _state_key(user_key: str) -> str:
    return f"souvenir:mood-state:{user_key}"


def _reading_json(timed: TimedReading) -> dict[str, Any]:
    r = timed.reading
    return {"at": timed.at.isoformat(), "label": r.label, "valence": round(r.valence, 3),
            "intensity": round(r.intensity, 3), "topics": list(timed.topics)}  # fmt: skip


def _reading_from(data: dict[str, Any]) -> TimedReading | None:
    label = data.get("label")
    if label not in MOOD_LABELS:
        return None
    reading = MoodReading(label, float(data.get("valence", 0.0)), float(data.get("intensity", 0.0)))
    return TimedReading(datetime.fromisoformat(data["at"]), reading, tuple(data.get("topics", ())))


def _pattern_json(pattern: MoodPattern) -> dict[str, Any]:
    data = asdict(pattern)
    data["since"] = pattern.since.isoformat() if pattern.since else None
    return data


def _pattern_from(data: dict[str, Any]) -> MoodPattern:
    since = data.get("since")
    return MoodPattern(**{**data, "since": date.fromisoformat(since) if since else None})


class RedisMoodSeries:
    def __init__(
        self, client: aioredis.Redis, *, retention: timedelta = RETENTION, cipher: TextCipher | None = None
    ) -> None:
        self._redis = client
        self._retention = retention
        # Each reading and the snapshot sealed with the person's data key (their topics are their words).
        self._cipher: TextCipher = cipher or PlainCipher()

    async def _readings(self, user_key: str, raw_all: Sequence[bytes | str]) -> list[TimedReading]:
        opener = await self._cipher.opener(user_key)
        if not self._cipher.enabled or len(raw_all) <= _OPENED_ON_LOOP:
            return _opened_readings(opener, raw_all)
        # A year of readings is thousands of decryptions (~40 µs each): off the event loop.
        return await asyncio.to_thread(_opened_readings, opener, raw_all)

    async def _state(self, user_key: str, raw: bytes | str | None) -> dict[str, Any]:
        if not raw:
            return {}
        try:
            return cast(dict[str, Any], json.loads(await self._cipher.open(user_key, _text(raw))))
        except UnreadableText:
            return {}

    async def add(self, user_key: str, timed: TimedReading, *, sensitive: bool, now: datetime) -> int:
        """Store one reading and refresh the snapshot; returns how many readings came since patterns were
        last computed. The snapshot is updated from what changed (the new reading, the few that aged out of
        the 400 days), not re-read from the whole series: one message, a handful of decryptions."""
        key = _series_key(user_key)
        member = await self._cipher.seal(user_key, json.dumps(_reading_json(timed), ensure_ascii=False, sort_keys=True))
        cutoff = f"({(now - self._retention).timestamp()}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrangebyscore(key, "-inf", cutoff)
            pipe.zadd(key, {member: timed.at.timestamp()})
            pipe.zremrangebyscore(key, "-inf", cutoff)
            pipe.expire(key, int(self._retention.total_seconds()))
            pipe.zcard(key)
            pipe.get(_state_key(user_key))
            raw_gone, added, _, _, count, raw_state = await pipe.execute()
        state = await self._state(user_key, raw_state)
        gone = await self._readings(user_key, raw_gone)
        total = state.get("valence_sum")
        expected = int(state.get("count", -1)) + int(added) - len(raw_gone)
        if total is None or expected != int(count) or len(gone) != len(raw_gone):
            # No running sum yet (written by an earlier version) or out of step: count once from the series.
            everything = await self._readings(user_key, cast(list[bytes], await self._redis.zrange(key, 0, -1)))
            total, state["recent"] = sum(r.reading.valence for r in everything), _recent_json(everything, now)
        else:
            total = float(total) + (timed.reading.valence if added else 0.0) - sum(r.reading.valence for r in gone)
            recent = [r for d in state.get("recent", ()) if (r := _reading_from(d)) is not None]
            state["recent"] = _recent_json(sorted([*recent, timed], key=lambda r: r.at) if added else recent, now)
        state["valence_sum"], state["count"] = total, int(count)
        state["baseline"] = total / int(count) if count else None
        if sensitive:
            state["sensitive_at"] = timed.at.isoformat()
        state["pending"] = int(state.get("pending", 0)) + 1
        await self._write_state(user_key, state)
        return int(state["pending"])

    async def set_patterns(self, user_key: str, patterns: Sequence[MoodPattern], now: datetime) -> None:
        """The patterns just computed (the count of readings since resets)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.exists(_series_key(user_key))
            pipe.get(_state_key(user_key))
            exists, raw_state = await pipe.execute()
        if not exists:
            return  # erased meanwhile: nothing to keep patterns about
        state = await self._state(user_key, raw_state)
        state["patterns"] = [_pattern_json(p) for p in patterns]
        state["pending"] = 0
        await self._write_state(user_key, state)

    async def _write_state(self, user_key: str, state: dict[str, Any]) -> None:
        sealed = await self._cipher.seal(user_key, json.dumps(state, ensure_ascii=False))
        await self._redis.set(_state_key(user_key), sealed, ex=int(self._retention.total_seconds()))

    async def readings(self, user_key: str, since: datetime | None = None) -> list[TimedReading]:
        """Oldest first."""
        low = since.timestamp() if since is not None else "-inf"
        raw_all = cast(list[bytes], await self._redis.zrangebyscore(_series_key(user_key), low, "+inf"))
        return await self._readings(user_key, raw_all)

    async def patterns(self, user_key: str) -> list[MoodPattern]:
        snapshot = await self.mood_snapshot(user_key)
        return list(snapshot.patterns) if snapshot else []

    # ---- the engine's MoodState ----

    async def mood_snapshot(self, user_key: str) -> MoodSnapshot | None:
        raw = await self._redis.get(_state_key(user_key))
        if raw is None:
            return None
        state = await self._state(user_key, raw)
        recent = tuple(r for d in state.get("recent", ()) if (r := _reading_from(d)) is not None)
        sensitive_at = state.get("sensitive_at")
        return MoodSnapshot(
            recent=recent,
            baseline=state.get("baseline"),
            patterns=tuple(_pattern_from(p) for p in state.get("patterns", ())),
            sensitive_at=datetime.fromisoformat(sensitive_at) if sensitive_at else None,
        )

    # ---- UserDataEraser ----

    async def forget_user(self, user_key: str) -> int:
        """The person's mood series and its state; how many readings it held."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zcard(_series_key(user_key))
            pipe.delete(_series_key(user_key), _state_key(user_key))
            held, _ = await pipe.execute()
        return int(held)


def _recent_json(readings: Sequence[TimedReading], now: datetime) -> list[dict[str, Any]]:
    """The last week's readings as the snapshot keeps them (a very talkative week sampled from its end)."""
    return [_reading_json(r) for r in readings if r.at >= now - _RECENT][-_RECENT_MAX:]


def _opened_readings(opener: Sealer, raw_all: Sequence[bytes | str]) -> list[TimedReading]:
    readings: list[TimedReading] = []
    for raw in raw_all:
        try:
            reading = _reading_from(json.loads(opener.open(_text(raw))))
        except UnreadableText:
            continue
        if reading is not None:
            readings.append(reading)
    return readings


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
