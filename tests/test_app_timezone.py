"""Time zones from city names as `souvenir run` wires them (real engine, Redis, the packaged city database, the
OpenAI SDK against the fake server)."""

from __future__ import annotations

from pathlib import Path

from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.test_app_erasure import _settings, companion, message

LEA = UserRef("telegram", "4343", "Léa")


async def test_a_city_the_zones_do_not_name_is_known_to_the_command_and_in_conversation(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm, companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
        reply = await core.engine.handle(message(clock, "Bonjour ! J'habite à Lyon depuis peu.", LEA))
        lyon = await core.commands.set_timezone(LEA, "Lyon")
        await core.engine.drain()

    assert reply is not None and reply.text.endswith("/timezone Europe/Paris")
    assert "l'heure de Lyon" in reply.text
    assert lyon.ok and "Europe/Paris" in lyon.text
