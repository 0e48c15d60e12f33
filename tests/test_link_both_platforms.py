"""/link across the Telegram and Discord fakes, both running in one process on the real stack."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app import open_core, open_platforms_and_jobs
from bot.config import load_settings
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as payloads
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_discord_rest import Sent
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram


async def answered(discord: FakeDiscord, token: str) -> list[Sent]:
    """The answer to a slash command (after its "thinking…" deferral)."""
    return await discord.wait_for(lambda: [s for s in discord.for_interaction(token) if s.content] or None, 30)


CODE = re.compile(r"\b([0-9A-Z]{4}-[0-9A-Z]{4})\b")


async def test_a_telegram_code_links_a_discord_account_and_a_stranger_gets_nothing(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm, FakeTelegram() as telegram, FakeDiscord.running() as discord:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, llm_extraction=False,
            telegram_token=telegram.token, telegram_api_url=telegram.api_root,
            discord_token="fake-token", discord_api_url=discord.api_root, discord_gateway_url=discord.gateway_url,
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_platforms_and_jobs(core):
            await telegram.push_command(77, "remember", "My boat is called Zanzibar")
            await telegram.wait_for(lambda: len(telegram.texts(77)) == 1, 30)
            await telegram.push_command(77, "link")
            await telegram.wait_for(lambda: any(CODE.search(t) for t in telegram.texts(77)), 30)
            code = next(m.group(1) for t in telegram.texts(77) if (m := CODE.search(t)))
            ana, mallory = payloads.user("Ana"), payloads.user("Mallory")

            # A third account on Telegram cannot use it (and burns it), so Ana asks for another one.
            await telegram.push_command(99, "link", code)
            await telegram.wait_for(lambda: len(telegram.texts(99)) == 1, 30)
            assert "other platform" in telegram.texts(99)[0]
            await telegram.push_command(77, "link")
            await telegram.wait_for(lambda: len([t for t in telegram.texts(77) if CODE.search(t)]) == 2, 30)
            code = [m.group(1) for t in telegram.texts(77) if (m := CODE.search(t))][-1]

            linked = await discord.slash(ana, "link", {"code": code})
            [answer] = await answered(discord, linked)
            assert "Linked" in answer.content
            replayed = await discord.slash(mallory, "link", {"code": code})
            [refused] = await answered(discord, replayed)
            assert "doesn't work" in refused.content

            shown = await discord.slash(ana, "memories")
            [listing] = await answered(discord, shown)
            assert "Zanzibar" in listing.content
            peeked = await discord.slash(mallory, "memories")
            [nothing] = await answered(discord, peeked)
            assert "Zanzibar" not in nothing.content
