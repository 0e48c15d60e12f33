"""/memories web answers, only to the person who asked, a single-use link to the memory browser made for their
account; without SOUVENIR_PUBLIC_URL it says in one line that the page is off."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.discord import run_discord
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import UserRef
from tests.adapters.discord.conftest import FAST, Bot, BreakableMemories, EchoEngine, discord_settings
from tests.adapters.discord.test_slash_commands import run
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord import FakeDiscord


class Links:
    """Stands in for the login tokens: one fresh token per link, and for whom it was made."""

    def __init__(self) -> None:
        self.made: list[str] = []

    async def __call__(self, user: UserRef) -> str:
        self.made.append(user.account_key)
        return f"https://souvenir.example.org/memories/discord/token-{len(self.made)}"


@pytest.fixture
async def with_links(
    fake: FakeDiscord, engine: EchoEngine, memories: BreakableMemories, commands: UserCommands
) -> AsyncIterator[tuple[Bot, Links]]:
    guild_id, channel_id = fake.add_guild("Friends")
    links = Links()
    async with run_discord(
        discord_settings(fake), engine=engine, commands=commands, timings=FAST, browser_link=links
    ) as messenger:
        yield Bot(fake, engine, memories, commands, messenger, guild_id, channel_id), links


async def test_memories_web_answers_the_asker_alone_with_a_link_of_their_own(with_links: tuple[Bot, Links]) -> None:
    bot, links = with_links
    ana, bob = p.user("ana", user_id=4242), p.user("bob", user_id=5353)

    answer = await run(bot, ana, "memories", page="web")
    again = await run(bot, bob, "memories", locale="fr", page="web")

    assert answer.ephemeral and "https://souvenir.example.org/memories/discord/token-1" in answer.content
    assert "works once, for 10 minutes" in answer.content
    assert again.ephemeral and "token-2" in again.content and "ne sert qu'une fois" in again.content
    assert links.made == ["discord:4242", "discord:5353"]


async def test_without_a_public_url_memories_web_says_it_is_off(bot: Bot) -> None:
    answer = await run(bot, p.user("ana", user_id=4242), "memories", page="web")

    assert answer.ephemeral
    assert answer.content == "The memory page is not set up on this bot; /memories lists them here."
