"""/link as `souvenir run` wires it (real engine, Redis, embedded Qdrant): two accounts become one person,
no one ever reads another's memories, and /forget all on either side erases the person everywhere."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app import Core
from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.redis_scan import redis_mentions
from tests.test_app_erasure import _settings, companion, say

LEA_TG = UserRef("telegram", "4242", "Léa")
LEA_DC = UserRef("discord", "98765", "Léa")
MALLORY_DC = UserRef("discord", "13131", "Mallory")


async def _code(core: Core, user: UserRef) -> str:
    result = await core.commands.link(user)
    assert result.ok, result.text
    found = re.search(r"\b([0-9A-Z]{4}-[0-9A-Z]{4})\b", result.text)
    assert found, result.text
    return found.group(1)


async def test_linked_accounts_share_memories_settings_and_forget_all_erases_both(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm, companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
        assert (await core.commands.remember(LEA_TG, "My boat is called Zanzibar")).ok
        assert (await core.commands.set_timezone(LEA_TG, "America/Montreal")).ok

        linked = await core.commands.link(LEA_DC, await _code(core, LEA_TG))

        assert linked.ok, linked.text
        listing = await core.commands.memories_listing(LEA_DC)
        assert "Zanzibar" in listing.text
        assert (await core.commands.set_birthday(LEA_DC, "March 20")).ok
        assert "America/Montreal" in (await core.commands.export(LEA_DC)).decode()
        assert '"birthday": "--03-20"' in (await core.commands.export(LEA_TG)).decode()
        await say(core, clock, "Hello from Discord, tell me about Zanzibar", LEA_DC)
        assert "Zanzibar" in str(llm.requests[-1].body["messages"])  # recalled from the Telegram side
        assert (await core.commands.memories_listing(MALLORY_DC)).text.count("Zanzibar") == 0

        assert (await core.commands.forget_everything(LEA_DC)).ok

        assert await redis_mentions(core.redis, "4242", "98765", "Zanzibar", "Léa") == []
        assert (await core.commands.memories_page(LEA_TG, 0, 50)).total == 0


async def test_an_account_with_memories_of_its_own_cannot_redeem_a_code(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm, companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
        assert (await core.commands.remember(LEA_TG, "My boat is called Zanzibar")).ok
        assert (await core.commands.remember(MALLORY_DC, "I collect stamps")).ok
        code = await _code(core, LEA_TG)

        refused = await core.commands.link(MALLORY_DC, code)

        assert not refused.ok and "memories of its own" in refused.text
        assert "Zanzibar" not in (await core.commands.memories_listing(MALLORY_DC)).text
        assert "stamps" not in (await core.commands.memories_listing(LEA_TG)).text
        assert (await core.commands.link(LEA_DC, code)).ok  # the code was not burnt by the refusal


async def test_unlink_leaves_the_memories_with_the_account_that_asked_for_the_code(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm, companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
        assert (await core.commands.remember(LEA_TG, "My boat is called Zanzibar")).ok
        assert (await core.commands.link(LEA_DC, await _code(core, LEA_TG))).ok

        assert (await core.commands.unlink(LEA_DC)).ok

        assert "Zanzibar" in (await core.commands.memories_listing(LEA_TG)).text
        assert "Zanzibar" not in (await core.commands.memories_listing(LEA_DC)).text
        assert not (await core.commands.unlink(LEA_TG)).ok
