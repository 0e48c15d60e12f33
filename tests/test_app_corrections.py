"""Corrections as `souvenir run` wires them (real engine, Redis, embedded Qdrant, USE embedder, offline
extraction, the OpenAI SDK against the fake server): what a person corrects in one session is what the
companion's prompt carries in a later one, after a restart."""

from __future__ import annotations

from pathlib import Path

from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.test_app_erasure import _settings, companion, say

LOGIN = UserRef("telegram", "4242", "xX_lea42_Xx")


async def test_a_correction_told_in_one_session_is_what_a_later_session_carries(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            await say(core, clock, "J'habite à Paris, près du canal.", LOGIN)
            await say(core, clock, "J'adore mon travail.", LOGIN)
        clock.advance(days=5)
        async with companion(settings, clock) as core:
            await say(core, clock, "En fait j'ai déménagé à Lyon le mois dernier.", LOGIN)
            await say(core, clock, "Au fait, je m'appelle Alice.", LOGIN)
        clock.advance(days=5)
        async with companion(settings, clock) as core:
            await say(core, clock, "Tu te souviens où j'habite ?", LOGIN)
        system = llm.bodies[-1]["messages"][0]["content"]
        # Where they live now is said once (in what the companion knows of them, or in the background), and the
        # old city nowhere in the prompt (but in the time zone's name).
        assert "Lyon" in system
        assert "Paris" not in system.replace("Europe/Paris", "")
        assert 'For "Alice" it is' in system and "xX_lea42_Xx" not in system
