"""/mood in the terminal chat: the chart is written to a file and its path printed."""

from __future__ import annotations

import io
from pathlib import Path

import redis.asyncio as aioredis

from adapters.terminal import TerminalChat
from bot.engine.model import IncomingMessage, Reply
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser
from tests.fakes.mood_history import PNG_SIGNATURE, mood_history, seed_readings


class SilentEngine:
    async def handle(self, message: IncomingMessage) -> Reply | None:
        return None


async def _run(lines: str, redis: aioredis.Redis, clock: FakeClock, files: Path, valences: list[float]) -> str:
    history, series = mood_history(redis, clock)
    await seed_readings(series, clock, "terminal:lea", valences, hours_apart=0.5)  # all on one day
    commands, _, _ = redis_backed_commands(redis, clock, InMemoryMemoryBrowser(), moods=history)
    out = io.StringIO()
    chat = TerminalChat(engine=SilentEngine(), commands=commands, clock=clock, user_name="lea",
                        stdin=io.StringIO(lines), stdout=out, files_dir=files)  # fmt: skip
    await chat.run()
    return out.getvalue()


async def test_mood_writes_a_png_and_prints_its_path(
    redis_client: aioredis.Redis, clock: FakeClock, tmp_path: Path
) -> None:
    out = await _run("/mood\n", redis_client, clock, tmp_path, [0.3, -0.6, 0.1])

    chart = tmp_path / "souvenir-mood-lea.png"
    assert chart.read_bytes().startswith(PNG_SIGNATURE)
    assert str(chart) in out
    assert "How your messages have felt over the last 30 days" in out


async def test_mood_with_two_readings_writes_nothing(
    redis_client: aioredis.Redis, clock: FakeClock, tmp_path: Path
) -> None:
    out = await _run("/mood 90\n", redis_client, clock, tmp_path, [0.3, -0.6])

    assert "I don't have enough of your messages yet" in out
    assert not (tmp_path / "souvenir-mood-lea.png").exists()
