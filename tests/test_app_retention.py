"""SOUVENIR_EPISODE_RETENTION_DAYS as `souvenir run` wires it: a month later the message (an episode, not itself
a fact the offline rules keep) is gone from /memories and from what the model is shown, the fact learnt from it is
still there; unset, all is kept."""

from __future__ import annotations

from pathlib import Path

from bot.app import open_core
from bot.config import Settings, load_settings
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Reply
from tests.test_app_erasure import LEA, say

FACTS = '{"facts": [{"text": "Léa has a cat named Miso"}], "events": []}'
SAID = "Today I brought a little cat home from the shelter: Miso."


def _settings(redis_url: str, data_dir: Path, llm: FakeOpenAI, retention: int | None) -> Settings:
    return load_settings(
        data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
        llm_max_retries=0, llm_extraction=True, default_timezone="Europe/Paris", episode_retention_days=retention,
    )  # fmt: skip


async def _kept_a_month_later(redis_url: str, data_dir: Path, clock: FakeClock, retention: int | None) -> list[str]:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, retention)
        async with open_core(settings, clock=clock) as core:
            llm.script(Reply("What a lovely cat!"), Reply(FACTS))
            await say(core, clock, SAID)
        clock.advance(days=31)
        async with open_core(settings, clock=clock) as core:
            return [item.text for item in (await core.commands.memories_page(LEA, 0, 50)).items]


async def test_a_message_older_than_the_retention_expires_and_its_fact_stays(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    kept = await _kept_a_month_later(redis_url, data_dir, clock, retention=30)
    assert kept == ["Léa has a cat named Miso"]


async def test_without_a_retention_everything_is_kept(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    kept = await _kept_a_month_later(redis_url, data_dir, clock, retention=None)
    assert sorted(kept) == sorted([SAID, "Léa has a cat named Miso"])
