"""Time zones from city names as `souvenir run` wires them (real engine, Redis, the packaged city database, the
OpenAI SDK against the fake server)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot import geonames_cities
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


async def test_the_start_does_not_wait_for_the_city_database_and_the_first_look_up_does(
    redis_url: str, data_dir: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database takes ~0.7 s to read: the first prompt comes before it is read, "/timezone Lyon" right after
    waits for it and is answered."""
    read = threading.Event()
    index = geonames_cities._index

    def read_slowly() -> geonames_cities._Index:
        read.wait(20)
        return index()

    monkeypatch.setattr(geonames_cities, "_index", read_slowly)
    async with FakeOpenAI() as llm:
        async with asyncio.timeout(10):  # a start that waited for the database would wait here until it fails
            async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
                looking_up = asyncio.create_task(core.commands.set_timezone(LEA, "Lyon"))
                await asyncio.sleep(0.05)
                assert not looking_up.done()
                read.set()
                lyon = await looking_up

    assert lyon.ok and "Europe/Paris" in lyon.text
