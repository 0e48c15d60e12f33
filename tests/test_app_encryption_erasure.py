"""Crypto-shredding as `souvenir run` wires it: `/forget all` destroys the person's data key before anything
else, so a copy of their texts kept anywhere (a backup, a file not yet compacted) no longer opens."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from bot.app import open_core
from bot.config import Settings, load_settings
from bot.engine.model import ChatKind, Exchange, IncomingMessage, Reply, UserRef, dm_conversation_id
from bot.errors import ErasedMeanwhile, UnreadableText
from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key
from memory.privacy.crypto.keys import data_key_name
from memory.privacy.erasure import RedisErasureLog
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.redis_scan import redis_mentions

LEA = UserRef("telegram", "4242", "Léa")
MARC = UserRef("telegram", "5151", "Marc")
_ids = count(1)


def _settings(redis_url: str, data_dir: Path, llm: FakeOpenAI, key: str) -> Settings:
    return load_settings(
        data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
        llm_max_retries=0, llm_extraction=False, encryption_key=key,
    )  # fmt: skip


def _message(clock: FakeClock, user: UserRef, text: str) -> IncomingMessage:
    clock.advance(minutes=1)
    return IncomingMessage(user, dm_conversation_id(user), str(next(_ids)), text, clock.now(), ChatKind.PRIVATE)


async def test_forget_all_destroys_the_data_key_so_a_kept_copy_no_longer_opens(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    key = new_master_key()
    async with FakeOpenAI() as llm, open_core(_settings(redis_url, data_dir, llm, key), clock=clock) as core:
        for user, text in ((LEA, "My cat Miso purrs all day"), (MARC, "My dog Rex barks at night")):
            assert await core.engine.handle(_message(clock, user, text)) is not None
        await core.engine.drain()
        assert (await core.commands.memories_page(LEA, 0, 10)).total > 0
        # Everything kept in Redis is sealed: the words are nowhere in clear. Not "Rex" alone: three letters turn
        # up by chance in a sealed (base64) text about once in a hundred runs; a space never does.
        assert await redis_mentions(core.redis, "Miso", " Rex", "Rex ", "purrs") == []
        # A copy of one of Léa's stored texts, as a backup would keep it.
        [raw] = (await core.redis.lrange(f"souvenir:window:{dm_conversation_id(LEA)}", 0, 0))
        copy = json.loads(raw)["sealed"]
        assert await PersonCipher(RedisDataKeys(core.redis, key)).open(LEA.key, copy)  # opens before erasure

        assert (await core.commands.forget_everything(LEA)).ok

        assert await core.redis.exists(data_key_name(LEA.key)) == 0
        with pytest.raises(UnreadableText):
            await PersonCipher(RedisDataKeys(core.redis, key)).open(LEA.key, copy)
        # Marc's key and memories are untouched.
        assert await core.redis.exists(data_key_name(MARC.key)) == 1
        marc = await core.commands.memories_page(MARC, 0, 10)
        assert any("Rex" in item.text for item in marc.items)


async def test_a_write_in_flight_during_forget_all_leaves_no_new_data_key(
    redis_url: str, data_dir: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # How it was found: the data key went before the epoch moved, so a write that read the epoch before
    # /forget all and sealed in that gap made a new key for her, which nothing deleted afterwards.
    key = new_master_key()
    async with FakeOpenAI() as llm, open_core(_settings(redis_url, data_dir, llm, key), clock=clock) as core:
        assert await core.engine.handle(_message(clock, LEA, "My cat Miso purrs all day")) is not None
        await core.engine.drain()
        before = await RedisErasureLog(core.redis).epoch(LEA.key)
        slow = Exchange(_message(clock, LEA, "My boat is called Quetzal"), Reply("echo", "en"), "UTC", "en",
                        erasure_epoch=before)  # fmt: skip
        arrived: list[str] = []

        def in_the_gap(forget: Callable[[Any, str], Awaitable[None]]) -> Callable[[Any, str], Awaitable[None]]:
            async def forget_user(self: object, user_key: str) -> None:
                await forget(self, user_key)
                if user_key == LEA.key and not arrived:  # right after the first of the two: the slow write lands
                    arrived.append(type(self).__name__)
                    with contextlib.suppress(ErasedMeanwhile):
                        await core.memory.remember_exchange(slow)

            return forget_user

        monkeypatch.setattr(RedisErasureLog, "forget_user", in_the_gap(RedisErasureLog.forget_user))
        monkeypatch.setattr(PersonCipher, "forget_user", in_the_gap(PersonCipher.forget_user))
        assert (await core.commands.forget_everything(LEA)).ok

        assert arrived == ["RedisErasureLog"]  # the epoch moved first
        assert await core.redis.exists(data_key_name(LEA.key)) == 0  # no key made for her in the gap
        assert (await core.commands.memories_page(LEA, 0, 10)).total == 0
