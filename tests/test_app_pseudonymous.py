"""SOUVENIR_PSEUDONYMOUS_KEYS as `souvenir run` wires it: no store names the platform id except the one
mapping that lets the companion write to the person, which /forget all empties; the person notices nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import Core, open_core
from bot.config import Settings, load_settings
from bot.errors import UserUnreachable
from memory.privacy.pseudonyms import MAPPING_KEY, ResolvingMessenger
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.redis_scan import redis_mentions
from tests.test_app_erasure import LEA, say
from tests.test_erasure_on_disk import files_holding

PLATFORM_ID = LEA.user_id  # "4242"


class RecordingMessenger:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def send_direct(self, user_key: str, text: str) -> None:
        self.sent.append((user_key, text))


def _settings(redis_url: str, data_dir: Path, llm: FakeOpenAI, *, pseudonymous: bool) -> Settings:
    return load_settings(
        data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
        llm_max_retries=0, default_timezone="Europe/Paris", pseudonymous_keys=pseudonymous,
    )  # fmt: skip


async def _talk(core: Core, clock: FakeClock) -> None:
    await say(core, clock, "Hi! My cat is called Miso.")
    assert (await core.commands.remember(LEA, "Miso likes tuna")).ok
    assert (await core.commands.set_birthday(LEA, "14 mars")).ok
    page = await core.commands.memories_page(LEA, 0, 50)  # the person sees their memories as before
    assert any("Miso likes tuna" in item.text for item in page.items)


async def test_only_the_way_back_names_the_platform_id(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    llm = FakeOpenAI()
    async with llm, open_core(_settings(redis_url, data_dir, llm, pseudonymous=True), clock=clock) as core:
        await _talk(core, clock)
        assert await redis_mentions(core.redis, PLATFORM_ID) == [f"{MAPPING_KEY}: telegram:{PLATFORM_ID}"]
        assert files_holding(data_dir / "qdrant", PLATFORM_ID) == []  # memories name the pseudonym only
        assert core.pseudonyms is not None
        [pseudonymous_key] = [k.decode() for k in await core.redis.hkeys(MAPPING_KEY)]

        messenger = RecordingMessenger()
        await ResolvingMessenger(messenger, core.pseudonyms).send_direct(pseudonymous_key, "Thinking of you")
        assert messenger.sent == [(LEA.account_key, "Thinking of you")]  # it reaches the real account

        assert (await core.commands.forget_everything(LEA)).ok
        assert await redis_mentions(core.redis, PLATFORM_ID) == []
        with pytest.raises(UserUnreachable):
            await ResolvingMessenger(messenger, core.pseudonyms).send_direct(pseudonymous_key, "Still there?")
    assert (data_dir / "qdrant").is_dir() and files_holding(data_dir, PLATFORM_ID) == []
    assert (data_dir / "pseudonym.secret").stat().st_mode & 0o077 == 0


async def test_without_the_setting_stores_use_the_platform_id(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    llm = FakeOpenAI()
    async with llm, open_core(_settings(redis_url, data_dir, llm, pseudonymous=False), clock=clock) as core:
        await _talk(core, clock)
        assert len(await redis_mentions(core.redis, PLATFORM_ID)) > 1
